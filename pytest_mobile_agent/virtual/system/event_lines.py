"""The listener app's event stream as the device writes it: its port, and its hello and event lines.

The format is `pytest_mobile_agent/events/event_schema.json`, which the harness reads and the
listener app (listener_app/) writes too; the device keeps its own writer, as the app does, and a
test checks its lines against the schema and the harness's decoder.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

EVENT_STREAM_PORT = 7333
LISTENER_PACKAGE = "io.pytestmobileagent.listener"
LISTENER_SERVICE = "io.pytestmobileagent.listener/.EventStreamService"
# The listener's LocaleReceiver: sets the system locale without root (CHANGE_CONFIGURATION).
LISTENER_LOCALE_ACTION = "io.pytestmobileagent.listener.SET_LOCALE"
HELLO_NAME = "pytest-mobile-agent-events"
PROTOCOL_VERSION = 1
MAX_LINE_BYTES = 65536  # not counting the line's "\n"
# android.view.accessibility.AccessibilityEvent's TYPE_* constants.
TYPE_CODES = {
    "TYPE_VIEW_CLICKED": 1,
    "TYPE_VIEW_LONG_CLICKED": 2,
    "TYPE_VIEW_SELECTED": 4,
    "TYPE_VIEW_FOCUSED": 8,
    "TYPE_VIEW_TEXT_CHANGED": 16,
    "TYPE_WINDOW_STATE_CHANGED": 32,
    "TYPE_NOTIFICATION_STATE_CHANGED": 64,
    "TYPE_VIEW_HOVER_ENTER": 128,
    "TYPE_VIEW_HOVER_EXIT": 256,
    "TYPE_TOUCH_EXPLORATION_GESTURE_START": 512,
    "TYPE_TOUCH_EXPLORATION_GESTURE_END": 1024,
    "TYPE_WINDOW_CONTENT_CHANGED": 2048,
    "TYPE_VIEW_SCROLLED": 4096,
    "TYPE_VIEW_TEXT_SELECTION_CHANGED": 8192,
    "TYPE_ANNOUNCEMENT": 16384,
    "TYPE_VIEW_ACCESSIBILITY_FOCUSED": 32768,
    "TYPE_VIEW_ACCESSIBILITY_FOCUS_CLEARED": 65536,
    "TYPE_VIEW_TEXT_TRAVERSED_AT_MOVEMENT_GRANULARITY": 131072,
    "TYPE_GESTURE_DETECTION_START": 262144,
    "TYPE_GESTURE_DETECTION_END": 524288,
    "TYPE_TOUCH_INTERACTION_START": 1048576,
    "TYPE_TOUCH_INTERACTION_END": 2097152,
    "TYPE_WINDOWS_CHANGED": 4194304,
    "TYPE_VIEW_CONTEXT_CLICKED": 8388608,
    "TYPE_ASSIST_READING_CONTEXT": 16777216,
    "TYPE_SPEECH_STATE_CHANGE": 33554432,
    "TYPE_VIEW_TARGETED_BY_SCROLL": 67108864,
}


@dataclass(frozen=True)
class Event:
    """One accessibility event, as the device reports it (`class_name` is the line's `class`)."""

    seq: int
    type: str
    time: int  # ms since boot
    package: str
    class_name: str
    text: tuple[str, ...] = ()
    content_description: str | None = None
    view_id: str | None = None
    bounds: tuple[int, int, int, int] | None = None
    window_id: int = -1
    window_title: str | None = None


def event_line(event: Event) -> bytes:
    """The event's line (with its "\\n"); ValueError for a type the stream has no code for, or a
    line too long for clients to read (so the device never sends one they would drop)."""
    code = TYPE_CODES.get(event.type)
    if code is None:
        raise ValueError(f"unknown event type {event.type!r:.80}")
    return _line(
        {
            "seq": event.seq,
            "type": event.type,
            "type_code": code,
            "time": event.time,
            "package": event.package,
            "class": event.class_name,
            "text": list(event.text),
            "content_description": event.content_description,
            "view_id": event.view_id,
            "bounds": None if event.bounds is None else list(event.bounds),
            "window_id": event.window_id,
            "window_title": event.window_title,
        }
    )


def hello_line(next_seq: int) -> bytes:
    """The line each connection starts with: the seq of the next event it will get."""
    return _line({"hello": HELLO_NAME, "version": PROTOCOL_VERSION, "next_seq": next_seq})


def _line(obj: dict[str, Any]) -> bytes:
    text = json.dumps(obj, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    try:
        data = text.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise ValueError(f"event has a string that is not valid Unicode: {exc}") from None
    if len(data) > MAX_LINE_BYTES:
        raise ValueError(f"encoded line is {len(data)} bytes, over {MAX_LINE_BYTES}")
    return data + b"\n"
