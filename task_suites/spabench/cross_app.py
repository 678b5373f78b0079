"""SPA-Bench-style cross-app tasks: two apps (level 1) or three (Multi_Apps, level 2), started
from the home screen, each with its subtask split in the shape of SPA-Bench's
`data/cross-app-split/<task_identifier>.json`: per subtask the app, the task, whether it needs
what an earlier subtask found (`history`) and what it carries forward (`memory`, referred to as
{memory} in a later task). The `spa` and `mllm` judges take the split (conftest.py hands it to
them with each app as its package, which the device reports as the foreground), judge one
subtask at a time in order, and fail the task at the first failed one.

Information passes between apps the way a user passes it: read in one app, typed in another.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from pytest_mobile_agent import Launch, LongPress, Tap, Type, task
from pytest_mobile_agent.actions import Action
from pytest_mobile_agent.events.log import CLICKED, WINDOW_STATE
from pytest_mobile_agent.locales import localize
from task_suites.shared.apps import (
    APP_LAUNCHER,
    APP_NAMES,
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
from task_suites.shared.near_misses import NO_ALLOWANCE, labelled, not_applicable
from task_suites.shared.reading import assert_computed
from task_suites.shared.routes import apps_in_order, computed_before, first, typed_in
from task_suites.shared.seeds import add_contact, add_sms, clear_contacts, clear_conversations, run_in_app
from task_suites.spabench.levels import APP_NAMES_CHN, LANGUAGES, Final
from task_suites.spabench.sets.media import NEWER, albums, download_media, two_recordings
from task_suites.spabench.sets.messaging import (
    SMS_MORE,
    STAR,
    contact_steps,
    read_marks,
    reply,
    sent_messages,
    start_conversation,
)
from task_suites.spabench.sets.organizers import NEW_NOTE, OK, REPEAT_DAILY, TEXT_VIEW, event1, lock_note, new_event
from task_suites.spabench.sets.tools import GRANTS, LAUNCHER_FAB, LAUNCHER_OK, files_in_download, keys, rename_file

EVENTS = "databases/events.db:events*"
NOTE = "files/notes.json*"
HISTORY = "files/history.json"


@dataclass(frozen=True)
class Subtask:
    app: str
    en: str
    zh: str
    history: bool = False
    memory: tuple[str, str] | None = None  # (English, Chinese) phrase carried forward


@dataclass(frozen=True)
class CrossTask:
    category: str  # SPA-Bench's (GUI Odyssey's) categories
    number: int
    en: str
    zh: str
    subtasks: tuple[Subtask, ...]
    golden: Sequence[Action]
    check: Callable[[Final], None]
    near_miss: dict[str, Sequence[Action]]
    setup: Callable[[Any], None] | None = None
    grants: tuple[str, ...] = ()
    not_applicable: Mapping[str, str] = field(default_factory=dict)  # near-miss families, with why

    @property
    def apps(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(s.app for s in self.subtasks))

    def name(self, lang: str) -> str:
        return f"{self.category}_{self.number}_{lang}"


def split_file(t: CrossTask, lang: str) -> dict[str, Any]:
    """The task as SPA-Bench's cross-app-split JSON file holds it (apps by their names)."""
    names = APP_NAMES if lang == "ENG" else APP_NAMES_CHN
    out: dict[str, Any] = {"task_description": t.en if lang == "ENG" else t.zh}
    for i, s in enumerate(t.subtasks, start=1):
        memory = s.memory[0 if lang == "ENG" else 1] if s.memory else "None"
        out[f"subtask_{i}"] = {
            "app": names[s.app],
            "task": s.en if lang == "ENG" else s.zh,
            "history": s.history,
            "memory": memory,
        }
    return out


def judge_subtasks(t: CrossTask, lang: str) -> list[dict[str, Any]]:
    """The split as the judges take it: each app as its package."""
    split = split_file(t, lang)
    return [{**split[f"subtask_{i}"], "app": s.app} for i, s in enumerate(t.subtasks, start=1)]


# -- start states (each ends on the home screen, where SPA-Bench's cross-app tasks start) ----------


def home(*setups: Callable[[Any], None]) -> Callable[[Any], None]:
    def setup(device: Any) -> None:
        for s in setups:
            s(device)
        device.sh("input keyevent HOME")

    return setup


def received(number: str, body: str) -> Callable[[Any], None]:
    def setup(device: Any) -> None:
        clear_conversations(device)
        add_sms(device, "inbox", number, body)

    return setup


def contacts(*people: tuple[str, str]) -> Callable[[Any], None]:
    def setup(device: Any) -> None:
        clear_contacts(device)
        for name, number in people:
            add_contact(device, name, number)

    return setup


