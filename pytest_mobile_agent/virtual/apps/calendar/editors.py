"""Simple Calendar Pro: event storage, date formatting and the event/task editors.

Learned from Simple-Calendar's models/Event.kt and databases/EventsDatabase.kt (events.db),
helpers/Formatter.kt and Config.kt (defaults), activity_event.xml / activity_task.xml,
menu_event.xml / menu_task.xml, EventActivity.kt / TaskActivity.kt (saving, the Disclaimer) and
dialog_reminder_warning.xml, and Simple-Commons' showPickSecondsDialog and
CustomIntervalPickerDialog. The main screen is in calendar.py, settings in calendar_settings.py.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from contextlib import closing
from datetime import UTC, date, datetime, timedelta
from typing import TYPE_CHECKING, Any

from pytest_mobile_agent.virtual.apps.commons.dates import java_date
from pytest_mobile_agent.virtual.apps.commons.dialogs import keyboard_dialog
from pytest_mobile_agent.virtual.apps.commons.menus import split_menu
from pytest_mobile_agent.virtual.resources import dates as locale_dates
from pytest_mobile_agent.virtual.ui import widgets as w
from pytest_mobile_agent.virtual.ui.app import Activity, App
from pytest_mobile_agent.virtual.ui.localize import drawing_locale
from pytest_mobile_agent.virtual.ui.view import CHECKBOX, LINEAR, RADIO, RADIO_GROUP, RELATIVE, View

if TYPE_CHECKING:
    from pytest_mobile_agent.virtual.apps.calendar.main import Calendar

MONTHS = (
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
)
WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
FLAG_ALL_DAY = 1
TYPE_EVENT, TYPE_TASK = 0, 1
REMINDER_OFF = -1
SNOOZE_MINUTES = (1, 5, 10, 30, 60)
REPEATS = (("No repetition", 0), ("Daily", 86400), ("Weekly", 604800), ("Monthly", 2592001), ("Yearly", 31536000))
DB_NAME = "databases/events.db"
SCHEMA = """
CREATE TABLE IF NOT EXISTS events (id INTEGER PRIMARY KEY AUTOINCREMENT, start_ts INTEGER NOT NULL,
  end_ts INTEGER NOT NULL, title TEXT NOT NULL, location TEXT NOT NULL DEFAULT '',
  description TEXT NOT NULL DEFAULT '', reminder_1_minutes INTEGER NOT NULL DEFAULT -1,
  reminder_2_minutes INTEGER NOT NULL DEFAULT -1, reminder_3_minutes INTEGER NOT NULL DEFAULT -1,
  repeat_interval INTEGER NOT NULL DEFAULT 0, import_id TEXT NOT NULL DEFAULT '',
  time_zone TEXT NOT NULL DEFAULT '', flags INTEGER NOT NULL DEFAULT 0, event_type INTEGER NOT NULL DEFAULT 1,
  parent_id INTEGER NOT NULL DEFAULT 0, last_updated INTEGER NOT NULL DEFAULT 0,
  source TEXT NOT NULL DEFAULT 'simple-calendar', availability INTEGER NOT NULL DEFAULT 0,
  color INTEGER NOT NULL DEFAULT 0, type INTEGER NOT NULL DEFAULT 0);
CREATE TABLE IF NOT EXISTS event_types (id INTEGER PRIMARY KEY AUTOINCREMENT, title TEXT NOT NULL,
  color INTEGER NOT NULL, caldav_calendar_id INTEGER NOT NULL DEFAULT 0,
  caldav_display_name TEXT NOT NULL DEFAULT '', caldav_email TEXT NOT NULL DEFAULT '',
  type INTEGER NOT NULL DEFAULT 0);
