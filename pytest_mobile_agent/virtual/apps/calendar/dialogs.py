"""The dialogs Simple Calendar's screens share: delete confirmation, the system date and time
pickers, the reminder Disclaimer and the reminder/snooze interval pickers.

Learned from Simple-Calendar's dialog_reminder_warning.xml and Simple-Commons'
showPickSecondsDialog and CustomIntervalPickerDialog.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import date
from functools import partial

from pytest_mobile_agent.virtual.apps.calendar.formatting import minutes_text
from pytest_mobile_agent.virtual.apps.commons.dates import java_date
from pytest_mobile_agent.virtual.apps.commons.dialogs import keyboard_dialog
from pytest_mobile_agent.virtual.ui import widgets as w
from pytest_mobile_agent.virtual.ui.app import Activity
from pytest_mobile_agent.virtual.ui.view import RADIO, RADIO_GROUP, View

SNOOZE_MINUTES = (1, 5, 10, 30, 60)


def delete_events_dialog(activity: Activity, on_yes: Callable[[], None]):
    """The confirmation before deleting events: the question in `delete_event_holder`, Yes / No."""
    a = activity.app
    body = [
        w.column(
            [
                w.text(
                    a.rid("delete_event_description"),
                    "Are you sure you want to proceed with the deletion?",
                    padding=12,
                )
            ],
            id=a.rid("delete_event_holder"),
        )
    ]
    return w.alert(activity, "", body, positive=("Yes", on_yes), negative=("No", lambda: None))


def picker_dialog(activity: Activity, cls: str, id: str, value: str, on_ok: Callable[[], None]):
    """The system DatePickerDialog / TimePickerDialog, reduced to showing the current value."""
    body = [View(cls, id=id, focusable=True, children=[w.text("", value, size=20, gravity="center", padding=16)])]
    return w.alert(activity, "", body, positive=("OK", on_ok), negative=("Cancel", lambda: None))


def date_picker_dialog(activity: Activity, day: date, on_pick: Callable[[date], None]):
    label = java_date("EEE, MMM d, yyyy", day)
    return picker_dialog(activity, "android.widget.DatePicker", "android:id/datePicker", label, lambda: on_pick(day))


def disclaimer(activity: Activity, then: Callable[[], None]):
    """ReminderWarningDialog, shown once before the first reminder is relied upon."""
    app = activity.app

    def ok() -> None:
        app.set_pref("was_alarm_warning_shown", True)
        then()

    text = (
        "Please make sure the reminders work properly before relying on them. Check your device battery and "
        "notification settings, if there is nothing blocking the reminders, or killing the app in the background."
    )
    body = [w.text(app.rid("reminder_warning"), text, padding=12)]
    return w.alert(activity, "Disclaimer", body, positive=("OK", ok), neutral=("Settings", lambda: None))


def seconds_dialog(activity: Activity, current: int, on_pick: Callable[[int], None], *, snooze: bool):
    """showPickSecondsDialog: preset minutes plus the current value, then "Custom"."""
    values = sorted({*(() if snooze else (-1, 0)), *SNOOZE_MINUTES, current})
    labels = [minutes_text(v, not snooze) for v in values] + ["Custom"]

    def pick(i: int) -> None:
        if i < len(values):
            on_pick(values[i])
        else:
            activity.show(custom_interval_dialog(activity, on_pick))

    holder: list = []

    def pick_closing(i: int) -> None:
        activity.dismiss(holder[0])
        pick(i)

    # The snooze picker also has an OK button (RadioGroupDialog showOKButton) keeping the value.
    holder.append(
        w.alert(
            activity,
            "",
            lambda: [w.radio_group(activity, labels, values.index(current), pick_closing)],
            positive=("OK", lambda: None) if snooze else None,
        )
    )
    return holder[0]


def custom_interval_dialog(activity: Activity, on_pick: Callable[[int], None]):
    """commons CustomIntervalPickerDialog: a number and a unit (minutes, hours, days)."""
    app, key = activity.app, "dialog_custom_interval_value"
    state = {"unit": 1}
    units = (
        ("dialog_radio_minutes", "Minutes", 1),
        ("dialog_radio_hours", "Hours", 60),
        ("dialog_radio_days", "Days", 1440),
    )

    def body() -> list[View]:
        radios = [
            View(
                RADIO,
                id=app.rid(rid),
                text=label,
                checkable=True,
                checked=state["unit"] == size,
                clickable=True,
                on_click=partial(state.update, unit=size),
                kind="radio",
                height=48,
            )
            for rid, label, size in units
        ]
        return [w.edit(activity, key, hint="0"), View(RADIO_GROUP, id=app.rid("dialog_radio_view"), children=radios)]

    def ok() -> None:
        text = activity.texts.pop(key, "")
        if text.isdigit():
            on_pick(int(text) * state["unit"])

    w.focus(activity, key)
    return keyboard_dialog(
        activity, w.alert(activity, "", body, positive=("OK", ok), negative=("Cancel", lambda: None))
    )
