"""MAMT: several apps, several tasks ("search for the latest technology news and share it with
friends"), at most 50 steps. What one app shows is what the next needs (a number in a message,
the text of a note or a file, a result); the API path reads the first app opened by its
launcher entry and passes the value on by intent, the UI path goes home and on by icons."""

from __future__ import annotations

import pytest

from pytest_mobile_agent import LongPress, Tap, Type, task
from task_suites.mobilebench.checks import (
    NOTE,
    all_sent,
    assert_contact,
    assert_event,
    assert_note,
    assert_playing,
    assert_sent,
    contact,
    event,
    first_started,
    sent,
    viewer_shows,
)
from task_suites.mobilebench.conftest import seed_note
from task_suites.mobilebench.paths import (
    ARCHIVE,
    CONTACT_FAB,
    DISCLAIMER_OK,
    HOME,
    MAMT,
    REPEAT_WEEKLY,
    SAVE,
    SEND_SMS,
    STAR,
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
    rid,
)
from task_suites.shared.near_misses import NO_ALLOWANCE, labelled, not_applicable
from task_suites.shared.reading import assert_computed
from task_suites.shared.routes import apps_in_order, first, last
from task_suites.shared.seeds import add_sms

RESULT = rid(CALCULATOR, "result")
SAME_TITLE = "Notes refuses a second note of the same title, and the one note's text is compared whole"


def add_received(device, number: str, body: str) -> None:
    """A conversation holding one message received from `number`."""
    add_sms(device, "inbox", number, body)


@pytest.fixture
def dana_texted(device):
    add_received(device, "5550123", "Hi, it's Dana")


@pytest.fixture
def gate_code(device):
    add_received(device, "5550800", "The gate code is 4321")


@pytest.fixture
def address_note(device):
    seed_note(device, "Address", "12 Oak Street")


@pytest.fixture
def plan_note(device):
    seed_note(device, "Plan", "Picnic")


@not_applicable(allowance=NO_ALLOWANCE, lookalike="one message from one number: nothing like it to read instead")
@task(
    prompt="Someone texted me 'Hi, it's Dana'. Save that number as a contact named Dana",
    app=[SMS_MESSENGER, CONTACTS],
    name="mb_mamt_sms_number_to_contact",
    launch=False,
    max_steps=MAMT,
    golden=golden(
        api=[open_app(SMS_MESSENGER), insert_contact(name="Dana", phone="5550123"), SAVE],
        ui=[tap_icon(SMS_MESSENGER), HOME, tap_icon(CONTACTS), CONTACT_FAB, *contact_form("Dana", "5550123"), SAVE],
    ),
    near_miss={
        "a digit wrong": [open_app(SMS_MESSENGER), insert_contact(name="Dana", phone="5550132"), SAVE],
        "saved, and a reply sent": [
            open_app(SMS_MESSENGER),
            insert_contact(name="Dana", phone="5550123"),
            SAVE,
            sms_to("5550123", "Saved you"),
            SEND_SMS,
        ],
        labelled("route", "the message never opened"): [insert_contact(name="Dana", phone="5550123"), SAVE],
        labelled("field", "an email typed too"): [
            open_app(SMS_MESSENGER),
            insert_contact(name="Dana", phone="5550123", email="dana@example.com"),
            SAVE,
        ],
        labelled("field", "saved a favourite"): [
            open_app(SMS_MESSENGER),
            insert_contact(name="Dana", phone="5550123"),
            STAR,
            SAVE,
        ],
        labelled("multiset", "saved twice"): [
            open_app(SMS_MESSENGER),
            insert_contact(name="Dana", phone="5550123"),
            SAVE,
            insert_contact(name="Dana", phone="5550123"),
            SAVE,
        ],
    },
    checkpoints=checkpoints(
        [SMS_MESSENGER, CONTACTS],
        ["Dana", "5550123"],
        [[f"monkey -p {SMS_MESSENGER}", "text=SMS Messenger"], ["action.INSERT", "fragment_fab"]],
    ),
)
def test_sms_number_to_contact(dana_texted, events, changes):
    assert_contact(contact(changes), "Dana", "5550123")
    apps_in_order(events, [SMS_MESSENGER, CONTACTS])


