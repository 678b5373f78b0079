"""Simple Contacts Pro (com.simplemobiletools.contacts.pro) 6.22.7: the main screen.

Ids, texts and flows follow docs/fidelity/contacts.md, learned from Simple-Contacts'
activity_main.xml, fragment_letters_layout.xml, menu.xml, cab.xml, MainActivity.kt,
MyViewPagerFragment.kt and ContactsAdapter.kt, and Simple-Commons' item_contact_*.xml,
models/contacts/Contact.kt (sorting, names), ChangeSortingDialog and FilterContactSourcesDialog.
Contacts are the rows of the contacts provider (contacts2.db: raw_contacts + data), read on
every screen build, so `content insert` seeding shows up and the app's edits reach
`content query`.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from pytest_mobile_agent.virtual.apps.commons.about import ProAboutActivity
from pytest_mobile_agent.virtual.apps.commons.action_mode import selection_mode_bar
from pytest_mobile_agent.virtual.apps.commons.menus import close_search, search_is_open, search_menu, split_menu
from pytest_mobile_agent.virtual.apps.commons.tabs import bottom_tabs
from pytest_mobile_agent.virtual.apps.contacts.contact import EditContactActivity, ViewContactActivity
from pytest_mobile_agent.virtual.apps.contacts.dialogs import (
    add_to_group_dialog,
    group_title_dialog,
    select_contacts_dialog,
)
from pytest_mobile_agent.virtual.apps.contacts.groups import GroupContactsActivity
from pytest_mobile_agent.virtual.apps.contacts.lists import contact_row
from pytest_mobile_agent.virtual.apps.contacts.settings import SettingsActivity
from pytest_mobile_agent.virtual.apps.contacts.store import (
    PHONE_STORAGE,
    PRIVATE_STORAGE,
    RECYCLER,
    ContactsStore,
    contact_matches,
    display_name,
    sort_contacts,
    source_name,
)
from pytest_mobile_agent.virtual.ui import widgets as w
from pytest_mobile_agent.virtual.ui.app import Activity, App
from pytest_mobile_agent.virtual.ui.view import CHECKBOX, IMAGE, RELATIVE, VIEW, VIEW_GROUP, View

SORTS = (
    ("first_name", "First name"),
    ("middle_name", "Middle name"),
    ("surname", "Surname"),
    ("full_name", "Full name"),
    ("date_created", "Date created"),
)
TABS = (("Contacts", "person"), ("Favorites", "star"), ("Groups", "person"))


class MainActivity(Activity):
    name = ".activities.MainActivity"

    def __init__(self, app: App, extras: dict[str, str] | None = None) -> None:
        super().__init__(app, extras)
        default = int(app.pref("default_tab", -1))
        self.tab = int(app.pref("last_used_tab", 0)) if default == -1 else default
        self.selected: set[int] = set()

    @property
    def store(self) -> ContactsStore:
        return ContactsStore(self.app)  # the provider's rows: nothing to keep between reads

    def on_back(self) -> bool:
        if search_is_open(self):
            close_search(self)
        elif self.selected:
            self.selected.clear()
        else:
            return False
        return True

    def pick_tab(self, i: int) -> None:
        close_search(self)
        self.tab, self.selected = i, set()
        self.app.set_pref("last_used_tab", i)

    def visible_contacts(self) -> list[dict[str, Any]]:
        a = self.app
        ignored = set(a.pref("ignored_sources", []))
        contacts = [c for c in self.store.all() if source_name(c["source"]) not in ignored]
        if a.pref("show_only_contacts_with_numbers", False):
            contacts = [c for c in contacts if c["numbers"]]
        if self.tab == 1:
            contacts = [c for c in contacts if c["starred"]]
        return sort_contacts(a, contacts, favorites=self.tab == 1)

    # -- actions --------------------------------------------------------------------------
    def open_contact(self, c: dict[str, Any]) -> None:
        if self.selected:
            self.selected ^= {c["id"]}
            return
        click = int(self.app.pref("on_contact_click", 1))
        if click == 0:
            self.toast("No valid app found")
        else:
            self.start(ViewContactActivity if click == 1 else EditContactActivity, contact_id=str(c["id"]))

    def select(self, c: dict[str, Any]) -> None:
        self.selected ^= {c["id"]}

    def fab(self) -> None:
        if self.tab == 0:
            self.start(EditContactActivity)
        elif self.tab == 1:
            self.show(select_contacts_dialog(self))
        else:
            self.create_group()

    def create_group(self) -> None:
        self.selected.clear()
        self.show(group_title_dialog(self, rename=None, on_done=lambda gid: None))

    def open_group(self, g: dict[str, Any]) -> None:
        if self.selected:
            self.selected ^= {g["id"]}
        else:
            self.start(GroupContactsActivity, group_id=str(g["id"]))

    def rename_group(self) -> None:
        (gid,) = self.selected
        group = next(g for g in self.store.groups() if g["id"] == gid)
        self.show(group_title_dialog(self, rename=group, on_done=lambda gid: self.selected.clear()))

    def delete_groups(self) -> None:
        chosen = [g for g in self.store.groups() if g["id"] in self.selected]
        what = f'"{chosen[0]["title"]}"' if len(chosen) == 1 else f"{len(chosen)} groups"

        def yes() -> None:
            self.store.delete_groups([g["id"] for g in chosen])
            self.selected.clear()

        self.show(w.confirm_dialog(self, f"Are you sure you want to delete {what}?", yes))

    def add_selected_to_group(self) -> None:
        chosen = sorted(self.selected)
        self.show(add_to_group_dialog(self, chosen, self.selected.clear))

    def show_sort(self) -> None:
        a = self.app
        options = SORTS + ((("custom", "Custom"),) if self.tab == 1 else ())

        def ok(by: str, desc: bool) -> None:
            a.set_pref("sort_by", by)
            a.set_pref("sort_descending", desc)

        self.show(
            w.sort_dialog(
                self,
                options,
                a.pref("sort_by", "first_name"),
                bool(a.pref("sort_descending", False)),
                ok,
                no_order=("custom",),
            )
        )

    def show_filter(self) -> None:
        """FilterContactSourcesDialog: "Source (count)" checkboxes, applied on OK."""
        a = self.app
        counts: dict[str, int] = {PHONE_STORAGE: 0, PRIVATE_STORAGE: 0}
        for c in self.store.all():
            counts[source_name(c["source"])] = counts.get(source_name(c["source"]), 0) + 1
        ignored = set(a.pref("ignored_sources", []))

        def toggle(name: str) -> None:
            ignored.symmetric_difference_update({name})

        def body() -> list[View]:
            rows = [
                View(
                    RELATIVE,
                    id=a.rid("filter_contact_source_holder"),
                    clickable=True,
                    focusable=True,
                    kind="row",
                    on_click=partial(toggle, name),
                    height=56,
                    children=[
                        View(
                            CHECKBOX,
                            id=a.rid("filter_contact_source_checkbox"),
                            text=f"{name} ({n})",
                            checkable=True,
                            checked=name not in ignored,
                            focusable=True,
                            kind="checkbox",
                            padding=8,
                        )
                    ],
                )
                for name, n in counts.items()
            ]
            return [w.scroll(a.rid("filter_contact_sources_list"), rows, cls=RECYCLER)]

        def ok() -> None:
            a.set_pref("ignored_sources", sorted(ignored))

        self.show(w.alert(self, "", body, positive=("OK", ok), negative=("Cancel", lambda: None)))

    def delete_selected(self) -> None:
        chosen = [c for c in self.visible_contacts() if c["id"] in self.selected]
        what = f'"{display_name(self.app, chosen[0])}"' if len(chosen) == 1 else f"{len(chosen)} contacts"

        def yes() -> None:
            self.store.delete([c["id"] for c in chosen])
            self.selected.clear()

        self.show(w.confirm_dialog(self, f"Are you sure you want to delete {what}?", yes))

    def star_selected(self, starred: bool) -> None:
        self.store.set_starred(sorted(self.selected), starred)
        self.selected.clear()

    def edit_selected(self) -> None:
        (contact_id,) = self.selected
        self.selected.clear()
        self.start(EditContactActivity, contact_id=str(contact_id))

    # -- the screen -------------------------------------------------------------------------
    def menu(self) -> tuple[list, list]:
        lists = self.tab in (0, 1)
        items = [
            ("sort", "Sort by", "sort", self.show_sort, "always", lists),
            ("filter", "Filter", "filter", self.show_filter, "always", lists),
            (
                "dialpad",
                "Dialpad",
                "phone",
                lambda: self.toast("No valid app found"),
                "ifRoom",
                not self.app.pref("show_dialpad_button", True),
            ),
            ("change_view_type", "Change view type", "menu", lambda: None, "ifRoom", self.tab == 1),
            ("settings", "Settings", "settings", lambda: self.start(SettingsActivity), "ifRoom", True),
            ("about", "About", "info", lambda: self.start(ProAboutActivity), "ifRoom", True),
        ]
        return split_menu([i[:5] for i in items if i[5]])

    def selection_bar(self, total: int) -> View:
        one = len(self.selected) == 1
        items = [
            ("cab_edit", "Edit contact", "edit", self.edit_selected, "always", one and self.tab == 0),
            (
                "cab_add_to_favorites",
                "Add to favorites",
                "star",
                lambda: self.star_selected(True),
                "always",
                self.tab == 0,
            ),
            ("cab_add_to_group", "Add to group", "group_add", self.add_selected_to_group, "always", True),
            ("cab_share", "Share", "share", lambda: self.toast("No valid app found"), "ifRoom", True),
            (
                "cab_send_sms_to_contacts",
                "Send SMS to contacts",
                "",
                lambda: self.toast("No valid app found"),
                "ifRoom",
                True,
            ),
            (
                "cab_send_email_to_contacts",
                "Send email to contacts",
                "",
                lambda: self.toast("No valid app found"),
                "ifRoom",
                True,
            ),
            ("cab_create_shortcut", "Create shortcut", "", lambda: None, "never", one),
            ("cab_select_all", "Select all", "", lambda: self._select_all(), "ifRoom", True),
            ("cab_delete", "Delete", "delete", self.delete_selected, "ifRoom", self.tab == 0),
            ("cab_remove", "Remove from favorites", "", lambda: self.star_selected(False), "ifRoom", self.tab == 1),
        ]
        return selection_mode_bar(self, self.selected, total, items, self._select_all)

    def groups_selection_bar(self, total: int) -> View:
        """cab_groups.xml: Rename (one group), Select all, Delete."""
        items = [
            ("cab_rename", "Rename", "edit", self.rename_group, "always", len(self.selected) == 1),
            ("cab_select_all", "Select all", "select_all", self._select_all, "always", True),
            ("cab_delete", "Delete", "delete", self.delete_groups, "always", True),
        ]
        return selection_mode_bar(self, self.selected, total, items, self._select_all)

    def _select_all(self) -> None:
        if self.tab == 2:
            self.selected.update(g["id"] for g in self.store.groups())
        else:
            self.selected.update(c["id"] for c in self.visible_contacts())

    def content(self) -> View:
        a = self.app
        actions, overflow = self.menu()
        top = search_menu(self, actions=actions, overflow=overflow)
        contacts = self.visible_contacts() if self.tab in (0, 1) else []
        if self.selected:
            bar = (
                self.groups_selection_bar(len(self.store.groups()))
                if self.tab == 2
                else self.selection_bar(len(contacts))
            )
            top = View(VIEW_GROUP, orientation="stack", height=64, children=[top, bar])
        page = self.groups_page() if self.tab == 2 else self.contacts_page(contacts)
        pager = w.pager(a.rid("view_pager"), [page], self.tab, len(TABS), self.pick_tab)
        over_tabs = [pager]
        if a.pref("show_dialpad_button", True):
            # Centred above the tabs (ConstraintLayout), over the list.
            dialpad = w.icon_button(a.rid("main_dialpad_button"), "Dialpad", "phone", self._dialpad, cls=IMAGE)
            dialpad.width = dialpad.height = 64
            dialpad.gravity, dialpad.vgravity, dialpad.kind = "center", "end", "fab"
            over_tabs.append(dialpad)
        area = View(VIEW_GROUP, orientation="stack", weight=1, children=over_tabs)
        holder = View(
            VIEW_GROUP,
            id=a.rid("main_holder"),
            weight=1,
            children=[area, bottom_tabs(self, TABS, self.tab, self.pick_tab)],
        )
        return w.screen(top, [holder], id=a.rid("main_coordinator"))

    def _dialpad(self) -> None:
        # ACTION_DIAL: no dialer app is installed on the virtual device
        self.toast("No valid app found")

    def contacts_page(self, contacts: list[dict[str, Any]]) -> View:
        a = self.app
        query = self.texts.get("top_toolbar_search", "")
        if query:
            contacts = [c for c in contacts if contact_matches(c, display_name(a, c), query)]
        rows = [
            contact_row(a, c, c["id"] in self.selected, partial(self.open_contact, c), partial(self.select, c))
            for c in contacts
        ]
        children: list[View] = []
        if not rows:
            favorites = self.tab == 1
            text = (
                "No contacts found"
                if not favorites or query
                else ("Seems like you haven't added any favorite contacts yet.")
            )
            children.append(w.text(a.rid("fragment_placeholder"), text, gravity="center", padding=16))
            if not query:
                children.append(
                    w.text(
                        a.rid("fragment_placeholder_2"),
                        "Add favorites" if favorites else "Change filter",
                        clickable=True,
                        gravity="center",
                        padding=8,
                        on_click=self.fab if favorites else self.show_filter,
                    )
                )
        children.append(w.scroll(a.rid("fragment_list"), rows, cls=RECYCLER))
        children.append(View(VIEW, id=a.rid("letter_fastscroller"), width=0, height=0))
        desc = "Add favorites" if self.tab == 1 else "Create new contact"
        wrapper = View(RELATIVE, id=a.rid("fragment_wrapper"), children=children)
        page_id = "favorites_fragment" if self.tab == 1 else "contacts_fragment"
        return View(
            VIEW_GROUP,
            id=a.rid(page_id),
            orientation="stack",
            weight=1,
            children=[wrapper, w.fab(a.rid("fragment_fab"), desc, "add" if self.tab == 0 else "star", self.fab)],
        )

    def groups_page(self) -> View:
        """GroupsFragment (item_group.xml rows): "Title (N)", N the contacts in the group."""
        a = self.app
        rows = [
            View(
                VIEW_GROUP,
                id=a.rid("group_frame"),
                clickable=True,
                long_clickable=True,
                selected=g["id"] in self.selected,
                kind="row",
                on_click=partial(self.open_group, g),
                on_long_click=partial(self.selected.symmetric_difference_update, {g["id"]}),
                children=[
                    View(
                        RELATIVE,
                        id=a.rid("group_holder"),
                        orientation="h",
                        height=64,
                        padding=8,
                        children=[
                            w.image(a.rid("group_tmb"), "", "groups", width=44, height=44, color="#9e9e9e"),
                            w.text(a.rid("group_name"), f"{g['title']} ({g['count']})", weight=1, padding=8),
                        ],
                    )
                ],
            )
            for g in self.store.groups()
        ]
        children: list[View] = []
        if not rows:
            children += [
                w.text(
                    a.rid("fragment_placeholder"),
                    "There are no contact groups on the device",
                    gravity="center",
                    padding=16,
                ),
                w.text(
                    a.rid("fragment_placeholder_2"),
                    "Create group",
                    clickable=True,
                    gravity="center",
                    padding=8,
                    on_click=self.create_group,
                ),
            ]
        children.append(w.scroll(a.rid("fragment_list"), rows, cls=RECYCLER))
        wrapper = View(RELATIVE, id=a.rid("fragment_wrapper"), children=children)
        return View(
            VIEW_GROUP,
            id=a.rid("groups_fragment"),
            orientation="stack",
            weight=1,
            children=[wrapper, w.fab(a.rid("fragment_fab"), "Create group", "add", self.create_group)],
        )
