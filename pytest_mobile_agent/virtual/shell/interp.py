"""The device's `/system/bin/sh`: runs parsed scripts against the command registry.

Pipelines run their stages one after another through in-memory buffers, which is enough for
the short commands clients send; only the last stage writes straight to the session, so a
long-running server command (app_process) still streams. Nothing a script does can raise out
of `run_script`: errors become messages on stderr and exit statuses, as on a phone.
"""

from __future__ import annotations

import ast
import contextlib
import fnmatch
import os
import posixpath
import threading
import time
from collections.abc import Callable
from typing import IO, Any

from pytest_mobile_agent.virtual.core.fs import DEV_NULL, DEV_TTY
from pytest_mobile_agent.virtual.shell import files  # noqa: F401  (registers the file and text commands)
from pytest_mobile_agent.virtual.shell.api import COMMANDS, BufferOutput, CommandContext, Input, Output, command
from pytest_mobile_agent.virtual.shell.files import enc, strerror
from pytest_mobile_agent.virtual.shell.parser import (
    ARITH,
    CMD,
    LIT,
    AndOr,
    For,
    Group,
    If,
    Loop,
    Pipeline,
    Redir,
    Seq,
    ShellSyntaxError,
    Simple,
    Word,
    parse,
)

SH = "/system/bin/sh"
DEFAULT_ENV = {
    "PATH": "/product/bin:/apex/com.android.runtime/bin:/apex/com.android.art/bin"
    ":/system_ext/bin:/system/bin:/system/xbin:/odm/bin:/vendor/bin:/vendor/xbin",
    "HOME": "/",
    "USER": "shell",
    "LOGNAME": "shell",
    "SHELL": SH,
    "TMPDIR": "/data/local/tmp",
    "ANDROID_ROOT": "/system",
    "ANDROID_DATA": "/data",
    "ANDROID_STORAGE": "/storage",
    "EXTERNAL_STORAGE": "/sdcard",
    "ASEC_MOUNTPOINT": "/mnt/asec",
    "IFS": " \t\n",
}
_BIN_DIRS = frozenset(("/system/bin", "/system/xbin", "/vendor/bin", "/sbin", "/bin"))
_EMPTY = Input(b"", closed=True)
_PID = 4242  # what `$$` says; the device has no real processes
_MAX_SLEEP = 10.0

Fds = tuple[Input, Output, Output]


class ShellExit(Exception):
    def __init__(self, code: int) -> None:
        self.code = code & 0xFF


class _LoopJump(Exception):
    def __init__(self, brk: bool, levels: int) -> None:
        self.brk = brk
        self.levels = levels


class _ExpandError(Exception):
    pass


class NullOutput:
    def write(self, data: bytes) -> None:
        pass


class _FileOutput:
    def __init__(self, handle: IO[bytes]) -> None:
        self.handle = handle

    def write(self, data: bytes) -> None:
        self.handle.write(data)


