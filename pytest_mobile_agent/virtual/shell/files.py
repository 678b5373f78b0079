"""File and text commands of the device (toybox's, as `adb shell` shows them).

Every path goes through `ctx.device.fs`, so nothing can reach outside the device root.
Messages and exit statuses follow toybox: `cmd: PATH: strerror` and status 1.
"""

from __future__ import annotations

import base64
import binascii
import fnmatch
import hashlib
import os
import posixpath
import re
import shutil
import stat
from collections.abc import Callable, Iterable
from datetime import UTC, datetime
from pathlib import Path

from pytest_mobile_agent.virtual.core.fs import DEV_NULL, SHARED_STORAGE
from pytest_mobile_agent.virtual.shell.api import COMMANDS, CommandContext, command

# --- helpers -------------------------------------------------------------------------------


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
    return e.strerror or str(e)


def out(ctx: CommandContext, text: str) -> None:
    ctx.stdout.write(enc(text))


def err(ctx: CommandContext, text: str) -> None:
    ctx.stderr.write(enc(text + "\n"))


class _Usage(Exception):
    pass


def cmd(*names: str) -> Callable[[Callable[[CommandContext], int]], Callable]:
    """Register a command whose bad options end it with toybox's message and status 1."""

    def register(fn: Callable[[CommandContext], int]) -> Callable:
        def run(ctx: CommandContext) -> int:
            try:
                return fn(ctx)
            except _Usage as e:
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
                            raise _Usage(f"Missing argument to -{c}")
                        value = argv[i]
                    found.setdefault(c, []).append(value)
                    break
                if c not in flags:
                    raise _Usage(f"Unknown option '{a[j:]}'" if j == 1 else f"Unknown option '{c}'")
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


# --- echo, printf, simple facts ----------------------------------------------------------------


_ECHO_FLAGS = frozenset("neE")


@command("echo")
def echo(ctx: CommandContext) -> int:
    args = ctx.argv[1:]
    newline, escapes = True, False
    while args and len(args[0]) > 1 and args[0][0] == "-" and set(args[0][1:]) <= _ECHO_FLAGS:
        newline = newline and "n" not in args[0]
        for c in args[0][1:]:
            escapes = c == "e" if c in "eE" else escapes
        args = args[1:]
    text = " ".join(args)
    if escapes:
        text, stop = unescape(text)
        newline = newline and not stop
    out(ctx, text + "\n" if newline else text)
    return 0


_PRINTF = re.compile(r"%([-+ #0]*)(\d*)(?:\.(\d*))?([diouxXcsfFeEgGb%])|%|\\.?|[^%\\]+", re.DOTALL)


@command("printf")
def printf(ctx: CommandContext) -> int:
    if len(ctx.argv) < 2:
        err(ctx, "printf: Needs 1 argument")
        return 1
    fmt, args = ctx.argv[1], list(ctx.argv[2:])
    res: list[str] = []
    status = 0
    while True:
        used = False
        for m in _PRINTF.finditer(fmt):
            tok, conv = m.group(), m.group(4)
            if tok.startswith("\\"):
                text, stop = unescape(tok)
                res.append(text)
                if stop:
                    out(ctx, "".join(res))
                    return status
            elif conv is None:
                res.append(tok if tok != "%" else "%")
            elif conv == "%":
                res.append("%")
            else:
                used = True
                arg = args.pop(0) if args else ""
                try:
                    res.append(_pformat(m, conv, arg))
                except ValueError:
                    err(ctx, f"printf: invalid number '{arg}'")
                    status = 1
                    res.append(_pformat(m, conv, "0"))
        if not (args and used):
            break
    out(ctx, "".join(res))
    return status


def _pformat(m: re.Match[str], conv: str, arg: str) -> str:
    flags, width, prec = m.group(1), m.group(2), m.group(3)
    spec = "%" + flags + width + (f".{prec or 0}" if prec is not None else "")
    if conv in "diuoxX":
        return (spec + ("d" if conv in "iu" else conv)) % _pnum(arg)
    if conv in "fFeEgG":
        return (spec + conv) % (float(arg) if arg else 0.0)
    if conv == "c":
        return (spec + "s") % arg[:1]
    if conv == "b":
        arg = unescape(arg)[0]
    return (spec + "s") % arg


def _pnum(arg: str) -> int:
    if arg[:1] in ("'", '"'):
        return ord(arg[1]) if len(arg) > 1 else 0
    arg = arg.strip() or "0"
    try:
        return int(arg, 0)
    except ValueError:
        return int(arg, 10)


@command("pwd")
def pwd(ctx: CommandContext) -> int:
    out(ctx, ctx.cwd + "\n")
    return 0


_GROUPS = "2000(shell),1004(input),1007(log),1011(adb),1015(sdcard_rw),1028(sdcard_r),"
_GROUPS += "1078(ext_data_rw),1079(ext_obb_rw),3001(net_bt_admin),3002(net_bt),3003(inet),"
_GROUPS += "3006(net_bw_stats),3009(readproc),3011(uhid),3012(readtracefs)"


@cmd("id")
def id_(ctx: CommandContext) -> int:
    o, _ = opts(ctx.argv, "ugGnrZ")
    if "u" in o or "g" in o:
        out(ctx, "shell\n" if "n" in o else "2000\n")
    elif "G" in o:
        groups = _GROUPS.split(",")
        names = [g[g.index("(") + 1 : -1] if "n" in o else g[: g.index("(")] for g in groups]
        out(ctx, " ".join(names) + "\n")
    else:
        out(
            ctx,
            f"uid=2000(shell) gid=2000(shell) groups={_GROUPS} context=u:r:shell:s0\n",
        )
    return 0


@command("whoami")
def whoami(ctx: CommandContext) -> int:
    out(ctx, "shell\n")
    return 0


