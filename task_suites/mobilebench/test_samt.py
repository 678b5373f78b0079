"""SAMT: single app, several tasks ("Help me open the map, and navigate to Eiffel Tower"), at
most 20 steps. The API path uses each intent the app declares where one does the task (a
contact's fields, an event's details, a message to a number, a shared text, a file to view),
and UI steps for the rest; the UI path starts at the app's icon."""

from __future__ import annotations

import pytest

from pytest_mobile_agent import Key, LongPress, Scroll, Tap, Type, task
from task_suites.mobilebench.checks import (
    NOTE,
    all_contacts,
    all_sent,
    assert_contact,
    assert_event,
    assert_note,
    assert_playing,
    assert_sent,
    contact,
    event,
    events,
    in_front,
    viewer_shows,
)
from task_suites.mobilebench.paths import (
    CONTACT_FAB,
    DISCLAIMER_OK,
    MESSAGE_FIELD,
    MORE,
    NEW_NOTE,
    OK,
    REPEAT_WEEKLY,
    SAMT,
    SAVE,
    SEND_SMS,
    STAR,
    app_settings,
    calc,
    checkpoints,
    compose,
    contact_form,
    event_form,
    golden,
    insert_contact,
    insert_event,
    lock_note,
    note,
    open_app,
    share_text,
    shared_note,
    sms_to,
    tap_icon,
    view,
)
from task_suites.shared.apps import (
    CALCULATOR,
    CALENDAR,
    CONTACTS,
    FILE_MANAGER,
    GALLERY,
    MUSIC_PLAYER,
    NOTES,
    SMS_MESSENGER,
    VOICE_RECORDER,
    rid,
)
from task_suites.shared.near_misses import (
    IN_ITS_APP,
    NO_ALLOWANCE,
    labelled,
    not_applicable,
)
from task_suites.shared.reading import assert_computed, pref
from task_suites.shared.seeds import add_contact

BACK = Tap(desc="Back")  # the toolbar's: it leaves the screen even while the keyboard is up
SETTINGS_ACTIVITY = ".activities.SettingsActivity"
RESULT = rid(CALCULATOR, "result")
HISTORY = "files/history.json"
SAME_TITLE = "Notes refuses a second note of the same title, and each note's text is compared whole"
NEW_CONTACT = "a new contact is read back from the provider: no screen to mistake"
NEW_EVENT = "a new event is read back from events.db: no screen to mistake"
NEW_SMS = "a message is read back from the SMS provider: no screen to mistake"
ONE_SETTING = "one stored setting, read back; any other setting changed fails the task"
CALCULATOR_FIELDS = "Calculator saves only its history, read step by step; settings changed fail the task"


@pytest.fixture
def zack(device):
    add_contact(device, "Zack", "555123")


# -- contacts -------------------------------------------------------------------------------------
@not_applicable(allowance=NO_ALLOWANCE, lookalike=NEW_CONTACT, route=IN_ITS_APP)
@task(
    prompt="Add Mia with the number 5550202 to my contacts and make her a favorite",
    app=CONTACTS,
    name="mb_samt_contact_favorite",
    launch=False,
    max_steps=SAMT,
    golden=golden(
        api=[insert_contact(name="Mia", phone="5550202"), STAR, SAVE],
        ui=[tap_icon(CONTACTS), CONTACT_FAB, *contact_form("Mia", "5550202"), STAR, SAVE],
    ),
    near_miss={
        "not a favourite": [insert_contact(name="Mia", phone="5550202"), SAVE],
        "the goal, and Zack a favourite too": [
            insert_contact(name="Mia", phone="5550202"),
            STAR,
            SAVE,
            Tap(text="Zack"),
            Tap(id=rid(CONTACTS, "contact_toggle_favorite")),
        ],
        "Zack made the favourite": [
            insert_contact(name="Mia", phone="5550202"),
            SAVE,
            Tap(text="Zack"),
            Tap(id=rid(CONTACTS, "contact_toggle_favorite")),
        ],
        labelled("field", "an email typed too"): [
            insert_contact(name="Mia", phone="5550202", email="mia@example.com"),
            STAR,
            SAVE,
        ],
        labelled("multiset", "Mia saved twice"): [
            insert_contact(name="Mia", phone="5550202"),
            STAR,
            SAVE,
            insert_contact(name="Mia", phone="5550202"),
            STAR,
            SAVE,
        ],
    },
    checkpoints=checkpoints(
        CONTACTS, ["Mia", "5550202", "contact_toggle_favorite"], [["action.INSERT", "fragment_fab"]]
    ),
)
def test_contact_favorite(zack, changes):
    found = contact(changes)
    assert_contact(found, "Mia", "5550202", starred=True)


