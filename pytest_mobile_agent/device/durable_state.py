"""A device's durable state, read through adb only, and what changed between two readings.

Durable means what outlives the screen: the contacts, SMS and calendar providers (`content
query`), the files under /sdcard (hidden ones too, with content hashes), each app's saved data
under /data/data/PKG (every file hashed; JSON, SharedPreferences XML and SQLite databases by
content, so a diff names the setting, note or event), and the installed packages (what a
launcher lists). `capture(device)` reads it all with one shell command, so inside
`AndroidDevice.reading()` a body that asks again in the same step costs nothing.

    before = capture(device)
    ...                                   # the agent acts
    diff = before.diff(capture(device))   # bool(diff): anything changed; str(diff): what
"""

from __future__ import annotations

import base64
import binascii
import fnmatch
import functools
import json
import re
import sqlite3
import tempfile
from collections.abc import Iterable, Iterator
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path
from typing import Any

SDCARD = "/sdcard/"
CONTACT_DATA_COLUMNS = "_id:raw_contact_id:mimetype:is_primary:data1:data2:data3:data4:data5:data6:data7"
# content:// queries, one area each; an area a device lacks (no calendar provider) reads as None.
PROVIDERS = {
    "contacts": "content query --uri content://com.android.contacts/raw_contacts --where deleted=0",
    "contact_data": f"content query --uri content://com.android.contacts/data --projection {CONTACT_DATA_COLUMNS}",
    "sms": "content query --uri content://sms",
    "conversations": "content query --uri content://mms-sms/conversations",
    "calendar": "content query --uri content://com.android.calendar/events",
}
# App data that is not the app's state: caches the system may drop at any time, and the
# journals of databases (read through the database itself).
IGNORED_APP_FILES = ("cache/*", "code_cache/*", "*.db-wal", "*.db-shm", "*.db-journal")
ID_KEYS = ("id", "_id", "package", "path", "name", "title")
SQLITE_INTERNAL = ("sqlite_%", "android_metadata", "room_master_table")
MARK = "@@pma "  # section header in the capture's output


class _Absent:
    """A key missing on one side of a change (values themselves may be None)."""

    def __repr__(self) -> str:
        return "absent"


ABSENT: Any = _Absent()


# -- capture --------------------------------------------------------------------------------------
def capture_script(packages: Iterable[str] | None = None) -> str:
    """The one shell command that prints every area, each after a `@@pma NAME` line.

    `packages`: whose app data to read; None = every third-party package (`pm list packages -3`).
    """
    pkgs = " ".join(packages) if packages is not None else "$(pm list packages -3 | cut -d: -f2)"
    parts = [f"echo '{MARK}{area}'; {query} 2>&1" for area, query in PROVIDERS.items()]
    parts += [
        f"echo '{MARK}dirs'; find {SDCARD} -type d 2>/dev/null",
        f"echo '{MARK}files'; find {SDCARD} -type f -exec md5sum {{}} + 2>/dev/null",
        f"echo '{MARK}packages'; pm list packages",
        # App data, from /data/data: paths print as PKG/REL. Every file hashed; JSON and prefs XML
        # by content (grep -H '' prints each line after its file's path); databases (and their
        # write-ahead logs) in base64.
        f'cd /data/data; pkgs="{pkgs}"; [ -n "$pkgs" ] || pkgs=/nonexistent',
        f"echo '{MARK}appfiles'; find $pkgs -type f -exec md5sum {{}} + 2>/dev/null",
        f"echo '{MARK}text'; find $pkgs -type f -name '*.json' -exec grep -H '' {{}} + 2>/dev/null",
        "find $pkgs -type f -name '*.xml' -exec grep -H '' {} + 2>/dev/null",
        "for f in $(find $pkgs -type f -name '*.db' 2>/dev/null); do"
        f" echo '{MARK}db '$f; base64 $f; [ -f $f-wal ] && echo '{MARK}wal '$f && base64 $f-wal; done",
    ]
    return "; ".join(parts) + "; true"


def capture(device: Any, packages: Iterable[str] | None = None) -> DurableState:
    """Read the device's durable state (one adb shell round trip)."""
    return parse_capture(device.sh(capture_script(packages), check=False))  # files may hold any text


