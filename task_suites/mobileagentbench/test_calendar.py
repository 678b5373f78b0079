"""Calendar tasks (MobileAgentBench calendar_*).

Events live in the app's own database (databases/events.db), so the preconditions make them
through the app's UI as MobileAgentBench's setups did: FAB, "Event", a title, Save, and "OK" on
the one-time "Disclaimer" dialog of the first save with a reminder. The agent's later saves show
no dialog.

MobileAgentBench judged creations by the editor's fields plus a click with no text (the Save
icon) followed by the main window: a title typed and then any textless click passed. Here the
saved events are read back from events.db (pulled, with its write-ahead log when there is one),
settings from the app's stored preferences, and screens only where the task is to show
something (a view, a search, the About page).
"""

from __future__ import annotations

import sqlite3
import tempfile
from calendar import day_name, month_name
from contextlib import closing
from datetime import date
from pathlib import Path

import pytest

from pytest_mobile_agent import LongPress, Scroll, Tap, Type, task
from task_suites.shared.apps import CALENDAR, rid
from task_suites.shared.near_misses import NO_ALLOWANCE, SCREEN_ONLY, labelled, not_applicable
from task_suites.shared.reading import pref
from task_suites.shared.seeds import run_in_app
from task_suites.shared.variations import ACTIVITIES, typo

MORE = Tap(desc="More options")
FAB = Tap(id=rid(CALENDAR, "calendar_fab"))
SAVE = Tap(desc="Save")
SETTINGS = Tap(desc="Settings")  # a toolbar icon while today's period is shown
SEARCH = rid(CALENDAR, "top_toolbar_search")
EVENTS_DB = f"/data/data/{CALENDAR}/databases/events.db"
DAILY_VIEW = 0  # the stored view: Daily, Weekly, Monthly, Monthly and daily, Yearly, Simple event list
EVENTS = "databases/events.db:events*"  # the durable-state keys of saved events and tasks
EVENT_LIST = [Tap(desc="Change view"), Tap(text="Simple event list")]
NEW_EVENT = "the new event is read back from events.db: no screen to mistake"
ONE_SETTING = "one stored setting, read back; any other setting changed fails the task"


REPEAT_WEEKLY = [Tap(id=rid(CALENDAR, "event_repetition")), Tap(text="Weekly")]  # in the event editor


def new_event(title: str) -> list:
    """The first FAB tap only opens the Event / Task choice; the new event's title has the focus."""
    return [FAB, Tap(text="Event"), Type(title), SAVE]


def saved_events(device) -> list[dict]:
    """The rows of events.db's `events` table (events and tasks), [] before the app made it."""
    with tempfile.TemporaryDirectory() as tmp:
        local = Path(tmp, "events.db")
        try:
            local.write_bytes(device.pull(EVENTS_DB))
        except FileNotFoundError:
            return []
        try:  # Room writes ahead: recent changes may sit in the log until a checkpoint
            Path(tmp, "events.db-wal").write_bytes(device.pull(EVENTS_DB + "-wal"))
        except FileNotFoundError:
            pass
        with closing(sqlite3.connect(local)) as db:
            db.row_factory = sqlite3.Row
            return [dict(r) for r in db.execute("SELECT * FROM events ORDER BY id")]


def rename_event(old: str, new: str) -> list:
    """From the simple event list: open the event, select its title, type the new one, save."""
    return [*EVENT_LIST, Tap(text=old), LongPress(id=rid(CALENDAR, "event_title")), Type(new), SAVE]


def delete_event(title: str) -> list:
    """From the simple event list."""
    return [LongPress(text=title), Tap(id=rid(CALENDAR, "cab_delete")), Tap(text="Yes")]


def added_event(changes, kind: int = 0, description: str = "") -> dict:
    """The one event (kind 0) or task (1) the agent saved, with nothing asked for left out of the
    check: no repeat rule, no location, the description asked (in any case)."""
    event = changes.added(CALENDAR, EVENTS)
    assert event["type"] == kind, f"saved a {'task' if event['type'] else 'event'}: {event['title']!r}"
    assert event["repeat_interval"] == 0, f"repeats every {event['repeat_interval']} s, which nobody asked"
    typed = (event["location"], event["description"].lower())
    assert typed == ("", description), f"location and description {typed}, not {('', description)}"
    return event


def titles(ui, list_id: str) -> list[str]:
    """The event titles in one of the event lists (search results, the simple event list)."""
    found = ui.find(id=rid(CALENDAR, list_id))
    return [] if found is None else [n.text for n in found.walk() if n.id == rid(CALENDAR, "event_item_title")]


