"""Contacts and SMS Messenger sets: the providers' rows are read back (contacts, messages,
conversations), which `pm clear` of the apps does not reset, so each set clears them first."""

from __future__ import annotations

from pytest_mobile_agent import LongPress, Tap, Type
from pytest_mobile_agent.events.log import LONG_CLICKED
from task_suites.shared import conversations
from task_suites.shared.apps import CONTACTS, SMS_MESSENGER, rid
from task_suites.shared.near_misses import NO_ALLOWANCE, labelled
from task_suites.shared.seeds import add_contact, add_sms_thread, clear_contacts, clear_conversations
from task_suites.spabench.levels import Final, Part, SpaSet

ONE_SETTING = "one stored setting a level, read back; any other setting changed fails the task"
STORED = "the stored settings are read, not the screen"

# -- Contacts -----------------------------------------------------------------------------------

NEW_CONTACT = Tap(id=rid(CONTACTS, "fragment_fab"))
SAVE_CONTACT = Tap(desc="Save")
STAR = Tap(id=rid(CONTACTS, "contact_toggle_favorite"))
EDIT_CONTACT = Tap(desc="Edit contact")
BACK = Tap(desc="Back")  # the toolbar's
DELETE_ZACK = [Tap(text="Zack"), Tap(desc="Delete"), Tap(text="Yes")]


def contact_steps(name: str, number: str) -> list:
    return [
        NEW_CONTACT,
        Tap(id=rid(CONTACTS, "contact_first_name")),
        Type(name),
        Tap(id=rid(CONTACTS, "contact_number")),
        Type(number),
        SAVE_CONTACT,
    ]


def zack(device) -> None:
    """No contact but Zack, whom the tasks must leave alone."""
    clear_contacts(device)
    add_contact(device, "Zack", "555123")


def yuzai_and_zack(device) -> None:
    clear_contacts(device)
    add_contact(device, "Yuzai", "123456789")
    add_contact(device, "Zack", "555123")


def new_contact(f: Final) -> dict:
    """The one contact the task created, as saved at the end."""
    return f.changes.added("contacts")


def saved_as(name: str):
    def check(f: Final) -> None:
        contact = new_contact(f)
        assert contact.get("name.data2") == name, f"first name: {contact.get('name.data2')!r}"
        assert contact.get("phone.data1") == "5550100", f"number: {contact.get('phone.data1')!r}"

    return check


def agent_email(f: Final) -> None:
    assert new_contact(f).get("email.data1") == "agent@example.com", f"email: {new_contact(f).get('email.data1')!r}"


def starred(contact: dict) -> None:
    assert contact.get("starred") == "1", f"{contact.get('display_name')} is not a favorite"


def agent_only_fields(f: Final) -> None:
    """Nothing typed into a field the prompt did not name; a favorite only when asked."""
    contact = new_contact(f)
    asked = {"name.data1", "name.data2", "phone.data1", "phone.data2"} | (
        {"email.data1", "email.data2"} if f.level > 1 else set()
    )
    extra = {k for k in contact if "." in k} - asked
    assert not extra, f"fields the prompt did not name: { {k: contact[k] for k in sorted(extra)} }"
    assert f.level == 3 or contact.get("starred") == "0", "starred, which nobody asked"


def yuzai_changed(f: Final) -> dict:
    change = f.changes.changed("contacts")
    assert change.after.get("display_name") == "Yuzai", f"changed the contact {change.after.get('display_name')}"
    fields = {k for k in set(change.before) | set(change.after) if change.before.get(k) != change.after.get(k)}
    asked = {"phone.data1", "version", "dirty"} | ({"starred"} if f.level == 3 else set())
    assert fields <= asked, f"changed: {sorted(fields)}"
    return change.after


def yuzai_number(f: Final) -> None:
    number = yuzai_changed(f).get("phone.data1")
    assert number == "987654321", f"Yuzai's number: {number}"


def yuzai_details(f: Final) -> None:
    assert f.ui.text_of(rid(CONTACTS, "contact_name")) == "Yuzai", "Yuzai's details are not shown"


# The new contact's name as each language's task types it.
AGENT = {"ENG": "Agent", "CHN": "小明"}


