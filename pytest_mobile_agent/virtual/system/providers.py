"""Content providers behind `content query|insert|update|delete`: contacts, sms, settings.

Contacts and SMS live in SQLite databases at the paths Android uses, so `--where`,
`--projection` and `--sort` are real SQL, and the app models read the same rows a phone's
apps would. Output follows the `content` tool: `Row: N col=value, ...` or `No result found.`
"""

from __future__ import annotations

import sqlite3
from contextlib import closing

from pytest_mobile_agent.virtual.ui.app import Context

CONTACTS_DB = "/data/data/com.android.providers.contacts/databases/contacts2.db"
SMS_DB = "/data/data/com.android.providers.telephony/databases/mmssms.db"
NAME_MIME = "vnd.android.cursor.item/name"
PHONE_MIME = "vnd.android.cursor.item/phone_v2"
EMAIL_MIME = "vnd.android.cursor.item/email_v2"
EVENT_MIME = "vnd.android.cursor.item/contact_event"  # data1 "yyyy-MM-dd" or "--MM-dd", data2 the type
GROUP_MIME = "vnd.android.cursor.item/group_membership"  # data1 the group's row id

_CONTACTS_SCHEMA = """
CREATE TABLE IF NOT EXISTS raw_contacts (_id INTEGER PRIMARY KEY AUTOINCREMENT, account_name TEXT,
  account_type TEXT, deleted INTEGER NOT NULL DEFAULT 0, starred INTEGER NOT NULL DEFAULT 0,
  display_name TEXT, times_contacted INTEGER NOT NULL DEFAULT 0, created INTEGER NOT NULL DEFAULT 0);
CREATE TABLE IF NOT EXISTS data (_id INTEGER PRIMARY KEY AUTOINCREMENT, raw_contact_id INTEGER NOT NULL,
  mimetype TEXT NOT NULL, is_primary INTEGER NOT NULL DEFAULT 0, data1 TEXT, data2 TEXT, data3 TEXT,
  data4 TEXT, data5 TEXT, data6 TEXT, data7 TEXT, data8 TEXT, data9 TEXT, data10 TEXT, data15 BLOB);
CREATE TABLE IF NOT EXISTS groups (_id INTEGER PRIMARY KEY AUTOINCREMENT, title TEXT, account_name TEXT,
  account_type TEXT, system_id TEXT, notes TEXT, group_visible INTEGER NOT NULL DEFAULT 0,
  deleted INTEGER NOT NULL DEFAULT 0, auto_add INTEGER NOT NULL DEFAULT 0, favorites INTEGER NOT NULL DEFAULT 0);
CREATE VIEW IF NOT EXISTS contacts AS SELECT _id, _id AS name_raw_contact_id, display_name, starred,
  times_contacted, EXISTS(SELECT 1 FROM data d WHERE d.raw_contact_id = raw_contacts._id
  AND d.mimetype = 'vnd.android.cursor.item/phone_v2') AS has_phone_number FROM raw_contacts WHERE deleted = 0;
CREATE VIEW IF NOT EXISTS phones AS SELECT data.*, raw_contacts.display_name FROM data
  JOIN raw_contacts ON raw_contacts._id = data.raw_contact_id
  WHERE mimetype = 'vnd.android.cursor.item/phone_v2' AND raw_contacts.deleted = 0;
"""
_SMS_SCHEMA = """
CREATE TABLE IF NOT EXISTS threads (_id INTEGER PRIMARY KEY AUTOINCREMENT, address TEXT NOT NULL UNIQUE,
  date INTEGER NOT NULL DEFAULT 0, message_count INTEGER NOT NULL DEFAULT 0, snippet TEXT,
  read INTEGER NOT NULL DEFAULT 1, archived INTEGER NOT NULL DEFAULT 0);
CREATE TABLE IF NOT EXISTS sms (_id INTEGER PRIMARY KEY AUTOINCREMENT, thread_id INTEGER, address TEXT,
  person INTEGER, date INTEGER, date_sent INTEGER NOT NULL DEFAULT 0, read INTEGER NOT NULL DEFAULT 0,
  seen INTEGER NOT NULL DEFAULT 0, status INTEGER NOT NULL DEFAULT -1, type INTEGER, subject TEXT, body TEXT);
CREATE TABLE IF NOT EXISTS pdu (_id INTEGER PRIMARY KEY AUTOINCREMENT, thread_id INTEGER, date INTEGER,
  date_sent INTEGER NOT NULL DEFAULT 0, msg_box INTEGER, read INTEGER NOT NULL DEFAULT 0,
  seen INTEGER NOT NULL DEFAULT 0, sub TEXT, m_type INTEGER, text_only INTEGER NOT NULL DEFAULT 0);
CREATE TABLE IF NOT EXISTS part (_id INTEGER PRIMARY KEY AUTOINCREMENT, mid INTEGER, seq INTEGER NOT NULL DEFAULT 0,
  ct TEXT, name TEXT, cl TEXT, _data TEXT, text TEXT);
"""
# content:// authority/path -> (database, table or view, fixed column values for inserts)
_URIS: dict[str, tuple[str, str, dict[str, object]]] = {
    "com.android.contacts/raw_contacts": (CONTACTS_DB, "raw_contacts", {}),
    "com.android.contacts/data": (CONTACTS_DB, "data", {}),
    "com.android.contacts/data/phones": (CONTACTS_DB, "phones", {}),
    "com.android.contacts/contacts": (CONTACTS_DB, "contacts", {}),
    "com.android.contacts/groups": (CONTACTS_DB, "groups", {}),
    "sms": (SMS_DB, "sms", {}),
    "sms/inbox": (SMS_DB, "sms", {"type": 1}),
    "sms/sent": (SMS_DB, "sms", {"type": 2}),
    "sms/draft": (SMS_DB, "sms", {"type": 3}),
    "mms-sms/conversations": (SMS_DB, "threads", {}),
    # MMS as the telephony provider keeps them: a pdu row per message (date in seconds,
    # msg_box 1 inbox / 2 sent) and its parts (attachments: ct, name, _data; text: text/plain).
    "mms": (SMS_DB, "pdu", {}),
    "mms/inbox": (SMS_DB, "pdu", {"msg_box": 1}),
    "mms/sent": (SMS_DB, "pdu", {"msg_box": 2}),
    "mms/part": (SMS_DB, "part", {}),
}
_TYPE_FILTER = {
    "sms/inbox": "type = 1",
    "sms/sent": "type = 2",
    "sms/draft": "type = 3",
    "mms/inbox": "msg_box = 1",
    "mms/sent": "msg_box = 2",
}


