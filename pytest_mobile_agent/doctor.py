"""`python -m pytest_mobile_agent doctor [--devices SPEC]`: check every device a run would use
and say what works and what to do.

It drives each device through the harness's own code (AndroidDevice, the listener installer,
the event stream client, the emulator console), so what passes here is what a run does: adb state
and authorization, API level, screenshot, window dump (how and how fast), foreground detection,
the listener app and its event stream, a permission grant, a locale change, animations, console
snapshots (refused under `-read-only`) and the clock. The first thing to run on a new phone,
emulator or farm.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TypeVar

from pytest_mobile_agent.device import adb_server
from pytest_mobile_agent.device.android import ANIMATION_SCALES, AndroidDevice
from pytest_mobile_agent.device.emulators import EmulatorError
from pytest_mobile_agent.device.pool import DeviceConfigError, DeviceSource
from pytest_mobile_agent.device.reset import (
    ConsoleError,
    EmulatorConsole,
    await_back,
    console_port,
    is_local,
    remote_console,
)
from pytest_mobile_agent.errors import DeviceLost, InfrastructureFault, TaskError
from pytest_mobile_agent.events.schema import LISTENER_PACKAGE

OK, WARN, FAIL = "ok", "warn", "FAIL"
T = TypeVar("T")
PROBE_SNAPSHOT = "pytest_mobile_agent_doctor_probe"


@dataclass
class Check:
    name: str
    status: str
    detail: str
    advice: str = ""

    def lines(self) -> list[str]:
        out = [f"  {self.status:4}  {self.name:17} {self.detail}"]
        if self.advice:
            out.append(f"  {'':4}  {'':17} -> {self.advice}")
        return out


def timed(fn: Callable[[], T]) -> tuple[T, float]:
    """`fn`'s value and how long it took, in ms."""
    t0 = time.perf_counter()
    value = fn()
    return value, (time.perf_counter() - t0) * 1000


def check_device(dev: AndroidDevice) -> list[Check]:
    """Every check on one online, authorized device; each one's failure is reported, not raised."""
    checks = []
    for probe in (api_level, screenshot, window_dump, foreground, listener, permission, locale, animations):
        try:
            checks.append(probe(dev))
        except (InfrastructureFault, TaskError, OSError, RuntimeError, ValueError) as exc:
            checks.append(Check(probe.__name__.replace("_", " "), FAIL, f"{type(exc).__name__}: {exc}"))
    checks.append(snapshots(dev))
    checks.append(clock(dev))
    return checks


def api_level(dev: AndroidDevice) -> Check:
    release, model = dev.sh("getprop ro.build.version.release; getprop ro.product.model").split("\n")[:2]
    sdk = dev.sdk()
    status, advice = (OK, "") if sdk >= 26 else (WARN, "the harness is checked against Android 8 (API 26) to 15")
    return Check("API level", status, f"Android {release.strip()}, API {sdk}, {model.strip()}", advice)


def screenshot(dev: AndroidDevice) -> Check:
    png, ms = timed(dev.screenshot)
    width, height = int.from_bytes(png[16:20], "big"), int.from_bytes(png[20:24], "big")
    return Check("screenshot", OK, f"screencap -p: {width}x{height} PNG, {len(png) // 1024} kB, {ms:.0f} ms")


def window_dump(dev: AndroidDevice) -> Check:
    xml, ms = timed(dev.dump)
    how = "through uiautomator2" if dev._u2 is not None else "uiautomator dump to a file"
    return Check("window dump", OK, f"{how}: {xml.count('<node')} nodes, {ms:.0f} ms")


def foreground(dev: AndroidDevice) -> Check:
    (package, activity), ms = timed(dev.current_app)
    section = "displays" if dev.sdk() >= 29 else "windows"
    return Check("foreground", OK, f"{package}/{activity} (dumpsys window {section}), {ms:.0f} ms")


def listener(dev: AndroidDevice) -> Check:
    from pytest_mobile_agent.device.listener import ensure_listener, installed_version_code
    from pytest_mobile_agent.events.client import EventStreamClient

    _, ms = timed(lambda: ensure_listener(dev.adb))
    version = installed_version_code(dev.adb)
    with EventStreamClient.for_device(dev.adb) as client:
        since = client.last_seq
        # Settings opened and closed again: a window change, and the device left as it was.
        dev.sh(
            "monkey -p com.android.settings -c android.intent.category.LAUNCHER 1; input keyevent HOME; "
            "am force-stop com.android.settings",
            check=False,
        )
        event = client.wait_for(lambda e: True, timeout=5, since=since)
    if event is None:
        return Check("event stream", FAIL, "no event within 5 s of opening Settings", "check the accessibility service")
    return Check("event stream", OK, f"listener {version} enabled in {ms:.0f} ms; first event: {event.type}")


def permission(dev: AndroidDevice) -> Check:
    dev.sh(f"pm grant {LISTENER_PACKAGE} android.permission.CHANGE_CONFIGURATION")
    return Check("permission grant", OK, "pm grant of a development permission (CHANGE_CONFIGURATION)")


def locale(dev: AndroidDevice) -> Check:
    before = dev.locale
    _, ms = timed(lambda: dev.set_locale("zh-CN"))
    dev.set_locale(before if before != "zh-CN" else "en-US")
    return Check("locale", OK, f"zh-CN set without root and read back, {dev.locale} again, {ms:.0f} ms")