def contacts_0(lang: str) -> SpaSet:
    name = AGENT[lang]
    return SpaSet(
        name="contacts_0",
        not_applicable=dict(
            field="agent_only_fields reads every field of the contact and its favorite flag at every level",
            multiset="one contact, saved at level 1 and changed in place after: a second shows",
            allowance=NO_ALLOWANCE,
            lookalike="the contact is read from the provider, not a screen",
        ),
        app=CONTACTS,
        setup=zack,
        parts=(
            Part(
                f"Create a contact named '{name}' with the phone number 5550100.",
                f"新建一个名为“{name}”的联系人，电话号码是5550100。",
                contact_steps(name, "5550100"),
                check=saved_as(name),
                keys=[name],
                wrong=("a digit missed", contact_steps(name, "555010")),
                misses=(
                    (
                        labelled("field", "saved as a favorite"),
                        [*contact_steps(name, "5550100")[:-1], STAR, SAVE_CONTACT],
                    ),
                    (
                        labelled("multiset", "saved twice"),
                        2 * contact_steps(name, "5550100"),
                    ),
                ),
            ),
            Part(
                "Add the email agent@example.com to it.",
                "给这个联系人添加邮箱agent@example.com。",
                [
                    Tap(text=name),
                    EDIT_CONTACT,
                    Tap(id=rid(CONTACTS, "contact_email")),
                    Type("agent@example.com"),
                    SAVE_CONTACT,
                ],
                check=agent_email,
                keys=["agent@example.com"],
                wrong=(
                    "the email as the surname",
                    [
                        Tap(text=name),
                        EDIT_CONTACT,
                        Tap(id=rid(CONTACTS, "contact_surname")),
                        Type("agent@example.com"),
                        SAVE_CONTACT,
                    ],
                ),
            ),
            Part(
                "Then add it to the favorites.",
                "然后把它加入收藏。",
                [STAR],
                check=lambda f: starred(new_contact(f)),
                keys=["agent@example.com"],
                wrong=("Zack starred instead", [BACK, Tap(text="Zack"), STAR]),
            ),
        ),
        finish=agent_only_fields,
        extra=("and Zack deleted", lambda level: [*([BACK] if level > 1 else []), *DELETE_ZACK]),
    )


CONTACT_SETS = [
    contacts_0,
    SpaSet(
        name="contacts_1",
        not_applicable=dict(
            field="Yuzai's contact is compared field by field: only the number, then the favorite flag, may change",
            multiset="one contact, changed in place",
            allowance=NO_ALLOWANCE,
            lookalike="the contact is read from the provider; the details shown must be Yuzai's",
        ),
        app=CONTACTS,
        setup=yuzai_and_zack,
        parts=(
            Part(
                "Open the contact Yuzai.",
                "打开联系人Yuzai。",
                [Tap(text="Yuzai")],
                shown=yuzai_details,
                keys=["123456789"],
                wrong=(labelled("lookalike", "Zack's details instead"), [Tap(text="Zack")]),
            ),
            Part(
                "Change its phone number to 987654321.",
                "把他的电话号码改为987654321。",
                [EDIT_CONTACT, LongPress(id=rid(CONTACTS, "contact_number")), Type("987654321"), SAVE_CONTACT],
                check=yuzai_number,
                shown=yuzai_details,
                keys=["987654321"],
                wrong=(
                    "a digit missed",
                    [EDIT_CONTACT, LongPress(id=rid(CONTACTS, "contact_number")), Type("98765432"), SAVE_CONTACT],
                ),
                misses=(
                    (
                        labelled("field", "made a favorite on the way"),
                        [
                            EDIT_CONTACT,
                            LongPress(id=rid(CONTACTS, "contact_number")),
                            Type("987654321"),
                            STAR,
                            SAVE_CONTACT,
                        ],
                    ),
                ),
            ),
            Part(
                "Then add Yuzai to the favorites.",
                "然后把Yuzai加入收藏。",
                [STAR],
                check=lambda f: starred(yuzai_changed(f)),
                shown=yuzai_details,
                keys=["987654321"],
                wrong=("Zack starred instead", [BACK, Tap(text="Zack"), STAR]),
            ),
        ),
        extra=("and Zack deleted", [BACK, *DELETE_ZACK]),
    ),
]