def parse_capture(output: str) -> DurableState:
    sections: dict[str, list[str]] = {}
    current: list[str] = []
    for line in output.split("\n"):
        if line.startswith(MARK):
            current = sections.setdefault(line[len(MARK) :].rstrip("\r"), [])
        else:
            current.append(line.rstrip("\r"))
    areas: dict[str, dict[str, Any] | None] = {}
    rows = {area: content_rows(sections.get(area, [])) for area in PROVIDERS}
    areas["contacts"] = _contacts(rows["contacts"], rows["contact_data"])
    for area in ("sms", "conversations", "calendar"):
        found = rows[area]
        areas[area] = None if found is None else {_row_key(r): _without_id(r) for r in found}
    files: dict[str, Any] = {_sdcard_rel(p) + "/": "dir" for p in sections.get("dirs", []) if p.strip()}
    files.pop("/", None)
    files.update({_sdcard_rel(path): digest for digest, path in _md5_lines(sections.get("files", []))})
    areas["files"] = files
    packages = sections.get("packages", [])
    areas["packages"] = {line.split(":", 1)[1].strip(): "installed" for line in packages if line.startswith("package:")}
    apps: dict[str, dict[str, Any]] = {}
    for digest, path in _md5_lines(sections.get("appfiles", [])):
        package, rel = _app_rel(path)
        if package and not any(fnmatch.fnmatchcase(rel, p) for p in IGNORED_APP_FILES):
            apps.setdefault(package, {})[rel] = digest
    texts: dict[str, list[str]] = {}
    for line in sections.get("text", []):
        path, sep, text = line.partition(":")
        if sep:
            texts.setdefault(path, []).append(text)
    for path, lines in texts.items():
        package, rel = _app_rel(path)
        if package in apps and rel in apps[package]:
            entries = _text_entries(rel, "\n".join(lines))
            if entries is not None:
                del apps[package][rel]
                apps[package].update(entries)
    dbs: dict[str, dict[str, bytes]] = {}
    for name, lines in sections.items():
        kind, _, path = name.partition(" ")
        package, rel = _app_rel(path)
        if kind in ("db", "wal") and package in apps and rel in apps[package]:
            dbs.setdefault(path, {})[kind] = _b64(lines)
    for path, parts in dbs.items():
        package, rel = _app_rel(path)
        entries = _db_entries(rel, parts.get("db", b""), parts.get("wal"))
        if entries is not None:
            del apps[package][rel]
            apps[package].update(entries)
    areas.update(apps)
    return DurableState(areas, frozenset(apps))


def content_rows(lines: list[str]) -> list[dict[str, str]] | None:
    """`content query` output as rows; None when the provider is missing or refused."""
    text = "\n".join(lines).strip()
    refused = ("Unknown URI", "Permission Denial")
    if text.startswith(("Error", "Exception", "java.", "usage")) or any(r in text for r in refused):
        return None
    texts: list[str] = []
    for line in lines:
        m = re.match(r"Row: \d+ (.*)", line)
        if m:
            texts.append(m.group(1))
        elif texts and line:  # a value with a newline in it (an SMS body) goes on
            texts[-1] += "\n" + line
    return [_content_fields(t) for t in texts]


def _content_fields(text: str) -> dict[str, str]:
    fields: dict[str, str] = {}
    for part in re.split(r", (?=[A-Za-z_][A-Za-z0-9_]*=)", text):
        key, _, value = part.partition("=")
        fields[key] = value
    return fields


def _row_key(row: dict[str, str]) -> str:
    return "#" + (row.get("_id") or row.get("thread_id") or "?")


def _without_id(row: dict[str, str]) -> dict[str, str]:
    return {k: v for k, v in row.items() if k != "_id"}


