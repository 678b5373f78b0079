"""Reading a model's answer: chatty text around a JSON object or a function-call grammar.

Nothing here raises anything but AnswerError; the agent turns that into an invalid step.
"""

from __future__ import annotations

import ast
import json
import re
from dataclasses import dataclass, field
from typing import Any

from pytest_mobile_agent.actions import Action, InvalidAction


class AnswerError(ValueError):
    """The model's answer could not be read as an action."""


@dataclass(frozen=True)
class InvalidAnswer(Action):
    """What an agent returns for an answer it could not read: the harness records an invalid step
    (with the model's tokens and text), never a crash."""

    problem: str = field(default="", compare=False)

    def validated(self) -> Action:
        raise InvalidAction(f"unreadable model answer: {self.problem}")


def invalid(problem: str) -> InvalidAnswer:
    return InvalidAnswer("invalid", problem=problem)


def excerpt(value: Any) -> str:
    """A model's answer (or part of it) as JSON, cut to fit an error message."""
    return json.dumps(value, ensure_ascii=False)[:300]


def section(text: str, label: str) -> str | None:
    """The text after `Label:` up to the next `Word:` line (Reason:/Action:/Thought: ...)."""
    m = re.search(rf"(?im)^\W*{label}\W*:\s*(.*?)(?=^\W*[A-Z][A-Za-z ]{{1,20}}:\s|\Z)", text, re.S)
    return m.group(1).strip() if m else None


def first_json_object(text: str) -> dict[str, Any]:
    """The first {...} in the text that reads as an object (JSON, or a Python dict literal)."""
    start = text.find("{")
    while start >= 0:
        depth, in_str, quote = 0, False, ""
        for i in range(start, len(text)):
            c = text[i]
            if in_str:
                if c == "\\":
                    continue
                if c == quote and text[i - 1] != "\\":
                    in_str = False
            elif c in "\"'":
                in_str, quote = True, c
            elif c == "{":
                depth += 1
            elif c == "}":
                depth -= 1
                if depth == 0:
                    blob = text[start : i + 1]
                    for loads in (json.loads, ast.literal_eval):
                        try:
                            value = loads(blob)
                        except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
                            continue
                        if isinstance(value, dict):
                            return value
                    break
        start = text.find("{", start + 1)
    raise AnswerError(f"no JSON object in the answer: {text[:120]!r}")


CALL = re.compile(r"\b([A-Za-z_]+)\s*\(([^\n]*)\)")  # to the last ) on its line


def call(text: str) -> tuple[str, list[Any]]:
    """`name(arg, "text", ...)`: the name and the arguments as Python literals (bare words as strings)."""
    m = CALL.search(text)
    if not m:
        raise AnswerError(f"no function call in {text[:120]!r}")
    name, inner = m.group(1), m.group(2).strip()
    if not inner:
        return name, []
    try:
        value = ast.literal_eval(f"({inner},)")
        return name, list(value)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        # bare words: swipe(3, up, medium)
        return name, [a.strip().strip("\"'") for a in inner.split(",")]
