"""SMS Messenger's settings, blocked numbers and keywords, and conversation details screens.

Learned from Simple-SMS-Messenger's activity_settings.xml + SettingsActivity.kt,
activity_manage_blocked_keywords.xml, dialog_add_blocked_keyword.xml,
activity_conversation_details.xml and Simple-Commons' ManageBlockedNumbersScreen.kt and
AddBlockedNumberDialog.kt (Jetpack Compose: texts and content-descs, no resource ids).
See docs/fidelity/smsmessenger.md.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from pytest_mobile_agent.virtual.apps.commons.about import COMMONS, compose_top_bar
from pytest_mobile_agent.virtual.apps.commons.customization import CustomizationActivity
from pytest_mobile_agent.virtual.apps.commons.dates import date_time_format_dialog
from pytest_mobile_agent.virtual.apps.commons.settings import (
    language_name,
    settings_check,
    settings_link,
    settings_protected,
    settings_screen,
    settings_section,
    settings_value,
)
from pytest_mobile_agent.virtual.apps.smsmessenger.store import FONT_SIZES
from pytest_mobile_agent.virtual.ui import widgets as w
from pytest_mobile_agent.virtual.ui.app import Activity, App, Overlay
from pytest_mobile_agent.virtual.ui.view import (
    BUTTON,
    CHECKBOX,
    FRAME,
    IMAGE,
    LINEAR,
    RECYCLER,
    RELATIVE,
    TEXT,
    VIEW,
    View,
)

if TYPE_CHECKING:
    from pytest_mobile_agent.virtual.apps.smsmessenger.main import Messenger

LOCK_SCREEN = ("Sender and message", "Sender only", "Nothing")
MMS_LIMITS = ("No limit", "2MB", "1MB", "600KB", "300KB", "200KB", "100KB")
OUTGOING = (  # (name, label, default)
    ("show_character_counter", "Show a character counter at writing messages", False),
    ("use_simple_characters", "Remove accents and diacritics at sending messages", False),
    ("send_on_enter", "Send message on pressing Enter", False),
    ("enable_delivery_reports", "Enable delivery reports", False),
    ("send_long_message_mms", "Send long messages as MMS", False),
    ("send_group_message_mms", "Send group messages as MMS", False),
)


class SelectingActivity(Activity):
    """A Messenger screen with an action mode over `selected` (conversations, messages or
    blocked numbers): BACK first ends the selection."""

    def __init__(self, app: App, extras: dict[str, str] | None = None) -> None:
        super().__init__(app, extras)
        self.selected: list = []

    @property
    def sms(self) -> Messenger:
        return self.app  # type: ignore[return-value]

    def on_back(self) -> bool:
        if self.selected:
            self.selected = []
            return True
        return False


class SettingsActivity(Activity):
    name = ".activities.SettingsActivity"

    def choice(self, pref: str, options: tuple[str, ...], default: int) -> Callable[[], None]:
        """A RadioGroupDialog without title or buttons: a tap saves and closes."""
        app = self.app
        return lambda: self.show(
            w.radio_dialog(self, options, int(app.pref(pref, default)), lambda i: app.set_pref(pref, i))
        )

    def content(self) -> View:
        a = self.app
        value = lambda pref, options, default: options[int(a.pref(pref, default))]  # noqa: E731
        rows = [
            settings_section(self, "color_customization_section_label", "Color customization"),
            settings_link(self, "color_customization", "Customize colors", lambda: self.start(CustomizationActivity)),
            settings_section(self, "general_settings_label", "General"),
            settings_value(self, "language", "Language", language_name(), lambda: None),
            settings_link(
                self,
                "change_date_time_format",
                "Change date and time format",
                lambda: self.show(date_time_format_dialog(self)),
                label_id="settings_change_date_time_format",
            ),
            settings_link(
                self,
                "manage_blocked_numbers",
                "Manage blocked numbers",
                lambda: self.start(ManageBlockedNumbersActivity),
                label_id="settings_manage_blocked_numbers",
            ),
            settings_link(
                self,
                "manage_blocked_keywords",
                "Manage blocked keywords",
                lambda: self.start(ManageBlockedKeywordsActivity),
                label_id="settings_manage_blocked_keywords",
            ),
            settings_value(
                self,
                "font_size",
                "Font size",
                value("font_size", FONT_SIZES, 1),
                self.choice("font_size", FONT_SIZES, 1),
            ),
            settings_section(self, "notifications_label", "Notifications"),
            settings_link(self, "customize_notifications", "Customize notifications", lambda: None),
            settings_value(
                self,
                "lock_screen_visibility",
                "Lock screen notification visibility",
                value("lock_screen_visibility", LOCK_SCREEN, 0),
                self.choice("lock_screen_visibility", LOCK_SCREEN, 0),
            ),
            settings_section(self, "outgoing_messages_label", "Outgoing messages"),
            *[settings_check(self, name, label, name, default) for name, label, default in OUTGOING],
            settings_value(
                self,
                "mms_file_size_limit",
                "Resize sent MMS images",
                value("mms_file_size_limit", MMS_LIMITS, 3),
                self.choice("mms_file_size_limit", MMS_LIMITS, 3),
            ),
            settings_section(self, "recycle_bin_label", "Recycle Bin"),
            settings_check(
                self, "use_recycle_bin", "Move items into the Recycle Bin instead of deleting", "use_recycle_bin", False
            ),
        ]
        if a.pref("use_recycle_bin", False):
            rows.append(
                settings_value(
                    self,
                    "empty_recycle_bin",
                    "Empty the Recycle Bin",
                    "0 B",
                    lambda: self.toast("The Recycle Bin is empty"),
                )
            )
        rows += [
            settings_section(self, "security_label", "Security"),
            settings_protected(
                self, "app_password_protection", "Password protect the whole application", "app_password_protection"
            ),
            settings_section(self, "migrating_label", "Migrating"),
            settings_link(self, "export_messages", "Export messages", lambda: self.toast("Exporting…")),
            settings_link(self, "import_messages", "Import messages", lambda: self.toast("Importing…")),
        ]
        return settings_screen(self, rows)


def compose_button(label: str, action: Callable[[], None]) -> View:
    """A Compose TextButton: a clickable Button node carrying its text, no id."""
    return View(
        BUTTON, text=label, clickable=True, focusable=True, on_click=action, kind="button", height=48, padding=8
    )


def compose_check(label: str, checked: bool, action: Callable[[], None]) -> View:
    return View(
        VIEW,
        clickable=True,
        focusable=True,
        kind="row",
        orientation="h",
        padding=8,
        on_click=action,
        children=[
            View(TEXT, text=label, weight=1),
            View(CHECKBOX, checkable=True, checked=checked, kind="checkbox", width=48, height=48),
        ],
    )


class ManageBlockedNumbersActivity(SelectingActivity):
    """commons' Compose screen; its top bar reads "Manage blocked numbers"."""

    name = f"{COMMONS}.ManageBlockedNumbersActivity"
    FIELD = "add_blocked_number"
    selected: list[str]

    def content(self) -> View:
        a = self.app
        numbers = self.sms.blocked()
        if self.selected:
            icon = lambda desc, name, action: View(
                VIEW,
                desc=desc,
                clickable=True,
                on_click=action,
                icon=name,  # noqa: E731
                kind="icon",
                width=48,
                height=48,
            )
            top = View(
                VIEW,
                orientation="h",
                height=56,
                kind="toolbar",
                color="dark",
                children=[
                    icon("Back", "back", self.end_selection),
                    View(TEXT, text=f"{len(self.selected)} / {len(numbers)}", text_size=20, weight=1, padding=12),
                    icon("Copy", "copy", self.copy),
                    icon("Delete", "delete", self.delete),
                ],
            )
        else:
            top = compose_top_bar(self, "Manage blocked numbers")
            top.children += [
                View(
                    VIEW,
                    desc="Add a blocked number",
                    clickable=True,
                    on_click=lambda: self.edit(None),
                    icon="add",
                    kind="icon",
                    width=48,
                    height=48,
                ),
                View(
                    VIEW,
                    desc="More options",
                    clickable=True,
                    on_click=self.more,
                    icon="more",
                    kind="icon",
                    width=48,
                    height=48,
                ),
            ]
        flip = lambda pref: lambda: a.set_pref(pref, not a.pref(pref, False))  # noqa: E731
        rows: list[View] = [
            compose_check(
                "Block messages from not stored contacts", a.pref("block_unknown", False), flip("block_unknown")
            ),
            compose_check("Block messages from hidden numbers", a.pref("block_hidden", False), flip("block_hidden")),
        ]
        names = self.sms.contact_names()
        if not numbers:
            rows += [
                View(TEXT, text="You are not blocking anyone.", padding=16),
                View(TEXT, text="Add a blocked number", clickable=True, on_click=lambda: self.edit(None), padding=8),
            ]
        for number in numbers:
            texts = [View(TEXT, text=number)]
            name = self.sms.title_of(number, names)
            if name != number:
                texts.append(View(TEXT, text=name, text_size=14))
            rows.append(
                View(
                    VIEW,
                    clickable=True,
                    long_clickable=True,
                    focusable=True,
                    kind="row",
                    padding=12,
                    selected=number in self.selected,
                    children=texts,
                    on_click=lambda n=number: self.tap(n),
                    on_long_click=lambda n=number: self.toggle(n),
                )
            )
        return View(VIEW, children=[top, w.scroll("", rows, cls=VIEW)])

    def tap(self, number: str) -> None:
        if self.selected:
            self.toggle(number)
        else:
            self.edit(number)

    def toggle(self, number: str) -> None:
        if number in self.selected:
            self.selected.remove(number)
        else:
            self.selected.append(number)

    def end_selection(self) -> None:
        self.selected = []

    def copy(self) -> None:
        self.toast("Value copied to clipboard")
        self.end_selection()

    def delete(self) -> None:
        self.sms.set_blocked([n for n in self.sms.blocked() if n not in self.selected])
        self.end_selection()

    def more(self) -> None:
        items = (
            ("", "Import blocked numbers", lambda: self.toast("Importing…")),
            ("", "Export blocked numbers", lambda: self.toast("Exporting…")),
        )
        self.show(w.popup_menu(self, items))

    def edit(self, number: str | None) -> None:
        """AddBlockedNumberDialog: the "Number" field (focused), helper text, Cancel / OK."""
        self.texts[self.FIELD] = number or ""

        def close() -> None:
            self.dismiss(overlay)
            self.focus = None
            self.wm.ime_shown = False

        def ok() -> None:
            value = self.texts.get(self.FIELD, "").strip()
            close()
            if not value:
                return
            current = [n for n in self.sms.blocked() if n != number]
            if value not in current:
                current.append(value)
            self.sms.set_blocked(current)

        def build() -> View:
            field = w.edit(self, "", key=self.FIELD, hint="Number")
            helper = View(
                TEXT,
                text="Enter a number or a pattern (e.g. *12345*, +1*8888) to block all calls and "
                "messages from numbers matching the pattern.",
                text_size=12,
                padding=4,
            )
            buttons = View(
                VIEW,
                orientation="h",
                height=56,
                children=[View(weight=1), compose_button("Cancel", close), compose_button("OK", ok)],
            )
            return View(VIEW, padding=16, children=[field, helper, buttons])

        overlay = Overlay(build, title="", on_cancel=close)
        self.show(overlay)
        w.focus(self, self.FIELD)