def _contacts(raw: list[dict[str, str]] | None, data: list[dict[str, str]] | None) -> dict[str, Any] | None:
    """Live raw contacts by id, each with its data rows folded in: `phone.data1`, `name.data2`
    (given name), `name.data3` (family name); a second phone is `phone#2.data1`."""
    if raw is None:
        return None
    contacts = {"#" + r["_id"]: _without_id(r) for r in raw if r.get("deleted", "0") == "0"}
    seen: dict[tuple[str, str], int] = {}
    for row in sorted(data or [], key=lambda r: int(r.get("_id", "0") or 0)):
        contact = contacts.get("#" + row.get("raw_contact_id", ""))
        if contact is None:
            continue
        kind = row.get("mimetype", "").rsplit("/", 1)[-1].removesuffix("_v2")
        n = seen[(row["raw_contact_id"], kind)] = seen.get((row["raw_contact_id"], kind), 0) + 1
        label = kind if n == 1 else f"{kind}#{n}"
        for col, value in row.items():
            if col.startswith("data") and value not in ("", "NULL"):
                contact[f"{label}.{col}"] = value
    return contacts


def _md5_lines(lines: list[str]) -> Iterator[tuple[str, str]]:
    for line in lines:
        digest, sep, path = line.partition("  ")
        if sep and re.fullmatch(r"[0-9a-f]{32}", digest):
            yield digest, path


def _sdcard_rel(path: str) -> str:
    return path[len(SDCARD) :] if path.startswith(SDCARD) else path


def _app_rel(path: str) -> tuple[str, str]:
    """(package, path inside its data folder) of `PKG/REL` (the capture lists from /data/data)."""
    m = re.match(r"(?:/data/data/)?([^/]+)/(.+)", path)
    return (m.group(1), m.group(2)) if m else ("", "")


def _b64(lines: list[str]) -> bytes:
    try:
        return base64.b64decode("".join(lines))
    except (binascii.Error, ValueError):
        return b""


def _text_entries(rel: str, text: str) -> dict[str, Any] | None:
    """A JSON file by its keys (a list of records by their ids), a SharedPreferences XML by its
    preferences; None for anything else (it stays a hash)."""
    text = text.strip()
    if rel.endswith(".json"):
        try:
            data = json.loads(text)
        except ValueError:
            return None
        if isinstance(data, dict):
            return {k: v for key, value in data.items() for k, v in _records(f"{rel}:{key}", value).items()}
        return _records(rel, data)
    if rel.endswith(".xml") and "<map" in text:
        prefs = re.findall(r'<(\w+) name="([^"]*)"(?: value="([^"]*)")?\s*(?:/>|>(.*?)</\1>)', text, re.S)
        return {f"{rel}:{name}": value if value or not body else body for _, name, value, body in prefs}
    return None


def _records(key: str, value: Any) -> dict[str, Any]:
    """A list of records that carry an id becomes one entry a record, so a diff shows which; an
    empty list is no entry (as no file is)."""
    if value == []:
        return {}
    if isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
        for id_key in ID_KEYS:
            ids = [v.get(id_key) for v in value]
            if None not in ids and len(set(map(str, ids))) == len(ids):
                return {f"{key}[{id_key}={i}]": v for i, v in zip(ids, value)}
    return {key: value}


@functools.lru_cache(maxsize=16)
def _db_entries(rel: str, db: bytes, wal: bytes | None) -> dict[str, Any] | None:
    """Every row of every table of an SQLite database (with its write-ahead log), by key.
    Cached: a task body reads the state after every step, and the database rarely changes."""
    if not db.startswith(b"SQLite format 3"):
        return None
    with tempfile.TemporaryDirectory() as tmp:
        local = Path(tmp, "state.db")
        local.write_bytes(db)
        if wal:
            Path(tmp, "state.db-wal").write_bytes(wal)
        entries: dict[str, Any] = {}
        with closing(sqlite3.connect(local)) as conn:
            conn.row_factory = sqlite3.Row
            skip = " AND ".join(f"name NOT LIKE '{p}'" for p in SQLITE_INTERNAL)
            tables = [r[0] for r in conn.execute(f"SELECT name FROM sqlite_master WHERE type='table' AND {skip}")]
            for table in tables:
                for n, row in enumerate(conn.execute(f'SELECT * FROM "{table}"')):
                    record = dict(row)
                    pk = next((k for k in ("id", "_id") if k in record), None)
                    entries[f"{rel}:{table}[{pk}={record[pk]}]" if pk else f"{rel}:{table}[{n}]"] = record
        return entries


