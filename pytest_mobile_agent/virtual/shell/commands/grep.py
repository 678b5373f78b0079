"""toybox `grep` (`egrep`, `fgrep`): POSIX basic and extended regular expressions translated to
Python's, over files, stdin or (with -r) directory trees."""

from __future__ import annotations

import os
import posixpath
import re
from pathlib import Path

from pytest_mobile_agent.virtual.shell.api import CommandContext, dec
from pytest_mobile_agent.virtual.shell.commands.common import UsageError, cmd, err, host, inputs, opts, out

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
        raise UsageError("Needs 1 argument")
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
