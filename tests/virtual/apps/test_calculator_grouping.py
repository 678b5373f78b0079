"""Simple Calculator groups digits as they are typed (CalculatorImpl.addThousandsDelimiter) and
in the formula, with Locale.US separators."""

from __future__ import annotations

import pytest

from pytest_mobile_agent.virtual.apps.calculator.engine import Engine, group_input


def typed(keys: str) -> Engine:
    e = Engine()
    for k in keys:
        e.press(k)
    return e


@pytest.mark.parametrize(
    "raw, shown",
    [
        ("1234567", "1,234,567"),
        ("1234+5678", "1,234+5,678"),
        ("-1234×56789", "-1,234×56,789"),
        ("12345.6789", "12,345.6789"),  # the fraction stays as typed
        ("0.0001", "0.0001"),
        ("999", "999"),
        ("1,23", "123"),  # after C removed a digit
    ],
)
def test_group_input(raw: str, shown: str) -> None:
    assert group_input(raw) == shown


def test_typing_groups_the_display_and_the_formula_and_results_stay_right() -> None:
    e = typed("1234567")
    assert e.display == "1,234,567"
    e = typed("1234567+1000=")
    assert (e.formula, e.display) == ("1,234,567+1,000", "1,235,567")
    e.press("C")  # one character off the shown text, regrouped
    assert e.display == "123,556"
    e = typed("1000.5×2=")
    assert (e.formula, e.display) == ("1,000.5×2", "2,001")
    assert e.history[-1] == ("1,000.5×2", "2,001")