def notes(*titled: tuple[str, str]) -> Callable[[Any], None]:
    """Text notes with their texts, made through the app (the last one is the current note)."""

    def setup(device: Any) -> None:
        steps = []
        for title, text in titled:
            steps += [NEW_NOTE, Type(title), OK, Type(text, id=TEXT_VIEW)]
        run_in_app(device, NOTES, steps)

    return setup


def notes_app(device: Any) -> None:
    """Notes opened once, so its General note exists before the task (a first start makes it)."""
    run_in_app(device, NOTES, [])


def event(title: str) -> Callable[[Any], None]:
    def setup(device: Any) -> None:
        run_in_app(device, CALENDAR, [*new_event(title), Tap(text="OK")])

    return setup


# -- checks -------------------------------------------------------------------------------------


CONTACT_FIELDS = {"name.data1", "name.data2", "phone.data1", "phone.data2"}  # a first name and a number


def saved_contact(name: str, number: str) -> Callable[[Final], None]:
    def check(f: Final) -> None:
        contact = f.changes.added("contacts")
        got = (contact.get("name.data2"), contact.get("phone.data1"))
        assert got == (name, number), f"the contact saved (first name, number): {got}"
        extra = {k for k in contact if "." in k} - CONTACT_FIELDS
        assert not extra, f"fields nobody asked for: { {k: contact[k] for k in sorted(extra)} }"
        assert contact.get("starred") == "0", f"{name} is a favorite, which nobody asked"

    return check


def texted(number: str, body: str) -> Callable[[Final], None]:
    def check(f: Final) -> None:
        sent_messages(f, number, [body])
        thread = f.changes.added("conversations")
        got = (thread.get("archived"), thread.get("read"))
        assert got == ("0", "1"), f"the conversation (archived, read): {got}, not left read in the inbox"

    return check


def new_note_with(title: str, text: str) -> Callable[[Final], None]:
    def check(f: Final) -> None:
        note = f.changes.added(NOTES, NOTE)
        got = (note["title"], note["kind"], note["value"])
        assert got == (title, "text", text), f"the new note (title, kind, text): {got}"
        assert not note["hash"], f"{title!r} is locked, which nobody asked"

    return check


def new_event_titled(title: str) -> Callable[[Final], None]:
    def check(f: Final) -> None:
        saved = f.changes.added(CALENDAR, EVENTS)
        assert (saved["type"], saved["title"]) == (0, title), f"the event saved: {saved['title']!r}"
        typed = (saved["location"], saved["description"], saved["repeat_interval"])
        assert typed == ("", "", 0), f"the event's (location, description, repeat): {typed}, which nobody asked"

    return check


def both(*checks: Callable[[Final], None]) -> Callable[[Final], None]:
    def check(f: Final) -> None:
        for c in checks:
            c(f)

    return check


def allow(area: str, key: str | None = None) -> Callable[[Final], None]:
    """A change the task's own means make (the history of a calculation, a view switched to read)."""
    return lambda f: f.changes.allow(area, key)


def calculator_launched_from_grid(f: Final) -> None:
    added = [c.after["title"] for c in f.changes.where(APP_LAUNCHER, "added", "files/launchers.json*")]
    assert added == [localize("Calculator", CALCULATOR, f.device.locale)], f"added to the launcher: {added}"
    f.changes.allow(CALCULATOR, HISTORY)
    opened_from_the_grid(f)
    got = (f.ui.package, f.ui.text_of(rid(CALCULATOR, "formula")), f.ui.text_of(rid(CALCULATOR, "result")))
    assert got == (CALCULATOR, "7×6", "42"), f"the screen (app, formula, result): {got}"


def renamed_to_beach(f: Final) -> None:
    f.changes.moved("files", "Download/sunset.png", "Download/beach.png")
    typed_in(f.events, FILE_MANAGER, "beach")  # renamed with File Manager, as asked, not in Gallery


def download_opened(f: Final) -> None:
    """The file was found in File Manager's Download folder, as asked: not a search from elsewhere,
    which lists a file of that name in any folder."""
    first(f.events, "Download opened in File Manager", text="Download", package=FILE_MANAGER)


def computed(formula: str, result: str, into: str) -> Callable[[Final], None]:
    """Calculator worked it out (its history's last entry) before the result was typed in `into`."""

    def check(f: Final) -> None:
        assert_computed(f.changes, (formula, result))
        computed_before(f.events, CALCULATOR, into, result)

    return check