@not_applicable(allowance=NO_ALLOWANCE, lookalike=NEW_CONTACT, route=IN_ITS_APP)
@task(
    prompt="Add two contacts: Ann with 5550301 and Bob with 5550302",
    app=CONTACTS,
    name="mb_samt_two_contacts",
    launch=False,
    max_steps=SAMT,
    golden=golden(
        api=[insert_contact(name="Ann", phone="5550301"), SAVE, insert_contact(name="Bob", phone="5550302"), SAVE],
        ui=[
            tap_icon(CONTACTS),
            CONTACT_FAB,
            *contact_form("Ann", "5550301"),
            SAVE,
            CONTACT_FAB,
            *contact_form("Bob", "5550302"),
            SAVE,
        ],
    ),
    near_miss={
        "the goal, and a third contact": [
            insert_contact(name="Ann", phone="5550301"),
            SAVE,
            insert_contact(name="Bob", phone="5550302"),
            SAVE,
            insert_contact(name="Cal", phone="5550399"),
            SAVE,
        ],
        "only Ann": [insert_contact(name="Ann", phone="5550301"), SAVE],
        "the numbers swapped": [
            insert_contact(name="Ann", phone="5550302"),
            SAVE,
            insert_contact(name="Bob", phone="5550301"),
            SAVE,
        ],
        labelled("multiset", "Ann saved twice"): [
            insert_contact(name="Ann", phone="5550301"),
            SAVE,
            insert_contact(name="Ann", phone="5550301"),
            SAVE,
            insert_contact(name="Bob", phone="5550302"),
            SAVE,
        ],
        labelled("field", "Bob made a favourite"): [
            insert_contact(name="Ann", phone="5550301"),
            SAVE,
            insert_contact(name="Bob", phone="5550302"),
            STAR,
            SAVE,
        ],
    },
    checkpoints=checkpoints(CONTACTS, ["Ann", "5550301", "Bob", "5550302"], [["action.INSERT", "fragment_fab"]]),
)
def test_two_contacts(changes):
    added = sorted(all_contacts(changes), key=lambda c: c.get("name.data2") or "")
    names = [(c.get("name.data2"), c.get("phone.data1")) for c in added]
    assert names == [("Ann", "5550301"), ("Bob", "5550302")], f"contacts added: {names}"
    for found, (name, phone) in zip(added, names, strict=True):
        assert_contact(found, name, phone)


@not_applicable(
    allowance=NO_ALLOWANCE,
    lookalike="the check names the contact's fields and the settings activity in front",
    route=IN_ITS_APP,
)
@task(
    prompt="Create a contact Kim with the number 5550303 and the email kim@example.com, "
    "then open the contacts settings",
    app=CONTACTS,
    name="mb_samt_contact_then_settings",
    launch=False,
    max_steps=SAMT,
    golden=golden(
        api=[insert_contact(name="Kim", phone="5550303", email="kim@example.com"), SAVE, app_settings(CONTACTS)],
        ui=[
            tap_icon(CONTACTS),
            CONTACT_FAB,
            *contact_form("Kim", "5550303", "kim@example.com"),
            SAVE,
            Tap(desc="More options"),
            Tap(text="Settings"),
        ],
    ),
    near_miss={
        "the goal, and a second contact": [
            insert_contact(name="Kim", phone="5550303", email="kim@example.com"),
            SAVE,
            app_settings(CONTACTS),
            insert_contact(name="Cal", phone="5550399"),
            SAVE,
            app_settings(CONTACTS),
        ],
        "no email": [insert_contact(name="Kim", phone="5550303"), SAVE, app_settings(CONTACTS)],
        "settings not opened": [insert_contact(name="Kim", phone="5550303", email="kim@example.com"), SAVE],
        labelled("field", "Kim a favourite"): [
            insert_contact(name="Kim", phone="5550303", email="kim@example.com"),
            STAR,
            SAVE,
            app_settings(CONTACTS),
        ],
        labelled("multiset", "Kim saved twice"): [
            insert_contact(name="Kim", phone="5550303", email="kim@example.com"),
            SAVE,
            insert_contact(name="Kim", phone="5550303", email="kim@example.com"),
            SAVE,
            app_settings(CONTACTS),
        ],
    },
    checkpoints=checkpoints(
        CONTACTS,
        ["Kim", "5550303", "kim@example.com"],
        [["action.INSERT", "fragment_fab"], ["APPLICATION_PREFERENCES", "text=Settings"]],
    ),
)
def test_contact_then_settings(device, changes):
    assert_contact(contact(changes), "Kim", "5550303", "kim@example.com")
    in_front(device, CONTACTS, SETTINGS_ACTIVITY)


# -- calendar -------------------------------------------------------------------------------------
@not_applicable(allowance=NO_ALLOWANCE, lookalike=NEW_EVENT, route=IN_ITS_APP)
@task(
    prompt="Add two all-day events for today: Gym and Groceries",
    app=CALENDAR,
    name="mb_samt_two_events",
    launch=False,
    max_steps=SAMT,
    golden=golden(
        api=[insert_event("Gym", all_day=True), SAVE, DISCLAIMER_OK, insert_event("Groceries", all_day=True), SAVE],
        ui=[
            tap_icon(CALENDAR),
            *event_form("Gym", all_day=True),
            SAVE,
            DISCLAIMER_OK,
            *event_form("Groceries", all_day=True),
            SAVE,
        ],
    ),
    near_miss={
        "the goal, and a third event": [
            insert_event("Gym", all_day=True),
            SAVE,
            DISCLAIMER_OK,
            insert_event("Groceries", all_day=True),
            SAVE,
            insert_event("Yoga", all_day=True),
            SAVE,
        ],
        "Groceries not all-day": [
            insert_event("Gym", all_day=True),
            SAVE,
            DISCLAIMER_OK,
            insert_event("Groceries"),
            SAVE,
        ],
        "only Gym": [insert_event("Gym", all_day=True), SAVE, DISCLAIMER_OK],
        labelled("field", "Gym repeating weekly"): [
            insert_event("Gym", all_day=True),
            *REPEAT_WEEKLY,
            SAVE,
            DISCLAIMER_OK,
            insert_event("Groceries", all_day=True),
            SAVE,
        ],
        labelled("multiset", "Gym saved twice"): [
            insert_event("Gym", all_day=True),
            SAVE,
            DISCLAIMER_OK,
            insert_event("Gym", all_day=True),
            SAVE,
            insert_event("Groceries", all_day=True),
            SAVE,
        ],
    },
    checkpoints=checkpoints(CALENDAR, ["Gym", "Groceries"], [["vnd.android.cursor.item/event", "calendar_fab"]]),
)
def test_two_events(changes, device):
    found = sorted(events(changes), key=lambda e: e["title"])
    assert [e["title"] for e in found] == ["Groceries", "Gym"], f"events added: {[e['title'] for e in found]}"
    for e in found:
        assert_event(device, e, e["title"], all_day=True)