@pytest.fixture
def one_event(device):
    """calendar_laundry's setup: the event 'event1', whose save brings up the Disclaimer."""
    run_in_app(device, CALENDAR, [*new_event("event1"), Tap(text="OK")])


@pytest.fixture
def laundry_event(device):
    """An event 'laundry' to search for (MobileAgentBench's calendar_search had none to find)."""
    run_in_app(device, CALENDAR, [*new_event("laundry"), Tap(text="OK")])


@pytest.fixture
def three_events(device):
    """calendar_delete_tasks's setup: Laundry, Cooking and Meeting, today at the next full hour."""
    run_in_app(device, CALENDAR, [*new_event("Laundry"), Tap(text="OK"), *new_event("Cooking"), *new_event("Meeting")])


# -- creating events and tasks ------------------------------------------------------------------


def vary_title(rng) -> dict:
    return {"title": rng.choice(ACTIVITIES)}


@pytest.mark.parametrize("title", ["laundry"])
@not_applicable(allowance=NO_ALLOWANCE, lookalike=NEW_EVENT)
@task(
    prompt="Create a new event '{title}'",
    app=CALENDAR,
    name="calendar_laundry",
    golden=lambda title: new_event(title),
    near_miss={
        "left without saving": lambda title: [*new_event(title)[:-1], Tap(desc="Back")],
        "event1 renamed instead": lambda title: rename_event("event1", title),
        "made and event1 deleted": lambda title: [*new_event(title), *EVENT_LIST, *delete_event("event1")],
        labelled("field", "repeating weekly"): lambda title: [*new_event(title)[:-1], *REPEAT_WEEKLY, SAVE],
        labelled("multiset", "made twice"): lambda title: [*new_event(title), *new_event(title)],
    },
    variations=vary_title,
)
def test_calendar_laundry(one_event, device, changes, title):
    assert added_event(changes)["title"].lower() == title, f"the new event is not {title!r}"
    events = [e["title"] for e in saved_events(device) if e["type"] == 0]
    assert any(t.lower() == title for t in events), f"saved events: {events}"


@pytest.mark.parametrize("title", ["laundry"])
@not_applicable(
    allowance=NO_ALLOWANCE,
    lookalike="the search field and its own results are read, and the event from events.db",
)
@task(
    prompt="Create a new event '{title}' and then search for it",
    app=CALENDAR,
    name="calendar_create_and_search",
    golden=lambda title: [*new_event(title), Tap(id=SEARCH), Type(title)],
    near_miss={
        "a typo in the title": lambda title: [*new_event(typo(title)), Tap(id=SEARCH), Type(title)],
        labelled("multiset", "made twice"): lambda title: [
            *new_event(title),
            *new_event(title),
            Tap(id=SEARCH),
            Type(title),
        ],
        labelled("field", "a location typed too"): lambda title: [
            *new_event(title)[:-1],
            Type("home", id=rid(CALENDAR, "event_location")),
            SAVE,
            Tap(id=SEARCH),
            Type(title),
        ],
    },
    variations=vary_title,
)
def test_calendar_create_and_search(one_event, ui, device, changes, title):
    assert added_event(changes)["title"].lower() == title, f"the new event is not {title!r}"
    assert (ui.text_of(SEARCH) or "").lower() == title, f"the search field holds {ui.text_of(SEARCH)!r}"
    found = titles(ui, "search_results_list")
    assert any(t.lower() == title for t in found), f"search results: {found}"
    events = [e["title"] for e in saved_events(device) if e["type"] == 0]
    assert any(t.lower() == title for t in events), f"saved events: {events}"


DESCRIPTIONS = ("buy new batteries", "call the plumber", "water the plants", "pay the rent", "fold the towels")


def new_task(title: str, description: str, all_day: bool = True) -> list:
    return [
        FAB,
        Tap(text="Task"),
        Type(title),
        Type(description, id=rid(CALENDAR, "task_description")),
        *([Tap(id=rid(CALENDAR, "task_all_day"))] if all_day else []),
        SAVE,
    ]


@pytest.mark.parametrize("title, description", [("laundry", "wash all my clothes")])
@not_applicable(
    field="the task's type, repeat rule, location, description and all-day flag are all read",
    allowance=NO_ALLOWANCE,
    lookalike=NEW_EVENT,
)
@task(
    prompt="Create a new task, named '{title}', with the description of '{description}'. Mark it as all-day.",
    app=CALENDAR,
    name="calendar_new_task",
    golden=lambda title, description: new_task(title, description),
    near_miss={
        "not all-day": lambda title, description: new_task(title, description, all_day=False),
        "and an event": lambda title, description: [*new_task(title, description), *new_event("wash")],
        labelled("multiset", "made twice"): lambda title, description: [
            *new_task(title, description),
            *new_task(title, description),
        ],
    },
    variations=lambda rng: {"title": rng.choice(ACTIVITIES), "description": rng.choice(DESCRIPTIONS)},
)
def test_calendar_new_task(one_event, device, changes, title, description):
    added_event(changes, kind=1, description=description)
    tasks = [e for e in saved_events(device) if e["type"] == 1]
    assert any(
        t["title"].lower() == title and t["description"].lower() == description and t["flags"] & 1 for t in tasks
    ), f"saved tasks (title, description, flags): {[(t['title'], t['description'], t['flags']) for t in tasks]}"


