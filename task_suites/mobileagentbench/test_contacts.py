"""Contacts tasks (MobileAgentBench contacts_*).

Contacts are the contacts provider's rows, which `pm clear` of the app does not reset, so every
task starts from a known state: no Yuzai (or Zack), or MobileAgentBench's setup (Yuzai with the
number 123456789, seeded with `content insert` instead of through the editor). Contacts are
read back from the provider and settings from the app's data; screens only where the task is to
show something (a search, the About page, the list after a filter or a sort).

MobileAgentBench mostly judged by a click (the star, "Yes", a "Phone storage" row) or by texts
seen on the way (the editor's fields); here the contact must be saved, starred or gone, and the
setting stored.
"""

from __future__ import annotations

import re

import pytest

from pytest_mobile_agent import LongPress, Tap, Type, task
from task_suites.shared.apps import CONTACTS, rid
from task_suites.shared.near_misses import NO_ALLOWANCE, SCREEN_ONLY, labelled, not_applicable
from task_suites.shared.reading import pref
from task_suites.shared.seeds import NUMBER, add_contact, clear_contacts
from task_suites.shared.variations import FIRST_NAMES, phone_number

MORE = Tap(desc="More options")
OK = Tap(text="OK")
YUZAI = Tap(text="Yuzai")  # a list row: opens the contact's details
SEARCH = rid(CONTACTS, "top_toolbar_search")
ZACK_NUMBER = "555123"
SAVE = Tap(desc="Save")
STAR = Tap(id=rid(CONTACTS, "contact_toggle_favorite"))
SETTINGS = [MORE, Tap(text="Settings")]
NO_MERGING = Tap(id=rid(CONTACTS, "settings_merge_duplicate_contacts_holder"))
HIDE_DIALPAD = Tap(id=rid(CONTACTS, "settings_show_dialpad_button_holder"))
DELETE_ZACK = [Tap(text="Zack"), Tap(desc="Delete"), Tap(text="Yes")]
ONE_CONTACT = "one contact, changed in place: every field of it is compared"
ONE_SETTING = "one stored setting, read back; any other setting changed fails the task"
READ_BACK = "the contacts are read from the provider, not the screen"
# BaseConfig.showContactFields: the fields shown by default.
DEFAULT_FIELDS = {
    "first_name",
    "surname",
    "phone_numbers",
    "emails",
    "addresses",
    "events",
    "notes",
    "groups",
    "contact_source",
}


# Every fixture starts from no contacts at all, whatever an earlier episode left.
@pytest.fixture
def no_yuzai(device):
    clear_contacts(device)


@pytest.fixture
def only_zack(device):
    """contacts_create's setup: no Yuzai, but another contact (Zack) an agent could rename."""
    clear_contacts(device)
    add_contact(device, "Zack", ZACK_NUMBER)


@pytest.fixture
def yuzai(device):
    """MobileAgentBench's setup: Yuzai with the number 123456789, the only contact."""
    clear_contacts(device)
    add_contact(device, "Yuzai", NUMBER)


@pytest.fixture
def yuzai_and_zack(device):
    """Yuzai, and Zack: a contact the task must leave alone."""
    clear_contacts(device)
    add_contact(device, "Yuzai", NUMBER)
    add_contact(device, "Zack", ZACK_NUMBER)


@pytest.fixture
def yuzai_with_email(device):
    """contacts_hide_email's setup: Yuzai also has the email yuzai@gmail.com."""
    clear_contacts(device)
    add_contact(device, "Yuzai", NUMBER, email="yuzai@gmail.com")


@pytest.fixture
def yuzai_then_zack(device):
    """contacts_sort's setup: Yuzai, then Zack (created later), both with 123456789."""
    clear_contacts(device)
    add_contact(device, "Yuzai", NUMBER)
    add_contact(device, "Zack", NUMBER)


def changed_fields(change) -> set[str]:
    """The fields of a contact that a change touched."""
    before, after = change.before, change.after
    return {k for k in set(before) | set(after) if before.get(k) != after.get(k)}


