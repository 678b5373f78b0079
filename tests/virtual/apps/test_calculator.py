"""Simple Calculator on the virtual device: the display as CalculatorImpl keeps it."""

from __future__ import annotations

import pytest

PKG = "com.simplemobiletools.calculator"
KEYS = {"+": "btn_plus", "-": "btn_minus", "×": "btn_multiply", "÷": "btn_divide", ".": "btn_decimal"}
KEYS |= {"=": "btn_equals", "C": "btn_clear", **{d: f"btn_{d}" for d in "0123456789"}}


def rid(name: str) -> str:
    return f"{PKG}:id/{name}"


@pytest.fixture
def calc(u2d, adbd):
    adbd.shell(f"pm clear {PKG}")
    u2d.app_start(PKG)
    return u2d


def press(d, keys: str) -> tuple[str, str]:
    for key in keys:
        d(resourceId=rid(KEYS[key])).click()
    return d(resourceId=rid("result")).get_text(), d(resourceId=rid("formula")).get_text()


@pytest.mark.parametrize(
    "keys, result, formula",
    [
        ("1234567", "1,234,567", ""),  # grouped while typing (addThousandsDelimiter)
        ("1234.5678", "1,234.5678", ""),  # the fraction's digits never
        ("1234+5678", "1,234+5,678", ""),  # each number of the formula
        ("1234+5678=", "6,912", "1,234+5,678"),  # the formula keeps its grouped numbers
        ("12345C", "1,234", ""),  # regrouped after a delete
        ("999+1=", "1,000", "999+1"),
    ],
)
def test_numbers_are_grouped_by_thousands_while_typing(calc, keys, result, formula):
    assert press(calc, keys) == (result, formula)
