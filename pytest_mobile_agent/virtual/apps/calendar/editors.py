"""Simple Calendar Pro's event and task editors (EventActivity, TaskActivity).

Learned from Simple-Calendar's activity_event.xml / activity_task.xml, menu_event.xml /
menu_task.xml and EventActivity.kt / TaskActivity.kt (saving, the Disclaimer), with
helpers/Config.kt for the defaults.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import date, datetime, timedelta
from typing import Any

from pytest_mobile_agent.virtual.apps.calendar.dialogs import (
    date_picker_dialog,
    delete_events_dialog,
    disclaimer,
    picker_dialog,
    seconds_dialog,
)
from pytest_mobile_agent.virtual.apps.calendar.event_types import select_event_type_dialog
from pytest_mobile_agent.virtual.apps.calendar.formatting import date_text, minutes_text, time_text
from pytest_mobile_agent.virtual.apps.calendar.store import (
    FLAG_ALL_DAY,
    REGULAR_EVENT_TYPE_ID,
    REMINDER_OFF,
    TYPE_EVENT,
    TYPE_TASK,
    CalendarStore,
    argb_hex,
    hex_argb,
    seconds,
    utc,
)
from pytest_mobile_agent.virtual.apps.commons.color_picker import color_picker_dialog
from pytest_mobile_agent.virtual.apps.commons.menus import split_menu
from pytest_mobile_agent.virtual.ui import widgets as w
from pytest_mobile_agent.virtual.ui.app import Activity, App
from pytest_mobile_agent.virtual.ui.view import CHECKBOX, LINEAR, RELATIVE, View

REPEATS = (("No repetition", 0), ("Daily", 86400), ("Weekly", 604800), ("Monthly", 2592001), ("Yearly", 31536000))


class EditorActivity(Activity):
    """EventActivity and TaskActivity share their flow; `P` is the id prefix."""

    app: CalendarStore

    P = "event"
    NOUN = "Event"
    TYPE = TYPE_EVENT

    def __init__(self, app: App, extras: dict[str, str] | None = None) -> None:
        super().__init__(app, extras)
        self.event_id = int(self.extras["event_id"]) if "event_id" in self.extras else None
        now = app.device.clock.now().replace(tzinfo=None)
        event = self.app.events.get(self.event_id) if self.event_id is not None else None
        if event is None:
            self.event_id = None
            day = date.fromisoformat(self.extras.get("day", now.date().isoformat()))
            start = datetime.combine(day, now.time()).replace(minute=0, second=0, microsecond=0) + timedelta(hours=1)
            duration = timedelta(minutes=int(app.pref("default_duration", 0)))
            if "start_ts" in self.extras:  # NEW_EVENT_START_TS (a weekly view slot)
                start = utc(int(self.extras["start_ts"]))
            if self.extras.get("hour_duration"):  # NEW_EVENT_SET_HOUR_DURATION: to 23:59 at most
                duration = timedelta(minutes=59 if start.hour == 23 else 60)
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
        if "event_type" not in event:  # a new one: the default type, else the last used one
            default = int(app.pref("default_event_type_id", -1))
            event["event_type"] = default if default != -1 else int(app.pref("last_used_local_event_type_id", 1))
            event["color"] = 0
        self.original = dict(event)
        self.type_id = int(event["event_type"])
        self.color = argb_hex(event["color"]).upper() if event["color"] else ""  # "": the type's
        self.all_day = bool(event["flags"] & FLAG_ALL_DAY)
        self.start_at, self.end_at = utc(event["start_ts"]), utc(event["end_ts"])
        self.reminder = int(event["reminder_1_minutes"])
        self.repeat = int(event["repeat_interval"])
        for field in ("title", "location", "description"):
            self.texts[f"{self.P}_{field}"] = event[field]

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
            "event_type": self.type_id,
            "color": hex_argb(self.color) if self.color else 0,
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
        self.app.events.save(values, self.event_id)
        self.app.set_pref("last_event_reminder_minutes", self.reminder)
        self.app.set_pref("last_used_local_event_type_id", self.type_id)
        self.finish()

    def on_back(self) -> bool:
        if not self.changed():
            return False
        body = [w.text(self.app.rid("message"), "You have unsaved changes. Save before exit?", padding=12)]
        self.show(w.alert(self, "", body, positive=("Save", self.save), negative=("Discard", self.finish)))
        return True

    def back(self) -> None:
        """The toolbar's back arrow: what BACK does, else leave the editor."""
        if not self.on_back():
            self.finish()

    def delete(self) -> None:
        def yes() -> None:
            if self.event_id is not None:  # the menu offers Delete on saved items only
                self.app.events.delete([self.event_id])
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

    def pick_type(self) -> None:
        """showEventTypeDialog: SelectEventTypeDialog with "Add a new type" and "Manage event types"."""
        self.focus, self.wm.ime_shown = None, False
        self.show(select_event_type_dialog(self, self.type_id, self._set_type))

    def _set_type(self, type_id: int) -> None:
        self.type_id = type_id

    def pick_color(self) -> None:
        """showCustomEventColorDialog: ColorPickerDialog with "Default color" (back to the type's)."""
        self.focus, self.wm.ime_shown = None, False
        current = self.color or self.app.event_types.color(self.type_id).upper()

        def done(ok: bool, color: str) -> None:
            if ok and color.upper() != current:  # gotNewEventColor; "" (Default color) is the type's
                self.color = color.upper()

        self.show(color_picker_dialog(self, current, done, default_button=True))

    def type_rows(self) -> list[View]:
        """event_type_holder > event_type (the type's title), event_color_holder > event_color."""
        a, p = self.app, self.P
        found = a.event_types.get(self.type_id) or a.event_types.get(REGULAR_EVENT_TYPE_ID)
        color = self.color or a.event_types.color(self.type_id)
        return [
            self._holder(
                "type", [w.text(a.rid(f"{p}_type"), found["title"] if found else "", padding=12)], self.pick_type
            ),
            self._holder(
                "color",
                [
                    w.text(a.rid(f"{p}_color_text"), f"{self.NOUN} color", padding=12, weight=1),
                    w.image(a.rid(f"{p}_color"), "", "", width=24, height=24, color=color, gravity="center"),
                ],
                self.pick_color,
            ),
        ]

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
        bar.children[0].on_click = self.back
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
            *self.type_rows(),
        ]


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
            *self.type_rows(),
        ]
