"""Notes tasks (MobileAgentBench note_*).

Notes are app-private, so the preconditions are made through the app's UI as MobileAgentBench's
setups did (new note, title, OK; text typed into the note; checklist items through the +
button), and every fresh app starts with its "General note". Notes are sorted by title and the
last one created is the current one.

MobileAgentBench mostly looked for a TextView with the note's title (the pager's tab strip) or
for a click on an item; here the notes the app saved are read back (titles, types, items and
their done state), and screens are read only where the task is to show something.
"""

from __future__ import annotations

import pytest

from pytest_mobile_agent import LongPress, Tap, Type, task
from pytest_mobile_agent.locales import localize
from task_suites.shared.apps import NOTES, rid
from task_suites.shared.near_misses import NO_ALLOWANCE, SCREEN_ONLY, labelled, not_applicable
from task_suites.shared.reading import app_data
from task_suites.shared.seeds import run_in_app
from task_suites.shared.variations import ITEMS, TITLES, WORDS, typo

MORE = Tap(desc="More options")
NEW_NOTE = Tap(id=rid(NOTES, "new_note"))
TITLE_FIELD = rid(NOTES, "locked_note_title")
TEXT_VIEW = rid(NOTES, "text_note_view")
OK = Tap(text="OK")
PIN = "2580"
SECRET_TEXT = "The secret is I love you"
NOTE = "files/notes.json*"  # the durable-state keys of the saved notes (one per note id)
DELETE_GENERAL = [Tap(text="General note"), MORE, Tap(text="Delete note"), Tap(text="Delete")]
RENAME_CURRENT = [MORE, Tap(text="Rename note"), LongPress(id=TITLE_FIELD)]
LOCK_CURRENT = [MORE, Tap(text="Lock note"), OK, Tap(text="PIN")]  # then the PIN twice
SAME_TITLE = "Notes refuses a second note of the same title"
NEW_NOTE_READ = "the new note is read back from notes.json: no screen to mistake"


def saved_notes(device) -> list[dict]:
    """The notes as the app saved them: title, kind ("text" / "checklist"), value, lock hash."""
    notes = app_data(device, NOTES, "notes")
    return notes if isinstance(notes, list) else []


def general_note(device) -> str:
    """The first note's title: the app saves its `general_note` string in the device's locale."""
    return localize("General note", NOTES, device.locale)


def note_titled(device, title: str) -> dict | None:
    return next((n for n in saved_notes(device) if n["title"] == title), None)


def new_note(title: str, kind: str = "Text note") -> list:
    """The dialog opens with the focus in its label field; it remembers the last type chosen."""
    return [NEW_NOTE, Type(title), Tap(text=kind), OK]


def add_item(item: str) -> list:
    return [Tap(id=rid(NOTES, "checklist_fab")), Type(item), OK]


def pin(digits: str) -> list:
    return [Tap(id=rid(NOTES, f"pin_{d}")) for d in digits] + [Tap(id=rid(NOTES, "pin_ok"))]


def text_note(title: str, text: str = "") -> list:
    return new_note(title) + ([Type(text, id=TEXT_VIEW)] if text else [])


@pytest.fixture
def three_text_notes(device):
    """note_open's setup: meeting, Charles's secrets, to_do_list (current) with their texts."""
    run_in_app(
        device,
        NOTES,
        text_note("meeting", "9pm May 5th 2024")
        + text_note("Charles's secrets", "I love you")
        + text_note("to_do_list", "Complete the task"),
    )


@pytest.fixture
def lists_and_meeting(device):
    """note_delete's setup: work_list, to_do_list and meeting (current), all empty text notes."""
    run_in_app(device, NOTES, new_note("work_list") + new_note("to_do_list") + new_note("meeting"))


@pytest.fixture
def shopping_list(device):
    """note_item_checked's setup: the checklist shopping_list with eggs, beer and steak."""
    run_in_app(
        device, NOTES, new_note("shopping_list", "Checklist") + add_item("eggs") + add_item("beer") + add_item("steak")
    )


@pytest.fixture
def locked_password_list(device):
    """note_lock's setup: the checklist password_list (item unique2580) locked with PIN 2580, then
    Home; the app is brought back by the harness, so the note page reloads showing the lock."""
    lock = [MORE, Tap(text="Lock note"), OK, Tap(text="PIN"), *pin(PIN), *pin(PIN)]
    run_in_app(device, NOTES, new_note("password_list", "Checklist") + add_item("unique2580") + lock)
    device.sh("input keyevent HOME")


@pytest.fixture
def unfinished_task(device):
    run_in_app(device, NOTES, text_note("unfinished_task", "Undo"))


@pytest.fixture
def charles_secrets(device):
    run_in_app(device, NOTES, text_note("Charles's secrets", SECRET_TEXT))