INSERT OR IGNORE INTO event_types (id, title, color) VALUES (1, 'Regular event', -14776091);
"""


# -- formatting (helpers/Formatter.kt, en-US) -------------------------------------------------
def utc(ts: int) -> datetime:
    return datetime.fromtimestamp(ts, UTC).replace(tzinfo=None)


def seconds(when: datetime) -> int:
    return int(when.replace(tzinfo=UTC).timestamp())


def month_name(month: int) -> str:
    """getMonthName: the `months` string array, in the locale the screen is drawn in."""
    return locale_dates.month_name(month, drawing_locale())


def weekday_name(weekday: int) -> str:
    return locale_dates.weekday_name(weekday, drawing_locale())


def weekday_letter(weekday: int) -> str:
    return locale_dates.weekday_letter(weekday, drawing_locale())


def time_text(app: App, when: datetime) -> str:
    return java_date("HH:mm" if app.pref("use_24_hour_format", False) else "hh:mm a", when)


def date_text(day: date, today: date) -> str:
    """getDateFromCode: "May 15" ("五月 15"), with the year when it is not the current one."""
    text = f"{month_name(day.month)} {day.day}"
    return text if day.year == today.year else f"{text} {day.year}"


def day_title(day: date, today: date) -> str:
    return f"{date_text(day, today)} ({java_date('EEE', day)})"


def month_title(day: date, today: date) -> str:
    name = month_name(day.month)
    return name if day.year == today.year else f"{name} {day.year}"


def minutes_text(minutes: int, before: bool = True) -> str:
    """getFormattedMinutes: "10 minutes before", "1 hour before", "No reminder"."""
    if minutes == REMINDER_OFF:
        return "No reminder"
    if minutes == 0:
        return "At start" if before else "0 minutes"
    for unit, size in (("day", 1440), ("hour", 60), ("minute", 1)):
        if minutes % size == 0:
            n = minutes // size
            text = f"{n} {unit}{'' if n == 1 else 's'}"
            return f"{text} before" if before else text
    return str(minutes)


# -- storage --------------------------------------------------------------------------------


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


class EventStore:
    """The `events` table of the app's events.db, cached until the app writes to it."""

    def __init__(self, app: App) -> None:
        self.app = app
        self._cache: list[dict[str, Any]] | None = None

    def _db(self) -> sqlite3.Connection:
        host = self.app.device.fs.host(f"{self.app.data_dir}/{DB_NAME}")
        host.parent.mkdir(parents=True, exist_ok=True)
        db = sqlite3.connect(host, isolation_level=None)
        db.row_factory = sqlite3.Row
        db.executescript(SCHEMA)
        return db

    def all(self) -> list[dict[str, Any]]:
        if self._cache is None:
            with closing(self._db()) as db:
                self._cache = [dict(r) for r in db.execute("SELECT * FROM events ORDER BY start_ts, id")]
        return self._cache

    def get(self, event_id: int) -> dict[str, Any] | None:
        return next((e for e in self.all() if e["id"] == event_id), None)

    def save(self, values: dict[str, Any], event_id: int | None = None) -> None:
        values = {**values, "last_updated": self.app.device.clock.millis()}
        with closing(self._db()) as db:
            if event_id is None:
                cols = ", ".join(values)
                db.execute(
                    f"INSERT INTO events ({cols}) VALUES ({', '.join('?' * len(values))})", list(values.values())
                )
            else:
                sets = ", ".join(f"{c} = ?" for c in values)
                db.execute(f"UPDATE events SET {sets} WHERE id = ?", [*values.values(), event_id])
        self._cache = None

    def delete(self, ids: list[int]) -> None:
        with closing(self._db()) as db:
            db.executemany("DELETE FROM events WHERE id = ?", [(i,) for i in ids])
        self._cache = None


# -- dialogs ----------------------------------------------------------------------------------
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
                on_click=lambda s=size: state.update(unit=s),
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


