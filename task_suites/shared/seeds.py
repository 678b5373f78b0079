"""Preconditions several apps' tasks share, as plain functions of the device: adb-level means,
and `run_in_app` for state only an app's own screens can make.

Every seed reads back what it made (a provider row, a file) and raises PreconditionError when
it is not there: a task whose start state is not what it declares is broken, whatever the agent
does. Each thing read back is also declared (`DECLARED`), for the start-state gate in
tests/suites. Shell commands quote their values with `shell_quote`, SQL literals with `sql_text`.

Task files wrap them in fixtures. Append new seeds at the end; do not change what existing ones make.
"""

from __future__ import annotations

from typing import Any

from pytest_mobile_agent.device.android import shell_quote
from pytest_mobile_agent.device.durable_state import content_rows
from pytest_mobile_agent.device.ui_tree import localize_action
from pytest_mobile_agent.errors import PreconditionError
from pytest_mobile_agent.locales import DEFAULT_LOCALE
from task_suites.shared.audio import mp3

NUMBER = "123456789"
MESSAGE = "i luv u"
SMS = "content://sms"
# What the running task's fixtures made, as (durable-state area, fields or path): the
# start-state gate reads each back from the durable state the agent starts from.
DECLARED: list[tuple[str, Any]] = []


def sql_text(value: str) -> str:
    """`value` as an SQL string literal (a `--where` clause's), whatever quotes it holds."""
    return "'" + value.replace("'", "''") + "'"


def query(device: Any, uri: str, where: str = "", projection: str = "") -> list[dict[str, str]]:
    """The rows of a `content query` (a provider's error raises ShellCommandError)."""
    command = f"content query --uri {uri}"
    command += f" --projection {projection}" if projection else ""
    command += f" --where {shell_quote(where)}" if where else ""
    return content_rows(device.sh(command).splitlines()) or []


def expect_rows(device: Any, uri: str, where: str, what: str, count: int = 1) -> list[dict[str, str]]:
    """The rows `where` selects, which a seed has just made: exactly `count`, or PreconditionError."""
    rows = query(device, uri, where)
    if len(rows) != count:
        raise PreconditionError(
            f"precondition {what}: expected {count} row(s) in {uri} where {where}, found {len(rows)} "
            f"(`content query --uri {uri} --where {shell_quote(where)}`)"
        )
    return rows


def expect_files(device: Any, *paths: str) -> None:
    """Each pushed file is there (listed by `ls`), or PreconditionError naming the missing ones."""
    out = device.sh("ls -d " + " ".join(shell_quote(p) for p in paths) + " 2>&1", check=False)
    listed = set(out.splitlines())
    missing = [p for p in paths if p not in listed]
    if missing:
        raise PreconditionError(
            f"precondition files: {', '.join(missing)} not on the device after the push ({out.strip()[-200:]})"
        )
    DECLARED.extend(("files", p) for p in paths)


def push_files(device: Any, files: Any, mtime: int = 0) -> None:
    """Push (path, bytes) pairs, then list them back."""
    files = list(files)
    for path, data in files:
        device.push(data, path, mtime=mtime)
    expect_files(device, *(path for path, _ in files))


def add_sms(device: Any, box: str, number: str, body: str) -> None:
    """One message in `box` (sent, inbox) with `number`, read back by address and body."""
    where = f"address={sql_text(number)} AND body={sql_text(body)}"
    before = len(query(device, SMS, where))
    device.sh(f"content insert --uri {SMS}/{box} --bind address:s:{number} --bind {shell_quote('body:s:' + body)}")
    expect_rows(device, SMS, where, f"an SMS {box} {number}: {body!r}", count=before + 1)
    DECLARED.append(("sms", {"address": number, "body": body}))


def remove_conversation(device: Any, number: str = NUMBER) -> None:
    """Delete the number's messages and its thread, so no earlier episode's conversation (sent,
    archived) is left over: `pm clear` of an app does not touch the telephony provider."""
    where = shell_quote(f"address={sql_text(number)}")
    device.sh(f"content delete --uri {SMS} --where {where}")
    device.sh(f"content delete --uri content://mms-sms/conversations --where {where}")
    expect_rows(device, SMS, f"address={sql_text(number)}", f"no SMS with {number}", count=0)


