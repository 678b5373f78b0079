"""Simple Notes Pro's dialogs (new, rename, delete, open note, checklist items, sorting, add to
note) and NotesScreen, what they need of the screen that shows them.

Learned from Simple-Notes' dialog_new_note.xml, dialog_rename_note.xml, dialog_delete_note.xml,
dialog_new_checklist_item.xml, item_add_checklist.xml, dialog_open_note.xml, open_note_item.xml,
dialog_sort_checklist.xml and the dialogs' Kotlin.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from pytest_mobile_agent.virtual.apps.notes.store import NotesStore
from pytest_mobile_agent.virtual.ui import widgets as w
from pytest_mobile_agent.virtual.ui.app import Activity
from pytest_mobile_agent.virtual.ui.view import (
    CHECKBOX,
    IMAGE,
    IMAGE_BUTTON,
    LINEAR,
    RADIO_GROUP,
    RECYCLER,
    SCROLL,
    VIEW_GROUP,
    View,
)

TITLE_FIELD = "locked_note_title"


class NotesScreen(Activity):
    """What the dialogs need of the screen that shows them: the notes, and `go_to` a note (the
    main screen pages to it)."""

    app: NotesStore
    checked: list[int]  # checklist item ids in the action mode

    def go_to(self, note_id: int) -> None:
        raise NotImplementedError


def _title_dialog(activity: NotesScreen, title: str, hint: str, on_ok, extra=None, positive: str = "OK"):
    """A dialog with the `note_title_hint` > `locked_note_title` field that stays open on a bad title."""
    rid = activity.app.rid
    holder: list = []

    def ok() -> None:
        if not on_ok(activity.texts.get(TITLE_FIELD, "").strip()):
            activity.overlays.append(holder[0])  # a toast explains; the dialog stays

    def body() -> list[View]:
        edit = w.edit(activity, TITLE_FIELD, hint=hint)
        field = View(LINEAR, id=rid("note_title_hint"), children=[edit])
        return [View(LINEAR, id=rid("dialog_holder"), padding=8, children=[field, *(extra() if extra else [])])]

    holder.append(w.alert(activity, title, body, positive=(positive, ok), negative=("Cancel", lambda: None)))
    w.focus(activity, TITLE_FIELD)
    return holder[0]


def new_note_dialog(activity: NotesScreen, value: str = ""):
    """NewNoteDialog: title "Add a new note", label field, Text note / Checklist radios; `value`
    is the text a shared (SEND) intent brings (displayNewNoteDialog(text))."""
    app = activity.app
    rid = app.rid
    state = {"kind": app.pref("last_created_note_type", "text")}
    activity.texts[TITLE_FIELD] = ""

    def types() -> list[View]:
        radios = [
            w.radio(rid(f"type_{key}"), label, state["kind"] == kind, partial(state.__setitem__, "kind", kind))
            for key, label, kind in (("text_note", "Text note", "text"), ("checklist", "Checklist", "checklist"))
        ]
        return [
            w.text(rid("new_note_type_label"), "New note type:", padding=8),
            View(RADIO_GROUP, id=rid("new_note_type"), children=radios),
        ]

    def ok(title: str) -> bool:
        if not title or app.note_titled(title):
            activity.toast("Please name your note" if not title else "A note with that title already exists")
            return False
        app.set_pref("last_created_note_type", state["kind"])
        note = app.add(title, state["kind"])
        if value and note["kind"] == "text":
            app.update(note["id"], value=value)
        activity.go_to(note["id"])
        if note["kind"] != "text":
            activity.focus, activity.wm.ime_shown = None, False
        return True

    return _title_dialog(activity, "Add a new note", "Label", ok, types)


def rename_note_dialog(activity: NotesScreen):
    app = activity.app
    note = app.current()
    activity.texts[TITLE_FIELD] = note["title"]

    def ok(title: str) -> bool:
        if not title or app.note_titled(title, note["id"], case=True):
            activity.toast("Please name your note" if not title else "A note with that title already exists")
            return False
        app.update(note["id"], title=title)
        activity.focus, activity.wm.ime_shown = None, False
        return True

    return _title_dialog(activity, "Rename note", "Title", ok)


def rename_item_dialog(activity: NotesScreen, item_id: int):
    """RenameChecklistItemDialog: `checklist_item_hint` > `checklist_item_title` with the item's
    title; OK renames it and ends the action mode, an empty title toasts and keeps the dialog."""
    app = activity.app
    note = app.current()
    rid = app.rid
    key = "checklist_item_title"
    activity.texts[key] = next((it["title"] for it in note["value"] if it["id"] == item_id), "")
    holder: list = []

    def ok() -> None:
        title = activity.texts.get(key, "")
        if not title:
            activity.toast("Empty name")
            activity.overlays.append(holder[0])
            return
        app.update(note["id"], value=[{**it, "title": title} if it["id"] == item_id else it for it in note["value"]])
        activity.checked = []
        activity.focus, activity.wm.ime_shown = None, False

    def body() -> list[View]:
        field = View(LINEAR, id=rid("checklist_item_hint"), children=[w.edit(activity, key, hint="Label")])
        return [View(LINEAR, id=rid("dialog_holder"), padding=8, children=[field])]

    holder.append(w.alert(activity, "", body, positive=("OK", ok), negative=("Cancel", lambda: None)))
    w.focus(activity, key)
    return holder[0]


def delete_note_dialog(activity: NotesScreen):
    """DeleteNoteDialog: no title, the question, Delete / Cancel."""
    app = activity.app
    note = app.current()
    rid = app.rid
    body = [
        View(
            LINEAR,
            id=rid("delete_note_holder"),
            padding=8,
            children=[
                w.text(rid("delete_note_description"), f'Are you sure you want to delete note "{note["title"]}"?')
            ],
        )
    ]

    def delete() -> None:
        app.delete(note["id"])
        activity.go_to(app.current()["id"])

    return w.alert(activity, "", body, positive=("Delete", delete), negative=("Cancel", lambda: None))


def new_items_dialog(activity: NotesScreen):
    """NewChecklistItemDialog: one `title_edit_text` per item; the IME action adds another row."""
    app = activity.app
    rid = app.rid
    keys = ["new_item_0"]
    activity.texts[keys[0]] = ""
    holder: list = []

    def add_row() -> None:
        keys.append(f"new_item_{len(keys)}")
        activity.texts[keys[-1]] = ""
        w.focus(activity, keys[-1])

    def body() -> list[View]:
        fields = [w.edit(activity, "title_edit_text", key=k, hint="Title", on_submit=add_row) for k in keys]
        plus = w.image(rid("add_item"), "", "add", clickable=True, height=48, on_click=add_row)
        top = View(
            CHECKBOX,
            id=rid("settings_add_checklist_top"),
            text="Add to the top",
            checkable=True,
            clickable=True,
            kind="checkbox",
            height=48,
        )
        extra = [top] if app.pref("checklist_sorting", ["title", False])[0] == "custom" else []
        inner = View(LINEAR, id=rid("checklist_holder"), children=[*fields, plus, *extra])
        return [View(SCROLL, id=rid("dialog_holder"), children=[inner])]

    def ok() -> None:
        titles = [activity.texts.get(k, "").strip() for k in keys]
        titles = [t for t in titles if t]
        if not titles:
            activity.toast("Please enter a name")
            activity.overlays.append(holder[0])
            return
        note = app.current()
        next_id = max([it["id"] for it in note["value"]] + [0]) + 1
        note["value"].extend({"id": next_id + i, "title": t, "done": False} for i, t in enumerate(titles))
        app.update(note["id"], value=note["value"])
        activity.focus, activity.wm.ime_shown = None, False

    holder.append(
        w.alert(activity, "Add new checklist items", body, positive=("OK", ok), negative=("Cancel", lambda: None))
    )
    w.focus(activity, keys[0])
    return holder[0]


def open_note_dialog(activity: NotesScreen):
    """OpenNoteDialog: a grid of note cards (title, preview); its FAB makes a new note."""
    app = activity.app
    rid = app.rid
    holder: list = []

    def pick(note_id: int) -> None:
        activity.dismiss(holder[0])
        activity.go_to(note_id)

    def card(note: dict[str, Any]) -> View:
        kids = [w.image(rid("icon_lock"), "", "lock", width=24, height=24)] if note["hash"] else []
        kids.append(w.text(rid("open_note_item_title"), note["title"], bold=True))
        if not note["hash"]:
            value = note["value"] if note["kind"] == "text" else "\n".join(f"• {it['title']}" for it in note["value"])
            kids.append(w.text(rid("open_note_item_text"), value, size=14))
        return View(
            LINEAR,
            id=rid("open_note_item_holder"),
            clickable=True,
            focusable=True,
            kind="row",
            padding=8,
            on_click=lambda: pick(note["id"]),
            children=kids,
        )

    def new_note() -> None:
        activity.dismiss(holder[0])
        activity.show(new_note_dialog(activity))

    def body() -> list[View]:
        grid = w.scroll(rid("dialog_open_note_list"), [card(n) for n in app.sorted_notes()], cls=RECYCLER)
        fab = View(
            IMAGE_BUTTON,
            id=rid("new_note_fab"),
            clickable=True,
            focusable=True,
            icon="add",
            kind="fab",
            width=56,
            height=56,
            gravity="end",
            vgravity="end",
            on_click=new_note,
        )
        return [
            View(VIEW_GROUP, id=rid("dialog_open_note_holder"), orientation="stack", height=360, children=[grid, fab])
        ]

    holder.append(w.alert(activity, "Open note", body, negative=("Cancel", lambda: None)))
    return holder[0]


def sort_checklist_dialog(activity: NotesScreen):
    """SortChecklistDialog: Title / Date created / Custom, order, move done items; applies on OK."""
    app = activity.app
    rid = app.rid
    by, desc = app.pref("checklist_sorting", ["title", False])
    state = {"by": by, "desc": desc, "move": app.pref("move_done_checklist_items", False)}

    def body() -> list[View]:
        sorts = [
            w.radio(
                rid(f"sorting_dialog_radio_{key}"), label, state["by"] == key, partial(state.__setitem__, "by", key)
            )
            for key, label in (("title", "Title"), ("date_created", "Date created"), ("custom", "Custom"))
        ]
        order = [
            w.radio(
                rid(f"sorting_dialog_radio_{key}"), label, state["desc"] == d, partial(state.__setitem__, "desc", d)
            )
            for key, label, d in (("ascending", "Ascending", False), ("descending", "Descending", True))
        ]
        move = View(
            LINEAR,
            id=rid("settings_move_undone_checklist_items_holder"),
            clickable=True,
            children=[
                View(
                    CHECKBOX,
                    id=rid("settings_move_undone_checklist_items"),
                    text="Move done checklist items to the bottom",
                    checkable=True,
                    checked=state["move"],
                    kind="checkbox",
                    height=48,
                )
            ],
            on_click=lambda: state.__setitem__("move", not state["move"]),
        )
        return [
            View(
                LINEAR,
                id=rid("dialog_holder"),
                children=[
                    View(RADIO_GROUP, id=rid("sorting_dialog_radio_sorting"), children=sorts),
                    View(IMAGE, id=rid("sorting_dialog_order_divider"), height=1),
                    View(RADIO_GROUP, id=rid("sorting_dialog_radio_order"), children=order),
                    View(IMAGE, id=rid("move_undone_checklist_items_divider"), height=1),
                    move,
                ],
            )
        ]

    def ok() -> None:
        app.set_pref("checklist_sorting", [state["by"], state["desc"]])
        app.set_pref("move_done_checklist_items", state["move"])

    return w.alert(activity, "Sort by", body, positive=("OK", ok), negative=("Cancel", lambda: None))


def add_to_note_dialog(activity: NotesScreen, text: str):
    """handleTextIntent: "Add to note", a new note or one of the notes (the text appended on a new line)."""
    app = activity.app
    notes = app.sorted_notes()

    def chosen(i: int) -> None:
        if i == 0:
            activity.show(new_note_dialog(activity, text))
            return
        note = notes[i - 1]
        activity.go_to(note["id"])
        app.update(note["id"], value=text if not note["value"] else note["value"] + "\n" + text)

    return w.radio_dialog(
        activity, ["Create a new note", *[n["title"] for n in notes]], -1, chosen, title="Add to note"
    )
