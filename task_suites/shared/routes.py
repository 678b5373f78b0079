"""The way a goal was reached, read from the accessibility events: which app did the work, and
in what order. A task that names a way ("with Calculator", "in File Manager", "by SMS") checks
it here, as MobileAgentBench's own checks did with click events; the final state alone cannot
tell a sum worked out in Calculator from one typed from memory."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pytest_mobile_agent.events.log import CLICKED, TEXT_CHANGED, WINDOW_STATE


def first(events: Any, what: str, type_: str = CLICKED, **match: str) -> int:
    """The sequence number of the first event that matches; fails saying `what` never happened."""
    found = events.find(type_, **match)
    assert found, f"{what}: never happened (no {type_} {match})"
    return found[0].seq


def last(events: Any, what: str, type_: str = CLICKED, **match: str) -> int:
    """The sequence number of the last event that matches."""
    found = events.find(type_, **match)
    assert found, f"{what}: never happened (no {type_} {match})"
    return found[-1].seq


def apps_in_order(events: Any, packages: Sequence[str]) -> None:
    """Each app came to the front, in this order (others may come between)."""
    shown = [e.package for e in events.of_type(WINDOW_STATE)]
    at = 0
    for package in packages:
        assert package in shown[at:], f"{package} never came to the front after {packages[: packages.index(package)]}"
        at = shown.index(package, at) + 1


def typed_in(events: Any, package: str, text: str) -> int:
    """The first time a text field of `package` held `text`."""
    return first(events, f"{text!r} typed in {package}", TEXT_CHANGED, text=text, package=package)


def computed_before(events: Any, calculator: str, package: str, result: str) -> None:
    """The result was worked out in Calculator (its = pressed) before it was typed in `package`."""
    equals = first(events, "= pressed in Calculator", id=f"{calculator}:id/btn_equals", package=calculator)
    assert equals < typed_in(events, package, result), (
        f"{result!r} was typed in {package} before Calculator computed it"
    )