def numbers_of(device, name: str) -> list[str] | None:
    """The phone numbers of the (live) contact `name`, None if there is no such contact."""
    out = device.sh(
        "content query --uri content://com.android.contacts/data/phones --projection data1 "
        f"--where \"display_name='{name}'\""
    )
    if "data1=" in out:
        return [line.split("data1=", 1)[1].strip() for line in out.splitlines() if "data1=" in line]
    out = device.sh(
        "content query --uri content://com.android.contacts/contacts --projection _id "
        f"--where \"display_name='{name}'\""
    )
    return [] if "_id=" in out else None


def starred(device, name: str) -> list[str]:
    """The `starred` values of the live contacts named `name`."""
    out = device.sh(
        "content query --uri content://com.android.contacts/contacts --projection starred "
        f"--where \"display_name='{name}'\""
    )
    return re.findall(r"starred=(\d+)", out)


def list_names(ui) -> list[str]:
    return [n.text for n in ui.find_all(id=rid(CONTACTS, "item_contact_name"))]


# -- creating and changing contacts -------------------------------------------------------------


def new_contact(*fields: tuple[str, str], star: bool = False) -> list:
    """The editor of a new contact: each (field id, text) tapped and typed, then saved."""
    steps = [Tap(id=rid(CONTACTS, "fragment_fab"))]
    for field, text in fields:
        steps += [Tap(id=rid(CONTACTS, field)), Type(text)]
    return [*steps, *([STAR] if star else []), SAVE]


@pytest.mark.parametrize("name, number", [("Yuzai", NUMBER)])
@not_applicable(allowance=NO_ALLOWANCE, lookalike=READ_BACK)
@task(
    prompt="Create a new contact, his First Name is {name}, and his Phone Number is {number}",
    app=CONTACTS,
    name="contacts_create",
    # Each field tapped, then typed in: the table's 6 steps (a `Type` with the field's id does both).
    golden=lambda name, number: new_contact(("contact_first_name", name), ("contact_number", number)),
    near_miss={
        "a digit missed": lambda name, number: new_contact(
            ("contact_first_name", name), ("contact_number", number[:-1])
        ),
        "the name as surname": lambda name, number: new_contact(("contact_surname", name), ("contact_number", number)),
        "the name as first name and surname": lambda name, number: new_contact(
            ("contact_first_name", name), ("contact_surname", name), ("contact_number", number)
        ),
        "Zack renamed instead": lambda name, number: [
            Tap(text="Zack"),
            Tap(desc="Edit contact"),
            LongPress(id=rid(CONTACTS, "contact_first_name")),
            Type(name),
            LongPress(id=rid(CONTACTS, "contact_number")),
            Type(number),
            SAVE,
        ],
        labelled("field", "saved as a favorite"): lambda name, number: new_contact(
            ("contact_first_name", name), ("contact_number", number), star=True
        ),
        "created and Zack deleted": lambda name, number: [
            *new_contact(("contact_first_name", name), ("contact_number", number)),
            *DELETE_ZACK,
        ],
        labelled("multiset", "saved twice"): lambda name, number: [
            *new_contact(("contact_first_name", name), ("contact_number", number)),
            *new_contact(("contact_first_name", name), ("contact_number", number)),
        ],
    },
    variations=lambda rng: {"name": rng.choice(FIRST_NAMES), "number": phone_number(rng)},
)
def test_contacts_create(only_zack, device, changes, name, number):
    # MobileAgentBench took the editor's fields as typed plus a list row reading Yuzai; the
    # contact must be saved, a new one (Zack untouched), with Yuzai as first name and that number.
    contact = changes.added("contacts")
    assert contact.get("name.data2") == name, f"first name: {contact.get('name.data2')!r}"
    # Nothing typed into another field: the name is the first name alone, the one number, no more.
    extra = {k for k in contact if "." in k and not k.startswith("phone.")} - {"name.data1", "name.data2"}
    assert not extra, f"fields the prompt did not name: { {k: contact[k] for k in sorted(extra)} }"
    assert contact.get("starred") == "0", f"{name} is a favorite, which nobody asked"
    assert numbers_of(device, name) == [number], f"no saved contact {name} with the number {number}"