# -- the state and its differences ------------------------------------------------------------------
@dataclass(frozen=True)
class DurableState:
    """Area -> key -> value. Areas: contacts, sms, conversations, calendar, files, packages,
    and one per app package. An area the device cannot read (no calendar provider) is None."""

    areas: dict[str, dict[str, Any] | None]
    app_areas: frozenset[str] = frozenset()

    def __getitem__(self, area: str) -> dict[str, Any]:
        return self.areas.get(area) or {}

    def diff(self, other: DurableState) -> StateDiff:
        """What changed from this state to `other`."""
        changes: list[Change] = []
        for area in sorted(set(self.areas) | set(other.areas), key=_area_order):
            before, after = self.areas.get(area), other.areas.get(area)
            if before is None and after is None:
                continue
            if (before is None or after is None) and area in PROVIDERS:
                continue  # the provider answered once and not the other time: nothing to compare
            before, after = before or {}, after or {}
            for key in sorted(set(before) | set(after)):
                b, a = before.get(key, ABSENT), after.get(key, ABSENT)
                if b != a:
                    changes.append(Change(area, key, b, a))
        return StateDiff(tuple(changes))


def _area_order(area: str) -> tuple[int, str]:
    fixed = ("contacts", "sms", "conversations", "calendar", "files", "packages")
    return (fixed.index(area), "") if area in fixed else (len(fixed), area)


@dataclass(frozen=True)
class Change:
    area: str
    key: str
    before: Any
    after: Any

    @property
    def kind(self) -> str:
        return "added" if self.before is ABSENT else "removed" if self.after is ABSENT else "changed"

    def __str__(self) -> str:
        if self.kind == "added":
            return f"+ {self.key}: {_show(self.after)}"
        if self.kind == "removed":
            return f"- {self.key}: {_show(self.before)}"
        if isinstance(self.before, dict) and isinstance(self.after, dict):
            fields = sorted(set(self.before) | set(self.after))
            moved = [
                f"{f} {_show(self.before.get(f, ABSENT))} -> {_show(self.after.get(f, ABSENT))}"
                for f in fields
                if self.before.get(f, ABSENT) != self.after.get(f, ABSENT)
            ]
            return f"~ {self.key}: " + ", ".join(moved)
        return f"~ {self.key}: {_show(self.before)} -> {_show(self.after)}"


def _show(value: Any, limit: int = 300) -> str:
    if isinstance(value, dict):
        text = "{" + ", ".join(f"{k}={_show(v, 80)}" for k, v in value.items()) + "}"
    elif isinstance(value, str):
        text = repr(value)
    else:
        text = "absent" if value is ABSENT else json.dumps(value, default=str)
    return text if len(text) <= limit else text[: limit - 3] + "..."


@dataclass(frozen=True)
class StateDiff:
    """The changes between two durable states; falsy when there are none."""

    changes: tuple[Change, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.changes)

    def __len__(self) -> int:
        return len(self.changes)

    def __iter__(self) -> Iterator[Change]:
        return iter(self.changes)

    def where(self, area: str | None = None, kind: str | None = None, key: str | None = None) -> StateDiff:
        """The changes in `area` (a glob: `com.simplemobiletools.*`), of `kind` (added, removed,
        changed), whose key matches the glob `key` (`*` and `?`; brackets match themselves, as
        keys such as `files/notes.json[id=2]` hold them)."""
        key = key.replace("[", "[[]") if key is not None else None
        return StateDiff(
            tuple(
                c
                for c in self.changes
                if (area is None or fnmatch.fnmatchcase(c.area, area))
                and (kind is None or c.kind == kind)
                and (key is None or fnmatch.fnmatchcase(c.key, key))
            )
        )

    def without(self, changes: Iterable[Change]) -> StateDiff:
        """These changes left out (by area and key: the same change in a later reading counts)."""
        drop = {(c.area, c.key) for c in changes}
        return StateDiff(tuple(c for c in self.changes if (c.area, c.key) not in drop))

    def __str__(self) -> str:
        if not self.changes:
            return "no durable change"
        lines: list[str] = []
        area = None
        for c in self.changes:
            if c.area != area:
                area = c.area
                lines.append(f"{area}:")
            lines.append(f"  {c}")
        return "\n".join(lines)
