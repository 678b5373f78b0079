"""What the queries are made of: the two golden paths, the API calls, the UI steps they share,
and the CheckPoints that accept either path.

API calls are the `adb shell` commands Mobile-Bench's agent emits (its history records them
without `adb shell`): an intent an app declares (`am start -a ... -t ... --es ... -p PKG`; the
package, as in Mobile-Bench's own API list, names the app for the package CheckPoint and keeps
the resolver away), or the app's launcher entry (`monkey -p PKG -c android.intent.category.LAUNCHER 1`, since an
implicit MAIN intent reaches no launcher alias). UI steps address elements by resource id where
the text is the user's own data or would change with the locale; app names and menu texts are
followed in the device's locale by the oracle.
"""

from __future__ import annotations

import os
import shlex
from collections.abc import Callable, Sequence
from typing import Any

from pytest_mobile_agent import Api, Key, Tap, Type
from pytest_mobile_agent.actions import Action
from task_suites.shared.apps import (
    APP_NAMES,
    CALCULATOR,
    CALENDAR,
    CONTACTS,
    NOTES,
    SMS_MESSENGER,
    VOICE_RECORDER,
    rid,
)

GOLDEN_ENV = "MOBILEBENCH_GOLDEN"
SAST, SAMT, MAMT = 10, 20, 50  # Mobile-Bench's step limits (§4.2)
A = "android.intent.action."
EXTRA_TEXT = "android.intent.extra.TEXT"


def golden(api: Sequence[Action], ui: Sequence[Action]) -> Callable[[], list[Action]]:
    """Both ways to the goal; the oracle replays `ui`, or `api` when MOBILEBENCH_GOLDEN=api."""

    def chosen() -> list[Action]:
        which = os.environ.get(GOLDEN_ENV, "ui")
        if which not in ("ui", "api"):
            raise ValueError(f"{GOLDEN_ENV} must be 'ui' or 'api', not {which!r}")
        return list(api if which == "api" else ui)

    return chosen


def checkpoints(packages: str | Sequence[str], phrases: Sequence[Any], api: Sequence[Sequence[str]]) -> dict:
    """Mobile-Bench's CheckPoints: the packages, the key phrases (the user's data, which both
    paths carry), and per API call a `|` group: the call, or the UI step that does its part."""
    return {
        "package": packages if isinstance(packages, str) else list(packages),
        "key_phrases": list(phrases),
        "api": [["|", *either] for either in api],
    }


def q(text: str) -> str:
    """A value quoted for the device's shell."""
    return shlex.quote(text)


# -- API calls ------------------------------------------------------------------------------------
def open_app(package: str) -> Action:
    return Api(f"monkey -p {package} -c android.intent.category.LAUNCHER 1")


def insert_contact(**extras: str) -> Action:
    """Contacts' EditContactActivity takes name, phone and email (ContactsContract.Intents.Insert)."""
    args = "".join(f" --es {k} {q(v)}" for k, v in extras.items())
    return Api(f"am start -a {A}INSERT -t vnd.android.cursor.dir/contact{args} -p {CONTACTS}")


def insert_event(title: str, *, all_day: bool = False, location: str = "", description: str = "") -> Action:
    """Calendar's EventActivity reads title, eventLocation, description and allDay (and beginTime/
    endTime as longs; without them the event starts now)."""
    args = f"--es title {q(title)}"
    if location:
        args += f" --es eventLocation {q(location)}"
    if description:
        args += f" --es description {q(description)}"
    if all_day:
        args += " --ez allDay true"
    return Api(f"am start -a {A}INSERT -t vnd.android.cursor.item/event {args} -p {CALENDAR}")


def sms_to(number: str, body: str) -> Action:
    """SMS Messenger takes SENDTO smsto:NUMBER to the thread, sms_body in its message field."""
    return Api(f"am start -a {A}SENDTO -d smsto:{number} --es sms_body {q(body)} -p {SMS_MESSENGER}")


def share_text(package: str, text: str) -> Action:
    """SEND text/plain to one app (-p: no resolver)."""
    return Api(f"am start -a {A}SEND -t text/plain -p {package} --es {EXTRA_TEXT} {q(text)}")


def view(path: str, mime: str, package: str) -> Action:
    return Api(f"am start -a {A}VIEW -d file://{path} -t {mime} -p {package}")


