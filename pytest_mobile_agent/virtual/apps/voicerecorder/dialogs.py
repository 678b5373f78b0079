"""Simple Voice Recorder's dialogs (rename, delete confirmation, the media provider's system
prompt) and its settings screen. Learned from Simple-Voice-Recorder's dialog_rename_recording.xml,
RenameRecordingDialog.kt, dialog_delete_confirmation.xml, DeleteConfirmationDialog.kt,
activity_settings.xml, SettingsActivity.kt, extensions/Activity.kt (trashSDK30Uris /
deleteSDK30Uris on Android 11+), and AOSP MediaProvider's permission prompt strings.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pytest_mobile_agent.virtual.apps.commons.customization import color_customization_rows
from pytest_mobile_agent.virtual.apps.commons.dates import date_time_format_dialog
from pytest_mobile_agent.virtual.apps.commons.settings import (
    language_name,
    settings_check,
    settings_link,
    settings_screen,
    settings_value,
)
from pytest_mobile_agent.virtual.ui import widgets as w
from pytest_mobile_agent.virtual.ui.app import Activity
from pytest_mobile_agent.virtual.ui.view import LINEAR, RELATIVE, View

if TYPE_CHECKING:
    from pytest_mobile_agent.virtual.apps.voicerecorder.main import MainActivity, VoiceRecorder

MEDIA_PROVIDER = "com.google.android.providers.media.module"
RENAME_FIELD = "rename_recording_title"
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
INVALID = set('/\\:*?"<>|')


def format_size(size: int) -> str:
    """commons Long.formatSize: 1024 steps, one decimal at most."""
    if size <= 0:
        return "0 B"
    units = ("B", "kB", "MB", "GB", "TB")
    i = 0
    value = float(size)
    while value >= 1024 and i < len(units) - 1:
        value /= 1024
        i += 1
    text = f"{value:,.1f}".rstrip("0").rstrip(".")
    return f"{text} {units[i]}"


def duration_text(seconds: int) -> str:
    h, rest = divmod(seconds, 3600)
    m, s = divmod(rest, 60)
    return f"{h:02d}:{m:02d}:{s:02d}" if h else f"{m:02d}:{s:02d}"


def _plural(n: int) -> str:
    return "1 recording" if n == 1 else f"{n} recordings"


def system_dialog(activity: Activity, action: str, count: int, on_allow):
    """MediaStore.createTrashRequest / createDeleteRequest: the media provider asks the user."""
    label = activity.app.label
    what = "this audio file" if count == 1 else f"{count} audio files"
    title = {
        "trash": f"Allow {label} to move {what} to trash?",
        "untrash": f"Allow {label} to move {what} out of trash?",
        "delete": f"Allow {label} to delete {what}?",
    }[action]
    body = [w.text("android:id/alertTitle", title, size=20, bold=True, padding=12)]
    dialog = w.alert(activity, "", body, positive=("Allow", on_allow), negative=("Deny", lambda: None))
    inner = dialog.build

    def build() -> View:
        root = inner()
        root.id = "android:id/parentPanel"  # a platform AlertDialog of another package
        return root

    dialog.build = build
    dialog.package = MEDIA_PROVIDER
    return dialog


def rename_dialog(activity: MainActivity, name: str):
    """RenameRecordingDialog: the name without its extension; the extension is kept."""
    app: VoiceRecorder = activity.app  # type: ignore[assignment]
    rid = app.rid
    stem, _, ext = name.rpartition(".")
    activity.texts[RENAME_FIELD] = stem
    holder: list = []

    def ok() -> None:
        text = activity.texts.get(RENAME_FIELD, "").strip()
        text = text.removesuffix(f".{ext}")
        new = f"{text}.{ext}"
        problem = ""
        if not text:
            problem = "Please enter a name"
        elif INVALID & set(text):
            problem = "The name contains invalid characters"
        elif new != name and app.device.fs.exists(f"/storage/emulated/0/Music/Recordings/{new}"):
            problem = "A file or folder with that name already exists"
        if problem:
            activity.toast(problem)
            activity.overlays.append(holder[0])
            return
        if new != name:
            app.rename(name, new)
        activity.focus, activity.wm.ime_shown = None, False

    def body() -> list[View]:
        field = View(
            LINEAR,
            id=rid("rename_recording_hint"),
            children=[w.edit(activity, RENAME_FIELD, hint="Title")],
        )
        return [View(LINEAR, id=rid("rename_recording_holder"), padding=8, children=[field])]

    holder.append(w.alert(activity, "Rename", body, positive=("OK", ok), negative=("Cancel", lambda: None)))
    w.focus(activity, RENAME_FIELD)
    return holder[0]


def delete_dialog(activity: MainActivity, names: list[str], trashed: bool):
    """DeleteConfirmationDialog (Player) or ConfirmationDialog (Recycle Bin), then the system prompt."""
    app: VoiceRecorder = activity.app  # type: ignore[assignment]
    rid = app.rid
    titles = {r["name"]: r["title"] for r in app.recordings(trashed)}
    items = f'"{titles.get(names[0], names[0])}"' if len(names) == 1 else _plural(len(names))
    use_bin = bool(app.pref("use_recycle_bin", True)) and not trashed
    state = {"skip": False}

    def confirmed() -> None:
        to_bin = use_bin and not state["skip"]
        act = (lambda: app.trash(names)) if to_bin else (lambda: app.delete(names))
        activity.show(system_dialog(activity, "trash" if to_bin else "delete", len(names), act))

    if trashed:
        body = [w.text(rid("message"), f"Delete {items}?", padding=12)]
        return w.alert(activity, "", body, positive=("Yes", confirmed), negative=("No", lambda: None))
    message = f"Are you sure you want to move {items} into the Recycle Bin?" if use_bin else f"Delete {items}?"

    def body() -> list[View]:
        kids = [w.text(rid("delete_remember_title"), message, padding=12)]
        if use_bin:
            label = "Skip the Recycle Bin, delete files directly"
            toggle = lambda: state.__setitem__("skip", not state["skip"])
            kids.append(w.checkbox(rid("skip_the_recycle_bin_checkbox"), label, state["skip"], toggle, padding=0))
        return [View(RELATIVE, id=rid("delete_remember_holder"), children=kids)]

    return w.alert(activity, "", body, positive=("Yes", confirmed), negative=("No", lambda: None))


class SettingsActivity(Activity):
    name = ".activities.SettingsActivity"

    @property
    def rec(self) -> VoiceRecorder:
        return self.app  # type: ignore[return-value]

    def _choice(self, name: str, label: str, options: tuple[str, ...], pref: str, values: tuple, default) -> View:
        """A value row opening a RadioGroupDialog (no title) that applies and closes on a tap."""
        a = self.app
        current = values.index(a.pref(pref, default)) if a.pref(pref, default) in values else 0

        def pick() -> None:
            self.show(w.radio_dialog(self, options, current, lambda i: a.set_pref(pref, values[i])))

        return settings_value(self, name, label, options[current], pick)

    def content(self) -> View:
        a = self.rec
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
        trashed = [r["name"] for r in self.rec.recordings(trashed=True)]
        if not trashed:
            self.toast("The Recycle Bin is empty")
            return
        message = "Are you sure you want to empty the Recycle Bin? The files will be permanently lost."

        def confirmed() -> None:
            self.show(system_dialog(self, "delete", len(trashed), lambda: self.rec.delete(trashed)))

        body = [w.text(self.app.rid("message"), message, padding=12)]
        self.show(w.alert(self, "", body, positive=("Yes", confirmed), negative=("No", lambda: None)))
