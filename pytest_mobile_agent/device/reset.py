"""How the `device` fixture brings a device back to one known state before each task.

- `snapshot`: the emulator's own snapshots. The first time a device is leased (after boot and the
  listener set-up) the plugin saves a snapshot through the emulator console (`avd snapshot save`)
  and loads it before every task (`avd snapshot load`): files, providers, app data, the window
  stack and the clock all come back. Emulators (`emulator-N`: console on port N) and virtual
  devices (which register as emulators and answer the same console) support it. The load drops
  adb for a moment: the reset waits for the device to answer again and sets a running clock
  forward (await_back, resync_clock); the pool then rebuilds the event stream the drop cut.
- `clear`: clear-and-clean, for phones: HOME, force-stop and `pm clear` of the task's apps,
  their grants, then a check of the durable state against the one of the first reset (see
  ClearReset). Best effort, meant for a phone kept for testing: what was added since the first
  reset is deleted.

`--mobile-reset=snapshot|clear` picks one; unset, a device gets `snapshot` when its console
answers, else `clear`. A reset that fails raises DeviceLost: an infrastructure error, retried on
another device, never counted against the agent.
"""

from __future__ import annotations

import logging
import re
import socket
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from pytest_mobile_agent.errors import DeviceLost

if TYPE_CHECKING:
    from pytest_mobile_agent.device.android import AndroidDevice
    from pytest_mobile_agent.device.durable_state import DurableState, StateDiff

SNAPSHOT_NAME = "pytest-mobile-agent-base"
STRATEGIES = ("snapshot", "clear")
log = logging.getLogger(__name__)
TOKEN_FILE = ".emulator_console_auth_token"
READ_ONLY_REFUSAL = 'Snapshot save is disabled because "-read-only" was specified'
LOAD_TIMEOUT = 120.0  # an emulator answers adb again within seconds of a load; a busy host takes longer


class ConsoleError(Exception):
    """The console answered `KO: ...`, or did not answer as a console does."""


def remote_console(host: str, port: int) -> str:
    """Why an emulator behind a remote adb server has no console here."""
    return (
        f"the emulator is behind the adb server at {host}: its console listens on that machine's loopback "
        f"(port {port}) and cannot be reached from this host, so no snapshot reset; reset by clearing "
        "(--mobile-reset=clear), or run the session on that machine for snapshots"
    )


def is_local(host: str) -> bool:
    return host in ("localhost", "::1") or host.startswith("127.")


def console_port(serial: str) -> int | None:
    """The console port of a local emulator (`emulator-N` -> N), None for any other serial."""
    m = re.fullmatch(r"emulator-(\d+)", serial)
    return int(m.group(1)) if m else None


class EmulatorConsole:
    """One session on an emulator console: greeting, `auth`, then commands answered OK / KO."""

    def __init__(self, port: int, host: str = "127.0.0.1", timeout: float = 30.0, home: Path | None = None) -> None:
        self.sock = socket.create_connection((host, port), timeout=timeout)
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self._buffer = b""
        greeting = self._reply()
        if any("Authentication required" in line for line in greeting):
            path = (home or Path.home()) / TOKEN_FILE
            try:
                token = path.read_text().strip()
            except OSError as exc:
                self.close()
                raise ConsoleError(f"the console on port {port} asks for the token in {path}: {exc}") from exc
            self.command(f"auth {token}")

    def _line(self) -> str:
        while b"\n" not in self._buffer:
            data = self.sock.recv(65536)
            if not data:
                raise ConnectionError("the emulator console closed the connection")
            self._buffer += data
        line, self._buffer = self._buffer.split(b"\n", 1)
        return line.rstrip(b"\r").decode(errors="replace")

    def _reply(self) -> list[str]:
        lines: list[str] = []
        while True:
            line = self._line()
            if line == "OK" or line.startswith("OK:"):
                return lines
            if line.startswith("KO"):
                raise ConsoleError(line[3:].strip() or line)
            lines.append(line)

    def command(self, text: str) -> list[str]:
        """Send one command; its output lines (OK stripped). Raises ConsoleError on KO."""
        self.sock.sendall(text.encode() + b"\r\n")
        return self._reply()

    def close(self) -> None:
        try:
            self.sock.sendall(b"quit\r\n")
        except OSError:
            pass
        self.sock.close()


