"""The device's own writer of the event stream agrees with event_schema.json and the harness's
decoder, as the listener app's Java writer must (tests/events/test_event_java.py)."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pytest_mobile_agent.events import schema
from pytest_mobile_agent.virtual.system import event_lines
from pytest_mobile_agent.virtual.system.event_lines import TYPE_CODES, Event, event_line, hello_line

text = st.text(st.characters(exclude_categories=("Cs",)), max_size=30)  # no lone surrogates
ints = st.integers(min_value=-(2**31), max_value=2**31 - 1)

events = st.builds(
    Event,
    seq=st.integers(min_value=1, max_value=2**53),
    type=st.sampled_from(sorted(TYPE_CODES)),
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


def test_type_table_is_the_schemas() -> None:
    assert TYPE_CODES == schema.EVENT_TYPES


@pytest.mark.parametrize(
    "name",
    ["EVENT_STREAM_PORT", "LISTENER_PACKAGE", "LISTENER_SERVICE", "HELLO_NAME", "PROTOCOL_VERSION", "MAX_LINE_BYTES"],
)
def test_constants_are_the_schemas(name: str) -> None:
    assert getattr(event_lines, name) == getattr(schema, name)


@given(events)
def test_event_lines_decode_to_the_same_event(event: Event) -> None:
    line = event_line(event)
    assert line.endswith(b"\n") and line.count(b"\n") == 1
    assert line == schema.encode_event(schema.AccessibilityEvent(**dataclasses.asdict(event)))
    assert dataclasses.asdict(schema.decode_line(line)) == dataclasses.asdict(event)


@given(st.integers(min_value=1, max_value=2**53))
def test_hello_lines_decode_to_the_same_hello(next_seq: int) -> None:
    assert hello_line(next_seq) == schema.encode_hello(next_seq)
    assert schema.decode_line(hello_line(next_seq)) == schema.Hello(next_seq)


def test_what_clients_would_drop_is_never_written() -> None:
    with pytest.raises(ValueError, match="unknown event type"):
        event_line(Event(1, "TYPE_NOT_AN_EVENT", 0, "p", "c"))
    with pytest.raises(ValueError, match="bytes, over"):
        event_line(Event(1, "TYPE_VIEW_CLICKED", 0, "p", "c", ("x" * schema.MAX_LINE_BYTES,)))