# -- SMS Messenger ------------------------------------------------------------------------------

SMS_OPEN = Tap(id=rid(SMS_MESSENGER, "conversation_frame"))
MESSAGE_FIELD = rid(SMS_MESSENGER, "thread_type_message")
SEND = Tap(id=rid(SMS_MESSENGER, "thread_send_message"))
SMS_MORE = Tap(desc="More options")
# From a conversation: archive it (back to the list), then open it again from the archive.
ARCHIVE_AND_REOPEN = [SMS_MORE, Tap(text="Archive"), SMS_MORE, Tap(text="Show archived conversations"), SMS_OPEN]
# The same from a conversation started anew: the archive returns to New conversation first.
ARCHIVE_AND_REOPEN_NEW = [*ARCHIVE_AND_REOPEN[:2], Tap(desc="Back"), *ARCHIVE_AND_REOPEN[2:]]


def start_conversation(number: str, message: str) -> list:
    return [
        Tap(id=rid(SMS_MESSENGER, "conversations_fab")),
        Type(number),
        Tap(id=rid(SMS_MESSENGER, "new_conversation_confirm")),
        Type(message, id=MESSAGE_FIELD),
        SEND,
    ]


def reply(message: str) -> list:
    return [Type(message, id=MESSAGE_FIELD), SEND]


def conversation(device) -> None:
    """MobileAgentBench's setup: a conversation with 123456789 holding the sent 'i luv u'."""
    clear_conversations(device)
    add_sms_thread(device)


def sent_messages(f: Final, number: str, bodies: list[str]) -> None:
    """Exactly these messages went out to `number`, in this order."""
    added = [c.after for c in f.changes.where("sms", "added")]
    got = [(m.get("address"), m.get("body")) for m in added]
    assert got == [(number, b) for b in bodies], f"messages sent: {got}"


def read_marks(f: Final) -> None:
    """Opening a conversation marks its messages read (and seen): the app's doing, no goal's."""
    conversations.read_marks(f.changes)


def new_thread(f: Final) -> dict:
    return f.changes.added("conversations")


def thread_with(number: str):
    def shown(f: Final) -> None:
        bodies = [n.text for n in f.ui.find_all(id=rid(SMS_MESSENGER, "thread_message_body"))]
        assert f.ui.exists(text=number) and bodies, f"the conversation with {number} is not shown"

    return shown


def archived(f: Final) -> None:
    thread = new_thread(f)
    assert thread.get("archived") == "1", "the conversation is not archived"
    assert thread.get("read") == "1", "the conversation was left unread, which nobody asked"


def archived_when_asked(f: Final) -> None:
    assert f.level == 3 or new_thread(f).get("archived") == "0", "archived, which nobody asked"


def replied(f: Final) -> None:
    sent_messages(f, "123456789", ["On my way"])
    read_marks(f)
    thread = conversations.replied(f.changes)
    assert thread.get("snippet") == "On my way", f"the conversation's last message: {thread.get('snippet')!r}"


def reply_details(f: Final) -> None:
    rows = dict(
        zip(
            [n.text for n in f.ui.find_all(id=rid(SMS_MESSENGER, "property_label"))],
            [n.text for n in f.ui.find_all(id=rid(SMS_MESSENGER, "property_value"))],
            strict=False,
        )
    )
    assert "123456789" in rows.values(), f"the Message details dialog of a message to 123456789 is not shown: {rows}"
    # The seeded message to the same number shows the same dialog: the one long-pressed says whose.
    pressed = f.events.of_type(LONG_CLICKED)
    assert pressed and "On my way" in pressed[-1].text, "the details shown are not the reply's"