class ProviderError(Exception):
    pass


def open_db(device: Context, path: str) -> sqlite3.Connection:
    host = device.fs.host(path)
    host.parent.mkdir(parents=True, exist_ok=True)
    fresh = not host.exists() or host.stat().st_size == 0  # the schema once, not on every query
    db = sqlite3.connect(host, isolation_level=None)
    if fresh:
        db.executescript(_CONTACTS_SCHEMA if path == CONTACTS_DB else _SMS_SCHEMA)
    return db


def _parse(args: list[str]) -> tuple[str, dict[str, list[str]]]:
    if not args:
        raise ProviderError(" usage: content [query|insert|update|delete] --uri URI ...")
    verb, i = args[0], 1
    opts: dict[str, list[str]] = {}
    while i < len(args):
        key = args[i]
        if not key.startswith("--") or i + 1 >= len(args):
            raise ProviderError(f" unsupported argument: {key}")
        opts.setdefault(key[2:], []).append(args[i + 1])
        i += 2
    if "uri" not in opts:
        raise ProviderError(" no --uri given")
    return verb, opts


def _bind(spec: str) -> tuple[str, object]:
    """`name:type:value` with types s(tring), i(nt), l(ong), f(loat), d(ouble), b(ool), n(ull)."""
    name, _, rest = spec.partition(":")
    kind, _, value = rest.partition(":")
    if kind in ("i", "l"):
        return name, int(value)
    if kind in ("f", "d"):
        return name, float(value)
    if kind == "b":
        return name, 1 if value.lower() == "true" else 0
    if kind == "n":
        return name, None
    if kind == "s":
        return name, value
    raise ProviderError(f" bad --bind {spec!r}: type must be one of s,i,l,f,d,b,n")


def _rows(cursor: sqlite3.Cursor) -> str:
    rows = cursor.fetchall()
    if not rows:
        return "No result found.\n"
    cols = [c[0] for c in cursor.description]
    return "".join(
        f"Row: {n} " + ", ".join(f"{c}={'NULL' if v is None else v}" for c, v in zip(cols, row)) + "\n"
        for n, row in enumerate(rows)
    )


