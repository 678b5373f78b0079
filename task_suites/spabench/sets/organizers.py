"""Calendar and Notes sets: events read back from events.db, notes from the app's notes.json,
settings from its prefs (the MobileAgentBench suite's readers)."""

from __future__ import annotations

from pytest_mobile_agent import Scroll, Tap, Type
from task_suites.shared.apps import CALENDAR, NOTES, rid
from task_suites.shared.near_misses import NO_ALLOWANCE, labelled
from task_suites.shared.reading import pref
from task_suites.shared.seeds import run_in_app
from task_suites.spabench.levels import Final, Part, SpaSet

ONE_SETTING = "one stored setting a level, read back; any other setting changed fails the task"
STORED = "the stored settings are read, not the screen"

# -- Calendar -----------------------------------------------------------------------------------

FAB = Tap(id=rid(CALENDAR, "calendar_fab"))
SAVE_EVENT = Tap(desc="Save")
SEARCH = rid(CALENDAR, "top_toolbar_search")
EVENTS = "databases/events.db:events*"
SETTINGS = Tap(id=rid(CALENDAR, "settings"))
WEEK_START = Tap(id=rid(CALENDAR, "settings_start_week_on_holder"))
SNOOZE = Tap(id=rid(CALENDAR, "settings_snooze_time_holder"))


def new_event(title: str) -> list:
    """The first FAB tap only opens the Event / Task choice; the new event's title has the focus."""
    return [FAB, Tap(text="Event"), Type(title), SAVE_EVENT]


REPEAT_DAILY = [Tap(id=rid(CALENDAR, "event_repetition")), Tap(text="Daily")]  # in the event editor


def event1(device) -> None:
    """An event saved already, so the one-time Disclaimer of the first save is behind us."""
    run_in_app(device, CALENDAR, [*new_event("event1"), Tap(text="OK")])


def appointment(title: str, note: str):
    """The one event saved: its title, and the description only where level 3 asked for it."""

    def check(f: Final) -> None:
        event = f.changes.added(CALENDAR, EVENTS)
        assert (event["type"], event["title"]) == (0, title), f"saved: {event['title']!r} (type {event['type']})"
        expected = note if f.level == 3 else ""
        assert event["description"] == expected, f"description: {event['description']!r}"
        assert event["location"] == "", f"location: {event['location']!r}"
        assert event["repeat_interval"] == 0, f"repeats every {event['repeat_interval']} s, which nobody asked"

    return check


def found(title: str):
    def shown(f: Final) -> None:
        assert (f.ui.text_of(SEARCH) or "") == title, f"the search field holds {f.ui.text_of(SEARCH)!r}"
        results = [n.text for n in f.ui.find_all(id=rid(CALENDAR, "event_item_title"))]
        assert title in results, f"search results: {results}"

    return shown


def week_on_monday(f: Final) -> None:
    assert f.changes.value(CALENDAR, pref("first_day_of_week")) == 0, "weeks do not start on Monday"


def snooze_one_minute(f: Final) -> None:
    assert f.changes.value(CALENDAR, pref("snooze_time")) == 1, "the snooze time is not 1 minute"


def daily_view(f: Final) -> None:
    assert f.changes.value(CALENDAR, pref("view")) == 0, "the daily view is not the chosen view"


def daily_view_shown(f: Final) -> None:
    assert f.ui.exists(id=rid(CALENDAR, "day_events")) or "(" in (f.ui.text_of(rid(CALENDAR, "top_value")) or ""), (
        "no daily view on screen"
    )


def in_settings(f: Final) -> None:
    rows = ("settings_start_week_on_holder", "settings_snooze_time_holder")
    assert any(f.ui.exists(id=rid(CALENDAR, row)) for row in rows), "the settings are not shown"


# The event's title, a typo of it and the description, as each language's task types them.
APPOINTMENT = {"ENG": ("Dentist", "Dentsit", "Bring X-rays"), "CHN": ("看牙医", "看牙衣", "带上X光片")}