class Shell:
    """One shell process: variables, cwd, positional args and the last status."""

    def __init__(
        self,
        device: Any,
        stdin: Input,
        stdout: Output,
        stderr: Output,
        env: dict[str, str] | None = None,
        cwd: str = "/",
        args: list[str] | None = None,
    ) -> None:
        self.device = device
        self.fds: Fds = (stdin, stdout, stderr)
        self.tty = stdout  # what /dev/tty means
        self.vars = dict(DEFAULT_ENV) if env is None else env
        self.cwd = cwd
        self.args = args or [SH]
        self.status = 0
        self.last_bg = 0
        self.subst: int | None = None  # status of the last $(...) in this command

    def sub(self, stdin: Input | None = None, stdout: Output | None = None) -> Shell:
        fds = self.fds
        sub = Shell(self.device, stdin or fds[0], stdout or fds[1], fds[2], dict(self.vars))
        sub.cwd, sub.args, sub.status, sub.tty = (
            self.cwd,
            self.args,
            self.status,
            self.tty,
        )
        return sub

    # --- entry points ---------------------------------------------------------------------

    def run(self, script: str) -> int:
        """Run a script; `exit` ends it. Returns the exit status."""
        try:
            tree = parse(script)
        except ShellSyntaxError as e:
            self.say(f"{SH}: {e}")
            self.status = 1
            return 1
        try:
            self.seq(tree, self.fds)
        except ShellExit as e:
            self.status = e.code
        except _LoopJump:
            pass
        except RecursionError:
            self.say(f"{SH}: recursion too deep")
            self.status = 1
        return self.status

    def say(self, line: str, err: Output | None = None) -> None:
        # The session may be gone; then there is nobody left to tell.
        with contextlib.suppress(Exception):
            (err or self.fds[2]).write(enc(line + "\n"))

    # --- lists and compound commands ------------------------------------------------------

    def seq(self, seq: Seq, fds: Fds) -> int:
        for item in seq.items:
            if item.background:
                self.background(item, fds)
            else:
                self.and_or(item, fds)
        return self.status

    def and_or(self, item: AndOr, fds: Fds) -> int:
        status = self.pipeline(item.first, fds)
        for op, pipe in item.rest:
            if (status == 0) == (op == "&&"):
                status = self.pipeline(pipe, fds)
        return status

    def background(self, item: AndOr, fds: Fds) -> None:
        # `cmd &`: run it on a thread in a copy of the shell, with no stdin, like a real job.
        job = self.sub(stdin=_EMPTY)
        plain = AndOr(item.first, item.rest, False)

        def run() -> None:
            # A job must never take the device down, and has nobody to report to.
            with contextlib.suppress(BaseException):
                job.and_or(plain, (_EMPTY, fds[1], fds[2]))

        threading.Thread(target=run, name="sh-job", daemon=True).start()
        self.last_bg += 1
        self.status = 0

    def pipeline(self, pipe: Pipeline, fds: Fds) -> int:
        cmds = pipe.commands
        if len(cmds) == 1:
            status = self.command(cmds[0], fds)
        else:
            source = fds[0]
            for k, cmd in enumerate(cmds):
                last = k == len(cmds) - 1
                sink: Output = fds[1] if last else BufferOutput()
                try:
                    status = self.command(cmd, (source, sink, fds[2]))
                except ShellExit as e:  # each stage is a subshell
                    status = e.code
                if not last:
                    source = Input(bytes(sink.data), closed=True)  # type: ignore[attr-defined]
        if pipe.negate:
            status = int(status == 0)
        self.status = status
        return status

    def command(self, node: object, fds: Fds) -> int:
        if type(node) is Simple:
            return self.simple(node, fds)
        redirs = node.redirs  # type: ignore[attr-defined]
        opened: list[IO[bytes]] = []
        if redirs:
            new = self.redirect(redirs, fds, opened)
            if new is None:
                self.status = 1
                return 1
            fds = new
        try:
            if type(node) is Group:
                if node.subshell:
                    sub = self.sub()
                    try:
                        sub.seq(node.body, fds)
                    except ShellExit as e:
                        sub.status = e.code
                    self.status = sub.status
                else:
                    self.seq(node.body, fds)
            elif type(node) is If:
                self.if_(node, fds)
            elif type(node) is Loop:
                self.loop(node, fds)
            elif type(node) is For:
                self.for_(node, fds)
            return self.status
        finally:
            for handle in opened:
                handle.close()

    def if_(self, node: If, fds: Fds) -> None:
        for cond, body in node.clauses:
            if self.seq(cond, fds) == 0:
                self.seq(body, fds)
                return
        if node.orelse is not None:
            self.seq(node.orelse, fds)
        else:
            self.status = 0

    def loop(self, node: Loop, fds: Fds) -> None:
        status = 0
        while (self.seq(node.cond, fds) == 0) != node.until:
            if self.jumped(lambda: self.seq(node.body, fds)):
                break
            status = self.status
        self.status = status

    def for_(self, node: For, fds: Fds) -> None:
        values = self.args[1:] if node.words is None else self.expand_words(node.words)
        self.status = 0
        for value in values:
            self.vars[node.name] = value
            if self.jumped(lambda: self.seq(node.body, fds)):
                break

    def jumped(self, body: Callable[[], object]) -> bool:
        """Run a loop body; True when `break` leaves this loop."""
        try:
            body()
        except _LoopJump as jump:
            if jump.levels > 1:
                jump.levels -= 1
                raise
            return jump.brk
        return False

    # --- simple commands ------------------------------------------------------------------

    def simple(self, node: Simple, fds: Fds) -> int:
        self.subst = None
        try:
            argv = list(node.argv) if node.argv is not None else self.expand_words(node.words)
            assigns = [(name, self.expand_str(w)) for name, w in node.assigns]
        except _ExpandError as e:
            self.say(f"{SH}: {e}", fds[2])
            self.status = 1
            return 1
        if not argv:
            self.vars.update(assigns)
        opened: list[IO[bytes]] = []
        if node.redirs:
            new = self.redirect(node.redirs, fds, opened)
            if new is None:
                self.status = 1
                return 1
            fds = new
        try:
            if argv:
                env = {**self.vars, **dict(assigns)} if assigns else self.vars
                self.status = self.invoke(argv, fds, env)
            else:  # assignments or redirections alone: the last $(...) decides
                self.status = self.subst if self.subst is not None else 0
        finally:
            for handle in opened:
                handle.close()
        return self.status

    def invoke(self, argv: list[str], fds: Fds, env: dict[str, str]) -> int:
        name = argv[0]
        builtin = BUILTINS.get(name)
        fn = COMMANDS.get(name) if builtin is None else None
        if builtin is None and fn is None:
            fn = self.resolve(name)
            if fn is None:
                self.say(f"{SH}: {name}: inaccessible or not found", fds[2])
                return 127
        ctx = CommandContext(self.device, argv, fds[0], fds[1], fds[2], env, self.cwd)
        try:
            if builtin is not None:
                return builtin(self, ctx) & 0xFF
            return (fn(ctx) or 0) & 0xFF  # type: ignore[misc]
        except (ShellExit, _LoopJump):
            raise
        except OSError as e:  # never show the host path behind the device path
            self.say(f"{name}: {strerror(e)}", fds[2])
            return 1
        except Exception as e:  # noqa: BLE001  (a broken command must not stop the device)
            self.say(f"{name}: {e or type(e).__name__}", fds[2])
            return 1

    def resolve(self, name: str) -> Callable[[CommandContext], int] | None:
        """`/system/bin/ls` is `ls`; a script file on the device runs under sh."""
        if "/" not in name:
            return None
        path = posixpath.normpath(posixpath.join(self.cwd, name))
        head, base = posixpath.split(path)
        if head in _BIN_DIRS and base in COMMANDS:
            return COMMANDS[base]
        if head in _BIN_DIRS and base in BUILTINS:
            return lambda ctx: BUILTINS[base](self, ctx)
        try:
            if self.device.fs.host(name, self.cwd).is_file():
                return lambda ctx: sh(CommandContext(*_ctx_fields(ctx, [SH, *ctx.argv])))
        except OSError:
            pass
        return None

    # --- redirections ---------------------------------------------------------------------

    def redirect(self, redirs: tuple[Redir, ...], fds: Fds, opened: list[IO[bytes]]) -> Fds | None:
        table: list[Any] = list(fds)
        try:
            for r in redirs:
                target = self.expand_str(r.target)
                if r.op == "<<" or r.op == "<<-":
                    stream: Any = Input(enc(target), closed=True)
                elif r.op in (">&", "<&"):
                    stream = self.dup(table, target)
                else:
                    stream = self.open(target, r.op, opened)
                if r.fd == -1:  # &> file
                    table[1] = table[2] = stream
                elif r.fd < 3:
                    table[r.fd] = stream
        except _ExpandError as e:
            self.say(f"{SH}: {e}", fds[2])
            return None
        except OSError as e:
            for handle in opened:
                handle.close()
            self.say(f"{SH}: {e.args[-1]}", fds[2])
            return None
        return table[0], table[1], table[2]

    def dup(self, table: list[Any], target: str) -> Any:
        if target == "-":
            return NullOutput()
        if target in ("0", "1", "2"):
            return table[int(target)]
        if target.isdigit():
            return NullOutput()  # fds 3+ are never open here
        raise OSError(f"{target}: illegal file descriptor name")

    def open(self, target: str, op: str, opened: list[IO[bytes]]) -> Any:
        fs = self.device.fs
        path = fs.normalize(target, self.cwd) if target else ""
        if path == DEV_NULL:
            return _EMPTY if op == "<" else NullOutput()
        if path in (DEV_TTY, "/dev/stdout"):
            return self.fds[0] if op == "<" else self.tty
        if path == "/dev/stderr":
            return self.fds[2]
        host = fs.host(target, self.cwd)
        try:
            if op == "<":
                return Input(host.read_bytes(), closed=True)
            mode = "ab" if op == ">>" else "r+b" if op == "<>" else "wb"
            handle = open(host, mode)  # noqa: SIM115  (closed after the command)
        except (OSError, ValueError) as e:  # ValueError: a NUL in the name
            verb = "open" if op == "<" else "create"
            why = strerror(e) if isinstance(e, OSError) else "No such file or directory"
            raise OSError(f"can't {verb} {target}: {why}") from None
        opened.append(handle)
        return _FileOutput(handle)

    # --- expansion ------------------------------------------------------------------------

    def getvar(self, name: str) -> str:
        if name == "?":
            return str(self.status)
        if name in self.vars:
            return self.vars[name]
        if name.isdigit():
            k = int(name)
            return self.args[k] if k < len(self.args) else ""
        if name in ("@", "*"):
            return " ".join(self.args[1:])
        if name == "#":
            return str(len(self.args) - 1)
        if name == "$":
            return str(_PID)
        if name == "!":
            return str(_PID + self.last_bg) if self.last_bg else ""
        if name == "PWD":
            return self.cwd
        return ""

    def part_value(self, part: tuple) -> str:
        kind = part[0]
        if kind == CMD:
            out = BufferOutput()
            sub = self.sub(stdout=out)
            sub.run(part[1])
            self.status = self.subst = sub.status
            return out.data.decode("utf-8", "surrogateescape").rstrip("\n")
        if kind == ARITH:
            return str(arith(self.expand_str(part[1]), self.getvar))
        _, name, _, op, arg = part
        value = self.getvar(name)
        if op is None:
            return value
        if op == "#":
            return str(len(value))
        is_set = name in self.vars or name in "?$#@*" or (name.isdigit() and value != "")
        unset = not is_set or (op[0] == ":" and value == "")
        if op.endswith("+"):
            return "" if unset else arg
        if not unset:
            return value
        if op.endswith("?"):
            raise _ExpandError(f"{name}: {arg or 'parameter null or not set'}")
        if op.endswith("="):
            self.vars[name] = arg
        return arg

    def expand_str(self, word: Word) -> str:
        """A word as one string: no field splitting, no globbing (assignments, targets)."""
        if word.literal is not None:
            return word.literal
        return "".join(p[1] if p[0] == LIT else self.part_value(p) for p in word.parts)

    def expand_words(self, words: tuple[Word, ...]) -> list[str]:
        out: list[str] = []
        for w in words:
            if w.literal is not None:
                out.append(w.literal)
            else:
                out.extend(self.expand_word(w))
        return out

    def expand_word(self, word: Word) -> list[str]:
        """Expand, split unquoted expansions on IFS whitespace, then glob."""
        fields: list[tuple[str, str, bool]] = []
        text: list[str] = []
        pat: list[str] = []
        state = {"glob": False, "present": False}

        def flush() -> None:
            if state["present"]:
                fields.append(("".join(text), "".join(pat), state["glob"]))
            text.clear()
            pat.clear()
            state["glob"] = state["present"] = False

        def add(s: str, quoted: bool) -> None:
            text.append(s)
            if quoted:
                pat.append(_escape_glob(s))
            else:
                pat.append(s)
                if "*" in s or "?" in s or "[" in s:
                    state["glob"] = True
            state["present"] = True

        for part in word.parts:
            if part[0] == LIT:
                add(part[1], part[2])
                continue
            value = self.part_value(part)
            if part[2]:
                add(value, True)
                continue
            pieces = value.split()
            if value[:1].isspace():
                flush()
            for k, piece in enumerate(pieces):
                if k:
                    flush()
                add(piece, False)
            if value[-1:].isspace():
                flush()
        flush()
        out: list[str] = []
        for txt, pattern, has_glob in fields:
            matches = self.glob(pattern) if has_glob else None
            if matches:
                out.extend(matches)
            else:
                out.append(txt)
        return out

    def glob(self, pattern: str) -> list[str]:
        fs = self.device.fs
        comps = [c for c in pattern.split("/") if c]
        cands = ["/"] if pattern.startswith("/") else [""]
        for comp in comps:
            new: list[str] = []
            magic = _has_magic(comp)
            for base in cands:
                if not magic:
                    new.append(_join(base, _unescape_glob(comp)))
                    continue
                try:
                    names = sorted(os.listdir(fs.host(base or ".", self.cwd)))
                except (OSError, ValueError):
                    continue
                for name in names:
                    if name.startswith(".") and not comp.startswith("."):
                        continue
                    if fnmatch.fnmatchcase(name, comp):
                        new.append(_join(base, name))
            cands = new
            if not cands:
                return []
        if pattern.endswith("/"):
            return [c + "/" for c in cands if fs.host(c, self.cwd).is_dir()]
        return [c for c in cands if fs.host(c, self.cwd).exists()]