@not_applicable(allowance=NO_ALLOWANCE, lookalike=NEW_EVENT, route=IN_ITS_APP)
@task(
    prompt="Create an all-day event today called Review, at the Office, about Q2 numbers",
    app=CALENDAR,
    name="mb_samt_event_details",
    launch=False,
    max_steps=SAMT,
    golden=golden(
        api=[insert_event("Review", all_day=True, location="Office", description="Q2 numbers"), SAVE, DISCLAIMER_OK],
        ui=[
            tap_icon(CALENDAR),
            *event_form("Review", all_day=True, location="Office", description="Q2 numbers"),
            SAVE,
            DISCLAIMER_OK,
        ],
    ),
    near_miss={
        "the goal, and a second event": [
            insert_event("Review", all_day=True, location="Office", description="Q2 numbers"),
            SAVE,
            DISCLAIMER_OK,
            insert_event("Yoga", all_day=True),
            SAVE,
        ],
        "no description": [insert_event("Review", all_day=True, location="Office"), SAVE, DISCLAIMER_OK],
        "the place and the topic swapped": [
            insert_event("Review", all_day=True, location="Q2 numbers", description="Office"),
            SAVE,
            DISCLAIMER_OK,
        ],
        labelled("field", "repeating weekly"): [
            insert_event("Review", all_day=True, location="Office", description="Q2 numbers"),
            *REPEAT_WEEKLY,
            SAVE,
            DISCLAIMER_OK,
        ],
        labelled("multiset", "saved twice"): [
            insert_event("Review", all_day=True, location="Office", description="Q2 numbers"),
            SAVE,
            DISCLAIMER_OK,
            insert_event("Review", all_day=True, location="Office", description="Q2 numbers"),
            SAVE,
        ],
    },
    checkpoints=checkpoints(
        CALENDAR, ["Review", "Office", "Q2 numbers"], [["vnd.android.cursor.item/event", "calendar_fab"]]
    ),
)
def test_event_details(changes, device):
    assert_event(device, event(changes), "Review", all_day=True, location="Office", description="Q2 numbers")


@not_applicable(
    allowance=NO_ALLOWANCE,
    lookalike="the check names the event's fields and the settings activity in front",
    route=IN_ITS_APP,
)
@task(
    prompt="Add an all-day event Holiday for today, then show me the calendar settings",
    app=CALENDAR,
    name="mb_samt_event_then_settings",
    launch=False,
    max_steps=SAMT,
    golden=golden(
        api=[insert_event("Holiday", all_day=True), SAVE, DISCLAIMER_OK, app_settings(CALENDAR)],
        ui=[
            tap_icon(CALENDAR),
            *event_form("Holiday", all_day=True),
            SAVE,
            DISCLAIMER_OK,
            Tap(id=rid(CALENDAR, "settings")),
        ],
    ),
    near_miss={
        "the goal, and a second event": [
            insert_event("Holiday", all_day=True),
            SAVE,
            DISCLAIMER_OK,
            app_settings(CALENDAR),
            insert_event("Yoga", all_day=True),
            SAVE,
            app_settings(CALENDAR),
        ],
        "settings only": [app_settings(CALENDAR)],
        "the event left unsaved": [insert_event("Holiday", all_day=True), app_settings(CALENDAR)],
        labelled("field", "repeating weekly"): [
            insert_event("Holiday", all_day=True),
            *REPEAT_WEEKLY,
            SAVE,
            DISCLAIMER_OK,
            app_settings(CALENDAR),
        ],
        labelled("multiset", "saved twice"): [
            insert_event("Holiday", all_day=True),
            SAVE,
            DISCLAIMER_OK,
            insert_event("Holiday", all_day=True),
            SAVE,
            app_settings(CALENDAR),
        ],
    },
    checkpoints=checkpoints(
        CALENDAR,
        ["Holiday"],
        [["vnd.android.cursor.item/event", "calendar_fab"], ["APPLICATION_PREFERENCES", f"{CALENDAR}:id/settings"]],
    ),
)
def test_event_then_settings(device, changes):
    assert_event(device, event(changes), "Holiday", all_day=True)
    in_front(device, CALENDAR, SETTINGS_ACTIVITY)


# -- messages -------------------------------------------------------------------------------------
@not_applicable(allowance=NO_ALLOWANCE, lookalike=NEW_SMS, route=IN_ITS_APP)
@task(
    prompt="Text 'Hi' to 5550401 and 'Hello' to 5550402",
    app=SMS_MESSENGER,
    name="mb_samt_two_sms",
    launch=False,
    max_steps=SAMT,
    golden=golden(
        api=[sms_to("5550401", "Hi"), SEND_SMS, sms_to("5550402", "Hello"), SEND_SMS],
        ui=[tap_icon(SMS_MESSENGER), *compose("5550401", "Hi"), BACK, BACK, *compose("5550402", "Hello")],
    ),
    near_miss={
        "the goal, and a third message": [
            sms_to("5550401", "Hi"),
            SEND_SMS,
            sms_to("5550402", "Hello"),
            SEND_SMS,
            sms_to("5550499", "ok"),
            SEND_SMS,
        ],
        "the messages swapped": [sms_to("5550401", "Hello"), SEND_SMS, sms_to("5550402", "Hi"), SEND_SMS],
        "only the first": [sms_to("5550401", "Hi"), SEND_SMS],
        labelled("multiset", "Hi sent twice"): [
            sms_to("5550401", "Hi"),
            SEND_SMS,
            Type("Hi", id=MESSAGE_FIELD),
            SEND_SMS,
            sms_to("5550402", "Hello"),
            SEND_SMS,
        ],
        labelled("field", "the first conversation archived on the way"): [
            sms_to("5550401", "Hi"),
            SEND_SMS,
            MORE,
            Tap(text="Archive"),
            sms_to("5550402", "Hello"),
            SEND_SMS,
        ],
    },
    checkpoints=checkpoints(
        SMS_MESSENGER,
        ["5550401", "Hi", "5550402", "Hello"],
        [["smsto:5550401", "conversations_fab"], ["smsto:5550402", "conversations_fab"]],
    ),
)
def test_two_sms(changes):
    assert sorted(all_sent(changes)) == [("5550401", "Hi"), ("5550402", "Hello")], f"sent: {all_sent(changes)}"


