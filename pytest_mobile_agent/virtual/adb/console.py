"""The emulator console: the Android emulator's text protocol on its console port, for snapshots.

A virtual device registers as `emulator-N` with its adbd on port N+1 and this console on port N,
as an emulator does, so `adb -s emulator-N emu avd snapshot load NAME` and the plugin's emulator
reset drive it exactly as they drive an emulator. The protocol, as the emulator speaks it: lines
end in CRLF (LF alone is accepted), a greeting asks for `auth <token>` with the token from
`~/.emulator_console_auth_token` (created with a random token when missing; an empty file turns
authentication off), every reply ends with `OK` or `KO: message`, `quit`/`exit` close the
connection. Commands modelled: help (h, ?), help-verbose, auth, ping, kill, quit, exit,
avd status|name|snapshot list|save|load|delete. Snapshots live in the device's memory.

The greeting, the auth replies and the unknown-command error are the emulator's own (its
documentation and console tests); the texts of snapshot errors and of `avd snapshot list` are
close to the emulator's but not checked against it: clients should read only OK / KO.

A load restores the guest as it was, adbd included, so an emulator closes its adb connections
(the serial goes away for a moment, every forwarded stream is cut) and the guest clock resumes
at the save time; `loaded` (adbd.serve's, with --load-drop) does what the emulator does to adb.
"""

from __future__ import annotations

import asyncio
import logging
import os
import secrets
from collections.abc import Callable
from pathlib import Path
from typing import cast

from pytest_mobile_agent.virtual.system.device import Device
from pytest_mobile_agent.virtual.system.snapshot import Snapshots

log = logging.getLogger(__name__)
TOKEN_FILE = ".emulator_console_auth_token"
UNKNOWN = "KO: unknown command, try 'help'"
COMMANDS = (
    ("help|h|?", "print a list of commands"),
    ("help-verbose", "print a list of commands with descriptions"),
    ("ping", "check if the emulator is alive"),
    ("avd", "control virtual device execution"),
    ("kill", "kill the emulator instance"),
    ("quit|exit", "quit control session"),
    ("auth", "user authentication for the emulator console"),
)
AVD_HELP = (
    "allows you to control (e.g. start/stop) the execution of the virtual device\r\n\r\n"
    "available sub-commands:\r\n"
    "    avd status       query virtual device status\r\n"
    "    avd name         query virtual device name\r\n"
    "    avd snapshot     state snapshot commands\r\n"
)


def auth_token(home: Path | None = None) -> str:
    """The console token, as the emulator reads it; a missing file gets a new random token."""
    path = (home or Path.home()) / TOKEN_FILE
    try:
        return path.read_text().strip()
    except FileNotFoundError:
        token = secrets.token_urlsafe(12)
        try:  # created 0600: never readable by others, not even for a moment
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
        except FileExistsError:  # another device wrote it first: use theirs
            return path.read_text().strip()
        with os.fdopen(fd, "w") as f:
            f.write(token)
        return token


