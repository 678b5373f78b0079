"""SMS Messenger tasks (MobileAgentBench messager_*).

Conversations live in the telephony provider, which `pm clear` of the app does not reset, so
every task starts from a known conversation state: none, or MobileAgentBench's setup (a
conversation with 123456789 holding the sent 'i luv u'). Sent messages and the archive flag are
read back from the provider, settings from the app's data; screens only where the task is to
show something (search results, the message details dialog, the archive).

The search overlay draws over the conversation list without removing it from the tree, so
MobileAgentBench's search checks (the first `conversation_address` / `conversation_body_short`
on screen) held whatever was searched for; here the result must be in the search results.
"""

from __future__ import annotations

import pytest

from pytest_mobile_agent import Key, LongPress, Tap, Type, task
from task_suites.shared.apps import SMS_MESSENGER, rid
from task_suites.shared.conversations import changed_fields, read_marks
from task_suites.shared.near_misses import NO_ALLOWANCE, SCREEN_ONLY, labelled, not_applicable
from task_suites.shared.reading import app_data, pref
from task_suites.shared.seeds import MESSAGE, NUMBER, add_sms_thread, clear_conversations
from task_suites.shared.variations import MESSAGES, other_than, phone_number, wrong_digit

SEARCH = rid(SMS_MESSENGER, "top_toolbar_search")
MORE = Tap(desc="More options")
BACK = Tap(desc="Back")  # the toolbar's, which leaves the screen even while the keyboard is up
OPEN = Tap(id=rid(SMS_MESSENGER, "conversation_frame"))
MESSAGE_FIELD = rid(SMS_MESSENGER, "thread_type_message")
SEND_ANOTHER = [Type("and you?", id=MESSAGE_FIELD), Tap(id=rid(SMS_MESSENGER, "thread_send_message"))]
FONT_LARGE = [Tap(text="Font size"), Tap(text="Large")]
MARK_UNREAD = [MORE, Tap(text="Mark as Unread")]  # from a conversation: back to the list
NEW_SMS = "the message is read back from the SMS provider: no screen to mistake"
ONE_SETTING = "one stored setting, read back; any other setting changed fails the task"


# Every fixture starts from no conversation at all, whatever an earlier episode sent.
@pytest.fixture
def conversation(device):
    """MobileAgentBench's setup: the conversation with 123456789 holding the sent 'i luv u'."""
    clear_conversations(device)
    add_sms_thread(device)


@pytest.fixture
def no_conversation(device):
    clear_conversations(device)


def sent_one(changes, number: str = NUMBER, text: str = MESSAGE) -> None:
    """Exactly one message went out, 'i luv u' to 123456789, in a new conversation left in the inbox."""
    message = changes.added("sms")
    assert (message.get("address"), message.get("body", "").lower()) == (number, text), f"sent: {message}"
    conversation = changes.added("conversations")
    assert conversation.get("address") == number
    assert conversation.get("archived") == "0", "the conversation was archived, which nobody asked"
    assert conversation.get("read") == "1", "the conversation was left unread, which nobody asked"


def sent(device, number: str = NUMBER) -> list[str]:
    """Bodies of the outgoing messages to `number` (sent, outbox, failed, queued; not drafts)."""
    out = device.sh(
        f"content query --uri content://sms --projection body --where \"address='{number}' AND type IN (2,4,5,6)\""
    )
    return [line.split("body=", 1)[1] for line in out.splitlines() if "body=" in line]


def start_conversation(number: str = NUMBER, message: str = MESSAGE) -> list:
    """New conversation: the number field has the focus on open; the message field needs a tap."""
    return [
        Tap(id=rid(SMS_MESSENGER, "conversations_fab")),
        Type(number),
        Tap(id=rid(SMS_MESSENGER, "new_conversation_confirm")),
        Type(message, id=rid(SMS_MESSENGER, "thread_type_message")),
        Tap(id=rid(SMS_MESSENGER, "thread_send_message")),
    ]


def message_menu(item: str) -> list:
    """Long-press the message, then an item of the action mode's overflow."""
    return [LongPress(id=rid(SMS_MESSENGER, "thread_message_body")), MORE, Tap(text=item)]


def assert_sent(device, number: str = NUMBER, text: str = MESSAGE) -> None:
    # MobileAgentBench compared case-insensitively; the words must be the prompt's.
    assert text in [body.lower() for body in sent(device, number)], f"no {text!r} sent to {number}"


def vary_conversation(rng) -> dict:
    """Another number and message; the near misses' other message is another of the pool."""
    message = rng.choice(MESSAGES)
    return {"number": phone_number(rng), "message": message, "other": other_than(rng, MESSAGES, message)}