def _device_now(ctx: CommandContext) -> datetime:
    """The device clock's time (the host's on a device without one), with a zone."""
    clock = getattr(ctx.device, "clock", None)
    now = clock.now() if clock is not None else datetime.now(UTC)
    return now if now.tzinfo else now.replace(tzinfo=UTC)


@cmd("date")
def date(ctx: CommandContext) -> int:
    """toybox `date [-u] [+FORMAT]`. The virtual device also takes `date -s WHEN` and `date @EPOCH`
    to set its clock (tests do; a phone's shell user gets "Operation not permitted")."""
    clock = getattr(ctx.device, "clock", None)
    args = ctx.argv[1:]
    if args and (args[0] == "-s" or args[0].startswith("@")) and hasattr(clock, "set"):
        raw = args[0][1:] if args[0].startswith("@") else " ".join(args[1:])
        try:
            epoch = raw.replace(".", "").isdigit()
            when = datetime.fromtimestamp(float(raw), _device_now(ctx).tzinfo) if epoch else datetime.fromisoformat(raw)
        except ValueError:
            err(ctx, f"date: bad date '{raw}'")
            return 1
        with ctx.device.lock:
            clock.set(when)
            ctx.device.changed()
        args = []
    o, ops = opts(["date", *args], "uR", "dDrs")
    now = _device_now(ctx)
    if "s" in o or any(not a.startswith("+") for a in ops):
        err(ctx, "date: cannot set date: Operation not permitted")
        return 1
    fmt = next((a[1:] for a in ops), "%a %b %e %H:%M:%S %Z %Y")
    if "u" in o:
        now = now.astimezone(UTC)
    fmt = re.sub(
        r"%[%s]",
        lambda m: "%%" if m.group() == "%%" else str(int(now.timestamp())),
        fmt,
    )
    out(ctx, now.strftime(fmt) + "\n")
    return 0


# --- reading files ---------------------------------------------------------------------------


@cmd("cat")
def cat(ctx: CommandContext) -> int:
    o, ops = opts(ctx.argv, "uvtesAn")
    status, number = 0, 0
    for _, data in inputs(ctx, ops):
        if data is None:
            status = 1
        elif "n" in o:
            for line in lines(data):
                number += 1
                ctx.stdout.write(b"%6d\t" % number + line)
        else:
            ctx.stdout.write(data)
    return status


def _digest(algorithm: str) -> Callable[[CommandContext], int]:
    def run(ctx: CommandContext) -> int:
        _, ops = opts(ctx.argv, "bcs")
        status = 0
        for path, data in inputs(ctx, ops):
            if data is None:
                status = 1
            else:
                out(ctx, f"{hashlib.new(algorithm, data).hexdigest()}  {path}\n")
        return status

    return run


for _algorithm in ("md5", "sha1", "sha224", "sha256", "sha384", "sha512"):
    cmd(f"{_algorithm}sum")(_digest(_algorithm))


@cmd("toybox")
def toybox(ctx: CommandContext) -> int:
    if len(ctx.argv) < 2:
        out(ctx, " ".join(sorted(COMMANDS)) + "\n")
        return 0
    fn = COMMANDS.get(ctx.argv[1])
    if fn is None:
        err(ctx, f"toybox: Unknown command {ctx.argv[1]}")
        return 1
    ctx.argv = ctx.argv[1:]
    return fn(ctx)


@cmd("wc")
def wc(ctx: CommandContext) -> int:
    o, ops = opts(ctx.argv, "lwcm")
    keys = [k for k in "lwc" if k in o or (k == "c" and "m" in o)] or ["l", "w", "c"]
    status = 0
    totals = [0, 0, 0]
    for path, data in inputs(ctx, ops):
        if data is None:
            status = 1
            continue
        counts = [
            data.count(b"\n"),
            len(data.split()),
            len(data) if "m" not in o else len(dec(data)),
        ]
        totals = [a + b for a, b in zip(totals, counts, strict=True)]
        row = " ".join(str(counts["lwc".index(k)]) for k in keys)
        out(ctx, row + (f" {path}" if ops else "") + "\n")
    if len(ops) > 1:
        out(ctx, " ".join(str(totals["lwc".index(k)]) for k in keys) + " total\n")
    return status


def _count_args(argv: list[str]) -> list[str]:
    """`head -5` means `head -n 5`."""
    return [f"-n{a[1:]}" if len(a) > 1 and a[0] == "-" and a[1:].isdigit() else a for a in argv]


@cmd("head", "tail")
def head_tail(ctx: CommandContext) -> int:
    o, ops = opts(_count_args(ctx.argv), "qvfF", "nc")
    is_tail = ctx.argv[0] == "tail"
    status = 0
    for k, (path, data) in enumerate(inputs(ctx, ops)):
        if data is None:
            status = 1
            continue
        if len(ops) > 1 and "q" not in o or "v" in o:
            out(ctx, ("\n" if k else "") + f"==> {path} <==\n")
        spec = str(o["c"][-1] if "c" in o else o["n"][-1] if "n" in o else "10")
        if not spec.lstrip("+-").isdigit():
            raise _Usage(f"Bad -{'c' if 'c' in o else 'n'} '{spec}'")
        n = int(spec.lstrip("+-"))
        items: list[bytes] | bytes = data if "c" in o else lines(data)
        if not is_tail:
            chosen = items[:n]
        elif spec.startswith("+"):
            chosen = items[max(n - 1, 0) :]
        else:
            chosen = items[len(items) - n :] if n else items[:0]
        ctx.stdout.write(chosen if isinstance(chosen, bytes) else b"".join(chosen))
    return status


# --- grep -------------------------------------------------------------------------------------

