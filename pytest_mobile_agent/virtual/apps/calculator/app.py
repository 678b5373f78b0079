"""Simple Calculator (com.simplemobiletools.calculator) 5.12.0 as installed: its launcher entry,
About's FAQ and its activities."""

from __future__ import annotations

from pytest_mobile_agent.virtual.apps.calculator.converter import UnitConverterActivity, UnitConverterPickerActivity
from pytest_mobile_agent.virtual.apps.calculator.main import MainActivity
from pytest_mobile_agent.virtual.apps.calculator.settings import SettingsActivity
from pytest_mobile_agent.virtual.apps.calculator.store import CalculatorStore
from pytest_mobile_agent.virtual.apps.commons.about import SHARED_ACTIVITIES


class Calculator(CalculatorStore):
    label = "Calculator"
    icon = "calculator"
    icon_color = "#f57c00"
    version_code = 77
    version_name = "5.12.0"
    main_activity = MainActivity
    activities = (UnitConverterPickerActivity, UnitConverterActivity, SettingsActivity, *SHARED_ACTIVITIES)
    faq = (
        (
            "How does the C (Clear) button work?",
            "Tapping on it will remove one character at a time. Long pressing it will reset all fields at once.",
        ),
    )


APPS = (Calculator,)
