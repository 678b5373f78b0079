"""Tokenizer and parser for the device's `sh`: a POSIX-ish subset of Android's mksh.

`parse(text)` turns a script into the tree of syntax.py (cached on the text, since clients send
the same few command lines over and over). Errors raise `ShellSyntaxError` with mksh's wording;
`incomplete` tells an interactive shell to read another line. The tokenizer parses the body of
a `$(...)` as it reads it, so the two stay together here.
"""

from __future__ import annotations

import re
from functools import lru_cache

from pytest_mobile_agent.virtual.shell.language.syntax import (
    ARITH,
    CMD,
    LIT,
    VAR,
    AndOr,
    Command,
    For,
    Group,
    If,
    Loop,
    Part,
    Pipeline,
    Redir,
    Seq,
    Simple,
    Word,
    make_word,
)

_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_ASSIGN = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)=")
_BRACED = re.compile(r"(#?)([A-Za-z_][A-Za-z0-9_]*|[0-9]+|[?$#!@*-])(?:(:?[-+=?])(.*))?", re.DOTALL)
_SPECIAL = frozenset("?$#!@*-0123456789")
_WORD_END = frozenset(" \t\n;&|()<>")
_DIGITS = frozenset("0123456789")
KEYWORDS = frozenset(("if", "then", "elif", "else", "fi", "while", "until", "do", "done"))
KEYWORDS |= {"for", "{", "}", "!"}
_LIST_ENDS = frozenset(("then", "elif", "else", "fi", "do", "done", "}"))


class ShellSyntaxError(Exception):
    def __init__(self, message: str, incomplete: bool = False) -> None:
        super().__init__(message)
        self.incomplete = incomplete


# --- tokenizer ---------------------------------------------------------------------------

# Tokens: ("w", Word) | ("op", text) | ("r", fd, op) | ("eof",)
Token = tuple