@not_applicable(allowance=NO_ALLOWANCE, lookalike=NEW_SMS, route=IN_ITS_APP)
@task(
    prompt="Send 'Running late' and then 'Sorry' to 5550404",
    app=SMS_MESSENGER,
    name="mb_samt_two_sms_one_number",
    launch=False,
    max_steps=SAMT,
    golden=golden(
        api=[sms_to("5550404", "Running late"), SEND_SMS, Type("Sorry", id=MESSAGE_FIELD), SEND_SMS],
        ui=[tap_icon(SMS_MESSENGER), *compose("5550404", "Running late"), Type("Sorry", id=MESSAGE_FIELD), SEND_SMS],
    ),
    near_miss={
        "the goal, and a message to another number": [
            sms_to("5550404", "Running late"),
            SEND_SMS,
            Type("Sorry", id=MESSAGE_FIELD),
            SEND_SMS,
            sms_to("5550499", "ok"),
            SEND_SMS,
        ],
        "only the first": [sms_to("5550404", "Running late"), SEND_SMS],
        "the second to another number": [
            sms_to("5550404", "Running late"),
            SEND_SMS,
            sms_to("5550405", "Sorry"),
            SEND_SMS,
        ],
        labelled("multiset", "in the reverse order"): [
            sms_to("5550404", "Sorry"),
            SEND_SMS,
            Type("Running late", id=MESSAGE_FIELD),
            SEND_SMS,
        ],
        labelled("field", "the conversation archived"): [
            sms_to("5550404", "Running late"),
            SEND_SMS,
            Type("Sorry", id=MESSAGE_FIELD),
            SEND_SMS,
            MORE,
            Tap(text="Archive"),
        ],
    },
    checkpoints=checkpoints(
        SMS_MESSENGER, ["5550404", "Running late", "Sorry"], [["smsto:5550404", "conversations_fab"]]
    ),
)
def test_two_sms_one_number(changes):
    assert all_sent(changes) == [("5550404", "Running late"), ("5550404", "Sorry")], f"sent: {all_sent(changes)}"


@not_applicable(allowance=NO_ALLOWANCE, lookalike=NEW_SMS, route=IN_ITS_APP)
@task(
    prompt="Send 'Done' to 5550403 and archive that conversation",
    app=SMS_MESSENGER,
    name="mb_samt_sms_archive",
    launch=False,
    max_steps=SAMT,
    golden=golden(
        api=[sms_to("5550403", "Done"), SEND_SMS, MORE, Tap(text="Archive")],
        ui=[tap_icon(SMS_MESSENGER), *compose("5550403", "Done"), MORE, Tap(text="Archive")],
    ),
    near_miss={
        "the goal, and a message to another number": [
            sms_to("5550403", "Done"),
            SEND_SMS,
            MORE,
            Tap(text="Archive"),
            sms_to("5550499", "ok"),
            SEND_SMS,
        ],
        "sent, not archived": [sms_to("5550403", "Done"), SEND_SMS],
        "'Don' sent and archived": [sms_to("5550403", "Don"), SEND_SMS, MORE, Tap(text="Archive")],
        labelled("field", "archived, and left unread"): [
            sms_to("5550403", "Done"),
            SEND_SMS,
            MORE,
            Tap(text="Mark as Unread"),
            LongPress(id=rid(SMS_MESSENGER, "conversation_frame")),
            MORE,
            Tap(text="Archive"),
            Tap(text="Yes"),
        ],
        labelled("multiset", "Done sent twice"): [
            sms_to("5550403", "Done"),
            SEND_SMS,
            Type("Done", id=MESSAGE_FIELD),
            SEND_SMS,
            MORE,
            Tap(text="Archive"),
        ],
    },
    checkpoints=checkpoints(SMS_MESSENGER, ["5550403", "Done", "Archive"], [["smsto:5550403", "conversations_fab"]]),
)
def test_sms_archive(changes):
    assert_sent(changes.added("sms"), "5550403", "Done")
    conversation = changes.added("conversations")
    assert conversation.get("archived") == "1", "the conversation is not archived"
    assert conversation.get("read") == "1", "the conversation was left unread, which nobody asked for"