@not_applicable(
    allowance=NO_ALLOWANCE,
    lookalike="a new event and a new message: nothing like them to show instead",
    route="two parts only their own apps can do, each read back from its app's store; no order asked",
)
@task(
    prompt="Add an all-day event Party for today and text 5550500 'Party today!'",
    app=[CALENDAR, SMS_MESSENGER],
    name="mb_mamt_event_and_text",
    launch=False,
    max_steps=MAMT,
    golden=golden(
        api=[insert_event("Party", all_day=True), SAVE, DISCLAIMER_OK, sms_to("5550500", "Party today!"), SEND_SMS],
        ui=[
            tap_icon(CALENDAR),
            *event_form("Party", all_day=True),
            SAVE,
            DISCLAIMER_OK,
            HOME,
            tap_icon(SMS_MESSENGER),
            *compose("5550500", "Party today!"),
        ],
    ),
    near_miss={
        "the goal, and a contact saved": [
            insert_event("Party", all_day=True),
            SAVE,
            DISCLAIMER_OK,
            sms_to("5550500", "Party today!"),
            SEND_SMS,
            insert_contact(name="Cal", phone="5550399"),
            SAVE,
        ],
        "the text not sent": [
            insert_event("Party", all_day=True),
            SAVE,
            DISCLAIMER_OK,
            sms_to("5550500", "Party today!"),
        ],
        "the event not all-day": [
            insert_event("Party"),
            SAVE,
            DISCLAIMER_OK,
            sms_to("5550500", "Party today!"),
            SEND_SMS,
        ],
        labelled("field", "the event repeating weekly"): [
            insert_event("Party", all_day=True),
            *REPEAT_WEEKLY,
            SAVE,
            DISCLAIMER_OK,
            sms_to("5550500", "Party today!"),
            SEND_SMS,
        ],
        labelled("field", "the conversation archived"): [
            insert_event("Party", all_day=True),
            SAVE,
            DISCLAIMER_OK,
            sms_to("5550500", "Party today!"),
            SEND_SMS,
            *ARCHIVE,
        ],
        labelled("multiset", "the event saved twice"): [
            insert_event("Party", all_day=True),
            SAVE,
            DISCLAIMER_OK,
            insert_event("Party", all_day=True),
            SAVE,
            sms_to("5550500", "Party today!"),
            SEND_SMS,
        ],
        labelled("multiset", "the text sent twice"): [
            insert_event("Party", all_day=True),
            SAVE,
            DISCLAIMER_OK,
            sms_to("5550500", "Party today!"),
            SEND_SMS,
            sms_to("5550500", "Party today!"),
            SEND_SMS,
        ],
    },
    checkpoints=checkpoints(
        [CALENDAR, SMS_MESSENGER],
        ["Party", "5550500", "Party today!"],
        [["vnd.android.cursor.item/event", "calendar_fab"], ["smsto:5550500", "conversations_fab"]],
    ),
)
def test_event_and_text(changes, device):
    assert_event(device, event(changes), "Party", all_day=True)
    assert_sent(sent(changes), "5550500", "Party today!")


