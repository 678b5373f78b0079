"""Simple SMS Messenger's conversation lists: the main screen (with search) and the archive.

Conversations live in the telephony provider's database (store.py). Ids, texts and flows follow
docs/fidelity/smsmessenger.md, learned from Simple-SMS-Messenger's activity_main.xml,
item_conversation.xml, activity_archived_conversations.xml, menus (menu_main,
cab_conversations, archive_menu, cab_archived_conversations) and Kotlin sources.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pytest_mobile_agent.virtual.apps.commons.about import AboutActivity
from pytest_mobile_agent.virtual.apps.commons.action_mode import action_mode_bar
from pytest_mobile_agent.virtual.apps.commons.menus import SEARCH_KEY, close_search, search_is_open, search_menu
from pytest_mobile_agent.virtual.apps.smsmessenger.selection import CONSTRAINT, SelectingActivity
from pytest_mobile_agent.virtual.apps.smsmessenger.settings import SettingsActivity
from pytest_mobile_agent.virtual.apps.smsmessenger.store import plural
from pytest_mobile_agent.virtual.apps.smsmessenger.thread import (
    NewConversationActivity,
    ThreadActivity,
)
from pytest_mobile_agent.virtual.ui import widgets as w
from pytest_mobile_agent.virtual.ui.view import FRAME, IMAGE, RECYCLER, RELATIVE, VIEW_GROUP, View


class ConversationList(SelectingActivity):
    """What MainActivity and ArchivedConversationsActivity share: the list and its action mode."""

    archived = False
    selected: list[int]

    def conversation_row(self, c: dict[str, Any]) -> View:
        a = self.app
        drafts = self.app.load("drafts", {})
        texts = [
            w.text(a.rid("conversation_address"), c["title"], size=self.app.font_sp() + 2, bold=not c["read"]),
            w.text(a.rid("conversation_body_short"), c["snippet"], size=self.app.font_sp() - 2, bold=not c["read"]),
        ]
        if c["address"] in drafts:
            texts.insert(1, w.text(a.rid("draft_indicator"), "Draft", size=12))
        children = [
            View(
                IMAGE, id=a.rid("conversation_image"), kind="appicon", text="", icon=c["title"][:1], width=48, height=48
            ),
            w.column(texts, weight=1, padding=4),
            w.text(a.rid("conversation_date"), self.app.date_or_time(c["date"]), size=12),
        ]
        if c["pinned"]:
            pin = View(
                RELATIVE,
                id=a.rid("pin_indicator_l"),
                children=[w.image(a.rid("pin_indicator"), "", "star")],
                width=24,
                height=24,
            )
            children.insert(1, pin)
        holder = View(RELATIVE, id=a.rid("conversation_holder"), orientation="h", children=children, padding=8)
        return View(
            FRAME,
            id=a.rid("conversation_frame"),
            clickable=True,
            long_clickable=True,
            focusable=True,
            selected=c["id"] in self.selected,
            kind="row",
            children=[holder],
            on_click=lambda: self.tap(c),
            on_long_click=lambda: self.toggle(c["id"]),
        )

    def tap(self, c: dict[str, Any]) -> None:
        if self.selected:
            self.toggle(c["id"])
        else:
            self.start(ThreadActivity, address=c["address"])

    def toggle(self, tid: int) -> None:
        if tid in self.selected:
            self.selected.remove(tid)
        else:
            self.selected.append(tid)

    def select_all(self) -> None:
        self.selected = [c["id"] for c in self.app.conversations(self.archived)]

    def end_selection(self) -> None:
        self.selected = []

    def confirm(self, verb: str, action: Callable[[list[int]], None]) -> None:
        """ConfirmationDialog "Are you sure you want to VERB N conversation(s)?" with Yes / No."""
        ids = list(self.selected)

        def yes() -> None:
            action(ids)
            self.end_selection()

        message = f"Are you sure you want to {verb} {plural(len(ids), 'conversation')}?"
        self.show(w.confirm_dialog(self, message, yes))

    def selection_bar(self, total: int) -> View:
        convs = {c["id"]: c for c in self.app.conversations(self.archived)}
        chosen = [convs[i] for i in self.selected if i in convs]
        delete = ("cab_delete", "Delete", "delete", lambda: self.confirm("delete", self.app.delete_threads))
        if self.archived:
            unarchive = ("cab_unarchive", "Unarchive", lambda: self.set_archived(list(self.selected), False))
            return action_mode_bar(
                self,
                len(self.selected),
                total,
                actions=(delete,),
                overflow=(unarchive, ("cab_select_all", "Select all", self.select_all)),
                on_close=self.end_selection,
                on_select_all=self.select_all,
            )
        one = chosen[0] if len(chosen) == 1 else None
        actions = [delete]
        if one:
            actions += [
                ("cab_add_number_to_contact", "Add number to contact", "person", self.no_app),
                ("cab_dial_number", "Dial number", "phone", self.no_app),
            ]
        read_item = (
            ("cab_mark_as_read", "Mark as Read", lambda: self.mark(True))
            if any(not c["read"] for c in chosen)
            else ("cab_mark_as_unread", "Mark as Unread", lambda: self.mark(False))
        )
        pin_item = (
            ("cab_unpin_conversation", "Unpin", lambda: self.pin(False))
            if all(c["pinned"] for c in chosen)
            else ("cab_pin_conversation", "Pin to the top", lambda: self.pin(True))
        )
        overflow = [
            ("cab_block_number", "Block number", lambda: self.block(chosen)),
            ("cab_archive", "Archive", lambda: self.confirm("archive", lambda ids: self.set_archived(ids, True))),
        ]
        if one:
            overflow.append(("cab_copy_number", "Copy number to clipboard", self.copied))
        overflow += [read_item, pin_item, ("cab_select_all", "Select all", self.select_all)]
        return action_mode_bar(
            self,
            len(self.selected),
            total,
            actions=tuple(actions),
            overflow=tuple(overflow),
            on_close=self.end_selection,
            on_select_all=self.select_all,
        )

    def set_archived(self, ids: list[int], archived: bool) -> None:
        self.app.update_threads(ids, archived=1 if archived else 0)
        self.end_selection()

    def mark(self, read: bool) -> None:
        self.app.update_threads(list(self.selected), read=1 if read else 0)
        self.end_selection()

    def pin(self, pinned: bool) -> None:
        current = [i for i in self.app.load("pinned", []) if i not in self.selected]
        self.app.save("pinned", current + (list(self.selected) if pinned else []))
        self.end_selection()

    def block(self, chosen: list[dict[str, Any]]) -> None:
        numbers = ", ".join(c["address"] for c in chosen)

        def yes() -> None:
            self.app.set_blocked(self.app.blocked() + [c["address"] for c in chosen])
            self.end_selection()

        self.show(w.confirm_dialog(self, f'Are you sure you want to block "{numbers}"?', yes))

    def no_app(self) -> None:
        self.toast("No valid app found")  # no dialer or contacts editor on this device
        self.end_selection()

    def copied(self) -> None:
        self.toast("Value copied to clipboard")
        self.end_selection()

    def conversation_list(self, items: list[dict[str, Any]], placeholder: str, extra: list[View]) -> View:
        a = self.app
        if items:
            rows = [self.conversation_row(c) for c in items]
            body = View(
                RELATIVE,
                id=a.rid("conversations_fastscroller"),
                weight=1,
                children=[w.scroll(a.rid("conversations_list"), rows, cls=RECYCLER)],
            )
            return body
        return w.column(
            [w.text(a.rid("no_conversations_placeholder"), placeholder, padding=24, gravity="center"), *extra], weight=1
        )


class MainActivity(ConversationList):
    name = ".activities.MainActivity"

    def on_back(self) -> bool:
        if super().on_back():
            return True
        if search_is_open(self):
            close_search(self)
            return True
        return False

    def content(self) -> View:
        a = self.app
        items = self.app.conversations(False)
        if self.selected:
            top = self.selection_bar(len(items))
        else:
            overflow = [("show_archived", "Show archived conversations", lambda: self.start(ArchiveActivity))]
            if a.pref("use_recycle_bin", False):
                overflow.insert(0, ("show_recycle_bin", "Show the Recycle Bin", lambda: self.toast("Recycle Bin")))
            top = search_menu(
                self,
                actions=(
                    ("settings", "Settings", "settings", self.open_settings),
                    ("about", "About", "info", lambda: self.start(AboutActivity)),
                ),
                overflow=tuple(overflow),
            )
        start = w.text(
            a.rid("no_conversations_placeholder_2"),
            "Start a conversation",
            padding=8,
            clickable=True,
            on_click=self.new_conversation,
        )
        holder = View(
            RELATIVE,
            id=a.rid("main_holder"),
            weight=1,
            children=[self.conversation_list(items, "No stored conversations have been found", [start])],
        )
        layers = [View(CONSTRAINT, id=a.rid("main_coordinator_wrapper"), children=[holder])]
        query = self.texts.get(SEARCH_KEY, "")
        if query:
            layers.append(self.search_results(query))
        body = View(RELATIVE, id=a.rid("main_nested_scrollview"), orientation="stack", weight=1, children=layers)
        fab = w.fab(a.rid("conversations_fab"), "", "add", self.new_conversation)
        return w.screen(top, [body], fab, id=a.rid("main_coordinator"))

    def open_settings(self) -> None:
        self.start(SettingsActivity)

    def new_conversation(self) -> None:
        self.start(NewConversationActivity)

    def search_results(self, query: str) -> View:
        """The search overlay: conversations matching by title or number, then messages by body."""
        a = self.app
        children: list[View] = []
        results: list[View] = []
        if len(query) >= 2:
            q = query.lower()
            for c in self.app.conversations(False) + self.app.conversations(True):
                if q in c["title"].lower() or q in c["address"].lower():
                    results.append(self.result_row(c["title"], c["address"], c["date"], c["address"]))
            names = self.app.contact_names()
            found = []
            for c in self.app.conversations(False) + self.app.conversations(True):
                found += [m for m in self.app.messages(c["id"]) if q in m["body"].lower()]
            for m in sorted(found, key=lambda m: -m["id"]):
                title = self.app.title_of(m["address"], names)
                results.append(self.result_row(title, m["body"], m["date"], m["address"]))
        if not results:
            children.append(w.text(a.rid("search_placeholder"), "No items found.", padding=24, gravity="center"))
        if len(query) < 2:
            children.append(
                w.text(
                    a.rid("search_placeholder_2"),
                    "Type in at least 2 characters to start the search.",
                    padding=8,
                    gravity="center",
                )
            )
        if results:
            children.append(w.scroll(a.rid("search_results_list"), results, cls=RECYCLER))
        return View(RELATIVE, id=a.rid("search_holder"), color="white", children=children)

    def result_row(self, title: str, snippet: str, date: int, address: str) -> View:
        a = self.app
        texts = w.column(
            [w.text(a.rid("search_result_title"), title), w.text(a.rid("search_result_snippet"), snippet, size=14)],
            weight=1,
        )
        return View(
            RELATIVE,
            id=a.rid("search_result_holder"),
            clickable=True,
            focusable=True,
            orientation="h",
            kind="row",
            padding=8,
            on_click=lambda: self.start(ThreadActivity, address=address),
            children=[
                View(IMAGE, id=a.rid("search_result_image"), kind="appicon", icon=title[:1], width=40, height=40),
                texts,
                w.text(a.rid("search_result_date"), self.app.date_or_time(date, year=True), size=12),
            ],
        )


class ArchiveActivity(ConversationList):
    name = ".activities.ArchivedConversationsActivity"
    archived = True

    def content(self) -> View:
        a = self.app
        items = self.app.conversations(True)
        if self.selected:
            top = self.selection_bar(len(items))
        else:
            top = w.toolbar(
                self,
                "archive_toolbar",
                "Archive",
                back=True,
                overflow=(("empty_archive", "Delete all archived conversations", self.empty_archive),),
            )
        holder = View(
            RELATIVE,
            id=a.rid("archive_holder"),
            weight=1,
            children=[self.conversation_list(items, "No archived conversations have been found", [])],
        )
        wrapper = View(VIEW_GROUP, id=a.rid("archive_coordinator_wrapper"), weight=1, children=[holder])
        body = View(RELATIVE, id=a.rid("archive_nested_scrollview"), weight=1, children=[wrapper])
        return w.screen(top, [body], id=a.rid("archive_coordinator"))

    def empty_archive(self) -> None:
        message = "Are you sure you want to empty the archive? All archived conversations will be permanently lost."

        def yes() -> None:
            self.app.delete_threads([c["id"] for c in self.app.conversations(True)])

        self.show(w.confirm_dialog(self, message, yes))
