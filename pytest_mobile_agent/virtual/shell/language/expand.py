"""Word expansion for the device's `sh`: parameters, `$(...)`, `$((...))`, field splitting and
globbing, in mksh's order.

`Expander` is the part of a shell that turns words into arguments; the interpreter's `Shell` is
one, and supplies the variables it reads and the output of a command substitution.
"""

from __future__ import annotations

import ast
import fnmatch
import os
from abc import ABC, abstractmethod
from collections.abc import Callable
from typing import Any

from pytest_mobile_agent.virtual.shell.language.syntax import ARITH, CMD, LIT, Part, Word

_PID = 4242  # what `$$` says; the device has no real processes


class ExpandError(Exception):
    pass


class Expander(ABC):
    """The state expansion reads and writes: variables, positional arguments and statuses."""

    device: Any
    cwd: str
    vars: dict[str, str]
    args: list[str]
    status: int
    last_bg: int  # how many `cmd &` jobs were started (what `$!` counts from)
    subst: int | None  # status of the last $(...) in this command

    @abstractmethod
    def substitute(self, script: str) -> tuple[str, int]:
        """`$(script)`: its output less trailing newlines, and its exit status."""

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

    def part_value(self, part: Part) -> str:
        kind = part[0]
        if kind == CMD:
            text, self.status = self.substitute(part[1])
            self.subst = self.status
            return text
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
            raise ExpandError(f"{name}: {arg or 'parameter null or not set'}")
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
        raise ExpandError(f"{expr}: divide by zero") from None
    except Exception:  # noqa: BLE001  (anything Python rejects is a bad expression)
        raise ExpandError(f"{expr}: bad arithmetic expression") from None
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
