"""What a shell command sees: its arguments, three byte streams and the device.

Commands are plain functions registered with `@command("name", ...)` in `COMMANDS`, the one
registry the shell looks commands up in; they return the exit status. A command that reads
stdin blocks until the client sends data or closes stdin, so the shell runs each session on a
thread of its own. The language (language/) and every command family (commands/) build on this.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol

from pytest_mobile_agent.virtual.system.device import Device


class Output(Protocol):
    def write(self, data: bytes) -> None: ...


class BufferOutput:
    """Collects output in memory (pipes, command substitution, tests)."""

    def __init__(self) -> None:
        self.data = bytearray()

    def write(self, data: bytes) -> None:
        self.data += data


class Input:
    """A blocking byte source: fed by the transport, read by commands."""

    def __init__(self, data: bytes = b"", closed: bool = False) -> None:
        self._buf = bytearray(data)
        self._closed = closed
        self._cond = threading.Condition()
        # Set when the client goes away (not just end of stdin): long-running commands stop.
        self.hangup = threading.Event()

    def feed(self, data: bytes) -> None:
        with self._cond:
            self._buf += data
            self._cond.notify_all()

    def close(self) -> None:
        with self._cond:
            self._closed = True
            self._cond.notify_all()

    def read(self) -> bytes:
        """Everything up to end of input."""
        with self._cond:
            self._cond.wait_for(lambda: self._closed)
            data, self._buf = bytes(self._buf), bytearray()
            return data

    def readline(self) -> bytes:
        """One line including its newline, or what is left at end of input (b"" at EOF)."""
        with self._cond:
            self._cond.wait_for(lambda: self._closed or b"\n" in self._buf)
            end = self._buf.find(b"\n")
            end = len(self._buf) if end < 0 else end + 1
            line = bytes(self._buf[:end])
            del self._buf[:end]
            return line


@dataclass
class CommandContext:
    device: Device
    argv: list[str]
    stdin: Input
    stdout: Output
    stderr: Output
    env: dict[str, str] = field(default_factory=dict)
    cwd: str = "/"
    tty: Output | None = None  # the session's terminal; None in a raw session (no /dev/tty)

    def out(self, text: str) -> None:
        self.stdout.write(text.encode())

    def err(self, text: str) -> None:
        self.stderr.write(text.encode())


CommandFn = Callable[[CommandContext], int]
COMMANDS: dict[str, CommandFn] = {}


def command(*names: str) -> Callable[[CommandFn], CommandFn]:
    def register(fn: CommandFn) -> CommandFn:
        for name in names:
            COMMANDS[name] = fn
        return fn

    return register


def enc(text: str) -> bytes:
    """Text to bytes, keeping undecodable bytes that came in through surrogateescape."""
    try:
        return text.encode()
    except UnicodeEncodeError:
        try:
            return text.encode("utf-8", "surrogateescape")
        except UnicodeEncodeError:
            return text.encode("utf-8", "replace")


def dec(data: bytes) -> str:
    return data.decode("utf-8", "surrogateescape")


def strerror(e: OSError) -> str:
    """An OSError's message without its file name (a host path, which the device never shows)."""
    return e.strerror or str(e)
