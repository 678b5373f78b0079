"""Simple Calendar Pro's data: the events of its Room database, where the real app keeps them.

`databases/events.db` in the app's data dir (so `pm clear` wipes it), with the app's prefs on the
app object the screens share. Times are UTC seconds. Learned from Simple-Calendar's
models/Event.kt and databases/EventsDatabase.kt.
"""

from __future__ import annotations

import sqlite3
from contextlib import closing
from datetime import UTC, datetime
from typing import Any

from pytest_mobile_agent.virtual.ui.app import App, Context

PKG = "com.simplemobiletools.calendar.pro"
FLAG_ALL_DAY = 1
TYPE_EVENT, TYPE_TASK = 0, 1
REMINDER_OFF = -1
REGULAR_EVENT_TYPE_ID = 1
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
INSERT OR IGNORE INTO event_types (id, title, color) VALUES (1, 'Regular event', -689152);
"""


def argb_hex(color: int) -> str:
    """An Android colour int (signed ARGB) as "#rrggbb"."""
    return f"#{color & 0xFFFFFF:06x}"


def hex_argb(color: str) -> int:
    """ "#rrggbb" as the signed opaque ARGB int Android stores."""
    value = 0xFF000000 | int(color.lstrip("#")[-6:], 16)
    return value - (1 << 32)


def utc(ts: int) -> datetime:
    return datetime.fromtimestamp(ts, UTC).replace(tzinfo=None)


def seconds(when: datetime) -> int:
    return int(when.replace(tzinfo=UTC).timestamp())


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


def displayed_types(app: App) -> list[int]:
    """config.displayEventTypes: the regular type's id from the start (EventsDatabase)."""
    return [int(i) for i in app.pref("display_event_types", [REGULAR_EVENT_TYPE_ID])]


class EventTypeStore:
    """The `event_types` table (EventTypesDao): id 1, "Regular event", in the primary colour at
    first (EventsDatabase.insertRegularEventType), which cannot be deleted."""

    def __init__(self, events: EventStore) -> None:
        self.events = events
        self._cache: list[dict[str, Any]] | None = None

    def all(self) -> list[dict[str, Any]]:
        """getEventTypes: sorted by title, case-insensitively (EventsHelper.getEventTypesSync)."""
        if self._cache is None:
            with closing(self.events._db()) as db:
                rows = [dict(r) for r in db.execute("SELECT * FROM event_types")]
            self._cache = sorted(rows, key=lambda t: t["title"].lower())
        return self._cache

    def get(self, type_id: int) -> dict[str, Any] | None:
        return next((t for t in self.all() if t["id"] == type_id), None)

    def with_title(self, title: str) -> dict[str, Any] | None:
        """getEventTypeIdWithTitle: an exact, case-insensitive title match."""
        return next((t for t in self.all() if t["title"].lower() == title.lower()), None)

    def color(self, type_id: int) -> str:
        found = self.get(type_id) or self.get(REGULAR_EVENT_TYPE_ID)
        return argb_hex(found["color"]) if found else "primary"

    def save(self, title: str, color: int, type_id: int | None = None) -> int:
        """insertOrUpdateEventTypeSync: a new type is displayed, and joins the quick filter (both
        types do, when it is the second one)."""
        app = self.events.app
        with closing(self.events._db()) as db:
            if type_id is not None:
                db.execute("UPDATE event_types SET title = ?, color = ? WHERE id = ?", (title, color, type_id))
                self._cache = None
                return type_id
            cursor = db.execute("INSERT INTO event_types (title, color) VALUES (?, ?)", (title, color))
            type_id = int(cursor.lastrowid or 0)
        self._cache = None
        app.set_pref("display_event_types", sorted({*displayed_types(app), type_id}))
        quick = list(app.pref("quick_filter_event_types", []))
        if quick:
            app.set_pref("quick_filter_event_types", sorted({*quick, type_id}))
        elif len(self.all()) == 2:
            app.set_pref("quick_filter_event_types", [t["id"] for t in self.all()])
        return type_id

    def delete(self, ids: list[int], delete_events: bool) -> None:
        """EventsHelper.deleteEventTypes: their events go too, or move to the regular type."""
        ids = [i for i in ids if i != REGULAR_EVENT_TYPE_ID]
        with closing(self.events._db()) as db:
            for type_id in ids:
                if delete_events:
                    db.execute("DELETE FROM events WHERE event_type = ?", (type_id,))
                else:
                    db.execute(
                        "UPDATE events SET event_type = ? WHERE event_type = ?", (REGULAR_EVENT_TYPE_ID, type_id)
                    )
                db.execute("DELETE FROM event_types WHERE id = ?", (type_id,))
        self._cache = None
        self.events._cache = None
        app = self.events.app
        for pref in ("display_event_types", "quick_filter_event_types"):
            if app.pref(pref) is not None:
                app.set_pref(pref, [i for i in app.pref(pref) if i not in ids])

    def have_events(self, ids: list[int]) -> bool:
        return any(e["event_type"] in ids for e in self.events.all())


class CalendarStore(App):
    """The app object as the screens use it: its prefs and the events database."""

    package = PKG

    def __init__(self, device: Context) -> None:
        super().__init__(device)
        self.events = EventStore(self)
        self.event_types = EventTypeStore(self.events)

    def displayed(self, events: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """The events of the types the filter shows (getEventsSync's applyTypeFilter)."""
        shown = set(displayed_types(self))
        return [e for e in events if e["event_type"] in shown]

    def event_color(self, event: dict[str, Any]) -> str:
        """An event's own colour, else its type's (WeekFragment: `event.color == 0`)."""
        return argb_hex(event["color"]) if event.get("color") else self.event_types.color(event["event_type"])