@not_applicable(
    field="a deleted event has no fields left; the event kept is compared by title",
    multiset="deletions and the events left are read as lists",
    allowance="only the chosen view may change besides the deletions",
    lookalike="the events are read from events.db, and the list shown must hold Cooking alone",
)
@task(
    prompt="Show events in simple event list, delete the laundry and meeting events.",
    app=CALENDAR,
    name="calendar_delete_tasks",
    golden=[
        Tap(desc="Change view"),
        Tap(text="Simple event list"),
        LongPress(text="Laundry"),
        Tap(text="Meeting"),
        Tap(id=rid(CALENDAR, "cab_delete")),
        Tap(text="Yes"),
    ],
    near_miss={
        "Cooking instead of Meeting": [
            *EVENT_LIST,
            LongPress(text="Laundry"),
            Tap(text="Cooking"),
            Tap(id=rid(CALENDAR, "cab_delete")),
            Tap(text="Yes"),
        ],
        "Meeting renamed instead": [
            *EVENT_LIST,
            *delete_event("Laundry"),
            Tap(text="Meeting"),
            LongPress(id=rid(CALENDAR, "event_title")),
            Type("Done"),
            SAVE,
        ],
        "and Cooking too": [*EVENT_LIST, *delete_event("Laundry"), *delete_event("Meeting"), *delete_event("Cooking")],
    },
)
def test_calendar_delete_tasks(three_events, ui, device, changes):
    changes.allow(CALENDAR, pref("view"))  # the simple event list, as asked
    removed = sorted(c.before["title"] for c in changes.where(CALENDAR, "removed", EVENTS))
    assert removed == ["Laundry", "Meeting"], f"deleted: {removed}"
    # MobileAgentBench wanted "Cooking" and no "Laundry"/"Meeting" on whatever screen was up;
    # the simple event list must show Cooking alone, and the database hold only it.
    shown = titles(ui, "calendar_events_list")
    assert shown == ["Cooking"], f"the simple event list shows {shown}"
    kept = [e["title"] for e in saved_events(device)]
    assert kept == ["Cooking"], f"saved events: {kept}"


# -- the main screen ----------------------------------------------------------------------------


@not_applicable(field=SCREEN_ONLY, multiset=SCREEN_ONLY, allowance=NO_ALLOWANCE)
@task(
    prompt="show events of next month",
    app=CALENDAR,
    name="calendar_next_month",
    golden=[Tap(id=rid(CALENDAR, "top_right_arrow"))],
    near_miss={
        labelled("lookalike", "last month's view"): [Tap(id=rid(CALENDAR, "top_left_arrow"))],
        # On a fresh app the first save with a reminder asks to OK the Disclaimer.
        "an event made first": [*new_event("x"), Tap(text="OK"), Tap(id=rid(CALENDAR, "top_right_arrow"))],
    },
)
def test_calendar_next_month(ui, device):
    # MobileAgentBench took any click on the right arrow; the month view must show the month
    # after today's (the year is added when it is not the current one).
    assert ui.exists(id=rid(CALENDAR, "month_calendar_holder")), "the month view is not shown"
    shown = ui.text_of(rid(CALENDAR, "top_value"))
    today = date.fromisoformat(device.sh("date +%Y-%m-%d").strip())
    year, month = (today.year + 1, 1) if today.month == 12 else (today.year, today.month + 1)
    name = ui.tr(month_name[month])  # the app's own month names, in the device's locale
    expected = name if year == today.year else f"{name} {year}"
    assert shown == expected, f"the month view shows {shown!r}, not {expected!r}"


@not_applicable(field=ONE_SETTING, multiset=ONE_SETTING, allowance=NO_ALLOWANCE)
@task(
    prompt="switch to daily view",
    app=CALENDAR,
    name="calendar_daily_view",
    golden=[Tap(desc="Change view"), Tap(text="Daily view")],
    near_miss={
        labelled("lookalike", "the weekly view"): [Tap(desc="Change view"), Tap(text="Weekly view")],
        "an event made first": [*new_event("x"), Tap(text="OK"), Tap(desc="Change view"), Tap(text="Daily view")],
    },
)
def test_calendar_daily_view(ui, changes):
    # MobileAgentBench looked for the day's event list, which a day opened from the month view
    # (stacked over it) also shows; the view itself must be switched.
    assert ui.exists(id=rid(CALENDAR, "day_events")), "no daily view on screen"
    assert changes.value(CALENDAR, pref("view")) == DAILY_VIEW, "the daily view is not the chosen view"