def _join(base: str, name: str) -> str:
    return base + name if base in ("", "/") else f"{base}/{name}"


def _escape_glob(s: str) -> str:
    if "*" in s or "?" in s or "[" in s:
        return "".join(f"[{c}]" if c in "*?[" else c for c in s)
    return s


def _unescape_glob(s: str) -> str:
    return s.replace("[*]", "*").replace("[?]", "?").replace("[[]", "[")


def _has_magic(comp: str) -> bool:
    bare = comp.replace("[*]", "").replace("[?]", "").replace("[[]", "")
    return "*" in bare or "?" in bare or "[" in bare


# --- arithmetic $((...)) -------------------------------------------------------------------

_ARITH_OPS: dict[type, Callable[..., int]] = {
    ast.Add: lambda a, b: a + b,
    ast.Sub: lambda a, b: a - b,
    ast.Mult: lambda a, b: a * b,
    ast.Div: lambda a, b: int(a / b) if abs(a) < 2**52 else a // b,
    ast.Mod: lambda a, b: a - b * int(a / b) if abs(a) < 2**52 else a % b,
    ast.LShift: lambda a, b: a << min(b, 64),
    ast.RShift: lambda a, b: a >> b,
    ast.BitAnd: lambda a, b: a & b,
    ast.BitOr: lambda a, b: a | b,
    ast.BitXor: lambda a, b: a ^ b,
}
_CMP_OPS: dict[type, Callable[[int, int], bool]] = {
    ast.Eq: int.__eq__,
    ast.NotEq: int.__ne__,
    ast.Lt: int.__lt__,
    ast.LtE: int.__le__,
    ast.Gt: int.__gt__,
    ast.GtE: int.__ge__,
}


