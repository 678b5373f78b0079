"""Simple Notes Pro's main screen: notes as pages of a ViewPager with a PagerTabStrip of titles.

Text notes and checklists, in-note search, undo/redo, PIN locking through the commons security
dialog, and the menus that open the dialogs. Ids, texts and flows follow docs/fidelity/notes.md,
learned from Simple-Notes' activity_main.xml, fragment_text.xml, fragment_checklist.xml,
item_checklist.xml, menu.xml and MainActivity.kt / fragments.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from pytest_mobile_agent.virtual.apps.commons.about import ProAboutActivity
from pytest_mobile_agent.virtual.apps.commons.action_mode import action_mode_bar, drag_select
from pytest_mobile_agent.virtual.apps.commons.menus import MenuAction
from pytest_mobile_agent.virtual.apps.commons.security import security_dialog
from pytest_mobile_agent.virtual.apps.notes.dialogs import (
    NotesScreen,
    add_to_note_dialog,
    delete_note_dialog,
    new_items_dialog,
    new_note_dialog,
    open_note_dialog,
    rename_item_dialog,
    rename_note_dialog,
    sort_checklist_dialog,
)
from pytest_mobile_agent.virtual.apps.notes.settings import SettingsActivity
from pytest_mobile_agent.virtual.ui import widgets as w
from pytest_mobile_agent.virtual.ui.app import App
from pytest_mobile_agent.virtual.ui.view import FRAME, IMAGE, LINEAR, RECYCLER, RELATIVE, VIEW_GROUP, View

NO_APP = "No app found"
SEARCH_FIELD = "search_query"


class MainActivity(NotesScreen):
    name = ".activities.MainActivity"

    def __init__(self, app: App, extras: dict[str, str] | None = None) -> None:
        super().__init__(app, extras)
        if not app.device.fs.exists(f"{app.data_dir}/files/notes.json"):
            self.app.save("notes", self.app.notes)  # the database, made on first open
        self.search_open = False
        self.revealed: set[int] = set()  # fragments' shouldShowLockedContent
        self.stale: set[int] = set()  # locked, but the page shows the content until it reloads
        self.history: dict[int, list[str]] = {}  # undo steps per text note
        self.redo_steps: dict[int, list[str]] = {}
        self.keyboard_pending = True  # TextFragment shows the keyboard when it sets up
        self.checked: list[int] = []  # checklist item ids in the action mode, in selection order

    def on_resume(self) -> None:
        self.stale.clear()  # the fragment reloads its note in onResume
        self.keyboard_pending = True

    def on_intent(self, extras: dict[str, str]) -> None:
        if "shared_text" in extras:  # checkIntents: text shared to the app asks which note takes it
            self.show(add_to_note_dialog(self, extras["shared_text"]))

    def on_back(self) -> bool:
        if self.checked:
            self.checked = []
            return True
        if self.search_open:
            self.close_search()
            return True
        return False

    # -- state helpers ---------------------------------------------------------------------
    @property
    def note(self) -> dict[str, Any]:
        return self.app.current()

    def is_hidden(self, note: dict[str, Any]) -> bool:
        """The page shows the locked layout instead of the content."""
        return bool(note["hash"]) and note["id"] not in self.revealed and note["id"] not in self.stale

    def guarded(self, action) -> None:
        """NoteFragment.handleUnlocking: a locked note asks for its PIN first."""
        note = self.note
        if not note["hash"] or note["id"] in self.revealed:
            action()
            return

        def unlocked(_hash: str, _type: int) -> None:
            self.revealed.add(note["id"])
            action()

        self.show(security_dialog(self, unlocked, required_hash=note["hash"], protection=note["type_protection"]))

    def go_to(self, note_id: int) -> None:
        self.close_search()
        self.checked = []
        self.app.set_pref("current_note_id", note_id)
        self.keyboard_pending = True

    # -- screen ----------------------------------------------------------------------------
    def content(self) -> View:
        a = self.app
        note = self.note
        notes = a.sorted_notes()
        many = len(notes) > 1
        text_note = note["kind"] == "text"
        actions = []
        if text_note:
            actions.append(("open_search", "Search", "search", lambda: self.guarded(self.open_search)))
        if many:
            actions.append(("open_note", "Open note", "folder", lambda: self.show(open_note_dialog(self))))
        actions.append(("new_note", "Create a new note", "add", lambda: self.show(new_note_dialog(self))))
        if text_note and self.history.get(note["id"]):
            actions.append(("undo", "Undo", "undo", self.undo))
        bar = w.toolbar(self, "main_toolbar", "", actions=actions, overflow=self._overflow(many, text_note))
        if self.checked and not text_note:
            bar = self._item_action_mode(note)
        pager_kids: list[View] = []
        if many:
            pager_kids.append(self._tab_strip(notes, note))
        pager_kids.append(self._text_page(note) if text_note else self._checklist_page(note))
        at = next((i for i, n in enumerate(notes) if n["id"] == note["id"]), 0)
        pick = lambda i: self.go_to(notes[i]["id"])  # noqa: E731
        pager = w.pager(a.rid("view_pager"), pager_kids, at, len(notes), pick, weight=1)
        body = [self._search_bar()] if self.search_open else []
        main = View(LINEAR, id=a.rid("main_linear_layout"), children=[*body, pager], weight=1)
        return w.screen(bar, [main], id=a.rid("main_coordinator"))

    def _overflow(self, many: bool, text_note: bool) -> list[w.MenuItem]:
        note = self.note
        items: list[w.MenuItem] = []
        if text_note and self.redo_steps.get(note["id"]) and not self.history.get(note["id"]):
            items.append(("redo", "Redo", self.redo))
        if many:
            items.append(
                ("rename_note", "Rename note", lambda: self.guarded(lambda: self.show(rename_note_dialog(self))))
            )
        if not text_note:
            items.append(("remove_done_items", "Remove done items", lambda: self.guarded(self.remove_done)))
            items.append(
                ("sort_checklist", "Sort by", lambda: self.guarded(lambda: self.show(sort_checklist_dialog(self))))
            )
        items.append(("share", "Share", lambda: self.guarded(lambda: self.toast(NO_APP))))
        items.append(("cab_create_shortcut", "Create shortcut", lambda: self.toast(NO_APP)))
        if note["hash"]:
            items.append(("unlock_note", "Unlock note", self.unlock_note))
        else:
            items.append(("lock_note", "Lock note", self.lock_note))
        items.append(("open_file", "Open file", lambda: self.toast(NO_APP)))
        items.append(("export_as_file", "Export as file", lambda: self.guarded(lambda: self.toast(NO_APP))))
        items.append(("print", "Print", lambda: self.guarded(lambda: self.toast(NO_APP))))
        if many:
            items.append(
                ("delete_note", "Delete note", lambda: self.guarded(lambda: self.show(delete_note_dialog(self))))
            )
        items.append(("settings", "Settings", lambda: self.start(SettingsActivity)))
        items.append(("about", "About", lambda: self.start(ProAboutActivity)))
        return items

    def _tab_strip(self, notes: list[dict[str, Any]], note: dict[str, Any]) -> View:
        """PagerTabStrip: previous | current | next titles, no ids; the side ones move a page."""
        i = notes.index(note)
        kids = []
        if i > 0:
            prev = notes[i - 1]
            kids.append(w.text("", prev["title"], clickable=True, weight=1, on_click=lambda: self.go_to(prev["id"])))
        else:
            kids.append(View(FRAME, weight=1))
        kids.append(w.text("", note["title"], weight=1, gravity="center", bold=True))
        if i + 1 < len(notes):
            nxt = notes[i + 1]
            kids.append(
                w.text(
                    "", nxt["title"], clickable=True, weight=1, gravity="end", on_click=lambda: self.go_to(nxt["id"])
                )
            )
        else:
            kids.append(View(FRAME, weight=1))
        return View(
            "androidx.viewpager.widget.PagerTabStrip",
            id=self.app.rid("pager_tab_strip"),
            orientation="h",
            height=40,
            children=kids,
        )

    def _locked_layout(self) -> View:
        rid = self.app.rid
        show = w.text(
            rid("note_locked_show"),
            "Show content",
            clickable=True,
            focusable=True,
            gravity="center",
            on_click=lambda: self.guarded(lambda: None),
        )
        return View(
            RELATIVE,
            id=rid("note_locked_layout"),
            weight=1,
            gravity="center",
            children=[
                w.image(rid("note_locked_image"), "", "lock", height=64),
                w.text(rid("note_locked_label"), "The notes' content is locked.", gravity="center"),
                show,
            ],
        )

    def _text_page(self, note: dict[str, Any]) -> View:
        rid = self.app.rid
        if self.is_hidden(note):
            return View(RELATIVE, id=rid("note_fragment_holder"), children=[self._locked_layout()], weight=1)
        key = f"note_{note['id']}"
        self.texts[key] = note["value"]
        if self.keyboard_pending and self.app.pref("show_keyboard", True):
            w.focus(self, key)
        self.keyboard_pending = False
        edit = w.edit(
            self,
            "text_note_view",
            key=key,
            hint="Insert text here",
            on_change=self.text_changed,
            height=None,
            weight=1,
            cursor="hairline",  # note_view_static.xml: textCursorDrawable="@null"
        )
        scroll = View(
            "android.widget.ScrollView",
            id=rid("notes_scrollview"),
            scrollable=True,
            weight=1,
            children=[View(RELATIVE, id=rid("notes_relative_layout"), children=[edit])],
        )
        kids = [scroll]
        if self.app.pref("show_word_count", False):
            kids.append(w.text(rid("notes_counter"), str(len(note["value"].split())), size=14))
        return View(RELATIVE, id=rid("note_fragment_holder"), children=kids, weight=1)

    def _checklist_page(self, note: dict[str, Any]) -> View:
        rid = self.app.rid
        self.keyboard_pending = False
        if self.is_hidden(note):
            holder = View(RELATIVE, id=rid("checklist_items_holder"), children=[self._locked_layout()], weight=1)
            return View(VIEW_GROUP, id=rid("checklist_holder"), children=[holder], orientation="stack")
        items = self.app.sorted_items(note)
        if items:
            rows = [
                View(
                    VIEW_GROUP,
                    id=rid("checklist_holder"),
                    clickable=True,
                    long_clickable=True,
                    focusable=True,
                    selected=item["id"] in self.checked,
                    orientation="h",
                    kind="row",
                    padding=8,
                    on_click=partial(self.tap_item, item),
                    on_long_click=partial(self.select_item, item["id"]),
                    key=str(item["id"]),
                    children=[
                        # ChecklistAdapter: a done item struck through at DONE_CHECKLIST_ITEM_ALPHA
                        # (0.4); a green check (md_green_700) or a red cross (md_red_700) beside it.
                        w.text(
                            rid("checklist_title"),
                            item["title"],
                            weight=1,
                            strike=item["done"],
                            alpha=0.4 if item["done"] else 1.0,
                        ),
                        *self._item_marks(item),
                    ],
                )
                for item in items
            ]
            drag_select(rows, lambda keys: self.checked.extend(int(k) for k in keys if int(k) not in self.checked))
            content = [w.scroll(rid("checklist_list"), rows, cls=RECYCLER)]
        else:
            content = [
                w.text(rid("fragment_placeholder"), "The checklist is empty", gravity="center", padding=16),
                w.text(
                    rid("fragment_placeholder_2"),
                    "Add new checklist items",
                    gravity="center",
                    clickable=True,
                    on_click=lambda: self.show(new_items_dialog(self)),
                ),
            ]
        holder = View(
            RELATIVE,
            id=rid("checklist_items_holder"),
            weight=1,
            children=[View(RELATIVE, id=rid("checklist_content_holder"), children=content, weight=1)],
        )
        fab = w.fab(rid("checklist_fab"), "", "add", lambda: self.show(new_items_dialog(self)))
        return View(VIEW_GROUP, id=rid("checklist_holder"), children=[holder, fab], orientation="stack", weight=1)

    def _search_bar(self) -> View:
        rid = self.app.rid
        # Simple-Commons' search_bar.xml: textCursorDrawable="@null", a hairline cursor
        field = w.edit(self, SEARCH_FIELD, hint="Search", weight=1, height=48, cursor="hairline")
        buttons = [
            w.icon_button(rid(f"search_{name}"), desc, icon, action, cls=IMAGE)
            for name, desc, icon, action in (
                ("previous", "Previous", "chevron_up", lambda: None),
                ("next", "Next", "chevron_down", lambda: None),
                ("clear", "Close", "close", self.close_search),
            )
        ]
        layout = View(LINEAR, id=rid("search_layout"), orientation="h", height=56, children=[field, *buttons])
        return View(FRAME, id=rid("search_wrapper"), children=[layout])

    # -- actions ---------------------------------------------------------------------------
    def text_changed(self, value: str) -> None:
        note = self.note
        self.history.setdefault(note["id"], []).append(note["value"])
        self.redo_steps.pop(note["id"], None)
        self.app.update(note["id"], value=value)

    def undo(self) -> None:
        note = self.note
        steps = self.history.get(note["id"])
        if steps:
            self.redo_steps.setdefault(note["id"], []).append(note["value"])
            self.app.update(note["id"], value=steps.pop())

    def redo(self) -> None:
        note = self.note
        steps = self.redo_steps.get(note["id"])
        if steps:
            self.history.setdefault(note["id"], []).append(note["value"])
            self.app.update(note["id"], value=steps.pop())

    def open_search(self) -> None:
        self.search_open = True
        self.texts[SEARCH_FIELD] = ""
        w.focus(self, SEARCH_FIELD)

    def close_search(self) -> None:
        self.search_open = False
        self.texts[SEARCH_FIELD] = ""
        if self.focus == SEARCH_FIELD:
            self.focus = None
            self.wm.ime_shown = False

    def _item_marks(self, item: dict[str, Any]) -> list[View]:
        """ChecklistAdapter.setupView: the check or cross outside the action mode, the drag handle
        in it (a touch on the handle drags the item: ItemTouchHelper.startDrag)."""
        rid = self.app.rid
        if self.checked:
            handle = w.image(rid("checklist_drag_handle"), "", "drag_handle", width=32, height=32)
            handle.drag_handle, handle.on_drag = True, partial(self.move_item, item["id"])
            return [handle]
        return [
            w.image(
                rid("checklist_image"),
                "",
                "check" if item["done"] else "close",
                width=32,
                height=32,
                tint="#388e3c" if item["done"] else "#d32f2f",
            )
        ]

    def _item_action_mode(self, note: dict[str, Any]) -> View:
        """The checklist's action mode (menu/cab_checklist.xml, all shown as icons)."""
        actions: list[MenuAction] = [
            ("cab_move_to_top", "Move to top", "vertical_align_top", partial(self.move_checked, True)),
            ("cab_move_to_bottom", "Move to bottom", "vertical_align_bottom", partial(self.move_checked, False)),
        ]
        if len(self.checked) == 1:
            actions.append(("cab_rename", "Rename", "edit", self.rename_checked))
        actions.append(("cab_delete", "Delete", "delete", self.delete_checked))
        ids = [it["id"] for it in note["value"]]

        def select_all() -> None:
            self.checked += [i for i in ids if i not in self.checked]

        return action_mode_bar(
            self, len(self.checked), len(ids), actions=actions, on_close=self.checked.clear, on_select_all=select_all
        )

    def tap_item(self, item: dict[str, Any]) -> None:
        if not self.checked:
            self.toggle(item)
        elif item["id"] in self.checked:
            self.checked.remove(item["id"])
        else:
            self.checked.append(item["id"])

    def select_item(self, item_id: int) -> None:
        if item_id not in self.checked:  # a long press selects (toggleItemSelection(true))
            self.checked.append(item_id)

    def _reordered(self, order: list[dict[str, Any]]) -> None:
        """The checklist saved in the shown order, its sorting now custom (config.sorting)."""
        self.app.set_pref("checklist_sorting", ["custom", False])
        self.app.update(self.note["id"], value=order)

    def move_item(self, item_id: int, to: str) -> None:
        """ChecklistAdapter.onRowMoved: the dragged item takes the place of the one it was dropped on."""
        order = self.app.sorted_items(self.note)
        ids = [it["id"] for it in order]
        if int(to) not in ids or int(to) == item_id:
            return
        at = ids.index(int(to))
        order.insert(at, order.pop(ids.index(item_id)))
        self._reordered(order)

    def move_checked(self, to_top: bool) -> None:
        """moveSelectedItemsToTop/Bottom: the selected items, in the order they were selected."""
        order = self.app.sorted_items(self.note)
        moved = [it for i in self.checked for it in order if it["id"] == i]
        rest = [it for it in order if it["id"] not in self.checked]
        self._reordered(moved + rest if to_top else rest + moved)

    def delete_checked(self) -> None:
        note = self.note
        self.app.update(note["id"], value=[it for it in note["value"] if it["id"] not in self.checked])
        self.checked = []

    def rename_checked(self) -> None:
        self.show(rename_item_dialog(self, self.checked[0]))

    def toggle(self, item: dict[str, Any]) -> None:
        note = self.note
        for it in note["value"]:
            if it["id"] == item["id"]:
                it["done"] = not it["done"]
        self.app.update(note["id"], value=note["value"])

    def remove_done(self) -> None:
        note = self.note
        self.app.update(note["id"], value=[it for it in note["value"] if not it["done"]])

    def lock_note(self) -> None:
        note = self.note
        warning = (
            "WARNING: If you forget the notes' password, you won't be able to recover it or access the notes' "
            "content anymore."
        )

        def locked(hash_: str, kind: int) -> None:
            self.app.update(note["id"], hash=hash_, type_protection=kind)
            self.stale.add(note["id"])  # only the menu refreshes; the page reloads later

        def confirmed() -> None:
            self.show(security_dialog(self, locked))

        body = [w.text(self.app.rid("message"), warning, padding=12)]
        self.show(w.alert(self, "", body, positive=("OK", confirmed), negative=("Cancel", lambda: None)))

    def unlock_note(self) -> None:
        note = self.note

        def unlocked(_hash: str, _type: int) -> None:
            self.app.update(note["id"], hash="", type_protection=-1)
            self.revealed.add(note["id"])

        self.show(security_dialog(self, unlocked, required_hash=note["hash"], protection=note["type_protection"]))
