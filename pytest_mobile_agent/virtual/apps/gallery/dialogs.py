"""Gallery's toolbar dialogs and what its folders and media screens share.

ChangeSortingDialog, FilterMediaDialog, ChangeViewTypeDialog, ChangeGroupingDialog, the column
count RadioGroupDialog and CreateNewFolderDialog, with the ids and texts of Simple-Gallery's
dialog_change_sorting.xml, dialog_filter_media.xml, dialog_change_view_type.xml,
dialog_change_grouping.xml and Simple-Commons' dialog_create_new_folder.xml. Choices apply on OK;
"Use for this folder only" stores a per-folder override. See docs/fidelity/gallery.md.
"""

from __future__ import annotations

import io
import os
from collections.abc import Callable
from typing import Any

from pytest_mobile_agent.virtual.apps.commons.action_mode import SelectionActivity
from pytest_mobile_agent.virtual.apps.gallery.store import (
    DEFAULT_FILTER,
    FAVORITES,
    GROUPINGS,
    RECYCLE_BIN,
    SHARED,
    SORT_KEYS,
    TYPES,
    GalleryStore,
)
from pytest_mobile_agent.virtual.ui import widgets as w
from pytest_mobile_agent.virtual.ui.app import Activity, App
from pytest_mobile_agent.virtual.ui.render.media import decode, edited
from pytest_mobile_agent.virtual.ui.view import LINEAR, RADIO_GROUP, SCROLL, View

MAX_COLUMN_COUNT = 20
SORT_LABELS = {
    "name": "Name",
    "path": "Path",
    "size": "Size",
    "last_modified": "Last modified",
    "date_taken": "Date taken",
    "random": "Random",
    "custom": "Custom",
}


# -- dialog building blocks: radios and checkboxes bound to a dialog's state dict --------------------
def _radio(app: App, id: str, label: str, state: dict[str, Any], key: str, value: object) -> View:
    return w.radio(app.rid(id), label, state[key] == value, lambda: state.__setitem__(key, value))


def _check(app: App, id: str, label: str, state: dict[str, Any], key: str) -> View:
    return w.checkbox(app.rid(id), label, bool(state[key]), lambda: state.__setitem__(key, not state[key]))


def _options(
    activity: Activity,
    title: str,
    scroll_id: str,
    holder_id: str,
    rows: Callable[[], list[View]],
    on_ok: Callable[[], None],
):
    """A dialog of option rows in ScrollView > LinearLayout, applied on OK."""
    app = activity.app

    def body() -> list[View]:
        holder = View(LINEAR, id=app.rid(holder_id) if holder_id else "", children=rows())
        return [View(SCROLL, id=app.rid(scroll_id) if scroll_id else "", children=[holder])]

    return w.alert(activity, title, body, positive=("OK", on_ok), negative=("Cancel", lambda: None))


def thumbnail(a: GalleryStore, id: str, path: str, fit: str = "", corners: float = 0, **kw: Any) -> View:
    """A medium's ImageView drawn from the file's pixels: cropped into a square unless "Crop
    thumbnails into squares" is off (loadImageBase's CenterCrop / FitCenter)."""
    fit = fit or ("crop" if a.pref("crop_thumbnails", True) else "fit")
    return w.media(a.rid(id), a.device.fs.host(path), fit, corners, **kw)