def arith(expr: str, getvar: Callable[[str], str]) -> int:
    """Evaluate shell integer arithmetic through Python's parser, allowing only integers."""
    text = expr.replace("&&", " and ").replace("||", " or ")
    text = "".join(" not " if c == "!" and text[k + 1 : k + 2] != "=" else c for k, c in enumerate(text))
    try:
        tree = ast.parse(text.strip() or "0", mode="eval")
        value = _arith_node(tree.body, getvar)
    except ZeroDivisionError:
        raise _ExpandError(f"{expr}: divide by zero") from None
    except Exception:  # noqa: BLE001  (anything Python rejects is a bad expression)
        raise _ExpandError(f"{expr}: bad arithmetic expression") from None
    return ((value + 2**63) % 2**64) - 2**63  # 64-bit wraparound like mksh


def _arith_node(node: ast.AST, getvar: Callable[[str], str]) -> int:
    if isinstance(node, ast.Constant) and type(node.value) is int:
        return node.value
    if isinstance(node, ast.Name):
        value = getvar(node.id).strip() or "0"
        return int(value, 0) if value.lstrip("-").isdigit() or value.startswith("0x") else 0
    if isinstance(node, ast.BinOp) and type(node.op) in _ARITH_OPS:
        a, b = _arith_node(node.left, getvar), _arith_node(node.right, getvar)
        return _ARITH_OPS[type(node.op)](a, b)
    if isinstance(node, ast.UnaryOp):
        v = _arith_node(node.operand, getvar)
        ops = {ast.USub: -v, ast.UAdd: v, ast.Not: int(not v), ast.Invert: ~v}
        return ops[type(node.op)]
    if isinstance(node, ast.BoolOp):
        vals = (_arith_node(v, getvar) for v in node.values)
        return int(all(vals) if isinstance(node.op, ast.And) else any(vals))
    if isinstance(node, ast.Compare):
        left = _arith_node(node.left, getvar)
        for op, right_node in zip(node.ops, node.comparators, strict=True):
            right = _arith_node(right_node, getvar)
            if not _CMP_OPS[type(op)](left, right):
                return 0
            left = right
        return 1
    if isinstance(node, ast.IfExp):
        branch = node.body if _arith_node(node.test, getvar) else node.orelse
        return _arith_node(branch, getvar)
    raise ValueError("bad expression")