_CLASSES = {
    "alpha": "a-zA-Z",
    "digit": "0-9",
    "alnum": "a-zA-Z0-9",
    "upper": "A-Z",
    "lower": "a-z",
    "space": r" \t\n\r\f\v",
    "blank": r" \t",
    "xdigit": "0-9a-fA-F",
    "punct": r"!-/:-@\[-`{-~",
    "print": r" -~",
    "graph": r"!-~",
    "cntrl": r"\x00-\x1f\x7f",
    "word": r"\w",
}


def posix_regex(p: str, extended: bool) -> str:
    """A POSIX basic or extended regex as a Python one (GNU escapes such as \\w kept)."""
    res: list[str] = []
    i, n = 0, len(p)
    while i < n:
        c = p[i]
        if c == "\\" and i + 1 < n:
            e = p[i + 1]
            if not extended and e in "(){}|+?":
                res.append(e)
            else:
                res.append({"<": r"\b", ">": r"\b"}.get(e, "\\" + e))
            i += 2
            continue
        if c == "[":
            text, i = _bracket(p, i)
            res.append(text)
            continue
        if not extended and c in "(){}|+?":
            res.append("\\" + c)
        elif c in "*+?" and (not res or res[-1] in ("^", "(", "|")):
            res.append("\\" + c)  # a leading repeat is a literal in POSIX
        else:
            res.append(c)
        i += 1
    return "".join(res)


def _bracket(p: str, i: int) -> tuple[str, int]:
    j, n = i + 1, len(p)
    res = ["["]
    if j < n and p[j] == "^":
        res.append("^")
        j += 1
    if j < n and p[j] == "]":
        res.append(r"\]")
        j += 1
    while j < n and p[j] != "]":
        if p.startswith("[:", j) and (k := p.find(":]", j + 2)) > 0:
            res.append(_CLASSES.get(p[j + 2 : k], ""))
            j = k + 2
            continue
        res.append("\\" + p[j] if p[j] in "\\[&~|-" and not _is_range(p, j) else p[j])
        j += 1
    if j >= n:
        return r"\[", i + 1  # no closing bracket: a literal "["
    return "".join(res) + "]", j + 1


def _is_range(p: str, j: int) -> bool:
    return p[j] == "-" and p[j - 1] not in "[^" and p[j + 1 : j + 2] not in ("]", "")


@cmd("grep", "egrep", "fgrep")
def grep(ctx: CommandContext) -> int:
    o, ops = opts(ctx.argv, "vicqEFnlLwxoHhsrRIaz", "efmABC")
    patterns = o.get("e") or ([ops.pop(0)] if ops else None)
    if patterns is None:
        raise _Usage("Needs 1 argument")
    extended = "E" in o or ctx.argv[0] == "egrep"
    fixed = "F" in o or ctx.argv[0] == "fgrep"
    pieces = [q for pat in patterns for q in str(pat).split("\n")]
    try:
        exprs = [re.escape(q) if fixed else posix_regex(q, extended) for q in pieces]
        if "w" in o:
            exprs = [rf"(?<!\w)(?:{x})(?!\w)" for x in exprs]
        regex = re.compile("|".join(f"(?:{x})" for x in exprs), re.IGNORECASE if "i" in o else 0)
    except (re.error, RecursionError, OverflowError):
        err(ctx, f"grep: bad regex '{patterns[0]}'")
        return 2
    recursive = "r" in o or "R" in o
    paths = _walk_files(ctx, ops or ["."]) if recursive else ops
    named = ("H" in o or len(paths) > 1 or recursive) and "h" not in o
    limit = int(o["m"][-1]) if "m" in o and str(o["m"][-1]).isdigit() else -1
    match = regex.fullmatch if "x" in o else regex.search
    found, status = False, 0
    for path, data in inputs(ctx, paths):
        if data is None:
            status = 2
            continue
        count, label = 0, "(standard input)" if path == "-" else path
        for number, raw in enumerate(data.split(b"\n")[: -1 if data.endswith(b"\n") else None], 1):
            line = dec(raw)
            if (match(line) is not None) == ("v" in o) or count == limit:
                continue
            count += 1
            if "q" in o:
                return 0
            if "c" in o or "l" in o or "L" in o:
                continue
            prefix = (f"{label}:" if named else "") + (f"{number}:" if "n" in o else "")
            hits = [m.group() for m in regex.finditer(line)] if "o" in o and "v" not in o else [line]
            out(ctx, "".join(f"{prefix}{h}\n" for h in hits if h))
        found = found or count > 0
        if "c" in o:
            out(ctx, (f"{label}:" if named else "") + f"{count}\n")
        elif ("l" in o and count) or ("L" in o and not count):
            out(ctx, f"{label}\n")
    if "s" in o and status == 2:
        status = 0 if found else 1
    return status or (0 if found else 1)


def _walk_files(ctx: CommandContext, roots: list[str]) -> list[str]:
    result: list[str] = []
    for root in roots:
        h = host(ctx, root)
        if not h.is_dir():
            result.append(root)
            continue
        for dirpath, dirnames, filenames in os.walk(h):
            dirnames.sort()
            rel = Path(dirpath).relative_to(h).as_posix()
            base = root if rel == "." else posixpath.join(root, rel)
            result.extend(posixpath.join(base, f) for f in sorted(filenames))
    return result


# --- small text tools -------------------------------------------------------------------------


@cmd("base64")
def base64_(ctx: CommandContext) -> int:
    o, ops = opts(ctx.argv, "di", "w")
    _, data = next(iter(inputs(ctx, ops[:1])))
    if data is None:
        return 1
    if "d" in o:
        cleaned = re.sub(rb"[^A-Za-z0-9+/=]" if "i" in o else rb"\s", b"", data).rstrip(b"=")
        try:
            ctx.stdout.write(base64.b64decode(cleaned + b"=" * (-len(cleaned) % 4)))
        except (binascii.Error, ValueError):
            err(ctx, "base64: bad input")
            return 1
        return 0
    text = base64.b64encode(data)
    width = int(o["w"][-1]) if "w" in o and str(o["w"][-1]).isdigit() else 76
    if width:
        text = b"\n".join(text[k : k + width] for k in range(0, len(text), width))
    ctx.stdout.write(text + b"\n" if text else b"")
    return 0