def calendar_0(lang: str) -> SpaSet:
    title, typo, note = APPOINTMENT[lang]
    return SpaSet(
        name="calendar_0",
        not_applicable=dict(
            field="the event's place, description and repeat rule are read at every level",
            multiset="one event, saved once and edited in place: a second shows",
            allowance=NO_ALLOWANCE,
            lookalike="the event is read from events.db; the search results must list it",
        ),
        app=CALENDAR,
        setup=event1,
        parts=(
            Part(
                f"Create an event titled '{title}'.",
                f"创建一个标题为“{title}”的日程。",
                new_event(title),
                check=appointment(title, note),
                wrong=("a typo", new_event(typo)),
                misses=((labelled("field", "repeating daily"), [*new_event(title)[:-1], *REPEAT_DAILY, SAVE_EVENT]),),
            ),
            Part(
                "Then search for it.",
                "然后搜索这个日程。",
                [Tap(id=SEARCH), Type(title)],
                shown=found(title),
                keys=[title],
                wrong=("searched for event1", [Tap(id=SEARCH), Type("event1")]),
            ),
            Part(
                f"Open it from the results and add the description '{note}'.",
                f"从搜索结果中打开它，添加描述“{note}”。",
                [
                    Tap(id=rid(CALENDAR, "event_item_holder")),
                    Type(note, id=rid(CALENDAR, "event_description")),
                    SAVE_EVENT,
                ],
                keys=[note],
                wrong=(
                    "typed into the location",
                    [
                        Tap(id=rid(CALENDAR, "event_item_holder")),
                        Type(note, id=rid(CALENDAR, "event_location")),
                        SAVE_EVENT,
                    ],
                ),
            ),
        ),
        extra=("and weeks set to start on Monday", [SETTINGS, WEEK_START, Tap(text="Monday")]),
    )


CALENDAR_SETS = [
    calendar_0,
    SpaSet(
        name="calendar_1",
        not_applicable=dict(
            field=ONE_SETTING,
            multiset=ONE_SETTING,
            allowance=NO_ALLOWANCE,
            lookalike=STORED,
        ),
        app=CALENDAR,
        parts=(
            Part(
                "In the settings, make weeks start on Monday.",
                "在设置中将每周的第一天设为星期一。",
                [SETTINGS, WEEK_START, Tap(text="Monday")],
                check=week_on_monday,
                shown=in_settings,
                keys=["Monday"],
                wrong=("Tuesday", [SETTINGS, WEEK_START, Tap(text="Tuesday")]),
            ),
            Part(
                "Set the snooze time to 1 minute.",
                "将稍后提醒时间设为1分钟。",
                [Scroll("down"), SNOOZE, Tap(text="1 minute")],
                check=snooze_one_minute,
                shown=in_settings,
                keys=["1 minute"],
                wrong=("5 minutes", [Scroll("down"), SNOOZE, Tap(text="5 minutes")]),
            ),
            Part(
                "Then go back and switch to the daily view.",
                "然后返回并切换到日视图。",
                [Tap(desc="Back"), Tap(desc="Change view"), Tap(text="Daily view")],
                check=daily_view,
                shown=daily_view_shown,
                wrong=("the weekly view", [Tap(desc="Back"), Tap(desc="Change view"), Tap(text="Weekly view")]),
            ),
        ),
        extra=(
            "and an event created",
            lambda level: [*([Tap(desc="Back")] if level < 3 else []), *new_event("x"), Tap(text="OK")],
        ),
    ),
]

# -- Notes --------------------------------------------------------------------------------------

NEW_NOTE = Tap(id=rid(NOTES, "new_note"))
OK = Tap(text="OK")
MORE = Tap(desc="More options")
TEXT_VIEW = rid(NOTES, "text_note_view")
NOTE = "files/notes.json*"
DELETE_GENERAL = [Tap(text="General note"), MORE, Tap(text="Delete note"), Tap(text="Delete")]


def lock_note(pin: str = "2580") -> list:
    """From an open note: Lock note, the warning's OK, a PIN typed twice."""
    digits = [Tap(id=rid(NOTES, f"pin_{d}")) for d in pin] + [Tap(id=rid(NOTES, "pin_ok"))]
    return [MORE, Tap(text="Lock note"), OK, Tap(text="PIN"), *digits, *digits]


def add_item(item: str) -> list:
    return [Tap(id=rid(NOTES, "checklist_fab")), Type(item), OK]


def added_note(f: Final, title: str, kind: str) -> dict:
    note = f.changes.added(NOTES, NOTE)
    assert (note["title"], note["kind"]) == (title, kind), f"the new note: {note['title']!r}, a {note['kind']}"
    assert not note["hash"], f"{title!r} is locked, which nobody asked"
    return note


def groceries(title: str, first: str, second: str):
    def check(f: Final) -> None:
        note = added_note(f, title, "checklist")
        items = [(i["title"], i["done"]) for i in note["value"]]
        expected = [[], [(first, False)], [(first, True), (second, False)]][f.level - 1]
        assert items == expected, f"items (title, done): {items}"

    return check


