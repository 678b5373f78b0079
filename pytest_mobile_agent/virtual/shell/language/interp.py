"""The device's `/system/bin/sh`: runs parsed scripts against the command registry.

Pipelines run their stages one after another through in-memory buffers, which is enough for
the short commands clients send; only the last stage writes straight to the session, so a
long-running server command (app_process) still streams. Nothing a script does can raise out
of `run_script`: errors become messages on stderr and exit statuses, as on a phone. The
builtins that need the shell itself register in `BUILTINS` (builtins.py) as commands do in
`COMMANDS`.
"""

from __future__ import annotations

import contextlib
import posixpath
import threading
from collections.abc import Callable
from dataclasses import replace
from typing import IO, Any

from pytest_mobile_agent.virtual.core.fs import DEV_NULL, DEV_TTY
from pytest_mobile_agent.virtual.shell.api import (
    COMMANDS,
    BufferOutput,
    CommandContext,
    CommandFn,
    Input,
    Output,
    enc,
    strerror,
)
from pytest_mobile_agent.virtual.shell.language.expand import Expander, ExpandError
from pytest_mobile_agent.virtual.shell.language.parser import ShellSyntaxError, parse
from pytest_mobile_agent.virtual.shell.language.syntax import (
    AndOr,
    Command,
    For,
    Group,
    If,
    Loop,
    Pipeline,
    Redir,
    Seq,
    Simple,
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

Fds = tuple[Input, Output, Output]


class ShellExit(Exception):
    def __init__(self, code: int) -> None:
        self.code = code & 0xFF


class LoopJump(Exception):
    def __init__(self, brk: bool, levels: int) -> None:
        self.brk = brk
        self.levels = levels


class NullOutput:
    def write(self, data: bytes) -> None:
        pass


class _FileOutput:
    def __init__(self, handle: IO[bytes]) -> None:
        self.handle = handle

    def write(self, data: bytes) -> None:
        self.handle.write(data)


class Shell(Expander):
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
        # What /dev/tty means: the session's terminal. adbd runs `shell:CMD` and `exec:CMD` raw
        # (no terminal) since Android 7 and gives one only to `shell,pty:` and a bare `shell:`.
        self.tty: Output | None = None
        self.vars = dict(DEFAULT_ENV) if env is None else env
        self.cwd = cwd
        self.args = args or [SH]
        self.status = 0
        self.last_bg = 0
        self.jobs: list[threading.Thread] = []  # `cmd &` jobs still to `wait` for
        self.subst = None

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
        except LoopJump:
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

        thread = threading.Thread(target=run, name="sh-job", daemon=True)
        thread.start()
        self.jobs.append(thread)
        self.last_bg += 1
        self.status = 0

    def pipeline(self, pipe: Pipeline, fds: Fds) -> int:
        cmds = pipe.commands
        if len(cmds) == 1:
            status = self.command(cmds[0], fds)
        else:
            source = fds[0]
            for k, cmd in enumerate(cmds):
                buffer = BufferOutput() if k < len(cmds) - 1 else None
                try:
                    status = self.command(cmd, (source, fds[1] if buffer is None else buffer, fds[2]))
                except ShellExit as e:  # each stage is a subshell
                    status = e.code
                if buffer is not None:
                    source = Input(bytes(buffer.data), closed=True)
        if pipe.negate:
            status = int(status == 0)
        self.status = status
        return status

    def command(self, node: Command, fds: Fds) -> int:
        if type(node) is Simple:
            return self.simple(node, fds)
        redirs = node.redirs
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
        except LoopJump as jump:
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
        except ExpandError as e:
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
        fn = self.lookup(name)
        if fn is None:
            self.say(f"{SH}: {name}: inaccessible or not found", fds[2])
            return 127
        ctx = CommandContext(self.device, argv, fds[0], fds[1], fds[2], env, self.cwd, self.tty)
        try:
            return (fn(ctx) or 0) & 0xFF
        except (ShellExit, LoopJump):
            raise
        except OSError as e:  # never show the host path behind the device path
            self.say(f"{name}: {strerror(e)}", fds[2])
            return 1
        except Exception as e:  # noqa: BLE001  (a broken command must not stop the device)
            self.say(f"{name}: {e or type(e).__name__}", fds[2])
            return 1

    def lookup(self, name: str) -> CommandFn | None:
        """What runs for a command name: a builtin, then a registered command, then a path."""
        builtin = BUILTINS.get(name)
        if builtin is not None:
            return lambda ctx: builtin(self, ctx)
        return COMMANDS.get(name) or self.resolve(name)

    def resolve(self, name: str) -> CommandFn | None:
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
                return lambda ctx: COMMANDS["sh"](replace(ctx, argv=[SH, *ctx.argv]))
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
        except ExpandError as e:
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
        if path == "/dev/stdout":
            return self.fds[0] if op == "<" else self.fds[1]
        if path == DEV_TTY:
            if self.tty is None:
                raise OSError(f"can't {'open' if op == '<' else 'create'} {target}: No such device or address")
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

    # --- command substitution -------------------------------------------------------------

    def substitute(self, script: str) -> tuple[str, int]:
        out = BufferOutput()
        sub = self.sub(stdout=out)
        sub.run(script)
        return out.data.decode("utf-8", "surrogateescape").rstrip("\n"), sub.status


# --- builtins: commands that need the shell itself (builtins.py registers them) ---------------

Builtin = Callable[[Shell, CommandContext], int]
BUILTINS: dict[str, Builtin] = {}


def builtin(*names: str) -> Callable[[Builtin], Builtin]:
    def register(fn: Builtin) -> Builtin:
        for name in names:
            BUILTINS[name] = fn
        return fn

    return register


# --- public entry points ---------------------------------------------------------------------


def _session_shell(
    device: Any, stdin: Input, stdout: Output, stderr: Output, env: dict[str, str] | None, tty: bool
) -> Shell:
    """The top-level shell of an `adb shell` session: the default environment, `env` over it;
    with `tty`, stdout is also its terminal."""
    vars_ = dict(DEFAULT_ENV)
    if env:
        vars_.update(env)
    shell = Shell(device, stdin, stdout, stderr, vars_)
    shell.tty = stdout if tty else None
    return shell


def run_script(
    device: Any,
    script: str,
    stdin: Input,
    stdout: Output,
    stderr: Output,
    env: dict[str, str] | None = None,
    tty: bool = False,
) -> int:
    """Run one `adb shell` command line, raw unless `tty` (a `shell,pty:` session); returns its
    exit status (never raises)."""
    shell = _session_shell(device, stdin, stdout, stderr, env, tty)
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
    shell = _session_shell(device, stdin, stdout, stderr, env, tty=True)
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
        except LoopJump:
            pass
        except Exception as e:  # noqa: BLE001  (keep the session alive)
            shell.say(f"{SH}: {e}")
            shell.status = 1
    return shell.status