def opened_from_the_grid(f: Final) -> None:
    """Calculator came up from App Launcher's grid: the last tap before its window was its icon there."""
    shown = first(f.events, "Calculator in front", WINDOW_STATE, package=CALCULATOR)
    taps = [e for e in f.events.of_type(CLICKED) if e.seq < shown]
    tapped = (taps[-1].package, taps[-1].text) if taps else None
    title = localize("Calculator", CALCULATOR, f.device.locale)
    assert tapped == (APP_LAUNCHER, (title,)), f"Calculator was not opened from the launcher (last tap: {tapped})"


# -- the tasks ------------------------------------------------------------------------------------

SMS_OPEN = Tap(id=rid(SMS_MESSENGER, "conversation_frame"))
ANNA = "Hi, this is Anna. My new number is 5550188."  # no quote: the shell command quotes it
BOB = "Hi, this is Bob. See you tomorrow at the meeting."
EVENT_LIST = [Tap(desc="Change view"), Tap(text="Simple event list")]


def note_steps(title: str, text: str) -> list:
    return [NEW_NOTE, Type(title), OK, Type(text, id=TEXT_VIEW)]


TASKS = [
    CrossTask(
        "Information_Management",
        0,
        "In SMS Messenger, read Anna's message from 5550123, then save the new number it gives as a contact "
        "named 'Anna' in Contacts.",
        "在短信中查看来自5550123的Anna的消息，然后在通讯录中把消息里给出的新号码保存为联系人“Anna”。",
        (
            Subtask(
                SMS_MESSENGER,
                "Read Anna's message from 5550123 and find her new number",
                "查看来自5550123的Anna的消息，找到她的新号码",
                memory=("Anna's new number", "Anna的新号码"),
            ),
            Subtask(
                CONTACTS,
                "Save {Anna's new number} as a contact named 'Anna'",
                "把{Anna的新号码}保存为联系人“Anna”",
                history=True,
            ),
        ),
        [Launch(SMS_MESSENGER), SMS_OPEN, Launch(CONTACTS), *contact_steps("Anna", "5550188")],
        both(read_marks, saved_contact("Anna", "5550188")),
        {
            "the sender's number saved": [
                Launch(SMS_MESSENGER),
                SMS_OPEN,
                Launch(CONTACTS),
                *contact_steps("Anna", "5550123"),
            ],
            labelled("field", "Anna saved as a favorite"): [
                Launch(SMS_MESSENGER),
                SMS_OPEN,
                Launch(CONTACTS),
                *contact_steps("Anna", "5550188")[:-1],
                STAR,
                contact_steps("Anna", "5550188")[-1],
            ],
            "and a reply sent": [
                Launch(SMS_MESSENGER),
                SMS_OPEN,
                *reply("Thanks"),
                Launch(CONTACTS),
                *contact_steps("Anna", "5550188"),
            ],
        },
        setup=home(received("5550123", ANNA), contacts()),
        not_applicable=dict(
            multiset="one record made, read with added(), which finds a second",
            allowance="only the read marks of opening the message",
            lookalike="the contact is read from the provider; the message opened is read from the events",
        ),
    ),
    CrossTask(
        "Information_Management",
        1,
        "Open the note 'Plans' in Notes and create an event in Calendar titled with the note's text.",
        "在笔记中打开“Plans”，然后在日历中创建一个日程，标题为这条笔记的内容。",
        (
            Subtask(
                NOTES,
                "Open the note 'Plans' and read its text",
                "打开笔记“Plans”并查看其内容",
                memory=("the note's text", "笔记的内容"),
            ),
            Subtask(
                CALENDAR, "Create an event titled {the note's text}", "创建一个标题为{笔记的内容}的日程", history=True
            ),
        ),
        [Launch(NOTES), Tap(text="Plans"), Launch(CALENDAR), *new_event("Dentist on Friday")],
        new_event_titled("Dentist on Friday"),
        {
            "the note's title instead": [Launch(NOTES), Tap(text="Plans"), Launch(CALENDAR), *new_event("Plans")],
            labelled("field", "the event repeating daily"): [
                Launch(NOTES),
                Tap(text="Plans"),
                Launch(CALENDAR),
                *new_event("Dentist on Friday")[:-1],
                *REPEAT_DAILY,
                new_event("Dentist on Friday")[-1],
            ],
            "and the note edited": [
                Launch(NOTES),
                Tap(text="Plans"),
                Type(" at 3", id=TEXT_VIEW),
                Launch(CALENDAR),
                *new_event("Dentist on Friday"),
            ],
        },
        setup=home(event1, notes(("Plans", "Dentist on Friday"), ("Shopping", "Bread"))),
        not_applicable=dict(
            multiset="one record made, read with added(), which finds a second",
            allowance=NO_ALLOWANCE,
            lookalike="the record is read from its app's store, not a screen",
        ),
    ),
    CrossTask(
        "Information_Management",
        2,
        "Compute 25×4 in Calculator and write the result in a new note named 'Total' in Notes.",
        "用计算器计算25×4，然后在笔记中新建一条名为“Total”的笔记，写入计算结果。",
        (
            Subtask(CALCULATOR, "Compute 25×4", "计算25×4", memory=("the result", "计算结果")),
            Subtask(
                NOTES,
                "Create a note named 'Total' holding {the result}",
                "新建名为“Total”的笔记并写入{计算结果}",
                history=True,
            ),
        ),
        [Launch(CALCULATOR), *keys("25×4="), Launch(NOTES), *note_steps("Total", "100")],
        both(computed("25×4", "100", NOTES), new_note_with("Total", "100")),
        {
            "25+4 computed": [Launch(CALCULATOR), *keys("25+4="), Launch(NOTES), *note_steps("Total", "29")],
            labelled("field", "the note locked"): [
                Launch(CALCULATOR),
                *keys("25×4="),
                Launch(NOTES),
                *note_steps("Total", "100"),
                *lock_note(),
            ],
            labelled("route", "25×4 computed after the note was written"): [
                Launch(NOTES),
                *note_steps("Total", "100"),
                Launch(CALCULATOR),
                *keys("25×4="),
            ],
            labelled("lookalike", "25×4 typed, 100 typed over it"): [
                Launch(CALCULATOR),
                *keys("25×4"),
                *keys("C" * 4),
                *keys("100"),
                Launch(NOTES),
                *note_steps("Total", "100"),
            ],
            "and General note deleted": [
                Launch(CALCULATOR),
                *keys("25×4="),
                Launch(NOTES),
                *note_steps("Total", "100"),
                Tap(text="General note"),
                Tap(desc="More options"),
                Tap(text="Delete note"),
                Tap(text="Delete"),
            ],
        },
        setup=home(notes_app),
        not_applicable=dict(
            multiset="one record made, read with added(), which finds a second",
            allowance="the history keeps every computation; the one asked must be the last",
        ),
    ),
    CrossTask(
        "Social_Sharing",
        0,
        "Look up Yuzai's phone number in Contacts, then send him 'Running late' in SMS Messenger.",
        "在通讯录中查看Yuzai的电话号码，然后用短信给他发送“Running late”。",
        (
            Subtask(
                CONTACTS,
                "Look up Yuzai's phone number",
                "查看Yuzai的电话号码",
                memory=("Yuzai's phone number", "Yuzai的电话号码"),
            ),
            Subtask(
                SMS_MESSENGER,
                "Send 'Running late' to {Yuzai's phone number}",
                "给{Yuzai的电话号码}发送“Running late”",
                history=True,
            ),
        ),
        [Launch(CONTACTS), Tap(text="Yuzai"), Launch(SMS_MESSENGER), *start_conversation("123456789", "Running late")],
        texted("123456789", "Running late"),
        {
            "sent to Zack": [
                Launch(CONTACTS),
                Tap(text="Zack"),
                Launch(SMS_MESSENGER),
                *start_conversation("555123", "Running late"),
            ],
            labelled("field", "the conversation archived"): [
                Launch(CONTACTS),
                Tap(text="Yuzai"),
                Launch(SMS_MESSENGER),
                *start_conversation("123456789", "Running late"),
                SMS_MORE,
                Tap(text="Archive"),
            ],
            "and Yuzai starred": [
                Launch(CONTACTS),
                Tap(text="Yuzai"),
                STAR,
                Launch(SMS_MESSENGER),
                *start_conversation("123456789", "Running late"),
            ],
        },
        setup=home(contacts(("Yuzai", "123456789"), ("Zack", "555123")), clear_conversations),
        not_applicable=dict(
            multiset="the messages sent are compared as a list",
            allowance=NO_ALLOWANCE,
            lookalike="the message is read from the provider, its number from the contact",
        ),
    ),
    CrossTask(
        "Social_Sharing",
        1,
        "Find the name of the newest recording in Voice Recorder and send it by SMS to 5550100.",
        "在录音机中找到最新录音的文件名，然后用短信把它发送给5550100。",
        (
            Subtask(
                VOICE_RECORDER,
                "Find the name of the newest recording",
                "找到最新录音的文件名",
                memory=("the recording's name", "录音的文件名"),
            ),
            Subtask(
                SMS_MESSENGER, "Send {the recording's name} to 5550100", "把{录音的文件名}发送给5550100", history=True
            ),
        ),
        [Launch(VOICE_RECORDER), Tap(text="Player"), Launch(SMS_MESSENGER), *start_conversation("5550100", NEWER)],
        texted("5550100", NEWER),
        {
            labelled("field", "the conversation archived"): [
                Launch(VOICE_RECORDER),
                Tap(text="Player"),
                Launch(SMS_MESSENGER),
                *start_conversation("5550100", NEWER),
                SMS_MORE,
                Tap(text="Archive"),
            ],
            "the older one's name": [
                Launch(VOICE_RECORDER),
                Tap(text="Player"),
                Launch(SMS_MESSENGER),
                *start_conversation("5550100", "2024_05_15_08_30_00.m4a"),
            ],
            "and a second message": [
                Launch(VOICE_RECORDER),
                Tap(text="Player"),
                Launch(SMS_MESSENGER),
                *start_conversation("5550100", NEWER),
                *reply("Listen to it"),
            ],
        },
        setup=home(two_recordings, clear_conversations),
        not_applicable=dict(
            multiset="the messages sent are compared as a list",
            allowance=NO_ALLOWANCE,
            lookalike="the message is read from the provider",
        ),
    ),
    CrossTask(
        "Social_Sharing",
        2,
        "Check the title of today's event in Calendar, then text it to 5550100 with SMS Messenger.",
        "在日历中查看今天日程的标题，然后用短信把它发送给5550100。",
        (
            Subtask(
                CALENDAR,
                "Check the title of today's event",
                "查看今天日程的标题",
                memory=("the event's title", "日程的标题"),
            ),
            Subtask(SMS_MESSENGER, "Text {the event's title} to 5550100", "把{日程的标题}发送给5550100", history=True),
        ),
        [Launch(CALENDAR), *EVENT_LIST, Launch(SMS_MESSENGER), *start_conversation("5550100", "Team lunch")],
        both(allow(CALENDAR, "files/prefs.json:view"), texted("5550100", "Team lunch")),
        {
            "a typo": [
                Launch(CALENDAR),
                *EVENT_LIST,
                Launch(SMS_MESSENGER),
                *start_conversation("5550100", "Team launch"),
            ],
            labelled("field", "the conversation archived"): [
                Launch(CALENDAR),
                *EVENT_LIST,
                Launch(SMS_MESSENGER),
                *start_conversation("5550100", "Team lunch"),
                SMS_MORE,
                Tap(text="Archive"),
            ],
            "and the event renamed": [
                Launch(CALENDAR),
                *EVENT_LIST,
                Tap(text="Team lunch"),
                Type(" moved", id=rid(CALENDAR, "event_title")),
                Tap(desc="Save"),
                Launch(SMS_MESSENGER),
                *start_conversation("5550100", "Team lunch"),
            ],
        },
        setup=home(event("Team lunch"), clear_conversations),
        not_applicable=dict(
            multiset="the messages sent are compared as a list",
            allowance="the calendar's view, which the event list sets",
            lookalike="the message is read from the provider",
        ),
    ),
    CrossTask(
        "General_Tool",
        0,
        "Add Calculator to App Launcher, open it from there and compute 7×6.",
        "把计算器添加到简易启动器，从启动器中打开它并计算7×6。",
        (
            Subtask(APP_LAUNCHER, "Add Calculator and open it", "添加计算器并打开它"),
            Subtask(CALCULATOR, "Compute 7×6", "计算7×6"),
        ),
        [
            Launch(APP_LAUNCHER),
            LAUNCHER_FAB,
            Tap(text="Calculator"),
            LAUNCHER_OK,
            Tap(text="Calculator"),
            *keys("7×6="),
        ],
        calculator_launched_from_grid,
        {
            labelled("route", "Calculator opened from the home screen"): [
                Launch(APP_LAUNCHER),
                LAUNCHER_FAB,
                Tap(text="Calculator"),
                LAUNCHER_OK,
                Launch(CALCULATOR),
                *keys("7×6="),
            ],
            "7+6 computed": [
                Launch(APP_LAUNCHER),
                LAUNCHER_FAB,
                Tap(text="Calculator"),
                LAUNCHER_OK,
                Tap(text="Calculator"),
                *keys("7+6="),
            ],
            "and Camera added too": [
                Launch(APP_LAUNCHER),
                LAUNCHER_FAB,
                Tap(text="Calculator"),
                Tap(text="Camera"),
                LAUNCHER_OK,
                Tap(text="Calculator"),
                *keys("7×6="),
            ],
        },
        not_applicable=dict(
            field="the launcher entry added is read whole, and the display",
            multiset="the add dialog lists only apps not in the grid",
            allowance="the history keeps every computation; the display is read",
            lookalike="the launcher's grid is read from its data; Calculator's display must show the sum",
        ),
    ),
    CrossTask(
        "General_Tool",
        1,
        "Find the name of the text file in the Download folder with File Manager, and write it in a new note "
        "named 'Files' in Notes.",
        "用文件管理器找到Download文件夹中文本文件的文件名，然后在笔记中新建名为“Files”的笔记并写入这个文件名。",
        (
            Subtask(
                FILE_MANAGER,
                "Find the name of the text file in the Download folder",
                "找到Download文件夹中文本文件的文件名",
                memory=("the file's name", "文件名"),
            ),
            Subtask(
                NOTES,
                "Create a note named 'Files' holding {the file's name}",
                "新建名为“Files”的笔记并写入{文件名}",
                history=True,
            ),
        ),
        [Launch(FILE_MANAGER), Tap(text="Download"), Launch(NOTES), *note_steps("Files", "budget.txt")],
        both(download_opened, new_note_with("Files", "budget.txt")),
        {
            labelled("lookalike", "a search from the root folder instead"): [
                Launch(FILE_MANAGER),
                Tap(id=rid(FILE_MANAGER, "top_toolbar_search")),
                Type("budget"),
                Launch(NOTES),
                *note_steps("Files", "budget.txt"),
            ],
            labelled("field", "the note locked"): [
                Launch(FILE_MANAGER),
                Tap(text="Download"),
                Launch(NOTES),
                *note_steps("Files", "budget.txt"),
                *lock_note(),
            ],
            "the picture's name": [
                Launch(FILE_MANAGER),
                Tap(text="Download"),
                Launch(NOTES),
                *note_steps("Files", "photo.jpg"),
            ],
            "and the file deleted": [
                Launch(FILE_MANAGER),
                Tap(text="Download"),
                LongPress(text="budget.txt"),
                Tap(id=rid(FILE_MANAGER, "cab_delete")),
                Tap(text="Yes"),
                Launch(NOTES),
                *note_steps("Files", "budget.txt"),
            ],
        },
        setup=home(notes_app, lambda d: files_in_download(d, "budget.txt", "photo.jpg")),
        grants=GRANTS,
        not_applicable=dict(
            multiset="one record made, read with added(), which finds a second",
            allowance=NO_ALLOWANCE,
        ),
    ),
    CrossTask(
        "Media_Entertainment",
        0,
        "In Gallery, find the name of the newest image in the Download folder, then rename that file to "
        "'beach.png' with File Manager.",
        "在图库的Download文件夹中找到最新图片的文件名，然后用文件管理器把这个文件重命名为“beach.png”。",
        (
            Subtask(
                GALLERY,
                "Find the name of the newest image in the Download folder",
                "找到Download文件夹中最新图片的文件名",
                memory=("the image's name", "图片的文件名"),
            ),
            Subtask(
                FILE_MANAGER,
                "Rename {the image's name} in Download to 'beach.png'",
                "把Download中的{图片的文件名}重命名为“beach.png”",
                history=True,
            ),
        ),
        [
            Launch(GALLERY),
            Tap(text="Download"),
            Tap(id=rid(GALLERY, "media_item_holder")),
            Launch(FILE_MANAGER),
            Tap(text="Download"),
            *rename_file("sunset.png", "beach"),
        ],
        renamed_to_beach,
        {
            labelled("route", "renamed in Gallery, File Manager only opened"): [
                Launch(GALLERY),
                Tap(text="Download"),
                Tap(id=rid(GALLERY, "media_item_holder")),
                Tap(desc="More options"),
                Tap(text="Rename"),
                LongPress(id=rid(GALLERY, "rename_item_name")),
                Type("beach"),
                Tap(text="OK"),
                Launch(FILE_MANAGER),
                Tap(text="Download"),
            ],
            "the older image renamed": [
                Launch(GALLERY),
                Tap(text="Download"),
                Tap(id=rid(GALLERY, "media_item_holder")),
                Launch(FILE_MANAGER),
                Tap(text="Download"),
                *rename_file("mountain.jpg", "beach"),
            ],
            "and it made a favorite": [
                Launch(GALLERY),
                Tap(text="Download"),
                Tap(id=rid(GALLERY, "media_item_holder")),
                Tap(id=rid(GALLERY, "bottom_favorite")),
                Launch(FILE_MANAGER),
                Tap(text="Download"),
                *rename_file("sunset.png", "beach"),
            ],
        },
        setup=home(download_media),
        grants=GRANTS,
        not_applicable=dict(
            field="the renamed file's content is compared with the old one's",
            multiset="a name is unique in its folder",
            allowance=NO_ALLOWANCE,
            lookalike="the file is read on the device, not a listing",
        ),
    ),
    CrossTask(
        "Media_Entertainment",
        1,
        "In Music Player, find which album is by John Coltrane, and write its title in a new note named 'Jazz' "
        "in Notes.",
        "在音乐播放器中找到John Coltrane的专辑，然后在笔记中新建名为“Jazz”的笔记并写入专辑名。",
        (
            Subtask(
                MUSIC_PLAYER,
                "Find the album by John Coltrane",
                "找到John Coltrane的专辑",
                memory=("the album's title", "专辑名"),
            ),
            Subtask(
                NOTES,
                "Create a note named 'Jazz' holding {the album's title}",
                "新建名为“Jazz”的笔记并写入{专辑名}",
                history=True,
            ),
        ),
        [Launch(MUSIC_PLAYER), Tap(text="Albums"), Launch(NOTES), *note_steps("Jazz", "Blue Train")],
        new_note_with("Jazz", "Blue Train"),
        {
            "another album": [Launch(MUSIC_PLAYER), Tap(text="Albums"), Launch(NOTES), *note_steps("Jazz", "Currents")],
            labelled("field", "the note locked"): [
                Launch(MUSIC_PLAYER),
                Tap(text="Albums"),
                Launch(NOTES),
                *note_steps("Jazz", "Blue Train"),
                *lock_note(),
            ],
            "and albums sorted by year": [
                Launch(MUSIC_PLAYER),
                Tap(text="Albums"),
                Tap(id=rid(MUSIC_PLAYER, "sort")),
                Tap(text="Year"),
                Tap(id="android:id/button1"),
                Launch(NOTES),
                *note_steps("Jazz", "Blue Train"),
            ],
        },
        setup=home(notes_app, albums, lambda d: run_in_app(d, MUSIC_PLAYER, [])),  # its first scan done
        not_applicable=dict(
            multiset="one record made, read with added(), which finds a second",
            allowance=NO_ALLOWANCE,
            lookalike="the record is read from its app's store, not a screen",
        ),
    ),
    CrossTask(
        "Multi_Apps",
        0,
        "Read Bob's message from 5550142 in SMS Messenger, save his number as a contact named 'Bob' in Contacts, "
        "and create an event titled 'Meeting with Bob' in Calendar.",
        "在短信中查看来自5550142的Bob的消息，在通讯录中把他的号码保存为联系人“Bob”，"
        "并在日历中创建标题为“Meeting with Bob”的日程。",
        (
            Subtask(
                SMS_MESSENGER,
                "Read Bob's message from 5550142",
                "查看来自5550142的Bob的消息",
                memory=("Bob's number", "Bob的号码"),
            ),
            Subtask(
                CONTACTS, "Save {Bob's number} as a contact named 'Bob'", "把{Bob的号码}保存为联系人“Bob”", history=True
            ),
            Subtask(CALENDAR, "Create an event titled 'Meeting with Bob'", "创建标题为“Meeting with Bob”的日程"),
        ),
        [
            Launch(SMS_MESSENGER),
            SMS_OPEN,
            Launch(CONTACTS),
            *contact_steps("Bob", "5550142"),
            Launch(CALENDAR),
            *new_event("Meeting with Bob"),
        ],
        both(read_marks, saved_contact("Bob", "5550142"), new_event_titled("Meeting with Bob")),
        {
            "the event left out": [Launch(SMS_MESSENGER), SMS_OPEN, Launch(CONTACTS), *contact_steps("Bob", "5550142")],
            labelled("field", "Bob saved as a favorite"): [
                Launch(SMS_MESSENGER),
                SMS_OPEN,
                Launch(CONTACTS),
                *contact_steps("Bob", "5550142")[:-1],
                STAR,
                contact_steps("Bob", "5550142")[-1],
                Launch(CALENDAR),
                *new_event("Meeting with Bob"),
            ],
            labelled("field", "the event repeating daily"): [
                Launch(SMS_MESSENGER),
                SMS_OPEN,
                Launch(CONTACTS),
                *contact_steps("Bob", "5550142"),
                Launch(CALENDAR),
                *new_event("Meeting with Bob")[:-1],
                *REPEAT_DAILY,
                new_event("Meeting with Bob")[-1],
            ],
            "a digit missed": [
                Launch(SMS_MESSENGER),
                SMS_OPEN,
                Launch(CONTACTS),
                *contact_steps("Bob", "555014"),
                Launch(CALENDAR),
                *new_event("Meeting with Bob"),
            ],
            "and a reply sent": [
                Launch(SMS_MESSENGER),
                SMS_OPEN,
                *reply("OK"),
                Launch(CONTACTS),
                *contact_steps("Bob", "5550142"),
                Launch(CALENDAR),
                *new_event("Meeting with Bob"),
            ],
        },
        setup=home(received("5550142", BOB), contacts(), event1),
        not_applicable=dict(
            multiset="one record made, read with added(), which finds a second",
            allowance="only the read marks of opening the message",
            lookalike="the record is read from its app's store, not a screen",
        ),
    ),
    CrossTask(
        "Multi_Apps",
        1,
        "Add up the two prices in the note 'Shopping' with Calculator, and text the total to 5550100 with SMS "
        "Messenger.",
        "用计算器把笔记“Shopping”中的两个价格相加，然后用短信把总额发送给5550100。",
        (
            Subtask(
                NOTES,
                "Read the two prices in the note 'Shopping'",
                "查看笔记“Shopping”中的两个价格",
                memory=("the two prices", "两个价格"),
            ),
            Subtask(
                CALCULATOR, "Add up {the two prices}", "把{两个价格}相加", history=True, memory=("the total", "总额")
            ),
            Subtask(SMS_MESSENGER, "Text {the total} to 5550100", "把{总额}发送给5550100", history=True),
        ),
        [
            Launch(NOTES),
            Launch(CALCULATOR),
            *keys("12+30="),
            Launch(SMS_MESSENGER),
            *start_conversation("5550100", "42"),
        ],
        both(computed("12+30", "42", SMS_MESSENGER), texted("5550100", "42")),
        {
            labelled("route", "the sum worked out without Calculator"): [
                Launch(NOTES),
                Launch(SMS_MESSENGER),
                *start_conversation("5550100", "42"),
            ],
            labelled("field", "the conversation archived"): [
                Launch(NOTES),
                Launch(CALCULATOR),
                *keys("12+30="),
                Launch(SMS_MESSENGER),
                *start_conversation("5550100", "42"),
                SMS_MORE,
                Tap(text="Archive"),
            ],
            "one price only": [
                Launch(NOTES),
                Launch(CALCULATOR),
                *keys("12="),
                Launch(SMS_MESSENGER),
                *start_conversation("5550100", "12"),
            ],
            "and the note edited": [
                Launch(NOTES),
                Type(" paid", id=TEXT_VIEW),
                Launch(CALCULATOR),
                *keys("12+30="),
                Launch(SMS_MESSENGER),
                *start_conversation("5550100", "42"),
            ],
        },
        setup=home(notes(("Shopping", "Bread 12, Cheese 30")), clear_conversations),
        not_applicable=dict(
            multiset="the messages sent are compared as a list",
            allowance="the history keeps every computation; the one asked must be the last",
            lookalike="the message is read from the provider; the sum from the history",
        ),
    ),
]
SUBTASKS = {t.name(lang): judge_subtasks(t, lang) for t in TASKS for lang in LANGUAGES}


