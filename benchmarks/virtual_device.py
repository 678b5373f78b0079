"""How fast and how light the virtual device is, as each real client sees it.

Run: python benchmarks/virtual_device.py [--devices 8] [--rounds 30]

Prints one table: medians and p90s of a shell round trip, `uiautomator dump` and `screencap -p`,
measured inside the device and through a raw socket client, adbutils, uiautomator2 and
AndroidViewClient; then every app's screens, resident memory per device and 8 devices driven at
once. Targets stand beside the numbers; the exit status is 0 unless something crashed.

Inside the device: a dump is timed as a loop of N in one `shell` call, less the same loop without
it, over N, with the clock moved a minute before each (a new frame to build). A new screen's
capture is timed one per call, right after another screen was captured, less a `true` round trip.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import re
import socket
import statistics
import sys
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import adbutils

from pytest_mobile_agent.device import adb_server
from pytest_mobile_agent.device.android import DUMP_COMMAND
from pytest_mobile_agent.virtual import VirtualDevice, start_devices
from pytest_mobile_agent.virtual.adb import auth
from pytest_mobile_agent.virtual.adb.packets import (
    A_AUTH,
    A_CLSE,
    A_CNXN,
    A_OKAY,
    A_OPEN,
    A_WRTE,
    AUTH_SIGNATURE,
    MAX_PAYLOAD,
    VERSION,
    PacketReader,
    encode,
)

CALC = "com.simplemobiletools.calculator"
LAUNCHER = "com.android.launcher3"
# The device clock starts at 2024-05-15 09:00 UTC; every `date @T` below moves it a minute on,
# which changes the status bar, so each capture is of a screen never drawn before.
EPOCH = 1715763600


# -- measuring ---------------------------------------------------------------------------------
@dataclass
class Stat:
    samples: list[float] = field(default_factory=list)  # seconds

    @property
    def median(self) -> float:
        return statistics.median(self.samples) * 1000

    @property
    def p90(self) -> float:
        s = sorted(self.samples)
        return s[min(len(s) - 1, round(0.9 * (len(s) - 1)))] * 1000

    def cell(self) -> str:
        return f"{self.median:7.2f} /{self.p90:7.2f}" if self.samples else "-"


def timed(fn: Callable[[], object], n: int, before: Callable[[], object] | None = None) -> Stat:
    """Time `fn` n times; `before` runs untimed ahead of each call (to change the screen)."""
    stat = Stat()
    for _ in range(n):
        if before:
            before()
        t = time.perf_counter()
        fn()
        stat.samples.append(time.perf_counter() - t)
    return stat


class AdbServer:
    """A minimal client of the adb server's smart-socket protocol: the floor any client pays."""

    def __init__(self, serial: str) -> None:
        self.serial = serial
        self.port = adb_server.server_port()

    def shell(self, command: str) -> bytes:
        with socket.create_connection(("127.0.0.1", self.port)) as s:
            s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            self._request(s, f"host:transport:{self.serial}")
            self._request(s, f"shell:{command}")
            chunks = []
            while chunk := s.recv(1 << 20):
                chunks.append(chunk)
        return b"".join(chunks)

    @staticmethod
    def _request(s: socket.socket, text: str) -> None:
        data = text.encode()
        s.sendall(b"%04x" % len(data) + data)
        status = s.recv(4, socket.MSG_WAITALL)
        if status != b"OKAY":
            raise RuntimeError(f"adb server refused {text!r}: {status!r} {s.recv(1024)!r}")


class DirectAdbd:
    """One persistent connection straight to a device's adbd (no adb server): the device's own floor."""

    def __init__(self, port: int) -> None:
        self.sock = socket.create_connection(("127.0.0.1", port))
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.reader = PacketReader()
        self.queue: list = []
        self.ids = iter(range(1, 1 << 30))
        self.sock.sendall(encode(A_CNXN, VERSION, MAX_PAYLOAD, b"host::\0"))
        reply = self._next()
        if reply.command == A_AUTH:  # sign the token with the user's key, as the adb server does
            key = auth.parse_private_key((Path.home() / ".android" / "adbkey").read_bytes())
            self.sock.sendall(encode(A_AUTH, AUTH_SIGNATURE, 0, auth.sign(key, reply.data)))
            reply = self._next()
        assert reply.command == A_CNXN

    def _next(self):  # noqa: ANN202
        while not self.queue:
            self.queue.extend(self.reader.feed(self.sock.recv(1 << 20)))
        return self.queue.pop(0)

    def shell(self, command: str) -> bytes:
        local = next(self.ids)
        self.sock.sendall(encode(A_OPEN, local, 0, f"shell:{command}\0".encode()))
        out = bytearray()
        while True:
            p = self._next()
            if p.command == A_WRTE:
                out += p.data
                self.sock.sendall(encode(A_OKAY, local, p.arg0))
            elif p.command == A_CLSE:
                return bytes(out)
            elif p.command != A_OKAY:
                raise RuntimeError(f"unexpected {p.name}")

    def close(self) -> None:
        self.sock.close()