# The table counts 4 steps, which needs the number field set in one go. Typing appends at the
# cursor, so the old number is selected first (a long press selects the word): 5 steps.
def edit_number(number: str) -> list:
    return [YUZAI, Tap(desc="Edit contact"), LongPress(id=rid(CONTACTS, "contact_number")), Type(number)]


@pytest.mark.parametrize("number", ["987654321"])
@not_applicable(
    multiset="Yuzai's numbers are read as a list; the change is one contact's, in place",
    allowance="only the number and the provider's version and dirty marks may change",
    lookalike=READ_BACK,
)
@task(
    prompt="Change the contact Yuzai's number to {number} and save it",
    app=CONTACTS,
    name="contacts_modify",
    golden=lambda number: [*edit_number(number), Tap(desc="Save")],
    golden_steps=5,
    near_miss={
        "never saved": lambda number: edit_number(number),
        "a new Yuzai instead": lambda number: new_contact(("contact_first_name", "Yuzai"), ("contact_number", number)),
        labelled("field", "changed and starred"): lambda number: [*edit_number(number), SAVE, STAR],
        "changed and Zack deleted": lambda number: [*edit_number(number), SAVE, Tap(desc="Back"), *DELETE_ZACK],
    },
    variations=lambda rng: {"number": phone_number(rng)},
)
def test_contacts_modify(yuzai_and_zack, device, changes, number):
    # MobileAgentBench read the details screen; the provider must hold the new number, saved,
    # in Yuzai's own contact (not a new one), with nothing else about it changed.
    change = changes.changed("contacts")
    assert change.after.get("phone.data1") == number, f"Yuzai's number: {change.after.get('phone.data1')}"
    assert changed_fields(change) <= {"phone.data1", "version", "dirty"}, f"changed: {changed_fields(change)}"
    assert numbers_of(device, "Yuzai") == [number], f"Yuzai's numbers: {numbers_of(device, 'Yuzai')}"


@not_applicable(
    field="a deleted contact has no fields left; the other contact must be unchanged",
    multiset="one contact deleted, read by name",
    allowance=NO_ALLOWANCE,
)
@task(
    prompt="Delete contact Yuzai",
    app=CONTACTS,
    name="contacts_delete",
    golden=[YUZAI, Tap(desc="Delete"), Tap(text="Yes")],
    near_miss={
        "not confirmed": [YUZAI, Tap(desc="Delete"), Tap(text="No")],
        labelled("lookalike", "renamed: no Yuzai in the list"): [
            YUZAI,
            Tap(desc="Edit contact"),
            LongPress(id=rid(CONTACTS, "contact_first_name")),
            Type("Old"),
            SAVE,
        ],
        "Zack deleted too": [YUZAI, Tap(desc="Delete"), Tap(text="Yes"), *DELETE_ZACK],
    },
)
def test_contacts_delete(yuzai_and_zack, device, changes):
    # MobileAgentBench wanted a "Yes" click and no "Yuzai" on screen (any other screen had none).
    # The contact must be gone from the provider (not renamed), and only it.
    assert changes.removed("contacts").get("name.data2") == "Yuzai", "the contact Yuzai was not deleted"
    assert numbers_of(device, "Yuzai") is None, "the contact Yuzai still exists"


