"""The shell's syntax tree: what `parse` builds and the interpreter walks.

Nodes are frozen, so a parsed script can be cached and shared between sessions. Words keep their
parts unexpanded, because `$?` and friends are only known when the command runs.
"""

from __future__ import annotations

from dataclasses import dataclass

# Word parts are small tuples: (LIT, text, quoted), (VAR, name, quoted, op, arg),
# (CMD, script, quoted), (ARITH, Word). Quoted text is exempt from splitting and globbing.
LIT, VAR, CMD, ARITH = 0, 1, 2, 3
Part = tuple

_GLOB = frozenset("*?[")


@dataclass(frozen=True, slots=True)
class Word:
    parts: tuple[Part, ...]
    # The argument itself when nothing needs expanding (the common case).
    literal: str | None
    # Unquoted plain text, for keyword and assignment detection.
    raw: str | None


@dataclass(frozen=True, slots=True)
class Redir:
    fd: int  # -1 for `&>` (stdout and stderr)
    op: str  # > >> < >& <& <> << (here-doc: target is its body)
    target: Word


@dataclass(frozen=True, slots=True)
class Simple:
    assigns: tuple[tuple[str, Word], ...]
    words: tuple[Word, ...]
    redirs: tuple[Redir, ...]
    argv: tuple[str, ...] | None  # precomputed when every word is literal


@dataclass(frozen=True, slots=True)
class Pipeline:
    commands: tuple[Command, ...]
    negate: bool


@dataclass(frozen=True, slots=True)
class AndOr:
    first: Pipeline
    rest: tuple[tuple[str, Pipeline], ...]
    background: bool


@dataclass(frozen=True, slots=True)
class Seq:
    items: tuple[AndOr, ...]


@dataclass(frozen=True, slots=True)
class Group:
    body: Seq
    subshell: bool
    redirs: tuple[Redir, ...]


@dataclass(frozen=True, slots=True)
class If:
    clauses: tuple[tuple[Seq, Seq], ...]
    orelse: Seq | None
    redirs: tuple[Redir, ...]


@dataclass(frozen=True, slots=True)
class Loop:
    cond: Seq
    body: Seq
    until: bool
    redirs: tuple[Redir, ...]


@dataclass(frozen=True, slots=True)
class For:
    name: str
    words: tuple[Word, ...] | None  # None: iterate over "$@"
    body: Seq
    redirs: tuple[Redir, ...]


# A command in a pipeline: a simple command or a compound one.
Command = Simple | Group | If | Loop | For


def make_word(parts: list[Part]) -> Word:
    merged: list[Part] = []
    for p in parts:  # join neighbouring literals of the same quoting
        if merged and p[0] == LIT and merged[-1][0] == LIT and merged[-1][2] == p[2]:
            merged[-1] = (LIT, merged[-1][1] + p[1], p[2])
        else:
            merged.append(p)
    literal = raw = None
    if all(p[0] == LIT for p in merged):
        if not any(not p[2] and _GLOB.intersection(p[1]) for p in merged):
            literal = "".join(p[1] for p in merged)
        if len(merged) == 1 and not merged[0][2]:
            raw = merged[0][1]
    return Word(tuple(merged), literal, raw)