@cmd("sort")
def sort(ctx: CommandContext) -> int:
    o, ops = opts(ctx.argv, "rnufb")
    status, collected = 0, []
    for _, data in inputs(ctx, ops):
        if data is None:
            status = 2
        else:
            collected.extend(line.rstrip(b"\n") for line in lines(data))

    def key(line: bytes) -> object:
        if "n" in o:
            m = re.match(rb"\s*(-?\d+(?:\.\d*)?)", line)
            return (float(m.group(1)) if m else 0.0, line)
        return line.lower() if "f" in o else line

    result = sorted(collected, key=key, reverse="r" in o)
    if "u" in o:
        result = [x for k, x in enumerate(result) if not k or key(x) != key(result[k - 1])]
    ctx.stdout.write(b"".join(x + b"\n" for x in result))
    return status


@cmd("uniq")
def uniq(ctx: CommandContext) -> int:
    o, ops = opts(ctx.argv, "cdui")
    _, data = next(iter(inputs(ctx, ops[:1])))
    if data is None:
        return 1
    groups: list[list[bytes]] = []
    for line in (x.rstrip(b"\n") for x in lines(data)):
        same = groups and (groups[-1][0].lower() == line.lower() if "i" in o else groups[-1][0] == line)
        if same:
            groups[-1].append(line)
        else:
            groups.append([line])
    for g in groups:
        if ("d" in o and len(g) < 2) or ("u" in o and len(g) > 1):
            continue
        ctx.stdout.write((b"%7d " % len(g) if "c" in o else b"") + g[0] + b"\n")
    return 0


@cmd("tee")
def tee(ctx: CommandContext) -> int:
    o, ops = opts(ctx.argv, "ai")
    data = ctx.stdin.read()
    ctx.stdout.write(data)
    status = 0
    for path in ops:
        try:
            with open(host(ctx, path), "ab" if "a" in o else "wb") as f:
                f.write(data)
        except OSError as e:
            err(ctx, f"tee: {path}: {strerror(e)}")
            status = 1
    return status


@cmd("cut")
def cut(ctx: CommandContext) -> int:
    o, ops = opts(ctx.argv, "s", "dfc")
    spec = str((o.get("f") or o.get("c") or [""])[-1])
    if not spec:
        raise _Usage("Needs -f or -c")
    picks = _ranges(spec)
    delim = str(o["d"][-1])[:1] if "d" in o else "\t"
    status = 0
    for _, data in inputs(ctx, ops):
        if data is None:
            status = 1
            continue
        for raw in lines(data):
            line = dec(raw.rstrip(b"\n"))
            if "c" in o:
                res = "".join(ch for k, ch in enumerate(line, 1) if picks(k))
            elif delim not in line:
                if "s" in o:
                    continue
                res = line
            else:
                res = delim.join(f for k, f in enumerate(line.split(delim), 1) if picks(k))
            out(ctx, res + "\n")
    return status


def _ranges(spec: str) -> Callable[[int], bool]:
    spans: list[tuple[int, int]] = []
    for item in spec.split(","):
        lo, dash, hi = item.partition("-")
        if not (lo or hi) or not (lo or "1").isdigit() or not (hi or "1").isdigit():
            raise _Usage(f"bad list '{spec}'")
        first = int(lo or 1)
        spans.append((first, int(hi) if hi else (1 << 30 if dash else first)))
    return lambda k: any(a <= k <= b for a, b in spans)


@cmd("tr")
def tr(ctx: CommandContext) -> int:
    o, ops = opts(ctx.argv, "dscC")
    if not ops or ("d" not in o and "s" not in o and len(ops) < 2):
        raise _Usage("Needs 2 arguments")
    src = _charset(ops[0])
    dst = _charset(ops[1]) if len(ops) > 1 else ""
    text = dec(ctx.stdin.read())
    if "d" in o:
        text = "".join(c for c in text if c not in src)
    elif dst:
        dst = dst + dst[-1] * max(len(src) - len(dst), 0)
        text = text.translate(str.maketrans(src, dst[: len(src)]))
    if "s" in o:
        squeeze = dst or src
        text = re.sub("([" + re.escape(squeeze) + r"])\1+", r"\1", text) if squeeze else text
    out(ctx, text)
    return 0


def _charset(spec: str) -> str:
    spec = unescape(spec)[0]
    for name, chars in (
        ("upper", "A-Z"),
        ("lower", "a-z"),
        ("digit", "0-9"),
        ("space", " \t\n\r\f\v"),
    ):
        spec = spec.replace(f"[:{name}:]", chars)
    res: list[str] = []
    i = 0
    while i < len(spec):
        if i + 2 < len(spec) and spec[i + 1] == "-" and spec[i] <= spec[i + 2]:
            res.extend(chr(c) for c in range(ord(spec[i]), ord(spec[i + 2]) + 1))
            i += 3
        else:
            res.append(spec[i])
            i += 1
    return "".join(res)


@cmd("basename", "dirname")
def base_dir_name(ctx: CommandContext) -> int:
    _, ops = opts(ctx.argv, "")
    if not ops:
        raise _Usage("Needs 1 argument")
    path = ops[0].rstrip("/") or "/"
    if ctx.argv[0] == "dirname":
        out(
            ctx,
            (posixpath.dirname(path).rstrip("/") or ("/" if path.startswith("/") else ".")) + "\n",
        )
        return 0
    name = posixpath.basename(path) or "/"
    if len(ops) > 1 and name.endswith(ops[1]) and name != ops[1]:
        name = name[: -len(ops[1])]
    out(ctx, name + "\n")
    return 0