@not_applicable(allowance=NO_ALLOWANCE, lookalike="one note with a text: nothing like it to read instead")
@task(
    prompt="Text what my note Address says to 5550600",
    app=[NOTES, SMS_MESSENGER],
    name="mb_mamt_note_to_sms",
    launch=False,
    max_steps=MAMT,
    golden=golden(
        api=[open_app(NOTES), sms_to("5550600", "12 Oak Street"), SEND_SMS],
        ui=[tap_icon(NOTES), HOME, tap_icon(SMS_MESSENGER), *compose("5550600", "12 Oak Street")],
    ),
    near_miss={
        "the goal, and a note added": [
            open_app(NOTES),
            sms_to("5550600", "12 Oak Street"),
            SEND_SMS,
            share_text(NOTES, "x"),
            *shared_note("Extra"),
        ],
        "the note's title sent": [open_app(NOTES), sms_to("5550600", "Address"), SEND_SMS],
        "sent to 5550601": [open_app(NOTES), sms_to("5550601", "12 Oak Street"), SEND_SMS],
        labelled("route", "the note never opened"): [sms_to("5550600", "12 Oak Street"), SEND_SMS],
        labelled("field", "the conversation archived"): [
            open_app(NOTES),
            sms_to("5550600", "12 Oak Street"),
            SEND_SMS,
            *ARCHIVE,
        ],
        labelled("multiset", "sent twice"): [
            open_app(NOTES),
            sms_to("5550600", "12 Oak Street"),
            SEND_SMS,
            sms_to("5550600", "12 Oak Street"),
            SEND_SMS,
        ],
    },
    checkpoints=checkpoints(
        [NOTES, SMS_MESSENGER],
        ["12 Oak Street", "5550600"],
        [[f"monkey -p {NOTES}", "text=Notes"], ["smsto:5550600", "conversations_fab"]],
    ),
)
def test_note_to_sms(address_note, events, changes):
    assert_sent(sent(changes), "5550600", "12 Oak Street")
    apps_in_order(events, [NOTES, SMS_MESSENGER])


@not_applicable(
    allowance=NO_ALLOWANCE,
    lookalike="a new contact and a new message: nothing like them to show instead",
    route="two parts only their own apps can do, each read back from its app's store; no order asked",
)
@task(
    prompt="Add Eve with the number 5550700 to my contacts and send her 'Welcome'",
    app=[CONTACTS, SMS_MESSENGER],
    name="mb_mamt_contact_and_sms",
    launch=False,
    max_steps=MAMT,
    golden=golden(
        api=[insert_contact(name="Eve", phone="5550700"), SAVE, sms_to("5550700", "Welcome"), SEND_SMS],
        ui=[
            tap_icon(CONTACTS),
            CONTACT_FAB,
            *contact_form("Eve", "5550700"),
            SAVE,
            HOME,
            tap_icon(SMS_MESSENGER),
            *compose("5550700", "Welcome"),
        ],
    ),
    near_miss={
        "the goal, and a second message": [
            insert_contact(name="Eve", phone="5550700"),
            SAVE,
            sms_to("5550700", "Welcome"),
            SEND_SMS,
            sms_to("5550499", "ok"),
            SEND_SMS,
        ],
        "the message to another number": [
            insert_contact(name="Eve", phone="5550700"),
            SAVE,
            sms_to("5550770", "Welcome"),
            SEND_SMS,
        ],
        "no contact saved": [insert_contact(name="Eve", phone="5550700"), sms_to("5550700", "Welcome"), SEND_SMS],
        labelled("field", "Eve a favourite"): [
            insert_contact(name="Eve", phone="5550700"),
            STAR,
            SAVE,
            sms_to("5550700", "Welcome"),
            SEND_SMS,
        ],
        labelled("field", "the conversation archived"): [
            insert_contact(name="Eve", phone="5550700"),
            SAVE,
            sms_to("5550700", "Welcome"),
            SEND_SMS,
            *ARCHIVE,
        ],
        labelled("multiset", "Eve saved twice"): [
            insert_contact(name="Eve", phone="5550700"),
            SAVE,
            insert_contact(name="Eve", phone="5550700"),
            SAVE,
            sms_to("5550700", "Welcome"),
            SEND_SMS,
        ],
        labelled("multiset", "Welcome sent twice"): [
            insert_contact(name="Eve", phone="5550700"),
            SAVE,
            sms_to("5550700", "Welcome"),
            SEND_SMS,
            sms_to("5550700", "Welcome"),
            SEND_SMS,
        ],
    },
    checkpoints=checkpoints(
        [CONTACTS, SMS_MESSENGER],
        ["Eve", "5550700", "Welcome"],
        [["action.INSERT", "fragment_fab"], ["smsto:5550700", "conversations_fab"]],
    ),
)
def test_contact_and_sms(changes):
    assert_contact(contact(changes), "Eve", "5550700")
    assert_sent(sent(changes), "5550700", "Welcome")


