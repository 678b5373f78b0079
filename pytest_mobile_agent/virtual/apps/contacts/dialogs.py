"""The dialogs Simple Contacts' screens share: the visible fields, checkbox lists and the contact
picker (Simple-Commons' and Simple-Contacts' dialogs)."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from pytest_mobile_agent.virtual.apps.contacts.store import RECYCLER, ContactsStore, display_name, sort_contacts
from pytest_mobile_agent.virtual.ui import widgets as w
from pytest_mobile_agent.virtual.ui.app import Activity, App
from pytest_mobile_agent.virtual.ui.view import CHECKBOX, LINEAR, RELATIVE, View

# -- shown contact fields (BaseConfig.showContactFields) --------------------------------------
FIELDS = (
    ("prefix", "Prefix", False),
    ("first_name", "First name", True),
    ("middle_name", "Middle name", False),
    ("surname", "Surname", True),
    ("suffix", "Suffix", False),
    ("nickname", "Nickname", False),
    ("phone_numbers", "Phone numbers", True),
    ("emails", "Emails", True),
    ("addresses", "Addresses", True),
    ("ims", "Instant messaging (IM)", False),
    ("events", "Events (birthdays, anniversaries)", True),
    ("notes", "Notes", True),
    ("ringtone", "Ringtone", False),
    ("organization", "Organization", False),
    ("websites", "Websites", False),
    ("groups", "Groups", True),
    ("contact_source", "Contact source", True),
)
NAME_FIELDS = (
    ("prefix", "prefix", "Prefix"),
    ("first_name", "first", "First name"),
    ("middle_name", "middle", "Middle name"),
    ("surname", "surname", "Surname"),
    ("suffix", "suffix", "Suffix"),
    ("nickname", "nickname", "Nickname"),
)
NO_APP = "No valid app found"


def shown_fields(app: App) -> set[str]:
    return set(app.pref("shown_fields", [key for key, _, on in FIELDS if on]))


def checks_dialog(
    activity: Activity,
    prefix: str,
    items: list[tuple[str, str, str]],
    chosen: set[str],
    on_ok: Callable[[set[str]], None],
):
    """A title-less dialog of checkboxes in a ScrollView (ManageVisibleFields/TabsDialog)."""
    app, state = activity.app, set(chosen)

    def body() -> list[View]:
        boxes = [
            w.checkbox(app.rid(rid), label, key in state, partial(state.symmetric_difference_update, {key}))
            for key, rid, label in items
        ]
        holder = View(LINEAR, id=app.rid(f"{prefix}_holder"), children=boxes)
        return [w.scroll(app.rid(f"{prefix}_scroll_view"), [holder], cls=w.SCROLL)]  # buttons stay on screen

    return w.alert(activity, "", body, positive=("OK", lambda: on_ok(state)), negative=("Cancel", lambda: None))


def manage_fields_dialog(activity: Activity):
    app = activity.app
    items = [
        (key, "manage_ringtone" if key == "ringtone" else f"manage_visible_fields_{key}", label)
        for key, label, _ in FIELDS
    ]
    return checks_dialog(
        activity, "manage_visible_fields", items, shown_fields(app), lambda s: app.set_pref("shown_fields", sorted(s))
    )


def select_contacts_dialog(activity: Activity):
    """SelectContactsDialog for "Add favorites": every contact with a checkbox, starred ones ticked."""
    app = activity.app
    store = ContactsStore(app)
    contacts = sort_contacts(app, store.all())
    state = {c["id"] for c in contacts if c["starred"]}

    def body() -> list[View]:
        rows = [
            View(
                w.FRAME,
                id=app.rid("contact_frame"),
                clickable=True,
                kind="row",
                height=56,
                on_click=partial(state.symmetric_difference_update, {c["id"]}),
                children=[
                    View(
                        RELATIVE,
                        id=app.rid("contact_holder"),
                        orientation="h",
                        children=[
                            w.text(app.rid("contact_name"), display_name(app, c), weight=1, padding=8),
                            View(
                                CHECKBOX,
                                id=app.rid("contact_checkbox"),
                                checkable=True,
                                checked=c["id"] in state,
                                kind="checkbox",
                                width=48,
                            ),
                        ],
                    )
                ],
            )
            for c in contacts
        ]
        children = [w.scroll(app.rid("select_contact_list"), rows, cls=RECYCLER)]
        if not contacts:
            children.append(w.text(app.rid("select_contact_placeholder"), "No contacts found", padding=16))
        return [View(RELATIVE, id=app.rid("select_contact_holder"), children=children)]

    def ok() -> None:
        store.set_starred([c["id"] for c in contacts if c["id"] in state], True)
        store.set_starred([c["id"] for c in contacts if c["id"] not in state], False)

    return w.alert(activity, "", body, positive=("OK", ok), negative=("Cancel", lambda: None))