def record_sound() -> Action:
    return Api(f"am start -a android.provider.MediaStore.RECORD_SOUND -p {VOICE_RECORDER}")


def app_settings(package: str) -> Action:
    return Api(f"am start -a {A}APPLICATION_PREFERENCES -p {package}")


# -- UI steps -------------------------------------------------------------------------------------
HOME = Key("home")
MORE = Tap(desc="More options")
SAVE = Tap(desc="Save")
OK = Tap(text="OK")


def tap_icon(package: str) -> Action:
    """The app's icon on the home screen."""
    return Tap(text=APP_NAMES[package])


CONTACT_FAB = Tap(id=rid(CONTACTS, "fragment_fab"))
FIRST_NAME = rid(CONTACTS, "contact_first_name")
NUMBER_FIELD = rid(CONTACTS, "contact_number")
EMAIL_FIELD = rid(CONTACTS, "contact_email")
STAR = Tap(id=rid(CONTACTS, "contact_toggle_favorite"))


def contact_form(name: str, phone: str = "", email: str = "") -> list[Action]:
    """In the new-contact editor: each field tapped and typed (a `Type` with an id does both)."""
    steps = [Type(name, id=FIRST_NAME)]
    if phone:
        steps.append(Type(phone, id=NUMBER_FIELD))
    if email:
        steps.append(Type(email, id=EMAIL_FIELD))
    return steps


CALENDAR_FAB = Tap(id=rid(CALENDAR, "calendar_fab"))
ALL_DAY = Tap(id=rid(CALENDAR, "event_all_day"))
DISCLAIMER_OK = OK  # the first save with a reminder on a fresh app shows the reminders disclaimer
REPEAT_WEEKLY = [Tap(id=rid(CALENDAR, "event_repetition")), Tap(text="Weekly")]  # in the event editor


def event_form(title: str, *, all_day: bool = False, location: str = "", description: str = "") -> list[Action]:
    """From the calendar: the FAB offers Event or Task; the new event's title has the focus."""
    steps: list[Action] = [CALENDAR_FAB, Tap(text="Event"), Type(title)]
    if location:
        steps.append(Type(location, id=rid(CALENDAR, "event_location")))
    if description:
        steps.append(Type(description, id=rid(CALENDAR, "event_description")))
    if all_day:
        steps.append(ALL_DAY)
    return steps


MESSAGE_FIELD = rid(SMS_MESSENGER, "thread_type_message")
SEND_SMS = Tap(id=rid(SMS_MESSENGER, "thread_send_message"))
ARCHIVE = [MORE, Tap(text="Archive")]  # from a conversation: archived, back to the list


def compose(number: str, body: str) -> list[Action]:
    """From the conversation list: new conversation (the number field has the focus), confirm,
    then the message."""
    return [
        Tap(id=rid(SMS_MESSENGER, "conversations_fab")),
        Type(number),
        Tap(id=rid(SMS_MESSENGER, "new_conversation_confirm")),
        Type(body, id=MESSAGE_FIELD),
        SEND_SMS,
    ]


NEW_NOTE = Tap(id=rid(NOTES, "new_note"))
NOTE_TEXT = rid(NOTES, "text_note_view")


def note(title: str, text: str = "") -> list[Action]:
    """From Notes: a new text note (the dialog's label field has the focus), then its text."""
    steps = [NEW_NOTE, Type(title), OK]
    return steps + [Type(text, id=NOTE_TEXT)] if text else steps


def lock_note(pin: str = "2580") -> list[Action]:
    """From an open note: Lock note, the warning's OK, a PIN typed twice."""
    digits = [Tap(id=rid(NOTES, f"pin_{d}")) for d in pin] + [Tap(id=rid(NOTES, "pin_ok"))]
    return [MORE, Tap(text="Lock note"), OK, Tap(text="PIN"), *digits, *digits]


def shared_note(title: str) -> list[Action]:
    """After SEND text to Notes: "Add to note" -> a new note, its label, OK."""
    return [Tap(text="Create a new note"), Type(title), OK]


def calc(keys: str) -> list[Action]:
    """Calculator keys by id: digits `btn_N`, operators by name."""
    names = {"+": "btn_plus", "-": "btn_minus", "*": "btn_multiply", "/": "btn_divide", "=": "btn_equals"}
    return [Tap(id=rid(CALCULATOR, names.get(k, f"btn_{k}"))) for k in keys]
