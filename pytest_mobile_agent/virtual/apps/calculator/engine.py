"""Simple Calculator's engine (CalculatorImpl.kt, docs/fidelity/calculator.md): it executes
immediately, with one pending operator, no precedence and no parentheses."""

from __future__ import annotations

import math
import re
from decimal import ROUND_HALF_EVEN, Decimal, InvalidOperation

OPERATORS = "+-×÷^%√"


def format_number(value: Decimal | float) -> str:
    """DecimalFormat with Locale.US symbols: grouping ",", at most 12 fraction digits."""
    d = Decimal(str(value)) if not isinstance(value, Decimal) else value
    d = d.quantize(Decimal("1e-12"), rounding=ROUND_HALF_EVEN).normalize()
    if d == 0:
        return "0"
    sign = "-" if d < 0 else ""
    whole, _, frac = f"{abs(d):f}".partition(".")
    return f"{sign}{int(whole):,}" + (f".{frac}" if frac else "")


def group_input(expr: str) -> str:
    """addThousandsDelimiter: every number typed so far gets its integer part grouped with ","
    (Locale.US); a fraction stays as typed, so 0.003 can be written."""

    def grouped(m: re.Match[str]) -> str:
        whole, dot, frac = m.group().replace(",", "").partition(".")
        return (f"{int(whole):,}" if whole else "") + dot + frac

    return re.sub(r"[0-9][0-9,]*(?:\.[0-9]*)?|\.[0-9]*", grouped, expr)


class CalcError(Exception):
    pass


def split_expression(expr: str) -> tuple[str, str, str] | None:
    """'a op b' -> (a, op, b); a leading minus belongs to the first number."""
    for i, ch in enumerate(expr):
        if i > 0 and ch in OPERATORS:
            return expr[:i], ch, expr[i + 1 :]
    return None


def evaluate(a: str, op: str, b: str) -> Decimal:
    try:
        x, y = Decimal(a.replace(",", "")), Decimal(b.replace(",", ""))
    except InvalidOperation as exc:
        raise CalcError("An unknown error occurred") from exc
    if op == "+":
        return x + y
    if op == "-":
        return x - y
    if op == "×":
        return x * y
    if op == "÷":
        if y == 0:
            raise CalcError("Error: division by zero")
        return Decimal(repr(float(x) / float(y)))
    if op == "^":
        return Decimal(repr(math.pow(float(x), float(y))))
    if op == "√":
        return Decimal(repr(float(x) * math.sqrt(float(y))))
    if op == "%":
        return x * y / 100
    raise CalcError("An unknown error occurred")


class Engine:
    """CalculatorImpl: `display` is what the result view shows, `formula` the last evaluation."""

    def __init__(self) -> None:
        self.display = "0"
        self.formula = ""
        self.last_key = ""
        self.last_op: tuple[str, str] | None = None
        self.history: list[tuple[str, str]] = []
        self.error = ""

    def press(self, key: str) -> None:
        self.error = ""
        if key.isdigit():
            self._digit(key)
        elif key == ".":
            self._decimal()
        elif key == "C":
            self.display = group_input(self.display[:-1]) or "0"
        elif key == "=":
            self._equals()
        elif key == "√" and self.display == "0" and not self.last_key.isdigit():
            self.display = "1√"
        elif key in OPERATORS:
            self._operator(key)
        self.last_key = key

    def reset(self) -> None:
        self.display, self.formula, self.last_key, self.last_op = "0", "", "", None

    def _digit(self, d: str) -> None:
        self.display = d if self.display == "0" else group_input(self.display + d)

    def _decimal(self) -> None:
        parts = split_expression(self.display)
        current = parts[2] if parts else self.display
        if "." in current:
            return
        self.display += "0." if current == "" else "."

    def _operator(self, op: str) -> None:
        if self.display[-1] in OPERATORS:
            self.display = self.display[:-1] + op
            return
        parts = split_expression(self.display)
        if parts and parts[2] and not self._evaluate(parts):
            return
        self.display += op

    def _equals(self) -> None:
        parts = split_expression(self.display)
        if parts and parts[2] and (self.last_key.isdigit() or self.last_key == "."):
            self._evaluate(parts)
        elif self.last_key == "=" and self.last_op and split_expression(self.display) is None:
            op, b = self.last_op
            self._evaluate((self.display, op, b))

    def _evaluate(self, parts: tuple[str, str, str]) -> bool:
        a, op, b = parts
        try:
            value = format_number(evaluate(a, op, b))
        except CalcError as exc:
            self.error = str(exc)
            return False
        self.formula = f"{a}{op}{b}"
        self.display = value
        self.last_op = (op, b)
        self.history.append((self.formula, value))
        return True