@cmd("env", "printenv")
def env(ctx: CommandContext) -> int:
    _, ops = opts(ctx.argv, "i0")
    if ctx.argv[0] == "printenv" and ops:
        values = [ctx.env[k] for k in ops if k in ctx.env]
        out(ctx, "".join(v + "\n" for v in values))
        return 0 if len(values) == len(ops) else 1
    extra = {}
    while ops and "=" in ops[0]:
        name, _, value = ops.pop(0).partition("=")
        extra[name] = value
    if ops:
        fn = COMMANDS.get(ops[0])
        if fn is None:
            err(ctx, f"env: {ops[0]}: No such file or directory")
            return 127
        ctx.env = {**ctx.env, **extra}
        ctx.argv = ops
        return fn(ctx)
    out(
        ctx,
        "".join(f"{k}={v}\n" for k, v in {**ctx.env, **extra}.items() if k != "IFS"),
    )
    return 0


# --- test / [ -------------------------------------------------------------------------------


class _TestError(Exception):
    pass


@command("test", "[")
def test(ctx: CommandContext) -> int:
    args = ctx.argv[1:]
    if ctx.argv[0] == "[":
        if not args or args[-1] != "]":
            err(ctx, "[: missing ]")
            return 2
        args = args[:-1]
    try:
        return 0 if _t_expr(ctx, args) else 1
    except _TestError as e:
        err(ctx, f"{ctx.argv[0]}: {e}")
        return 2


def _t_expr(ctx: CommandContext, a: list[str]) -> bool:
    n = len(a)
    if n == 0:
        return False
    if n == 1:
        return a[0] != ""
    if n == 2 and a[0] == "!":
        return a[1] == ""
    if n == 2:
        return _t_unary(ctx, a[0], a[1])
    if n == 3 and a[1] in _BINARY:
        return _t_binary(a[0], a[1], a[2])
    for op in ("-o", "-a"):  # -o binds looser than -a
        if op in a[1:-1]:
            k = len(a) - 1 - a[::-1].index(op)
            left = _t_expr(ctx, a[:k])
            if left == (op == "-o"):
                return left  # short circuit, as the shell does
            return _t_expr(ctx, a[k + 1 :])
    if a[0] == "!":
        return not _t_expr(ctx, a[1:])
    if a[0] == "(" and a[-1] == ")":
        return _t_expr(ctx, a[1:-1])
    raise _TestError(f"{a[1] if n > 1 else a[0]}: unknown operand")


def _t_unary(ctx: CommandContext, op: str, arg: str) -> bool:
    if op == "-z":
        return arg == ""
    if op == "-n":
        return arg != ""
    if op == "-t":
        return False
    if op not in _UNARY:
        raise _TestError(f"{op}: unknown operand")
    path = norm(ctx, arg) if arg else ""
    if path == DEV_NULL:
        return op in ("-e", "-a", "-c", "-r", "-w")
    try:
        st = host(ctx, arg).lstat() if arg else None
    except OSError:
        st = None
    if st is None:
        return False
    checks = {
        "-f": stat.S_ISREG(st.st_mode),
        "-d": stat.S_ISDIR(st.st_mode),
        "-s": st.st_size > 0,
        "-L": stat.S_ISLNK(st.st_mode),
        "-h": stat.S_ISLNK(st.st_mode),
        "-x": bool(st.st_mode & 0o111),
        "-b": False,
        "-c": False,
        "-p": False,
        "-S": False,
    }
    return checks.get(op, True)


_UNARY = frozenset(("-e", "-f", "-d", "-s", "-r", "-w", "-x", "-L", "-h", "-b", "-c", "-p", "-S", "-a"))
_BINARY = frozenset(("=", "==", "!=", "<", ">", "-eq", "-ne", "-lt", "-le", "-gt", "-ge", "-a", "-o"))


def _t_binary(left: str, op: str, right: str) -> bool:
    if op in ("=", "=="):
        return left == right
    if op == "!=":
        return left != right
    if op in ("<", ">"):
        return left < right if op == "<" else left > right
    if op in ("-a", "-o"):
        return (left != "" and right != "") if op == "-a" else (left != "" or right != "")
    try:
        x, y = int(left.strip()), int(right.strip())
    except ValueError:
        bad = left if not left.strip().lstrip("-").isdigit() else right
        raise _TestError(f"{bad}: bad number") from None
    return {
        "-eq": x == y,
        "-ne": x != y,
        "-lt": x < y,
        "-le": x <= y,
        "-gt": x > y,
        "-ge": x >= y,
    }[op]


# --- ls and stat -----------------------------------------------------------------------------


def _owner(path: str) -> tuple[str, str]:
    if path == SHARED_STORAGE or path.startswith(SHARED_STORAGE + "/"):
        return "root", "sdcard_rw"
    if path.startswith("/data/local/tmp"):
        return "shell", "shell"
    return "root", "root"


def _mtime(st: os.stat_result) -> datetime:
    return datetime.fromtimestamp(st.st_mtime, UTC)