def run_content(device: Context, args: list[str]) -> str:
    verb, opts = _parse(args)
    uri = opts["uri"][0]
    if not uri.startswith("content://"):
        raise ProviderError(f" invalid URI {uri}")
    path = uri[len("content://") :].rstrip("/")
    if path.startswith("settings/"):
        return _settings(device, verb, path.split("/", 1)[1], opts)
    target = _URIS.get(path)
    row_id = None
    if target is None and "/" in path and path.rsplit("/", 1)[1].isdigit():
        path, row_id = path.rsplit("/", 1)
        target = _URIS.get(path)
    if target is None:
        raise ProviderError(f" Unknown URI {uri}")
    db_path, table, fixed = target
    where = " AND ".join(
        w for w in (opts.get("where", [""])[0], _TYPE_FILTER.get(path, ""), f"_id = {row_id}" if row_id else "") if w
    )
    binds = dict(_bind(b) for b in opts.get("bind", []))
    try:
        with closing(open_db(device, db_path)) as db:
            if verb == "query":
                proj = opts.get("projection", ["*"])[0].replace(":", ", ")
                sql = f"SELECT {proj} FROM {table}" + (f" WHERE {where}" if where else "")
                if "sort" in opts:
                    sql += f" ORDER BY {opts['sort'][0]}"
                return _rows(db.execute(sql))
            if verb == "insert":
                values = {**binds, **fixed}
                if table == "sms":
                    _sms_defaults(db, values, device)
                cols = ", ".join(values)
                db.execute(
                    f"INSERT INTO {table} ({cols}) VALUES ({', '.join('?' * len(values))})", list(values.values())
                )
                if table == "data":
                    _sync_display_name(db, values)
                if table == "raw_contacts":
                    db.execute(
                        "UPDATE raw_contacts SET created = ? WHERE _id = last_insert_rowid()", (device.clock.millis(),)
                    )
                return ""
            if verb == "update":
                sets = ", ".join(f"{c} = ?" for c in binds)
                db.execute(f"UPDATE {table} SET {sets}" + (f" WHERE {where}" if where else ""), list(binds.values()))
                return ""
            if verb == "delete":
                if table == "raw_contacts":
                    db.execute("UPDATE raw_contacts SET deleted = 1" + (f" WHERE {where}" if where else ""))
                elif table == "threads":  # a conversation's MMS go with it, as MmsSmsProvider deletes them
                    doomed = f"SELECT _id FROM threads WHERE {where or '1'}"
                    db.execute(f"DELETE FROM part WHERE mid IN (SELECT _id FROM pdu WHERE thread_id IN ({doomed}))")
                    db.execute(f"DELETE FROM pdu WHERE thread_id IN ({doomed})")
                    db.execute(f"DELETE FROM threads WHERE {where or '1'}")
                elif table == "groups":
                    delete_groups(db, [r[0] for r in db.execute(f"SELECT _id FROM groups WHERE {where or '1'}")])
                else:
                    db.execute(f"DELETE FROM {table}" + (f" WHERE {where}" if where else ""))
                return ""
    except sqlite3.Error as exc:
        raise ProviderError(f" {exc}") from exc
    finally:
        device.changed()
    raise ProviderError(f" unknown command {verb}")


def _sms_defaults(db: sqlite3.Connection, values: dict[str, object], device: Context) -> None:
    """An SMS joins (or opens) the thread of its address, as the telephony provider does."""
    values.setdefault("date", device.clock.millis())
    values.setdefault("type", 1)
    address = str(values.get("address") or "")
    if not address:
        raise ProviderError(" an SMS needs an address")
    db.execute("INSERT OR IGNORE INTO threads (address) VALUES (?)", (address,))
    thread_id = db.execute("SELECT _id FROM threads WHERE address = ?", (address,)).fetchone()[0]
    values.setdefault("thread_id", thread_id)
    db.execute(
        "UPDATE threads SET date = ?, message_count = message_count + 1, snippet = ? WHERE _id = ?",
        (values["date"], values.get("body"), thread_id),
    )


def delete_groups(db: sqlite3.Connection, ids: list[int]) -> None:
    """A deleted group is marked deleted and its memberships go with it, as ContactsProvider2 does."""
    db.executemany("UPDATE groups SET deleted = 1 WHERE _id = ?", [(i,) for i in ids])
    db.executemany("DELETE FROM data WHERE mimetype = ? AND data1 = ?", [(GROUP_MIME, str(i)) for i in ids])


def _sync_display_name(db: sqlite3.Connection, values: dict[str, object]) -> None:
    if values.get("mimetype") != NAME_MIME:
        return
    given, family = values.get("data2"), values.get("data3")
    name = values.get("data1") or " ".join(str(p) for p in (given, family) if p)
    db.execute("UPDATE raw_contacts SET display_name = ? WHERE _id = ?", (name, values.get("raw_contact_id")))


def _settings(device: Context, verb: str, namespace: str, opts: dict[str, list[str]]) -> str:
    if namespace not in ("system", "secure", "global"):
        raise ProviderError(f" Unknown URI content://settings/{namespace}")
    s = device.settings
    binds = dict(_bind(b) for b in opts.get("bind", []))
    where = opts.get("where", [""])[0]
    wanted = where.split("=", 1)[1].strip().strip("'\"") if "=" in where else None
    if verb == "query":
        items = [(k, v) for k, v in sorted(s.data[namespace].items()) if wanted is None or k == wanted]
        if not items:
            return "No result found.\n"
        return "".join(f"Row: {i} _id={i + 1}, name={k}, value={v}\n" for i, (k, v) in enumerate(items))
    if verb in ("insert", "update"):
        name = str(binds.get("name", wanted or ""))
        if not name:
            raise ProviderError(" settings insert needs --bind name:s:NAME")
        s.put(namespace, name, str(binds.get("value", "")))
        return ""
    if verb == "delete" and wanted:
        s.delete(namespace, wanted)
        return ""
    raise ProviderError(f" unknown command {verb}")