# -- the editors ----------------------------------------------------------------------------
class EditorActivity(Activity):
    """EventActivity and TaskActivity share their flow; `P` is the id prefix."""

    P = "event"
    NOUN = "Event"
    TYPE = TYPE_EVENT

    def __init__(self, app: App, extras: dict[str, str] | None = None) -> None:
        super().__init__(app, extras)
        self.event_id = int(self.extras["event_id"]) if "event_id" in self.extras else None
        now = app.device.clock.now().replace(tzinfo=None)
        event = self.calendar.events.get(self.event_id) if self.event_id is not None else None
        if event is None:
            self.event_id = None
            day = date.fromisoformat(self.extras.get("day", now.date().isoformat()))
            start = datetime.combine(day, now.time()).replace(minute=0, second=0, microsecond=0) + timedelta(hours=1)
            duration = timedelta(minutes=int(app.pref("default_duration", 0)))
            event = {
                "title": "",
                "location": "",
                "description": "",
                "flags": 0,
                "repeat_interval": 0,
                "start_ts": seconds(start),
                "end_ts": seconds(start + duration),
                "reminder_1_minutes": int(app.pref("last_event_reminder_minutes", 10)),
            }
            if "begin_ts" in self.extras:  # ACTION_INSERT/EDIT (setupNewEvent): the intent's times and texts
                event.update(
                    start_ts=int(self.extras["begin_ts"]),
                    end_ts=int(self.extras["end_ts"]),
                    flags=FLAG_ALL_DAY if self.extras.get("all_day") else 0,
                )
                event.update({k: self.extras[k] for k in ("title", "location", "description")})
            self.focus = f"{self.P}_title"  # the opener shows the keyboard for it
        self.original = dict(event)
        self.all_day = bool(event["flags"] & FLAG_ALL_DAY)
        self.start_at, self.end_at = utc(event["start_ts"]), utc(event["end_ts"])
        self.reminder = int(event["reminder_1_minutes"])
        self.repeat = int(event["repeat_interval"])
        for field in ("title", "location", "description"):
            self.texts[f"{self.P}_{field}"] = event[field]

    @property
    def calendar(self) -> Calendar:
        return self.app  # type: ignore[return-value]

    def values(self) -> dict[str, Any]:
        start, end = self.start_at, max(self.end_at, self.start_at)
        if self.all_day:
            start, end = (
                datetime.combine(start.date(), datetime.min.time()),
                datetime.combine(end.date(), datetime.min.time()),
            )
        return {
            "title": self.texts.get(f"{self.P}_title", ""),
            "location": self.texts.get(f"{self.P}_location", ""),
            "description": self.texts.get(f"{self.P}_description", ""),
            "flags": FLAG_ALL_DAY if self.all_day else 0,
            "start_ts": seconds(start),
            "end_ts": seconds(end),
            "reminder_1_minutes": self.reminder,
            "repeat_interval": self.repeat,
            "type": self.TYPE,
        }

    def changed(self) -> bool:
        now = self.values()
        return any(now[k] != self.original.get(k, now[k]) for k in now if k != "type")

    def save(self) -> None:
        a = self.app
        if self.reminder != REMINDER_OFF and not a.pref("was_alarm_warning_shown", False):
            self.show(disclaimer(self, self._store))
        else:
            self._store()

    def _store(self) -> None:
        values = self.values()
        if not values["title"]:
            self.toast("Title cannot be empty")
            self.focus = f"{self.P}_title"
            return
        self.calendar.events.save(values, self.event_id)
        self.app.set_pref("last_event_reminder_minutes", self.reminder)
        self.finish()

    def on_back(self) -> bool:
        if not self.changed():
            return False
        body = [w.text(self.app.rid("message"), "You have unsaved changes. Save before exit?", padding=12)]
        self.show(w.alert(self, "", body, positive=("Save", self.save), negative=("Discard", self.finish)))
        return True

    def delete(self) -> None:
        def yes() -> None:
            self.calendar.events.delete([self.event_id])  # type: ignore[list-item]
            self.finish()

        self.show(delete_events_dialog(self, yes))

    def duplicate(self) -> None:
        self.event_id = None
        self.original = {}

    # -- dialogs of the rows --
    def pick_reminder(self) -> None:
        def show() -> None:
            self.show(seconds_dialog(self, self.reminder, self._set_reminder, snooze=False))

        if self.app.pref("was_alarm_warning_shown", False):
            show()
        else:
            self.show(disclaimer(self, show))

    def _set_reminder(self, minutes: int) -> None:
        self.reminder = minutes

    def pick_repeat(self) -> None:
        current = next((i for i, (_, s) in enumerate(REPEATS) if s == self.repeat), 0)
        labels = [label for label, _ in REPEATS] + ["Custom"]
        self.show(w.radio_dialog(self, labels, current, lambda i: setattr(self, "repeat", REPEATS[i % 5][1])))

    def pick_date(self, end: bool) -> None:
        current = self.end_at if end else self.start_at

        def chosen(d: date) -> None:
            moved = datetime.combine(d, current.time())
            if end:
                self.end_at = moved
            else:
                self.end_at += moved - self.start_at
                self.start_at = moved

        self.show(date_picker_dialog(self, current.date(), chosen))

    def pick_time(self, end: bool) -> None:
        current = self.end_at if end else self.start_at
        self.show(
            picker_dialog(
                self, "android.widget.TimePicker", "android:id/timePicker", time_text(self.app, current), lambda: None
            )
        )

    def toggle_all_day(self) -> None:
        self.all_day = not self.all_day

    # -- the screen --
    def _value(self, name: str, text: str, action: Callable[[], None] | None, **kw) -> View:
        return w.text(
            self.app.rid(f"{self.P}_{name}"), text, clickable=action is not None, on_click=action, padding=12, **kw
        )

    def _holder(self, name: str, children: list[View], action: Callable[[], None]) -> View:
        return View(
            RELATIVE,
            id=self.app.rid(f"{self.P}_{name}_holder"),
            clickable=True,
            focusable=True,
            on_click=action,
            orientation="h",
            kind="row",
            children=children,
        )

    def time_rows(self) -> list[View]:
        today = self.app.device.clock.now().date()
        start = [
            self._value("start_date", date_text(self.start_at.date(), today), lambda: self.pick_date(False), weight=1)
        ]
        end = [self._value("end_date", date_text(self.end_at.date(), today), lambda: self.pick_date(True), weight=1)]
        if not self.all_day:
            start.append(self._value("start_time", time_text(self.app, self.start_at), lambda: self.pick_time(False)))
            end.append(self._value("end_time", time_text(self.app, self.end_at), lambda: self.pick_time(True)))
        return [w.row(start), w.row(end)]

    def all_day_row(self) -> View:
        box = View(
            CHECKBOX,
            id=self.app.rid(f"{self.P}_all_day"),
            text="All-day",
            checkable=True,
            checked=self.all_day,
            clickable=True,
            focusable=True,
            on_click=self.toggle_all_day,
            kind="checkbox",
            padding=8,
        )
        return self._holder("all_day", [box], self.toggle_all_day)

    def fields(self) -> list[View]:
        raise NotImplementedError

    def content(self) -> View:
        a = self.app
        new = self.event_id is None
        items = [("save", "Save", "check", self.save, "always")]
        if not new:
            items += [
                ("delete", "Delete", "delete", self.delete, "always"),
                ("duplicate", f"Duplicate {self.NOUN.lower()}", "copy", self.duplicate, "always"),
                ("share", "Share", "share", lambda: self.toast("No app found"), "ifRoom"),
            ]
        actions, overflow = split_menu(items)
        bar = w.toolbar(
            self,
            f"{self.P}_toolbar",
            f"{'New' if new else 'Edit'} {self.NOUN}",
            actions=actions,
            overflow=overflow,
            back=True,
        )
        bar.children[0].on_click = lambda: self.on_back() or self.finish()
        holder = w.column(self.fields(), id=a.rid(f"{self.P}_holder"))
        body = w.scroll(a.rid(f"{self.P}_nested_scrollview"), [holder], cls="androidx.core.widget.NestedScrollView")
        return w.screen(bar, [body], id=a.rid(f"{self.P}_coordinator"))


