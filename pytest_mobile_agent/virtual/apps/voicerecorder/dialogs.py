"""Simple Voice Recorder's dialogs: rename, the delete confirmation and the media provider's
system prompt.

Learned from Simple-Voice-Recorder's dialog_rename_recording.xml, RenameRecordingDialog.kt,
dialog_delete_confirmation.xml, DeleteConfirmationDialog.kt, extensions/Activity.kt
(trashSDK30Uris / deleteSDK30Uris on Android 11+), and AOSP MediaProvider's permission prompt strings.
"""

from __future__ import annotations

from pytest_mobile_agent.virtual.apps.voicerecorder.store import FOLDER, VoiceRecorderStore
from pytest_mobile_agent.virtual.ui import widgets as w
from pytest_mobile_agent.virtual.ui.app import Activity
from pytest_mobile_agent.virtual.ui.view import LINEAR, RELATIVE, View

MEDIA_PROVIDER = "com.google.android.providers.media.module"
RENAME_FIELD = "rename_recording_title"
INVALID = set('/\\:*?"<>|')


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


def rename_dialog(activity: Activity, app: VoiceRecorderStore, name: str):
    """RenameRecordingDialog: the name without its extension; the extension is kept."""
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
        elif new != name and app.device.fs.exists(f"{FOLDER}/{new}"):
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


def delete_dialog(activity: Activity, app: VoiceRecorderStore, names: list[str], trashed: bool):
    """DeleteConfirmationDialog (Player) or ConfirmationDialog (Recycle Bin), then the system prompt."""
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
        question = [w.text(rid("message"), f"Delete {items}?", padding=12)]
        return w.alert(activity, "", question, positive=("Yes", confirmed), negative=("No", lambda: None))
    message = f"Are you sure you want to move {items} into the Recycle Bin?" if use_bin else f"Delete {items}?"

    def body() -> list[View]:
        kids = [w.text(rid("delete_remember_title"), message, padding=12)]
        if use_bin:
            label = "Skip the Recycle Bin, delete files directly"
            toggle = lambda: state.__setitem__("skip", not state["skip"])
            kids.append(w.checkbox(rid("skip_the_recycle_bin_checkbox"), label, state["skip"], toggle, padding=0))
        return [View(RELATIVE, id=rid("delete_remember_holder"), children=kids)]

    return w.alert(activity, "", body, positive=("Yes", confirmed), negative=("No", lambda: None))
