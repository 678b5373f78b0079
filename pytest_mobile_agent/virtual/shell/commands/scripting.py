"""The commands scripts are built from: echo, printf, test/[, env/printenv, pwd,
basename/dirname, true/false, sleep and toybox (which runs any other command)."""

from __future__ import annotations

import posixpath
import re
import stat
import time

from pytest_mobile_agent.virtual.core.fs import DEV_NULL
from pytest_mobile_agent.virtual.shell.api import COMMANDS, CommandContext, command
from pytest_mobile_agent.virtual.shell.commands.common import UsageError, cmd, err, host, norm, opts, out, unescape

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


@cmd("basename", "dirname")
def base_dir_name(ctx: CommandContext) -> int:
    _, ops = opts(ctx.argv, "")
    if not ops:
        raise UsageError("Needs 1 argument")
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


# --- true, false, sleep --------------------------------------------------------------------

_MAX_SLEEP = 10.0


@command("true", ":")
def _true(ctx: CommandContext) -> int:
    return 0


@command("false")
def _false(ctx: CommandContext) -> int:
    return 1


@command("sleep")
def _sleep(ctx: CommandContext) -> int:
    try:
        seconds = sum(_duration(a) for a in ctx.argv[1:])
    except ValueError:
        ctx.err(f"sleep: invalid number '{' '.join(ctx.argv[1:])}'\n")
        return 1
    time.sleep(min(max(seconds, 0.0), _MAX_SLEEP))
    return 0


def _duration(arg: str) -> float:
    scale = {"s": 1, "m": 60, "h": 3600, "d": 86400}.get(arg[-1:], 0)
    return float(arg[:-1] if scale else arg) * (scale or 1)