def assert_message_details(ui, number: str = NUMBER) -> None:
    """The Message details dialog of a message sent to 123456789 is on screen."""
    assert ui.exists(text="Message details"), "the Message details dialog is not shown"
    rows = dict(
        zip(
            [n.text for n in ui.find_all(id=rid(SMS_MESSENGER, "property_label"))],
            [n.text for n in ui.find_all(id=rid(SMS_MESSENGER, "property_value"))],
            strict=False,
        )
    )
    assert rows.get(ui.tr("Receiver")) == number, f"details of the wrong message: {rows}"


def assert_search_found(ui, query: str, *, title: str | None = None, snippet: str | None = None) -> None:
    assert (ui.text_of(SEARCH) or "").lower() == query, f"the search field holds {ui.text_of(SEARCH)!r}"
    titles = [n.text for n in ui.find_all(id=rid(SMS_MESSENGER, "search_result_title"))]
    snippets = [n.text.lower() for n in ui.find_all(id=rid(SMS_MESSENGER, "search_result_snippet"))]
    assert title is None or title in titles, f"no search result titled {title}: {titles}"
    assert snippet is None or snippet in snippets, f"no search result reading {snippet!r}: {snippets}"


# -- settings -----------------------------------------------------------------------------------


def block(number: str) -> list:
    return [
        Tap(id=rid(SMS_MESSENGER, "settings")),
        Tap(text="Manage blocked numbers"),
        Tap(desc="Add a blocked number"),
        Type(number),
        Tap(text="OK"),
    ]


@pytest.mark.parametrize("number", [NUMBER])
@not_applicable(
    field=ONE_SETTING,
    multiset="the block list is compared whole, as a list",
    allowance=NO_ALLOWANCE,
    lookalike="the stored list is read, not the screen",
)
@task(
    prompt="Add a number '{number}' to block list",
    app=SMS_MESSENGER,
    name="messager_add_block_numbers",
    golden=lambda number: block(number),
    near_miss={
        "a digit short": lambda number: block(number[:-1]),
        "blocked and the font size changed": lambda number: [*block(number), BACK, *FONT_LARGE],
    },
    variations=lambda rng: {"number": phone_number(rng)},
)
def test_messager_add_block_numbers(device, changes, number):
    # MobileAgentBench looked for the text 123456789 and no "OK" anywhere on the blocked numbers
    # screen; here the number must be in the saved block list, exactly.
    assert changes.value(SMS_MESSENGER, "files/blocked_numbers.json") == [number]
    assert app_data(device, SMS_MESSENGER, "blocked_numbers") == [number]


@not_applicable(
    field=ONE_SETTING,
    multiset=ONE_SETTING,
    allowance=NO_ALLOWANCE,
    lookalike="the stored setting is read, not the screen",
)
@task(
    prompt="Change the Font size to 'Large' in the settings interface",
    app=SMS_MESSENGER,
    name="messager_change_font_size",
    golden=[Tap(id=rid(SMS_MESSENGER, "settings")), Tap(text="Font size"), Tap(text="Large")],
    near_miss={
        "extra large": [Tap(id=rid(SMS_MESSENGER, "settings")), Tap(text="Font size"), Tap(text="Extra large")],
        "and a number blocked": [
            Tap(id=rid(SMS_MESSENGER, "settings")),
            *FONT_LARGE,
            Tap(text="Manage blocked numbers"),
            Tap(desc="Add a blocked number"),
            Type(NUMBER),
            Tap(text="OK"),
        ],
    },
)
def test_messager_change_font_size(changes):
    # The saved setting, not the value text of a settings screen (MobileAgentBench's check).
    assert changes.value(SMS_MESSENGER, pref("font_size")) == 2, "font size is not Large"


# -- a conversation with 123456789 (MobileAgentBench's setup) -----------------------------------


@not_applicable(
    field=SCREEN_ONLY,
    multiset=SCREEN_ONLY,
    allowance="only the read marks of opening the conversation are allowed (shared/conversations.py)",
)
@task(
    prompt="open the conversation with contact number '123456789', and check for a random message's properties",
    app=SMS_MESSENGER,
    name="messager_check_message_properties",
    golden=[OPEN, *message_menu("Properties")],
    near_miss={
        labelled("lookalike", "Select text's dialog instead"): [OPEN, *message_menu("Select text")],
        "a second message sent": [OPEN, *SEND_ANOTHER, *message_menu("Properties")],
    },
)
def test_messager_check_message_properties(conversation, ui, changes):
    # A dialog's window event carries only its title; the dialog itself must be on screen.
    read_marks(changes)
    assert_message_details(ui)


