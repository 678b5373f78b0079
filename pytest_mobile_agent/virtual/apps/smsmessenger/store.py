"""SMS Messenger's data: the telephony provider's threads/sms tables, contact names, app data.

The app object's data side, so `content` seeding, the app's own writes and checks through
`content query` all meet in mmssms.db. Conversation rules follow Simple-SMS-Messenger's
extensions/Context.kt `getConversations` (threads with messages, blocked numbers left out,
newest first) and commons' date formatting (extensions/Int.kt `formatDateOrTime`).
"""

from __future__ import annotations

import mimetypes
import re
import sqlite3
from contextlib import closing
from datetime import UTC, datetime
from typing import Any

from pytest_mobile_agent.virtual.apps.commons.dates import date_format, java_date, time_format
from pytest_mobile_agent.virtual.system import providers
from pytest_mobile_agent.virtual.ui.app import App

PKG = "com.simplemobiletools.smsmessenger"
SENT = 2
PARTS_DIR = "/data/data/com.android.providers.telephony/app_parts"  # where the provider keeps MMS parts
SEND_REQ = 128  # PduHeaders.MESSAGE_TYPE_SEND_REQ: the m_type of an MMS being sent
FONT_SIZES = ("Small", "Medium", "Large", "Extra large")
FONT_SP = (14, 16, 20, 24)  # message text size per font size setting


def digits(number: str) -> str:
    return re.sub(r"\D", "", number)


