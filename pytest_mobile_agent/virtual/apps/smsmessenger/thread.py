"""Simple SMS Messenger's conversation screens: a new conversation, the thread with its messages
and the conversation details.

Learned from Simple-SMS-Messenger's activity_new_conversation.xml, activity_thread.xml,
item_message.xml, activity_conversation_details.xml, menus (menu_thread, cab_thread) and
Kotlin sources.
"""

from __future__ import annotations

from contextlib import closing
from functools import partial
from typing import Any

from pytest_mobile_agent.virtual.apps.commons.action_mode import action_mode_bar
from pytest_mobile_agent.virtual.apps.commons.dates import date_format, java_date, time_format
from pytest_mobile_agent.virtual.apps.commons.dialogs import properties_dialog
from pytest_mobile_agent.virtual.apps.smsmessenger.selection import CONSTRAINT, SelectingActivity
from pytest_mobile_agent.virtual.apps.smsmessenger.store import SENT, SmsStore, digits, plural
from pytest_mobile_agent.virtual.system import providers
from pytest_mobile_agent.virtual.ui import widgets as w
from pytest_mobile_agent.virtual.ui.app import Activity, App
from pytest_mobile_agent.virtual.ui.view import IMAGE, RECYCLER, RELATIVE, TEXT, View


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
                on_click=partial(self.open, number),
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
        drafts = self.app.load("drafts", {})
        self.texts[self.FIELD] = self.extras.get("text") or drafts.get(self.address, "")
        tid = self.app.thread_id(self.address)
        if tid is not None:
            self.app.update_threads([tid], read=1)

    def on_back(self) -> bool:
        if super().on_back():  # the selection ends first
            return True
        self.keep_draft()
        return False

    def finish(self) -> None:
        self.keep_draft()
        super().finish()

    def keep_draft(self) -> None:
        drafts = self.app.load("drafts", {})
        text = self.texts.get(self.FIELD, "")
        if text:
            drafts[self.address] = text
        else:
            drafts.pop(self.address, None)
        self.app.save("drafts", drafts)

    def content(self) -> View:
        a = self.app
        tid = self.app.thread_id(self.address)
        messages = self.app.messages(tid) if tid is not None else []
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
                                self.app.date_or_time(m["date"], show_time_other_days=True),
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
        archived = tid is not None and self.app.thread_info(tid)["archived"]
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
            self.app.title_of(self.address),
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
            text_size=self.app.font_sp(),
            padding=10,
            kind="bubble",
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
                    icon=self.app.title_of(self.address)[:1],
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
                    content_gravity="end" if sent else "start",  # a sent bubble sits at the end
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
        self.app.send(self.address, text)
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
        tid = self.app.thread_id(self.address)
        self.selected = [m["id"] for m in self.app.messages(tid)] if tid is not None else []

    def copy(self) -> None:
        self.toast("Value copied to clipboard")
        self.end_selection()

    def properties(self, m: dict[str, Any]) -> None:
        """MessageDetailsDialog: Receiver/Sender and Sent at/Received at, OK only."""
        a = self.app
        sent = m["type"] == SENT
        name = self.app.title_of(m["address"])
        who = m["address"] if name == m["address"] else f"{name} ({m['address']})"
        moment = java_date(f"{date_format(a)} {time_format(a)}", self.app.when(m["date"]))
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
            self.app.delete_messages(ids)
            self.end_selection()

        self.show(w.confirm_dialog(self, f"Are you sure you want to delete {plural(len(ids), 'message')}?", yes))

    # -- thread menu ---------------------------------------------------------------------------
    def archive(self, archived: bool) -> None:
        tid = self.app.thread_id(self.address)
        if tid is not None:
            self.app.update_threads([tid], archived=1 if archived else 0)
        self.finish()

    def delete_conversation(self) -> None:
        def yes() -> None:
            tid = self.app.thread_id(self.address)
            if tid is not None:
                self.app.delete_threads([tid])
            self.texts[self.FIELD] = ""
            self.finish()

        message = "Are you sure you want to delete all messages of this conversation?"
        self.show(w.confirm_dialog(self, message, yes))

    def block(self) -> None:
        def yes() -> None:
            self.app.set_blocked(self.app.blocked() + [self.address])
            self.finish()

        self.show(w.confirm_dialog(self, f'Are you sure you want to block "{self.address}"?', yes))

    def mark_unread(self) -> None:
        tid = self.app.thread_id(self.address)
        if tid is not None:
            self.app.update_threads([tid], read=0)
        self.finish()

    def details(self) -> None:
        self.start(ConversationDetailsActivity, address=self.address)


class ConversationDetailsActivity(Activity):
    name = ".activities.ConversationDetailsActivity"
    app: SmsStore

    def content(self) -> View:
        a = sms = self.app
        address = self.extras.get("address", "")
        title = sms.title_of(address)
        member = View(
            RELATIVE,
            id=a.rid("item_contact_frame"),
            kind="row",
            orientation="h",
            padding=8,
            children=[
                View(IMAGE, id=a.rid("item_contact_image"), kind="appicon", icon=title[:1], width=40, height=40),
                w.column(
                    [w.text(a.rid("item_contact_name"), title), w.text(a.rid("item_contact_number"), address, size=14)],
                    weight=1,
                ),
            ],
        )
        holder = w.column(
            [
                w.text(a.rid("members_heading"), "Members", size=14, bold=True, padding=12),
                w.scroll(a.rid("participants_recyclerview"), [member], cls=RECYCLER),
            ],
            id=a.rid("conversation_details_holder"),
            weight=1,
        )
        bar = w.toolbar(self, "conversation_details_toolbar", "Conversation details", back=True)
        return w.screen(bar, [holder], id=a.rid("conversation_details_coordinator"))
