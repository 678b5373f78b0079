"""Simple Calendar Pro: the settings screen.

Learned from Simple-Calendar's res/layout/activity_settings.xml, SettingsActivity.kt and
helpers/Config.kt (defaults), and Simple-Commons' settings rows and showPickSecondsDialog.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from pytest_mobile_agent.virtual.apps.calendar.dialogs import seconds_dialog
from pytest_mobile_agent.virtual.apps.calendar.event_types import ManageEventTypesActivity
from pytest_mobile_agent.virtual.apps.calendar.formatting import WEEKDAYS, minutes_text
from pytest_mobile_agent.virtual.apps.calendar.store import REMINDER_OFF, CalendarStore
from pytest_mobile_agent.virtual.apps.commons.color_picker import color_picker_dialog
from pytest_mobile_agent.virtual.apps.commons.customization import color_customization_rows
from pytest_mobile_agent.virtual.apps.commons.dates import java_date
from pytest_mobile_agent.virtual.apps.commons.settings import (
    language_name,
    settings_check,
    settings_link,
    settings_screen,
    settings_section,
    settings_value,
)
from pytest_mobile_agent.virtual.ui import widgets as w
from pytest_mobile_agent.virtual.ui.app import Activity
from pytest_mobile_agent.virtual.ui.view import RELATIVE, View

WEEKENDS_COLOR = "#EC2E2A"  # highlightWeekendsColor's default: red_text (md_red_400_dark)
START_WEEK = ("Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday")


def weekends_color(app: CalendarStore) -> str:
    return str(app.pref("highlight_weekends_color", WEEKENDS_COLOR))


class SettingsActivity(Activity):
    name = ".activities.SettingsActivity"
    app: CalendarStore

    def radio(self, options: tuple[str, ...], pref: str, default: int) -> Callable[[], None]:
        return lambda: self.show(
            w.radio_dialog(self, options, int(self.app.pref(pref, default)), lambda i: self.app.set_pref(pref, i))
        )

    def pick_start_week(self) -> None:
        current = START_WEEK.index(WEEKDAYS[int(self.app.pref("first_day_of_week", 6))])
        self.show(
            w.radio_dialog(
                self,
                START_WEEK,
                current,
                lambda i: self.app.set_pref("first_day_of_week", WEEKDAYS.index(START_WEEK[i])),
            )
        )

    def pick_snooze(self) -> None:
        current = int(self.app.pref("snooze_time", 10))
        self.show(seconds_dialog(self, current, lambda m: self.app.set_pref("snooze_time", m), snooze=True))

    def content(self) -> View:
        a = self.app
        p = a.pref
        first = WEEKDAYS[int(p("first_day_of_week", 6))]
        hours = "HH:00" if p("use_24_hour_format", False) else "hh.mm a"
        start_at = java_date(hours, datetime(2000, 1, 1, int(p("start_weekly_at", 7))))
        noop = lambda: None
        rows = [
            *color_customization_rows(self),
            settings_section(self, "general_settings_label", "General"),
            settings_value(self, "language", "Language", language_name(), lambda: self.toast("No app found")),
            settings_link(
                self, "manage_event_types", "Manage event types", lambda: self.start(ManageEventTypesActivity)
            ),
            settings_value(self, "start_week_on", "Start week on", first, self.pick_start_week),
            settings_check(self, "hour_format", "Use 24-hour time format", "use_24_hour_format", False),
            settings_check(self, "highlight_weekends", "Highlight weekends on some views", "highlight_weekends", False),
        ]
        if p("highlight_weekends", False):
            rows.append(self.weekends_color_row())
        rows += [
            settings_section(self, "reminders_label", "Reminders"),
            settings_link(
                self, "customize_notifications", "Customize notifications", noop, "settings_customize_notifications"
            ),
            settings_value(
                self,
                "reminder_audio_stream",
                "Audio stream used by reminders",
                "Notification",
                self.radio(("System", "Alarm", "Notification", "Ring"), "reminder_audio_stream", 2),
            ),
            settings_check(self, "vibrate", "Vibrate on reminder notification", "vibrate", False),
            settings_check(self, "loop_reminders", "Loop reminders until dismissed", "loop_reminders", False),
            settings_check(self, "use_same_snooze", "Always use same snooze time", "use_same_snooze", True),
        ]
        if p("use_same_snooze", True):
            rows.append(
                settings_value(
                    self, "snooze_time", "Snooze time", minutes_text(int(p("snooze_time", 10)), False), self.pick_snooze
                )
            )
        rows += [
            settings_section(self, "caldav_label", "CalDAV"),
            settings_check(self, "caldav_sync", "CalDAV sync", "caldav_sync", False),
            settings_section(self, "new_events_label", "New events"),
            settings_value(self, "default_start_time", "Default start time", "Next full hour", noop),
            settings_value(self, "default_duration", "Default duration", "0 minutes", noop),
            settings_value(self, "default_event_type", "Default event type", "Last used one", noop),
            settings_check(
                self,
                "use_last_event_reminders",
                "Use the last events' reminders as the default for new events",
                "use_last_event_reminders",
                True,
            ),
        ]
        if not p("use_last_event_reminders", True):
            rows += [
                settings_value(
                    self,
                    f"default_reminder_{i}",
                    f"Default reminder {i}",
                    minutes_text(10 if i == 1 else REMINDER_OFF),
                    noop,
                )
                for i in (1, 2, 3)
            ]
        rows += [
            settings_section(self, "weekly_view_label", "Weekly view"),
            settings_value(self, "start_weekly_at", "Start day at", start_at, noop),
            settings_check(
                self,
                "midnight_span_event",
                "Show events spanning across midnight at the top bar",
                "show_midnight_spanning_events_at_top",
                True,
            ),
            settings_check(
                self, "allow_customize_day_count", "Allow customizing day count", "allow_customize_day_count", True
            ),
            settings_check(
                self,
                "start_week_with_current_day",
                "Start week with the current day",
                "start_week_with_current_day",
                False,
            ),
            settings_section(self, "monthly_view_label", "Monthly view"),
            settings_check(self, "week_numbers", "Show week numbers", "week_numbers", False),
            settings_check(self, "show_grid", "Show a grid", "show_grid", False),
            settings_section(self, "event_lists_label", "Event lists"),
            settings_value(
                self,
                "display_past_events",
                "Display events from the past",
                minutes_text(int(p("display_past_events", 1440)), False),
                noop,
            ),
            settings_check(self, "display_description", "Display description or location", "display_description", True),
        ]
        if p("display_description", True):
            rows.append(
                settings_check(
                    self, "replace_description", "Replace event description with location", "replace_description", False
                )
            )
        rows += [
            settings_section(self, "widgets_label", "Widgets"),
            settings_value(
                self,
                "font_size",
                "Font size",
                "Medium",
                self.radio(("Small", "Medium", "Large", "Extra large"), "font_size", 1),
            ),
            settings_value(
                self, "list_widget_view_to_open", "View to open from the event list widget", "Daily view", noop
            ),
            settings_section(self, "events_label", "Events"),
            settings_check(self, "dim_past_events", "Dim past events", "dim_past_events", True),
            settings_check(
                self, "allow_changing_time_zones", "Allow changing event time zones", "allow_changing_time_zones", False
            ),
            settings_link(
                self, "delete_all_events", "Delete all events and tasks", self.delete_all, "settings_delete_all_events"
            ),
            settings_section(self, "tasks_label", "Tasks"),
            settings_check(self, "allow_creating_tasks", "Allow creating tasks", "allow_creating_tasks", True),
            settings_check(self, "dim_completed_tasks", "Dim completed tasks", "dim_completed_tasks", True),
            settings_section(self, "backups_label", "Backups"),
            settings_check(self, "enable_automatic_backups", "Enable automatic backups", "auto_backup", False),
            settings_section(self, "migrating_label", "Migrating"),
            self._plain("events_export", "Export events to an .ics file"),
            self._plain("events_import", "Import events from an .ics file"),
            self._plain("settings_export", "Export settings"),
            self._plain("settings_import", "Import settings"),
        ]
        return settings_screen(self, rows)

    def weekends_color_row(self) -> View:
        """The label and `settings_highlight_weekends_color` (a swatch); a tap opens the colour picker."""
        a = self.app
        row = settings_link(
            self,
            "highlight_weekends_color",
            "Color of highlighted weekends",
            self.pick_weekends_color,
            "settings_highlight_weekends_color_text_label",
        )
        row.orientation = "h"
        row.children[0].weight = 1
        swatch = w.image(
            a.rid("settings_highlight_weekends_color"),
            "",
            "",
            width=24,
            height=24,
            color=weekends_color(a),
            gravity="center",
        )
        row.children.append(swatch)
        return row

    def pick_weekends_color(self) -> None:
        def done(ok: bool, color: str) -> None:
            if ok and color:
                self.app.set_pref("highlight_weekends_color", color)

        self.show(color_picker_dialog(self, weekends_color(self.app), done))

    def _plain(self, name: str, label: str) -> View:
        a = self.app
        return View(
            RELATIVE,
            id=a.rid(f"{name}_holder"),
            clickable=True,
            focusable=True,
            kind="row",
            padding=8,
            on_click=lambda: self.toast("No app found"),
            children=[w.text(a.rid(name), label)],
        )

    def delete_all(self) -> None:
        def yes() -> None:
            store = self.app.events
            store.delete([e["id"] for e in store.all()])

        text = (
            "Are you sure you want to delete all events and tasks? This will leave your event types and other "
            "settings intact."
        )
        self.show(w.confirm_dialog(self, text, yes))
