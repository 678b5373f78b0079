"""Simple File Manager Pro's settings screen (activity_settings.xml, SettingsActivity.kt)."""

from __future__ import annotations

from functools import partial

from pytest_mobile_agent.virtual.apps.commons.customization import CustomizationActivity
from pytest_mobile_agent.virtual.apps.commons.dates import date_time_format_dialog
from pytest_mobile_agent.virtual.apps.commons.security import security_dialog
from pytest_mobile_agent.virtual.apps.commons.settings import (
    language_name,
    settings_check,
    settings_link,
    settings_screen,
    settings_section,
    settings_value,
)
from pytest_mobile_agent.virtual.apps.filemanager.dialogs import NO_APP
from pytest_mobile_agent.virtual.apps.filemanager.favorites import FavoritesActivity
from pytest_mobile_agent.virtual.ui import widgets as w
from pytest_mobile_agent.virtual.ui.app import Activity
from pytest_mobile_agent.virtual.ui.view import LINEAR, View

FONT_SIZES = ("Small", "Medium", "Large", "Extra large")
TAB_NAMES = ("Files", "Recents", "Storage")
TAB_CHECKS = (
    ("Files", "files", "Files"),
    ("Recents", "recent_files", "Recent files"),
    ("Storage", "storage_analysis", "Storage analysis"),
)


class SettingsActivity(Activity):
    name = ".activities.SettingsActivity"

    def protected(self, name: str, label: str, pref: str) -> View:
        """A password-protection checkbox: turning it on or off goes through the security dialog."""
        a = self.app
        row = w.setting_checkbox(self, f"settings_{name}_holder", f"settings_{name}", label, pref, False)

        def toggle() -> None:
            def done(hash_: str = "", kind: int = 0, *_: object) -> None:
                a.set_pref(pref, not a.pref(pref, False))
                a.set_pref(f"{pref}_hash", hash_ if a.pref(pref) else "")

            required = a.pref(f"{pref}_hash", "") if a.pref(pref, False) else ""
            self.show(security_dialog(self, done, required_hash=required))

        row.on_click = toggle
        return row

    def manage_tabs(self) -> None:
        a = self.app
        shown = set(a.pref("shown_tabs", list(TAB_NAMES)))

        def body() -> list[View]:
            boxes = [
                w.checkbox(
                    a.rid(f"manage_visible_tabs_{suffix}"),
                    label,
                    n in shown,
                    partial(shown.symmetric_difference_update, {n}),
                    focusable=False,
                )
                for n, suffix, label in TAB_CHECKS
            ]
            holder = View(LINEAR, id=a.rid("manage_visible_tabs_holder"), children=boxes)
            return [View(w.SCROLL, id=a.rid("manage_visible_tabs_scroll_view"), children=[holder])]

        def ok() -> None:
            a.set_pref("shown_tabs", [n for n in TAB_NAMES if n in shown] or ["Files"])

        self.show(w.alert(self, "", body, positive=("OK", ok), negative=("Cancel", lambda: None)))

    def content(self) -> View:
        a = self.app

        def font() -> None:
            self.show(
                w.radio_dialog(self, FONT_SIZES, int(a.pref("font_size", 1)), lambda i: a.set_pref("font_size", i))
            )

        rows = [
            settings_section(self, "color_customization_section_label", "Color customization"),
            settings_link(self, "color_customization", "Customize colors", lambda: self.start(CustomizationActivity)),
            settings_section(self, "general_settings_label", "General"),
            settings_value(self, "language", "Language", language_name(), lambda: self.toast(NO_APP)),
            settings_link(
                self,
                "manage_favorites",
                "Manage favorites",
                lambda: self.start(FavoritesActivity),
                "settings_manage_favorites",
            ),
            settings_link(self, "manage_tabs", "Manage shown tabs", self.manage_tabs, "settings_manage_tabs"),
            settings_link(
                self,
                "change_date_time_format",
                "Change date and time format",
                lambda: self.show(date_time_format_dialog(self)),
                "settings_change_date_time_format",
            ),
            settings_value(self, "font_size", "Font size", FONT_SIZES[int(a.pref("font_size", 1))], font),
            settings_check(
                self, "press_back_twice", "Require pressing Back twice to leave the app", "press_back_twice", False
            ),
            settings_section(self, "visibility_label", "Visibility"),
            settings_check(self, "show_hidden", "Show hidden items", "show_hidden", False),
            settings_section(self, "scrolling_label", "Scrolling"),
            settings_check(
                self, "enable_pull_to_refresh", "Enable pull-to-refresh from the top", "enable_pull_to_refresh", True
            ),
            settings_section(self, "file_operations_label", "File operations"),
            settings_check(
                self,
                "keep_last_modified",
                "Keep old last-modified value at file operations",
                "keep_last_modified",
                True,
            ),
            settings_check(
                self,
                "skip_delete_confirmation",
                "Always skip delete confirmation dialog",
                "skip_delete_confirmation",
                False,
            ),
            settings_section(self, "security_label", "Security"),
            self.protected("password_protection", "Password protect hidden item visibility", "password_protection"),
            self.protected(
                "app_password_protection", "Password protect the whole application", "app_password_protection"
            ),
            self.protected(
                "file_deletion_password_protection",
                "Password protect file deletion and moving",
                "file_deletion_password_protection",
            ),
        ]
        return settings_screen(self, rows)