def meeting(f: Final) -> None:
    note = added_note(f, "Meeting", "text")
    expected = "" if f.level == 1 else "9pm at the office"
    assert note["value"] == expected, f"the note's text: {note['value']!r}"


def searched(word: str):
    def shown(f: Final) -> None:
        query = f.ui.text_of(rid(NOTES, "search_query"))
        assert query == word, f"the search field holds {query!r}"
        assert f.ui.text_of(TEXT_VIEW) == "9pm at the office", f"the note shown: {f.ui.text_of(TEXT_VIEW)!r}"

    return shown


# The checklist's title and items as each language's task types them.
GROCERIES = {"ENG": ("Groceries", "Milk", "Bread", "Mlik"), "CHN": ("购物清单", "牛奶", "面包", "奶牛")}


def notes_0(lang: str) -> SpaSet:
    title, first, second, typo = GROCERIES[lang]
    return SpaSet(
        name="notes_0",
        not_applicable=dict(
            field="the checklist's items are compared with their done flags, and its lock",
            multiset="the items are compared as a list",
            allowance=NO_ALLOWANCE,
            lookalike="the checklist is read from notes.json",
        ),
        app=NOTES,
        parts=(
            Part(
                f"Create a checklist named '{title}'.",
                f"新建一个名为“{title}”的清单。",
                [NEW_NOTE, Type(title), Tap(text="Checklist"), OK],
                check=groceries(title, first, second),
                keys=[title],
                wrong=("a text note", [NEW_NOTE, Type(title), Tap(text="Text note"), OK]),
                misses=(
                    (
                        labelled("field", "created and locked"),
                        [NEW_NOTE, Type(title), Tap(text="Checklist"), OK, *lock_note()],
                    ),
                ),
            ),
            Part(
                f"Add the item '{first}' to it.",
                f"在清单中添加条目“{first}”。",
                add_item(first),
                keys=[first],
                wrong=("a typo", add_item(typo)),
                misses=(
                    (labelled("field", f"'{first}' added and ticked off"), [*add_item(first), Tap(text=first)]),
                    (labelled("multiset", f"'{first}' added twice"), [*add_item(first), *add_item(first)]),
                ),
            ),
            Part(
                f"Then add '{second}' and tick off '{first}'.",
                f"然后添加“{second}”，并勾选“{first}”。",
                [*add_item(second), Tap(text=first)],
                keys=[first, second],
                wrong=("the second item ticked instead", [*add_item(second), Tap(text=second)]),
            ),
        ),
        extra=("and General note deleted", DELETE_GENERAL),
    )


NOTES_SETS = [
    notes_0,
    SpaSet(
        name="notes_1",
        not_applicable=dict(
            field="the note's text is compared whole, and its lock",
            multiset="Notes refuses a second note of the same title",
            allowance=NO_ALLOWANCE,
            lookalike="the note is read from notes.json; the search field and the note shown are read",
        ),
        app=NOTES,
        parts=(
            Part(
                "Create a text note named 'Meeting'.",
                "新建一个名为“Meeting”的文本笔记。",
                [NEW_NOTE, Type("Meeting"), OK],
                check=meeting,
                keys=["Meeting"],
                wrong=("a checklist", [NEW_NOTE, Type("Meeting"), Tap(text="Checklist"), OK]),
                misses=((labelled("field", "created and locked"), [NEW_NOTE, Type("Meeting"), OK, *lock_note()]),),
            ),
            Part(
                "Write '9pm at the office' in it.",
                "在其中写入“9pm at the office”。",
                [Type("9pm at the office", id=TEXT_VIEW)],
                keys=["9pm at the office"],
                wrong=("a typo", [Type("9pm at the ofice", id=TEXT_VIEW)]),
                misses=(
                    (labelled("field", "more typed than asked"), [Type("9pm at the office, room 4", id=TEXT_VIEW)]),
                ),
            ),
            Part(
                "Then search the note for 'office'.",
                "然后在笔记中搜索“office”。",
                [Tap(id=rid(NOTES, "open_search")), Type("office")],
                shown=searched("office"),
                keys=["9pm at the office"],
                wrong=("searched for 'Meeting'", [Tap(id=rid(NOTES, "open_search")), Type("Meeting")]),
            ),
        ),
        extra=("and General note deleted", DELETE_GENERAL),
    ),
]
