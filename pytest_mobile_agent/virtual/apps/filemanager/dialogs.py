"""Simple File Manager Pro: files on shared storage, its dialogs, the text editor and settings.

Learned from Simple-File-Manager's dialog_create_new.xml / CreateNewItemDialog.kt,
dialog_change_sorting.xml / ChangeSortingDialog.kt, ItemsAdapter.kt (delete, hide, copy path),
activity_read_text.xml / menu_editor.xml, activity_settings.xml / SettingsActivity.kt and
res/values/integers.xml (default sorting), and Simple-Commons' RenameItemDialog
(dialog_rename_item.xml), PropertiesDialog (dialog_properties.xml, item_property.xml),
ConfirmationAdvancedDialog, FileDirItem (sorting, sizes), Long.formatSize and humanizePath.
The main screen is in filemanager.py. Files are real files under the device's /sdcard.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from pytest_mobile_agent.virtual.apps.commons.customization import CustomizationActivity
from pytest_mobile_agent.virtual.apps.commons.dates import date_format, date_time_format_dialog, java_date, time_format
from pytest_mobile_agent.virtual.apps.commons.dialogs import keyboard_dialog
from pytest_mobile_agent.virtual.apps.commons.formats import format_size
from pytest_mobile_agent.virtual.apps.commons.menus import split_menu
from pytest_mobile_agent.virtual.apps.commons.security import security_dialog
from pytest_mobile_agent.virtual.apps.commons.settings import (
    language_name,
    settings_check,
    settings_link,
    settings_screen,
    settings_section,
    settings_value,
)
from pytest_mobile_agent.virtual.core.fs import FileSystem
from pytest_mobile_agent.virtual.ui import widgets as w
from pytest_mobile_agent.virtual.ui.app import Activity, App
from pytest_mobile_agent.virtual.ui.view import EDIT, IMAGE, LINEAR, RADIO_GROUP, RELATIVE, View

ROOT = "/storage/emulated/0"
NO_APP = "No valid app found"
SORTS = (("name", "Name"), ("size", "Size"), ("last_modified", "Last modified"), ("extension", "Extension"))
TEXT_EXTENSIONS = {"txt", "md", "json", "xml", "csv", "log", "html", "htm", "ini", "conf", "yml", "yaml", "kt", "py"}
KINDS = {
    "images": {"jpg", "jpeg", "png", "gif", "bmp", "webp", "heic", "heif", "svg", "tif", "tiff", "dng"},
    "videos": {"mp4", "mkv", "webm", "avi", "mov", "3gp", "wmv", "flv", "m4v", "mpg", "mpeg", "ts"},
    "audio": {"mp3", "m4a", "wav", "ogg", "flac", "aac", "amr", "opus", "mid", "midi", "wma"},
    "documents": {
        "txt",
        "pdf",
        "doc",
        "docx",
        "xls",
        "xlsx",
        "ppt",
        "pptx",
        "odt",
        "ods",
        "odp",
        "rtf",
        "csv",
        "md",
        "epub",
        "json",
        "xml",
        "html",
    },
    "archives": {"zip", "rar", "7z", "tar", "gz", "bz2", "xz", "apk", "tgz"},
}


# -- files ----------------------------------------------------------------------------------


def humanize(path: str) -> str:
    """commons humanizePath: the internal storage root reads "Internal"."""
    return "Internal" + path[len(ROOT) :] if path.startswith(ROOT) else path


def extension(name: str) -> str:
    return name.rsplit(".", 1)[1].lower() if "." in name.strip(".") else ""


def natural_key(name: str) -> list:
    """AlphanumericComparator: digit runs compare by value."""
    return [(0, int(part), "") if part.isdigit() else (1, 0, part) for part in re.split(r"(\d+)", name.lower()) if part]


@dataclass
class Item:
    path: str  # device path
    host: Path
    is_dir: bool
    size: int
    mtime: float
    children: int

    @property
    def name(self) -> str:
        return self.path.rsplit("/", 1)[1]


def tree_size(host: Path, hidden: bool) -> tuple[int, int]:
    """(bytes, files) under a folder, as FileDirItem.getProperSize / getProperFileCount."""
    size = files = 0
    for p in host.rglob("*"):
        if not hidden and any(part.startswith(".") for part in p.relative_to(host).parts):
            continue
        if p.is_file():
            size += p.stat().st_size
            files += 1
    return size, files


def item(fs: FileSystem, path: str, hidden: bool, deep_size: bool = False) -> Item:
    host = fs.host(path)
    st = host.stat()
    if host.is_dir():
        kids = [c for c in host.iterdir() if hidden or not c.name.startswith(".")]
        size = tree_size(host, hidden)[0] if deep_size else 0
        return Item(path, host, True, size, st.st_mtime, len(kids))
    return Item(path, host, False, st.st_size, st.st_mtime, 0)


def list_dir(app: App, path: str, hidden: bool) -> list[Item]:
    fs = app.device.fs
    host = fs.host(path)
    if not host.is_dir():
        return []
    sort = sorting(app, path)
    names = [c.name for c in host.iterdir() if hidden or not c.name.startswith(".")]
    items = [item(fs, f"{path}/{n}", hidden, sort["by"] == "size") for n in names]
    return sort_items(items, sort)


def sorting(app: App, path: str) -> dict:
    """The folder's own sorting if "Use for this folder only" was set, else the global one."""
    return app.pref("folder_sorting", {}).get(path) or app.pref(
        "sorting", {"by": "name", "desc": False, "numeric": True}
    )


