"""Simple Contacts Pro: its contacts are the contacts provider's rows, and the name helpers.

Learned from Simple-Commons' helpers/ContactsHelper.kt (sources, reading and writing through
ContactsContract), models/contacts/Contact.kt (getNameToDisplay, compareTo) and
MyViewPagerFragment.onSearchQueryChanged (search), and Android's ContactsContract type codes.
"""

from __future__ import annotations

import sqlite3
from contextlib import closing
from typing import Any

from pytest_mobile_agent.virtual.system import providers
from pytest_mobile_agent.virtual.ui.app import App

PKG = "com.simplemobiletools.contacts.pro"
PHONE_STORAGE = "Phone storage"
PRIVATE_STORAGE = "Phone storage (not visible by other apps)"
ORG_MIME = "vnd.android.cursor.item/organization"
NOTE_MIME = "vnd.android.cursor.item/note"
ADDRESS_MIME = "vnd.android.cursor.item/postal-address_v2"
NICKNAME_MIME = "vnd.android.cursor.item/nickname"
# ContactsContract type codes -> labels, in the order of the real type pickers.
PHONE_TYPES = {
    2: "Mobile",
    1: "Home",
    3: "Work",
    12: "Main number",
    4: "Work fax",
    5: "Home fax",
    6: "Pager",
    7: "Other",
    0: "Custom",
}
EMAIL_TYPES = {1: "Home", 2: "Work", 4: "Mobile", 3: "Other", 0: "Custom"}
EVENT_TYPES = {1: "Anniversary", 3: "Birthday", 2: "Other"}  # CommonDataKinds.Event, the picker's order
BIRTHDAY = 3
FIRST_GROUP_ID = 10000  # the app's own groups (groupsDB) number from here; the provider's are below
ADDRESS_TYPES = {1: "Home", 2: "Work", 3: "Other", 0: "Custom"}
RECYCLER = "androidx.recyclerview.widget.RecyclerView"


# -- the contacts provider ------------------------------------------------------------------
def empty_contact() -> dict[str, Any]:
    return {
        "id": 0,
        "prefix": "",
        "first": "",
        "middle": "",
        "surname": "",
        "suffix": "",
        "nickname": "",
        "numbers": [],
        "emails": [],
        "addresses": [],
        "company": "",
        "job": "",
        "notes": "",
        "starred": 0,
        "source": "",
        "events": [],  # (date tag "yyyy-MM-dd" or "--MM-dd", type)
        "groups": [],  # group ids
    }


def _split_name(display: str) -> tuple[str, str]:
    """The provider's NameSplitter, simplified: the last word is the family name."""
    parts = display.split()
    return (display, "") if len(parts) < 2 else (" ".join(parts[:-1]), parts[-1])