class _Lexer:
    def __init__(self, text: str) -> None:
        self.s = text
        self.n = len(text)
        self.tokens: list[Token] = []
        self.heredocs: list[tuple[int, str, bool, bool]] = []  # token index, delim, quoted, -

    def run(self) -> list[Token]:
        s, n, i = self.s, self.n, 0
        while i < n:
            c = s[i]
            if c in " \t\r":
                i += 1
            elif c == "\\" and s.startswith("\n", i + 1):
                i += 2
            elif c == "#":
                j = s.find("\n", i)
                i = n if j < 0 else j
            elif c == "\n":
                self.tokens.append(("op", "\n"))
                i = self._heredoc_bodies(i + 1)
            elif c in ";&|()":
                two = s[i : i + 2]
                if two == "&>":
                    i = self._redir(-1, "&>", i + 2)
                elif two in ("&&", "||", ";;"):
                    self.tokens.append(("op", two))
                    i += 2
                else:
                    self.tokens.append(("op", c))
                    i += 1
            elif c in "<>":
                i = self._redir_op(None, i)
            elif c in _DIGITS and (j := _skip_digits(s, i)) < n and s[j] in "<>":
                i = self._redir_op(int(s[i:j]) if j - i < 4 else 999, j)
            else:
                parts, i = self._word(i)
                self.tokens.append(("w", make_word(parts)))
        if self.heredocs:
            self._heredoc_bodies(n)
        self.tokens.append(("eof",))
        return self.tokens

    def _redir_op(self, fd: int | None, i: int) -> int:
        s = self.s
        for op in ("<<-", ">>", ">&", ">|", "<<", "<&", "<>", ">", "<"):
            if s.startswith(op, i):
                default = 0 if op[0] == "<" else 1
                return self._redir(default if fd is None else fd, op, i + len(op))
        raise AssertionError("unreachable")

    def _redir(self, fd: int, op: str, i: int) -> int:
        self.tokens.append(("r", fd, ">" if op == ">|" else op))
        if op in (
            "<<",
            "<<-",
        ):  # the delimiter word follows; the body comes after the newline
            while i < self.n and self.s[i] in " \t":
                i += 1
            if i >= self.n or self.s[i] in _WORD_END:
                return i  # the parser reports the missing word
            parts, i = self._word(i)
            delim = "".join(p[1] if p[0] == LIT else "$" + str(p[1]) for p in parts)
            quoted = any(p[2] for p in parts)
            self.heredocs.append((len(self.tokens), delim, quoted, op == "<<-"))
            self.tokens.append(("w", make_word([(LIT, "", True)])))  # placeholder for the body
        return i

    def _heredoc_bodies(self, i: int) -> int:
        s = self.s
        for index, delim, quoted, strip in self.heredocs:
            lines: list[str] = []
            while i < self.n:
                j = s.find("\n", i)
                end = self.n if j < 0 else j
                line = s[i:end]
                i = end + 1
                if (line.lstrip("\t") if strip else line) == delim:
                    break
                lines.append((line.lstrip("\t") if strip else line) + "\n")
            else:
                i = self.n
            body = "".join(lines)
            if quoted:
                word = make_word([(LIT, body, True)])
            else:
                parts: list[Part] = [(LIT, "", True)]
                _Lexer(body)._dquoted(0, parts, terminator=False)
                word = make_word(parts)
            self.tokens[index] = ("w", word)
        self.heredocs.clear()
        return i

    def _word(self, i: int) -> tuple[list[Part], int]:
        s, n = self.s, self.n
        parts: list[Part] = []
        start = i
        while i < n:
            c = s[i]
            if c in _WORD_END:
                break
            if c == "\\":
                if i + 1 >= n:
                    parts.append((LIT, "\\", False))
                    i += 1
                elif s[i + 1] == "\n":
                    i += 2
                else:
                    parts.append((LIT, s[i + 1], True))
                    i += 2
            elif c == "'":
                j = s.find("'", i + 1)
                if j < 0:
                    raise ShellSyntaxError("syntax error: unterminated quoted string", True)
                parts.append((LIT, s[i + 1 : j], True))
                i = j + 1
            elif c == '"':
                parts.append((LIT, "", True))  # "" is still an argument
                i = self._dquoted(i + 1, parts, terminator=True)
            elif c == "$":
                i = self._dollar(i, parts, quoted=False)
            elif c == "`":
                i = self._backtick(i, parts, quoted=False)
            else:
                j = i + 1
                while j < n and s[j] not in _WORD_END and s[j] not in "\\'\"$`":
                    j += 1
                parts.append((LIT, s[i:j], False))
                i = j
        if i == start:  # cannot happen for callers, but never loop forever
            raise ShellSyntaxError(f"syntax error: '{s[i : i + 1]}' unexpected")
        return parts, i

    def _dquoted(self, i: int, parts: list[Part], terminator: bool) -> int:
        s, n = self.s, self.n
        buf: list[str] = []

        def flush() -> None:
            if buf:
                parts.append((LIT, "".join(buf), True))
                buf.clear()

        while i < n:
            c = s[i]
            if c == '"' and terminator:
                flush()
                return i + 1
            if c == "\\" and i + 1 < n and s[i + 1] in '$`"\\\n':
                if s[i + 1] != "\n":
                    buf.append(s[i + 1])
                i += 2
            elif c == "$":
                flush()
                i = self._dollar(i, parts, quoted=True)
            elif c == "`":
                flush()
                i = self._backtick(i, parts, quoted=True)
            else:
                buf.append(c)
                i += 1
        if terminator:
            raise ShellSyntaxError("syntax error: unterminated quoted string", True)
        flush()
        return i

    def _dollar(self, i: int, parts: list[Part], quoted: bool) -> int:
        s, n = self.s, self.n
        nxt = s[i + 1] if i + 1 < n else ""
        if nxt == "{":
            j = s.find("}", i + 2)
            if j < 0:
                raise ShellSyntaxError("syntax error: missing '}'", True)
            m = _BRACED.fullmatch(s, i + 2, j)
            if not m or (m.group(1) and m.group(3)):
                raise ShellSyntaxError(f"{s[i : j + 1]}: bad substitution")
            op = "#" if m.group(1) else m.group(3)
            parts.append((VAR, m.group(2), quoted, op, m.group(4) or ""))
            return j + 1
        if nxt == "(":
            if s.startswith("((", i + 1):
                j = s.find("))", i + 3)
                if j < 0:
                    raise ShellSyntaxError("syntax error: unexpected EOF", True)
                expr: list[Part] = [(LIT, "", True)]
                _Lexer(s[i + 3 : j])._dquoted(0, expr, terminator=False)
                parts.append((ARITH, make_word(expr), quoted))
                return j + 2
            j = _matching_paren(s, i + 2)
            body = s[i + 2 : j]
            parse(body)  # report syntax errors inside $(...) up front
            parts.append((CMD, body, quoted))
            return j + 1
        if nxt in _SPECIAL and nxt:
            parts.append((VAR, nxt, quoted, None, ""))
            return i + 2
        m = _NAME.match(s, i + 1)
        if m:
            parts.append((VAR, m.group(), quoted, None, ""))
            return m.end()
        parts.append((LIT, "$", quoted))
        return i + 1

    def _backtick(self, i: int, parts: list[Part], quoted: bool) -> int:
        s, n = self.s, self.n
        j = i + 1
        buf: list[str] = []
        while j < n and s[j] != "`":
            if s[j] == "\\" and j + 1 < n and s[j + 1] in "`\\$":
                j += 1
            buf.append(s[j])
            j += 1
        if j >= n:
            raise ShellSyntaxError("syntax error: unterminated `", True)
        body = "".join(buf)
        parse(body)
        parts.append((CMD, body, quoted))
        return j + 1