def sort_items(items: list[Item], sort: dict) -> list[Item]:
    """FileDirItem.compareTo: folders first, then by the chosen key (descending reverses it)."""
    by = sort["by"]

    def key(i: Item) -> object:
        if by == "size":
            return i.size
        if by == "last_modified":
            return i.mtime
        if by == "extension":
            return (extension(i.name), i.name.lower())
        return natural_key(i.name) if sort.get("numeric", True) else i.name.lower()

    out: list[Item] = []
    for group in ([i for i in items if i.is_dir], [i for i in items if not i.is_dir]):
        out += sorted(group, key=key, reverse=bool(sort["desc"]))
    return out


def modified_text(app: App, mtime: float) -> str:
    when = datetime.fromtimestamp(mtime, UTC)
    return java_date(f"{date_format(app)}, {time_format(app)}", when)


def touch_now(app: App, host: Path) -> None:
    """Files the app makes carry the device clock's time, so listings are deterministic."""
    now = app.device.clock.now().timestamp()
    os.utime(host, (now, now))


# -- dialogs --------------------------------------------------------------------------------
def field(activity: Activity, hint_id: str, edit_id: str, hint: str, **kw) -> View:
    """A MyTextInputLayout (a LinearLayout) around a TextInputEditText."""
    return View(LINEAR, id=activity.app.rid(hint_id), children=[w.edit(activity, edit_id, hint=hint, **kw)])


def validating_dialog(activity: Activity, title: str, body: Callable[[], list[View]], ok: Callable[[], bool]):
    """An OK/Cancel dialog with a text field whose OK checks first: it closes only when `ok`
    returns True (the real dialogs toast the problem and stay)."""
    dialog = w.alert(activity, title, body, positive=("OK", lambda: None), negative=("Cancel", lambda: None))
    build = dialog.build

    def checked() -> View:
        root = build()
        for v in root.walk():
            if v.id == "android:id/button1":
                v.on_click = lambda: ok() and activity.dismiss(dialog)
        return root

    dialog.build = checked
    return keyboard_dialog(activity, dialog)