def animations(dev: AndroidDevice) -> Check:
    values = dev.sh("; ".join(f"settings get global {name}" for name in ANIMATION_SCALES)).split()
    shown = ", ".join(f"{n.split('_')[0]} {v}" for n, v in zip(ANIMATION_SCALES, values, strict=False))
    if all(v in ("0", "0.0") for v in values):
        return Check("animations", OK, f"off ({shown})")
    return Check("animations", OK, f"on ({shown}); a run turns them off before its base snapshot")


def snapshots(dev: AndroidDevice) -> Check:
    port = console_port(dev.serial)
    if port is None:
        return Check("snapshots", WARN, "no emulator console (not emulator-N)", "resets use --mobile-reset=clear")
    host = getattr(dev.client, "host", "127.0.0.1")  # an emulator's console is on its adb server's machine
    try:
        console = EmulatorConsole(port, host, timeout=10)
    except (ConsoleError, OSError) as exc:
        if not is_local(host):
            return Check("snapshots", WARN, f"no console at {host}:{port} ({exc})", remote_console(host, port))
        return Check("snapshots", WARN, f"console on port {port}: {exc}", "resets use --mobile-reset=clear")
    try:
        console.command(f"avd snapshot save {PROBE_SNAPSHOT}")
        console.command(f"avd snapshot load {PROBE_SNAPSHOT}")
        _, ms = timed(lambda: await_back(dev))  # an emulator drops adb for a moment after a load
        console.command(f"avd snapshot delete {PROBE_SNAPSHOT}")
    except ConsoleError as exc:
        advice = "boot one writable AVD copy per instance" if "read-only" in str(exc) else "see the console's answer"
        return Check("snapshots", FAIL, f"console on port {port} refused a snapshot: {exc}", advice)
    finally:
        console.close()
    detail = f"console on port {port}: avd snapshot save, load (adb back after {ms:.0f} ms), delete"
    return Check("snapshots", OK, detail)


def clock(dev: AndroidDevice) -> Check:
    shown = dev.sh("date '+%Y-%m-%d %H:%M:%S %Z'").strip()
    skew = int(dev.sh("date +%s").strip() or 0) - time.time()
    if abs(skew) < 5:
        return Check("clock", OK, f"{shown}, within 5 s of the host")
    return Check(
        "clock",
        WARN,
        f"{shown}: {abs(skew) / 86400:.1f} days {'ahead of' if skew > 0 else 'behind'} the host",
        "fine where deliberate (the virtual device's clock starts at a fixed date); an emulator's "
        "snapshot load rolls it back to the save time",
    )


@contextmanager
def devices_for(spec: str) -> Iterator[tuple[list[AndroidDevice], list[tuple[str, str]]]]:
    """The devices `--devices SPEC` would use (a virtual one started for the check), and the
    serials the adb server lists but a run could not use, with their state."""
    from pytest_mobile_agent.device.emulators import EmulatorFleet, parse

    avds = parse(spec)
    if avds is not None:  # booted for the check as for a run, shut down after it
        fleet = EmulatorFleet(*avds)
        try:
            yield [AndroidDevice(serial) for serial in fleet.boot()], []
        finally:
            fleet.shutdown()
        return
    source = DeviceSource.parse(spec)
    if source.kind == "virtual":
        from pytest_mobile_agent.virtual import start_device

        virtual = start_device()
        try:
            yield [AndroidDevice(virtual.serial)], []
        finally:
            virtual.stop()
        return
    listed = {d.serial: d.state for d in source.client().list()}
    wanted = source.serials if source.kind == "serials" else tuple(listed)
    usable = [s for s in wanted if listed.get(s) == "device"]
    unusable = [(s, listed.get(s, "not listed")) for s in wanted if listed.get(s) != "device"]
    yield [AndroidDevice(s, source.client()) for s in usable], unusable


STATE_ADVICE = {
    "unauthorized": "accept the USB debugging prompt on the device (or add this host's ~/.android/adbkey.pub)",
    "offline": "the device stopped answering adb: reconnect it, or `adb reconnect offline`",
    "not listed": "adb does not list it: check the serial, the cable or `adb connect HOST:PORT`",
}


def run(spec: str, write: Callable[[str], None] = print) -> int:
    """Check the devices and print the report; 0 when nothing failed."""
    failed = False
    try:
        with devices_for(spec) as (devices, unusable):
            mismatch = adb_server.path_adb_mismatch()
            if mismatch:
                failed = True
                write("this host")
                for line in Check("adb on PATH", FAIL, mismatch).lines():
                    write(line)
            for serial, state in unusable:
                failed = True
                write(serial)
                for line in Check("adb state", FAIL, state, STATE_ADVICE.get(state, "")).lines():
                    write(line)
            for dev in devices:
                write(f"{dev.serial}")
                checks = [Check("adb state", OK, "device (authorized)")]
                try:
                    checks += check_device(dev)
                except DeviceLost as exc:
                    checks.append(Check("device", FAIL, str(exc), "the device stopped answering during the checks"))
                for check in checks:
                    failed |= check.status == FAIL
                    for line in check.lines():
                        write(line)
            if not devices and not unusable:
                write(f"--devices={spec}: no device")
                return 1
    except (DeviceConfigError, EmulatorError) as exc:
        write(f"--devices={spec}: {exc}")
        return 1
    return 1 if failed else 0


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m pytest_mobile_agent doctor",
        description="Check every device a run would use (as --devices picks them) and say what works and what to do.",
    )
    parser.add_argument(
        "--devices", default="virtual", help="as pytest's --devices (default: virtual; emulator:AVD*N boots them)"
    )
    args = parser.parse_args(argv)
    return run(args.devices)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
