"""Simple File Manager Pro's dialogs (create, rename, properties, sort, view type) and the path and
date texts they share with the main screen.

Learned from Simple-File-Manager's dialog_create_new.xml / CreateNewItemDialog.kt,
dialog_change_sorting.xml / ChangeSortingDialog.kt, res/values/integers.xml (default sorting),
and Simple-Commons' RenameItemDialog (dialog_rename_item.xml), PropertiesDialog
(dialog_properties.xml, item_property.xml) and humanizePath.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from datetime import UTC, datetime
from functools import partial

from pytest_mobile_agent.virtual.apps.commons.dates import date_format, java_date, time_format
from pytest_mobile_agent.virtual.apps.commons.dialogs import validating_dialog
from pytest_mobile_agent.virtual.apps.commons.formats import format_size
from pytest_mobile_agent.virtual.apps.filemanager.store import (
    MAX_COLUMN_COUNT,
    ROOT,
    Item,
    column_count,
    extension,
    sorting,
    touch_now,
    tree_size,
    view_type,
)
from pytest_mobile_agent.virtual.ui import widgets as w
from pytest_mobile_agent.virtual.ui.app import Activity, App, Overlay
from pytest_mobile_agent.virtual.ui.view import LINEAR, RADIO_GROUP, VIEW, View

NO_APP = "No valid app found"
SORTS = (("name", "Name"), ("size", "Size"), ("last_modified", "Last modified"), ("extension", "Extension"))


def humanize(path: str) -> str:
    """commons humanizePath: the internal storage root reads "Internal"."""
    return "Internal" + path[len(ROOT) :] if path.startswith(ROOT) else path


def modified_text(app: App, mtime: float) -> str:
    when = datetime.fromtimestamp(mtime, UTC)
    return java_date(f"{date_format(app)}, {time_format(app)}", when)


def field(activity: Activity, hint_id: str, edit_id: str, hint: str, **kw) -> View:
    """A MyTextInputLayout (a LinearLayout) around a TextInputEditText."""
    return View(LINEAR, id=activity.app.rid(hint_id), children=[w.edit(activity, edit_id, hint=hint, **kw)])


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
                on_long_click=lambda: activity.toast("Value copied to clipboard"),
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


def view_type_dialog(activity: Activity, path: str, folder_check: bool, on_done: Callable[[], None]):
    """ChangeViewTypeDialog: Grid / List and, for a folder, "Use for this folder only"; applied on OK."""
    app = activity.app
    state = {"grid": view_type(app, path) == "grid", "folder": path.lower() in app.pref("folder_view_types", {})}

    def body() -> list[View]:
        radios = [
            w.radio(
                app.rid(f"change_view_type_dialog_radio_{k}"),
                label,
                state["grid"] == (k == "grid"),
                partial(state.update, grid=k == "grid"),
                focusable=False,
            )
            for k, label in (("grid", "Grid"), ("list", "List"))
        ]
        group = View(RADIO_GROUP, id=app.rid("change_view_type_dialog_radio"), children=radios)
        children = [group]
        if folder_check:
            children += [
                View(VIEW, id=app.rid("use_for_this_folder_divider"), height=1, kind="divider"),
                w.checkbox(
                    app.rid("change_view_type_dialog_use_for_this_folder"),
                    "Use for this folder only",
                    state["folder"],
                    lambda: state.update(folder=not state["folder"]),
                ),
            ]
        holder = View(LINEAR, id=app.rid("change_view_type_dialog_holder"), children=children)
        return [View(w.SCROLL, id=app.rid("change_view_type_dialog_scrollview"), children=[holder])]

    def ok() -> None:
        chosen = "grid" if state["grid"] else "list"
        folders = {k: v for k, v in app.pref("folder_view_types", {}).items() if k != path.lower()}
        if state["folder"]:
            folders[path.lower()] = chosen
        else:
            app.set_pref("view_type", chosen)
        app.set_pref("folder_view_types", folders)
        on_done()

    return w.alert(activity, "", body, positive=("OK", ok), negative=("Cancel", lambda: None))


def column_count_dialog(activity: Activity) -> Overlay:
    """The "Column count" RadioGroupDialog: 1 to 15 columns, the current one checked."""
    app = activity.app
    labels = [f"{n} column{'' if n == 1 else 's'}" for n in range(1, MAX_COLUMN_COUNT + 1)]
    return w.radio_dialog(activity, labels, column_count(app) - 1, lambda i: app.set_pref("file_column_cnt", i + 1))


def toggle_filenames(app: App) -> None:
    """ "Toggle filename visibility": file names under grid cells (Config.displayFilenames)."""
    app.set_pref("display_filenames", not app.pref("display_filenames", True))
