"""Simple SMS Messenger (com.simplemobiletools.smsmessenger) 5.19.3, F-Droid flavour.

Conversations and messages live in the telephony provider's database (mmssms.db: `threads`
with its `archived` column, `sms`), so `content insert --uri content://sms/inbox` seeding shows
up here and sent messages are in `content query --uri content://sms/sent`. Contact names come
from contacts2.db. Blocked numbers, pins and drafts are app data. Ids, texts and flows follow
docs/fidelity/smsmessenger.md, learned from Simple-SMS-Messenger's layouts (activity_main.xml,
item_conversation.xml, activity_thread.xml, item_message.xml, activity_new_conversation.xml,
activity_archived_conversations.xml), menus (menu_main, cab_conversations, menu_thread,
cab_thread, archive_menu, cab_archived_conversations) and Kotlin sources.
"""

from __future__ import annotations

from contextlib import closing
from typing import Any

from pytest_mobile_agent.virtual.apps.commons.about import SHARED_ACTIVITIES, AboutActivity
from pytest_mobile_agent.virtual.apps.commons.action_mode import action_mode_bar
from pytest_mobile_agent.virtual.apps.commons.dates import date_format, java_date, time_format
from pytest_mobile_agent.virtual.apps.commons.dialogs import properties_dialog
from pytest_mobile_agent.virtual.apps.commons.menus import SEARCH_KEY, close_search, search_is_open, search_menu
from pytest_mobile_agent.virtual.apps.smsmessenger.settings import (
    SETTINGS_ACTIVITIES,
    ConversationDetailsActivity,
    SelectingActivity,
    SettingsActivity,
)
from pytest_mobile_agent.virtual.apps.smsmessenger.store import SENT, SmsStore, digits, plural
from pytest_mobile_agent.virtual.system import providers
from pytest_mobile_agent.virtual.ui import widgets as w
from pytest_mobile_agent.virtual.ui.app import Activity, App
from pytest_mobile_agent.virtual.ui.view import FRAME, IMAGE, RECYCLER, RELATIVE, TEXT, VIEW_GROUP, View

PKG = "com.simplemobiletools.smsmessenger"
CONSTRAINT = "androidx.constraintlayout.widget.ConstraintLayout"


# -- conversation lists: the main screen and the archive ----------------------------------------
class ConversationList(SelectingActivity):
    """What MainActivity and ArchivedConversationsActivity share: the list and its action mode."""

    archived = False
    selected: list[int]

    def conversation_row(self, c: dict[str, Any]) -> View:
        a = self.app
        drafts = self.sms.load("drafts", {})
        texts = [
            w.text(a.rid("conversation_address"), c["title"], size=self.sms.font_sp() + 2, bold=not c["read"]),
            w.text(a.rid("conversation_body_short"), c["snippet"], size=self.sms.font_sp() - 2, bold=not c["read"]),
        ]
        if c["address"] in drafts:
            texts.insert(1, w.text(a.rid("draft_indicator"), "Draft", size=12))
        children = [
            View(
                IMAGE, id=a.rid("conversation_image"), kind="appicon", text="", icon=c["title"][:1], width=48, height=48
            ),
            w.column(texts, weight=1, padding=4),
            w.text(a.rid("conversation_date"), self.sms.date_or_time(c["date"]), size=12),
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
        self.selected = [c["id"] for c in self.sms.conversations(self.archived)]

    def end_selection(self) -> None:
        self.selected = []

    def confirm(self, verb: str, action) -> None:  # noqa: ANN001 - a callable on the selection
        """ConfirmationDialog "Are you sure you want to VERB N conversation(s)?" with Yes / No."""
        ids = list(self.selected)

        def yes() -> None:
            action(ids)
            self.end_selection()

        message = f"Are you sure you want to {verb} {plural(len(ids), 'conversation')}?"
        self.show(w.confirm_dialog(self, message, yes))

    def selection_bar(self, total: int) -> View:
        convs = {c["id"]: c for c in self.sms.conversations(self.archived)}
        chosen = [convs[i] for i in self.selected if i in convs]
        delete = ("cab_delete", "Delete", "delete", lambda: self.confirm("delete", self.sms.delete_threads))
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
        self.sms.update_threads(ids, archived=1 if archived else 0)
        self.end_selection()

    def mark(self, read: bool) -> None:
        self.sms.update_threads(list(self.selected), read=1 if read else 0)
        self.end_selection()

    def pin(self, pinned: bool) -> None:
        current = [i for i in self.sms.load("pinned", []) if i not in self.selected]
        self.sms.save("pinned", current + (list(self.selected) if pinned else []))
        self.end_selection()

    def block(self, chosen: list[dict[str, Any]]) -> None:
        numbers = ", ".join(c["address"] for c in chosen)

        def yes() -> None:
            self.sms.set_blocked(self.sms.blocked() + [c["address"] for c in chosen])
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
        items = self.sms.conversations(False)
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
            for c in self.sms.conversations(False) + self.sms.conversations(True):
                if q in c["title"].lower() or q in c["address"].lower():
                    results.append(self.result_row(c["title"], c["address"], c["date"], c["address"]))
            names = self.sms.contact_names()
            found = []
            for c in self.sms.conversations(False) + self.sms.conversations(True):
                found += [m for m in self.sms.messages(c["id"]) if q in m["body"].lower()]
            for m in sorted(found, key=lambda m: -m["id"]):
                title = self.sms.title_of(m["address"], names)
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
                w.text(a.rid("search_result_date"), self.sms.date_or_time(date, year=True), size=12),
            ],
        )