@not_applicable(
    multiset="one conversation, changed in place",
    allowance="only the read marks of opening it are allowed, and they must leave it read",
    lookalike="the archived flag is read from the provider, not the screen",
)
@task(
    prompt="make the conversation with number '123456789' archived",
    app=SMS_MESSENGER,
    name="messager_make_conversation_archived",
    # From the open conversation the menu archives without a confirmation (ThreadActivity
    # archiveConversation): 3 taps, the table's count. The list's action mode asks first (4 taps).
    golden=[OPEN, MORE, Tap(text="Archive")],
    near_miss={
        # Blocking also takes it off the main list, but it is not archived.
        "blocked instead": [OPEN, MORE, Tap(text="Block number"), Tap(text="Yes")],
        "a message sent, then archived": [OPEN, *SEND_ANOTHER, MORE, Tap(text="Archive")],
        labelled("field", "archived, and left unread"): [
            OPEN,
            *MARK_UNREAD,
            LongPress(id=rid(SMS_MESSENGER, "conversation_frame")),
            MORE,
            Tap(text="Archive"),
            Tap(text="Yes"),
        ],
    },
)
def test_messager_make_conversation_archived(conversation, device, changes):
    # MobileAgentBench accepted a click on "Yes" after the archive confirmation had been seen;
    # here the thread must be archived in the provider.
    read_marks(changes)
    change = changes.changed("conversations")
    assert change.after.get("archived") == "1", "the conversation is not archived"
    assert changed_fields(change) <= {"archived", "read"}, f"changed: {sorted(changed_fields(change))}"
    assert change.after.get("read") == "1", "the conversation was left unread, which nobody asked"
    out = device.sh(
        f"content query --uri content://mms-sms/conversations --projection archived --where \"address='{NUMBER}'\""
    )
    assert "archived=1" in out, f"the conversation is not archived: {out.strip()}"


@not_applicable(
    multiset=SCREEN_ONLY,
    allowance=NO_ALLOWANCE,
    lookalike="the search field and its own results are read, not the list under them",
)
@task(
    prompt="search for the contact '123456789' at top search bar",
    app=SMS_MESSENGER,
    name="messager_search_contacts",
    golden=[Tap(id=SEARCH), Type(NUMBER)],
    near_miss={
        "another number": [Tap(id=SEARCH), Type("987654321")],
        "a message sent first": [OPEN, *SEND_ANOTHER, BACK, Tap(id=SEARCH), Type(NUMBER)],
        labelled("field", "marked unread first"): [OPEN, *MARK_UNREAD, Tap(id=SEARCH), Type(NUMBER)],
    },
)
def test_messager_search_contacts(conversation, ui):
    assert_search_found(ui, NUMBER, title=NUMBER)


@not_applicable(
    multiset=SCREEN_ONLY,
    allowance=NO_ALLOWANCE,
    lookalike="the search field and its own results are read, not the list under them",
)
@task(
    prompt="search message 'i luv u' at the top search bar",
    app=SMS_MESSENGER,
    name="messager_search_message",
    golden=[Tap(id=SEARCH), Type(MESSAGE)],
    near_miss={
        "another message": [Tap(id=SEARCH), Type("i love u")],
        labelled("field", "archived first"): [OPEN, MORE, Tap(text="Archive"), Tap(id=SEARCH), Type(MESSAGE)],
    },
)
def test_messager_search_message(conversation, ui):
    assert_search_found(ui, MESSAGE, snippet=MESSAGE)


@not_applicable(
    field=SCREEN_ONLY,
    multiset=SCREEN_ONLY,
    allowance=NO_ALLOWANCE,
    lookalike="the check reads the Archive screen's own toolbar, not the thread menu's Archive",
)
@task(
    prompt="show me the archived conversations",
    app=SMS_MESSENGER,
    name="messager_show_archived_messages",
    golden=[MORE, Tap(text="Show archived conversations")],
    near_miss={
        "the menu closed": [MORE, Key("back")],
        "the font size changed first": [
            Tap(id=rid(SMS_MESSENGER, "settings")),
            *FONT_LARGE,
            BACK,
            MORE,
            Tap(text="Show archived conversations"),
        ],
    },
)
def test_messager_show_archived_messages(ui):
    # MobileAgentBench passed on any view reading "Archive" (the thread menu has one too); here
    # the Archive screen itself must be up.
    bar = ui.find(id=rid(SMS_MESSENGER, "archive_toolbar"))
    assert bar is not None and ui.tr("Archive") in bar.texts(), "the archived conversations are not shown"


# -- starting the conversation ------------------------------------------------------------------