@cmd("ls")
def ls(ctx: CommandContext) -> int:
    o, ops = opts(ctx.argv, "laA1RdhtrSsFpcunigoZC")
    status = 0
    files: list[str] = []
    dirs: list[str] = []
    for path in ops or ["."]:
        try:
            st = host(ctx, path).stat()
        except OSError as e:
            err(ctx, f"ls: {path}: {strerror(e)}")
            status = 1
            continue
        (dirs if stat.S_ISDIR(st.st_mode) and "d" not in o else files).append(path)
    printed = False
    if files:
        _ls_entries(ctx, o, [(f, f) for f in _ls_sort(ctx, o, files, None)], total=False)
        printed = True
    headers = len(ops) > 1 or "R" in o
    queue = list(dirs)
    while queue:
        path = queue.pop(0)
        h = host(ctx, path)
        try:
            names = os.listdir(h)
        except OSError as e:
            err(ctx, f"ls: {path}: {strerror(e)}")
            status = 1
            continue
        if headers:
            out(ctx, ("\n" if printed else "") + f"{path}:\n")
        printed = True
        if "a" not in o and "A" not in o:
            names = [x for x in names if not x.startswith(".")]
        names = _ls_sort(ctx, o, names, h)
        if "a" in o:
            names = [".", "..", *names]
        _ls_entries(ctx, o, [(posixpath.join(path, x), x) for x in names], total=True)
        if "R" in o:
            sub = [posixpath.join(path, x) for x in names if x not in (".", "..")]
            queue[:0] = [p for p in sub if host(ctx, p).is_dir() and not host(ctx, p).is_symlink()]
    return status


def _ls_sort(ctx: CommandContext, o: dict, names: list[str], base: Path | None) -> list[str]:
    def st(name: str) -> os.stat_result:
        return (base / name if base else host(ctx, name)).lstat()

    if "t" in o:
        names = sorted(names, key=lambda x: (-st(x).st_mtime, x))
    elif "S" in o:
        names = sorted(names, key=lambda x: (-st(x).st_size, x))
    else:
        names = sorted(names)
    return names[::-1] if "r" in o else names


def _ls_entries(ctx: CommandContext, o: dict, entries: list[tuple[str, str]], total: bool) -> None:
    long = "l" in o or "n" in o or "g" in o or "o" in o
    rows: list[list[str]] = []
    blocks = 0
    for path, name in entries:
        try:
            st = host(ctx, path).lstat()
        except OSError:
            continue
        shown = name + ("/" if ("p" in o or "F" in o) and stat.S_ISDIR(st.st_mode) else "")
        if not long:
            rows.append([shown])
            continue
        blocks += st.st_blocks // 2
        user, group = _owner(norm(ctx, path))
        mtime = _mtime(st).strftime("%Y-%m-%d %H:%M")
        rows.append(
            [
                stat.filemode(st.st_mode),
                str(st.st_nlink),
                user,
                group,
                str(st.st_size),
                mtime,
                shown,
            ]
        )
    if not long:
        out(ctx, "".join(r[0] + "\n" for r in rows))
        return
    widths = [max((len(r[k]) for r in rows), default=0) for k in range(5)]
    text = "".join(
        f"{r[0]} {r[1]:>{widths[1]}} {r[2]:<{widths[2]}} {r[3]:<{widths[3]}} {r[4]:>{widths[4]}} {r[5]} {r[6]}\n"
        for r in rows
    )
    out(ctx, (f"total {blocks}\n" if total else "") + text)


@cmd("stat")
def stat_(ctx: CommandContext) -> int:
    o, ops = opts(ctx.argv, "Lft", "c")
    if not ops:
        raise _Usage("Needs 1 argument")
    status = 0
    for path in ops:
        try:
            h = host(ctx, path)
            st = h.stat() if "L" in o else h.lstat()
        except OSError as e:
            err(ctx, f"stat: {path}: {strerror(e)}")
            status = 1
            continue
        fmt = str(o["c"][-1]) if "c" in o else _STAT_DEFAULT
        text = _stat_format(ctx, fmt, path, st)
        out(ctx, text + "\n")
    return status


_STAT_DEFAULT = (
    "  File: %N\n  Size: %s\t Blocks: %b\t IO Blocks: %o\t%F\nDevice: fd00h/64768d\t Inode: %i\t "
    "Links: %h\nAccess: (0%a/%A)\tUid: (%u/%U)\tGid: (%g/%G)\nAccess: %x\nModify: %y\nChange: %z"
)


def _stat_format(ctx: CommandContext, fmt: str, path: str, st: os.stat_result) -> str:
    return re.sub(r"%(.)", lambda m: _stat_field(ctx, m.group(1), path, st), fmt)


def _stat_field(ctx: CommandContext, c: str, path: str, st: os.stat_result) -> str:
    user, group = _owner(norm(ctx, path))
    ids = {"root": "0", "shell": "2000", "sdcard_rw": "1015"}
    kind = "directory" if stat.S_ISDIR(st.st_mode) else "symbolic link" if stat.S_ISLNK(st.st_mode) else None
    kind = kind or ("regular empty file" if st.st_size == 0 else "regular file")

    def stamp(t: float) -> str:
        return datetime.fromtimestamp(t, UTC).strftime("%Y-%m-%d %H:%M:%S.%f000 +0000")

    fields: dict[str, Callable[[], object]] = {
        "s": lambda: st.st_size,
        "n": lambda: path,
        "N": lambda: f"'{path}'" if c == "N" else path,
        "a": lambda: f"{stat.S_IMODE(st.st_mode):o}",
        "A": lambda: stat.filemode(st.st_mode),
        "F": lambda: kind,
        "b": lambda: st.st_blocks,
        "B": lambda: 512,
        "o": lambda: 4096,
        "h": lambda: st.st_nlink,
        "i": lambda: st.st_ino,
        "u": lambda: ids[user],
        "g": lambda: ids[group],
        "U": lambda: user,
        "G": lambda: group,
        "X": lambda: int(st.st_atime),
        "Y": lambda: int(st.st_mtime),
        "Z": lambda: int(st.st_ctime),
        "x": lambda: stamp(st.st_atime),
        "y": lambda: stamp(st.st_mtime),
        "z": lambda: stamp(st.st_ctime),
        "%": lambda: "%",
    }
    fn = fields.get(c)
    return str(fn()) if fn else "?"