def first_app_skipped(t: CrossTask) -> dict[str, list[Action]]:
    """The golden path from the second app's launch on: the first subtask's app never used (its
    finding typed from the prompt's knowledge). None where the second app is not launched."""
    launches = [i for i, a in enumerate(t.golden) if a.kind == "launch"]
    if len(launches) < 2:
        return {}
    return {labelled("route", f"{APP_NAMES[t.subtasks[0].app]} never opened"): list(t.golden[launches[1] :])}


def make_task(t: CrossTask, lang: str) -> Callable[..., Any]:
    def body(device, ui, changes, events):
        final = Final(device, ui, changes, 2 if len(t.apps) > 2 else 1, events)
        t.check(final)
        apps_in_order(events, [s.app for s in t.subtasks])  # each subtask's app did its part

    name = t.name(lang)
    body.__name__ = body.__qualname__ = f"test_{name}"
    body.__doc__ = t.en
    body.spa_setup = t.setup  # seeded by the suite's autouse fixture (conftest.py)
    typed = [a.text for a in t.golden if a.kind == "type" and a.text]
    decorate = task(
        prompt=t.en if lang == "ENG" else t.zh,
        app=t.apps,
        name=name,
        launch=False,  # SPA-Bench's cross-app tasks start from the home screen
        golden=list(t.golden),
        difficulty="medium" if len(t.apps) > 2 else "easy",
        grants=t.grants,
        near_miss={**t.near_miss, **first_app_skipped(t)},
        locale=LANGUAGES[lang],
        checkpoints={"package": list(t.apps), "key_phrases": typed},
    )
    return not_applicable(**t.not_applicable)(decorate(body))


def tasks_of(tasks: Sequence[CrossTask], languages: Sequence[str] = tuple(LANGUAGES)) -> dict[str, Callable[..., Any]]:
    out = {}
    for t in tasks:
        for lang in languages:
            fn = make_task(t, lang)
            out[fn.__name__] = fn
    return out
