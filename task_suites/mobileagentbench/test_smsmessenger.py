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

from .apps import SMS_MESSENGER, rid
from .reading import app_data
from .seeds import MESSAGE, NUMBER, conversation_123456789, remove_conversation

SEARCH = rid(SMS_MESSENGER, "top_toolbar_search")
MORE = Tap(desc="More options")
BACK = Tap(desc="Back")  # the toolbar's, which leaves the screen even while the keyboard is up


@pytest.fixture
def conversation(device):
    conversation_123456789(device)
    yield
    remove_conversation(device)


@pytest.fixture
def no_conversation(device):
    remove_conversation(device)
    yield
    remove_conversation(device)


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


def assert_sent(device) -> None:
    # MobileAgentBench compared case-insensitively; the words must be the prompt's.
    assert MESSAGE in [body.lower() for body in sent(device)], "no 'i luv u' sent to 123456789"


def assert_message_details(ui) -> None:
    """The Message details dialog of a message sent to 123456789 is on screen."""
    assert ui.exists(text="Message details"), "the Message details dialog is not shown"
    rows = dict(
        zip(
            [n.text for n in ui.find_all(id=rid(SMS_MESSENGER, "property_label"))],
            [n.text for n in ui.find_all(id=rid(SMS_MESSENGER, "property_value"))],
            strict=False,
        )
    )
    assert rows.get("Receiver") == NUMBER, f"details of the wrong message: {rows}"


def assert_search_found(ui, query: str, *, title: str | None = None, snippet: str | None = None) -> None:
    assert (ui.text_of(SEARCH) or "").lower() == query, f"the search field holds {ui.text_of(SEARCH)!r}"
    titles = [n.text for n in ui.find_all(id=rid(SMS_MESSENGER, "search_result_title"))]
    snippets = [n.text.lower() for n in ui.find_all(id=rid(SMS_MESSENGER, "search_result_snippet"))]
    assert title is None or title in titles, f"no search result titled {title}: {titles}"
    assert snippet is None or snippet in snippets, f"no search result reading {snippet!r}: {snippets}"


# -- settings -----------------------------------------------------------------------------------


@task(
    prompt="Add a number '123456789' to block list",
    app=SMS_MESSENGER,
    name="messager_add_block_numbers",
    golden=[
        Tap(id=rid(SMS_MESSENGER, "settings")),
        Tap(text="Manage blocked numbers"),
        Tap(desc="Add a blocked number"),
        Type(NUMBER),
        Tap(text="OK"),
    ],
    near_miss=[  # a digit short
        Tap(id=rid(SMS_MESSENGER, "settings")),
        Tap(text="Manage blocked numbers"),
        Tap(desc="Add a blocked number"),
        Type("12345678"),
        Tap(text="OK"),
    ],
)
def test_messager_add_block_numbers(device):
    # MobileAgentBench looked for the text 123456789 and no "OK" anywhere on the blocked numbers
    # screen; here the number must be in the saved block list, exactly.
    assert app_data(device, SMS_MESSENGER, "blocked_numbers") == [NUMBER]


@task(
    prompt="Change the Font size to 'Large' in the settings interface",
    app=SMS_MESSENGER,
    name="messager_change_font_size",
    golden=[Tap(id=rid(SMS_MESSENGER, "settings")), Tap(text="Font size"), Tap(text="Large")],
    near_miss=[Tap(id=rid(SMS_MESSENGER, "settings")), Tap(text="Font size"), Tap(text="Extra large")],
)
def test_messager_change_font_size(device):
    # The saved setting, not the value text of a settings screen (MobileAgentBench's check).
    assert (app_data(device, SMS_MESSENGER, "prefs") or {}).get("font_size") == 2, "font size is not Large"


# -- a conversation with 123456789 (MobileAgentBench's setup) -----------------------------------


@task(
    prompt="open the conversation with contact number '123456789', and check for a random message's properties",
    app=SMS_MESSENGER,
    name="messager_check_message_properties",
    golden=[Tap(id=rid(SMS_MESSENGER, "conversation_frame")), *message_menu("Properties")],
    near_miss=[Tap(id=rid(SMS_MESSENGER, "conversation_frame")), *message_menu("Select text")],
)
def test_messager_check_message_properties(conversation, ui):
    # A dialog's window event carries only its title; the dialog itself must be on screen.
    assert_message_details(ui)