class ResetStrategy(Protocol):
    name: str

    def reset(self, device: AndroidDevice, apps: list[str], grants: list[str]) -> None: ...


def grant_all(device: AndroidDevice, apps: list[str], grants: list[str]) -> None:
    if grants:
        # Unchecked: an app that does not declare a permission keeps the grants it can take.
        device.sh("; ".join(f"pm grant {a} {perm} 2>/dev/null" for a in apps for perm in grants), check=False)


@dataclass
class ClearReset:
    """HOME, force-stop and `pm clear` of the task's apps, their grants (what a phone allows),
    then a check against the durable state the device had at its first reset (the baseline).

    What the baseline lacks is cleaned without knowing any task: the data of the apps earlier
    tasks used is cleared where it changed, files and folders added under /sdcard are deleted,
    rows added to the contacts, SMS and calendar providers are deleted, packages added are
    uninstalled. What cannot be undone that way (a file changed or deleted, a contact renamed)
    is reported: the reset raises DeviceLost naming every difference, an infrastructure error.
    The data of apps no task used (a phone's own apps, which change in the background) is
    neither compared nor cleared."""

    name: str = "clear"
    baseline: DurableState | None = field(default=None, repr=False)
    used: set[str] = field(default_factory=set)  # the apps of the tasks reset so far

    def reset(self, device: AndroidDevice, apps: list[str], grants: list[str]) -> None:
        device.reset_app(apps, grants)
        self.used.update(apps)
        if self.baseline is None:
            self.baseline = self._capture(device)
            return
        now = self._capture(device)
        diff = self.baseline.diff(now)
        if diff:
            commands = clean_up_commands(diff, self.baseline.app_areas | now.app_areas)
            if commands:
                device.sh("; ".join(commands), check=False)  # what they could not undo shows in the diff
                grant_all(device, apps, grants)  # a cleared app lost its grants
                diff = self.baseline.diff(self._capture(device))
        if diff:
            raise DeviceLost(
                f"device {device.serial}: clear-and-clean did not bring back the state of its first reset "
                f"(best effort on a phone; an emulator or a virtual device resets with a snapshot). "
                f"What differs from that baseline:\n{diff}"
            )

    def _capture(self, device: AndroidDevice) -> DurableState:
        """The durable state, with the app data of the apps tasks used (none of the others)."""
        from pytest_mobile_agent.device.durable_state import capture

        return capture(device, sorted(self.used))


PROVIDER_URIS = {
    "contacts": "content://com.android.contacts/raw_contacts",
    "sms": "content://sms",
    "conversations": "content://mms-sms/conversations",
    "calendar": "content://com.android.calendar/events",
}


def clean_up_commands(diff: StateDiff, app_areas: frozenset[str]) -> list[str]:
    """Shell commands that undo the parts of `diff` that need no knowledge of the task."""
    from pytest_mobile_agent.device.android import shell_quote

    apps = sorted({c.area for c in diff if c.area in app_areas})
    commands = [f"am force-stop {a}; pm clear {a} >/dev/null" for a in apps]
    for change in diff.where(kind="added"):
        if change.area == "files":
            commands.append(f"rm -rf {shell_quote('/sdcard/' + change.key.rstrip('/'))}")
        elif change.area in PROVIDER_URIS and change.key.startswith("#") and change.key[1:].isdigit():
            commands.append(f"content delete --uri {PROVIDER_URIS[change.area]} --where _id={change.key[1:]}")
        elif change.area == "packages":
            commands.append(f"pm uninstall {shell_quote(change.key)} >/dev/null")
    return commands


