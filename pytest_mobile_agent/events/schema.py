"""The accessibility event stream's line format, as defined in ``event_schema.json``.

The validator is written by hand from the schema's rules (a test checks the two agree) so the
host needs no jsonschema dependency and every rejection gets a specific message.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from importlib import resources
from typing import Any

EVENT_STREAM_PORT = 7333
LISTENER_PACKAGE = "io.pytestmobileagent.listener"
LISTENER_SERVICE = "io.pytestmobileagent.listener/.EventStreamService"
# The listener's LocaleReceiver: sets the system locale without root (CHANGE_CONFIGURATION).
LISTENER_LOCALE_ACTION = "io.pytestmobileagent.listener.SET_LOCALE"
LISTENER_VERSION_CODE = 2
HELLO_NAME = "pytest-mobile-agent-events"
PROTOCOL_VERSION = 1
MAX_LINE_BYTES = 65536  # not counting the line's "\n"


def load_schema() -> dict[str, Any]:
    """The JSON Schema document shipped next to this module."""
    text = resources.files(__package__).joinpath("event_schema.json").read_text("utf-8")
    return json.loads(text)


def _type_table(schema: dict[str, Any]) -> dict[str, int]:
    table = {}
    for entry in schema["$defs"]["eventType"]["oneOf"]:
        props = entry["properties"]
        table[props["type"]["const"]] = props["type_code"]["const"]
    return table


# The type table is read from the schema file so there is exactly one list to maintain.
EVENT_TYPES: dict[str, int] = _type_table(load_schema())
EVENT_TYPE_NAMES: dict[int, str] = {code: name for name, code in EVENT_TYPES.items()}

EVENT_FIELDS = (
    "seq",
    "type",
    "type_code",
    "time",
    "package",
    "class",
    "text",
    "content_description",
    "view_id",
    "bounds",
    "window_id",
    "window_title",
)


class MalformedEvent(ValueError):
    """A line that is not a valid hello or event line."""


@dataclass(frozen=True)
class AccessibilityEvent:
    """One event of the stream; ``class_name`` is the wire field ``class``."""

    seq: int
    type: str
    time: int
    package: str
    class_name: str
    text: tuple[str, ...] = ()
    content_description: str | None = None
    view_id: str | None = None
    bounds: tuple[int, int, int, int] | None = None
    window_id: int = -1
    window_title: str | None = None

    @property
    def type_code(self) -> int:
        return EVENT_TYPES[self.type]

    def to_json(self) -> dict[str, Any]:
        return {
            "seq": self.seq,
            "type": self.type,
            "type_code": EVENT_TYPES.get(self.type, -1),
            "time": self.time,
            "package": self.package,
            "class": self.class_name,
            "text": list(self.text),
            "content_description": self.content_description,
            "view_id": self.view_id,
            "bounds": None if self.bounds is None else list(self.bounds),
            "window_id": self.window_id,
            "window_title": self.window_title,
        }


@dataclass(frozen=True)
class Hello:
    """The first line of every connection."""

    next_seq: int
    version: int = PROTOCOL_VERSION

    def to_json(self) -> dict[str, Any]:
        return {"hello": HELLO_NAME, "version": self.version, "next_seq": self.next_seq}


def encode_event(ev: AccessibilityEvent) -> bytes:
    """One line (with its ``\\n``); raises ``ValueError`` for an event the schema rejects."""
    obj = ev.to_json()
    _check_event(obj)  # so the virtual device can never emit a line clients would drop
    return _encode(obj)


def encode_hello(next_seq: int) -> bytes:
    obj = Hello(next_seq).to_json()
    _check_hello(obj)
    return _encode(obj)


def _encode(obj: dict[str, Any]) -> bytes:
    text = json.dumps(obj, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    try:
        data = text.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise MalformedEvent(f"event has a string that is not valid Unicode: {exc}") from None
    if len(data) > MAX_LINE_BYTES:
        raise MalformedEvent(f"encoded line is {len(data)} bytes, over {MAX_LINE_BYTES}")
    return data + b"\n"


def decode_line(line: bytes) -> AccessibilityEvent | Hello:
    """Decodes one line (a trailing ``\\n`` is allowed) or raises ``MalformedEvent``."""
    if line.endswith(b"\n"):
        line = line[:-1]
    if len(line) > MAX_LINE_BYTES:
        raise MalformedEvent(f"line is {len(line)} bytes, over {MAX_LINE_BYTES}")
    try:
        text = line.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise MalformedEvent(f"line is not UTF-8: {exc}") from None
    try:
        obj = json.loads(text, parse_constant=_reject_constant)
    except (ValueError, RecursionError) as exc:
        raise MalformedEvent(f"line is not JSON: {exc}") from None
    if not isinstance(obj, dict):
        raise MalformedEvent(f"line is JSON {type(obj).__name__}, not an object")
    if "hello" in obj:
        _check_hello(obj)
        return Hello(next_seq=obj["next_seq"], version=obj["version"])
    _check_event(obj)
    bounds = obj["bounds"]
    return AccessibilityEvent(
        seq=obj["seq"],
        type=obj["type"],
        time=obj["time"],
        package=obj["package"],
        class_name=obj["class"],
        text=tuple(obj["text"]),
        content_description=obj["content_description"],
        view_id=obj["view_id"],
        bounds=None if bounds is None else tuple(bounds),
        window_id=obj["window_id"],
        window_title=obj["window_title"],
    )


def _reject_constant(name: str) -> float:
    raise ValueError(f"{name} is not JSON")


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _check_hello(obj: dict[str, Any]) -> None:
    if obj.get("hello") != HELLO_NAME:
        raise MalformedEvent(f"hello must be {HELLO_NAME!r}, got {obj.get('hello')!r}")
    for key in ("version", "next_seq"):
        if key not in obj:
            raise MalformedEvent(f"hello line has no {key!r}")
        if not _is_int(obj[key]):
            raise MalformedEvent(f"hello {key!r} must be an integer, got {obj[key]!r}")
    if obj["version"] != PROTOCOL_VERSION:
        raise MalformedEvent(f"unsupported stream version {obj['version']}")
    if obj["next_seq"] < 1:
        raise MalformedEvent(f"hello next_seq must be >= 1, got {obj['next_seq']}")


def _opt_str(v: object) -> bool:
    return v is None or isinstance(v, str)


def _str_list(v: object) -> bool:
    return isinstance(v, list) and all(isinstance(i, str) for i in v)


def _bounds(v: object) -> bool:
    return v is None or (isinstance(v, list) and len(v) == 4 and all(_is_int(i) for i in v))


# Field -> (check, what the schema asks for); the schema agreement test reads it too.
FIELD_CHECKS = {
    "seq": (_is_int, "an integer"),
    "type": (lambda v: isinstance(v, str), "a string"),
    "type_code": (_is_int, "an integer"),
    "time": (_is_int, "an integer"),
    "package": (lambda v: isinstance(v, str), "a string"),
    "class": (lambda v: isinstance(v, str), "a string"),
    "text": (_str_list, "a list of strings"),
    "content_description": (_opt_str, "a string or null"),
    "view_id": (_opt_str, "a string or null"),
    "bounds": (_bounds, "null or a list of 4 integers"),
    "window_id": (_is_int, "an integer"),
    "window_title": (_opt_str, "a string or null"),
}


def _check_event(obj: dict[str, Any]) -> None:
    missing = [f for f in EVENT_FIELDS if f not in obj]
    if missing:
        raise MalformedEvent(f"event line lacks {', '.join(missing)}")
    for field, (ok, wanted) in FIELD_CHECKS.items():
        if not ok(obj[field]):
            raise MalformedEvent(f"event {field!r} must be {wanted}, got {obj[field]!r:.80}")
    if obj["seq"] < 1:
        raise MalformedEvent(f"event seq must be >= 1, got {obj['seq']}")
    if obj["time"] < 0:
        raise MalformedEvent(f"event time must be >= 0, got {obj['time']}")
    code = EVENT_TYPES.get(obj["type"])
    if code is None:
        raise MalformedEvent(f"unknown event type {obj['type']!r:.80}")
    if obj["type_code"] != code:
        raise MalformedEvent(f"{obj['type']} has type_code {code}, got {obj['type_code']}")


__all__ = [
    "EVENT_FIELDS",
    "EVENT_STREAM_PORT",
    "EVENT_TYPES",
    "EVENT_TYPE_NAMES",
    "HELLO_NAME",
    "LISTENER_PACKAGE",
    "LISTENER_SERVICE",
    "LISTENER_VERSION_CODE",
    "MAX_LINE_BYTES",
    "PROTOCOL_VERSION",
    "AccessibilityEvent",
    "Hello",
    "MalformedEvent",
    "decode_line",
    "encode_event",
    "encode_hello",
    "load_schema",
]
