"""Simple Voice Recorder's settings screen (activity_settings.xml, SettingsActivity.kt)."""

from __future__ import annotations

from pytest_mobile_agent.virtual.apps.commons.customization import color_customization_rows
from pytest_mobile_agent.virtual.apps.commons.dates import date_time_format_dialog
from pytest_mobile_agent.virtual.apps.commons.formats import format_size
from pytest_mobile_agent.virtual.apps.commons.settings import (
    language_name,
    settings_check,
    settings_link,
    settings_screen,
    settings_value,
)
from pytest_mobile_agent.virtual.apps.voicerecorder.dialogs import system_dialog
from pytest_mobile_agent.virtual.apps.voicerecorder.store import VoiceRecorderStore
from pytest_mobile_agent.virtual.ui import widgets as w
from pytest_mobile_agent.virtual.ui.app import Activity
from pytest_mobile_agent.virtual.ui.view import View

BITRATES = (32, 64, 96, 128, 160, 192, 256, 320)
EXTENSIONS = ("m4a", "mp3", "ogg (Opus)")
AUDIO_SOURCES = (
    "Camera",
    "Android default",
    "Microphone",
    "Voice recognition",
    "Voice communication",
    "Unprocessed",
    "Voice performance",
)


class SettingsActivity(Activity):
    name = ".activities.SettingsActivity"
    app: VoiceRecorderStore

    def _choice(self, name: str, label: str, options: tuple[str, ...], pref: str, values: tuple, default) -> View:
        """A value row opening a RadioGroupDialog (no title) that applies and closes on a tap."""
        a = self.app
        current = values.index(a.pref(pref, default)) if a.pref(pref, default) in values else 0

        def pick() -> None:
            self.show(w.radio_dialog(self, options, current, lambda i: a.set_pref(pref, values[i])))

        return settings_value(self, name, label, options[current], pick)

    def content(self) -> View:
        a = self.app
        use_bin = bool(a.pref("use_recycle_bin", True))
        rows = [
            *color_customization_rows(self),
            w.section(self, "settings_general_settings_label", "General"),
            settings_value(self, "language", "Language", language_name(), lambda: self.toast("Language")),
            settings_link(
                self,
                "change_date_time_format",
                "Change date and time format",
                lambda: self.show(date_time_format_dialog(self)),
                "settings_change_date_time_format",
            ),
            settings_check(
                self, "hide_notification", "Try hiding the recording notification", "hide_notification", False
            ),
            settings_check(
                self,
                "record_after_launch",
                "Start recording automatically after launching the app",
                "record_after_launch",
                False,
            ),
            settings_value(
                self, "save_recordings", "Save recordings in", "Internal/Music/Recordings", self.pick_folder
            ),
            self._choice("extension", "Extension", EXTENSIONS, "extension", (0, 1, 2), 0),
            self._choice("audio_source", "Audio source", AUDIO_SOURCES, "audio_source", tuple(range(7)), 0),
            self._choice("bitrate", "Bitrate", tuple(f"{b} kbps" for b in BITRATES), "bitrate", BITRATES, 128),
            w.section(self, "settings_recycle_bin_label", "Recycle Bin"),
            settings_check(
                self, "use_recycle_bin", "Move items into the Recycle Bin instead of deleting", "use_recycle_bin", True
            ),
        ]
        if use_bin:
            size = format_size(sum(r["size"] for r in a.recordings(trashed=True)))
            rows.append(
                w.setting_choice(
                    self,
                    "settings_empty_recycle_bin_holder",
                    "settings_empty_recycle_bin_label",
                    "settings_empty_recycle_bin_size",
                    "Empty the Recycle Bin",
                    size,
                    self.empty_recycle_bin,
                )
            )
        return settings_screen(self, rows)

    def pick_folder(self) -> None:
        """commons FilePickerDialog, reduced to the current folder."""
        body = [w.text(self.app.rid("filepicker_breadcrumbs"), "Internal > Music > Recordings", padding=12)]
        self.show(
            w.alert(self, "Select a folder", body, positive=("OK", lambda: None), negative=("Cancel", lambda: None))
        )

    def empty_recycle_bin(self) -> None:
        trashed = [r["name"] for r in self.app.recordings(trashed=True)]
        if not trashed:
            self.toast("The Recycle Bin is empty")
            return
        message = "Are you sure you want to empty the Recycle Bin? The files will be permanently lost."

        def confirmed() -> None:
            self.show(system_dialog(self, "delete", len(trashed), lambda: self.app.delete(trashed)))

        body = [w.text(self.app.rid("message"), message, padding=12)]
        self.show(w.alert(self, "", body, positive=("Yes", confirmed), negative=("No", lambda: None)))