def await_back(device: AndroidDevice, timeout: float = LOAD_TIMEOUT) -> None:
    """Wait until the device answers adb again after a snapshot load. The emulator restores the
    guest's adbd with the rest, so it closes its adb connections: the serial is offline or gone
    for a second or more, and every stream through adb (shells, forwards, the event stream) is
    cut. A device that never left answers at once."""
    deadline = time.monotonic() + timeout
    delay = 0.0
    while not device.alive():
        if time.monotonic() > deadline:
            raise DeviceLost(f"device {device.serial}: not back on adb {timeout:.0f}s after a snapshot load")
        delay = min(0.5, delay + 0.05)
        time.sleep(delay)
    device.connections_dropped()


@dataclass(frozen=True)
class ClockReading:
    device: int  # the device clock, `date +%s`
    host: float  # time.time() when it was read


def read_clock(device: AndroidDevice) -> ClockReading | None:
    out = device.sh("date +%s", check=False).strip()
    return ClockReading(int(out), time.time()) if out.isdigit() else None


def resync_clock(
    device: AndroidDevice, saved: ClockReading | None, before: ClockReading | None, runs: bool | None
) -> bool | None:
    """After a snapshot load, set a running device clock forward again; returns whether the clock
    runs (None while that is not known yet).

    The emulator's guest clock resumes at the save time: a clock that runs with the host is
    then behind by the time since the save, so it is set to where it would be had it run on
    from the save (whatever a task did to it), with toybox's `date @EPOCH`, as root where the
    shell user may not (`su 0`, which emulator images other than Google Play's have). A clock
    that does not run (the virtual device's, fixed so that dates are deterministic) is device
    state the snapshot rightly brought back. A clock still at the save time seconds after it
    is fixed; one that moved (with the host, or set by a task) is probed once, two readings a
    second apart. A clock that did not go back costs one `date`."""
    after = read_clock(device)
    if saved is None or before is None or after is None:
        return runs
    target = saved.device + round(after.host - saved.host)
    if after.device >= target - 1:  # (both readings are whole seconds)
        return runs
    if runs is None:
        if before.host - saved.host >= 2 and before.device - saved.device in (0, -1):
            return runs  # still at the save time seconds later: a fixed clock, nothing to set
        # Moved (by the host's time, or by a task: a recording advances the virtual clock):
        # a fixed clock reads the same second twice, a second apart.
        out = device.sh("date +%s; sleep 1.1; date +%s", check=False).split()
        runs = len(out) == 2 and out[0] != out[1]
        target += 1
    if not runs:
        return runs
    device.sh(f"date @{target} >/dev/null 2>&1 || su 0 date @{target} >/dev/null 2>&1", check=False)
    now = read_clock(device)
    if now is None or abs(now.device - target) > 2:
        log.warning(
            "%s: its clock stays %ss behind after the snapshot load; setting it needs root "
            "(an emulator image other than Google Play's)",
            device.serial,
            target - after.device,
        )
    return runs


@dataclass
class SnapshotReset:
    """The emulator console's snapshots: saved once per device, loaded before every task."""

    port: int
    host: str = "127.0.0.1"  # the adb server's host: an emulator's console is on its machine
    name: str = "snapshot"
    clock_runs: bool | None = None  # whether the device clock runs (None: not known yet)
    saved_clock: ClockReading | None = None  # the device clock just after the save
    _console: EmulatorConsole | None = field(default=None, repr=False)

    def console(self) -> EmulatorConsole:
        if self._console is None:
            self._console = EmulatorConsole(self.port, self.host)
        return self._console

    def _command(self, device: AndroidDevice, text: str) -> None:
        for attempt in (1, 2):
            try:
                self.console().command(text)
                return
            except OSError as exc:  # the session may have been dropped while idle: once more, anew
                self.close()
                if attempt == 2:
                    message = f"device {device.serial}: the emulator console did not answer `{text}`: {exc}"
                    if not is_local(self.host):
                        message += f"; {remote_console(self.host, self.port)}"
                    raise DeviceLost(message) from exc
            except ConsoleError as exc:
                raise DeviceLost(f"device {device.serial}: `{text}` on the emulator console failed: {exc}") from exc

    def save(self, device: AndroidDevice) -> None:
        device.sh("input keyevent HOME")
        self._command(device, f"avd snapshot save {SNAPSHOT_NAME}")
        self.saved_clock = read_clock(device)

    def reset(self, device: AndroidDevice, apps: list[str], grants: list[str]) -> None:
        before = read_clock(device)
        self._command(device, f"avd snapshot load {SNAPSHOT_NAME}")
        await_back(device)
        self.clock_runs = resync_clock(device, self.saved_clock, before, self.clock_runs)
        grant_all(device, apps, grants)

    def close(self) -> None:
        if self._console is not None:
            self._console.close()
            self._console = None