@cmd("find")
def find(ctx: CommandContext) -> int:
    args = ctx.argv[1:]
    roots: list[str] = []
    while args and not args[0].startswith("-") and args[0] not in ("!", "("):
        roots.append(args.pop(0))
    preds: dict[str, str] = {}
    exec_argv: list[str] | None = None
    batch = False
    while args:
        key = args.pop(0)
        if key in ("-print", "-print0"):
            continue
        if key == "-exec":
            exec_argv, batch = _find_exec(args)
            continue
        if key not in ("-name", "-iname", "-type", "-maxdepth", "-mindepth", "-path") or not args:
            raise _Usage(f"Unknown option '{key}'" if args or key.startswith("-") else "bad arg")
        preds[key] = args.pop(0)
    status = 0
    found: list[str] = []
    for root in roots or ["."]:
        h = host(ctx, root)
        if not os.path.lexists(h):
            err(ctx, f"find: {root}: No such file or directory")
            status = 1
            continue
        for path, depth, is_dir in _find_walk(h, root, 0):
            if not _find_match(preds, path, depth, is_dir):
                continue
            if exec_argv is None:
                out(ctx, path + "\n")
            elif batch:
                found.append(path)
            else:
                _run_exec(ctx, [path if a == "{}" else a for a in exec_argv])
    if exec_argv is not None and batch and found:
        i = exec_argv.index("{}")
        status = _run_exec(ctx, [*exec_argv[:i], *found, *exec_argv[i + 1 :]]) or status
    return status


def _find_exec(args: list[str]) -> tuple[list[str], bool]:
    """`-exec CMD ARGS {} ;` runs CMD once a file, `-exec CMD ARGS {} +` once for all of them
    (toybox takes `{}` only as the last argument of the `+` form, as here)."""
    for i, a in enumerate(args):
        if a == ";" or (a == "+" and i > 0 and args[i - 1] == "{}"):
            argv = args[:i]
            del args[: i + 1]
            if not argv:
                break
            return argv, a == "+"
    raise _Usage("-exec needs ; or {} +")


def _run_exec(ctx: CommandContext, argv: list[str]) -> int:
    fn = COMMANDS.get(argv[0])
    if fn is None:
        err(ctx, f"find: {argv[0]}: No such file or directory")
        return 1
    sub = CommandContext(ctx.device, argv, ctx.stdin, ctx.stdout, ctx.stderr, ctx.env, ctx.cwd)
    return 1 if fn(sub) else 0


def _find_walk(h: Path, path: str, depth: int) -> Iterable[tuple[str, int, bool]]:
    is_dir = h.is_dir() and not h.is_symlink()
    yield path, depth, is_dir
    if is_dir:
        try:
            names = sorted(os.listdir(h))
        except OSError:
            return
        for name in names:
            yield from _find_walk(h / name, posixpath.join(path, name), depth + 1)


def _find_match(preds: dict[str, str], path: str, depth: int, is_dir: bool) -> bool:
    name = posixpath.basename(path.rstrip("/")) or path
    checks = (
        ("-name", lambda v: fnmatch.fnmatchcase(name, v)),
        ("-iname", lambda v: fnmatch.fnmatchcase(name.lower(), v.lower())),
        ("-path", lambda v: fnmatch.fnmatchcase(path, v)),
        ("-type", lambda v: (v == "d") == is_dir and v in "fd"),
        ("-maxdepth", lambda v: v.isdigit() and depth <= int(v)),
        ("-mindepth", lambda v: v.isdigit() and depth >= int(v)),
    )
    return all(fn(preds[k]) for k, fn in checks if k in preds)


# --- changing files --------------------------------------------------------------------------

# Removing these would break the device itself; a phone refuses too (read-only or no permission).
_PROTECTED = frozenset(("/", "/data", "/system", "/storage", "/storage/emulated", SHARED_STORAGE, "/dev"))


@cmd("rm")
def rm(ctx: CommandContext) -> int:
    o, ops = opts(ctx.argv, "frRdiv")
    if not ops and "f" not in o:
        raise _Usage("Needs 1 argument")
    status = 0
    for path in ops:
        h = host(ctx, path)
        if norm(ctx, path) in _PROTECTED:
            err(ctx, f"rm: {path}: Permission denied")
            status = 1
        elif not os.path.lexists(h):
            if "f" not in o:
                err(ctx, f"rm: {path}: No such file or directory")
                status = 1
        elif h.is_dir() and not h.is_symlink():
            if "r" in o or "R" in o:
                shutil.rmtree(h, ignore_errors=True)
            elif "d" in o and not any(h.iterdir()):
                h.rmdir()
            else:
                err(ctx, f"rm: {path}: Is a directory")
                status = 1
        else:
            h.unlink()
    return status


@cmd("rmdir")
def rmdir(ctx: CommandContext) -> int:
    _, ops = opts(ctx.argv, "p")
    status = 0
    for path in ops:
        try:
            if norm(ctx, path) in _PROTECTED:
                raise PermissionError(13, "Permission denied")
            host(ctx, path).rmdir()
        except OSError as e:
            err(ctx, f"rmdir: {path}: {strerror(e)}")
            status = 1
    return status


@cmd("mkdir")
def mkdir(ctx: CommandContext) -> int:
    o, ops = opts(ctx.argv, "pv", "m")
    if not ops:
        raise _Usage("Needs 1 argument")
    status = 0
    for path in ops:
        try:
            host(ctx, path).mkdir(parents="p" in o, exist_ok="p" in o)
        except OSError as e:
            err(ctx, f"mkdir: {path}: {strerror(e)}")
            status = 1
    return status