# The table counts 8 steps; typing into a field is one action here (the number field has the
# focus when the screen opens, the message field is tapped and typed in one `Type`), so the
# shortest path is these 5. The table's "hard" band is kept.
CONVERSATION = pytest.mark.parametrize("number, message, other", [(NUMBER, MESSAGE, "i luv you")], ids=[NUMBER])


@CONVERSATION
@not_applicable(allowance=NO_ALLOWANCE, lookalike=NEW_SMS)
@task(
    prompt="start a conversation with number '{number}', and send a message '{message}'",
    app=SMS_MESSENGER,
    name="messager_start_a_conversation",
    golden=lambda number, message: start_conversation(number, message),
    golden_steps=5,
    difficulty="hard",
    near_miss={
        "another message": lambda number, other: start_conversation(number, other),
        "a second message sent": lambda number, message: [*start_conversation(number, message), *SEND_ANOTHER],
        labelled("field", "sent, and archived on the way"): lambda number, message: [
            *start_conversation(number, message),
            MORE,
            Tap(text="Archive"),
        ],
        labelled("multiset", "sent twice"): lambda number, message: [
            *start_conversation(number, message),
            *start_conversation(number, message)[-2:],
        ],
        labelled("field", "sent, then marked unread"): lambda number, message: [
            *start_conversation(number, message),
            *MARK_UNREAD,
        ],
    },
    variations=vary_conversation,
)
def test_messager_start_a_conversation(no_conversation, device, changes, number, message):
    # MobileAgentBench read the thread's first message bubble; here the message must have gone
    # out to 123456789 (the provider's outgoing boxes), and only it.
    sent_one(changes, number, message)
    assert_sent(device, number, message)


@CONVERSATION
@not_applicable(allowance=NO_ALLOWANCE, lookalike="one message in the conversation: no other's details to show")
@task(
    prompt="start a conversation with number '{number}', send a message '{message}', and check for message properties",
    app=SMS_MESSENGER,
    name="messager_create_conversation_and_check_message_properties",
    golden=lambda number, message: [*start_conversation(number, message), *message_menu("Properties")],
    near_miss={
        "another number": lambda number, message: [
            *start_conversation(wrong_digit(number), message),
            *message_menu("Properties"),
        ],
        "a second message sent": lambda number, message: [
            *start_conversation(number, message),
            *SEND_ANOTHER,
            *message_menu("Properties"),
        ],
        labelled("field", "archived on the way"): lambda number, message: [
            *start_conversation(number, message),
            MORE,
            Tap(text="Archive"),
            BACK,  # archived from a new conversation: New conversation first, then the list
            MORE,
            Tap(text="Show archived conversations"),
            OPEN,
            *message_menu("Properties"),
        ],
        labelled("multiset", "sent twice"): lambda number, message: [
            *start_conversation(number, message),
            *start_conversation(number, message)[-2:],
            *message_menu("Properties"),
        ],
    },
    variations=vary_conversation,
)
def test_messager_create_conversation_and_check_message_properties(
    no_conversation, ui, device, changes, number, message
):
    sent_one(changes, number, message)
    assert_message_details(ui, number)
    assert_sent(device, number, message)


def start_and_search(number: str, message: str) -> list:
    return [*start_conversation(number, message), BACK, BACK, Type(number, id=SEARCH)]


@CONVERSATION
@not_applicable(
    allowance=NO_ALLOWANCE,
    lookalike="the search field and its own results are read, not the list under them",
)
@task(
    prompt="start a conversation with number '{number}', and send a message '{message}', back to the main page and "
    "search for the contact '{number}'",
    app=SMS_MESSENGER,
    name="messager_create_conversation_and_search",
    # The thread sits on top of New conversation, so two toolbar Backs reach the main page; the
    # search field is tapped and typed in by one `Type`, which makes the table's 8.
    golden=lambda number, message: start_and_search(number, message),
    near_miss={
        "another message": lambda number, other: start_and_search(number, other),
        "a second message sent": lambda number, message: [
            *start_conversation(number, message),
            *SEND_ANOTHER,
            BACK,
            BACK,
            Type(number, id=SEARCH),
        ],
        labelled("field", "archived on the way"): lambda number, message: [
            *start_conversation(number, message),
            MORE,
            Tap(text="Archive"),
            BACK,
            Type(number, id=SEARCH),
        ],
        labelled("multiset", "sent twice"): lambda number, message: [
            *start_conversation(number, message),
            *start_conversation(number, message)[-2:],
            BACK,
            BACK,
            Type(number, id=SEARCH),
        ],
    },
    variations=vary_conversation,
)
def test_messager_create_conversation_and_search(no_conversation, ui, device, changes, number, message):
    sent_one(changes, number, message)
    assert_search_found(ui, number, title=number)
    assert_sent(device, number, message)
