"""The shell's builtins: what changes the shell itself (cd, exit, export, set, shift, break,
eval, `.`, exec, read, command/type/which), and `sh`/`mksh`, which starts a new one.

They register in the interpreter's `BUILTINS`, which it looks up before `COMMANDS`.
"""

from __future__ import annotations

import posixpath

from pytest_mobile_agent.virtual.shell.api import COMMANDS, CommandContext, command, strerror
from pytest_mobile_agent.virtual.shell.language.interp import BUILTINS, SH, LoopJump, Shell, ShellExit, builtin
from pytest_mobile_agent.virtual.shell.language.parser import ShellSyntaxError, parse


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


@builtin("wait")
def _wait(shell: Shell, ctx: CommandContext) -> int:
    """mksh's `wait`: until this shell's background jobs have ended (60 s at most here)."""
    while shell.jobs:
        shell.jobs.pop(0).join(60)
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
    raise LoopJump(ctx.argv[0] == "break", max(n, 1))


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
