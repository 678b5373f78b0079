"""The line format: Python round trip, rejections, and agreement with event_schema.json."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pytest_mobile_agent.events import schema
from pytest_mobile_agent.events.schema import (
    EVENT_FIELDS,
    EVENT_TYPES,
    FIELD_CHECKS,
    AccessibilityEvent,
    Hello,
    MalformedEvent,
    decode_line,
    encode_event,
    encode_hello,
    load_schema,
)

text = st.text(st.characters(exclude_categories=("Cs",)), max_size=30)  # no lone surrogates
ints = st.integers(min_value=-(2**31), max_value=2**31 - 1)

events = st.builds(
    AccessibilityEvent,
    seq=st.integers(min_value=1, max_value=2**53),
    type=st.sampled_from(sorted(EVENT_TYPES)),
    time=st.integers(min_value=0, max_value=2**53),
    package=text,
    class_name=text,
    text=st.lists(text, max_size=5).map(tuple),
    content_description=st.none() | text,
    view_id=st.none() | text,
    bounds=st.none() | st.tuples(ints, ints, ints, ints),
    window_id=ints,
    window_title=st.none() | text,
)


@given(events)
def test_event_round_trip(ev: AccessibilityEvent) -> None:
    line = encode_event(ev)
    assert line.endswith(b"\n") and line.count(b"\n") == 1
    assert decode_line(line) == ev
    assert decode_line(line.rstrip(b"\n")) == ev


@given(st.integers(min_value=1, max_value=2**53))
def test_hello_round_trip(next_seq: int) -> None:
    assert decode_line(encode_hello(next_seq)) == Hello(next_seq)


def test_wire_field_names() -> None:
    ev = AccessibilityEvent(3, "TYPE_VIEW_CLICKED", 10, "pkg", "android.widget.Button", ("+",))
    obj = json.loads(encode_event(ev))
    assert list(obj) == list(EVENT_FIELDS)
    assert obj["class"] == "android.widget.Button" and obj["type_code"] == 1 == ev.type_code


def test_known_codes() -> None:
    assert EVENT_TYPES["TYPE_VIEW_CLICKED"] == 1
    assert EVENT_TYPES["TYPE_WINDOW_STATE_CHANGED"] == 32
    assert EVENT_TYPES["TYPE_WINDOW_CONTENT_CHANGED"] == 2048
    assert EVENT_TYPES["TYPE_VIEW_TEXT_CHANGED"] == 16
    assert list(EVENT_TYPES.values()) == [1 << i for i in range(len(EVENT_TYPES))]


def good() -> dict[str, Any]:
    return json.loads(encode_event(AccessibilityEvent(1, "TYPE_VIEW_CLICKED", 1, "p", "c")))


def line(obj: object) -> bytes:
    return json.dumps(obj).encode()


@pytest.mark.parametrize(
    "data, message",
    [
        (b"not json", "not JSON"),
        (b'{"seq": 1', "not JSON"),
        (b"\xff\xfe{}", "not UTF-8"),
        (b"[1, 2]", "not an object"),
        (b"NaN", "not JSON"),
        (line({**good(), "seq": 1.0}), "'seq' must be an integer"),
        (line({**good(), "seq": True}), "'seq' must be an integer"),
        (line({**good(), "seq": 0}), "seq must be >= 1"),
        (line({**good(), "time": -1}), "time must be >= 0"),
        (line({**good(), "type": "TYPE_NOPE"}), "unknown event type 'TYPE_NOPE'"),
        (line({**good(), "type_code": 2}), "TYPE_VIEW_CLICKED has type_code 1, got 2"),
        (line({**good(), "text": "x"}), "'text' must be a list of strings"),
        (line({**good(), "text": [1]}), "'text' must be a list of strings"),
        (line({**good(), "bounds": [1, 2, 3]}), "'bounds' must be null or a list of 4"),
        (line({**good(), "bounds": [1, 2, 3, 4.5]}), "'bounds' must be null or a list of 4"),
        (line({**good(), "view_id": 5}), "'view_id' must be a string or null"),
        (line({**good(), "package": None}), "'package' must be a string"),
        (line({k: v for k, v in good().items() if k != "window_id"}), "lacks window_id"),
        (line({"hello": "other", "version": 1, "next_seq": 1}), "hello must be"),
        (line({"hello": schema.HELLO_NAME, "version": 2, "next_seq": 1}), "unsupported"),
        (line({"hello": schema.HELLO_NAME, "version": 1}), "no 'next_seq'"),
        (line({"hello": schema.HELLO_NAME, "version": 1, "next_seq": 0}), "next_seq must be >= 1"),
        (b"{" + b" " * 65536 + b"}", "over 65536"),
    ],
)
def test_rejections(data: bytes, message: str) -> None:
    with pytest.raises(MalformedEvent) as info:
        decode_line(data)
    assert message in str(info.value)
    assert isinstance(info.value, ValueError)


def test_extra_properties_are_ignored() -> None:
    assert decode_line(line({**good(), "future_field": 1})).seq == 1  # type: ignore[union-attr]


def test_line_limit_is_exact() -> None:
    ev = AccessibilityEvent(1, "TYPE_VIEW_CLICKED", 1, "p", "c")
    room = schema.MAX_LINE_BYTES - (len(encode_event(ev)) - 1)
    assert (
        len(encode_event(AccessibilityEvent(1, "TYPE_VIEW_CLICKED", 1, "p" * (room + 1), "c"))) - 1
        == schema.MAX_LINE_BYTES
    )
    with pytest.raises(MalformedEvent, match="over 65536"):
        encode_event(AccessibilityEvent(1, "TYPE_VIEW_CLICKED", 1, "p" * (room + 2), "c"))


def test_encode_refuses_what_decode_would_reject() -> None:
    with pytest.raises(MalformedEvent, match="unknown event type"):
        encode_event(AccessibilityEvent(1, "TYPE_NOPE", 1, "p", "c"))
    with pytest.raises(MalformedEvent, match="not valid Unicode"):
        encode_event(AccessibilityEvent(1, "TYPE_VIEW_CLICKED", 1, "\ud800", "c"))


# -- agreement with the JSON Schema file


def schema_accepts(prop: dict[str, Any], value: object) -> bool:
    """A tiny evaluator for the keywords the event properties use."""
    json_types = {
        "integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
        "string": lambda v: isinstance(v, str),
        "array": lambda v: isinstance(v, list),
        "null": lambda v: v is None,
    }
    allowed = prop.get("type")
    if allowed is not None:
        names = [allowed] if isinstance(allowed, str) else allowed
        if not any(json_types[n](value) for n in names):
            return False
    if isinstance(value, list):
        if len(value) < prop.get("minItems", 0) or len(value) > prop.get("maxItems", 1 << 30):
            return False
        if "items" in prop and not all(schema_accepts(prop["items"], v) for v in value):
            return False
    return "enum" not in prop or value in prop["enum"]


SAMPLES: list[object] = [
    0, 7, -1, True, 1.5, "", "x", "TYPE_VIEW_CLICKED", None, [], ["a"], [1],
    [1, 2, 3, 4], [1, 2, 3], ["a", "b", "c", "d"], {}, [1, 2, 3, 4.0],
]  # fmt: skip


def test_schema_fields_match_the_validator() -> None:
    event = load_schema()["$defs"]["event"]
    assert event["required"] == list(EVENT_FIELDS)
    assert list(event["properties"]) == list(EVENT_FIELDS) == list(FIELD_CHECKS)
    for field, prop in event["properties"].items():
        assert prop.get("description"), f"{field} has no description"
        check, _ = FIELD_CHECKS[field]
        for value in SAMPLES:
            in_schema = schema_accepts({k: v for k, v in prop.items() if k != "enum"}, value)
            assert check(value) == in_schema, (field, value)


def test_schema_types_and_constants() -> None:
    doc = load_schema()
    assert doc["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert doc["x-port"] == schema.EVENT_STREAM_PORT == 7333
    assert doc["x-max-line-bytes"] == schema.MAX_LINE_BYTES
    assert doc["$defs"]["event"]["properties"]["type"]["enum"] == list(EVENT_TYPES)
    hello = doc["$defs"]["hello"]
    assert hello["required"] == ["hello", "version", "next_seq"]
    assert hello["properties"]["hello"]["const"] == schema.HELLO_NAME
    assert hello["properties"]["version"]["const"] == schema.PROTOCOL_VERSION
    for entry in doc["$defs"]["eventType"]["oneOf"]:
        assert entry["description"]


EVENT_PROPS = load_schema()["$defs"]["event"]["properties"]


@given(events)
def test_encoded_events_satisfy_the_schema_file(ev: AccessibilityEvent) -> None:
    props = EVENT_PROPS
    for field, value in json.loads(encode_event(ev)).items():
        assert schema_accepts(props[field], value), field