def plural(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def is_blocked(number: str, blocked: list[str]) -> bool:
    """commons isNumberBlocked: exact (digits) match, or a `*` pattern."""
    for entry in blocked:
        if "*" in entry:
            if re.fullmatch(re.escape(entry).replace(r"\*", ".*"), number):
                return True
        elif digits(entry) and digits(entry) == digits(number):
            return True
    return False


class SmsStore(App):
    """The app object as the screens use it: its prefs and app data, and the providers' rows."""

    package = PKG

    def sms_db(self) -> sqlite3.Connection:
        return providers.open_db(self.device, providers.SMS_DB)

    def contact_names(self) -> dict[str, str]:
        """Phone digits -> display name, from the contacts provider."""
        with closing(providers.open_db(self.device, providers.CONTACTS_DB)) as db:
            rows = db.execute("SELECT data1, display_name FROM phones").fetchall()
        return {digits(num or ""): name for num, name in rows if name and digits(num or "")}

    def title_of(self, address: str, names: dict[str, str] | None = None) -> str:
        names = self.contact_names() if names is None else names
        return names.get(digits(address), address)

    def blocked(self) -> list[str]:
        return self.load("blocked_numbers", [])

    def set_blocked(self, numbers: list[str]) -> None:
        self.save("blocked_numbers", numbers)

    def conversations(self, archived: bool) -> list[dict[str, Any]]:
        """getConversations: threads with messages, blocked numbers left out, newest first, pinned on top."""
        with closing(self.sms_db()) as db:
            rows = db.execute(
                "SELECT _id, address, date, snippet, read FROM threads WHERE message_count > 0 AND archived = ? "
                "ORDER BY date DESC",
                (1 if archived else 0,),
            ).fetchall()
        names, blocked, pinned = self.contact_names(), self.blocked(), self.load("pinned", [])
        items = [
            {
                "id": tid,
                "address": addr,
                "title": self.title_of(addr, names),
                "date": date,
                "snippet": snippet or "",
                "read": bool(read),
                "pinned": tid in pinned,
            }
            for tid, addr, date, snippet, read in rows
            if not is_blocked(addr, blocked)
        ]
        return sorted(items, key=lambda c: not c["pinned"])

    def thread_id(self, address: str) -> int | None:
        with closing(self.sms_db()) as db:
            row = db.execute("SELECT _id FROM threads WHERE address = ?", (address,)).fetchone()
        return row[0] if row else None

    def thread_info(self, tid: int) -> dict[str, Any]:
        with closing(self.sms_db()) as db:
            address, archived = db.execute("SELECT address, archived FROM threads WHERE _id = ?", (tid,)).fetchone()
        return {"address": address, "archived": bool(archived)}

    def messages(self, tid: int) -> list[dict[str, Any]]:
        """The thread's SMS and MMS, oldest first. An MMS's id is its pdu _id negated (the two
        tables number apart, as the app keeps `isMMS` beside the id); its attachments are its
        non-text parts."""
        with closing(self.sms_db()) as db:
            rows = db.execute(
                "SELECT _id, address, body, date, type FROM sms WHERE thread_id = ? AND type != 3 ORDER BY date, _id",
                (tid,),
            ).fetchall()
            found = [
                {"id": i, "address": a, "body": b or "", "date": d or 0, "type": t, "attachments": []}
                for i, a, b, d, t in rows
            ]
            address = db.execute("SELECT address FROM threads WHERE _id = ?", (tid,)).fetchone()
            for mid, date, box in db.execute("SELECT _id, date, msg_box FROM pdu WHERE thread_id = ?", (tid,)):
                parts = db.execute("SELECT ct, name, _data, text FROM part WHERE mid = ? ORDER BY seq, _id", (mid,))
                body, attachments = "", []
                for ct, name, data, text in parts.fetchall():
                    if ct == "text/plain":
                        body = text or ""
                    elif ct != "application/smil":
                        attachments.append({"mime": ct or "", "name": name or "", "path": data or ""})
                found.append(
                    {
                        "id": -mid,
                        "address": address[0] if address else "",
                        "body": body,
                        "date": (date or 0) * 1000,
                        "type": box,
                        "attachments": attachments,
                    }
                )
        return sorted(found, key=lambda m: (m["date"], m["id"] < 0, abs(m["id"])))

    def send_mms(self, address: str, body: str, paths: list[str]) -> None:
        """A sent MMS: a pdu row in the sent box (date in seconds), a part per attachment whose
        file the provider keeps in its app_parts folder, and a text/plain part for the text."""
        fs, millis = self.device.fs, self.device.clock.millis()
        with closing(self.sms_db()) as db:
            db.execute("INSERT OR IGNORE INTO threads (address) VALUES (?)", (address,))
            tid = db.execute("SELECT _id FROM threads WHERE address = ?", (address,)).fetchone()[0]
            db.execute(
                "INSERT INTO pdu (thread_id, date, msg_box, read, seen, m_type) VALUES (?, ?, ?, 1, 1, ?)",
                (tid, millis // 1000, SENT, SEND_REQ),
            )
            mid = db.execute("SELECT last_insert_rowid()").fetchone()[0]
            for seq, path in enumerate(paths):
                name = path.rsplit("/", 1)[-1]
                stored = f"{PARTS_DIR}/PART_{millis}_{name}"
                fs.write(stored, fs.host(path).read_bytes())
                mime = mimetypes.guess_type(name)[0] or "application/octet-stream"
                db.execute(
                    "INSERT INTO part (mid, seq, ct, name, cl, _data) VALUES (?, ?, ?, ?, ?, ?)",
                    (mid, seq, mime, name, name, stored),
                )
            if body:
                db.execute(
                    "INSERT INTO part (mid, seq, ct, text) VALUES (?, ?, 'text/plain', ?)", (mid, len(paths), body)
                )
            db.execute(
                "UPDATE threads SET date = ?, message_count = message_count + 1, snippet = ?, read = 1 WHERE _id = ?",
                (millis, body, tid),
            )
        self.device.changed()

    def send(self, address: str, body: str) -> None:
        """A sent SMS lands in the sent box (type 2) of the address's thread."""
        values: dict[str, object] = {
            "address": address,
            "body": body,
            "type": SENT,
            "read": 1,
            "seen": 1,
            "date": self.device.clock.millis(),
            "status": -1,
        }
        with closing(self.sms_db()) as db:
            providers._sms_defaults(db, values, self.device)  # thread bookkeeping as the provider does it
            cols = ", ".join(values)
            db.execute(f"INSERT INTO sms ({cols}) VALUES ({', '.join('?' * len(values))})", list(values.values()))
            db.execute("UPDATE threads SET read = 1 WHERE _id = ?", (values["thread_id"],))
        self.device.changed()

    def update_threads(self, ids: list[int], **values: int) -> None:
        sets = ", ".join(f"{k} = ?" for k in values)
        with closing(self.sms_db()) as db:
            db.executemany(f"UPDATE threads SET {sets} WHERE _id = ?", [(*values.values(), i) for i in ids])
            if "read" in values:
                db.executemany("UPDATE sms SET read = ? WHERE thread_id = ?", [(values["read"], i) for i in ids])

    def delete_threads(self, ids: list[int]) -> None:
        with closing(self.sms_db()) as db:
            for i in ids:
                db.execute("DELETE FROM sms WHERE thread_id = ?", (i,))
                db.execute("DELETE FROM part WHERE mid IN (SELECT _id FROM pdu WHERE thread_id = ?)", (i,))
                db.execute("DELETE FROM pdu WHERE thread_id = ?", (i,))
                db.execute("DELETE FROM threads WHERE _id = ?", (i,))

    def delete_messages(self, ids: list[int]) -> None:
        """Delete messages (an MMS by its negated pdu id), then refresh their threads' count and snippet."""
        sms = [i for i in ids if i > 0]
        mms = [-i for i in ids if i < 0]
        with closing(self.sms_db()) as db:
            threads = {
                r[0] for r in db.execute(f"SELECT thread_id FROM sms WHERE _id IN ({','.join('?' * len(sms))})", sms)
            } | {r[0] for r in db.execute(f"SELECT thread_id FROM pdu WHERE _id IN ({','.join('?' * len(mms))})", mms)}
            db.executemany("DELETE FROM sms WHERE _id = ?", [(i,) for i in sms])
            db.executemany("DELETE FROM part WHERE mid = ?", [(i,) for i in mms])
            db.executemany("DELETE FROM pdu WHERE _id = ?", [(i,) for i in mms])
            for tid in threads:
                last = db.execute(
                    "SELECT body, date FROM (SELECT body, date, _id FROM sms WHERE thread_id = ? UNION ALL "
                    "SELECT (SELECT text FROM part WHERE mid = pdu._id AND ct = 'text/plain'), date * 1000, _id "
                    "FROM pdu WHERE thread_id = ?) ORDER BY date DESC, _id DESC",
                    (tid, tid),
                ).fetchone()
                count = db.execute(
                    "SELECT (SELECT COUNT(*) FROM sms WHERE thread_id = ?) "
                    "+ (SELECT COUNT(*) FROM pdu WHERE thread_id = ?)",
                    (tid, tid),
                ).fetchone()[0]
                db.execute(
                    "UPDATE threads SET message_count = ?, snippet = ?, date = ? WHERE _id = ?",
                    (count, last[0] if last else "", last[1] if last else 0, tid),
                )

    # -- formatting ------------------------------------------------------------------------
    def when(self, millis: int) -> datetime:
        return datetime.fromtimestamp(millis / 1000, UTC)

    def date_or_time(self, millis: int, *, show_time_other_days: bool = False, year: bool = False) -> str:
        """commons formatDateOrTime: the time today, else the date (without this year's year)."""
        moment, now = self.when(millis), self.device.clock.now()
        if moment.date() == now.date():
            return java_date(time_format(self), moment)
        pattern = date_format(self)
        if not year and moment.year == now.year:
            pattern = pattern.replace("y", "").strip().strip("-./")
        if show_time_other_days:
            pattern += f", {time_format(self)}"
        return java_date(pattern, moment)

    def font_sp(self) -> float:
        return FONT_SP[int(self.pref("font_size", 1))]
