"""Accessibility events of the window system, served as the listener app serves them.

While the listener APK is installed and its service enabled in `settings secure`, device port
7333 answers with the event stream (event_lines.py): a hello line, then one JSON line per event.
Each client has a bounded backlog; a slow client loses the oldest lines (the sequence numbers
show the gap) rather than slowing the device down.
"""

from __future__ import annotations

import itertools
import threading
import time
from collections import deque
from typing import Protocol

from pytest_mobile_agent.virtual.core.net import Ports, Socket
from pytest_mobile_agent.virtual.system.event_lines import (
    EVENT_STREAM_PORT,
    LISTENER_PACKAGE,
    LISTENER_SERVICE,
    Event,
    event_line,
    hello_line,
)
from pytest_mobile_agent.virtual.ui.app import Context
from pytest_mobile_agent.virtual.ui.view import View

CLIENT_BACKLOG = 4096
HISTORY = 2048


class Host(Context, Protocol):
    """What the event service needs of its device: the apps' view of it, its ports and its lock."""

    ports: Ports
    lock: threading.RLock


class _Client:
    def __init__(self, stream: Socket) -> None:
        self.stream = stream
        self.pending: deque[bytes] = deque(maxlen=CLIENT_BACKLOG)
        self.scheduled = False
        self._lock = threading.Lock()  # emit runs on shell threads, the flush on the loop

    def push(self, line: bytes) -> None:
        with self._lock:
            self.pending.append(line)
            if self.scheduled:
                return
            self.scheduled = True
        self.stream.loop.call_soon_threadsafe(self._flush)

    def _flush(self) -> None:
        with self._lock:
            self.scheduled = False
            lines = b"".join(self.pending)
            self.pending.clear()
        self.stream.send(lines)

    def on_data(self, data: bytes) -> None:
        pass  # the stream is one-way

    def on_close(self) -> None:
        self.stream.closed = True


class Accessibility:
    def __init__(self, device: Host) -> None:
        self.device = device
        self._seq = itertools.count(1)
        self.next_seq = 1
        self.history: deque[Event] = deque(maxlen=HISTORY)
        self.clients: list[_Client] = []
        self._boot = time.monotonic()
        device.ports.listeners[EVENT_STREAM_PORT] = self._connect
        device.settings.on_change.append(self._settings_changed)

    def _settings_changed(self, namespace: str, key: str) -> None:
        """Turning the service off unbinds it on Android: its server socket and clients close."""
        watched = ("enabled_accessibility_services", "accessibility_enabled")
        if namespace == "secure" and key in watched and not self.service_enabled():
            for client in self.clients:
                client.stream.close_threadsafe()
            self.clients = []

    def uptime_ms(self) -> int:
        """Event time as Android stamps it: milliseconds since the device booted."""
        return int((time.monotonic() - self._boot) * 1000)

    def service_enabled(self) -> bool:
        settings = self.device.settings
        enabled = (settings.get("secure", "enabled_accessibility_services") or "").split(":")
        return (
            self.device.packages.is_installed(LISTENER_PACKAGE)
            and settings.get("secure", "accessibility_enabled") == "1"
            and any(
                s in (LISTENER_SERVICE, LISTENER_SERVICE.replace("/.", "/" + LISTENER_PACKAGE + ".")) for s in enabled
            )
        )

    def _connect(self, stream: Socket) -> _Client | None:
        with self.device.lock:
            if not self.service_enabled():
                return None  # nothing listens on the port: the open is refused
            client = _Client(stream)
            self.clients = [c for c in self.clients if not c.stream.closed] + [client]
            stream.send(hello_line(self.next_seq))
            return client

    def emit(
        self,
        type_: str,
        *,
        package: str,
        cls: str = "",
        text: list[str] | None = None,
        desc: str | None = None,
        view_id: str | None = None,
        bounds: tuple[int, int, int, int] | None = None,
        window_title: str | None = None,
    ) -> None:
        seq = next(self._seq)
        self.next_seq = seq + 1
        if cls.startswith("."):  # Android reports activities by their full class name
            cls = package + cls
        if window_title and window_title.startswith("."):
            window_title = package + window_title
        event = Event(
            seq=seq,
            type=type_,
            time=self.uptime_ms(),
            package=package,
            class_name=cls,
            text=tuple(text or ()),
            content_description=desc or None,
            view_id=view_id or None,
            bounds=bounds,
            window_id=self._window_id(),
            window_title=window_title,
        )
        self.history.append(event)
        if self.clients:
            line = event_line(event)
            self.clients = [c for c in self.clients if not c.stream.closed]
            for client in self.clients:
                client.push(line)

    def emit_view(
        self,
        type_: str,
        view: View,
        package: str,
        *,
        text: list[str] | None = None,
        checked: bool | None = None,
        before: str | None = None,
    ) -> None:
        del checked, before  # part of Android's event, not of the stream's schema
        self.emit(
            type_,
            package=package,
            cls=view.cls,
            text=text if text is not None else ([view.text] if view.text else []),
            desc=view.desc,
            view_id=view.id,
            bounds=view.visible_bounds,
        )

    def _window_id(self) -> int:
        wm = getattr(self.device, "wm", None)
        if wm is None or not wm.tasks:
            return 0
        return id(wm.tasks[-1][0]) % 100000