def conversation_123456789(device: Any) -> None:
    """MobileAgentBench's SMS setup: a conversation with 123456789 holding the sent 'i luv u'."""
    remove_conversation(device)
    add_sms(device, "sent", NUMBER, MESSAGE)


RAW_CONTACTS = "content://com.android.contacts/raw_contacts"
CONTACT_DATA = "content://com.android.contacts/data"


def remove_contacts(device: Any, *names: str) -> None:
    """Delete the named contacts: the contacts provider, too, outlives `pm clear` of an app."""
    where = " OR ".join(f"display_name={sql_text(name)}" for name in names)
    device.sh(f"content delete --uri {RAW_CONTACTS} --where {shell_quote(where)}")


def add_contact(device: Any, name: str, number: str, email: str = "") -> None:
    """A phone-storage contact (no account) with a name, a mobile number and maybe a home email,
    as raw_contacts + data rows; `content insert` prints no id, so the newest _id is read back,
    then the data rows."""
    device.sh(f"content insert --uri {RAW_CONTACTS} --bind account_name:n: --bind account_type:n:")
    out = device.sh(f"content query --uri {RAW_CONTACTS} --projection _id --sort '_id DESC'")
    raw_id = int(out.split("_id=", 1)[1].split(",", 1)[0].split()[0])
    rows = [
        ("vnd.android.cursor.item/name", name, "--bind " + shell_quote(f"data2:s:{name}")),
        ("vnd.android.cursor.item/phone_v2", number, "--bind data2:i:2"),  # 2 = Mobile
    ]
    if email:
        rows.append(("vnd.android.cursor.item/email_v2", email, "--bind data2:i:1"))  # 1 = Home
    for mime, value, extra in rows:
        device.sh(
            f"content insert --uri {CONTACT_DATA} --bind raw_contact_id:i:{raw_id} --bind mimetype:s:{mime} "
            f"--bind {shell_quote('data1:s:' + value)} {extra}"
        )
    expect_rows(device, CONTACT_DATA, f"raw_contact_id={raw_id}", f"the contact {name!r}", count=len(rows))
    DECLARED.append(
        ("contacts", {"name.data1": name, "phone.data1": number} | ({"email.data1": email} if email else {}))
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
    expect_rows(device, RAW_CONTACTS, "deleted=0", "no contacts", count=0)


def clear_conversations(device: Any) -> None:
    """Delete every SMS and thread, for the same reason (the benchmark's own device)."""
    device.sh(f"content delete --uri {SMS}")
    device.sh("content delete --uri content://mms-sms/conversations")
    expect_rows(device, SMS, "", "no SMS", count=0)


def add_sms_thread(device: Any, number: str = NUMBER, message: str = MESSAGE) -> None:
    """A conversation with `number` holding the sent `message` (after clear_conversations)."""
    add_sms(device, "sent", number, message)


def run_steps(device: Any, package: str, actions: list) -> None:
    """Harness-driven UI steps on the screen the device shows, each on the screen the last one
    left; texts written in English are matched as the device's locale shows them."""
    for action in actions:
        ui = device.ui()
        device.execute(localize_action(action, ui, (package,), getattr(device, "locale", DEFAULT_LOCALE)), ui)


MUSIC_DIR = "/sdcard/Music"


def tagged_mp3(title: str, artist: str, album: str, year: int) -> bytes:
    """A real MP3 (task_suites/shared/audio.py): title, artist, album and year tagged, a cover,
    five seconds of silence."""
    return mp3(title, artist, album, year)


def push_tracks(device, tracks) -> None:
    now = int(device.sh("date +%s"))  # the device's clock, not the host's: dated as the device sees it
    files = [
        (f"{MUSIC_DIR}/{name}", tagged_mp3(title, artist, album, year)) for name, title, artist, album, year in tracks
    ]
    push_files(device, files, mtime=now)


def remove_tracks(device, tracks) -> None:
    device.sh("rm -f " + " ".join(shell_quote(f"{MUSIC_DIR}/{name}") for name, *_ in tracks))