SMS_SETS = [
    SpaSet(
        name="smsmessenger_0",
        not_applicable=dict(
            field="the archived flag is read at every level, and the conversation shown is read",
            multiset="the messages sent are compared as a list, in order",
            allowance=NO_ALLOWANCE,
            lookalike="the messages are read from the provider; the thread shown must be 5550100's",
        ),
        app=SMS_MESSENGER,
        setup=clear_conversations,
        parts=(
            Part(
                "Send the message 'Hello' to 5550100.",
                "给5550100发送短信“Hello”。",
                start_conversation("5550100", "Hello"),
                check=lambda f: sent_messages(f, "5550100", ["Hello", "See you at 6"][: min(f.level, 2)]),
                shown=thread_with("5550100"),
                keys=["5550100", "Hello"],
                wrong=("another number", start_conversation("5550101", "Hello")),
                misses=(
                    (
                        labelled("multiset", "Hello sent twice"),
                        [*start_conversation("5550100", "Hello"), *reply("Hello")],
                    ),
                ),
            ),
            Part(
                "Then send 'See you at 6' in the same conversation.",
                "然后在同一个对话中再发送“See you at 6”。",
                reply("See you at 6"),
                shown=thread_with("5550100"),
                keys=["Hello", "See you at 6"],
                wrong=("a typo", reply("See you at 7")),
                misses=(
                    (
                        labelled("field", "archived on the way, reopened"),
                        [*reply("See you at 6"), *ARCHIVE_AND_REOPEN_NEW],
                    ),
                ),
            ),
            Part(
                "Finally archive this conversation.",
                "最后将这个对话归档。",
                [SMS_MORE, Tap(text="Archive")],
                check=archived,
                keys=["5550100"],  # the New conversation screen the archive returns to
                wrong=("blocked instead", [SMS_MORE, Tap(text="Block number"), Tap(text="Yes")]),
                misses=(
                    (
                        labelled("field", "archived, and left unread"),
                        [
                            SMS_MORE,
                            Tap(text="Mark as Unread"),
                            BACK,
                            LongPress(id=rid(SMS_MESSENGER, "conversation_frame")),
                            SMS_MORE,
                            Tap(text="Archive"),
                            Tap(text="Yes"),
                        ],
                    ),
                ),
            ),
        ),
        finish=archived_when_asked,
        extra=(
            "and a second conversation started",
            lambda level: [*[BACK] * (1 if level == 3 else 2), *start_conversation("5550199", "Hi")],
        ),
    ),
    SpaSet(
        name="smsmessenger_1",
        not_applicable=dict(
            field="the conversation may change only as opening and a reply do, and must be left read",
            multiset="the messages sent are compared as a list",
            allowance="only the read marks of opening the conversation, and a reply's own changes",
            lookalike="the thread shown must be 123456789's; the details must be of the message long-pressed",
        ),
        app=SMS_MESSENGER,
        setup=conversation,
        parts=(
            Part(
                "Open the conversation with 123456789.",
                "打开与123456789的对话。",
                [SMS_OPEN],
                check=read_marks,
                shown=thread_with("123456789"),
                wrong=("the search opened instead", [Tap(id=rid(SMS_MESSENGER, "top_toolbar_search"))]),
            ),
            Part(
                "Reply 'On my way'.",
                "回复“On my way”。",
                reply("On my way"),
                check=replied,
                shown=thread_with("123456789"),
                keys=["On my way"],
                wrong=("a typo", reply("On my wya")),
                misses=(
                    (labelled("allowance", "replied, archived, reopened"), [*reply("On my way"), *ARCHIVE_AND_REOPEN]),
                ),
            ),
            Part(
                "Then show the properties of your reply.",
                "然后查看这条回复的属性。",
                [LongPress(text="On my way"), SMS_MORE, Tap(text="Properties")],
                shown=reply_details,
                keys=["15.05.2024"],
                wrong=(
                    labelled("lookalike", "Select text's dialog instead"),
                    [LongPress(text="On my way"), SMS_MORE, Tap(text="Select text")],
                ),
                misses=(
                    (
                        labelled("lookalike", "the first message's properties"),
                        [LongPress(text="i luv u"), SMS_MORE, Tap(text="Properties")],
                    ),
                ),
            ),
        ),
        extra=(
            "and the conversation archived",
            lambda level: [*([Tap(text="OK")] if level == 3 else []), SMS_MORE, Tap(text="Archive")],
        ),
    ),
]