# -- new notes ----------------------------------------------------------------------------------


@pytest.mark.parametrize("title", ["TODO List"])
@not_applicable(multiset=SAME_TITLE, allowance=NO_ALLOWANCE, lookalike=NEW_NOTE_READ)
@task(
    prompt="add a new note named '{title}'",
    app=NOTES,
    name="note_add",
    golden=lambda title: [NEW_NOTE, Type(title), OK],
    near_miss={
        "cancelled": lambda title: [NEW_NOTE, Type(title), Tap(text="Cancel")],
        # (the only note cannot be renamed: the menu offers no Rename)
        "typed into General note instead": lambda title: [Type(title, id=TEXT_VIEW)],
        "added and General note deleted": lambda title: [NEW_NOTE, Type(title), OK, *DELETE_GENERAL],
        labelled("field", "added and locked"): lambda title: [
            NEW_NOTE,
            Type(title),
            OK,
            *LOCK_CURRENT,
            *pin(PIN),
            *pin(PIN),
        ],
    },
    variations=lambda rng: {"title": rng.choice(TITLES)},
)
def test_note_add(device, changes, title):
    # MobileAgentBench took any TextView reading "TODO List"; a new note must have been saved
    # (General note not renamed, nor anything else changed).
    added = changes.added(NOTES, NOTE)
    assert added["title"] == title, f"the new note is not named {title!r}"
    assert not added["hash"], f"{title!r} is locked, which nobody asked for"
    assert note_titled(device, title) is not None, f"no note named {title!r}"


@pytest.mark.parametrize("title", ["TODO List"])
@not_applicable(multiset=SAME_TITLE, allowance=NO_ALLOWANCE, lookalike=NEW_NOTE_READ)
@task(
    prompt="add a new Checklist named '{title}'",
    app=NOTES,
    name="note_new_checklist",
    golden=lambda title: [NEW_NOTE, Type(title), Tap(text="Checklist"), OK],
    near_miss={
        "a text note": lambda title: [NEW_NOTE, Type(title), Tap(text="Text note"), OK],
        "typed into General note instead": lambda title: [Type(title, id=TEXT_VIEW)],
        "added and General note deleted": lambda title: [
            NEW_NOTE,
            Type(title),
            Tap(text="Checklist"),
            OK,
            *DELETE_GENERAL,
        ],
        labelled("field", "added and locked"): lambda title: [
            NEW_NOTE,
            Type(title),
            Tap(text="Checklist"),
            OK,
            *LOCK_CURRENT,
            *pin(PIN),
            *pin(PIN),
        ],
        labelled("field", "an item added too"): lambda title: [
            NEW_NOTE,
            Type(title),
            Tap(text="Checklist"),
            OK,
            *add_item("milk"),
        ],
    },
    variations=lambda rng: {"title": rng.choice(TITLES)},
)
def test_note_new_checklist(changes, title):
    note = changes.added(NOTES, NOTE)
    assert note["title"] == title, f"the new note is named {note['title']!r}"
    assert note["kind"] == "checklist", f"{title!r} is a text note, not a checklist"
    assert note["value"] == [], f"items nobody asked for: {[i['title'] for i in note['value']]}"
    assert not note["hash"], f"{title!r} is locked, which nobody asked for"


def new_checklist(title: str, item: str) -> list:
    return [NEW_NOTE, Type(title), Tap(text="Checklist"), OK, *add_item(item)]


@pytest.mark.parametrize("title, item", [("Shopping list", "Milk")])
@not_applicable(allowance=NO_ALLOWANCE, lookalike=NEW_NOTE_READ)
@task(
    prompt="create a checklist named '{title}' and add an item named '{item}'",
    app=NOTES,
    name="note_new_checklist_items",
    golden=lambda title, item: new_checklist(title, item),
    near_miss={
        "a typo": lambda title, item: [NEW_NOTE, Type(title), Tap(text="Checklist"), OK, *add_item(typo(item))],
        "and General note deleted": lambda title, item: [*new_checklist(title, item), *DELETE_GENERAL],
        labelled("field", "Milk added and ticked off"): lambda title, item: [
            *new_checklist(title, item),
            Tap(text=item),
        ],
        labelled("multiset", "Milk added twice"): lambda title, item: [*new_checklist(title, item), *add_item(item)],
        labelled("field", "added and locked"): lambda title, item: [
            *new_checklist(title, item),
            *LOCK_CURRENT,
            *pin(PIN),
            *pin(PIN),
        ],
    },
    variations=lambda rng: {"title": rng.choice(TITLES), "item": rng.choice(ITEMS)},
)
def test_note_new_checklist_items(changes, title, item):
    note = changes.added(NOTES, NOTE)
    assert note is not None and note["kind"] == "checklist", f"no checklist named {title!r}"
    assert note["title"] == title, f"the checklist is named {note['title']!r}"
    items = [(i["title"], i["done"]) for i in note["value"]]
    assert items == [(item, False)], f"items (title, done): {items}"
    assert not note["hash"], f"{title!r} is locked, which nobody asked for"