# -- notes ----------------------------------------------------------------------------------------
@not_applicable(
    multiset=SAME_TITLE,
    allowance=NO_ALLOWANCE,
    lookalike="new notes are read back from notes.json: no screen to mistake",
    route=IN_ITS_APP,
)
@task(
    prompt="Create a note Shopping that says 'eggs' and a note Work that says 'slides'",
    app=NOTES,
    name="mb_samt_two_notes",
    launch=False,
    max_steps=SAMT,
    golden=golden(
        api=[share_text(NOTES, "eggs"), *shared_note("Shopping"), share_text(NOTES, "slides"), *shared_note("Work")],
        ui=[tap_icon(NOTES), *note("Shopping", "eggs"), *note("Work", "slides")],
    ),
    near_miss={
        "the goal, and a third note": [
            share_text(NOTES, "eggs"),
            *shared_note("Shopping"),
            share_text(NOTES, "slides"),
            *shared_note("Work"),
            share_text(NOTES, "x"),
            *shared_note("Extra"),
        ],
        "both texts in Shopping": [
            share_text(NOTES, "eggs"),
            *shared_note("Shopping"),
            share_text(NOTES, "slides"),
            Tap(text="Shopping"),
        ],
        "only Shopping": [share_text(NOTES, "eggs"), *shared_note("Shopping")],
        labelled("field", "Work locked"): [
            share_text(NOTES, "eggs"),
            *shared_note("Shopping"),
            share_text(NOTES, "slides"),
            *shared_note("Work"),
            *lock_note(),
        ],
    },
    checkpoints=checkpoints(NOTES, ["Shopping", "eggs", "Work", "slides"], [["action.SEND", "new_note"]]),
)
def test_two_notes(changes):
    notes = sorted((c.after for c in changes.where(NOTES, "added", NOTE)), key=lambda n: n["title"])
    added = [(n["title"], n["value"]) for n in notes]
    assert added == [("Shopping", "eggs"), ("Work", "slides")], f"notes added: {added}"
    for found in notes:
        assert_note(found, found["title"], found["value"])  # unlocked text notes


@not_applicable(
    allowance=NO_ALLOWANCE,
    lookalike="a new checklist is read back from notes.json: no screen to mistake",
    route=IN_ITS_APP,
)
@task(
    prompt="Make a checklist called Packing with the item Passport",
    app=NOTES,
    name="mb_samt_checklist",
    launch=False,
    max_steps=SAMT,
    golden=golden(
        api=[
            open_app(NOTES),
            NEW_NOTE,
            Type("Packing"),
            Tap(text="Checklist"),
            OK,
            Tap(id=rid(NOTES, "checklist_fab")),
            Type("Passport"),
            OK,
        ],
        ui=[
            tap_icon(NOTES),
            NEW_NOTE,
            Type("Packing"),
            Tap(text="Checklist"),
            OK,
            Tap(id=rid(NOTES, "checklist_fab")),
            Type("Passport"),
            OK,
        ],
    ),
    near_miss={
        "the goal, and a text note too": [
            open_app(NOTES),
            NEW_NOTE,
            Type("Packing"),
            Tap(text="Checklist"),
            OK,
            Tap(id=rid(NOTES, "checklist_fab")),
            Type("Passport"),
            OK,
            share_text(NOTES, "x"),
            *shared_note("Extra"),
        ],
        "a text note instead": [open_app(NOTES), *note("Packing", "Passport")],
        "no item": [open_app(NOTES), NEW_NOTE, Type("Packing"), Tap(text="Checklist"), OK],
        labelled("field", "the item added and ticked off"): [
            open_app(NOTES),
            NEW_NOTE,
            Type("Packing"),
            Tap(text="Checklist"),
            OK,
            Tap(id=rid(NOTES, "checklist_fab")),
            Type("Passport"),
            OK,
            Tap(text="Passport"),
        ],
        labelled("multiset", "Passport added twice"): [
            open_app(NOTES),
            NEW_NOTE,
            Type("Packing"),
            Tap(text="Checklist"),
            OK,
            Tap(id=rid(NOTES, "checklist_fab")),
            Type("Passport"),
            OK,
            Tap(id=rid(NOTES, "checklist_fab")),
            Type("Passport"),
            OK,
        ],
    },
    checkpoints=checkpoints(NOTES, ["Packing", "Passport", "Checklist"], [[f"monkey -p {NOTES}", "text=Notes"]]),
)
def test_checklist(changes):
    found = changes.added(NOTES, NOTE)
    assert (found["title"], found["kind"]) == ("Packing", "checklist"), f"added {found['kind']} {found['title']!r}"
    assert [(item["title"], item["done"]) for item in found["value"]] == [("Passport", False)], (
        f"items: {found['value']}"
    )


# -- gallery, music, files ------------------------------------------------------------------------
FAVORITE = Tap(id=rid(GALLERY, "bottom_favorite"))


@not_applicable(
    field="the favourites list is the one record the task changes; any other change fails it",
    allowance=NO_ALLOWANCE,
    route=IN_ITS_APP,
)
@task(
    prompt="Open the photo beach.jpg and mark it as a favorite",
    app=GALLERY,
    name="mb_samt_photo_favorite",
    launch=False,
    max_steps=SAMT,
    golden=golden(
        api=[view("/sdcard/Pictures/beach.jpg", "image/jpeg", GALLERY), FAVORITE],
        ui=[tap_icon(GALLERY), Tap(text="Pictures"), Tap(id=rid(GALLERY, "media_item_holder")), FAVORITE],
    ),
    near_miss={
        labelled("multiset", "the goal, and dunes.jpg a favourite too"): [
            view("/sdcard/Pictures/beach.jpg", "image/jpeg", GALLERY),
            FAVORITE,
            view("/sdcard/DCIM/dunes.jpg", "image/jpeg", GALLERY),
            FAVORITE,
            view("/sdcard/Pictures/beach.jpg", "image/jpeg", GALLERY),
        ],
        labelled("lookalike", "dunes.jpg starred in the same viewer"): [
            view("/sdcard/DCIM/dunes.jpg", "image/jpeg", GALLERY),
            FAVORITE,
        ],
        "starred and unstarred": [view("/sdcard/Pictures/beach.jpg", "image/jpeg", GALLERY), FAVORITE, FAVORITE],
    },
    checkpoints=checkpoints(GALLERY, ["bottom_favorite"], [["file:///sdcard/Pictures/beach.jpg", "media_item_holder"]]),
)
def test_photo_favorite(ui, changes):
    favorites = changes.value(GALLERY, "files/favorites.json")
    assert favorites == ["/storage/emulated/0/Pictures/beach.jpg"], f"favourites: {favorites}"
    viewer_shows(ui, GALLERY, "beach.jpg")