@not_applicable(
    allowance=NO_ALLOWANCE, lookalike="one file with a text: nothing like it to read instead", multiset=SAME_TITLE
)
@task(
    prompt="Copy the text of todo.txt in the Download folder into a new note titled Todo",
    app=[FILE_MANAGER, NOTES],
    name="mb_mamt_file_to_note",
    launch=False,
    max_steps=MAMT,
    golden=golden(
        api=[
            view("/sdcard/Download/todo.txt", "text/plain", FILE_MANAGER),
            share_text(NOTES, "milk"),
            *shared_note("Todo"),
        ],
        ui=[
            tap_icon(FILE_MANAGER),
            Tap(text="Download"),
            Tap(text="todo.txt"),
            HOME,
            tap_icon(NOTES),
            *note("Todo", "milk"),
        ],
    ),
    near_miss={
        "the goal, and todo.txt changed": [
            view("/sdcard/Download/todo.txt", "text/plain", FILE_MANAGER),
            share_text(NOTES, "milk"),
            *shared_note("Todo"),
            view("/sdcard/Download/todo.txt", "text/plain", FILE_MANAGER),
            LongPress(id=rid(FILE_MANAGER, "read_text_view")),
            Type("eggs"),
            Tap(id=rid(FILE_MANAGER, "menu_save")),
        ],
        "the file's name as the text": [
            view("/sdcard/Download/todo.txt", "text/plain", FILE_MANAGER),
            share_text(NOTES, "todo.txt"),
            *shared_note("Todo"),
        ],
        "added to the General note": [
            view("/sdcard/Download/todo.txt", "text/plain", FILE_MANAGER),
            share_text(NOTES, "milk"),
            Tap(text="General note"),
        ],
        labelled("route", "todo.txt never opened"): [share_text(NOTES, "milk"), *shared_note("Todo")],
        labelled("field", "the note locked"): [
            view("/sdcard/Download/todo.txt", "text/plain", FILE_MANAGER),
            share_text(NOTES, "milk"),
            *shared_note("Todo"),
            *lock_note(),
        ],
    },
    checkpoints=checkpoints(
        [FILE_MANAGER, NOTES],
        ["todo.txt", "milk", "Todo"],
        [["file:///sdcard/Download/todo.txt", "text=Download"], ["action.SEND", "new_note"]],
    ),
)
def test_file_to_note(events, changes):
    assert_note(changes.added(NOTES, NOTE), "Todo", "milk")
    apps_in_order(events, [FILE_MANAGER, NOTES])


@not_applicable(
    allowance=NO_ALLOWANCE, lookalike="one message with a code: nothing like it to read instead", multiset=SAME_TITLE
)
@task(
    prompt="Save the gate code from my messages as a note titled Gate",
    app=[SMS_MESSENGER, NOTES],
    name="mb_mamt_sms_to_note",
    launch=False,
    max_steps=MAMT,
    golden=golden(
        api=[open_app(SMS_MESSENGER), share_text(NOTES, "4321"), *shared_note("Gate")],
        ui=[tap_icon(SMS_MESSENGER), HOME, tap_icon(NOTES), *note("Gate", "4321")],
    ),
    near_miss={
        "a digit wrong": [open_app(SMS_MESSENGER), share_text(NOTES, "4312"), *shared_note("Gate")],
        "saved, and the code texted on": [
            open_app(SMS_MESSENGER),
            share_text(NOTES, "4321"),
            *shared_note("Gate"),
            sms_to("5550801", "4321"),
            SEND_SMS,
        ],
        labelled("route", "the messages never opened"): [share_text(NOTES, "4321"), *shared_note("Gate")],
        labelled("field", "the note locked"): [
            open_app(SMS_MESSENGER),
            share_text(NOTES, "4321"),
            *shared_note("Gate"),
            *lock_note(),
        ],
    },
    checkpoints=checkpoints(
        [SMS_MESSENGER, NOTES],
        ["4321", "Gate"],
        [[f"monkey -p {SMS_MESSENGER}", "text=SMS Messenger"], ["action.SEND", "new_note"]],
    ),
)
def test_sms_to_note(gate_code, events, changes):
    assert_note(changes.added(NOTES, NOTE), "Gate", "4321")
    apps_in_order(events, [SMS_MESSENGER, NOTES])