def save_as_dialog(activity: Activity, path: str, append: bool, on_save: Callable[[str], None]) -> None:
    """SaveAsDialog: the folder ("Internal/…/"), the file name (with "_1" appended when
    `append`) and its extension; OK checks them, asks before overwriting, then `on_save(path)`."""
    a = activity.app
    folder, _, file_name = path.rpartition("/")
    stem, dot, ext = file_name.rpartition(".")
    stem = stem if dot else file_name
    activity.texts["filename_value"] = f"{stem}_1" if append else stem
    activity.texts["extension_value"] = ext if dot else ""
    shown_folder = "Internal" + folder.removeprefix(a.device.fs.normalize("/sdcard"))

    def body() -> list[View]:
        fields = [
            View(LINEAR, id=a.rid("folder_hint"), children=[w.text(a.rid("folder_value"), f"{shown_folder}/")]),
            View(LINEAR, id=a.rid("filename_hint"), children=[w.edit(activity, "filename_value", hint="Filename")]),
            View(LINEAR, id=a.rid("extension_hint"), children=[w.edit(activity, "extension_value", hint="Extension")]),
        ]
        return [View(LINEAR, id=a.rid("save_as_holder"), padding=8, children=fields)]

    def ok() -> None:
        name = activity.texts.get("filename_value", "").strip()
        extension = activity.texts.get("extension_value", "").strip()
        if not name:
            activity.toast("Filename cannot be empty")
            return
        if not extension:
            activity.toast("Extension cannot be empty")
            return
        if "/" in name or "/" in extension:
            activity.toast("Filename contains invalid characters")
            return
        target = f"{folder}/{name}.{extension}"
        if a.device.fs.exists(target):
            message = f'File "{name}.{extension}" already exists. Overwrite?'
            activity.show(w.confirm_dialog(activity, message, lambda: on_save(target)))
            return
        on_save(target)

    activity.show(w.alert(activity, "Save as", body, positive=("OK", ok), negative=("Cancel", lambda: None)))
    w.focus(activity, "filename_value")


def write_picture(activity: Activity, source: str, target: str, edits: tuple[str, ...]) -> bool:
    """The editor's and the viewer's save: the source decoded upright, `edits` applied, compressed
    by the target's extension (getCompressionFormat) at quality 90; overwriting the source keeps
    its last-modified time (fileRotatedSuccessfully). "Saving…", then "File saved successfully"."""
    fs = activity.app.device.fs
    picture = decode(str(fs.host(source)))
    if picture is None:
        activity.toast("Image editing failed")
        return False
    kept = fs.host(source).stat().st_mtime_ns if fs.normalize(source) == fs.normalize(target) else None
    fmt = {"png": "PNG", "webp": "WEBP"}.get(target.rsplit(".", 1)[-1].lower(), "JPEG")
    buf = io.BytesIO()
    edited(picture, edits).save(buf, fmt, quality=90)
    activity.toast("Saving…")
    fs.write(target, buf.getvalue())  # written now: the folder's newest medium, unless kept
    if kept is not None:
        os.utime(fs.host(target), ns=(kept, kept))
    activity.toast("File saved successfully")
    return True