# --- builtins that need the shell itself -----------------------------------------------------

Builtin = Callable[[Shell, CommandContext], int]
BUILTINS: dict[str, Builtin] = {}


def builtin(*names: str) -> Callable[[Builtin], Builtin]:
    def register(fn: Builtin) -> Builtin:
        for name in names:
            BUILTINS[name] = fn
        return fn

    return register


@builtin("cd")
def _cd(shell: Shell, ctx: CommandContext) -> int:
    target = ctx.argv[1] if len(ctx.argv) > 1 else shell.vars.get("HOME", "/")
    if target == "-":
        target = shell.vars.get("OLDPWD", shell.cwd)
    path = posixpath.normpath(posixpath.join(shell.cwd, target)).replace("//", "/")
    host = shell.device.fs.host(path)
    if not host.is_dir():
        why = "Not a directory" if host.exists() else "No such file or directory"
        ctx.err(f"{SH}: cd: {target}: {why}\n")
        return 1
    shell.vars["OLDPWD"], shell.cwd = shell.cwd, path
    shell.vars["PWD"] = path
    return 0


@builtin("exit")
def _exit(shell: Shell, ctx: CommandContext) -> int:
    arg = ctx.argv[1] if len(ctx.argv) > 1 else None
    if arg is not None and not arg.lstrip("-").isdigit():
        ctx.err(f"{SH}: exit: {arg}: bad number\n")
        raise ShellExit(1)
    raise ShellExit(int(arg) if arg is not None else shell.status)


