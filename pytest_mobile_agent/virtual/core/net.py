"""The device's TCP ports: the servers listening on them, and connections a device-side client opens.

A server on the device (the listener's event stream, the uiautomator2 server) listens on a port;
the host reaches it through adb (a `tcp:PORT` stream), which hands the server each connection as
a `Socket`. A device-side client (`nc localhost PORT`) reaches the ports that `adb reverse`
carries to the host; adbd, which holds those rules, is the `dialer`.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from typing import Protocol


class Socket(Protocol):
    """One connection to a device port, as the server listening there sees it."""

    closed: bool

    @property
    def loop(self) -> asyncio.AbstractEventLoop: ...  # send() and close() run on it

    def send(self, data: bytes) -> None: ...
    def send_threadsafe(self, data: bytes) -> None: ...
    def close_threadsafe(self) -> None: ...


class Handler(Protocol):
    """What a server does with its connection's input (called on the connection's loop)."""

    def on_data(self, data: bytes) -> None: ...
    def on_close(self) -> None: ...


Listener = Callable[[Socket], Handler | None]  # None refuses the connection


class Channel(Protocol):
    """A connection a device-side client opened: bytes out with send, bytes in as they come."""

    received: bytearray
    cond: threading.Condition  # notified as bytes arrive and when the other end closes
    closed: bool

    def send(self, data: bytes) -> None: ...
    def close(self) -> None: ...


Dialer = Callable[[int, float], Channel | None]  # (port, timeout) -> the connection, None: refused


class Ports:
    """The device's listening ports, and where a local client's connections go."""

    def __init__(self) -> None:
        self.listeners: dict[int, Listener] = {}
        self.dialer: Dialer | None = None  # set by adbd: its `adb reverse` rules

    def connect(self, port: int, timeout: float = 5.0) -> Channel | None:
        """Connect to a local port as a device-side client; None: refused."""
        return self.dialer(port, timeout) if self.dialer is not None else None