@not_applicable(
    multiset=ONE_CONTACT,
    allowance="only the starred flag and the provider's version and dirty marks may change",
    lookalike=READ_BACK,
)
@task(
    prompt="Set the contact Yuzai to Favorite",
    app=CONTACTS,
    name="contacts_favorite",
    golden=[YUZAI, STAR],
    near_miss={
        labelled("field", "starred, then unstarred"): [YUZAI, STAR, STAR],
        "Zack starred too": [YUZAI, STAR, Tap(desc="Back"), Tap(text="Zack"), STAR],
    },
)
def test_contacts_favorite(yuzai_and_zack, device, changes):
    # MobileAgentBench took any click on the star, which a second click undoes.
    change = changes.changed("contacts")
    assert change.after.get("display_name") == "Yuzai" and changed_fields(change) <= {"starred", "version", "dirty"}
    assert starred(device, "Yuzai") == ["1"], "Yuzai is not a favorite"


# -- the main screen ----------------------------------------------------------------------------


@not_applicable(multiset=SCREEN_ONLY, allowance=NO_ALLOWANCE, lookalike="the search field and its own results are read")
@task(
    prompt="Search contact Yuzai",
    app=CONTACTS,
    name="contacts_search",
    golden=[Tap(id=SEARCH), Type("Yuzai")],
    near_miss={
        "a typo": [Tap(id=SEARCH), Type("Yuzia")],
        labelled("field", "starred on the way"): [YUZAI, STAR, Tap(desc="Back"), Tap(id=SEARCH), Type("Yuzai")],
    },
)
def test_contacts_search(yuzai, ui):
    assert ui.text_of(SEARCH) == "Yuzai", f"the search field holds {ui.text_of(SEARCH)!r}"
    # ...and the search found the contact (MobileAgentBench read the field only).
    assert list_names(ui) == ["Yuzai"], f"results: {list_names(ui)}"


@not_applicable(
    multiset="one source to filter out",
    allowance=NO_ALLOWANCE,
    lookalike="the stored filter is read as well as the list",
)
@task(
    prompt="Change phone filter, which means don't show phone storage in contacts view",
    app=CONTACTS,
    name="contacts_filter",
    golden=[Tap(desc="Filter"), Tap(text="Phone storage (1)"), OK],
    near_miss={
        "cancelled": [Tap(desc="Filter"), Tap(text="Phone storage (1)"), Tap(text="Cancel")],
        labelled("field", "filtered and sorted by surname"): [
            Tap(desc="Filter"),
            Tap(text="Phone storage (1)"),
            OK,
            Tap(desc="Sort by"),
            Tap(text="Surname"),
            OK,
        ],
    },
)
def test_contacts_filter(yuzai, ui, changes):
    # MobileAgentBench wanted a click on a "Phone storage" row and "Change filter" on screen: a
    # cancelled dialog over an empty list passed. The source must be filtered out, and the
    # contacts view show none of its contacts.
    assert ui.exists(id=rid(CONTACTS, "contacts_fragment")), "the contacts view is not shown"
    assert not list_names(ui), f"contacts still shown: {list_names(ui)}"
    assert "Phone storage" in changes.value(CONTACTS, pref("ignored_sources")), "phone storage is not filtered out"


# Sort, Date created, Descending, OK: 4 steps, not the table's 5 (all are on the first screen of
# the dialog; there is no fifth step to take).
@not_applicable(field=ONE_SETTING, multiset=ONE_SETTING, allowance=NO_ALLOWANCE)
@task(
    prompt="Sort contacts by Data created time, Descending",
    app=CONTACTS,
    name="contacts_sort",
    golden=[Tap(desc="Sort by"), Tap(text="Date created"), Tap(text="Descending"), OK],
    golden_steps=4,
    near_miss={
        "still ascending": [Tap(desc="Sort by"), Tap(text="Date created"), OK],
        "sorted and Zack deleted": [
            Tap(desc="Sort by"),
            Tap(text="Date created"),
            Tap(text="Descending"),
            OK,
            *DELETE_ZACK,
        ],
        labelled("lookalike", "first name, descending: the same order"): [
            Tap(desc="Sort by"),
            Tap(text="First name"),
            Tap(text="Descending"),
            OK,
        ],
    },
)
def test_contacts_sort(yuzai_then_zack, ui, changes):
    # MobileAgentBench read the list order only, which first name or surname descending give too.
    assert list_names(ui)[:2] == ["Zack", "Yuzai"], f"list order: {list_names(ui)}"
    sort_by, descending = changes.value(CONTACTS, pref("sort_by")), changes.value(CONTACTS, pref("sort_descending"))
    assert sort_by == "date_created" and descending is True, f"sorting stored: {sort_by}, descending={descending}"