@not_applicable(
    multiset="Music Player refuses a second playlist of the same name; one song plays at a time",
    allowance=NO_ALLOWANCE,
    lookalike="another song's screen shows its own title: a wrong item",
    route=IN_ITS_APP,
)
@task(
    prompt="Play sunrise and then make a playlist called Morning",
    app=MUSIC_PLAYER,
    name="mb_samt_play_and_playlist",
    launch=False,
    max_steps=SAMT,
    golden=golden(
        api=[
            view("/sdcard/Music/sunrise.mp3", "audio/mpeg", MUSIC_PLAYER),
            BACK,
            MORE,
            Tap(text="Create new playlist"),
            Type("Morning"),
            OK,
        ],
        ui=[
            tap_icon(MUSIC_PLAYER),
            Tap(text="Tracks"),
            Tap(text="sunrise"),
            BACK,  # the track screen a tapped song opens
            Tap(text="Playlists"),
            MORE,
            Tap(text="Create new playlist"),
            Type("Morning"),
            OK,
        ],
    ),
    near_miss={
        "the goal, and a second playlist": [
            view("/sdcard/Music/sunrise.mp3", "audio/mpeg", MUSIC_PLAYER),
            BACK,
            MORE,
            Tap(text="Create new playlist"),
            Type("Morning"),
            OK,
            MORE,
            Tap(text="Create new playlist"),
            Type("Evening"),
            OK,
        ],
        "rain played": [
            view("/sdcard/Music/rain.mp3", "audio/mpeg", MUSIC_PLAYER),
            BACK,
            MORE,
            Tap(text="Create new playlist"),
            Type("Morning"),
            OK,
        ],
        "the playlist called Evening": [
            view("/sdcard/Music/sunrise.mp3", "audio/mpeg", MUSIC_PLAYER),
            BACK,
            MORE,
            Tap(text="Create new playlist"),
            Type("Evening"),
            OK,
        ],
        labelled("field", "sunrise paused"): [
            view("/sdcard/Music/sunrise.mp3", "audio/mpeg", MUSIC_PLAYER),
            Tap(id=rid(MUSIC_PLAYER, "activity_track_play_pause")),
            BACK,
            MORE,
            Tap(text="Create new playlist"),
            Type("Morning"),
            OK,
        ],
    },
    checkpoints=checkpoints(MUSIC_PLAYER, ["sunrise", "Morning"], [["audio/mpeg", "text=Tracks"]]),
)
def test_play_and_playlist(ui, events, changes):
    assert changes.added(MUSIC_PLAYER, "files/library.json:playlists*")["title"] == "Morning"
    assert_playing(ui, events, "sunrise")


@not_applicable(
    field="the file's whole text is compared; any other file changed fails the task",
    multiset="one file, changed in place",
    allowance="the change allowed is exactly Download/todo.txt, by its path",
    lookalike="the file is read back by its path, not from a screen",
    route=IN_ITS_APP,
)
@task(
    prompt="Open todo.txt in the Download folder, change its text to 'all done' and save it",
    app=FILE_MANAGER,
    name="mb_samt_edit_file",
    launch=False,
    max_steps=SAMT,
    golden=golden(
        api=[
            view("/sdcard/Download/todo.txt", "text/plain", FILE_MANAGER),
            LongPress(id=rid(FILE_MANAGER, "read_text_view")),
            Type("all done"),
            Tap(id=rid(FILE_MANAGER, "menu_save")),
        ],
        ui=[
            tap_icon(FILE_MANAGER),
            Tap(text="Download"),
            Tap(text="todo.txt"),
            LongPress(id=rid(FILE_MANAGER, "read_text_view")),
            Type("all done"),
            Tap(id=rid(FILE_MANAGER, "menu_save")),
        ],
    ),
    near_miss={
        "the goal, and rain.mp3 deleted": [
            view("/sdcard/Download/todo.txt", "text/plain", FILE_MANAGER),
            LongPress(id=rid(FILE_MANAGER, "read_text_view")),
            Type("all done"),
            Tap(id=rid(FILE_MANAGER, "menu_save")),
            view("/sdcard/Music", "resource/folder", FILE_MANAGER),
            LongPress(text="rain.mp3"),
            Tap(desc="Delete"),
            Tap(text="Yes"),
        ],
        "not saved": [
            view("/sdcard/Download/todo.txt", "text/plain", FILE_MANAGER),
            LongPress(id=rid(FILE_MANAGER, "read_text_view")),
            Type("all done"),
        ],
        "'all gone' saved": [
            view("/sdcard/Download/todo.txt", "text/plain", FILE_MANAGER),
            LongPress(id=rid(FILE_MANAGER, "read_text_view")),
            Type("all gone"),
            Tap(id=rid(FILE_MANAGER, "menu_save")),
        ],
    },
    checkpoints=checkpoints(
        FILE_MANAGER, ["todo.txt", "all done", "menu_save"], [["file:///sdcard/Download/todo.txt", "text=Download"]]
    ),
)
def test_edit_file(device, changes):
    changes.changed("files", "Download/todo.txt")
    assert device.sh("cat /sdcard/Download/todo.txt", check=False) == "all done", "todo.txt does not read 'all done'"