@not_applicable(allowance=NO_ALLOWANCE)
@task(
    prompt="Calculate 15 times 4 and text the result to 5550900",
    app=[CALCULATOR, SMS_MESSENGER],
    name="mb_mamt_calc_to_sms",
    launch=False,
    max_steps=MAMT,
    golden=golden(
        api=[open_app(CALCULATOR), *calc("15*4="), sms_to("5550900", "60"), SEND_SMS],
        ui=[tap_icon(CALCULATOR), *calc("15*4="), HOME, tap_icon(SMS_MESSENGER), *compose("5550900", "60")],
    ),
    near_miss={
        "the goal, and a second message": [
            open_app(CALCULATOR),
            *calc("15*4="),
            sms_to("5550900", "60"),
            SEND_SMS,
            sms_to("5550499", "ok"),
            SEND_SMS,
        ],
        "the sum sent": [open_app(CALCULATOR), *calc("15+4="), sms_to("5550900", "19"), SEND_SMS],
        labelled("route", "the result texted without computing it"): [sms_to("5550900", "60"), SEND_SMS],
        labelled("lookalike", "15×4 pressed, the result typed"): [
            open_app(CALCULATOR),
            *calc("15*4"),
            sms_to("5550900", "60"),
            SEND_SMS,
        ],
        labelled("route", "computed after the text was sent"): [
            sms_to("5550900", "60"),
            SEND_SMS,
            open_app(CALCULATOR),
            *calc("15*4="),
        ],
        labelled("field", "the conversation archived"): [
            open_app(CALCULATOR),
            *calc("15*4="),
            sms_to("5550900", "60"),
            SEND_SMS,
            *ARCHIVE,
        ],
        labelled("multiset", "60 sent twice"): [
            open_app(CALCULATOR),
            *calc("15*4="),
            sms_to("5550900", "60"),
            SEND_SMS,
            sms_to("5550900", "60"),
            SEND_SMS,
        ],
    },
    checkpoints=checkpoints(
        [CALCULATOR, SMS_MESSENGER],
        ["btn_multiply", "60", "5550900"],
        [[f"monkey -p {CALCULATOR}", "text=Calculator"], ["smsto:5550900", "conversations_fab"]],
    ),
)
def test_calc_to_sms(events, changes):
    assert_computed(changes, ("15×4", "60"))
    assert_sent(sent(changes), "5550900", "60")
    equals = first(events, "= pressed in Calculator", id=rid(CALCULATOR, "btn_equals"), package=CALCULATOR)
    send = last(events, "Send tapped in SMS Messenger", id=rid(SMS_MESSENGER, "thread_send_message"))
    assert equals < send, "the result was texted before Calculator computed it"