@task(
    prompt="make the conversation with number '123456789' archived",
    app=SMS_MESSENGER,
    name="messager_make_conversation_archived",
    # From the open conversation the menu archives without a confirmation (ThreadActivity
    # archiveConversation): 3 taps, the table's count. The list's action mode asks first (4 taps).
    golden=[Tap(id=rid(SMS_MESSENGER, "conversation_frame")), MORE, Tap(text="Archive")],
    # Blocking also takes it off the main list, but it is not archived.
    near_miss=[Tap(id=rid(SMS_MESSENGER, "conversation_frame")), MORE, Tap(text="Block number"), Tap(text="Yes")],
)
def test_messager_make_conversation_archived(conversation, device):
    # MobileAgentBench accepted a click on "Yes" after the archive confirmation had been seen;
    # here the thread must be archived in the provider.
    out = device.sh(
        f"content query --uri content://mms-sms/conversations --projection archived --where \"address='{NUMBER}'\""
    )
    assert "archived=1" in out, f"the conversation is not archived: {out.strip()}"


@task(
    prompt="search for the contact '123456789' at top search bar",
    app=SMS_MESSENGER,
    name="messager_search_contacts",
    golden=[Tap(id=SEARCH), Type(NUMBER)],
    near_miss=[Tap(id=SEARCH), Type("987654321")],
)
def test_messager_search_contacts(conversation, ui):
    assert_search_found(ui, NUMBER, title=NUMBER)


@task(
    prompt="search message 'i luv u' at the top search bar",
    app=SMS_MESSENGER,
    name="messager_search_message",
    golden=[Tap(id=SEARCH), Type(MESSAGE)],
    near_miss=[Tap(id=SEARCH), Type("i love u")],
)
def test_messager_search_message(conversation, ui):
    assert_search_found(ui, MESSAGE, snippet=MESSAGE)


@task(
    prompt="show me the archived conversations",
    app=SMS_MESSENGER,
    name="messager_show_archived_messages",
    golden=[MORE, Tap(text="Show archived conversations")],
    near_miss=[MORE, Key("back")],  # the menu opened, then closed
)
def test_messager_show_archived_messages(ui):
    # MobileAgentBench passed on any view reading "Archive" (the thread menu has one too); here
    # the Archive screen itself must be up.
    bar = ui.find(id=rid(SMS_MESSENGER, "archive_toolbar"))
    assert bar is not None and "Archive" in bar.texts(), "the archived conversations are not shown"


# -- starting the conversation ------------------------------------------------------------------


# The table counts 8 steps; typing into a field is one action here (the number field has the
# focus when the screen opens, the message field is tapped and typed in one `Type`), so the
# shortest path is these 5. The table's "hard" band is kept.
@task(
    prompt="start a conversation with number '123456789', and send a message 'i luv u'",
    app=SMS_MESSENGER,
    name="messager_start_a_conversation",
    golden=start_conversation(),
    golden_steps=5,
    difficulty="hard",
    near_miss=start_conversation(message="i luv you"),
)
def test_messager_start_a_conversation(no_conversation, device):
    # MobileAgentBench read the thread's first message bubble; here the message must have gone
    # out to 123456789 (the provider's outgoing boxes).
    assert_sent(device)


@task(
    prompt="start a conversation with number '123456789', send a message 'i luv u', and check for message properties",
    app=SMS_MESSENGER,
    name="messager_create_conversation_and_check_message_properties",
    golden=[*start_conversation(), *message_menu("Properties")],
    near_miss=[*start_conversation(number="12345678"), *message_menu("Properties")],
)
def test_messager_create_conversation_and_check_message_properties(no_conversation, ui, device):
    assert_message_details(ui)
    assert_sent(device)


@task(
    prompt="start a conversation with number '123456789', and send a message 'i luv u', back to the main page and "
    "search for the contact '123456789'",
    app=SMS_MESSENGER,
    name="messager_create_conversation_and_search",
    # The thread sits on top of New conversation, so two toolbar Backs reach the main page; the
    # search field is tapped and typed in by one `Type`, which makes the table's 8.
    golden=[*start_conversation(), BACK, BACK, Type(NUMBER, id=SEARCH)],
    near_miss=[*start_conversation(message="i luv you"), BACK, BACK, Type(NUMBER, id=SEARCH)],
)
def test_messager_create_conversation_and_search(no_conversation, ui, device):
    assert_search_found(ui, NUMBER, title=NUMBER)
    assert_sent(device)