class ArchiveActivity(ConversationList):
    name = ".activities.ArchivedConversationsActivity"
    archived = True

    def content(self) -> View:
        a = self.app
        items = self.sms.conversations(True)
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
            self.sms.delete_threads([c["id"] for c in self.sms.conversations(True)])

        self.show(w.confirm_dialog(self, message, yes))


# -- new conversation and the thread --------------------------------------------------------------
class NewConversationActivity(Activity):
    name = ".activities.NewConversationActivity"
    FIELD = "new_conversation_address"

    def __init__(self, app: App, extras: dict[str, str] | None = None) -> None:
        super().__init__(app, extras)
        self.focus = self.FIELD  # focused on open

    def content(self) -> View:
        a = self.app
        typed = self.texts.get(self.FIELD, "")
        field = w.edit(self, self.FIELD, hint="Add Contact or Number…", weight=1)
        row = [field]
        if len(typed) > 2:
            row.append(
                w.icon_button(a.rid("new_conversation_confirm"), "", "check", lambda: self.open(typed), cls=IMAGE)
            )
        with closing(providers.open_db(a.device, providers.CONTACTS_DB)) as db:
            contacts = db.execute("SELECT display_name, data1 FROM phones ORDER BY display_name").fetchall()
        q = typed.lower()
        rows = [
            View(
                RELATIVE,
                id=a.rid("item_contact_frame"),
                clickable=True,
                focusable=True,
                kind="row",
                padding=8,
                orientation="h",
                on_click=lambda n=number: self.open(n),
                children=[
                    View(
                        IMAGE,
                        id=a.rid("item_contact_image"),
                        kind="appicon",
                        icon=(name or "?")[:1],
                        width=40,
                        height=40,
                    ),
                    w.column(
                        [
                            w.text(a.rid("item_contact_name"), name or number),
                            w.text(a.rid("item_contact_number"), number, size=14),
                        ],
                        weight=1,
                    ),
                ],
            )
            for name, number in contacts
            if not q or q in (name or "").lower() or digits(q) and digits(q) in digits(number or "")
        ]
        holder = w.column(
            [
                w.row(row, height=56),
                View(IMAGE, id=a.rid("add_contact_divider"), height=1, kind="divider"),
                w.scroll(a.rid("contacts_list"), rows, cls=RECYCLER),
            ],
            id=a.rid("new_conversation_holder"),
            weight=1,
        )
        bar = w.toolbar(self, "new_conversation_toolbar", "New conversation", back=True)
        return w.screen(bar, [holder], id=a.rid("new_conversation_coordinator"))

    def open(self, address: str) -> None:
        extras = {"address": address.strip()}
        if "text" in self.extras:
            extras["text"] = self.extras["text"]
        self.start(ThreadActivity, **extras)  # this screen stays below the thread