def _touch_time(ctx: CommandContext, o: dict[str, list]) -> float | None:
    """The time -r, -d or -t names, in seconds since the epoch; None means now."""
    now = _device_now(ctx)
    zone = now.tzinfo
    if "r" in o:
        return host(ctx, o["r"][-1]).stat().st_mtime  # a missing reference raises OSError
    if "d" in o:  # @EPOCH or YYYY-MM-DD[T ]hh:mm[:ss[.frac]][Z]
        raw = o["d"][-1]
        if raw.startswith("@"):
            return float(raw[1:])
        when = datetime.fromisoformat(raw[:-1] + "+00:00" if raw.endswith("Z") else raw)
        return (when if when.tzinfo else when.replace(tzinfo=zone)).timestamp()
    if "t" in o:  # [[CC]YY]MMDDhhmm[.ss]
        m = re.fullmatch(r"((?:\d{2}){0,2})(\d{2})(\d{2})(\d{2})(\d{2})(?:\.(\d{2}))?", o["t"][-1])
        if not m:
            raise ValueError(o["t"][-1])
        year_digits, mo, dd, hh, mi, ss = m.groups()
        year = now.year
        if len(year_digits) == 4:
            year = int(year_digits)
        elif year_digits:  # POSIX: 69-99 are 19xx, 00-68 are 20xx
            year = int(year_digits) + (1900 if int(year_digits) >= 69 else 2000)
        return datetime(year, int(mo), int(dd), int(hh), int(mi), int(ss or 0), tzinfo=zone).timestamp()
    return None


@cmd("touch")
def touch(ctx: CommandContext) -> int:
    o, ops = opts(ctx.argv, "acmh", "dtr")
    try:
        when = _touch_time(ctx, o)
    except OSError as e:
        err(ctx, f"touch: {o['r'][-1]}: {strerror(e)}")
        return 1
    except ValueError:
        err(ctx, f"touch: bad date '{(o.get('d') or o.get('t'))[-1]}'")
        return 1
    status = 0
    for path in ops:
        if norm(ctx, path) == DEV_NULL:
            continue
        h = host(ctx, path)
        try:
            if not h.exists():
                if "c" in o:
                    continue
                h.touch()
            if when is not None or "a" in o or "m" in o:
                st = h.stat()
                t = when if when is not None else datetime.now(UTC).timestamp()
                # -a or -m alone keeps the other time as it was
                atime = st.st_atime if "m" in o and "a" not in o else t
                mtime = st.st_mtime if "a" in o and "m" not in o else t
                os.utime(h, (atime, mtime))
            else:
                os.utime(h)
        except OSError as e:
            err(ctx, f"touch: {path}: {strerror(e)}")
            status = 1
    return status


@cmd("chmod", "chown", "chgrp")
def chmod(ctx: CommandContext) -> int:
    _, ops = opts(ctx.argv, "Rfvh")
    if len(ops) < 2:
        raise _Usage("Needs 2 arguments")
    status = 0
    for path in ops[1:]:  # permissions are not modelled: only check the file is there
        if norm(ctx, path) != DEV_NULL and not os.path.lexists(host(ctx, path)):
            err(ctx, f"{ctx.argv[0]}: {path}: No such file or directory")
            status = 1
    return status


def _destination(ctx: CommandContext, src: str, dest: str) -> Path:
    d = host(ctx, dest)
    return d / posixpath.basename(norm(ctx, src)) if d.is_dir() else d


def _inside(child: Path, parent: Path) -> bool:
    return child == parent or parent in child.parents


def _sources_and_dest(ctx: CommandContext, name: str, ops: list[str]) -> tuple[list[str], str] | None:
    """`cp`/`mv` operands: the sources and the destination, which must be a directory when there
    are several sources (else the error is printed and None returned)."""
    if len(ops) < 2:
        raise _Usage("Needs 2 arguments")
    *sources, dest = ops
    if len(sources) > 1 and not host(ctx, dest).is_dir():
        err(ctx, f"{name}: {dest}: Not a directory")
        return None
    return sources, dest


@cmd("cp")
def cp(ctx: CommandContext) -> int:
    o, ops = opts(ctx.argv, "rRfpaidnLPHvslTu")
    parsed = _sources_and_dest(ctx, "cp", ops)
    if parsed is None:
        return 1
    sources, dest = parsed
    status = 0
    for src in sources:
        target = _destination(ctx, src, dest)
        try:
            if norm(ctx, src) == DEV_NULL:
                target.write_bytes(b"")
                continue
            s = host(ctx, src)
            if not s.is_dir():
                if s.exists() and target.exists() and s.samefile(target):
                    raise OSError(0, f"'{src}' and '{dest}' are the same file")
                shutil.copyfile(s, target)
            elif not ("r" in o or "R" in o or "a" in o):
                err(ctx, f"cp: Skipped dir '{src}'")
                status = 1
            elif _inside(target, s):
                err(ctx, f"cp: {src}: Can't copy a directory into itself")
                status = 1
            else:
                shutil.copytree(s, target, dirs_exist_ok=True)
        except OSError as e:
            err(ctx, f"cp: {src}: {strerror(e)}")
            status = 1
    return status


@cmd("mv")
def mv(ctx: CommandContext) -> int:
    _, ops = opts(ctx.argv, "finvT")
    parsed = _sources_and_dest(ctx, "mv", ops)
    if parsed is None:
        return 1
    sources, dest = parsed
    status = 0
    for src in sources:
        s, target = host(ctx, src), _destination(ctx, src, dest)
        try:
            if norm(ctx, src) in _PROTECTED:
                raise PermissionError(13, "Permission denied")
            if not os.path.lexists(s):
                raise FileNotFoundError(2, "No such file or directory")
            if s.is_dir() and _inside(target, s) and target != s:
                raise OSError(22, "Can't move a directory into itself")
            if target != s:
                shutil.move(s, target)
        except OSError as e:
            err(ctx, f"mv: {src}: {strerror(e)}")
            status = 1
    return status
