"""toybox `sed`, the part scripts send: `sed [-n] [-E|-r] [-e] SCRIPT [FILE...]` with `s/RE/REPL/[gpI]`,
`p`, `d`, `q` and line-number or /RE/ addresses, `;`-separated. SPA-Bench closes apps with
`dumpsys activity | grep topActivity | sed -n 's/.*{\\([^\\/]*\\)\\/.*/\\1/p' | while read ...`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from pytest_mobile_agent.virtual.shell.api import CommandContext, dec, enc
from pytest_mobile_agent.virtual.shell.commands.common import UsageError, cmd, inputs, lines

_BRE_SPECIAL = {"(": "(", ")": ")", "{": "{", "}": "}", "|": "|", "+": "+", "?": "?"}


def _to_python(pattern: str, extended: bool) -> str:
    """A POSIX basic (or extended) regex as Python's: in BRE, \\( \\) \\{ \\} \\| \\+ \\? are the
    operators and the bare characters are literals."""
    if extended:
        return pattern
    out, i = [], 0
    while i < len(pattern):
        ch = pattern[i]
        if ch == "\\" and i + 1 < len(pattern):
            nxt = pattern[i + 1]
            out.append(_BRE_SPECIAL.get(nxt, "\\" + nxt if nxt.isalnum() or nxt in ".*[]^$\\" else re.escape(nxt)))
            i += 2
            continue
        out.append("\\" + ch if ch in _BRE_SPECIAL else ch)
        i += 1
    return "".join(out)


def _to_template(repl: str) -> str:
    r"""sed's replacement (`\1`, `&`, `\&`, `\n`) as a Python template."""
    out, i = [], 0
    while i < len(repl):
        ch = repl[i]
        if ch == "\\" and i + 1 < len(repl):
            nxt = repl[i + 1]
            out.append(f"\\g<{nxt}>" if nxt.isdigit() else "\n" if nxt == "n" else nxt.replace("\\", "\\\\"))
            i += 2
            continue
        out.append("\\g<0>" if ch == "&" else ch.replace("\\", "\\\\"))
        i += 1
    return "".join(out)


@dataclass
class _Command:
    verb: str  # s, p, d, q
    address: int | re.Pattern[str] | None = None
    pattern: re.Pattern[str] | None = None
    template: str = ""
    count: int = 1  # 0: every match (g); the Nth-match flag is not supported
    print_it: bool = False


def _split(text: str, start: int, delim: str) -> tuple[str, int]:
    """The text up to the next unescaped delimiter (escapes of the delimiter itself removed)."""
    out, i = [], start
    while i < len(text):
        if text[i] == "\\" and i + 1 < len(text):
            out.append(text[i + 1] if text[i + 1] == delim and delim != "\\" else text[i : i + 2])
            i += 2
        elif text[i] == delim:
            return "".join(out), i + 1
        else:
            out.append(text[i])
            i += 1
    raise UsageError(f"unmatched '{delim}'")


def _parse(script: str, extended: bool) -> list[_Command]:
    commands, i = [], 0
    while i < len(script):
        while i < len(script) and script[i] in " \t\n;":
            i += 1
        if i >= len(script):
            break
        address: int | re.Pattern[str] | None = None
        if script[i].isdigit():
            j = i
            while j < len(script) and script[j].isdigit():
                j += 1
            address, i = int(script[i:j]), j
        elif script[i] == "/":
            body, i = _split(script, i + 1, "/")
            address = re.compile(_to_python(body, extended))
        verb = script[i] if i < len(script) else ""
        if verb == "s":
            delim = script[i + 1] if i + 1 < len(script) else ""
            if not delim or delim in "\\\n":
                raise UsageError("bad s/// delimiter")
            body, i = _split(script, i + 2, delim)
            repl, i = _split(script, i, delim)
            command = _Command("s", address, template=_to_template(repl))
            flags = 0
            while i < len(script) and script[i] not in ";\n}":
                f = script[i]
                if f == "g":
                    command.count = 0
                elif f == "p":
                    command.print_it = True
                elif f in "iI":
                    flags |= re.IGNORECASE
                elif f != " ":
                    raise UsageError(f"bad option '{f}' in s///")
                i += 1
            try:
                command.pattern = re.compile(_to_python(body, extended), flags)
            except re.error as exc:
                raise UsageError(f"bad regex '{body}': {exc}") from exc
            commands.append(command)
        elif verb in ("p", "d", "q"):
            commands.append(_Command(verb, address))
            i += 1
        else:
            raise UsageError(f"unknown command '{verb or script[i:]}'")
    return commands


def _applies(command: _Command, number: int, line: str) -> bool:
    if command.address is None:
        return True
    if isinstance(command.address, int):
        return number == command.address
    return command.address.search(line) is not None


@cmd("sed")
def sed(ctx: CommandContext) -> int:
    argv, quiet, extended, scripts, files = ctx.argv[1:], False, False, [], []
    i = 0
    while i < len(argv):
        a = argv[i]
        if a in ("-n", "--quiet", "--silent"):
            quiet = True
        elif a in ("-E", "-r", "--regexp-extended"):
            extended = True
        elif a == "-e" and i + 1 < len(argv):
            scripts.append(argv[i + 1])
            i += 1
        elif a.startswith("-") and len(a) > 1 and set(a[1:]) <= set("nEr"):
            quiet, extended = quiet or "n" in a, extended or bool(set(a[1:]) & set("Er"))
        elif a.startswith("-") and a != "-":
            raise UsageError(f"Unknown option '{a}'")
        elif not scripts:
            scripts.append(a)
        else:
            files.append(a)
        i += 1
    if not scripts:
        raise UsageError("Need 1 argument")
    commands = _parse("\n".join(scripts), extended)
    number, out = 0, []
    for _name, data in inputs(ctx, files or ["-"]):
        if data is None:
            continue
        for raw in lines(data):
            number += 1
            line = dec(raw).rstrip("\n")
            deleted = stop = False
            for command in commands:
                if not _applies(command, number, line):
                    continue
                if command.verb == "s" and command.pattern is not None:
                    line, made = command.pattern.subn(command.template, line, count=command.count)
                    if made and command.print_it:
                        out.append(line + "\n")
                elif command.verb == "p":
                    out.append(line + "\n")
                elif command.verb == "d":
                    deleted = True
                    break
                elif command.verb == "q":
                    stop = True
                    break
            if not deleted and not quiet:
                out.append(line + "\n")
            if stop:
                ctx.stdout.write(enc("".join(out)))
                return 0
    ctx.stdout.write(enc("".join(out)))
    return 0