# -- existing notes -----------------------------------------------------------------------------


SHOPPING = ("eggs", "beer", "steak")  # shopping_list's items, as its fixture adds them


def vary_item(rng) -> dict:
    item = rng.choice(SHOPPING)
    return {"item": item, "other": rng.choice([i for i in SHOPPING if i != item])}


@pytest.mark.parametrize("item, other", [("eggs", "beer")], ids=["eggs"])
@not_applicable(
    allowance=NO_ALLOWANCE,
    lookalike="the items' done flags are read from notes.json, not the screen",
    field="every item's done flag is compared, and any other change fails the task",
)
@task(
    prompt="Check the item '{item}' for shopping_list",
    app=NOTES,
    name="note_item_checked",
    golden=lambda item: [Tap(text=item)],
    near_miss={
        "beer instead": lambda other: [Tap(text=other)],
        "and a note added": lambda item: [Tap(text=item), *new_note("x")],
        labelled("multiset", "checked, and the other added again"): lambda item, other: [
            Tap(text=item),
            *add_item(other),
        ],
    },
    variations=vary_item,
)
def test_note_item_checked(shopping_list, changes, item):
    # MobileAgentBench accepted a click on 'eggs' (a second click unchecks it again); the saved
    # item must be done, and only that one.
    note = changes.changed(NOTES, NOTE).after
    assert note["title"] == "shopping_list", f"{note['title']!r} changed, not shopping_list"
    done = [(i["title"], i["done"]) for i in note["value"]]  # a list: an item added again shows
    assert done == [(i, i == item) for i in SHOPPING], f"items (title, done): {done}"


@not_applicable(
    field=SCREEN_ONLY,
    multiset=SCREEN_ONLY,
    allowance=NO_ALLOWANCE,
    lookalike="the check reads the open note's own text",
)
@task(
    prompt="open the note 'meeting'",
    app=NOTES,
    name="note_open",
    golden=[Tap(text="meeting")],  # the tab strip's previous title: meeting sorts before to_do_list
    near_miss={
        "the picker left open": [Tap(desc="Open note")],
        "opened and typed in": [Tap(text="meeting"), Type(" or 10pm", id=TEXT_VIEW)],
    },
)
def test_note_open(three_text_notes, ui):
    assert ui.text_of(TEXT_VIEW) == "9pm May 5th 2024", "the note 'meeting' is not open"


@not_applicable(
    field=SCREEN_ONLY,
    multiset=SCREEN_ONLY,
    allowance=NO_ALLOWANCE,
    lookalike="the check reads the About page's first rows (Support, Contributors) in Notes",
)
@task(
    prompt="open about page",
    app=NOTES,
    name="note_open_about",
    golden=[MORE, Tap(text="About")],
    near_miss={
        "settings instead": [MORE, Tap(text="Settings")],
        "a note added first": [*new_note("x"), MORE, Tap(text="About")],
    },
)
def test_note_open_about(ui):
    # Its first rows, on screen at any display (the version line is below the fold of a short one).
    about = ui.exists(text="Support") and ui.exists(text="Contributors")
    assert ui.package == NOTES and about, "the Notes About page is not shown"


# The table counts 4 steps, but a note is deleted through the menu and a confirmation (3 taps)
# and only the current note can be: delete 'meeting', move to 'to_do_list' (the strip's next
# title once General note is current) and delete it: 7 steps. The table's difficulty is kept.
@not_applicable(
    field="a deleted note has no fields left; the notes kept are compared by title",
    multiset="deletions are read as a list of titles",
    allowance=NO_ALLOWANCE,
    lookalike="the notes are read from notes.json, not the screen",
)
@task(
    prompt='delete the "to_do_list" and "meeting" note',
    app=NOTES,
    name="note_delete",
    golden=[MORE, Tap(text="Delete note"), Tap(text="Delete"), Tap(text="to_do_list")]
    + [MORE, Tap(text="Delete note"), Tap(text="Delete")],
    golden_steps=7,
    difficulty="medium",
    near_miss={
        "the second cancelled": [MORE, Tap(text="Delete note"), Tap(text="Delete"), Tap(text="to_do_list")]
        + [MORE, Tap(text="Delete note"), Tap(text="Cancel")],
        "work_list deleted too": [MORE, Tap(text="Delete note"), Tap(text="Delete"), Tap(text="to_do_list")]
        + [MORE, Tap(text="Delete note"), Tap(text="Delete"), Tap(text="work_list")]
        + [MORE, Tap(text="Delete note"), Tap(text="Delete")],
    },
)
def test_note_delete(lists_and_meeting, device, changes):
    # Both notes gone and work_list (and General note) kept, in the saved notes.
    removed = sorted(c.before["title"] for c in changes.where(NOTES, "removed", NOTE))
    assert removed == ["meeting", "to_do_list"], f"notes deleted: {removed}"
    titles = sorted(n["title"] for n in saved_notes(device))
    assert titles == sorted([general_note(device), "work_list"]), f"notes left: {titles}"


