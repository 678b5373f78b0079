"""Simple Notes Pro's settings screen (activity_settings.xml, SettingsActivity.kt)."""

from __future__ import annotations

from pytest_mobile_agent.virtual.apps.commons.customization import color_customization_rows
from pytest_mobile_agent.virtual.apps.commons.settings import (
    language_name,
    settings_check,
    settings_link,
    settings_screen,
    settings_value,
)
from pytest_mobile_agent.virtual.apps.notes.store import NotesStore
from pytest_mobile_agent.virtual.ui import widgets as w
from pytest_mobile_agent.virtual.ui.app import Activity
from pytest_mobile_agent.virtual.ui.view import View

FONT_SIZES = ("50%", "60%", "75%", "90%", "100%", "125%", "150%", "175%", "200%", "250%", "300%")
GRAVITIES = ("Left", "Center", "Right")


class SettingsActivity(Activity):
    name = ".activities.SettingsActivity"
    app: NotesStore

    def content(self) -> View:
        a = self.app
        size = int(a.pref("font_size_percentage", 4))
        gravity = int(a.pref("gravity", 0))

        def choose(options: tuple[str, ...], pref: str, current: int):
            return lambda: self.show(w.radio_dialog(self, options, current, lambda i: a.set_pref(pref, i)))

        check = lambda name, label, pref, default: settings_check(self, name, label, pref, default)
        rows = [
            *color_customization_rows(self),
            w.section(self, "settings_general_settings_label", "General"),
            settings_value(self, "language", "Language", language_name(), lambda: self.toast("Language")),
            settings_value(
                self, "font_size", "Font size", FONT_SIZES[size], choose(FONT_SIZES, "font_size_percentage", size)
            ),
            w.section(self, "settings_text_label", "Text"),
            check("show_word_count", "Show word count", "show_word_count", False),
            check("clickable_links", "Make links and emails clickable", "clickable_links", False),
            check("monospaced_font", "Use monospaced font", "monospaced_font", False),
            check("use_incognito_mode", "Use Incognito mode of keyboards", "use_incognito_mode", False),
            check("enable_line_wrap", "Enable line wrap", "enable_line_wrap", True),
            settings_value(self, "gravity", "Alignment", GRAVITIES[gravity], choose(GRAVITIES, "gravity", gravity)),
            w.section(self, "settings_startup_label", "Startup"),
            check("cursor_placement", "Place cursor to the end of note", "cursor_placement", True),
            check("show_keyboard", "Show keyboard on startup", "show_keyboard", True),
        ]
        if len(a.notes) > 1:
            rows.append(check("show_note_picker", "Show a note picker on startup", "show_note_picker", False))
        rows += [
            w.section(self, "settings_saving_label", "Saving"),
            check("autosave_notes", "Autosave notes", "autosave_notes", True),
            check("display_success", "Display save success messages", "display_success", False),
            w.section(self, "settings_migrating_label", "Migrating"),
            settings_link(self, "export_notes", "Export notes", lambda: self.toast("No app found")),
            settings_link(self, "import_notes", "Import notes", lambda: self.toast("No app found")),
            w.section(self, "settings_backups_label", "Backups"),
            check("enable_automatic_backups", "Enable automatic backups", "enable_automatic_backups", False),
        ]
        if a.pref("enable_automatic_backups", False):
            rows.append(
                settings_link(
                    self,
                    "manage_automatic_backups",
                    "Manage automatic backups",
                    lambda: self.toast("Manage automatic backups"),
                    "settings_manage_automatic_backups",
                )
            )
        return settings_screen(self, rows)
