"""What the command families share, so that none imports another.

toybox's conventions (`cmd` registers a command whose bad options end in `cmd: message` and
status 1; `opts` parses options as toybox does; `inputs` reads operands or stdin), the device's
files and clock as commands see them, and Android's usage and exception messages for the
commands that are Java services on a phone.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable
from datetime import UTC, datetime
from pathlib import Path

from pytest_mobile_agent.virtual.core.fs import DEV_NULL
from pytest_mobile_agent.virtual.shell.api import CommandContext, CommandFn, command, enc, strerror

# --- toybox ----------------------------------------------------------------------------------


def out(ctx: CommandContext, text: str) -> None:
    ctx.stdout.write(enc(text))


def err(ctx: CommandContext, text: str) -> None:
    ctx.stderr.write(enc(text + "\n"))


class UsageError(Exception):
    """A bad option or operand of a command `cmd` registered: `NAME: message`, status 1."""


def cmd(*names: str) -> Callable[[CommandFn], CommandFn]:
    """Register a command whose bad options end it with toybox's message and status 1."""

    def register(fn: CommandFn) -> CommandFn:
        def run(ctx: CommandContext) -> int:
            try:
                return fn(ctx)
            except UsageError as e:
                err(ctx, f"{ctx.argv[0]}: {e}")
                return 1

        return command(*names)(run)

    return register


def opts(argv: list[str], flags: str, valued: str = "") -> tuple[dict[str, list], list[str]]:
    """Parse `-abc`, `-n 5`, `-n5`, `--`; options may follow operands, as in toybox."""
    found: dict[str, list] = {}
    operands: list[str] = []
    i = 1
    while i < len(argv):
        a = argv[i]
        if a == "--":
            operands.extend(argv[i + 1 :])
            break
        if len(a) < 2 or a[0] != "-":
            operands.append(a)
        else:
            for j in range(1, len(a)):
                c = a[j]
                if c in valued:
                    value = a[j + 1 :]
                    if not value:
                        i += 1
                        if i >= len(argv):
                            raise UsageError(f"Missing argument to -{c}")
                        value = argv[i]
                    found.setdefault(c, []).append(value)
                    break
                if c not in flags:
                    raise UsageError(f"Unknown option '{a[j:]}'" if j == 1 else f"Unknown option '{c}'")
                found.setdefault(c, []).append(True)
        i += 1
    return found, operands


def host(ctx: CommandContext, path: str) -> Path:
    return ctx.device.fs.host(path, ctx.cwd)


def norm(ctx: CommandContext, path: str) -> str:
    return ctx.device.fs.normalize(path, ctx.cwd)


def read(ctx: CommandContext, path: str) -> bytes:
    """A file's bytes; `-` is stdin and /dev/null is empty. Raises OSError."""
    if path == "-":
        return ctx.stdin.read()
    if "\0" in path:  # C strings end there: no such file can exist
        raise FileNotFoundError(2, "No such file or directory")
    if norm(ctx, path) in (DEV_NULL, "/dev/zero"):
        return b""
    return host(ctx, path).read_bytes()


def inputs(ctx: CommandContext, paths: list[str]) -> Iterable[tuple[str, bytes | None]]:
    """(path, data) for each operand or stdin; data None after an error was printed."""
    for path in paths or ["-"]:
        try:
            yield path, read(ctx, path)
        except OSError as e:
            err(ctx, f"{ctx.argv[0]}: {path}: {strerror(e)}")
            yield path, None


def lines(data: bytes) -> list[bytes]:
    """Lines with their newlines; a last line without one is kept as is."""
    parts = data.split(b"\n")
    result = [p + b"\n" for p in parts[:-1]]
    if parts[-1]:
        result.append(parts[-1])
    return result


def unescape(text: str) -> tuple[str, bool]:
    """echo -e / printf escapes; the bool says `\\c` asked to stop all output."""
    if "\\" not in text:
        return text, False
    res: list[str] = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c != "\\" or i + 1 >= n:
            res.append(c)
            i += 1
            continue
        e = text[i + 1]
        i += 2
        if e == "c":
            return "".join(res), True
        if e in _ESCAPES:
            res.append(_ESCAPES[e])
        elif e in "01234567":
            j = i
            limit = i + (3 if e == "0" else 2)
            while j < min(limit, n) and text[j] in "01234567":
                j += 1
            res.append(chr(int((e if e != "0" else "") + text[i:j] or "0", 8) & 0xFF))
            i = j
        elif e == "x" and i < n and text[i] in _HEX:
            j = i + 1 if i + 1 >= n or text[i + 1] not in _HEX else i + 2
            res.append(chr(int(text[i:j], 16)))
            i = j
        else:
            res.append("\\" + e)
    return "".join(res), False


_ESCAPES = {
    "n": "\n",
    "t": "\t",
    "\\": "\\",
    "a": "\a",
    "b": "\b",
    "e": "\x1b",
    "f": "\f",
}
_ESCAPES |= {"r": "\r", "v": "\v"}
_HEX = frozenset("0123456789abcdefABCDEF")


def device_now(ctx: CommandContext) -> datetime:
    """The device clock's time (the host's on a device without one), with a zone."""
    clock = getattr(ctx.device, "clock", None)
    now = clock.now() if clock is not None else datetime.now(UTC)
    return now if now.tzinfo else now.replace(tzinfo=UTC)


# --- Android's services ----------------------------------------------------------------------


def usage(ctx: CommandContext, text: str, status: int = 1) -> int:
    """A usage or error message on stderr, as Android's commands print it; returns the status."""
    ctx.err(text.rstrip("\n") + "\n")
    return status


def exception(ctx: CommandContext, verb: str, message: str) -> int:
    """An exception thrown by the service: Android's shell prints it and exits 255."""
    ctx.err(f"Exception occurred while executing '{verb}':\n{message}\n")
    return 255


def app_pid(package: str) -> int:
    """The pid an app's process shows (ps, pidof, dumpsys): the same for a package every time."""
    return 1000 + int(hashlib.md5(package.encode()).hexdigest()[:4], 16) % 30000