def create_dialog(activity: Activity, folder: str, on_done: Callable[[], None]):
    """CreateNewItemDialog: a name, Folder (default) or File; OK creates it in `folder`."""
    app, key = activity.app, "item_title"
    state = {"file": False}
    activity.texts[key] = ""
    w.focus(activity, key)

    def radio(rid: str, label: str, is_file: bool) -> View:
        return w.radio(app.rid(rid), label, state["file"] == is_file, lambda: state.update(file=is_file))

    def body() -> list[View]:
        group = View(
            RADIO_GROUP,
            id=app.rid("dialog_radio_group"),
            children=[radio("dialog_radio_directory", "Folder", False), radio("dialog_radio_file", "File", True)],
        )
        return [
            View(
                LINEAR,
                id=app.rid("dialog_holder"),
                padding=8,
                children=[field(activity, "item_title_hint", key, "Title"), group],
            )
        ]

    def ok() -> bool:
        name = activity.texts.get(key, "")
        target = app.device.fs.host(f"{folder}/{name}")
        problem = (
            "Please enter a name"
            if not name
            else "The name contains invalid characters"
            if "/" in name or name in (".", "..")
            else "A file or folder with that name already exists"
            if target.exists()
            else ""
        )
        if problem:
            activity.toast(problem)
            return False
        if state["file"]:
            target.touch()
        else:
            target.mkdir(parents=True)
        touch_now(app, target)
        on_done()
        return True

    return validating_dialog(activity, "Create new", body, ok)


def rename_dialog(activity: Activity, target: Item, on_done: Callable[[str], None]):
    """RenameItemDialog: the name without its extension, and the extension (files only)."""
    app = activity.app
    name = target.name
    ext = "" if target.is_dir else extension(name) and name.rsplit(".", 1)[1]
    base = name[: -len(ext) - 1] if ext else name
    activity.texts["rename_item_name"], activity.texts["rename_item_extension"] = base, ext
    w.focus(activity, "rename_item_name")

    def body() -> list[View]:
        children = [field(activity, "rename_item_title_hint", "rename_item_name", "Title")]
        if ext or not target.is_dir and "." in name:
            children.append(field(activity, "rename_item_extension_hint", "rename_item_extension", "Extension"))
        return [View(LINEAR, id=app.rid("rename_item_holder"), padding=8, children=children)]

    def ok() -> bool:
        new_base = activity.texts.get("rename_item_name", "").strip()
        new_ext = activity.texts.get("rename_item_extension", "").strip()
        new_name = f"{new_base}.{new_ext}" if new_ext else new_base
        parent = target.path.rsplit("/", 1)[0]
        dest = app.device.fs.host(f"{parent}/{new_name}")
        problem = (
            "Filename cannot be empty"
            if not new_base
            else "Filename contains invalid characters"
            if "/" in new_name
            else "A file or folder with that name already exists"
            if new_name != name and dest.exists()
            else ""
        )
        if problem:
            activity.toast(problem)
            return False
        target.host.rename(dest)
        on_done(f"{parent}/{new_name}")
        return True

    return validating_dialog(activity, "Rename", body, ok)


def properties_dialog(activity: Activity, items: list[Item], hidden: bool):
    """PropertiesDialog: label/value rows; one file adds Last modified and MD5."""
    app = activity.app
    rows: list[tuple[str, str, str]] = []  # (row id, label, value)
    if len(items) == 1:
        it = items[0]
        rows += [("", "Name", it.name), ("", "Path", it.path.rsplit("/", 1)[0])]
        if it.is_dir:
            size, files = tree_size(it.host, hidden)
            rows += [
                ("properties_size", "Size", format_size(size)),
                ("properties_direct_children_count", "Direct children count", str(it.children)),
                ("properties_file_count", "Total files count", str(files)),
                ("", "Last modified", modified_text(app, it.mtime)),
            ]
        else:
            rows += [
                ("properties_size", "Size", format_size(it.size)),
                ("properties_last_modified", "Last modified", modified_text(app, it.mtime)),
                ("properties_md5", "MD5", hashlib.md5(it.host.read_bytes()).hexdigest()),
            ]
    else:
        rows.append(("", "Items selected", str(len(items))))
        parents = {i.path.rsplit("/", 1)[0] for i in items}
        if len(parents) == 1:
            rows.append(("", "Path", parents.pop()))
        totals = [tree_size(i.host, hidden) if i.is_dir else (i.size, 1) for i in items]
        rows += [
            ("properties_size", "Size", format_size(sum(s for s, _ in totals))),
            ("properties_file_count", "Total files count", str(sum(n for _, n in totals))),
        ]

    def body() -> list[View]:
        views = [
            View(
                LINEAR,
                id=app.rid(rid or "property_holder"),
                long_clickable=True,
                padding=6,
                on_long_click=lambda v=value: activity.toast("Value copied to clipboard"),
                children=[
                    w.text(app.rid("property_label"), label, size=14, bold=True),
                    w.text(app.rid("property_value"), value, size=16),
                ],
            )
            for rid, label, value in rows
        ]
        holder = View(LINEAR, id=app.rid("properties_holder"), children=views)
        return [View(w.SCROLL, id=app.rid("properties_scrollview"), children=[holder])]

    return w.alert(activity, "Properties", body, positive=("OK", lambda: None))