class Clock:
    """Hands out `date @T` commands, each a minute after the last."""

    def __init__(self) -> None:
        self.t = EPOCH

    def tick(self) -> str:
        self.t += 60
        return f"date @{self.t} >/dev/null"


def device_side(adb: AdbServer, clock: Clock, command: str, n: int, repeats: int, fresh: bool) -> Stat:
    """Per-run time of `command` inside the device: one shell call running it n times, less
    the same call without it; with `fresh`, the clock moves before each run (a new screen)."""
    adb.shell(f"{clock.tick()}; {command}")  # warm up: glyphs and icons seen for the first time
    stat = Stat()
    for _ in range(repeats):
        prefix = [clock.tick() if fresh else "true" for _ in range(2 * n)]
        script = "; ".join(f"{prefix[i]}; {command}" for i in range(n))
        baseline = "; ".join(f"{prefix[n + i]}; true" for i in range(n))
        t = time.perf_counter()
        adb.shell(script)
        full = time.perf_counter() - t
        t = time.perf_counter()
        adb.shell(baseline)
        empty = time.perf_counter() - t
        stat.samples.append(max(0.0, full - empty) / n)
    return stat


def elsewhere(adb: AdbServer, clock: Clock, pkg: str) -> Callable[[], object]:
    """Untimed set-up for a fresh capture of `pkg`: another screen is captured first, then `pkg`
    comes back with the clock a minute on. The renderer keeps the last screen's deflated PNG
    bands and reuses those that did not change, so a capture right after one of the same screen
    (only the clock differs) would hide most of the encoding cost."""
    other = CALC if pkg == LAUNCHER else LAUNCHER
    back = "input keyevent HOME" if pkg == LAUNCHER else f"monkey -p {pkg} -c android.intent.category.LAUNCHER 1"
    away = "input keyevent HOME" if other == LAUNCHER else f"monkey -p {other} -c android.intent.category.LAUNCHER 1"
    return lambda: adb.shell(f"{clock.tick()}; {away} >/dev/null 2>&1; screencap -p >/dev/null; {back} >/dev/null 2>&1")


def fresh_capture(adb: AdbServer, clock: Clock, pkg: str, n: int, floor: float) -> Stat:
    """Inside-device time of `screencap -p` of a screen new to the renderer: one capture per shell
    call through the raw client, less `floor` (the median round trip of `true`)."""
    stat = timed(lambda: adb.shell("screencap -p >/dev/null"), n, elsewhere(adb, clock, pkg))
    stat.samples = [max(0.0, t - floor) for t in stat.samples]
    return stat