class ContactsStore:
    """Reads and writes the device's contacts2.db as ContactsHelper does through the provider."""

    def __init__(self, app: App) -> None:
        self.app = app

    def _db(self) -> sqlite3.Connection:
        db = providers.open_db(self.app.device, providers.CONTACTS_DB)
        db.row_factory = sqlite3.Row
        return db

    def all(self) -> list[dict[str, Any]]:
        with closing(self._db()) as db:
            contacts = {
                r["_id"]: {
                    **empty_contact(),
                    "id": r["_id"],
                    "starred": r["starred"],
                    "source": r["account_name"] or "",
                    "display": r["display_name"] or "",
                }
                for r in db.execute("SELECT * FROM raw_contacts WHERE deleted = 0 ORDER BY _id")
            }
            for d in db.execute("SELECT * FROM data ORDER BY _id"):
                c = contacts.get(d["raw_contact_id"])
                if c is None:
                    continue
                self._read_row(c, d)
        for c in contacts.values():
            if not (c["first"] or c["middle"] or c["surname"]) and c["display"]:
                c["first"], c["surname"] = _split_name(c["display"])
        return list(contacts.values())

    @staticmethod
    def _read_row(c: dict[str, Any], d: sqlite3.Row) -> None:
        mime, value = d["mimetype"], d["data1"] or ""
        if mime == providers.NAME_MIME:
            c.update(
                first=d["data2"] or "",
                surname=d["data3"] or "",
                prefix=d["data4"] or "",
                middle=d["data5"] or "",
                suffix=d["data6"] or "",
                display=value or c["display"],
            )
        elif mime == providers.PHONE_MIME:
            c["numbers"].append((value, int(d["data2"] or 2)))
        elif mime == providers.EMAIL_MIME:
            c["emails"].append((value, int(d["data2"] or 1)))
        elif mime == ADDRESS_MIME:
            c["addresses"].append((value, int(d["data2"] or 1)))
        elif mime == ORG_MIME:
            c["company"], c["job"] = value, d["data4"] or ""
        elif mime == NOTE_MIME:
            c["notes"] = value
        elif mime == NICKNAME_MIME:
            c["nickname"] = value
        elif mime == providers.EVENT_MIME and value:
            c["events"].append((value, int(d["data2"] or BIRTHDAY)))
        elif mime == providers.GROUP_MIME and value.isdigit():
            c["groups"].append(int(value))

    def get(self, contact_id: int) -> dict[str, Any] | None:
        return next((c for c in self.all() if c["id"] == contact_id), None)

    def save(self, c: dict[str, Any]) -> int:
        """Insert (id 0) or replace a contact's rows; returns its raw contact id."""
        display = full_name(c, False) or c["company"] or next((e for e, _ in c["emails"]), "")
        with closing(self._db()) as db:
            if not c["id"]:
                cur = db.execute(
                    "INSERT INTO raw_contacts (account_name, account_type, starred, display_name, created) "
                    "VALUES (?, ?, ?, ?, ?)",
                    (c["source"] or None, None, c["starred"], display, self.app.device.clock.millis()),
                )
                c["id"] = cur.lastrowid
            else:
                db.execute(
                    "UPDATE raw_contacts SET starred = ?, display_name = ? WHERE _id = ?",
                    (c["starred"], display, c["id"]),
                )
                db.execute("DELETE FROM data WHERE raw_contact_id = ?", (c["id"],))
            # (mimetype, data1..data6) as the provider's CommonDataKinds store them
            rows: list[tuple[Any, ...]] = [
                (providers.NAME_MIME, display, c["first"], c["surname"], c["prefix"], c["middle"], c["suffix"])
            ]
            rows += [(providers.PHONE_MIME, n, str(t)) for n, t in c["numbers"] if n]
            rows += [(providers.EMAIL_MIME, e, str(t)) for e, t in c["emails"] if e]
            rows += [(ADDRESS_MIME, v, str(t)) for v, t in c["addresses"] if v]
            if c["company"] or c["job"]:
                rows.append((ORG_MIME, c["company"], None, None, c["job"]))
            rows += [(mime, c[key]) for mime, key in ((NOTE_MIME, "notes"), (NICKNAME_MIME, "nickname")) if c[key]]
            rows += [(providers.EVENT_MIME, v, str(t)) for v, t in c["events"] if v]
            rows += [(providers.GROUP_MIME, str(g)) for g in c["groups"]]
            db.executemany(
                "INSERT INTO data (raw_contact_id, mimetype, data1, data2, data3, data4, data5, data6) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                [(c["id"], *(v or None for v in (*r, *[None] * (7 - len(r))))) for r in rows],
            )
        self.app.device.changed()
        return c["id"]

    # -- groups: the provider's (ContactsContract.Groups) and the app's own (groupsDB) ----------
    def groups(self) -> list[dict[str, Any]]:
        """getStoredGroupsSync with MyViewPagerFragment's counts: the provider's visible groups,
        then the app's, each with how many contacts are in it, sorted by title."""
        with closing(self._db()) as db:
            found = [
                {"id": r["_id"], "title": r["title"], "local": False}
                for r in db.execute(
                    "SELECT _id, title FROM groups WHERE deleted = 0 AND auto_add = 0 AND favorites = 0 ORDER BY _id"
                )
                if r["title"] is not None
            ]
        found += [{**g, "local": True} for g in self.app.load("groups", [])]
        members: dict[int, int] = {}
        for c in self.all():
            for gid in set(c["groups"]):
                members[gid] = members.get(gid, 0) + 1
        for g in found:
            g["count"] = members.get(g["id"], 0)
        return sorted(found, key=lambda g: g["title"].lower())

    def create_group(self, title: str) -> int:
        """CreateNewGroupDialog with no Google account: the one source is the app's private one,
        so the group lands in the app's own groups table (ids from FIRST_GROUP_ID, never reused)."""
        local = self.app.load("groups", [])
        gid = max([FIRST_GROUP_ID - 1, self.app.load("last_group_id", 0), *(g["id"] for g in local)]) + 1
        self.app.save("groups", [*local, {"id": gid, "title": title}])
        self.app.save("last_group_id", gid)
        self.app.device.changed()
        return gid

    def rename_group(self, gid: int, title: str) -> None:
        if gid >= FIRST_GROUP_ID:
            local = self.app.load("groups", [])
            self.app.save("groups", [{**g, "title": title} if g["id"] == gid else g for g in local])
        else:
            with closing(self._db()) as db:
                db.execute("UPDATE groups SET title = ? WHERE _id = ?", (title, gid))
        self.app.device.changed()

    def delete_groups(self, ids: list[int]) -> None:
        """GroupsAdapter.deleteGroups: the app's groups leave its table (their membership rows
        stay, unmatched); the provider's are deleted through it, memberships with them."""
        self.app.save("groups", [g for g in self.app.load("groups", []) if g["id"] not in ids])
        with closing(self._db()) as db:
            providers.delete_groups(db, [i for i in ids if i < FIRST_GROUP_ID])
        self.app.device.changed()

    def set_members(self, gid: int, added: list[int], removed: list[int]) -> None:
        """addContactsToGroup / removeContactsFromGroup: membership rows of the contacts' raw contacts."""
        with closing(self._db()) as db:
            db.executemany(
                "INSERT INTO data (raw_contact_id, mimetype, data1) VALUES (?, ?, ?)",
                [(cid, providers.GROUP_MIME, str(gid)) for cid in added],
            )
            db.executemany(
                "DELETE FROM data WHERE raw_contact_id = ? AND mimetype = ? AND data1 = ?",
                [(cid, providers.GROUP_MIME, str(gid)) for cid in removed],
            )
        self.app.device.changed()

    def set_starred(self, ids: list[int], starred: bool) -> None:
        with closing(self._db()) as db:
            db.executemany("UPDATE raw_contacts SET starred = ? WHERE _id = ?", [(int(starred), i) for i in ids])

    def delete(self, ids: list[int]) -> None:
        # The provider marks raw contacts deleted, as `content delete` does here.
        with closing(self._db()) as db:
            db.executemany("UPDATE raw_contacts SET deleted = 1 WHERE _id = ?", [(i,) for i in ids])