def sort_dialog(activity: Activity, path: str, on_done: Callable[[], None]):
    """ChangeSortingDialog with the numeric-sorting and "Use for this folder only" checkboxes."""
    app = activity.app
    current = sorting(app, path)
    extra = {"numeric": bool(current.get("numeric", True)), "folder": path in app.pref("folder_sorting", {})}

    def ok(by: str, desc: bool) -> None:
        value = {"by": by, "desc": desc, "numeric": extra["numeric"]}
        folders = dict(app.pref("folder_sorting", {}))
        if extra["folder"]:
            folders[path] = value
        else:
            folders.pop(path, None)
            app.set_pref("sorting", value)
        app.set_pref("folder_sorting", folders)
        on_done()

    dialog = w.sort_dialog(activity, SORTS, current["by"], bool(current["desc"]), ok)
    build = dialog.build

    def box(rid: str, label: str, key: str) -> View:
        return w.checkbox(app.rid(rid), label, extra[key], lambda: extra.update({key: not extra[key]}))

    def with_boxes() -> View:
        root = build()
        holder = next(v for v in root.walk() if v.id == app.rid("sorting_dialog_holder"))
        name = next(v for v in root.walk() if v.id == app.rid("sorting_dialog_radio_name"))
        if name.checked:
            holder.children.append(
                box("sorting_dialog_numeric_sorting", "Sort numeric parts by actual value", "numeric")
            )
        holder.children.append(box("sorting_dialog_use_for_this_folder", "Use for this folder only", "folder"))
        return root

    dialog.build = with_boxes
    return dialog


def view_type_dialog(activity: Activity, on_done: Callable[[], None]):
    """ChangeViewTypeDialog: Grid / List, applied on OK (the list layout is what is modelled)."""
    app = activity.app
    state = {"grid": app.pref("view_type", "list") == "grid"}

    def body() -> list[View]:
        radios = [
            w.radio(
                app.rid(f"change_view_type_dialog_radio_{k}"),
                label,
                state["grid"] == (k == "grid"),
                lambda g=k == "grid": state.update(grid=g),
                focusable=False,
            )
            for k, label in (("grid", "Grid"), ("list", "List"))
        ]
        group = View(RADIO_GROUP, id=app.rid("change_view_type_dialog_radio"), children=radios)
        holder = View(LINEAR, id=app.rid("change_view_type_dialog_holder"), children=[group])
        return [View(w.SCROLL, id=app.rid("change_view_type_dialog_scrollview"), children=[holder])]

    def ok() -> None:
        app.set_pref("view_type", "grid" if state["grid"] else "list")
        on_done()

    return w.alert(activity, "", body, positive=("OK", ok), negative=("Cancel", lambda: None))