# -- settings and the calculator ------------------------------------------------------------------
@not_applicable(
    field=ONE_SETTING,
    multiset=ONE_SETTING,
    allowance=NO_ALLOWANCE,
    lookalike="the stored setting is read, not the screen",
    route=IN_ITS_APP,
)
@task(
    prompt="Open the voice recorder's settings and stop deleted recordings from going to the recycle bin",
    app=VOICE_RECORDER,
    name="mb_samt_recorder_recycle_bin",
    launch=False,
    max_steps=SAMT,
    golden=golden(
        api=[
            app_settings(VOICE_RECORDER),
            Scroll("down", id=rid(VOICE_RECORDER, "settings_nested_scrollview")),
            Tap(id=rid(VOICE_RECORDER, "settings_use_recycle_bin_holder")),
        ],
        ui=[
            tap_icon(VOICE_RECORDER),
            Tap(id=rid(VOICE_RECORDER, "settings")),
            Scroll("down", id=rid(VOICE_RECORDER, "settings_nested_scrollview")),
            Tap(id=rid(VOICE_RECORDER, "settings_use_recycle_bin_holder")),
        ],
    ),
    near_miss={
        "the goal, and the notification hidden": [
            app_settings(VOICE_RECORDER),
            Scroll("down", id=rid(VOICE_RECORDER, "settings_nested_scrollview")),
            Tap(id=rid(VOICE_RECORDER, "settings_use_recycle_bin_holder")),
            Tap(id=rid(VOICE_RECORDER, "settings_hide_notification_holder")),
        ],
        "the notification hidden instead": [
            app_settings(VOICE_RECORDER),
            Scroll("down", id=rid(VOICE_RECORDER, "settings_nested_scrollview")),
            Tap(id=rid(VOICE_RECORDER, "settings_hide_notification_holder")),
        ],
        "toggled twice": [
            app_settings(VOICE_RECORDER),
            Scroll("down", id=rid(VOICE_RECORDER, "settings_nested_scrollview")),
            Tap(id=rid(VOICE_RECORDER, "settings_use_recycle_bin_holder")),
            Tap(id=rid(VOICE_RECORDER, "settings_use_recycle_bin_holder")),
        ],
    },
    checkpoints=checkpoints(
        VOICE_RECORDER,
        ["settings_use_recycle_bin_holder"],
        [["APPLICATION_PREFERENCES", f"{VOICE_RECORDER}:id/settings"]],
    ),
)
def test_recorder_recycle_bin(changes):
    assert changes.value(VOICE_RECORDER, pref("use_recycle_bin")) is False, "deleted recordings still go to the bin"


@not_applicable(
    field=ONE_SETTING,
    multiset=ONE_SETTING,
    allowance=NO_ALLOWANCE,
    lookalike="the stored setting is read, not the screen",
    route=IN_ITS_APP,
)
@task(
    prompt="In the gallery settings, show hidden items",
    app=GALLERY,
    name="mb_samt_gallery_hidden",
    launch=False,
    max_steps=SAMT,
    golden=golden(
        api=[app_settings(GALLERY), Tap(id=rid(GALLERY, "settings_show_hidden_items_holder"))],
        ui=[tap_icon(GALLERY), MORE, Tap(text="Settings"), Tap(id=rid(GALLERY, "settings_show_hidden_items_holder"))],
    ),
    near_miss={
        labelled("lookalike", "the switch next to it instead"): [
            app_settings(GALLERY),
            Tap(id=rid(GALLERY, "settings_search_all_files_holder")),
        ],
        "search all files too": [
            app_settings(GALLERY),
            Tap(id=rid(GALLERY, "settings_show_hidden_items_holder")),
            Tap(id=rid(GALLERY, "settings_search_all_files_holder")),
        ],
    },
    checkpoints=checkpoints(
        GALLERY, ["settings_show_hidden_items_holder"], [["APPLICATION_PREFERENCES", "text=Settings"]]
    ),
)
def test_gallery_hidden(changes):
    assert changes.value(GALLERY, pref("show_hidden_media")) is True, "hidden items are not shown"


@not_applicable(
    field=CALCULATOR_FIELDS,
    multiset="two computations, read from the history in order",
    allowance=NO_ALLOWANCE,
    route=IN_ITS_APP,
)
@task(
    prompt="Calculate 12 plus 30, then multiply the result by 2",
    app=CALCULATOR,
    name="mb_samt_calc_chain",
    launch=False,
    max_steps=SAMT,
    golden=golden(api=[open_app(CALCULATOR), *calc("12+30=*2=")], ui=[tap_icon(CALCULATOR), *calc("12+30=*2=")]),
    near_miss={
        "the goal, and vibration turned off": [
            open_app(CALCULATOR),
            *calc("12+30=*2="),
            app_settings(CALCULATOR),
            Tap(text="Vibrate on button press"),
            Key("back"),
        ],
        "multiplied by 3": [open_app(CALCULATOR), *calc("12+30=*3=")],
        labelled("lookalike", "the answer typed"): [open_app(CALCULATOR), *calc("84")],
        labelled("lookalike", "42×2 typed, 12+30 worked out elsewhere"): [open_app(CALCULATOR), *calc("42*2=")],
    },
    checkpoints=checkpoints(CALCULATOR, ["btn_plus", "btn_multiply"], [[f"monkey -p {CALCULATOR}", "text=Calculator"]]),
)
def test_calc_chain(ui, changes):
    assert_computed(changes, ("12+30", "42"), ("42×2", "84"))
    assert ui.text_of(RESULT) == "84", f"the result reads {ui.text_of(RESULT)!r}"