@not_applicable(allowance=NO_ALLOWANCE, lookalike="one note with a text: nothing like it to read instead")
@task(
    prompt="Create an all-day event for today named after what my note Plan says",
    app=[NOTES, CALENDAR],
    name="mb_mamt_note_to_event",
    launch=False,
    max_steps=MAMT,
    golden=golden(
        api=[open_app(NOTES), insert_event("Picnic", all_day=True), SAVE, DISCLAIMER_OK],
        ui=[tap_icon(NOTES), HOME, tap_icon(CALENDAR), *event_form("Picnic", all_day=True), SAVE, DISCLAIMER_OK],
    ),
    near_miss={
        "named after the note's title": [open_app(NOTES), insert_event("Plan", all_day=True), SAVE, DISCLAIMER_OK],
        "made, and the note renamed": [
            open_app(NOTES),
            insert_event("Picnic", all_day=True),
            SAVE,
            DISCLAIMER_OK,
            open_app(NOTES),
            *note("Picnic"),
        ],
        labelled("route", "the note never opened"): [insert_event("Picnic", all_day=True), SAVE, DISCLAIMER_OK],
        labelled("field", "the event repeating weekly"): [
            open_app(NOTES),
            insert_event("Picnic", all_day=True),
            *REPEAT_WEEKLY,
            SAVE,
            DISCLAIMER_OK,
        ],
        labelled("multiset", "the event saved twice"): [
            open_app(NOTES),
            insert_event("Picnic", all_day=True),
            SAVE,
            DISCLAIMER_OK,
            insert_event("Picnic", all_day=True),
            SAVE,
        ],
    },
    checkpoints=checkpoints(
        [NOTES, CALENDAR],
        ["Picnic"],
        [[f"monkey -p {NOTES}", "text=Notes"], ["vnd.android.cursor.item/event", "calendar_fab"]],
    ),
)
def test_note_to_event(plan_note, events, changes, device):
    assert_event(device, event(changes), "Picnic", all_day=True)
    apps_in_order(events, [NOTES, CALENDAR])


@not_applicable(
    allowance=NO_ALLOWANCE,
    multiset=SAME_TITLE,
    route="only Notes keeps notes and Gallery's viewer must show the photo at the end, whatever came before",
)
@task(
    prompt="Write a note Trip that says 'beach photo', then show me the photo beach.jpg",
    app=[NOTES, GALLERY],
    name="mb_mamt_note_then_photo",
    launch=False,
    max_steps=MAMT,
    golden=golden(
        api=[
            share_text(NOTES, "beach photo"),
            *shared_note("Trip"),
            view("/sdcard/Pictures/beach.jpg", "image/jpeg", GALLERY),
        ],
        ui=[
            tap_icon(NOTES),
            *note("Trip", "beach photo"),
            HOME,
            tap_icon(GALLERY),
            Tap(text="Pictures"),
            Tap(id=rid(GALLERY, "media_item_holder")),
        ],
    ),
    near_miss={
        "the goal, and the photo a favourite": [
            share_text(NOTES, "beach photo"),
            *shared_note("Trip"),
            view("/sdcard/Pictures/beach.jpg", "image/jpeg", GALLERY),
            Tap(id=rid(GALLERY, "bottom_favorite")),
        ],
        labelled("lookalike", "dunes.jpg in the same viewer"): [
            share_text(NOTES, "beach photo"),
            *shared_note("Trip"),
            view("/sdcard/DCIM/dunes.jpg", "image/jpeg", GALLERY),
        ],
        "the photo, no note": [view("/sdcard/Pictures/beach.jpg", "image/jpeg", GALLERY)],
        labelled("field", "the note locked"): [
            share_text(NOTES, "beach photo"),
            *shared_note("Trip"),
            *lock_note(),
            view("/sdcard/Pictures/beach.jpg", "image/jpeg", GALLERY),
        ],
    },
    checkpoints=checkpoints(
        [NOTES, GALLERY],
        ["Trip", "beach photo"],
        [["action.SEND", "new_note"], ["file:///sdcard/Pictures/beach.jpg", "media_item_holder"]],
    ),
)
def test_note_then_photo(ui, changes):
    assert_note(changes.added(NOTES, NOTE), "Trip", "beach photo")
    viewer_shows(ui, GALLERY, "beach.jpg")