class GalleryScreen(SelectionActivity):
    """What the folders screen and a folder's media screen share: menus, dialogs, selection."""

    app: GalleryStore
    directory: str | None = None  # None on the folders screen

    def __init__(self, app: App, extras: dict[str, str] | None = None) -> None:
        super().__init__(app, extras)
        self.selected: list[str] = []

    def toggle(self, key: str) -> None:
        if key in self.selected:
            self.selected.remove(key)
        else:
            self.selected.append(key)

    # -- dialogs -----------------------------------------------------------------------------
    def sort_dialog(self) -> None:
        """ChangeSortingDialog: Custom only for folders, order gone for Random/Custom, numeric
        sorting only for Name/Path, "Use for this folder only" inside a folder."""
        a, folder = self.app, self.directory
        current = a.sorting(folder)
        own = folder is not None and folder in a.pref("folder_sorting", {})
        state = {"by": current["by"], "desc": current["desc"], "numeric": current.get("numeric", True), "own": own}
        keys = SORT_KEYS if folder is None else SORT_KEYS[:-1]

        def rows() -> list[View]:
            sorting = [_radio(a, f"sorting_dialog_radio_{k}", SORT_LABELS[k], state, "by", k) for k in keys]
            views = [
                View(RADIO_GROUP, id=a.rid("sorting_dialog_radio_sorting"), children=sorting),
                w.image(a.rid("sorting_dialog_sorting_divider"), height=1, kind="divider"),
            ]
            if state["by"] not in ("random", "custom"):
                views += [
                    View(
                        RADIO_GROUP,
                        id=a.rid("sorting_dialog_radio_order"),
                        children=[
                            _radio(a, "sorting_dialog_radio_ascending", "Ascending", state, "desc", False),
                            _radio(a, "sorting_dialog_radio_descending", "Descending", state, "desc", True),
                        ],
                    ),
                    w.image(a.rid("sorting_dialog_order_divider"), height=1, kind="divider"),
                ]
            if state["by"] in ("name", "path"):
                views.append(
                    _check(a, "sorting_dialog_numeric_sorting", "Sort numeric parts by actual value", state, "numeric")
                )
            if folder is not None:
                views += [
                    _check(a, "sorting_dialog_use_for_this_folder", "Use for this folder only", state, "own"),
                    w.text(
                        a.rid("sorting_dialog_bottom_note"),
                        "Please note that grouping and sorting are 2 independent fields",
                        size=14,
                    ),
                ]
            return views

        def ok() -> None:
            value = {"by": state["by"], "desc": bool(state["desc"]), "numeric": bool(state["numeric"])}
            a.set_sorting(folder, value, bool(state["own"]))

        self.show(_options(self, "Sort by", "sorting_dialog_scrollview", "sorting_dialog_holder", rows, ok))

    def filter_dialog(self) -> None:
        a = self.app
        mask = int(a.pref("filter_media", DEFAULT_FILTER))
        state = {name: bool(mask & bit) for name, _, bit, _ in TYPES}

        def rows() -> list[View]:
            return [_check(a, f"filter_media_{name}", label, state, name) for name, label, _, _ in TYPES]

        def ok() -> None:
            value = sum(bit for name, _, bit, _ in TYPES if state[name])
            a.set_pref("filter_media", value or DEFAULT_FILTER)  # nothing checked restores the default

        self.show(_options(self, "Filter media", "", "filter_media_dialog_holder", rows, ok))

    def view_type(self) -> str:
        if self.directory is None:
            return self.app.pref("view_type_folders", "grid")
        own = self.app.pref("folder_view_type", {}).get(self.directory)
        return own or self.app.pref("view_type_files", "grid")

    def view_type_dialog(self) -> None:
        a, folder = self.app, self.directory
        state = {
            "type": self.view_type(),
            "group": bool(a.pref("group_direct_subfolders", False)),
            "own": folder is not None and folder in a.pref("folder_view_type", {}),
        }

        def rows() -> list[View]:
            views = [
                View(
                    RADIO_GROUP,
                    id=a.rid("change_view_type_dialog_radio"),
                    children=[
                        _radio(a, "change_view_type_dialog_radio_grid", "Grid", state, "type", "grid"),
                        _radio(a, "change_view_type_dialog_radio_list", "List", state, "type", "list"),
                    ],
                ),
                w.image(a.rid("group_direct_subfolders_divider"), height=1, kind="divider"),
            ]
            if folder is None:
                views.append(
                    _check(
                        a, "change_view_type_dialog_group_direct_subfolders", "Group direct subfolders", state, "group"
                    )
                )
            else:
                views.append(
                    _check(a, "change_view_type_dialog_use_for_this_folder", "Use for this folder only", state, "own")
                )
            return views

        def ok() -> None:
            if folder is None:
                a.set_pref("view_type_folders", state["type"])
                a.set_pref("group_direct_subfolders", bool(state["group"]))
                return
            own = dict(a.pref("folder_view_type", {}))
            own.pop(folder, None)
            if state["own"]:
                own[folder] = state["type"]
            else:
                a.set_pref("view_type_files", state["type"])
            a.set_pref("folder_view_type", own)

        self.show(_options(self, "", "change_view_type_dialog_scrollview", "change_view_type_dialog_holder", rows, ok))

    def group_dialog(self) -> None:
        a, folder = self.app, self.directory or ""
        current = a.grouping(folder)
        state = {
            "by": current["by"],
            "desc": current["desc"],
            "count": current.get("show_count", False),
            "own": folder in a.pref("folder_grouping", {}),
        }
        options = [g for g in GROUPINGS if g[0] != "folder" or not folder]  # "Folder" only in show-all

        def rows() -> list[View]:
            return [
                View(
                    RADIO_GROUP,
                    id=a.rid("grouping_dialog_radio_grouping"),
                    children=[
                        _radio(a, f"grouping_dialog_radio_{key}", label, state, "by", key) for key, label in options
                    ],
                ),
                View(
                    RADIO_GROUP,
                    id=a.rid("grouping_dialog_radio_order"),
                    children=[
                        _radio(a, "grouping_dialog_radio_ascending", "Ascending", state, "desc", False),
                        _radio(a, "grouping_dialog_radio_descending", "Descending", state, "desc", True),
                    ],
                ),
                _check(a, "grouping_dialog_show_file_count", "Show file count at section headers", state, "count"),
                _check(a, "grouping_dialog_use_for_this_folder", "Use for this folder only", state, "own"),
                w.text(
                    a.rid("grouping_dialog_bottom_note"),
                    "Please note that grouping and sorting are 2 independent fields",
                    size=14,
                ),
            ]

        def ok() -> None:
            value = {"by": state["by"], "desc": bool(state["desc"]), "show_count": bool(state["count"])}
            a.set_grouping(folder, value, bool(state["own"]))

        self.show(_options(self, "Group by", "grouping_dialog_scrollview", "grouping_dialog_holder", rows, ok))

    def column_count_dialog(self) -> None:
        pref, default = ("dir_column_count", 2) if self.directory is None else ("media_column_count", 3)
        current = int(self.app.pref(pref, default))
        labels = [f"{n} column" if n == 1 else f"{n} columns" for n in range(1, MAX_COLUMN_COUNT + 1)]
        self.show(w.radio_dialog(self, labels, current - 1, lambda i: self.app.set_pref(pref, i + 1)))

    def create_folder_dialog(self) -> None:
        """CreateNewFolderDialog (after picking the parent, here the storage root)."""
        a = self.app
        parent = SHARED if self.directory in (None, "", FAVORITES, RECYCLE_BIN) else self.directory
        self.texts["folder_name"] = ""

        def body() -> list[View]:
            path = View(
                LINEAR,
                id=a.rid("folder_path_hint"),
                children=[w.text(a.rid("folder_path"), parent.replace(SHARED, "Internal") + "/", padding=8)],
            )
            name = View(LINEAR, id=a.rid("folder_name_hint"), children=[w.edit(self, "folder_name", hint="Title")])
            return [View(LINEAR, id=a.rid("dialog_holder"), padding=8, children=[path, name])]

        def ok() -> None:
            self.focus = None
            name = self.texts.get("folder_name", "").strip()
            if not name:
                self.toast("Empty name")
                return
            a.device.fs.host(f"{parent}/{name}").mkdir(parents=True, exist_ok=True)
            self.open_folder(f"{parent}/{name}")

        self.show(w.alert(self, "Create new folder", body, positive=("OK", ok), negative=("Cancel", lambda: None)))
        w.focus(self, "folder_name")

    # -- the shared overflow rows --------------------------------------------------------------
    def hidden_items(self) -> list[w.MenuItem]:
        a = self.app
        if a.temp_show_hidden:
            return [("stop_showing_hidden", "Stop showing hidden media", lambda: a.set_temp("temp_show_hidden", False))]
        if a.pref("show_hidden_media", False):
            return []
        return [("temporarily_show_hidden", "Temporarily show hidden", lambda: a.set_temp("temp_show_hidden", True))]

    def open_folder(self, path: str) -> None:
        raise NotImplementedError