def full_name(c: dict[str, Any], surname_first: bool) -> str:
    """Contact.getNameToDisplay's name part."""
    first_middle = f"{c['first']} {c['middle']}".strip()
    if surname_first:
        first = f"{c['surname']}," if c["surname"] and first_middle else c["surname"]
        last = first_middle
    else:
        first, last = first_middle, c["surname"]
    suffix = f", {c['suffix']}" if c["suffix"] else ""
    return " ".join(f"{c['prefix']} {first} {last}{suffix}".split())


def display_name(app: App, c: dict[str, Any]) -> str:
    name = full_name(c, bool(app.pref("start_name_with_surname", False)))
    return name or c["company"] or next((e for e, _ in c["emails"]), "") or next((n for n, _ in c["numbers"]), "")


def sort_contacts(app: App, contacts: list[dict[str, Any]], favorites: bool = False) -> list[dict[str, Any]]:
    """Contact.compareTo: by the chosen name part (letters before others, empty last), else by id."""
    by = app.pref("sort_by", "first_name")
    if by == "custom" and not favorites:
        by = "first_name"
    key_field = {"first_name": "first", "middle_name": "middle", "surname": "surname"}.get(by, "")

    def key(c: dict[str, Any]) -> tuple:
        if by in ("date_created", "custom"):
            return (c["id"],)
        value = display_name(app, c) if by == "full_name" else c[key_field]
        if not value and not (c["first"] or c["middle"] or c["surname"]):
            value = c["company"] or next((e for e, _ in c["emails"]), "")
        value = value.lower()
        return (not value, not value[:1].isalpha(), value, display_name(app, c).lower())

    ordered = sorted(contacts, key=key)
    return list(reversed(ordered)) if app.pref("sort_descending", False) else ordered


def source_name(source: str) -> str:
    return source or PHONE_STORAGE


def contact_matches(c: dict[str, Any], name: str, text: str) -> bool:
    t = text.lower()
    digits = "".join(ch for ch in text if ch.isdigit() or ch == "+")
    values = [
        name,
        c["nickname"],
        c["notes"],
        c["company"],
        c["job"],
        *(e for e, _ in c["emails"]),
        *(v for v, _ in c["addresses"]),
    ]
    return any(t in v.lower() for v in values) or bool(digits and any(digits in n for n, _ in c["numbers"]))