class ThreadActivity(SelectingActivity):
    name = ".activities.ThreadActivity"
    FIELD = "thread_type_message"
    selected: list[int]

    def __init__(self, app: App, extras: dict[str, str] | None = None) -> None:
        super().__init__(app, extras)
        self.address = self.extras.get("address", "")
        drafts = self.sms.load("drafts", {})
        self.texts[self.FIELD] = self.extras.get("text") or drafts.get(self.address, "")
        tid = self.sms.thread_id(self.address)
        if tid is not None:
            self.sms.update_threads([tid], read=1)

    def on_back(self) -> bool:
        if super().on_back():  # the selection ends first
            return True
        self.keep_draft()
        return False

    def finish(self) -> None:
        self.keep_draft()
        super().finish()

    def keep_draft(self) -> None:
        drafts = self.sms.load("drafts", {})
        text = self.texts.get(self.FIELD, "")
        if text:
            drafts[self.address] = text
        else:
            drafts.pop(self.address, None)
        self.sms.save("drafts", drafts)

    def content(self) -> View:
        a = self.app
        tid = self.sms.thread_id(self.address)
        messages = self.sms.messages(tid) if tid is not None else []
        top = self.selection_bar(messages) if self.selected else self.toolbar(tid)
        items: list[View] = []
        last = None
        for m in messages:
            if last is None or m["date"] - last > 5 * 60 * 1000:  # a date header after a 5-minute gap
                items.append(
                    View(
                        RELATIVE,
                        id=a.rid("thread_date_time_holder"),
                        gravity="center",
                        children=[
                            w.text(
                                a.rid("thread_date_time"),
                                self.sms.date_or_time(m["date"], show_time_other_days=True),
                                size=12,
                                gravity="center",
                            )
                        ],
                    )
                )
            last = m["date"]
            items.append(self.message_row(m))
        text = self.texts.get(self.FIELD, "")
        send = w.button(
            a.rid("thread_send_message"), "SMS", self.send, desc="OK", width=64, height=48, enabled=bool(text)
        )
        send.clickable = bool(text)
        composer = View(
            CONSTRAINT,
            id=a.rid("message_holder"),
            orientation="h",
            height=64,
            padding=4,
            children=[
                w.icon_button(
                    a.rid("thread_add_attachment"), "Attachment", "add", lambda: self.toast("Attachment"), cls=IMAGE
                ),
                w.edit(self, self.FIELD, hint="Type a message…", weight=1),
                send,
            ],
        )
        messages_list = View(
            RELATIVE,
            id=a.rid("thread_messages_fastscroller"),
            weight=1,
            children=[w.scroll(a.rid("thread_messages_list"), items, cls=RECYCLER)],
        )
        holder = View(CONSTRAINT, id=a.rid("thread_holder"), weight=1, children=[messages_list, composer])
        return w.screen(top, [holder], id=a.rid("thread_coordinator"))

    def toolbar(self, tid: int | None) -> View:
        archived = tid is not None and self.sms.thread_info(tid)["archived"]
        overflow = [
            ("unarchive", "Unarchive", lambda: self.archive(False))
            if archived
            else ("archive", "Archive", lambda: self.archive(True)),
            ("conversation_details", "Conversation details", self.details),
            ("add_number_to_contact", "Add number to contact", lambda: self.toast("No valid app found")),
            ("block_number", "Block number", self.block),
            ("mark_as_unread", "Mark as Unread", self.mark_unread),
        ]
        return w.toolbar(
            self,
            "thread_toolbar",
            self.sms.title_of(self.address),
            back=True,
            actions=(
                ("delete", "Delete", "delete", self.delete_conversation),
                ("dial_number", "Dial number", "phone", lambda: self.toast("No valid app found")),
                ("manage_people", "Add Person", "person", lambda: self.toast("Add Person")),
            ),
            overflow=tuple(overflow) if tid is not None else (),
        )

    def message_row(self, m: dict[str, Any]) -> View:
        a = self.app
        sent = m["type"] == SENT
        body = View(
            TEXT,
            id=a.rid("thread_message_body"),
            text=m["body"],
            clickable=True,
            long_clickable=True,
            focusable=True,
            text_size=self.sms.font_sp(),
            padding=10,
            kind="row",
            color="#ffe0b2" if sent else "#eeeeee",
            on_click=lambda: self.tap_message(m["id"]),
            on_long_click=lambda: self.toggle(m["id"]),
        )
        wrapper = (
            [body]
            if sent
            else [
                View(
                    IMAGE,
                    id=a.rid("thread_message_sender_photo"),
                    kind="appicon",
                    icon=self.sms.title_of(self.address)[:1],
                    width=36,
                    height=36,
                ),
                body,
            ]
        )
        return View(
            CONSTRAINT,
            id=a.rid("thread_message_holder"),
            selected=m["id"] in self.selected,
            padding=4,
            children=[
                View(
                    RELATIVE,
                    id=a.rid("thread_message_wrapper"),
                    orientation="h",
                    gravity="end" if sent else "start",
                    children=wrapper,
                )
            ],
        )

    def tap_message(self, mid: int) -> None:
        if self.selected:
            self.toggle(mid)

    def toggle(self, mid: int) -> None:
        if mid in self.selected:
            self.selected.remove(mid)
        else:
            self.selected.append(mid)

    def send(self) -> None:
        text = self.texts.get(self.FIELD, "")
        if not text:
            return
        self.sms.send(self.address, text)
        self.texts[self.FIELD] = ""

    # -- message action mode -----------------------------------------------------------------
    def selection_bar(self, messages: list[dict[str, Any]]) -> View:
        chosen = [m for m in messages if m["id"] in self.selected]
        overflow = []
        if len(chosen) == 1:
            overflow += [
                ("cab_properties", "Properties", lambda: self.properties(chosen[0])),
                ("cab_forward_message", "Forward", lambda: self.forward(chosen[0])),
                ("cab_select_text", "Select text", lambda: self.select_text(chosen[0])),
            ]
        overflow.append(("cab_select_all", "Select all", self.select_all))
        actions = (
            ("cab_copy_to_clipboard", "Copy to clipboard", "copy", self.copy),
            ("cab_share", "Share", "share", self.copy),
            ("cab_delete", "Delete", "delete", self.delete_messages),
        )
        return action_mode_bar(
            self,
            len(self.selected),
            len(messages),
            actions=actions,
            overflow=tuple(overflow),
            on_close=self.end_selection,
            on_select_all=self.select_all,
        )

    def end_selection(self) -> None:
        self.selected = []

    def select_all(self) -> None:
        tid = self.sms.thread_id(self.address)
        self.selected = [m["id"] for m in self.sms.messages(tid)] if tid is not None else []

    def copy(self) -> None:
        self.toast("Value copied to clipboard")
        self.end_selection()

    def properties(self, m: dict[str, Any]) -> None:
        """MessageDetailsDialog: Receiver/Sender and Sent at/Received at, OK only."""
        a = self.app
        sent = m["type"] == SENT
        name = self.sms.title_of(m["address"])
        who = m["address"] if name == m["address"] else f"{name} ({m['address']})"
        moment = java_date(f"{date_format(a)} {time_format(a)}", self.sms.when(m["date"]))
        rows = [("Receiver" if sent else "Sender", who), ("Sent at" if sent else "Received at", moment)]
        self.show(properties_dialog(self, rows, "Message details"))
        self.end_selection()

    def forward(self, m: dict[str, Any]) -> None:
        self.end_selection()
        self.start(NewConversationActivity, text=m["body"])

    def select_text(self, m: dict[str, Any]) -> None:
        self.end_selection()
        field = w.text(self.app.rid("dialog_select_text_value"), m["body"], padding=16)
        self.show(w.alert(self, "", [field], positive=("OK", lambda: None)))

    def delete_messages(self) -> None:
        ids = list(self.selected)

        def yes() -> None:
            self.sms.delete_messages(ids)
            self.end_selection()

        self.show(w.confirm_dialog(self, f"Are you sure you want to delete {plural(len(ids), 'message')}?", yes))

    # -- thread menu ---------------------------------------------------------------------------
    def archive(self, archived: bool) -> None:
        tid = self.sms.thread_id(self.address)
        if tid is not None:
            self.sms.update_threads([tid], archived=1 if archived else 0)
        self.finish()

    def delete_conversation(self) -> None:
        def yes() -> None:
            tid = self.sms.thread_id(self.address)
            if tid is not None:
                self.sms.delete_threads([tid])
            self.texts[self.FIELD] = ""
            self.finish()

        message = "Are you sure you want to delete all messages of this conversation?"
        self.show(w.confirm_dialog(self, message, yes))

    def block(self) -> None:
        def yes() -> None:
            self.sms.set_blocked(self.sms.blocked() + [self.address])
            self.finish()

        self.show(w.confirm_dialog(self, f'Are you sure you want to block "{self.address}"?', yes))

    def mark_unread(self) -> None:
        tid = self.sms.thread_id(self.address)
        if tid is not None:
            self.sms.update_threads([tid], read=0)
        self.finish()

    def details(self) -> None:
        self.start(ConversationDetailsActivity, address=self.address)


class Messenger(SmsStore, App):
    package = PKG
    label = "SMS Messenger"
    icon = "message"
    icon_color = "#f57c00"
    version_code = 85
    version_name = "5.19.3"
    main_activity = MainActivity
    activities = (NewConversationActivity, ThreadActivity, ArchiveActivity, *SETTINGS_ACTIVITIES, *SHARED_ACTIVITIES)
    faq = (
        (
            "Why does the app require access to the internet?",
            "Sadly it is needed for sending MMS attachments. Not being able to send MMS would be a really huge "
            "disadvantage compared to other apps, so we decided to go this way.",
        ),
        (
            "The other end is not receiving my MMS, is there anything I can do about it?",
            "MMS size is limited by carriers, you can try setting a smaller limit in the app settings.",
        ),
        (
            "Does the app support scheduled messages?",
            "Yes, you can schedule messages to be sent in the future by long pressing the Send button and picking "
            "the desired date and time.",
        ),
    )


APPS = (Messenger,)
