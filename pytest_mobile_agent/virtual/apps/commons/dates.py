"""Dates and times as the apps show them: java.text patterns in the drawing locale, the app's
date format and 12/24-hour setting, and the dialog that changes them.

Learned from commons dialogs/ChangeDateTimeFormatDialog.kt, dialog_change_date_time_format.xml
and helpers/BaseConfig.kt (dateFormat, use24HourFormat).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from pytest_mobile_agent.virtual.resources import dates as locale_dates
from pytest_mobile_agent.virtual.ui import widgets as w
from pytest_mobile_agent.virtual.ui.app import Activity
from pytest_mobile_agent.virtual.ui.localize import drawing_locale
from pytest_mobile_agent.virtual.ui.view import LINEAR, View


def java_date(pattern: str, when) -> str:
    """Format with a java.text / android DateFormat pattern ("dd.MM.yyyy", "hh:mm a"), in the
    locale the screen is being drawn in."""
    return locale_dates.java_date(pattern, when, drawing_locale())


DATE_FORMATS = (  # dialog order: (radio id suffix, pattern)
    ("one", "dd.MM.yyyy"),
    ("two", "dd/MM/yyyy"),
    ("three", "MM/dd/yyyy"),
    ("eight", "dd-MM-yyyy"),
    ("seven", "MM-dd-yyyy"),
    ("four", "yyyy-MM-dd"),
    ("five", "d MMMM yyyy"),
    ("six", "MMMM d yyyy"),
)


def date_format(app) -> str:
    """baseConfig.dateFormat: "dd.MM.yyyy" unless changed (en-US matches no other radio)."""
    return app.pref("date_format", DATE_FORMATS[0][1])


def use_24_hour(app) -> bool:
    """baseConfig.use24HourFormat: the system 12/24 setting until changed in the app."""
    return bool(app.pref("use_24_hour_format", app.device.settings.get("system", "time_12_24") == "24"))


def time_format(app) -> str:
    return "HH:mm" if use_24_hour(app) else "hh:mm a"


def date_time_format_dialog(activity: Activity, on_done: Callable[[], None] | None = None):
    """ChangeDateTimeFormatDialog: no title, date radios with a sample date, the 24-hour checkbox;
    applies on OK."""
    app = activity.app
    sample = datetime(2023, 2, 15, 15, 4)
    state = {"format": date_format(app), "h24": use_24_hour(app)}

    def pick(key: str, value: object) -> Callable[[], None]:
        return lambda: state.__setitem__(key, value)

    def body() -> list[View]:
        radios = [
            w.radio(
                app.rid(f"change_date_time_dialog_radio_{suffix}"),
                java_date(pattern, sample),
                state["format"] == pattern,
                pick("format", pattern),
            )
            for suffix, pattern in DATE_FORMATS
        ]
        group = View(w.RADIO_GROUP, id=app.rid("change_date_time_dialog_radio_group"), children=radios)
        box = w.checkbox(
            app.rid("change_date_time_dialog_24_hour"),
            "Use 24-hour time format",
            bool(state["h24"]),
            pick("h24", not state["h24"]),
        )
        holder = View(LINEAR, id=app.rid("change_date_time_dialog_holder"), children=[group, box])
        return [View(w.SCROLL, id=app.rid("change_date_time_dialog_scrollview"), children=[holder])]

    def ok() -> None:
        app.set_pref("date_format", state["format"])
        app.set_pref("use_24_hour_format", bool(state["h24"]))
        if on_done:
            on_done()

    return w.alert(activity, "", body, positive=("OK", ok), negative=("Cancel", lambda: None))