@pytest.mark.parametrize("new_title", ["finished_task"])
@not_applicable(
    multiset=SAME_TITLE,
    allowance=NO_ALLOWANCE,
    lookalike="the renamed note is read from notes.json, not the screen",
)
@task(
    prompt="rename the current note to '{new_title}'",
    app=NOTES,
    name="note_rename",
    # The field holds the old title with the cursor at its end: a long press selects the word.
    golden=lambda new_title: [MORE, Tap(text="Rename note"), LongPress(id=TITLE_FIELD), Type(new_title), OK],
    near_miss={
        "typed after the old title": lambda new_title: [MORE, Tap(text="Rename note"), Type(new_title), OK],
        "a new note instead": lambda new_title: new_note(new_title),
        "renamed and a note added": lambda new_title: [*RENAME_CURRENT, Type(new_title), OK, *new_note("x")],
        labelled("field", "renamed and locked"): lambda new_title: [
            *RENAME_CURRENT,
            Type(new_title),
            OK,
            *LOCK_CURRENT,
            *pin(PIN),
            *pin(PIN),
        ],
    },
    variations=lambda rng: {"new_title": rng.choice(WORDS)},
)
def test_note_rename(unfinished_task, device, changes, new_title):
    change = changes.changed(NOTES, NOTE)
    assert (change.before["title"], change.after["title"]) == ("unfinished_task", new_title)
    titles = sorted(n["title"] for n in saved_notes(device))
    assert titles == sorted([general_note(device), new_title]), f"notes: {titles}"
    assert note_titled(device, new_title)["value"] == "Undo", "the note's text changed"
    others = {k: (change.before[k], change.after[k]) for k in change.after if change.before.get(k) != change.after[k]}
    assert set(others) == {"title"}, f"changed beyond the title: {others}"


@not_applicable(field=SCREEN_ONLY, multiset=SCREEN_ONLY, allowance=NO_ALLOWANCE)
@task(
    prompt="search 'secret' in note 'Charles's secrets'",
    app=NOTES,
    name="note_search",
    golden=[Tap(id=rid(NOTES, "open_search")), Type("secret")],
    near_miss={
        "a typo": [Tap(id=rid(NOTES, "open_search")), Type("secert")],
        "a note added first": [  # "A note" sorts first: Charles's secrets is the next title in the strip
            *new_note("A note"),
            Tap(text="Charles's secrets"),
            Tap(id=rid(NOTES, "open_search")),
            Type("secret"),
        ],
        labelled("lookalike", "'secret' typed into the note"): [Type(" secret", id=TEXT_VIEW)],
    },
)
def test_note_search(charles_secrets, ui):
    # The search bar holds the word over Charles's secrets, whose text is untouched (MobileAgentBench
    # only asked the note to contain "secret", which typing it into the note also gives).
    assert ui.text_of(rid(NOTES, "search_query")) == "secret", "'secret' is not in the search field"
    assert ui.text_of(TEXT_VIEW) == SECRET_TEXT, f"the note shows {ui.text_of(TEXT_VIEW)!r}"


@not_applicable(
    multiset=SCREEN_ONLY,
    allowance=NO_ALLOWANCE,
    lookalike="the check reads password_list's own item on screen",
)
@task(
    prompt="use the pin '2580' to open the locked note 'password_list'",
    app=NOTES,
    name="note_lock",
    golden=[Tap(id=rid(NOTES, "note_locked_show")), *pin(PIN)],
    near_miss={
        "a wrong PIN": [Tap(id=rid(NOTES, "note_locked_show")), *pin("2590")],
        "opened and an item added": [Tap(id=rid(NOTES, "note_locked_show")), *pin(PIN), *add_item("x")],
        labelled("field", "opened, then unlocked for good"): [
            Tap(id=rid(NOTES, "note_locked_show")),
            *pin(PIN),
            MORE,
            Tap(text="Unlock note"),
            *pin(PIN),
        ],
    },
)
def test_note_lock(locked_password_list, ui, device):
    assert ui.exists(id=rid(NOTES, "checklist_title"), text="unique2580"), "password_list's content is not shown"
    # Opened with the PIN, not unlocked for good: the prompt asks to open it, the lock stays.
    assert note_titled(device, "password_list")["hash"], "the note is no longer locked"