class EventActivity(EditorActivity):
    name = ".activities.EventActivity"

    def fields(self) -> list[View]:
        a, p = self.app, self.P
        repeat = next((label for label, s in REPEATS if s == self.repeat), "Custom")
        return [
            w.edit(self, f"{p}_title", hint="Title"),
            w.row(
                [
                    w.edit(self, f"{p}_location", hint="Location", weight=1),
                    w.image(a.rid(f"{p}_show_on_map"), "", "globe", width=40, height=40),
                ]
            ),
            w.edit(self, f"{p}_description", hint="Description"),
            self.all_day_row(),
            *self.time_rows(),
            self._value("reminder_1", minutes_text(self.reminder), self.pick_reminder),
            self._value("repetition", repeat, self.pick_repeat),
            View(LINEAR, id=a.rid(f"{p}_attendees_holder"), height=8),
            self._value(
                "availability", "Busy", lambda: self.show(w.radio_dialog(self, ("Busy", "Free"), 0, lambda i: None))
            ),
            self._holder("type", [w.text(a.rid(f"{p}_type"), "Regular event", padding=12)], self.pick_type),
            self._holder(
                "color",
                [
                    w.text(a.rid(f"{p}_color_text"), "Event color", padding=12, weight=1),
                    w.image(a.rid(f"{p}_color"), "", "", width=24, height=24, color="primary"),
                ],
                lambda: None,
            ),
        ]

    def pick_type(self) -> None:
        self.show(w.radio_dialog(self, ("Regular event",), 0, lambda i: None))


class TaskActivity(EditorActivity):
    name = ".activities.TaskActivity"
    P = "task"
    NOUN = "Task"
    TYPE = TYPE_TASK

    def fields(self) -> list[View]:
        a, p = self.app, self.P
        today = a.device.clock.now().date()
        when = [self._value("date", date_text(self.start_at.date(), today), lambda: self.pick_date(False), weight=1)]
        if not self.all_day:
            when.append(self._value("time", time_text(a, self.start_at), lambda: self.pick_time(False)))
        repeat = next((label for label, s in REPEATS if s == self.repeat), "Custom")
        return [
            w.edit(self, f"{p}_title", hint="Title"),
            w.edit(self, f"{p}_description", hint="Description"),
            self.all_day_row(),
            w.row(when),
            self._value("reminder_1", minutes_text(self.reminder), self.pick_reminder),
            self._value("repetition", repeat, self.pick_repeat),
            self._holder("type", [w.text(a.rid(f"{p}_type"), "Regular event", padding=12)], lambda: None),
            self._holder(
                "color",
                [
                    w.text(a.rid(f"{p}_color_text"), "Task color", padding=12, weight=1),
                    w.image(a.rid(f"{p}_color"), "", "", width=24, height=24, color="primary"),
                ],
                lambda: None,
            ),
        ]