@not_applicable(
    field=SCREEN_ONLY,
    multiset=SCREEN_ONLY,
    allowance=NO_ALLOWANCE,
    lookalike="the search field and its own results are read",
)
@task(
    prompt="search event 'laundry'",
    app=CALENDAR,
    name="calendar_search",
    golden=[Tap(id=SEARCH), Type("laundry")],
    near_miss={
        "a typo": [Tap(id=SEARCH), Type("laundri")],
        "an event made first": [*new_event("x"), Tap(id=SEARCH), Type("laundry")],
    },
)
def test_calendar_search(laundry_event, ui):
    # MobileAgentBench read the search field only; the event must be found too.
    assert (ui.text_of(SEARCH) or "").lower() == "laundry", f"the search field holds {ui.text_of(SEARCH)!r}"
    found = titles(ui, "search_results_list")
    assert found == ["laundry"], f"search results: {found}"


@not_applicable(field=SCREEN_ONLY, multiset=SCREEN_ONLY, allowance=NO_ALLOWANCE)
@task(
    prompt="open about page",
    app=CALENDAR,
    name="calendar_open_about",
    golden=[MORE, Tap(text="About")],
    near_miss={
        labelled("lookalike", "Go to date's dialog instead"): [MORE, Tap(text="Go to date")],
        "an event made first": [*new_event("x"), Tap(text="OK"), MORE, Tap(text="About")],
    },
)
def test_calendar_open_about(ui):
    assert ui.package == CALENDAR and ui.exists(text="About"), "the Calendar About page is not shown"
    assert ui.exists(text="Frequently asked questions"), "the About page lacks its FAQ entry"


# -- settings -----------------------------------------------------------------------------------


@not_applicable(
    field=ONE_SETTING,
    multiset=ONE_SETTING,
    allowance=NO_ALLOWANCE,
    lookalike="the stored setting is read, not the screen",
)
@task(
    prompt="change snooze time to 1 minute",
    app=CALENDAR,
    name="calendar_snooze_time",
    # Snooze time sits below the first screen of settings.
    golden=[SETTINGS, Scroll("down"), Tap(id=rid(CALENDAR, "settings_snooze_time_holder")), Tap(text="1 minute")],
    near_miss={
        "5 minutes": [
            SETTINGS,
            Scroll("down"),
            Tap(id=rid(CALENDAR, "settings_snooze_time_holder")),
            Tap(text="5 minutes"),
        ],
        "and weeks on Monday": [
            SETTINGS,
            Tap(id=rid(CALENDAR, "settings_start_week_on_holder")),
            Tap(text="Monday"),
            Scroll("down"),
            Tap(id=rid(CALENDAR, "settings_snooze_time_holder")),
            Tap(text="1 minute"),
        ],
    },
)
def test_calendar_snooze_time(changes):
    # MobileAgentBench read the value on the settings screen; the stored setting must be 1 minute.
    snooze = changes.value(CALENDAR, pref("snooze_time"))
    assert snooze == 1, f"snooze time: {snooze} minutes"


@not_applicable(
    field=ONE_SETTING,
    multiset=ONE_SETTING,
    allowance=NO_ALLOWANCE,
    lookalike="the stored setting is read, not the screen",
)
@task(
    prompt="go to settings and make weeks start on Monday",
    app=CALENDAR,
    name="calendar_start_week",
    golden=[SETTINGS, Tap(id=rid(CALENDAR, "settings_start_week_on_holder")), Tap(text="Monday")],
    near_miss={
        "Tuesday": [SETTINGS, Tap(id=rid(CALENDAR, "settings_start_week_on_holder")), Tap(text="Tuesday")],
        "and snooze 1 minute": [
            SETTINGS,
            Tap(id=rid(CALENDAR, "settings_start_week_on_holder")),
            Tap(text="Monday"),
            Scroll("down"),
            Tap(id=rid(CALENDAR, "settings_snooze_time_holder")),
            Tap(text="1 minute"),
        ],
    },
)
def test_calendar_start_week(changes):
    # MobileAgentBench read the value on the settings screen; the stored setting must be Monday.
    first = changes.value(CALENDAR, pref("first_day_of_week"))
    assert first == 0, f"weeks start on {day_name[first]}"
