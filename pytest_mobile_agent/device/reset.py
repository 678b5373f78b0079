"""How the `device` fixture brings a device back to one known state before each task.

- `snapshot`: the emulator's own snapshots. The first time a device is leased (after boot and the
  listener set-up) the plugin saves a snapshot through the emulator console (`avd snapshot save`)
  and loads it before every task (`avd snapshot load`): files, providers, app data, the window
  stack and the clock all come back. Emulators (`emulator-N`: console on port N) and virtual
  devices (which register as emulators and answer the same console) support it.
- `clear`: today's clear-and-clean, for phones: HOME, force-stop and `pm clear` of the task's
  apps, their grants. Best effort: shared storage and providers are not cleared by it.

`--mobile-reset=snapshot|clear` picks one; unset, a device gets `snapshot` when its console
answers, else `clear`. A reset that fails raises DeviceLost: an infrastructure error, retried on
another device, never counted against the agent.
"""

from __future__ import annotations

import re
import socket
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from .errors import DeviceLost

if TYPE_CHECKING:
    from .android import AndroidDevice

SNAPSHOT_NAME = "pytest-mobile-agent-base"
STRATEGIES = ("snapshot", "clear")
TOKEN_FILE = ".emulator_console_auth_token"


class ConsoleError(Exception):
    """The console answered `KO: ...`, or did not answer as a console does."""


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
        lines = []
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
        device.sh("; ".join(f"pm grant {a} {perm} 2>/dev/null" for a in apps for perm in grants))


@dataclass
class ClearReset:
    """HOME, force-stop and `pm clear` of the task's apps, their grants (what a phone allows)."""

    name: str = "clear"

    def reset(self, device: AndroidDevice, apps: list[str], grants: list[str]) -> None:
        device.reset_app(apps, grants)


@dataclass
class SnapshotReset:
    """The emulator console's snapshots: saved once per device, loaded before every task."""

    port: int
    name: str = "snapshot"
    _console: EmulatorConsole | None = field(default=None, repr=False)

    def console(self) -> EmulatorConsole:
        if self._console is None:
            self._console = EmulatorConsole(self.port)
        return self._console

    def _command(self, device: AndroidDevice, text: str) -> None:
        try:
            self.console().command(text)
        except (OSError, ConsoleError) as exc:
            self.close()
            raise DeviceLost(f"device {device.serial}: `{text}` on the emulator console failed: {exc}") from exc

    def save(self, device: AndroidDevice) -> None:
        device.sh("input keyevent HOME")
        self._command(device, f"avd snapshot save {SNAPSHOT_NAME}")

    def reset(self, device: AndroidDevice, apps: list[str], grants: list[str]) -> None:
        self._command(device, f"avd snapshot load {SNAPSHOT_NAME}")
        grant_all(device, apps, grants)

    def close(self) -> None:
        if self._console is not None:
            self._console.close()
            self._console = None


def console_answers(serial: str) -> bool:
    port = console_port(serial)
    if port is None:
        return False
    try:
        EmulatorConsole(port, timeout=5.0).close()
        return True
    except (OSError, ConsoleError):
        return False


@dataclass
class DeviceResets:
    """The reset strategy of each device this process leases (`--mobile-reset`)."""

    choice: str | None = None  # snapshot, clear, or None: snapshot where the device supports it
    by_serial: dict[str, ResetStrategy] = field(default_factory=dict)

    def strategy(self, device: AndroidDevice, prepare: Callable[[], object] | None = None) -> ResetStrategy:
        """The device's strategy; the first time, a snapshot device saves its base snapshot
        (after `prepare`, which brings the device to the state to keep: the listener set up)."""
        known = self.by_serial.get(device.serial)
        if known is not None:
            return known
        port = console_port(device.serial) if self.choice != "clear" else None
        if port is not None and (self.choice == "snapshot" or console_answers(device.serial)):
            if prepare is not None:
                prepare()
            snap = SnapshotReset(port)
            snap.save(device)
            known = snap
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