def console_answers(serial: str, host: str = "127.0.0.1") -> bool:
    port = console_port(serial)
    if port is None:
        return False
    try:
        EmulatorConsole(port, host, timeout=5.0).close()
        return True
    except (OSError, ConsoleError):
        return False


@dataclass
class DeviceResets:
    """The reset strategy of each device this process leases (`--mobile-reset`)."""

    choice: str | None = None  # snapshot, clear, or None: snapshot where the device supports it
    by_serial: dict[str, ResetStrategy] = field(default_factory=dict)
    _lost_seen: int = 0  # how many of the pool's given-up devices forget_lost has seen

    def forget_lost(self, lost: list[str]) -> None:
        """Forget the devices given up since the last call (the pool's `lost`): a device started
        later may come back on the same port, so with the same serial but no base snapshot."""
        for serial in lost[self._lost_seen :]:
            self.forget(serial)
        self._lost_seen = len(lost)

    def strategy(self, device: AndroidDevice, prepare: Callable[[], object] | None = None) -> ResetStrategy:
        """The device's strategy; the first time, a snapshot device saves its base snapshot
        (after `prepare`, which brings the device to the state to keep: the listener set up)."""
        known = self.by_serial.get(device.serial)
        if known is not None:
            return known
        if prepare is not None:
            prepare()
        device.animations_off()  # before the base snapshot, so that every reset brings it back
        port = console_port(device.serial) if self.choice != "clear" else None
        host = getattr(device.client, "host", "127.0.0.1")
        answers = port is not None and console_answers(device.serial, host)
        if port is not None and not answers and not is_local(host):
            if self.choice == "snapshot":
                raise DeviceLost(f"--mobile-reset=snapshot: {device.serial}: {remote_console(host, port)}")
            log.warning("%s: %s", device.serial, remote_console(host, port))
            port = None
        if port is not None and (self.choice == "snapshot" or answers):
            snap = SnapshotReset(port, host)
            try:
                snap.save(device)
                known = snap
            except DeviceLost as exc:
                if self.choice == "snapshot" or READ_ONLY_REFUSAL not in str(exc):
                    raise
                # An emulator started with -read-only saves no snapshot: it is reset as a phone is.
                snap.close()
                log.warning("%s runs -read-only (no snapshots): reset by clearing instead", device.serial)
                known = ClearReset()
        elif self.choice == "snapshot":
            raise DeviceLost(
                f"--mobile-reset=snapshot: {device.serial} has no emulator console (only emulator-N "
                "serials and virtual devices do); use --mobile-reset=clear for phones"
            )
        else:
            known = ClearReset()
        self.by_serial[device.serial] = known
        return known

    def reset(
        self, device: AndroidDevice, apps: list[str], grants: list[str], prepare: Callable[[], object] | None = None
    ) -> str:
        """Reset `device` for a task of `apps`; returns the strategy's name."""
        strategy = self.strategy(device, prepare)
        strategy.reset(device, apps, grants)
        return strategy.name

    def forget(self, serial: str) -> None:
        strategy = self.by_serial.pop(serial, None)
        if isinstance(strategy, SnapshotReset):
            strategy.close()

    def close(self) -> None:
        for serial in list(self.by_serial):
            self.forget(serial)


def parse_choice(value: str | None) -> str | None:
    """`--mobile-reset` as given (None when unset); a bad value is a ValueError naming the choices."""
    if value is None or value == "":
        return None
    if value not in STRATEGIES:
        raise ValueError(f"--mobile-reset={value!r}: expected one of {', '.join(STRATEGIES)}")
    return value