@builtin("export", "readonly", "local", "typeset")
def _export(shell: Shell, ctx: CommandContext) -> int:
    for arg in ctx.argv[1:]:
        if arg.startswith("-"):
            continue
        name, eq, value = arg.partition("=")
        if eq:
            shell.vars[name] = value
        else:
            shell.vars.setdefault(name, "")
    if len(ctx.argv) == 1:
        ctx.out("".join(f"export {k}={v}\n" for k, v in sorted(shell.vars.items())))
    return 0


@builtin("unset")
def _unset(shell: Shell, ctx: CommandContext) -> int:
    for name in ctx.argv[1:]:
        shell.vars.pop(name, None)
    return 0


@builtin("set")
def _set(shell: Shell, ctx: CommandContext) -> int:
    args = ctx.argv[1:]
    if "--" in args:
        shell.args = [shell.args[0], *args[args.index("--") + 1 :]]
    elif not args:
        ctx.out("".join(f"{k}={v}\n" for k, v in sorted(shell.vars.items())))
    return 0  # options (-e, -x ...) are accepted and ignored


@builtin("shift")
def _shift(shell: Shell, ctx: CommandContext) -> int:
    n = int(ctx.argv[1]) if len(ctx.argv) > 1 and ctx.argv[1].isdigit() else 1
    if n > len(shell.args) - 1:
        return 1
    shell.args = [shell.args[0], *shell.args[1 + n :]]
    return 0


