"""Simple SMS Messenger's conversation screens: a new conversation, the thread with its messages
and the conversation details.

Learned from Simple-SMS-Messenger's activity_new_conversation.xml, activity_thread.xml,
item_message.xml, activity_conversation_details.xml, menus (menu_thread, cab_thread) and
Kotlin sources.
"""

from __future__ import annotations

import mimetypes
from contextlib import closing
from functools import partial
from typing import Any

from pytest_mobile_agent.virtual.apps.commons.action_mode import action_mode_bar
from pytest_mobile_agent.virtual.apps.commons.dates import date_format, java_date, time_format
from pytest_mobile_agent.virtual.apps.commons.dialogs import properties_dialog
from pytest_mobile_agent.virtual.apps.commons.formats import format_size
from pytest_mobile_agent.virtual.apps.smsmessenger.selection import CONSTRAINT, SelectingActivity
from pytest_mobile_agent.virtual.apps.smsmessenger.store import SENT, SmsStore, digits, plural
from pytest_mobile_agent.virtual.system import providers
from pytest_mobile_agent.virtual.ui import widgets as w
from pytest_mobile_agent.virtual.ui.app import Activity, App
from pytest_mobile_agent.virtual.ui.view import (
    FRAME,
    IMAGE,
    LINEAR,
    RECYCLER,
    RELATIVE,
    SCROLL,
    TEXT,
    VIEW,
    VIEW_GROUP,
    View,
)

DOCUMENTS, DOCUMENTS_PICK = "com.google.android.documentsui", "com.android.documentsui.picker.PickActivity"
CAMERA = "com.android.camera2"
RECORDER = "com.simplemobiletools.voicerecorder"
NO_APP = "No valid app found"
KEYBOARD_DP = 260  # the picker takes the keyboard's place (config.keyboardHeight)


