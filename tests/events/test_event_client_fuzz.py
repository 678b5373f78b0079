"""Property tests: bad lines in the stream are skipped with a warning and the stream goes on."""

from __future__ import annotations

import logging
import socket
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pytest_mobile_agent.errors import EventStreamError
from pytest_mobile_agent.events.client import EventStreamClient, LineDecoder
from pytest_mobile_agent.events.schema import (
    MAX_LINE_BYTES,
    AccessibilityEvent,
    MalformedEvent,
    decode_line,
    encode_event,
    encode_hello,
)


def _is_malformed(data: bytes) -> bool:
    try:
        decode_line(data)
    except MalformedEvent:
        return True
    return False


events = st.builds(
    AccessibilityEvent,
    seq=st.just(1),
    type=st.sampled_from(["TYPE_VIEW_CLICKED", "TYPE_WINDOW_CONTENT_CHANGED"]),
    time=st.integers(0, 2**40),
    package=st.text(max_size=10),
    class_name=st.text(max_size=10),
    text=st.lists(st.text(st.characters(exclude_categories=("Cs",)), max_size=10), max_size=3).map(tuple),
)
malformed = st.one_of(
    st.binary(max_size=100),
    st.sampled_from([b"", b"{", b"{}", b'{"seq":1}', b"\xc3\x28", b"null", b'"text"']),
    events.map(lambda e: encode_event(e)[:-1][: len(encode_event(e)) // 2]),  # cut short
).filter(lambda b: b"\n" not in b and _is_malformed(b))
oversized = st.integers(MAX_LINE_BYTES + 1, MAX_LINE_BYTES + 3000).map(lambda n: b"[" * n)
items = st.lists(
    st.one_of(
        events.map(lambda e: ("event", e)),
        malformed.map(lambda b: ("bad", b)),
        oversized.map(lambda b: ("bad", b)),
    ),
    max_size=12,
)


def build_stream(chosen: list[tuple[str, object]], tail: bytes) -> tuple[bytes, list[AccessibilityEvent], int]:
    """The bytes of a connection, the events it should yield and the lines it should skip."""
    data = encode_hello(1)
    expected: list[AccessibilityEvent] = []
    skipped = 0
    for kind, value in chosen:
        if kind == "event":
            ev = replace(value, seq=len(expected) + 1)  # type: ignore[type-var]
            expected.append(ev)
            data += encode_event(ev)
        else:
            data += value + b"\n"  # type: ignore[operator]
            skipped += 1
    return data + tail, expected, skipped + (1 if tail else 0)


def chunked(data: bytes, cuts: list[int]) -> list[bytes]:
    points = sorted({c % (len(data) + 1) for c in cuts} | {0, len(data)})
    return [data[a:b] for a, b in zip(points, points[1:], strict=False)]


tails = st.sampled_from([b"", b'{"seq": 9', b"x" * (MAX_LINE_BYTES + 10)])


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(items, tails, st.lists(st.integers(0, 10**6), max_size=20))
def test_decoder_skips_bad_lines_at_any_chunking(
    chosen: list[tuple[str, object]], tail: bytes, cuts: list[int]
) -> None:
    data, expected, skipped = build_stream(chosen, tail)
    decoder = LineDecoder()
    got = []
    for chunk in chunked(data, cuts):
        got.extend(decoder.feed(chunk))
    decoder.end()
    assert got[0].next_seq == 1  # type: ignore[union-attr]
    assert got[1:] == expected
    assert decoder.skipped == skipped


def test_skips_are_logged(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING)
    decoder = LineDecoder("dev-1")
    good = encode_event(AccessibilityEvent(1, "TYPE_VIEW_CLICKED", 1, "p", "c"))
    out = decoder.feed(b"garbage\n" + b"{" * (MAX_LINE_BYTES + 1))
    out += decoder.feed(b"more of the long line\n" + good + b'{"partial')
    decoder.end()
    assert [e.seq for e in out] == [1]  # type: ignore[union-attr]
    messages = [r.getMessage() for r in caplog.records]
    assert len(messages) == 3
    assert "dev-1: skipping malformed line: line is not JSON" in messages[0]
    assert f"line longer than {MAX_LINE_BYTES} bytes" in messages[1]
    assert "partial line of 9 bytes at end of connection" in messages[2]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(items, tails, st.lists(st.integers(0, 10**6), max_size=8))
def test_client_over_a_socketpair(chosen: list[tuple[str, object]], tail: bytes, cuts: list[int]) -> None:
    data, expected, skipped = build_stream(chosen, tail)
    ours, theirs = socket.socketpair()
    connections = iter([theirs])

    def connect() -> socket.socket:
        conn = next(connections, None)
        if conn is None:
            raise ConnectionRefusedError("only one connection in this test")
        return conn

    client = EventStreamClient(connect, retries=0)
    client._thread.start()  # not start(): the hello is still to be written
    try:
        for chunk in chunked(data, cuts):
            ours.sendall(chunk)
        ours.close()
        with pytest.raises(EventStreamError, match="gave up after 0 retries"):
            client.wait_for(lambda e: False, timeout=30)
    finally:
        client.close()
    assert client.events == expected
    assert client.skipped_lines == skipped
    assert client.gaps == []