class ManageBlockedKeywordsActivity(Activity):
    name = ".activities.ManageBlockedKeywordsActivity"
    FIELD = "add_blocked_keyword_edittext"

    def content(self) -> View:
        a = self.app
        keywords: list[str] = a.load("blocked_keywords", [])
        bar = w.toolbar(
            self,
            "block_keywords_toolbar",
            "Manage blocked keywords",
            back=True,
            actions=(("add_blocked_keyword", "Add a blocked keyword", "add", self.add),),
        )
        if keywords:
            rows = [
                View(
                    RELATIVE,
                    id=a.rid("manage_blocked_keyword_holder"),
                    kind="row",
                    padding=12,
                    children=[w.text(a.rid("manage_blocked_keyword_title"), k)],
                )
                for k in keywords
            ]
            body = [w.scroll(a.rid("manage_blocked_keywords_list"), rows, cls=RECYCLER)]
        else:
            body = [
                w.text(
                    a.rid("manage_blocked_keywords_placeholder"),
                    "You are not blocking any keywords. You may "
                    "add keywords here to block all messages containing them.",
                    padding=24,
                ),
                w.text(
                    a.rid("manage_blocked_keywords_placeholder_2"),
                    "Add a blocked keyword",
                    padding=8,
                    clickable=True,
                    on_click=self.add,
                ),
            ]
        wrapper = View(FRAME, id=a.rid("manage_blocked_keywords_wrapper"), weight=1, children=[w.column(body)])
        return w.screen(bar, [wrapper], id=a.rid("block_keywords_coordinator"))

    def add(self) -> None:
        a = self.app
        self.texts[self.FIELD] = ""

        def ok() -> None:
            self.focus = None
            value = self.texts.get(self.FIELD, "").strip()
            if value:
                a.save("blocked_keywords", [*a.load("blocked_keywords", []), value])

        def body() -> list[View]:
            field = w.edit(self, self.FIELD, hint="Keyword")
            hint = View(LINEAR, id=a.rid("add_blocked_keyword_hint"), children=[field])
            return [View(RELATIVE, id=a.rid("dialog_holder"), padding=8, children=[hint])]

        self.show(w.alert(self, "", body, positive=("OK", ok), negative=("Cancel", lambda: None)))
        w.focus(self, self.FIELD)


class ConversationDetailsActivity(Activity):
    name = ".activities.ConversationDetailsActivity"

    def content(self) -> View:
        a = self.app
        sms: Messenger = a  # type: ignore[assignment]
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


SETTINGS_ACTIVITIES = (
    SettingsActivity,
    CustomizationActivity,
    ManageBlockedNumbersActivity,
    ManageBlockedKeywordsActivity,
    ConversationDetailsActivity,
)