class ConsoleSession(asyncio.Protocol):
    def __init__(
        self,
        device: Device,
        snapshots: Snapshots,
        token: str,
        avd_name: str,
        kill: Callable[[], None],
        loaded: Callable[[], None] = lambda: None,
    ) -> None:
        self.device, self.snapshots, self.token, self.avd_name, self.kill = device, snapshots, token, avd_name, kill
        self.loaded = loaded  # after a snapshot load, before its OK: the emulator drops adb then
        self.authenticated = not token
        self.transport: asyncio.Transport | None = None
        self._buffer = b""
        self._lines: asyncio.Queue[str | None] = asyncio.Queue()

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        # create_server's protocols get a socket transport; typeshed types the argument as its base.
        self.transport = cast(asyncio.Transport, transport)
        if self.authenticated:
            self._write("Android Console: type 'help' for a list of commands", "OK")
        else:
            self._write(
                "Android Console: Authentication required",
                "Android Console: type 'auth <auth_token>' to authenticate",
                "Android Console: you can find your <auth_token> in ",
                f"'{Path.home() / TOKEN_FILE}'",
                "OK",
            )
        asyncio.get_running_loop().create_task(self._serve())

    def data_received(self, data: bytes) -> None:
        self._buffer += data
        *lines, self._buffer = self._buffer.split(b"\n")
        for line in lines:
            self._lines.put_nowait(line.rstrip(b"\r").decode(errors="replace"))

    def connection_lost(self, exc: Exception | None) -> None:
        self._lines.put_nowait(None)

    def _write(self, *lines: str) -> None:
        if self.transport is not None and not self.transport.is_closing():
            self.transport.write("".join(line + "\r\n" for line in lines).encode())

    async def _serve(self) -> None:
        """One command at a time, in order; snapshot work runs off the event loop."""
        loop = asyncio.get_running_loop()
        while (line := await self._lines.get()) is not None:
            words = line.split()
            if not words:
                continue
            if words[0] in ("quit", "exit"):
                assert self.transport is not None
                self.transport.close()
                return
            reply = await loop.run_in_executor(self.device.executor, self.answer, words)
            if words[:3] == ["avd", "snapshot", "load"] and reply[-1] == "OK" and self.authenticated:
                self.loaded()
            self._write(*reply)
            if words[0] == "kill" and self.authenticated:
                assert self.transport is not None
                self.transport.close()
                self.kill()
                return

    def answer(self, words: list[str]) -> list[str]:
        """The reply lines to one command (the last one is OK or KO: ...)."""
        cmd, args = words[0], words[1:]
        if cmd == "auth":
            if not args:
                return ["KO: missing authentication token"]
            if args[0] != self.token:
                return [f"KO: authentication token does not match ~/{TOKEN_FILE}"]
            self.authenticated = True
            return ["Android Console: type 'help' for a list of commands", "OK"]
        if cmd in ("help", "h", "?", "help-verbose"):
            return self._help(args, verbose=cmd == "help-verbose")
        if not self.authenticated:  # before auth, only help, auth, quit and exit exist
            return [UNKNOWN]
        if cmd == "ping":
            return ["I am alive!", "OK"]
        if cmd == "kill":
            return ["OK: killing emulator, bye bye"]
        if cmd == "avd":
            return self._avd(args)
        return [UNKNOWN]

    def _help(self, args: list[str], verbose: bool) -> list[str]:
        if args and args[0] == "avd":
            return [AVD_HELP.rstrip("\r\n"), "OK"]
        if args:
            return [f"KO: unknown command '{args[0]}', try 'help'"]
        width = max(len(name) for name, _ in COMMANDS) + 4
        rows = [f"    {name.ljust(width)}{text if verbose else ''}".rstrip() for name, text in COMMANDS]
        return ["Android console commands:", "", *rows, "", "try 'help <command>' for command-specific help", "OK"]

    def _avd(self, args: list[str]) -> list[str]:
        sub = args[0] if args else ""
        if sub == "status":
            return ["virtual device is running", "OK"]
        if sub == "name":
            return [self.avd_name, "OK"]
        if sub == "snapshot":
            return self._snapshot(args[1:])
        return [f"KO: bad sub-command '{sub}', try 'help avd'" if sub else "KO: missing sub-command, try 'help avd'"]

    def _snapshot(self, args: list[str]) -> list[str]:
        verb = args[0] if args else ""
        snapshots = self.snapshots.saved
        if verb == "list":
            if not snapshots:
                return ["There is no snapshot available.", "OK"]
            rows = [
                f"--        {name:<20} {snap.size // 1024:>6}K {snap.taken:%Y-%m-%d %H:%M:%S}"
                for name, snap in snapshots.items()
            ]
            header = "ID        TAG                  VM SIZE  DATE"
            return ["List of snapshots present on all disks:", header, *rows, "OK"]
        if verb not in ("save", "load", "delete"):
            return [f"KO: bad sub-command '{verb}', try 'help avd snapshot'" if verb else "KO: missing sub-command"]
        if len(args) < 2:
            return [f"KO: argument missing, try 'avd snapshot {verb} <name>'"]
        name = args[1]
        if verb == "save":
            if self.device.config.read_only:  # the emulator's own refusal, word for word
                return ['KO: Snapshot save is disabled because "-read-only" was specified']
            self.snapshots.save(name)
            return ["OK"]
        if name not in snapshots:
            return [f"KO: snapshot '{name}' does not exist"]
        if verb == "delete":
            del snapshots[name]
            return ["OK"]
        try:
            self.snapshots.load(name)
        except OSError as exc:  # the root could not be put back: the device is not in a known state
            log.exception("snapshot %s did not load", name)
            return [f"KO: snapshot '{name}' failed to load: {exc}"]
        return ["OK"]