def rss_mb(dev: VirtualDevice) -> float:
    with open(f"/proc/{dev.process.pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


# -- apps --------------------------------------------------------------------------------------
def launchable_apps(adb: AdbServer) -> list[str]:
    out = adb.shell("pm list packages").decode()
    packages = sorted({line.split(":", 1)[1].strip() for line in out.splitlines() if line.startswith("package:")})
    apps = []
    for pkg in packages:
        if pkg == LAUNCHER:
            continue
        reply = adb.shell(f"monkey -p {pkg} -c android.intent.category.LAUNCHER 1 >/dev/null 2>&1; echo RC=$?")
        if b"RC=0" in reply:
            apps.append(pkg)
    return apps


def open_app(adb: AdbServer, pkg: str) -> None:
    if pkg == LAUNCHER:
        adb.shell("input keyevent HOME")
    else:
        adb.shell(f"monkey -p {pkg} -c android.intent.category.LAUNCHER 1 >/dev/null 2>&1")


def bounds_center(xml: str, rid: str) -> tuple[int, int]:
    m = re.search(rf'resource-id="{re.escape(rid)}"[^>]*bounds="\[(\d+),(\d+)\]\[(\d+),(\d+)\]"', xml)
    if not m:
        raise RuntimeError(f"{rid} not on screen")
    left, top, right, bottom = map(int, m.groups())
    return (left + right) // 2, (top + bottom) // 2


# -- report ------------------------------------------------------------------------------------
COLUMNS = ("inside device", "raw socket", "adbutils", "uiautomator2", "AndroidViewClient")


@dataclass
class Row:
    name: str
    cells: dict[str, Stat | str] = field(default_factory=dict)
    target: str = ""
    verdict: str = ""


def check(value: float, limit: float) -> str:
    return "PASS" if value <= limit else "FAIL"


def print_table(rows: list[Row], title: str) -> None:
    name_w = max(len(r.name) for r in rows)
    widths = [max(len(c), 17) for c in COLUMNS]
    print(f"\n{title}")
    print("cells: median / p90 in ms")
    head = f"{'':{name_w}}  " + "  ".join(f"{c:>{w}}" for c, w in zip(COLUMNS, widths)) + "  target        result"
    print(head)
    print("-" * len(head))
    for r in rows:
        cells = []
        for c, w in zip(COLUMNS, widths):
            v = r.cells.get(c, "-")
            cells.append(f"{v.cell() if isinstance(v, Stat) else v:>{w}}")
        print(f"{r.name:{name_w}}  " + "  ".join(cells) + f"  {r.target:12}  {r.verdict}")


@contextlib.contextmanager
def section(name: str) -> Iterator[None]:
    t = time.perf_counter()
    print(f"  {name} ...", end="", flush=True, file=sys.stderr)
    yield
    print(f" {time.perf_counter() - t:.1f}s", file=sys.stderr)


@contextlib.contextmanager
def quiet() -> Iterator[None]:
    """AndroidViewClient and uiautomator2 talk on stdout/stderr; keep the table readable."""
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        yield


# -- the run -----------------------------------------------------------------------------------
def short(pkg: str) -> str:
    return pkg.removeprefix("com.simplemobiletools.").removeprefix("com.android.").removesuffix(".pro")


def single_device(
    dev: VirtualDevice, n: int
) -> tuple[list[Row], list[str], list[tuple], list[str], tuple[float, float]]:
    adb = AdbServer(dev.serial)
    clock = Clock()
    d = adbutils.AdbClient().device(dev.serial)
    fresh = lambda: adb.shell(clock.tick())  # noqa: E731  (a new frame: dumps are built afresh)
    new_screen = elsewhere(adb, clock, CALC)
    rows: list[Row] = []
    notes: list[str] = []

    with section("shell round trip"):
        direct = DirectAdbd(dev.port)
        direct_rt = timed(lambda: direct.shell("echo ok"), 2 * n)
        direct.close()
        raw_rt = timed(lambda: adb.shell("echo ok"), 2 * n)
        adbutils_rt = timed(lambda: d.shell("echo ok"), n)
        floor = timed(lambda: adb.shell("true"), 2 * n).median / 1000
    rows.append(
        Row(
            "shell echo round trip",
            {"inside device": f"{direct_rt.cell()} *", "raw socket": raw_rt, "adbutils": adbutils_rt},
            "raw <= 2 ms",
            check(raw_rt.median, 2),
        )
    )
    notes.append("* shell round trip 'inside device': a persistent raw connection straight to adbd, no adb server")

    with section("calculator: dump and screencap"):
        adb.shell(f"pm clear {CALC}")
        open_app(adb, CALC)
        dump_dev = device_side(adb, clock, "uiautomator dump /data/local/tmp/b.xml >/dev/null", 10, 7, fresh=True)
        dump_same = device_side(adb, clock, "uiautomator dump /data/local/tmp/b.xml >/dev/null", 10, 5, fresh=False)
        cap_dev = fresh_capture(adb, clock, CALC, n, floor)
        cap_clock = device_side(adb, clock, "screencap -p >/dev/null", 5, 7, fresh=True)
        cap_cached = device_side(adb, clock, "screencap -p >/dev/null", 10, 5, fresh=False)
        raw_dump = timed(lambda: adb.shell(DUMP_COMMAND), n, fresh)  # as the harness dumps
        raw_cap = timed(lambda: adb.shell("screencap -p"), n, new_screen)
        raw_cap_cached = timed(lambda: adb.shell("screencap -p"), n)
        a_dump = timed(d.dump_hierarchy, n, fresh)
        a_cap = timed(d.screenshot, n, new_screen)
        a_cap_cached = timed(d.screenshot, n)
        xml = d.dump_hierarchy()
        digit = bounds_center(xml, f"{CALC}:id/btn_1")
        a_click = timed(lambda: d.click(*digit), n)

    with section("uiautomator2"):
        import uiautomator2 as u2

        with quiet():
            u = u2.connect(dev.serial)
            u.info  # noqa: B018  (starts the in-device server)
        u_dump = timed(u.dump_hierarchy, n, fresh)
        u_cap = timed(u.screenshot, n, new_screen)
        u_cap_cached = timed(u.screenshot, n)
        u_click = timed(lambda: u.click(*digit), n)

    with section("AndroidViewClient"):
        adb_server.expose_adb_on_path()
        from com.dtmilano.android.viewclient import ViewClient

        with quiet():
            device, serial = ViewClient.connectToDeviceOrExit(serialno=dev.serial, verbose=False)
            vc = ViewClient(device, serial, autodump=False)
        v_dump = timed(lambda: vc.dump(sleep=0), n, fresh)
        v_touch = timed(lambda: vc.touch(*digit), n)

    rows.append(
        Row(
            "uiautomator dump, calculator",
            {"inside device": dump_dev, "raw socket": raw_dump, "adbutils": a_dump, "uiautomator2": u_dump,
             "AndroidViewClient": v_dump},
            "dev <= 5 ms",
            check(dump_dev.median, 5),
        )
    )  # fmt: skip
    rows.append(Row("  same screen again", {"inside device": dump_same}))
    rows.append(
        Row(
            "screencap -p 1080x2340, new screen",
            {"inside device": cap_dev, "raw socket": raw_cap, "adbutils": a_cap, "uiautomator2": f"{u_cap.cell()} j"},
            "dev <= 40 ms",
            check(cap_dev.median, 40),
        )
    )
    rows.append(Row("  only the clock changed", {"inside device": cap_clock}))
    rows.append(
        Row(
            "  cached (screen unchanged)",
            {"inside device": cap_cached, "raw socket": raw_cap_cached, "adbutils": a_cap_cached,
             "uiautomator2": f"{u_cap_cached.cell()} j"},
        )
    )  # fmt: skip
    rows.append(Row("click / tap", {"adbutils": a_click, "uiautomator2": u_click, "AndroidViewClient": v_touch}))
    notes.append("j uiautomator2 screenshots are JPEG over JSON-RPC (takeScreenshot), not screencap -p")
    notes.append(
        f"overhead over the raw client: adbutils shell x{adbutils_rt.median / raw_rt.median:.0f}, "
        f"dump x{a_dump.median / raw_dump.median:.1f}; uiautomator2 dump x{u_dump.median / raw_dump.median:.1f}; "
        f"AndroidViewClient dump x{v_dump.median / raw_dump.median:.1f}"
    )

    with section("every app: busiest screen"):
        apps = launchable_apps(adb)
        per_app = []
        for pkg in [LAUNCHER, *apps]:
            open_app(adb, pkg)
            xml = adb.shell(DUMP_COMMAND)
            if b"<hierarchy" not in xml:  # an app model that fails is reported, not measured
                notes.append(f"! {pkg}: uiautomator dump failed: {xml[-200:]!r}")
                continue
            t_dump = device_side(adb, clock, "uiautomator dump /data/local/tmp/b.xml >/dev/null", 8, 5, fresh=True)
            t_cap = fresh_capture(adb, clock, pkg, 7, floor)
            per_app.append((pkg, xml.count(b"<node "), t_dump, t_cap))
        rss_busy = rss_mb(dev)
        time.sleep(1.5)  # the device gives freed screen buffers back after a second without packets
        rss_idle = rss_mb(dev)
    busiest = max(per_app, key=lambda a: a[2].median)
    rows.append(
        Row(
            f"uiautomator dump, slowest app ({short(busiest[0])}, {busiest[1]} nodes)",
            {"inside device": busiest[2]},
            "dev <= 5 ms",
            check(busiest[2].median, 5),
        )
    )
    slowest_cap = max(per_app, key=lambda a: a[3].median)
    rows.append(
        Row(
            f"screencap -p new screen, slowest app ({short(slowest_cap[0])})",
            {"inside device": slowest_cap[3]},
            "dev <= 40 ms",
            check(slowest_cap[3].median, 40),
        )
    )
    return rows, notes, per_app, apps, (rss_busy, rss_idle)


def drive(dev: VirtualDevice, apps: list[str], rounds: int, offset: int, errors: list[str], done: list[int]) -> None:
    """One device's rounds; `done[offset]` counts the rounds that went through."""
    d = adbutils.AdbClient().device(dev.serial)
    for r in range(rounds):
        pkg = apps[(offset + r) % len(apps)]
        try:
            d.app_start(pkg)
            d.click(270, 1500)
            d.click(810, 1900)
            xml = d.dump_hierarchy()
            if "<hierarchy" not in xml:
                raise RuntimeError("dump without a hierarchy")
            if d.screenshot().size != (1080, 2340):
                raise RuntimeError("screenshot of the wrong size")
            done[offset] += 1
        except Exception as exc:  # counted and reported: the point is that there are none
            errors.append(f"{dev.serial} round {r} {pkg}: {exc!r}"[:200])


def concurrent(
    devices: list[VirtualDevice], apps: list[str], rounds: int
) -> tuple[int, list[str], float, tuple[float, float]]:
    errors: list[str] = []
    done = [0] * len(devices)
    threads = [
        threading.Thread(target=drive, args=(dev, apps, rounds, i, errors, done)) for i, dev in enumerate(devices)
    ]
    t = time.perf_counter()
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    wall = time.perf_counter() - t
    alive = sum(dev.alive for dev in devices)
    if alive != len(devices):
        errors.append(f"{len(devices) - alive} device(s) died")
    busy = max(rss_mb(dev) for dev in devices if dev.alive)
    time.sleep(1.5)
    return sum(done), errors, wall, (busy, max(rss_mb(dev) for dev in devices if dev.alive))


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--devices", type=int, default=8, help="devices driven at once")
    p.add_argument("--rounds", type=int, default=30, help="rounds per device in the concurrent run")
    p.add_argument("-n", type=int, default=30, help="samples per client measurement")
    args = p.parse_args()
    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    t0 = time.perf_counter()
    with section(f"starting {args.devices} devices"):
        devices = start_devices(max(1, args.devices))
    try:
        rows, notes, per_app, apps, (rss_busy, rss_idle) = single_device(devices[0], args.n)
        with section(f"{len(devices)} devices x {args.rounds} rounds"):
            done, errors, wall, (all_busy, all_idle) = concurrent(devices, apps or [CALC], args.rounds)
    finally:
        for dev in devices:
            dev.stop()
    total = time.perf_counter() - t0

    print_table(rows, f"Virtual device benchmark ({os.cpu_count()} CPUs, {sys.version.split()[0]})")
    print()
    print(f"every screen, inside the device (median / p90 ms), launcher + {len(apps)} launchable apps:")
    print(f"  {'app':16} {'nodes':>5}  {'uiautomator dump':>17}  {'screencap -p new':>18}")
    for pkg, nodes, t_dump, t_cap in per_app:
        print(f"  {short(pkg):16} {nodes:5}  {t_dump.cell():>17}  {t_cap.cell():>18}")
    print()
    print(
        f"resident memory (VmRSS) after showing all {len(apps)} apps: device 0 {rss_idle:.1f} MB idle"
        f" ({rss_busy:.1f} MB just after);  max of {len(devices)} devices after the concurrent run"
        f" {all_idle:.1f} MB idle ({all_busy:.1f} MB just after)   target <= 80 MB idle"
        f"   {check(max(rss_idle, all_idle), 80)}"
    )
    rounds = len(devices) * args.rounds
    print(
        f"{len(devices)} devices at once, {args.rounds} rounds each (app_start, 2 taps, dump, screenshot via adbutils):"
        f" {done}/{rounds} rounds, {len(errors)} errors, wall {wall:.1f} s ({done / wall:.1f} rounds/s)"
        f"   target 0 errors   {'PASS' if not errors and done == rounds else 'FAIL'}"
    )
    for e in errors[:5]:
        print(f"    {e}")
    for note in notes:
        print(note)
    print(f"total benchmark time {total:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