# -- the text editor ------------------------------------------------------------------------
class ReadTextActivity(Activity):
    """The "File editor": text files open here, as the app handles text/* views itself."""

    name = ".activities.ReadTextActivity"

    def __init__(self, app: App, extras: dict[str, str] | None = None) -> None:
        super().__init__(app, extras)
        self.path = self.extras.get("path", "")
        host = app.device.fs.host(self.path)
        self.texts["read_text_view"] = host.read_text(errors="replace") if host.is_file() else ""

    def save(self) -> None:
        self.app.device.fs.write(self.path, self.texts.get("read_text_view", "").encode())
        self.toast("File saved successfully")

    def content(self) -> View:
        a = self.app
        actions, overflow = split_menu(
            [
                ("menu_search", "Search", "search", lambda: None, "always"),
                ("menu_save", "Save as", "check", self.save, "always"),
                ("menu_print", "Print", "file", lambda: None, "always"),
                ("menu_open_with", "Open with", "", lambda: self.toast(NO_APP), "never"),
            ]
        )
        bar = w.toolbar(
            self, "read_text_toolbar", self.path.rsplit("/", 1)[-1], actions=actions, overflow=overflow, back=True
        )
        text = View(
            EDIT,
            id=a.rid("read_text_view"),
            key="read_text_view",
            text=self.texts["read_text_view"],
            kind="edit",
            focusable=True,
            clickable=True,
            long_clickable=True,
            gravity="start",
        )
        holder = w.scroll(a.rid("read_text_holder"), [text], cls="androidx.core.widget.NestedScrollView")
        wrapper = View(LINEAR, id=a.rid("read_text_wrapper"), weight=1, children=[holder])
        return w.screen(bar, [wrapper], id=a.rid("read_text_coordinator"))


class FavoritesActivity(Activity):
    """Manage favorites: the favourite folders, each with a menu to remove it."""

    name = ".activities.FavoritesActivity"

    def remove(self, path: str) -> None:
        self.app.set_pref("favorites", [f for f in self.app.pref("favorites", []) if f != path])

    def content(self) -> View:
        a = self.app
        rows = [
            View(
                RELATIVE,
                id=a.rid("manage_favorite_holder"),
                orientation="h",
                kind="row",
                padding=8,
                children=[
                    w.text(a.rid("manage_favorite_title"), path, weight=1),
                    w.icon_button(
                        a.rid("overflow_menu_icon"),
                        "",
                        "more",
                        lambda p=path: self.show(w.popup_menu(self, [("remove", "Remove", lambda: self.remove(p))])),
                        cls=IMAGE,
                    ),
                ],
            )
            for path in sorted(a.pref("favorites", []))
        ]
        children = [w.scroll(a.rid("manage_favorites_list"), rows, cls="androidx.recyclerview.widget.RecyclerView")]
        if not rows:
            text = "You can add frequently used folders to favorites for easy access from anywhere."
            children = [
                w.text(a.rid("manage_favorites_placeholder"), text, padding=16, gravity="center"),
                w.text(
                    a.rid("manage_favorites_placeholder_2"),
                    "Add favorites",
                    padding=8,
                    gravity="center",
                    clickable=True,
                    on_click=lambda: None,
                ),
                *children,
            ]
        actions = [("add_favorite", "Add favorites", "add", lambda: None)]
        bar = w.toolbar(self, "manage_favorites_toolbar", "Favorites", actions=actions, back=True)
        holder = View(RELATIVE, id=a.rid("manage_favorites_holder"), weight=1, children=children)
        return w.screen(bar, [holder], id=a.rid("manage_favorites_coordinator"))


# -- settings -------------------------------------------------------------------------------
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
                    lambda n=n: shown.symmetric_difference_update({n}),
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


def delete_paths(app: App, items: list[Item]) -> None:
    for it in items:
        if it.is_dir:
            shutil.rmtree(it.host, ignore_errors=True)
        else:
            it.host.unlink(missing_ok=True)
    app.device.changed()


ACTIVITIES: tuple[type[Activity], ...] = (ReadTextActivity, SettingsActivity, FavoritesActivity, CustomizationActivity)