def is_image(name: str) -> bool:
    return (mimetypes.guess_type(name)[0] or "").startswith("image/")


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
        self.picker_open = False  # the attachment picker, where the keyboard would be
        self.attachments: list[str] = []  # device paths of the message being written
        tid = self.app.thread_id(self.address)
        if tid is not None:
            self.app.update_threads([tid], read=1)

    def on_back(self) -> bool:
        if super().on_back():  # the selection ends first
            return True
        if self.picker_open:
            self.picker_open = False
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
        composer = self.composer()
        messages_list = View(
            RELATIVE,
            id=a.rid("thread_messages_fastscroller"),
            weight=1,
            children=[w.scroll(a.rid("thread_messages_list"), items, cls=RECYCLER)],
        )
        holder = View(CONSTRAINT, id=a.rid("thread_holder"), weight=1, children=[messages_list, composer])
        return w.screen(top, [holder], id=a.rid("thread_coordinator"))

    def composer(self) -> View:
        """layout_thread_send_message_holder.xml: the attachments being sent, the row with the
        attach button, the field and Send ("MMS" with attachments), and the attachment picker."""
        a = self.app
        if self.picker_open and getattr(self.wm, "ime_shown", False):
            self.picker_open = False  # showOrHideAttachmentPicker: the keyboard came up in its place
        text = self.texts.get(self.FIELD, "")
        ready = bool(text or self.attachments)
        send = w.button(
            a.rid("thread_send_message"),
            "MMS" if self.attachments else "SMS",
            self.send,
            desc="OK",
            width=64,
            height=48,
        )
        send.enabled = send.clickable = ready
        attach = w.icon_button(
            a.rid("thread_add_attachment"),
            "Attachment",
            "close" if self.picker_open else "add",
            self.toggle_picker,
            cls=IMAGE,
        )
        row = View(
            VIEW_GROUP,
            orientation="h",
            height=64,
            padding=4,
            children=[attach, w.edit(self, self.FIELD, hint="Type a message…", weight=1), send],
        )
        children = []
        if self.attachments:
            previews = [self.attachment_preview(p) for p in self.attachments]
            children.append(
                View(
                    RECYCLER,
                    id=a.rid("thread_attachments_recyclerview"),
                    orientation="h",
                    height=80,
                    padding=8,
                    scrollable=True,
                    children=previews,
                )
            )
        children.append(row)
        if self.picker_open:
            children += [
                View(VIEW, id=a.rid("attachment_picker_divider"), height=1, kind="divider"),
                View(SCROLL, id=a.rid("attachment_picker_holder"), height=KEYBOARD_DP, children=[self.picker()]),
            ]
        return View(CONSTRAINT, id=a.rid("message_holder"), children=children)

    def attachment_preview(self, path: str) -> View:
        """item_attachment_media_preview.xml (images) or item_attachment_document_preview.xml,
        with the remove button (item_remove_attachment_button.xml)."""
        a, name = self.app, path.rsplit("/", 1)[-1]
        if is_image(name):
            holder = View(
                VIEW_GROUP,
                id=a.rid("media_attachment_holder"),
                width=64,
                height=64,
                children=[w.media(a.rid("thumbnail"), a.device.fs.host(path), "crop", 8, width=64, height=64)],
            )
        else:
            size = format_size(self.app.device.fs.host(path).stat().st_size)
            holder = View(
                LINEAR,
                id=a.rid("document_attachment_holder"),
                orientation="h",
                width=156,
                height=64,
                color="#eeeeee",
                children=[
                    w.image(a.rid("icon"), "", "description", width=40, height=40),
                    w.column(
                        [
                            w.text(a.rid("filename"), name, size=14, bold=True),
                            w.text(a.rid("file_size"), size, size=14),
                        ],
                        weight=1,
                    ),
                ],
            )
        remove = w.icon_button(
            a.rid("remove_attachment_button"), "", "close", lambda: self.attachments.remove(path), cls=IMAGE, size=24
        )
        holder_remove = View(FRAME, id=a.rid("remove_attachment_button_holder"), width=24, height=24, children=[remove])
        return View(
            VIEW_GROUP,
            id=a.rid("thread_attachment_wrapper"),
            orientation="stack",
            width=(64 if is_image(name) else 156) + 12,
            height=64,
            key=path,
            children=[holder, View(VIEW_GROUP, gravity="end", width=24, height=24, children=[holder_remove])],
        )

    def picker(self) -> View:
        """layout_attachment_picker.xml: eight 90 dp buttons, four a line (the Flow wraps them),
        each an icon on a coloured circle over its label."""
        a = self.app
        buttons = [
            View(
                LINEAR,
                id=a.rid(key),
                clickable=True,
                focusable=True,
                weight=1,
                padding=8,
                on_click=action,
                children=[
                    w.image(a.rid(f"{key}_icon"), "", icon, width=48, height=48, color=color, gravity="center"),
                    w.text(a.rid(f"{key}_text"), label, size=14, gravity="center", max_lines=2),
                ],
            )
            for key, label, icon, color, action in (
                ("choose_photo", "Choose photo", "image", "#f44336", partial(self.pick_file, "image/*")),
                ("choose_video", "Choose video", "video_camera_back", "#795548", partial(self.pick_file, "video/*")),
                ("take_photo", "Take photo", "photo_camera", "#e91e63", partial(self.capture, CAMERA)),
                ("record_video", "Record video", "videocam", "#9c27b0", partial(self.capture, CAMERA)),
                ("record_audio", "Record audio", "mic", "#009688", partial(self.capture, RECORDER)),
                ("pick_file", "Choose file", "description", "#4caf50", partial(self.pick_file, "*/*")),
                ("pick_contact", "Choose contact", "person", "#3f51b5", lambda: self.toast(NO_APP)),
                ("schedule_message", "Schedule message", "schedule", "#2196f3", lambda: None),
            )
        ]
        lines = [View(LINEAR, orientation="h", children=buttons[i : i + 4]) for i in (0, 4)]
        return View(CONSTRAINT, id=a.rid("attachment_picker"), padding=8, children=lines)

    def toggle_picker(self) -> None:
        """The attach button swaps the keyboard for the picker and back."""
        self.picker_open = not self.picker_open
        if self.picker_open:
            self.wm.ime_shown = False
        else:
            w.focus(self, self.FIELD)

    def pick_file(self, mime: str) -> None:
        """ACTION_GET_CONTENT: the system's document picker; its choice comes back as an attachment."""
        packages = self.app.device.packages
        if DOCUMENTS not in packages.models or not packages.is_installed(DOCUMENTS):
            self.toast(NO_APP)
            return
        docs = packages.app(DOCUMENTS)
        screen = docs.activity_class(DOCUMENTS_PICK)
        if screen is None:
            self.toast(NO_APP)
            return
        picker = self.wm.start_activity(docs, screen, {"mime": mime})
        picker.on_pick = self.add_attachment  # type: ignore[attr-defined]

    def capture(self, package: str) -> None:
        """ACTION_IMAGE_CAPTURE / ACTION_VIDEO_CAPTURE (the Camera) and RECORD_SOUND (Voice
        Recorder's main screen): the app opens; what it records does not come back here."""
        packages = self.app.device.packages
        if package in packages.models and packages.is_installed(package):
            target = packages.app(package)
            self.wm.start_activity(target, target.main_activity, {})
        else:
            self.toast(NO_APP)

    def add_attachment(self, path: str) -> None:
        if path in self.attachments:
            self.toast("Duplicate item was not included")
            return
        self.attachments.append(path)

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
        if m["attachments"]:
            body = self.with_attachments(m, body)
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

    def with_attachments(self, m: dict[str, Any], body: View) -> View:
        """item_message.xml's thread_message_attachments_holder above the text: an image part
        as item_attachment_image.xml, any other as item_attachment_document.xml."""
        a = self.app
        views = []
        for att in m["attachments"]:
            if att["mime"].startswith("image/"):
                views.append(
                    w.media(a.rid("attachment_image"), a.device.fs.host(att["path"]), "crop", 8, width=156, height=156)
                )
            else:
                views.append(
                    View(
                        LINEAR,
                        id=a.rid("document_attachment_holder"),
                        orientation="h",
                        width=200,
                        padding=8,
                        color=body.color,
                        children=[
                            w.image(a.rid("icon"), "", "description", width=40, height=40),
                            w.text(a.rid("filename"), att["name"], size=14, bold=True, weight=1),
                        ],
                    )
                )
        holder = View(LINEAR, id=a.rid("thread_message_attachments_holder"), children=views)
        children = [holder, body] if m["body"] else [holder]
        return View(
            LINEAR,
            long_clickable=True,
            on_long_click=body.on_long_click,
            gravity="end" if m["type"] == SENT else "start",
            children=children,
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
        if self.attachments:
            self.app.send_mms(self.address, text, self.attachments)
            self.attachments = []
        elif text:
            self.app.send(self.address, text)
        else:
            return
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
