"""SAST: single app, single task ("Help me open the map"), at most 10 steps. Each query names
one thing to do in one app; the API path is one intent (plus the taps it leaves, such as Save),
the UI path starts at the app's icon."""

from __future__ import annotations

import pytest

from pytest_mobile_agent import Key, LongPress, Tap, Type, task
from task_suites.mobilebench.checks import (
    assert_contact,
    assert_event,
    assert_note,
    assert_playing,
    assert_sent,
    contact,
    event,
    in_front,
    new_note,
    sent,
    viewer_shows,
)
from task_suites.mobilebench.paths import (
    CONTACT_FAB,
    DISCLAIMER_OK,
    MESSAGE_FIELD,
    MORE,
    REPEAT_WEEKLY,
    SAST,
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
    record_sound,
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
from task_suites.shared.conversations import read_marks, replied
from task_suites.shared.near_misses import (
    IN_ITS_APP,
    NAMED_SCREEN,
    NO_ALLOWANCE,
    SCREEN_ONLY,
    labelled,
    not_applicable,
)
from task_suites.shared.reading import assert_computed
from task_suites.shared.seeds import add_contact, add_sms_thread
from task_suites.shared.variations import FIRST_NAMES, MESSAGES, TITLES, typo

SETTINGS_ACTIVITY = ".activities.SettingsActivity"
MAIN = ".activities.MainActivity"
RESULT = rid(CALCULATOR, "result")
SAME_TITLE = "Notes refuses a second note of the same title, and the one note's text is compared whole"


@pytest.fixture
def zack(device):
    """Another contact, one an agent could change by mistake."""
    add_contact(device, "Zack", "555123")


# -- opening an app --------------------------------------------------------------------------------
@not_applicable(
    lookalike=NAMED_SCREEN, field=SCREEN_ONLY, multiset=SCREEN_ONLY, allowance=NO_ALLOWANCE, route=IN_ITS_APP
)
@task(
    prompt="Help me open the calculator",
    app=CALCULATOR,
    name="mb_sast_open_calculator",
    launch=False,
    max_steps=SAST,
    golden=golden(api=[open_app(CALCULATOR)], ui=[tap_icon(CALCULATOR)]),
    near_miss={
        "the notes instead": [tap_icon(NOTES)],
        "opened and a sum computed": [tap_icon(CALCULATOR), *calc("1+1=")],
    },
    checkpoints=checkpoints(CALCULATOR, [], [[f"monkey -p {CALCULATOR}", "text=Calculator"]]),
)
def test_open_calculator(device, ui):
    in_front(device, CALCULATOR, MAIN)
    assert ui.text_of(RESULT) in ("", "0"), f"the calculator shows {ui.text_of(RESULT)!r}: something was computed"


@not_applicable(
    lookalike=NAMED_SCREEN, field=SCREEN_ONLY, multiset=SCREEN_ONLY, allowance=NO_ALLOWANCE, route=IN_ITS_APP
)
@task(
    prompt="Open my notes",
    app=NOTES,
    name="mb_sast_open_notes",
    launch=False,
    max_steps=SAST,
    golden=golden(api=[open_app(NOTES)], ui=[tap_icon(NOTES)]),
    near_miss={
        "the calculator instead": [tap_icon(CALCULATOR)],
        "opened and a note added": [tap_icon(NOTES), *note("x")],
    },
    checkpoints=checkpoints(NOTES, [], [[f"monkey -p {NOTES}", "text=Notes"]]),
)
def test_open_notes(device):
    in_front(device, NOTES, MAIN)


@not_applicable(
    lookalike=NAMED_SCREEN, field=SCREEN_ONLY, multiset=SCREEN_ONLY, allowance=NO_ALLOWANCE, route=IN_ITS_APP
)
@task(
    prompt="I want to record my voice, open the recorder",
    app=VOICE_RECORDER,
    name="mb_sast_open_recorder",
    launch=False,
    max_steps=SAST,
    golden=golden(api=[record_sound()], ui=[tap_icon(VOICE_RECORDER)]),
    near_miss={
        "opened, and a recording made": [
            record_sound(),
            Tap(id=rid(VOICE_RECORDER, "toggle_recording_button")),
            Tap(id=rid(VOICE_RECORDER, "toggle_recording_button")),
        ],
        "the music player instead": [tap_icon(MUSIC_PLAYER)],
        "its settings instead": [tap_icon(VOICE_RECORDER), Tap(id=rid(VOICE_RECORDER, "settings"))],
    },
    checkpoints=checkpoints(VOICE_RECORDER, [], [["RECORD_SOUND", "text=Voice Recorder"]]),
)
def test_open_recorder(device):
    in_front(device, VOICE_RECORDER, MAIN)


# -- settings -------------------------------------------------------------------------------------
@not_applicable(field=SCREEN_ONLY, multiset=SCREEN_ONLY, allowance=NO_ALLOWANCE, route=IN_ITS_APP)
@task(
    prompt="Show me the calendar's settings",
    app=CALENDAR,
    name="mb_sast_calendar_settings",
    launch=False,
    max_steps=SAST,
    golden=golden(api=[app_settings(CALENDAR)], ui=[tap_icon(CALENDAR), Tap(id=rid(CALENDAR, "settings"))]),
    near_miss={
        labelled("lookalike", "the contacts' settings"): [app_settings(CONTACTS)],
        "settings, and the week made to start on Sunday": [
            app_settings(CALENDAR),
            Tap(text="Start week on"),
            Tap(text="Sunday"),
        ],
    },
    checkpoints=checkpoints(CALENDAR, [], [["APPLICATION_PREFERENCES -p " + CALENDAR, f"{CALENDAR}:id/settings"]]),
)
def test_calendar_settings(device):
    in_front(device, CALENDAR, SETTINGS_ACTIVITY)


@not_applicable(field=SCREEN_ONLY, multiset=SCREEN_ONLY, allowance=NO_ALLOWANCE, route=IN_ITS_APP)
@task(
    prompt="Open the settings of my contacts app",
    app=CONTACTS,
    name="mb_sast_contacts_settings",
    launch=False,
    max_steps=SAST,
    golden=golden(api=[app_settings(CONTACTS)], ui=[tap_icon(CONTACTS), MORE, Tap(text="Settings")]),
    near_miss={
        labelled("lookalike", "the notes' settings"): [app_settings(NOTES)],
        "settings, and the dialpad button hidden": [
            app_settings(CONTACTS),
            Tap(id=rid(CONTACTS, "settings_show_dialpad_button_holder")),
        ],
    },
    checkpoints=checkpoints(CONTACTS, [], [["APPLICATION_PREFERENCES -p " + CONTACTS, "text=Settings"]]),
)
def test_contacts_settings(device):
    in_front(device, CONTACTS, SETTINGS_ACTIVITY)


@not_applicable(field=SCREEN_ONLY, multiset=SCREEN_ONLY, allowance=NO_ALLOWANCE, route=IN_ITS_APP)
@task(
    prompt="Take me to the settings of Notes",
    app=NOTES,
    name="mb_sast_notes_settings",
    launch=False,
    max_steps=SAST,
    golden=golden(api=[app_settings(NOTES)], ui=[tap_icon(NOTES), MORE, Tap(text="Settings")]),
    near_miss={
        labelled("lookalike", "Notes' About page"): [tap_icon(NOTES), MORE, Tap(text="About")],
        "settings, after a note added": [tap_icon(NOTES), *note("x"), MORE, Tap(text="Settings")],
    },
    checkpoints=checkpoints(NOTES, [], [["APPLICATION_PREFERENCES -p " + NOTES, "text=Settings"]]),
)
def test_notes_settings(device):
    in_front(device, NOTES, SETTINGS_ACTIVITY)


# -- contacts -------------------------------------------------------------------------------------
@not_applicable(field=SCREEN_ONLY, multiset=SCREEN_ONLY, allowance=NO_ALLOWANCE, route=IN_ITS_APP)
@task(
    prompt="Open an empty form to add a new contact",
    app=CONTACTS,
    name="mb_sast_new_contact_form",
    launch=False,
    max_steps=SAST,
    golden=golden(api=[insert_contact()], ui=[tap_icon(CONTACTS), CONTACT_FAB]),
    near_miss={
        labelled("lookalike", "Zack's editor"): [tap_icon(CONTACTS), Tap(text="Zack"), Tap(desc="Edit contact")],
        "a contact saved first": [insert_contact(name="x"), SAVE, insert_contact()],
    },
    checkpoints=checkpoints(CONTACTS, [], [["action.INSERT -t vnd.android.cursor.dir/contact", "fragment_fab"]]),
)
def test_new_contact_form(zack, device, ui):
    in_front(device, CONTACTS, ".activities.EditContactActivity")
    assert ui.text_of(rid(CONTACTS, "contact_first_name")) == "", "the form is not empty"
    assert not ui.exists(desc="Delete"), "the editor of an existing contact"


@pytest.mark.parametrize("name, phone", [("Lily", "5550101")])
@not_applicable(
    allowance=NO_ALLOWANCE,
    lookalike="a new contact is read back from the provider: no screen to mistake",
    route=IN_ITS_APP,
)
@task(
    prompt="Add a contact named {name} with the number {phone}",
    app=CONTACTS,
    name="mb_sast_add_contact",
    launch=False,
    max_steps=SAST,
    golden=lambda name, phone: golden(
        api=[insert_contact(name=name, phone=phone), SAVE],
        ui=[tap_icon(CONTACTS), CONTACT_FAB, *contact_form(name, phone), SAVE],
    )(),
    near_miss={
        "a digit missed": lambda name, phone: [insert_contact(name=name, phone=phone[:-1]), SAVE],
        "added, and Zack deleted": lambda name, phone: [
            insert_contact(name=name, phone=phone),
            SAVE,
            Tap(text="Zack"),
            Tap(desc="Delete"),
            Tap(text="Yes"),
        ],
        "left without saving": lambda name, phone: [insert_contact(name=name, phone=phone)],
        labelled("field", "added as a favourite"): lambda name, phone: [
            insert_contact(name=name, phone=phone),
            STAR,
            SAVE,
        ],
        labelled("field", "a surname typed too"): lambda name, phone: [
            insert_contact(name=name, phone=phone),
            Type("Smith", id=rid(CONTACTS, "contact_surname")),
            SAVE,
        ],
        labelled("multiset", "saved twice"): lambda name, phone: [
            insert_contact(name=name, phone=phone),
            SAVE,
            insert_contact(name=name, phone=phone),
            SAVE,
        ],
    },
    checkpoints=lambda name, phone: checkpoints(CONTACTS, [name, phone], [["action.INSERT", "fragment_fab"]]),
    variations=lambda rng: {"name": rng.choice(FIRST_NAMES), "phone": f"555{rng.randint(1000, 9999)}"},
)
def test_add_contact(zack, changes, name, phone):
    assert_contact(contact(changes), name, phone)


@not_applicable(
    allowance=NO_ALLOWANCE,
    lookalike="a new contact is read back from the provider: no screen to mistake",
    route=IN_ITS_APP,
)
@task(
    prompt="Create a contact Ben whose email is ben@example.com",
    app=CONTACTS,
    name="mb_sast_add_contact_email",
    launch=False,
    max_steps=SAST,
    golden=golden(
        api=[insert_contact(name="Ben", email="ben@example.com"), SAVE],
        ui=[tap_icon(CONTACTS), CONTACT_FAB, *contact_form("Ben", email="ben@example.com"), SAVE],
    ),
    near_miss={
        "a typo in the email": [insert_contact(name="Ben", email="ben@exampel.com"), SAVE],
        "the email as a phone number": [insert_contact(name="Ben", phone="ben@example.com"), SAVE],
        labelled("field", "added and starred"): [insert_contact(name="Ben", email="ben@example.com"), STAR, SAVE],
        labelled("multiset", "saved twice"): [
            insert_contact(name="Ben", email="ben@example.com"),
            SAVE,
            insert_contact(name="Ben", email="ben@example.com"),
            SAVE,
        ],
    },
    checkpoints=checkpoints(CONTACTS, ["Ben", "ben@example.com"], [["action.INSERT", "fragment_fab"]]),
)
def test_add_contact_email(changes):
    found = contact(changes)
    assert_contact(found, "Ben", email="ben@example.com")


# -- calendar -------------------------------------------------------------------------------------
@not_applicable(
    allowance=NO_ALLOWANCE, lookalike="a new event is read back from events.db: no screen to mistake", route=IN_ITS_APP
)
@task(
    prompt="Put an all-day event called Dentist in my calendar for today",
    app=CALENDAR,
    name="mb_sast_add_event",
    launch=False,
    max_steps=SAST,
    golden=golden(
        api=[insert_event("Dentist", all_day=True), SAVE, DISCLAIMER_OK],
        ui=[tap_icon(CALENDAR), *event_form("Dentist", all_day=True), SAVE, DISCLAIMER_OK],
    ),
    near_miss={
        "not all-day": [insert_event("Dentist"), SAVE, DISCLAIMER_OK],
        "a typo in the title": [insert_event("Dentst", all_day=True), SAVE, DISCLAIMER_OK],
        labelled("multiset", "made twice"): [
            insert_event("Dentist", all_day=True),
            SAVE,
            DISCLAIMER_OK,
            insert_event("Dentist", all_day=True),
            SAVE,
        ],
        labelled("field", "repeating weekly"): [
            insert_event("Dentist", all_day=True),
            *REPEAT_WEEKLY,
            SAVE,
            DISCLAIMER_OK,
        ],
    },
    checkpoints=checkpoints(
        CALENDAR, ["Dentist"], [["vnd.android.cursor.item/event", "calendar_fab"], ["allDay true", "event_all_day"]]
    ),
)
def test_add_event(changes, device):
    assert_event(device, event(changes), "Dentist", all_day=True)


@not_applicable(
    allowance=NO_ALLOWANCE, lookalike="a new event is read back from events.db: no screen to mistake", route=IN_ITS_APP
)
@task(
    prompt="Add an all-day event Team lunch at Cafe Rio to today's calendar",
    app=CALENDAR,
    name="mb_sast_add_event_place",
    launch=False,
    max_steps=SAST,
    golden=golden(
        api=[insert_event("Team lunch", all_day=True, location="Cafe Rio"), SAVE, DISCLAIMER_OK],
        ui=[tap_icon(CALENDAR), *event_form("Team lunch", all_day=True, location="Cafe Rio"), SAVE, DISCLAIMER_OK],
    ),
    near_miss={
        "the place in the description": [
            insert_event("Team lunch", all_day=True, description="Cafe Rio"),
            SAVE,
            DISCLAIMER_OK,
        ],
        "no place": [insert_event("Team lunch", all_day=True), SAVE, DISCLAIMER_OK],
        "added, and a second event": [
            insert_event("Team lunch", all_day=True, location="Cafe Rio"),
            SAVE,
            DISCLAIMER_OK,
            insert_event("Gym", all_day=True),
            SAVE,
        ],
        labelled("field", "repeating weekly"): [
            insert_event("Team lunch", all_day=True, location="Cafe Rio"),
            *REPEAT_WEEKLY,
            SAVE,
            DISCLAIMER_OK,
        ],
        labelled("multiset", "made twice"): [
            insert_event("Team lunch", all_day=True, location="Cafe Rio"),
            SAVE,
            DISCLAIMER_OK,
            insert_event("Team lunch", all_day=True, location="Cafe Rio"),
            SAVE,
        ],
    },
    checkpoints=checkpoints(CALENDAR, ["Team lunch", "Cafe Rio"], [["vnd.android.cursor.item/event", "calendar_fab"]]),
)
def test_add_event_place(changes, device):
    assert_event(device, event(changes), "Team lunch", all_day=True, location="Cafe Rio")


# -- messages -------------------------------------------------------------------------------------
@not_applicable(
    allowance=NO_ALLOWANCE,
    lookalike="a message is read back from the SMS provider: no screen to mistake",
    route=IN_ITS_APP,
)
@task(
    prompt="Send 'On my way' to 5550123",
    app=SMS_MESSENGER,
    name="mb_sast_send_sms",
    launch=False,
    max_steps=SAST,
    golden=golden(
        api=[sms_to("5550123", "On my way"), SEND_SMS], ui=[tap_icon(SMS_MESSENGER), *compose("5550123", "On my way")]
    ),
    near_miss={
        "the wrong number": [sms_to("5550132", "On my way"), SEND_SMS],
        "written, not sent": [sms_to("5550123", "On my way")],
        labelled("multiset", "sent twice"): [
            sms_to("5550123", "On my way"),
            SEND_SMS,
            Type("On my way", id=MESSAGE_FIELD),
            SEND_SMS,
        ],
        labelled("field", "sent, and the conversation archived"): [
            sms_to("5550123", "On my way"),
            SEND_SMS,
            MORE,
            Tap(text="Archive"),
        ],
    },
    checkpoints=checkpoints(SMS_MESSENGER, ["5550123", "On my way"], [["smsto:5550123", "conversations_fab"]]),
)
def test_send_sms(changes):
    assert_sent(sent(changes), "5550123", "On my way")


@pytest.fixture
def thread_5550188(device):
    add_sms_thread(device, "5550188", "Are you coming?")


@not_applicable(lookalike="a message is read back from the SMS provider: no screen to mistake", route=IN_ITS_APP)
@task(
    prompt="Reply 'Yes' to 5550188",
    app=SMS_MESSENGER,
    name="mb_sast_reply_sms",
    launch=False,
    max_steps=SAST,
    golden=golden(
        api=[sms_to("5550188", "Yes"), SEND_SMS],
        ui=[
            tap_icon(SMS_MESSENGER),
            Tap(id=rid(SMS_MESSENGER, "conversation_frame")),
            Type("Yes", id=MESSAGE_FIELD),
            SEND_SMS,
        ],
    ),
    near_miss={
        "'No' instead": [sms_to("5550188", "No"), SEND_SMS],
        labelled("field", "replied, and the conversation archived"): [
            sms_to("5550188", "Yes"),
            SEND_SMS,
            MORE,
            Tap(text="Archive"),
        ],
        labelled("allowance", "replied, and marked unread"): [
            sms_to("5550188", "Yes"),
            SEND_SMS,
            MORE,
            Tap(text="Mark as Unread"),
        ],
        labelled("multiset", "Yes sent twice"): [
            sms_to("5550188", "Yes"),
            SEND_SMS,
            Type("Yes", id=MESSAGE_FIELD),
            SEND_SMS,
        ],
    },
    checkpoints=checkpoints(SMS_MESSENGER, ["Yes"], [["smsto:5550188", "conversation_frame"]]),
)
def test_reply_sms(thread_5550188, changes):
    read_marks(changes)
    assert_sent(changes.added("sms"), "5550188", "Yes")
    assert replied(changes).get("snippet") == "Yes"


# -- media and files ------------------------------------------------------------------------------
@not_applicable(multiset=SCREEN_ONLY, allowance=NO_ALLOWANCE, route=IN_ITS_APP)
@task(
    prompt="Show me the photo beach.jpg",
    app=GALLERY,
    name="mb_sast_view_photo",
    launch=False,
    max_steps=SAST,
    golden=golden(
        api=[view("/sdcard/Pictures/beach.jpg", "image/jpeg", GALLERY)],
        ui=[tap_icon(GALLERY), Tap(text="Pictures"), Tap(id=rid(GALLERY, "media_item_holder"))],
    ),
    near_miss={
        labelled("lookalike", "dunes.jpg in the same viewer"): [view("/sdcard/DCIM/dunes.jpg", "image/jpeg", GALLERY)],
        labelled("field", "shown, and made a favourite"): [
            view("/sdcard/Pictures/beach.jpg", "image/jpeg", GALLERY),
            Tap(id=rid(GALLERY, "bottom_favorite")),
        ],
    },
    checkpoints=checkpoints(
        GALLERY, ["beach.jpg|Pictures"], [["action.VIEW -d file:///sdcard/Pictures/beach.jpg", "media_item_holder"]]
    ),
)
def test_view_photo(ui):
    viewer_shows(ui, GALLERY, "beach.jpg")


@not_applicable(
    multiset="one song plays at a time, read from the screen and its taps",
    allowance=NO_ALLOWANCE,
    lookalike="another song's screen shows its own title: a wrong item",
    route=IN_ITS_APP,
)
@task(
    prompt="Play the song sunrise",
    app=MUSIC_PLAYER,
    name="mb_sast_play_song",
    launch=False,
    max_steps=SAST,
    golden=golden(
        api=[view("/sdcard/Music/sunrise.mp3", "audio/mpeg", MUSIC_PLAYER)],
        ui=[tap_icon(MUSIC_PLAYER), Tap(text="Tracks"), Tap(text="sunrise")],
    ),
    near_miss={
        "rain instead": [view("/sdcard/Music/rain.mp3", "audio/mpeg", MUSIC_PLAYER)],
        labelled("field", "played, then paused"): [
            view("/sdcard/Music/sunrise.mp3", "audio/mpeg", MUSIC_PLAYER),
            Tap(id=rid(MUSIC_PLAYER, "activity_track_play_pause")),
        ],
        "played, and a playlist made": [
            tap_icon(MUSIC_PLAYER),
            MORE,
            Tap(text="Create new playlist"),
            Type("x"),
            Tap(text="OK"),
            Tap(text="Tracks"),
            Tap(text="sunrise"),
        ],
    },
    checkpoints=checkpoints(MUSIC_PLAYER, ["sunrise"], [["audio/mpeg", "text=Tracks"]]),
)
def test_play_song(ui, events):
    assert_playing(ui, events, "sunrise")


@not_applicable(
    field=SCREEN_ONLY,
    multiset=SCREEN_ONLY,
    allowance=NO_ALLOWANCE,
    lookalike="the editor must show todo.txt by name, in File Manager's own activity",
)
@task(
    prompt="Open todo.txt from the Download folder in the file manager",
    app=FILE_MANAGER,
    name="mb_sast_read_file",
    launch=False,
    max_steps=SAST,
    golden=golden(
        api=[view("/sdcard/Download/todo.txt", "text/plain", FILE_MANAGER)],
        ui=[tap_icon(FILE_MANAGER), Tap(text="Download"), Tap(text="todo.txt")],
    ),
    near_miss={
        labelled("route", "opened in Notes"): [view("/sdcard/Download/todo.txt", "text/plain", NOTES)],
        "opened, and its text saved changed": [
            view("/sdcard/Download/todo.txt", "text/plain", FILE_MANAGER),
            Type("eggs", id=rid(FILE_MANAGER, "read_text_view")),
            Tap(id=rid(FILE_MANAGER, "menu_save")),
        ],
    },
    checkpoints=checkpoints(
        FILE_MANAGER, ["todo.txt"], [["action.VIEW -d file:///sdcard/Download/todo.txt", "text=Download"]]
    ),
)
def test_read_file(device, ui):
    in_front(device, FILE_MANAGER, ".activities.ReadTextActivity")
    assert ui.exists(text="todo.txt"), "the editor shows another file"


@not_applicable(field=SCREEN_ONLY, multiset=SCREEN_ONLY, allowance=NO_ALLOWANCE, route=IN_ITS_APP)
@task(
    prompt="Show me what is in the Music folder with the file manager",
    app=FILE_MANAGER,
    name="mb_sast_open_folder",
    launch=False,
    max_steps=SAST,
    golden=golden(
        api=[view("/sdcard/Music", "resource/folder", FILE_MANAGER)], ui=[tap_icon(FILE_MANAGER), Tap(text="Music")]
    ),
    near_miss={
        "the Download folder": [view("/sdcard/Download", "resource/folder", FILE_MANAGER)],
        "the folder, and a file deleted": [
            view("/sdcard/Music", "resource/folder", FILE_MANAGER),
            LongPress(text="rain.mp3"),
            Tap(desc="Delete"),
            Tap(text="Yes"),
        ],
        labelled("lookalike", "a search from the root listing the same files"): [
            view("/sdcard", "resource/folder", FILE_MANAGER),
            Tap(id=rid(FILE_MANAGER, "top_toolbar_search")),
            Type(".mp3"),
        ],
    },
    checkpoints=checkpoints(FILE_MANAGER, ["Music"], [["resource/folder", "text=Music"]]),
)
def test_open_folder(device, ui):
    in_front(device, FILE_MANAGER, MAIN)
    # the Music folder itself: a search elsewhere lists the same files under their folders
    crumbs = [n.text for n in ui.find_all(id=rid(FILE_MANAGER, "breadcrumb_text"))]
    assert crumbs[-1:] == ["> Music"], f"the folder open: {' '.join(crumbs)}"
    query = ui.text_of(rid(FILE_MANAGER, "top_toolbar_search"))
    assert not query, f"a search for {query!r} is shown, not the folder"
    names = sorted(n.text for n in ui.find_all(id=rid(FILE_MANAGER, "item_name")))
    assert names == ["rain.mp3", "sunrise.mp3"], f"the list shows {names}"


# -- notes and the calculator ---------------------------------------------------------------------
@pytest.mark.parametrize("title, text", [("Reminder", "call mom")])
@not_applicable(
    multiset=SAME_TITLE,
    allowance=NO_ALLOWANCE,
    lookalike="a new note is read back from notes.json: no screen to mistake",
    route=IN_ITS_APP,
)
@task(
    prompt="Save '{text}' as a new note titled {title}",
    app=NOTES,
    name="mb_sast_share_note",
    launch=False,
    max_steps=SAST,
    golden=lambda title, text: golden(
        api=[share_text(NOTES, text), *shared_note(title)],
        ui=[tap_icon(NOTES), *note(title, text)],
    )(),
    near_miss={
        "added to the General note": lambda text: [share_text(NOTES, text), Tap(text="General note")],
        "a typo in the title": lambda title, text: [share_text(NOTES, text), *shared_note(typo(title))],
        "saved, and the General note deleted": lambda title, text: [
            share_text(NOTES, text),
            *shared_note(title),
            Tap(text="General note"),
            MORE,
            Tap(text="Delete note"),
            Tap(text="Delete"),
        ],
        labelled("field", "saved, and locked"): lambda title, text: [
            share_text(NOTES, text),
            *shared_note(title),
            *lock_note(),
        ],
    },
    checkpoints=lambda title, text: checkpoints(NOTES, [title, text], [["action.SEND -t text/plain", "new_note"]]),
    variations=lambda rng: {"title": rng.choice(TITLES), "text": rng.choice(MESSAGES)},
)
def test_share_note(changes, title, text):
    assert_note(new_note(changes), title, text)


def vary_product(rng) -> dict:
    """Two digits from 2 whose sum is not their product (2 and 2 is the one pair)."""
    while True:
        a, b = rng.randint(2, 9), rng.randint(2, 9)
        if (a, b) != (2, 2):
            return {"a": a, "b": b}


@pytest.mark.parametrize("a, b", [(7, 6)])
@not_applicable(
    field="Calculator saves only its history, read step by step; settings changed fail the task",
    multiset="one computation, read from the history in order",
    allowance=NO_ALLOWANCE,
    route=IN_ITS_APP,
)
@task(
    prompt="What is {a} times {b}? Use the calculator",
    app=CALCULATOR,
    name="mb_sast_calculate",
    launch=False,
    max_steps=SAST,
    golden=lambda a, b: golden(
        api=[open_app(CALCULATOR), *calc(f"{a}*{b}=")], ui=[tap_icon(CALCULATOR), *calc(f"{a}*{b}=")]
    )(),
    near_miss={
        "the goal, and vibration turned off": lambda a, b: [
            open_app(CALCULATOR),
            *calc(f"{a}*{b}="),
            app_settings(CALCULATOR),
            Tap(text="Vibrate on button press"),
            Key("back"),
        ],
        "7 plus 6": lambda a, b: [open_app(CALCULATOR), *calc(f"{a}+{b}=")],
        labelled("lookalike", "the answer typed, not computed"): lambda a, b: [open_app(CALCULATOR), *calc(str(a * b))],
        labelled("lookalike", "× pressed, then cleared and 42 typed"): lambda a, b: [
            open_app(CALCULATOR),
            *calc(f"{a}*"),
            Tap(id=rid(CALCULATOR, "btn_clear")),
            Tap(id=rid(CALCULATOR, "btn_clear")),
            *calc(str(a * b)),
        ],
    },
    checkpoints=checkpoints(
        CALCULATOR, ["btn_multiply", "btn_equals"], [[f"monkey -p {CALCULATOR}", "text=Calculator"]]
    ),
    variations=vary_product,
)
def test_calculate(ui, changes, a, b):
    assert_computed(changes, (f"{a}×{b}", str(a * b)))
    assert ui.text_of(RESULT) == str(a * b), f"the result reads {ui.text_of(RESULT)!r}"


@not_applicable(field=SCREEN_ONLY, multiset=SCREEN_ONLY, allowance=NO_ALLOWANCE, route=IN_ITS_APP)
@task(
    prompt="Open the music player's settings",
    app=MUSIC_PLAYER,
    name="mb_sast_music_settings",
    launch=False,
    max_steps=SAST,
    golden=golden(api=[app_settings(MUSIC_PLAYER)], ui=[tap_icon(MUSIC_PLAYER), MORE, Tap(text="Settings")]),
    near_miss={
        labelled("lookalike", "the equalizer instead"): [tap_icon(MUSIC_PLAYER), Tap(desc="Equalizer")],
        "settings, after a playlist made": [
            tap_icon(MUSIC_PLAYER),
            MORE,
            Tap(text="Create new playlist"),
            Type("x"),
            Tap(text="OK"),
            app_settings(MUSIC_PLAYER),
        ],
    },
    checkpoints=checkpoints(MUSIC_PLAYER, [], [["APPLICATION_PREFERENCES -p " + MUSIC_PLAYER, "text=Settings"]]),
)
def test_music_settings(device):
    in_front(device, MUSIC_PLAYER, SETTINGS_ACTIVITY)