@builtin("break", "continue")
def _jump(shell: Shell, ctx: CommandContext) -> int:
    n = int(ctx.argv[1]) if len(ctx.argv) > 1 and ctx.argv[1].isdigit() else 1
    raise _LoopJump(ctx.argv[0] == "break", max(n, 1))


@builtin("eval")
def _eval(shell: Shell, ctx: CommandContext) -> int:
    saved = shell.fds
    shell.fds = (ctx.stdin, ctx.stdout, ctx.stderr)
    try:
        tree = parse(" ".join(ctx.argv[1:]))
        return shell.seq(tree, shell.fds)
    except ShellSyntaxError as e:
        ctx.err(f"{SH}: eval: {e}\n")
        return 1
    finally:
        shell.fds = saved


@builtin(".", "source")
def _source(shell: Shell, ctx: CommandContext) -> int:
    if len(ctx.argv) < 2:
        return 0
    try:
        text = shell.device.fs.host(ctx.argv[1], shell.cwd).read_text("utf-8", "surrogateescape")
    except OSError as e:
        ctx.err(f"{SH}: {ctx.argv[1]}: {strerror(e)}\n")
        return 1
    ctx.argv = ["eval", text]
    return _eval(shell, ctx)


@builtin("exec")
def _exec(shell: Shell, ctx: CommandContext) -> int:
    if len(ctx.argv) < 2:
        return 0  # `exec >file` permanently redirecting is not modelled
    raise ShellExit(shell.invoke(ctx.argv[1:], (ctx.stdin, ctx.stdout, ctx.stderr), ctx.env))


@builtin("read")
def _read(shell: Shell, ctx: CommandContext) -> int:
    names = [a for a in ctx.argv[1:] if not a.startswith("-")] or ["REPLY"]
    line = ctx.stdin.readline()
    if not line:
        return 1
    text = line.decode("utf-8", "surrogateescape").rstrip("\n")
    values = text.split(None, len(names) - 1) if names[0] != "REPLY" else [text]
    for k, name in enumerate(names):
        shell.vars[name] = values[k] if k < len(values) else ""
    return 0


@builtin("command", "type", "which")
def _which(shell: Shell, ctx: CommandContext) -> int:
    args = [a for a in ctx.argv[1:] if not a.startswith("-")]
    if ctx.argv[0] == "command" and "-v" not in ctx.argv and "-V" not in ctx.argv:
        return shell.invoke(args, (ctx.stdin, ctx.stdout, ctx.stderr), ctx.env) if args else 0
    status = 0
    for name in args:
        if name in BUILTINS and ctx.argv[0] != "which":
            ctx.out(f"{name}\n" if ctx.argv[0] == "command" else f"{name} is a shell builtin\n")
        elif name in COMMANDS or name in BUILTINS:
            path = f"/system/bin/{name}"
            ctx.out(f"{path}\n" if ctx.argv[0] != "type" else f"{name} is {path}\n")
        else:
            status = 1
    return status


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


