"""Preconditions several apps' tasks share, as plain functions of the device: adb-level means,
and `run_in_app` for state only an app's own screens can make.

Task files wrap them in fixtures. Append new seeds at the end; do not change existing ones.
"""

from __future__ import annotations

from typing import Any

from pytest_mobile_agent.device.ui_tree import localize_action
from pytest_mobile_agent.locales import DEFAULT_LOCALE

NUMBER = "123456789"
MESSAGE = "i luv u"


def remove_conversation(device: Any, number: str = NUMBER) -> None:
    """Delete the number's messages and its thread, so no earlier episode's conversation (sent,
    archived) is left over: `pm clear` of an app does not touch the telephony provider."""
    device.sh(f"content delete --uri content://sms --where \"address='{number}'\"")
    device.sh(f"content delete --uri content://mms-sms/conversations --where \"address='{number}'\"")


def conversation_123456789(device: Any) -> None:
    """MobileAgentBench's SMS setup: a conversation with 123456789 holding the sent 'i luv u'."""
    remove_conversation(device)
    device.sh(f"content insert --uri content://sms/sent --bind address:s:{NUMBER} --bind 'body:s:{MESSAGE}'")


RAW_CONTACTS = "content://com.android.contacts/raw_contacts"
CONTACT_DATA = "content://com.android.contacts/data"


def remove_contacts(device: Any, *names: str) -> None:
    """Delete the named contacts: the contacts provider, too, outlives `pm clear` of an app."""
    where = " OR ".join(f"display_name='{name}'" for name in names)
    device.sh(f'content delete --uri {RAW_CONTACTS} --where "{where}"')


def add_contact(device: Any, name: str, number: str, email: str = "") -> None:
    """A phone-storage contact (no account) with a name, a mobile number and maybe a home email,
    as raw_contacts + data rows; `content insert` prints no id, so the newest _id is read back."""
    device.sh(f"content insert --uri {RAW_CONTACTS} --bind account_name:n: --bind account_type:n:")
    out = device.sh(f"content query --uri {RAW_CONTACTS} --projection _id --sort '_id DESC'")
    raw_id = int(out.split("_id=", 1)[1].split(",", 1)[0].split()[0])
    rows = [
        ("vnd.android.cursor.item/name", name, f"--bind data2:s:{name}"),
        ("vnd.android.cursor.item/phone_v2", number, "--bind data2:i:2"),  # 2 = Mobile
    ]
    if email:
        rows.append(("vnd.android.cursor.item/email_v2", email, "--bind data2:i:1"))  # 1 = Home
    device.sh(
        "; ".join(
            f"content insert --uri {CONTACT_DATA} --bind raw_contact_id:i:{raw_id} --bind mimetype:s:{mime} "
            f"--bind data1:s:{value} {extra}"
            for mime, value, extra in rows
        )
    )


def contact_yuzai(device: Any, email: str = "") -> None:
    """MobileAgentBench's contacts setup: the contact Yuzai with the number 123456789 (and only one)."""
    remove_contacts(device, "Yuzai")
    add_contact(device, "Yuzai", NUMBER, email)


def run_in_app(device: Any, package: str, actions: list) -> None:
    """Harness-driven UI steps of a precondition, for state only an app's screens can make: the
    app launched, then each action taken on the screen it shows (its English texts as the
    device's locale shows them)."""
    device.launch(package)
    run_steps(device, package, actions)


def clear_contacts(device: Any) -> None:
    """Delete every contact, so a task's screens and counts do not depend on what an earlier
    episode left (a contact renamed, one added twice). The device is the benchmark's own: on a
    personal phone this deletes its contacts."""
    device.sh(f"content delete --uri {RAW_CONTACTS}")


def clear_conversations(device: Any) -> None:
    """Delete every SMS and thread, for the same reason (the benchmark's own device)."""
    device.sh("content delete --uri content://sms; content delete --uri content://mms-sms/conversations")


def add_sms_thread(device: Any, number: str = NUMBER, message: str = MESSAGE) -> None:
    """A conversation with `number` holding the sent `message` (after clear_conversations)."""
    device.sh(f"content insert --uri content://sms/sent --bind address:s:{number} --bind 'body:s:{message}'")


def run_steps(device: Any, package: str, actions: list) -> None:
    """Harness-driven UI steps on the screen the device shows, each on the screen the last one
    left; texts written in English are matched as the device's locale shows them."""
    for action in actions:
        ui = device.ui()
        device.execute(localize_action(action, ui, (package,), getattr(device, "locale", DEFAULT_LOCALE)), ui)


MUSIC_DIR = "/sdcard/Music"


def tagged_mp3(title: str, artist: str, album: str, year: int) -> bytes:
    """An ID3v2.3 header with TIT2/TPE1/TALB/TYER frames, then a few silent MPEG-1 layer III frames."""
    frames = b""
    for frame_id, value in (("TIT2", title), ("TPE1", artist), ("TALB", album), ("TYER", str(year))):
        payload = b"\x00" + value.encode("latin-1")  # encoding byte 0: ISO-8859-1
        frames += frame_id.encode() + len(payload).to_bytes(4, "big") + b"\x00\x00" + payload
    size = len(frames)
    synchsafe = bytes((size >> shift) & 0x7F for shift in (21, 14, 7, 0))
    # 128 kbps, 44.1 kHz, no padding: 417-byte frames.
    mpeg = (b"\xff\xfb\x90\x00" + bytes(413)) * 8
    return b"ID3\x03\x00\x00" + synchsafe + frames + mpeg


def push_tracks(device, tracks) -> None:
    now = int(device.sh("date +%s"))  # the device's clock, not the host's: dated as the device sees it
    for name, title, artist, album, year in tracks:
        device.push(tagged_mp3(title, artist, album, year), f"{MUSIC_DIR}/{name}", mtime=now)


def remove_tracks(device, tracks) -> None:
    device.sh("rm -f " + " ".join(f"{MUSIC_DIR}/{name}" for name, *_ in tracks))
