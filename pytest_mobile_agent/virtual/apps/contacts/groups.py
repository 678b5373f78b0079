"""A group's members (GroupContactsActivity, activity_group_contacts.xml, menu_group.xml): the
contacts in the group, "Add contacts" (SelectContactsDialog with the members ticked) and, in the
selection, "Remove from group"."""

from __future__ import annotations

from functools import partial
from typing import Any

from pytest_mobile_agent.virtual.apps.commons.action_mode import selection_mode_bar
from pytest_mobile_agent.virtual.apps.commons.menus import split_menu
from pytest_mobile_agent.virtual.apps.contacts.contact import EditContactActivity, ViewContactActivity
from pytest_mobile_agent.virtual.apps.contacts.dialogs import NO_APP, select_contacts_dialog
from pytest_mobile_agent.virtual.apps.contacts.lists import contact_row
from pytest_mobile_agent.virtual.apps.contacts.store import RECYCLER, ContactsStore, sort_contacts
from pytest_mobile_agent.virtual.ui import widgets as w
from pytest_mobile_agent.virtual.ui.app import Activity, App
from pytest_mobile_agent.virtual.ui.view import RELATIVE, VIEW_GROUP, View


class GroupContactsActivity(Activity):
    name = ".activities.GroupContactsActivity"

    def __init__(self, app: App, extras: dict[str, str] | None = None) -> None:
        super().__init__(app, extras)
        self.group_id = int(self.extras.get("group_id", "0"))
        self.selected: set[int] = set()

    @property
    def store(self) -> ContactsStore:
        return ContactsStore(self.app)

    def on_back(self) -> bool:
        if self.selected:
            self.selected.clear()
            return True
        return False

    def members(self) -> list[dict[str, Any]]:
        return sort_contacts(self.app, [c for c in self.store.all() if self.group_id in c["groups"]])

    def add_contacts(self) -> None:
        ids = {c["id"] for c in self.members()}

        def done(added: list[int], removed: list[int]) -> None:
            self.store.set_members(self.group_id, added, removed)

        self.show(select_contacts_dialog(self, ids, done))

    def open(self, c: dict[str, Any]) -> None:
        """handleGenericContactClick, as the main lists open a contact."""
        if self.selected:
            self.selected ^= {c["id"]}
            return
        click = int(self.app.pref("on_contact_click", 1))
        if click == 0:
            self.toast(NO_APP)
        else:
            self.start(ViewContactActivity if click == 1 else EditContactActivity, contact_id=str(c["id"]))

    def remove_selected(self) -> None:
        self.store.set_members(self.group_id, [], sorted(self.selected))
        self.selected.clear()

    def content(self) -> View:
        a = self.app
        group = next((g for g in self.store.groups() if g["id"] == self.group_id), None)
        members = self.members()
        if self.selected:
            items = [
                ("cab_remove", "Remove from group", "", self.remove_selected, "ifRoom", True),
                (
                    "cab_select_all",
                    "Select all",
                    "",
                    lambda: self.selected.update(c["id"] for c in members),
                    "ifRoom",
                    True,
                ),
            ]
            top = selection_mode_bar(self, self.selected, len(members), items, lambda: None)
        else:
            actions, overflow = split_menu(
                [
                    ("assign_ringtone_to_group", "Ringtone", "music_note", lambda: self.toast(NO_APP), "always"),
                    ("send_sms_to_group", "Send SMS to group", "message", self.to_group, "always"),
                    ("send_email_to_group", "Send email to group", "email", self.to_group, "always"),
                ]
            )
            top = w.toolbar(
                self,
                "group_contacts_toolbar",
                group["title"] if group else "",
                actions=actions,
                overflow=overflow,
                back=True,
            )
        children: list[View] = []
        if not members:
            children += [
                w.text(a.rid("group_contacts_placeholder"), "This group is empty", gravity="center", padding=16),
                w.text(
                    a.rid("group_contacts_placeholder_2"),
                    "Add contacts",
                    clickable=True,
                    gravity="center",
                    padding=8,
                    on_click=self.add_contacts,
                ),
            ]
        else:
            rows = [
                contact_row(a, c, c["id"] in self.selected, partial(self.open, c), partial(self.toggle, c["id"]))
                for c in members
            ]
            listing = w.scroll(a.rid("group_contacts_list"), rows, cls=RECYCLER)
            children.append(View(RELATIVE, id=a.rid("group_contacts_fastscroller"), weight=1, children=[listing]))
        wrapper = View(RELATIVE, id=a.rid("group_contacts_wrapper"), weight=1, children=children)
        fab = w.fab(a.rid("group_contacts_fab"), "", "add", self.add_contacts)
        holder = View(
            VIEW_GROUP, id=a.rid("group_contacts_holder"), orientation="stack", weight=1, children=[wrapper, fab]
        )
        return w.screen(top, [holder], id=a.rid("group_contacts_coordinator"))

    def toggle(self, cid: int) -> None:
        self.selected ^= {cid}

    def to_group(self) -> None:
        """sendSMSToGroup / sendEmailToGroup: nothing to send to without members, else no app here."""
        self.toast("No contacts found" if not self.members() else NO_APP)
