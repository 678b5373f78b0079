"""Near misses by family: the ways a path can look done and not be (issue 30's families).

A near miss's label starts with its family, `"field: saved repeating weekly"`, so the gates'
test ids say which way each one is almost right and `scripts/near_miss_families.py` can count
them per suite. Labels without a family are the suites' older kinds (the wrong value or item,
the goal plus a change nobody asked for, the level below).

A family that cannot apply to a task is said so with the reason (`not_applicable`), so the
script tells a family left out on purpose from one not yet written.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, TypeVar

FAMILIES = {
    "field": "a field nobody reads",
    "multiset": "sets that hide duplicates and order",
    "allowance": "allowances wider than the change",
    "lookalike": "the right-looking screen for the wrong thing",
    "route": "the wrong app or route for a cross-app task",
}
OTHER = "other"  # a label without a family
REASONS = "__near_miss_reasons__"  # the attribute not_applicable sets on a task function
ONE_APP = "one app, started by the harness: no other app or way in to take"
NO_ALLOWANCE = "the body allows no change but those it reads back: every other change fails it"
# A task whose goal is a screen: it saves nothing, and every durable change fails it.
SCREEN_ONLY = "the goal is a screen: nothing is saved, and any durable change fails the task"
NAMED_SCREEN = "the check names the app and the activity in front: a look-alike screen of another is refused"
IN_ITS_APP = "one app, from the home screen: the check reads that app's own store or screen"
F = TypeVar("F", bound=Callable[..., Any])


def labelled(family: str, what: str) -> str:
    """The label of a near miss of `family`: "family: what"."""
    _known(family)
    return f"{family}: {what}"


def family_of(label: str) -> str:
    """The family a label names, or OTHER."""
    head, sep, _ = label.partition(": ")
    return head if sep and head in FAMILIES else OTHER


def not_applicable(**why: str) -> Callable[[F], F]:
    """Families no near miss of this task can be of, each with the reason:
    `@not_applicable(multiset="one setting, one value", allowance="no allowance declared")`.
    Put it above `@task`; it adds to reasons given before."""
    for family, reason in why.items():
        _known(family)
        if not reason.strip():
            raise ValueError(f"not_applicable({family}=...): say why")

    def mark(fn: F) -> F:
        setattr(fn, REASONS, {**getattr(fn, REASONS, {}), **why})
        return fn

    return mark


def reasons_of(fn: Callable[..., Any], apps: tuple[str, ...], launch: bool) -> dict[str, str]:
    """The families declared not applicable to a task, by family; a task of one app that the
    harness starts in it has no route to get wrong."""
    found: Mapping[str, str] = getattr(fn, REASONS, {})
    default = {"route": ONE_APP} if len(apps) == 1 and launch else {}
    return {**default, **found}


def _known(family: str) -> None:
    if family not in FAMILIES:
        raise ValueError(f"unknown near-miss family {family!r}; one of {sorted(FAMILIES)}")
