"""The accessibility event stream: its line format and the host-side client."""

from pytest_mobile_agent.events.client import EventStreamClient
from pytest_mobile_agent.events.schema import (
    EVENT_STREAM_PORT,
    EVENT_TYPES,
    LISTENER_PACKAGE,
    LISTENER_SERVICE,
    AccessibilityEvent,
    Hello,
    MalformedEvent,
    decode_line,
    encode_event,
    encode_hello,
)

__all__ = [
    "EVENT_STREAM_PORT",
    "EVENT_TYPES",
    "LISTENER_PACKAGE",
    "LISTENER_SERVICE",
    "AccessibilityEvent",
    "EventStreamClient",
    "Hello",
    "MalformedEvent",
    "decode_line",
    "encode_event",
    "encode_hello",
]