def _skip_digits(s: str, i: int) -> int:
    while i < len(s) and s[i] in _DIGITS:
        i += 1
    return i


def _matching_paren(s: str, i: int) -> int:
    """Index of the `)` closing a `$(` whose body starts at i (quotes and nesting aware)."""
    depth, n = 1, len(s)
    while i < n:
        c = s[i]
        if c == "\\":
            i += 2
            continue
        if c == "'":
            j = s.find("'", i + 1)
            if j < 0:
                break
            i = j
        elif c == '"':
            i += 1
            while i < n and s[i] != '"':
                i += 2 if s[i] == "\\" else 1
        elif c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
            if depth == 0:
                return i
        i += 1
    raise ShellSyntaxError("syntax error: unexpected EOF", True)


# --- parser ------------------------------------------------------------------------------


def _describe(tok: Token) -> str:
    if tok[0] == "w":
        w = tok[1]
        return w.raw if w.raw is not None else "".join(str(p[1]) for p in w.parts)
    if tok[0] == "op":
        return "newline" if tok[1] == "\n" else tok[1]
    if tok[0] == "r":
        return ("" if tok[1] in (0, 1, -1) else str(tok[1])) + tok[2]
    return "EOF"


class _Parser:
    def __init__(self, tokens: list[Token]) -> None:
        self.toks = tokens
        self.i = 0

    def peek(self) -> Token:
        return self.toks[self.i]

    def next(self) -> Token:
        tok = self.toks[self.i]
        self.i += 1
        return tok

    def fail(self, tok: Token | None = None) -> ShellSyntaxError:
        tok = tok or self.peek()
        if tok[0] == "eof":
            return ShellSyntaxError("syntax error: unexpected EOF", True)
        return ShellSyntaxError(f"syntax error: '{_describe(tok)}' unexpected")

    def keyword(self) -> str | None:
        tok = self.peek()
        if tok[0] == "w" and tok[1].raw in KEYWORDS:
            return tok[1].raw
        return None

    def expect(self, kw: str) -> None:
        if self.keyword() != kw:
            raise self.fail()
        self.i += 1

    def newlines(self) -> None:
        while self.peek() == ("op", "\n"):
            self.i += 1

    def script(self) -> Seq:
        seq = self.seq()
        if self.peek()[0] != "eof":
            raise self.fail()
        return seq

    def seq(self, required: bool = False) -> Seq:
        items: list[AndOr] = []
        while True:
            self.newlines()
            tok = self.peek()
            if tok[0] == "eof" or tok == ("op", ")") or self.keyword() in _LIST_ENDS:
                break
            item = self.and_or()
            tok = self.peek()
            if tok in (("op", ";"), ("op", "&")):
                self.i += 1
                if tok[1] == "&":
                    item = AndOr(item.first, item.rest, True)
            elif tok != ("op", "\n"):
                items.append(item)
                break
            items.append(item)
        if required and not items:
            raise self.fail()
        return Seq(tuple(items))

    def and_or(self) -> AndOr:
        first = self.pipeline()
        rest: list[tuple[str, Pipeline]] = []
        while self.peek() in (("op", "&&"), ("op", "||")):
            op = self.next()[1]
            self.newlines()
            rest.append((op, self.pipeline()))
        return AndOr(first, tuple(rest), False)

    def pipeline(self) -> Pipeline:
        negate = False
        while self.keyword() == "!":
            self.i += 1
            negate = not negate
        commands = [self.command()]
        while self.peek() == ("op", "|"):
            self.i += 1
            self.newlines()
            commands.append(self.command())
        return Pipeline(tuple(commands), negate)

    def command(self) -> Command:
        tok = self.peek()
        if tok == ("op", "("):
            self.i += 1
            body = self.seq(required=True)
            if self.next() != ("op", ")"):
                self.i -= 1
                raise self.fail()
            return Group(body, True, self.redirs())
        kw = self.keyword()
        if kw == "{":
            self.i += 1
            body = self.seq(required=True)
            self.expect("}")
            return Group(body, False, self.redirs())
        if kw == "if":
            return self.if_()
        if kw in ("while", "until"):
            self.i += 1
            cond = self.seq(required=True)
            self.expect("do")
            body = self.seq(required=True)
            self.expect("done")
            return Loop(cond, body, kw == "until", self.redirs())
        if kw == "for":
            return self.for_()
        if kw is not None and kw != "!":
            raise self.fail()
        return self.simple()

    def if_(self) -> If:
        clauses: list[tuple[Seq, Seq]] = []
        orelse = None
        self.i += 1
        while True:
            cond = self.seq(required=True)
            self.expect("then")
            clauses.append((cond, self.seq(required=True)))
            kw = self.keyword()
            self.i += 1
            if kw == "elif":
                continue
            if kw == "else":
                orelse = self.seq(required=True)
                self.expect("fi")
            elif kw != "fi":
                self.i -= 1
                raise self.fail()
            return If(tuple(clauses), orelse, self.redirs())

    def for_(self) -> For:
        self.i += 1
        tok = self.next()
        if tok[0] != "w" or tok[1].raw is None or not _NAME.fullmatch(tok[1].raw):
            raise self.fail(tok)
        name = tok[1].raw
        self.newlines()
        words: tuple[Word, ...] | None = None
        if self.peek()[0] == "w" and self.peek()[1].raw == "in":
            self.i += 1
            collected = []
            while self.peek()[0] == "w":
                collected.append(self.next()[1])
            words = tuple(collected)
        if self.peek() in (("op", ";"), ("op", "\n")):
            self.i += 1
        self.newlines()
        self.expect("do")
        body = self.seq(required=True)
        self.expect("done")
        return For(name, words, body, self.redirs())

    def redirs(self) -> tuple[Redir, ...]:
        out = []
        while self.peek()[0] == "r":
            out.append(self.redir())
        return tuple(out)

    def redir(self) -> Redir:
        _, fd, op = self.next()
        tok = self.next()
        if tok[0] != "w":
            raise self.fail(tok)
        return Redir(fd, op, tok[1])

    def simple(self) -> Simple:
        assigns: list[tuple[str, Word]] = []
        words: list[Word] = []
        redirs: list[Redir] = []
        while True:
            tok = self.peek()
            if tok[0] == "r":
                redirs.append(self.redir())
            elif tok[0] == "w":
                self.i += 1
                word = tok[1]
                assign = None if words else _assignment(word)
                if assign:
                    assigns.append(assign)
                else:
                    words.append(word)
            else:
                break
        if not (assigns or words or redirs):
            raise self.fail()
        literals = [w.literal for w in words if w.literal is not None]
        argv = tuple(literals) if len(literals) == len(words) else None
        return Simple(tuple(assigns), tuple(words), tuple(redirs), argv)


def _assignment(word: Word) -> tuple[str, Word] | None:
    first = word.parts[0] if word.parts else None
    if not first or first[0] != LIT or first[2]:
        return None
    m = _ASSIGN.match(first[1])
    if not m:
        return None
    rest = first[1][m.end() :]
    parts = ([(LIT, rest, False)] if rest else [(LIT, "", True)]) + list(word.parts[1:])
    return m.group(1), make_word(parts)


@lru_cache(maxsize=2048)
def parse(text: str) -> Seq:
    """Parse a whole script; raises ShellSyntaxError (never anything else)."""
    try:
        return _Parser(_Lexer(text).run()).script()
    except RecursionError:
        raise ShellSyntaxError("syntax error: nesting too deep") from None