def _ctx_fields(ctx: CommandContext, argv: list[str]) -> tuple:
    return ctx.device, argv, ctx.stdin, ctx.stdout, ctx.stderr, ctx.env, ctx.cwd


@command("sh", "mksh")
def sh(ctx: CommandContext) -> int:
    """`sh -c SCRIPT [NAME ARGS]`, `sh FILE [ARGS]` or a script read from stdin."""
    args = ctx.argv[1:]
    while args and args[0].startswith("-") and args[0] != "-c":
        args = args[1:]  # -x, -e ... accepted, ignored
    if args and args[0] == "-c":
        if len(args) < 2:
            ctx.err(f"{SH}: -c: option requires an argument\n")
            return 1
        script, positional = args[1], args[2:] or [SH]
    elif args:
        try:
            script = ctx.device.fs.host(args[0], ctx.cwd).read_text("utf-8", "surrogateescape")
        except OSError as e:
            ctx.err(f"{SH}: {args[0]}: {strerror(e)}\n")
            return 127
        positional = args
    else:
        script, positional = ctx.stdin.read().decode("utf-8", "surrogateescape"), [SH]
    shell = Shell(
        ctx.device,
        ctx.stdin,
        ctx.stdout,
        ctx.stderr,
        dict(ctx.env),
        ctx.cwd,
        positional,
    )
    return shell.run(script)


# --- public entry points ---------------------------------------------------------------------


def _session_shell(device: Any, stdin: Input, stdout: Output, stderr: Output, env: dict[str, str] | None) -> Shell:
    """The top-level shell of an `adb shell` session: the default environment, `env` over it."""
    vars_ = dict(DEFAULT_ENV)
    if env:
        vars_.update(env)
    return Shell(device, stdin, stdout, stderr, vars_)


def run_script(
    device: Any,
    script: str,
    stdin: Input,
    stdout: Output,
    stderr: Output,
    env: dict[str, str] | None = None,
) -> int:
    """Run one `adb shell` command line; returns its exit status (never raises)."""
    shell = _session_shell(device, stdin, stdout, stderr, env)
    try:
        return shell.run(script)
    except Exception as e:  # noqa: BLE001  (last line of defence: the device keeps running)
        shell.say(f"{SH}: {e}")
        return 1


def prompt(shell: Shell) -> str:
    props = getattr(shell.device, "props", None)
    host = props.get("ro.product.device", "generic") if isinstance(props, dict) else "generic"
    return f"{host}:{shell.cwd} $ "


def interactive(
    device: Any,
    stdin: Input,
    stdout: Output,
    stderr: Output,
    env: dict[str, str] | None = None,
) -> int:
    """`adb shell` with no command: prompt, read a line, run it, until `exit` or EOF."""
    shell = _session_shell(device, stdin, stdout, stderr, env)
    pending = ""
    while True:
        try:
            stdout.write(enc(prompt(shell) if not pending else "> "))
        except Exception:  # noqa: BLE001  (the session is gone)
            break
        line = stdin.readline().decode("utf-8", "surrogateescape")
        if not line:
            break
        text = pending + line
        try:
            tree = parse(text)
        except ShellSyntaxError as e:
            if e.incomplete and line.endswith("\n"):
                pending = text  # an open quote or `if`: read a continuation line
                continue
            pending = ""
            shell.say(f"{SH}: {e}")
            shell.status = 1
            continue
        pending = ""
        try:
            shell.seq(tree, shell.fds)
        except ShellExit as e:
            return e.code
        except _LoopJump:
            pass
        except Exception as e:  # noqa: BLE001  (keep the session alive)
            shell.say(f"{SH}: {e}")
            shell.status = 1
    return shell.status
