"""Calculator tasks (MobileAgentBench calculator_*).

The real app evaluates immediately, one operator at a time, with no precedence and no
parenthesis keys (docs/fidelity/calculator.md). MobileAgentBench judged these tasks by the
result text plus a click on '=' right after a key: typing the answer itself ("8", "=")
passed. Here the formula view must also show the computation that was asked for, so only
computing it passes.
"""

from __future__ import annotations

import pytest

from pytest_mobile_agent import Tap, task
from task_suites.shared.apps import CALCULATOR, rid
from task_suites.shared.near_misses import labelled
from task_suites.shared.reading import pref

RESULT, FORMULA = rid(CALCULATOR, "result"), rid(CALCULATOR, "formula")
HISTORY = "files/history.json"  # every computation is kept in the history: the task's own change
# A setting changed on the way (a second family of near misses: the goal and a change nobody asked for).
VIBRATION_OFF = [Tap(desc="Settings"), Tap(text="Vibrate on button press"), Tap(desc="Back")]


def keys(sequence: str) -> list:
    return [Tap(text=k) for k in sequence]


ARITHMETIC = [
    # near: the same presses with one wrong (a wrong operand, operator, or the = left out);
    # other: the same result another way (a step of it done in one's head)
    ("calculator_add", "3 + 5", "3+5=", "3+6=", "2+6=", "3+5", "8"),
    ("calculator_cube", "3 ^ 3", "3^3=", "3×3=", "3×9=", "3^3", "27"),
    ("calculator_divide", "12 ÷ 3", "12÷3=", "12÷3", "8÷2=", "12÷3", "4"),
    ("calculator_minus", "12 - 4", "12-4=", "12-5=", "4+4=", "12-4", "8"),
    ("calculator_multiply", "12*4", "12×4=", "12+4=", "6×8=", "12×4", "48"),
    ("calculator_point", "19.7 - 81.3", "19.7-81.3=", "19.7-813=", "20-81.6=", "19.7-81.3", "-61.6"),
    # √ on a fresh display becomes "1√": the app shows 1√16 and then 4+3, which 4+3 typed shows too.
    ("calculator_square", "√16 + 3", "√16+3=", "√16+4=", "4+3=", "4+3", "7"),
]


@pytest.mark.parametrize(
    "name, expression, presses, near, other, formula, expected", ARITHMETIC, ids=[c[0] for c in ARITHMETIC]
)
@task(
    prompt="Calculate the result of '{expression}'",
    app=CALCULATOR,
    golden=lambda presses: keys(presses),
    near_miss={
        "one key wrong": lambda near: keys(near),
        "vibration switched off too": lambda presses: [*VIBRATION_OFF, *keys(presses)],
        labelled("lookalike", "the same result another way"): lambda other: keys(other),
    },
)
def test_arithmetic(ui, events, changes, presses, formula, expected):
    changes.allow(CALCULATOR, HISTORY)
    assert ui.text_of(RESULT) == expected
    assert ui.text_of(FORMULA) == formula
    for key in sorted(set(presses) - set("0123456789.")):  # each operation done on the calculator
        assert events.clicked(text=key, package=CALCULATOR), f"{key} was never pressed"


# The table counts 17 steps: the prompt's keys with parentheses, which the app does not have.
# The shortest honest path computes 24×3 first and chains +18 and -3 (9÷3 done in one's head):
# 10 presses, so that is the golden step count here.
@task(
    prompt="Calculate the result of '18+(24×3)-(9÷3)'",
    app=CALCULATOR,
    golden=keys("24×3+18-3="),
    near_miss={
        "9÷3 typed in": keys("24×3+18-9÷3="),  # left to right, that gives 27
        "vibration switched off too": [*VIBRATION_OFF, *keys("24×3+18-3=")],
        labelled("lookalike", "90-3 typed, 24×3+18 worked out elsewhere"): keys("90-3="),
    },
    name="calculator_mixed",
)
def test_calculator_mixed(ui, events, changes):
    changes.allow(CALCULATOR, HISTORY)
    assert ui.text_of(RESULT) == "87"
    assert ui.text_of(FORMULA) == "90-3"  # what 24×3+18-3 leaves on the display, and 90-3 typed too
    for key in "×+-=":
        assert events.clicked(text=key, package=CALCULATOR), f"{key} was never pressed"


@pytest.fixture
def typed_12_times_4(device):
    """MobileAgentBench's setup: the user has typed 1, 2, ×, 4 (UI steps on the device)."""
    device.launch(CALCULATOR)
    ui = device.ui()
    for key in "12×4":
        device.execute(Tap(text=key), ui)
    assert device.ui().text_of(RESULT) == "12×4"


@task(
    prompt="Calculate the result of '12 × 5'. However, during the input process, the number '4' was mistakenly "
    "entered instead of '5'. Correct this by first enter 'C' to delete '4' and re-entering '5' and then perform "
    "the calculation",
    app=CALCULATOR,
    golden=keys("C5="),
    near_miss={
        "4 never deleted": keys("5="),  # 12×45
        "vibration switched off too": [*VIBRATION_OFF, *keys("C5=")],
    },
    name="calculator_recalculate",
)
def test_calculator_recalculate(typed_12_times_4, ui, events, changes):
    changes.allow(CALCULATOR, HISTORY)
    assert ui.text_of(RESULT) == "60"
    assert ui.text_of(FORMULA) == "12×5"
    assert events.clicked(text="C", package=CALCULATOR)


@task(
    prompt="Use Unit converter function to calculate how many kilometers 1mile is equal to",
    app=CALCULATOR,
    name="calculator_convert_length",
    golden=[
        Tap(desc="Unit converter"),
        Tap(text="Length"),
        Tap(id=rid(CALCULATOR, "bottom_unit_holder")),
        Tap(text="Mile (mi)"),
        Tap(id=rid(CALCULATOR, "swap_button")),
        Tap(id=rid(CALCULATOR, "btn_1")),
    ],
    near_miss={
        "kilometres to miles": [  # the swap left out
            Tap(desc="Unit converter"),
            Tap(text="Length"),
            Tap(id=rid(CALCULATOR, "bottom_unit_holder")),
            Tap(text="Mile (mi)"),
            Tap(id=rid(CALCULATOR, "btn_1")),
        ],
        "vibration switched off too": [
            *VIBRATION_OFF,
            Tap(desc="Unit converter"),
            Tap(text="Length"),
            Tap(id=rid(CALCULATOR, "bottom_unit_holder")),
            Tap(text="Mile (mi)"),
            Tap(id=rid(CALCULATOR, "swap_button")),
            Tap(id=rid(CALCULATOR, "btn_1")),
        ],
    },
)
def test_calculator_convert_length(ui, changes):
    changes.allow(CALCULATOR, pref("converter_*"))  # the converter reopens on the units last used
    # MobileAgentBench looked for the texts Mile, Kilometer, 1 and 1.609344 anywhere on screen;
    # here they must be in the converter's own fields, from mile to kilometer.
    assert ui.text_of(rid(CALCULATOR, "top_unit_name")) == "Mile"
    assert ui.text_of(rid(CALCULATOR, "top_unit_text")) == "1"
    assert ui.text_of(rid(CALCULATOR, "bottom_unit_name")) == ui.tr("Kilometer")
    assert ui.text_of(rid(CALCULATOR, "bottom_unit_text")) == "1.609344"