@not_applicable(field=SCREEN_ONLY, multiset=SCREEN_ONLY, allowance=NO_ALLOWANCE)
@task(
    prompt="open About View",
    app=CONTACTS,
    name="contacts_about",
    golden=[MORE, Tap(text="About")],
    near_miss={
        labelled("lookalike", "settings instead"): [MORE, Tap(text="Settings")],
        "dialpad button removed on the way": [*SETTINGS, HIDE_DIALPAD, Tap(desc="Back"), MORE, Tap(text="About")],
    },
)
def test_contacts_about(ui):
    # MobileAgentBench looked for "Frequently asked questions" on any screen; it must be this
    # app's About page.
    assert ui.package == CONTACTS and ui.exists(text="About"), "the Contacts About page is not shown"
    assert ui.exists(text="Frequently asked questions"), "the About page lacks its FAQ entry"


# -- settings -----------------------------------------------------------------------------------


@not_applicable(
    multiset="the shown fields are compared whole",
    allowance=NO_ALLOWANCE,
    lookalike="the stored fields are read, not the screen",
)
@task(
    prompt="Set not show contact's Email in the contact profile screen",
    app=CONTACTS,
    name="contacts_hide_email",
    golden=[
        YUZAI,
        MORE,
        Tap(text="Manage shown contact fields"),
        Tap(id=rid(CONTACTS, "manage_visible_fields_emails")),
        OK,
    ],
    near_miss={
        "cancelled": [
            YUZAI,
            MORE,
            Tap(text="Manage shown contact fields"),
            Tap(id=rid(CONTACTS, "manage_visible_fields_emails")),
            Tap(text="Cancel"),
        ],
        labelled("field", "hidden and Yuzai starred"): [
            YUZAI,
            MORE,
            Tap(text="Manage shown contact fields"),
            Tap(id=rid(CONTACTS, "manage_visible_fields_emails")),
            OK,
            STAR,
        ],
    },
)
def test_contacts_hide_email(yuzai_with_email, changes):
    # MobileAgentBench wanted the box unticked and then any "OK" click; the stored fields must be
    # the defaults without Emails (nothing else hidden or shown).
    shown = changes.value(CONTACTS, pref("shown_fields"))
    assert shown is not None and set(shown) == DEFAULT_FIELDS - {"emails"}, f"shown fields: {shown}"


@not_applicable(field=ONE_SETTING, multiset=ONE_SETTING, allowance=NO_ALLOWANCE)
@task(
    prompt="Remove the dialog button, and then return to the main view",
    app=CONTACTS,
    name="contacts_remove_dialog",
    golden=[MORE, Tap(text="Settings"), Tap(id=rid(CONTACTS, "settings_show_dialpad_button_holder")), Tap(desc="Back")],
    near_miss={
        labelled("lookalike", "the switch below it instead"): [*SETTINGS, NO_MERGING, Tap(desc="Back")],
        "duplicate merging switched too": [*SETTINGS, HIDE_DIALPAD, NO_MERGING, Tap(desc="Back")],
    },
)
def test_contacts_remove_dialog(ui, changes):
    # "dialog button" is the dialpad button. Back on the main view, without it, and so stored.
    assert ui.exists(id=rid(CONTACTS, "fragment_fab")), "not on the main view"
    assert not ui.exists(id=rid(CONTACTS, "main_dialpad_button")), "the dialpad button is still shown"
    assert changes.value(CONTACTS, pref("show_dialpad_button")) is False, "the dialpad button setting is still on"