@not_applicable(
    field=CALCULATOR_FIELDS,
    multiset="two computations, read from the history in order",
    allowance=NO_ALLOWANCE,
    route=IN_ITS_APP,
)
@task(
    prompt="Work out 100 divided by 4, then take away 5",
    app=CALCULATOR,
    name="mb_samt_calc_divide",
    launch=False,
    max_steps=SAMT,
    golden=golden(api=[open_app(CALCULATOR), *calc("100/4=-5=")], ui=[tap_icon(CALCULATOR), *calc("100/4=-5=")]),
    near_miss={
        "the goal, and vibration turned off": [
            open_app(CALCULATOR),
            *calc("100/4=-5="),
            app_settings(CALCULATOR),
            Tap(text="Vibrate on button press"),
            Key("back"),
        ],
        "5 added": [open_app(CALCULATOR), *calc("100/4=+5=")],
        "divided by 5": [open_app(CALCULATOR), *calc("100/5=-5=")],
        labelled("lookalike", "25-5 typed, 100÷4 worked out elsewhere"): [open_app(CALCULATOR), *calc("25-5=")],
    },
    checkpoints=checkpoints(CALCULATOR, ["btn_divide", "btn_minus"], [[f"monkey -p {CALCULATOR}", "text=Calculator"]]),
)
def test_calc_divide(ui, changes):
    assert_computed(changes, ("100÷4", "25"), ("25-5", "20"))
    assert ui.text_of(RESULT) == "20", f"the result reads {ui.text_of(RESULT)!r}"


@not_applicable(
    multiset=SAME_TITLE,
    allowance=NO_ALLOWANCE,
    lookalike="the check names the note's fields and the settings activity in front",
    route=IN_ITS_APP,
)
@task(
    prompt="Create a note Ideas that says 'plant trees', then open the settings of Notes",
    app=NOTES,
    name="mb_samt_note_then_settings",
    launch=False,
    max_steps=SAMT,
    golden=golden(
        api=[share_text(NOTES, "plant trees"), *shared_note("Ideas"), app_settings(NOTES)],
        ui=[tap_icon(NOTES), *note("Ideas", "plant trees"), MORE, Tap(text="Settings")],
    ),
    near_miss={
        "the goal, and a second note": [
            share_text(NOTES, "plant trees"),
            *shared_note("Ideas"),
            app_settings(NOTES),
            share_text(NOTES, "x"),
            *shared_note("Extra"),
            app_settings(NOTES),
        ],
        "the text added to the General note": [
            share_text(NOTES, "plant trees"),
            Tap(text="General note"),
            app_settings(NOTES),
        ],
        "settings not opened": [share_text(NOTES, "plant trees"), *shared_note("Ideas")],
        labelled("field", "Ideas locked"): [
            share_text(NOTES, "plant trees"),
            *shared_note("Ideas"),
            *lock_note(),
            app_settings(NOTES),
        ],
    },
    checkpoints=checkpoints(
        NOTES, ["Ideas", "plant trees"], [["action.SEND", "new_note"], ["APPLICATION_PREFERENCES", "text=Settings"]]
    ),
)
def test_note_then_settings(device, changes):
    assert_note(changes.added(NOTES, NOTE), "Ideas", "plant trees")
    in_front(device, NOTES, SETTINGS_ACTIVITY)


TASK_FORM = [
    Tap(id=rid(CALENDAR, "calendar_fab")),
    Tap(text="Task"),
    Type("Pack bags"),
    Tap(id=rid(CALENDAR, "task_all_day")),
    SAVE,
]


@not_applicable(allowance=NO_ALLOWANCE, lookalike=NEW_EVENT, route=IN_ITS_APP)
@task(
    prompt="Add an all-day event Flight and an all-day task Pack bags for today",
    app=CALENDAR,
    name="mb_samt_event_and_task",
    launch=False,
    max_steps=SAMT,
    golden=golden(
        api=[insert_event("Flight", all_day=True), SAVE, DISCLAIMER_OK, *TASK_FORM],
        ui=[tap_icon(CALENDAR), *event_form("Flight", all_day=True), SAVE, DISCLAIMER_OK, *TASK_FORM],
    ),
    near_miss={
        "the goal, and a third event": [
            insert_event("Flight", all_day=True),
            SAVE,
            DISCLAIMER_OK,
            *TASK_FORM,
            insert_event("Yoga", all_day=True),
            SAVE,
        ],
        "Pack bags as an event": [
            insert_event("Flight", all_day=True),
            SAVE,
            DISCLAIMER_OK,
            insert_event("Pack bags", all_day=True),
            SAVE,
        ],
        "only the task": [tap_icon(CALENDAR), *TASK_FORM, DISCLAIMER_OK],
        labelled("field", "Flight repeating weekly"): [
            insert_event("Flight", all_day=True),
            *REPEAT_WEEKLY,
            SAVE,
            DISCLAIMER_OK,
            *TASK_FORM,
        ],
        labelled("multiset", "Flight saved twice"): [
            insert_event("Flight", all_day=True),
            SAVE,
            DISCLAIMER_OK,
            insert_event("Flight", all_day=True),
            SAVE,
            *TASK_FORM,
        ],
    },
    checkpoints=checkpoints(CALENDAR, ["Flight", "Pack bags"], [["vnd.android.cursor.item/event", "calendar_fab"]]),
)
def test_event_and_task(changes, device):
    found = sorted((e["title"], e["type"]) for e in events(changes))  # a list: one saved twice shows
    assert found == [("Flight", 0), ("Pack bags", 1)], f"added (title, 0 event / 1 task): {found}"
    for e in events(changes):
        assert_event(device, e, e["title"], all_day=True)