@not_applicable(allowance=NO_ALLOWANCE, lookalike="another song's screen shows its own title: a wrong item")
@task(
    prompt="Text 5550920 'Concert tonight', add an all-day event Concert for today, then play sunrise",
    app=[SMS_MESSENGER, CALENDAR, MUSIC_PLAYER],
    name="mb_mamt_text_event_song",
    launch=False,
    max_steps=MAMT,
    golden=golden(
        api=[
            sms_to("5550920", "Concert tonight"),
            SEND_SMS,
            insert_event("Concert", all_day=True),
            SAVE,
            DISCLAIMER_OK,
            view("/sdcard/Music/sunrise.mp3", "audio/mpeg", MUSIC_PLAYER),
        ],
        ui=[
            tap_icon(SMS_MESSENGER),
            *compose("5550920", "Concert tonight"),
            HOME,
            tap_icon(CALENDAR),
            *event_form("Concert", all_day=True),
            SAVE,
            DISCLAIMER_OK,
            HOME,
            tap_icon(MUSIC_PLAYER),
            Tap(text="Tracks"),
            Tap(text="sunrise"),
        ],
    ),
    near_miss={
        "the goal, and a contact saved first": [
            insert_contact(name="Cal", phone="5550399"),
            SAVE,
            sms_to("5550920", "Concert tonight"),
            SEND_SMS,
            insert_event("Concert", all_day=True),
            SAVE,
            DISCLAIMER_OK,
            view("/sdcard/Music/sunrise.mp3", "audio/mpeg", MUSIC_PLAYER),
        ],
        "rain played": [
            sms_to("5550920", "Concert tonight"),
            SEND_SMS,
            insert_event("Concert", all_day=True),
            SAVE,
            DISCLAIMER_OK,
            view("/sdcard/Music/rain.mp3", "audio/mpeg", MUSIC_PLAYER),
        ],
        "no event": [
            sms_to("5550920", "Concert tonight"),
            SEND_SMS,
            view("/sdcard/Music/sunrise.mp3", "audio/mpeg", MUSIC_PLAYER),
        ],
        labelled("field", "sunrise started, then paused"): [
            sms_to("5550920", "Concert tonight"),
            SEND_SMS,
            insert_event("Concert", all_day=True),
            SAVE,
            DISCLAIMER_OK,
            view("/sdcard/Music/sunrise.mp3", "audio/mpeg", MUSIC_PLAYER),
            Tap(id=rid(MUSIC_PLAYER, "activity_track_play_pause")),
        ],
        labelled("multiset", "the text sent twice"): [
            sms_to("5550920", "Concert tonight"),
            SEND_SMS,
            sms_to("5550920", "Concert tonight"),
            SEND_SMS,
            insert_event("Concert", all_day=True),
            SAVE,
            DISCLAIMER_OK,
            view("/sdcard/Music/sunrise.mp3", "audio/mpeg", MUSIC_PLAYER),
        ],
        labelled("route", "sunrise played first, Music Player reopened at the end"): [
            view("/sdcard/Music/sunrise.mp3", "audio/mpeg", MUSIC_PLAYER),
            sms_to("5550920", "Concert tonight"),
            SEND_SMS,
            insert_event("Concert", all_day=True),
            SAVE,
            DISCLAIMER_OK,
            open_app(MUSIC_PLAYER),
        ],
    },
    checkpoints=checkpoints(
        [SMS_MESSENGER, CALENDAR, MUSIC_PLAYER],
        ["Concert tonight", "Concert", "sunrise"],
        [
            ["smsto:5550920", "conversations_fab"],
            ["vnd.android.cursor.item/event", "calendar_fab"],
            ["audio/mpeg", "text=Tracks"],
        ],
    ),
)
def test_text_event_song(ui, events, changes, device):
    assert all_sent(changes) == [("5550920", "Concert tonight")], f"sent: {all_sent(changes)}"
    assert_event(device, event(changes), "Concert", all_day=True)
    assert_playing(ui, events, "sunrise")
    # "then play sunrise": the song started after the text was sent and the event saved
    started = first_started(events, "sunrise")
    sent_at = last(events, "Send tapped in SMS Messenger", id=rid(SMS_MESSENGER, "thread_send_message"))
    saved_at = last(events, "Save tapped in Calendar", desc="Save", package=CALENDAR)
    assert started > max(sent_at, saved_at), "sunrise was started before the text was sent and the event saved"
