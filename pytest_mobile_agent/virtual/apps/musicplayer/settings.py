"""Simple Music Player's settings and excluded folders screens (activity_settings.xml,
dialog_manage_visible_tabs.xml, activity_excluded_folders.xml and their Kotlin)."""

from __future__ import annotations

from functools import partial

from pytest_mobile_agent.virtual.apps.commons.customization import color_customization_rows
from pytest_mobile_agent.virtual.apps.commons.settings import (
    language_name,
    settings_check,
    settings_link,
    settings_screen,
    settings_value,
)
from pytest_mobile_agent.virtual.apps.musicplayer import library as lib
from pytest_mobile_agent.virtual.apps.musicplayer.store import MusicPlayerStore
from pytest_mobile_agent.virtual.ui import widgets as w
from pytest_mobile_agent.virtual.ui.app import Activity
from pytest_mobile_agent.virtual.ui.view import LINEAR, RELATIVE, SCROLL, View

SHOW_FILENAME = ("Never", "If title is not available", "Always")


class SettingsActivity(Activity):
    name = ".activities.SettingsActivity"
    app: MusicPlayerStore

    def content(self) -> View:
        a = self.app
        show = int(a.pref("show_filename", 1))
        rows = [
            *color_customization_rows(self),
            w.section(self, "settings_general_settings_label", "General"),
            settings_value(self, "language", "Language", language_name(), lambda: self.toast("Language")),
            settings_link(
                self,
                "manage_excluded_folders",
                "Manage excluded folders",
                lambda: self.start(ExcludedFoldersActivity),
                "settings_manage_excluded_folders",
            ),
            settings_link(self, "manage_shown_tabs", "Manage shown tabs", self.manage_tabs),
            settings_check(self, "swap_prev_next", "Swap previous/next headphone buttons", "swap_prev_next", False),
            settings_value(
                self,
                "show_filename",
                "Show filename as song title",
                SHOW_FILENAME[show],
                lambda: self.show(w.radio_dialog(self, SHOW_FILENAME, show, lambda i: a.set_pref("show_filename", i))),
            ),
            w.section(self, "settings_playback_section_label", "Audio"),
            settings_check(self, "gapless_playback", "Gapless playback", "gapless_playback", False),
        ]
        return settings_screen(self, rows)

    def manage_tabs(self) -> None:
        a = self.app
        chosen = list(a.shown_tabs())

        def toggle(key: str) -> None:
            chosen.remove(key) if key in chosen else chosen.append(key)

        def body() -> list[View]:
            boxes = [
                w.checkbox(a.rid(f"manage_visible_tabs_{key}"), label, key in chosen, partial(toggle, key), padding=0)
                for key, label, _ in lib.TABS
            ]
            holder = View(LINEAR, id=a.rid("manage_visible_tabs_holder"), children=boxes)
            return [View(SCROLL, id=a.rid("manage_visible_tabs_scroll_view"), children=[holder])]

        def ok() -> None:
            if chosen:  # the real dialog keeps at least one tab
                a.set_pref("show_tabs", [key for key, _, _ in lib.TABS if key in chosen])
                a.set_pref("last_used_view_pager_page", 0)

        self.show(w.alert(self, "", body, positive=("OK", ok), negative=("Cancel", lambda: None)))


class ExcludedFoldersActivity(Activity):
    name = ".activities.ExcludedFoldersActivity"
    app: MusicPlayerStore

    def content(self) -> View:
        rid = self.app.rid
        text = (
            "Excluding a folder will prevent the displaying of all audio files within. "
            "Files manually added to playlists will not be affected."
        )
        wrapper = View(
            RELATIVE,
            id=rid("excluded_folders_wrapper"),
            weight=1,
            children=[w.text(rid("excluded_folders_placeholder"), text, gravity="center", padding=24)],
        )
        bar = w.toolbar(self, "excluded_folders_toolbar", "Manage excluded folders", back=True)
        return w.screen(bar, [wrapper], id=rid("excluded_folders_coordinator"))
