"""Reading the goal back: the screen in front, and the durable state the `changes` fixture gives."""

from __future__ import annotations

from typing import Any

from pytest_mobile_agent.events.log import CLICKED, WINDOW_STATE
from task_suites.shared.apps import CALENDAR, MUSIC_PLAYER, NOTES, rid

EVENTS = "databases/events.db:events*"
NOTE = "files/notes.json*"
FLAG_ALL_DAY = 1


def in_front(device: Any, package: str, activity: str) -> None:
    current = device.current_app()
    assert current == (package, activity), f"in front: {current[0]}/{current[1]}, not {package}/{activity}"


def contact(changes: Any) -> dict:
    """The one contact added."""
    return changes.added("contacts")


# A contact's data rows a name, a number and an email make: the display and first name, the
# number or address and its type.
TYPED_FIELDS = {"name.data1", "name.data2", "phone.data1", "phone.data2", "email.data1", "email.data2"}


def assert_contact(found: dict, name: str, phone: str = "", email: str = "", *, starred: bool = False) -> None:
    assert found.get("name.data2") == name, f"first name {found.get('name.data2')!r}, not {name!r}"
    assert found.get("phone.data1", "") == phone, f"number {found.get('phone.data1')!r}, not {phone!r}"
    assert found.get("email.data1", "") == email, f"email {found.get('email.data1')!r}, not {email!r}"
    assert str(found.get("starred", "0")) == ("1" if starred else "0"), (
        f"{name} is a favourite, which nobody asked for" if not starred else f"{name} is not a favourite"
    )
    extra = {k for k in found if "." in k} - TYPED_FIELDS
    assert not extra, f"fields nobody asked for: { {k: found[k] for k in sorted(extra)} }"


def all_contacts(changes: Any) -> list[dict]:
    """Every contact added, in the order they were saved: a list, so the same contact saved
    twice shows."""
    return [c.after for c in sorted(changes.where("contacts", "added").changes, key=_row_id)]


def _row_id(change: Any) -> int:
    """A provider row's key is "#ID"; ids grow as rows are made."""
    return int(change.key.lstrip("#") or 0)


def sent(changes: Any) -> dict:
    """The one message sent (in a new conversation, left in the inbox: not archived)."""
    conversation = changes.added("conversations")
    assert conversation.get("archived") in ("0", None), "the conversation was archived, which nobody asked for"
    return changes.added("sms")


def assert_sent(message: dict, number: str, body: str) -> None:
    assert (message.get("address"), message.get("body")) == (number, body), (
        f"sent {message.get('body')!r} to {message.get('address')}, not {body!r} to {number}"
    )


def all_sent(changes: Any) -> list[tuple[str, str]]:
    """(address, body) of every message sent, in the order sent: a list, so a message sent
    twice or the order reversed shows. New conversations are the sending's own doing, left in
    the inbox."""
    for conversation in changes.where("conversations", "added").changes:
        assert conversation.after.get("archived") in ("0", None), f"{conversation.after.get('address')} was archived"
    added = sorted(changes.where("sms", "added").changes, key=_row_id)
    return [(m.after.get("address"), m.after.get("body")) for m in added]


def event(changes: Any) -> dict:
    """The one calendar event added (not a task)."""
    found = changes.added(CALENDAR, EVENTS)
    assert found["type"] == 0, f"saved a task, not an event: {found['title']!r}"
    return found


def events(changes: Any) -> list[dict]:
    return [c.after for c in changes.where(CALENDAR, "added", EVENTS).changes]


def assert_event(
    device: Any, found: dict, title: str, *, all_day: bool, location: str = "", description: str = ""
) -> None:
    """The event, on the device's today (an all-day event starts at midnight UTC, as the app stores it)."""
    from datetime import UTC, datetime

    day = datetime.fromtimestamp(found["start_ts"], UTC).date().isoformat()
    today = device.sh("date +%Y-%m-%d").strip()
    assert found["title"] == title, f"title {found['title']!r}, not {title!r}"
    assert day == today, f"on {day}, not today ({today})"
    assert bool(found["flags"] & FLAG_ALL_DAY) == all_day, f"all-day is {bool(found['flags'] & FLAG_ALL_DAY)}"
    assert found["location"] == location, f"location {found['location']!r}, not {location!r}"
    assert found["description"] == description, f"description {found['description']!r}, not {description!r}"
    assert found["repeat_interval"] == 0, f"repeats every {found['repeat_interval']} s, which nobody asked for"


def new_note(changes: Any) -> dict:
    return changes.added(NOTES, NOTE)


def assert_note(found: dict, title: str, text: str) -> None:
    """A text note, unlocked: a lock hides the text the task wrote."""
    assert (found["title"], found["value"]) == (title, text), (
        f"note {found['title']!r} reading {found['value']!r}, not {title!r} reading {text!r}"
    )
    assert (found["kind"], found["hash"]) == ("text", ""), (
        f"note {title!r} is a {'locked ' if found['hash'] else ''}{found['kind']} note, not an unlocked text note"
    )


def viewer_shows(ui: Any, package: str, name: str) -> None:
    """Gallery's viewer (ViewPagerActivity or PhotoActivity) shows the file `name`."""
    assert ui.exists(id=rid(package, "view_pager")), "no photo viewer on screen"
    assert ui.exists(text=name), f"the viewer does not show {name}"


def first_started(events: Any, title: str) -> int:
    """The sequence number of the first time `title` was started: a tap on it in Music Player,
    or the track screen coming up (a VIEW of the file)."""
    taps = [e.seq for e in events.find(CLICKED, text=title, package=MUSIC_PLAYER)]
    shown = [
        e.seq
        for e in events.of_type(WINDOW_STATE)
        if e.package == MUSIC_PLAYER and e.class_name.endswith("TrackActivity")
    ]
    assert taps or shown, f"{title} was never started in Music Player"
    return min(taps + shown)


PLAY_PAUSE = ("activity_track_play_pause", "current_track_play_pause")  # the track screen's, the bottom bar's


def assert_playing(ui: Any, events: Any, title: str) -> None:
    """`title` is the current track and it plays: every tap on a play/pause button since it was
    started toggles it (the bottom bar's button shows its state only as an icon)."""
    shown = [ui.text_of(rid(MUSIC_PLAYER, i)) for i in ("activity_track_title", "current_track_label")]
    assert any(t and t.split(" • ")[0] == title for t in shown), f"playing: {shown}"
    toggles = [e for name in PLAY_PAUSE for e in events.find(CLICKED, id=rid(MUSIC_PLAYER, name))]
    assert len(toggles) % 2 == 0, f"{title} was paused after it was started"
