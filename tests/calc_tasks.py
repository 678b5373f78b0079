"""The calculator task file that the plugin and report tests run in a sub-process (pytester)."""

from __future__ import annotations

# (expression, keys, expected), one task case each.
SUMS = (
    ("3 + 5", "3+5=", "8"),
    ("12 × 4", "12×4=", "48"),
    ("3 ^ 3", "3^3=", "27"),
    ("12 - 4", "12-4=", "8"),
)

TEMPLATE = """
import pytest
from pytest_mobile_agent import task, Tap

CALC = "com.simplemobiletools.calculator"

@pytest.mark.parametrize("expression, keys, expected", [
{rows}])
@task(prompt="Calculate the result of '{{expression}}'", app=CALC,
      golden=lambda keys: [Tap(text=k) for k in keys])
def test_arithmetic(ui, events, changes, expected):
    changes.allow(CALC, "files/history.json")  # the app keeps every computation: the one change asked for
    assert ui.text_of("result") == expected
    assert events.clicked(text="=")
"""


def calc_tasks(sums: tuple[tuple[str, str, str], ...] = SUMS) -> str:
    """A task file with one parametrized calculator task, a case for each sum."""
    rows = "".join("    (" + ", ".join(f'"{value}"' for value in case) + "),\n" for case in sums)
    return TEMPLATE.format(rows=rows)
