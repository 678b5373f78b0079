"""Host-side client of the accessibility event stream (see ``event_schema.json``).

A background thread reads lines from the device, keeps the events in order, reconnects after
a drop and records the seq ranges it missed. Bad lines are logged and skipped, not raised:
one garbled event must not end a benchmark episode. (Logging rather than ``warnings.warn``,
which turns into an exception in the reader thread under ``-W error``.)
"""

from __future__ import annotations

import contextlib
import logging
import socket
import threading
import time
from collections.abc import Callable
from typing import Any, Protocol

from pytest_mobile_agent.errors import EventStreamError
from pytest_mobile_agent.events.schema import (
    EVENT_STREAM_PORT,
    MAX_LINE_BYTES,
    AccessibilityEvent,
    Hello,
    MalformedEvent,
    decode_line,
)

log = logging.getLogger(__name__)


class SocketLike(Protocol):
    def recv(self, bufsize: int, /) -> bytes: ...
    def close(self) -> None: ...


class LineDecoder:
    """Splits a byte stream into lines and decodes them, skipping bad lines with a warning."""

    def __init__(self, source: str = "event stream") -> None:
        self.source = source
        self.skipped = 0
        self._buf = bytearray()
        self._scanned = 0  # bytes of _buf already known to hold no newline
        self._discarding = False  # inside an oversized line: drop up to the next newline

    def feed(self, data: bytes) -> list[AccessibilityEvent | Hello]:
        self._buf += data
        items: list[AccessibilityEvent | Hello] = []
        while (end := self._buf.find(b"\n", self._scanned)) >= 0:
            line = bytes(self._buf[:end])
            del self._buf[: end + 1]
            self._scanned = 0
            if self._discarding:
                self._discarding = False
                continue
            try:
                items.append(decode_line(line))
            except MalformedEvent as exc:
                self._skip(f"malformed line: {exc}")
        self._scanned = len(self._buf)
        if not self._discarding and len(self._buf) > MAX_LINE_BYTES:
            self._skip(f"line longer than {MAX_LINE_BYTES} bytes")
            self._discarding = True
        if self._discarding:
            self._buf.clear()
            self._scanned = 0
        return items

    def end(self) -> None:
        """The connection ended: an unterminated last line is incomplete."""
        if self._buf and not self._discarding:
            self._skip(f"partial line of {len(self._buf)} bytes at end of connection")
        self._buf.clear()
        self._scanned = 0
        self._discarding = False

    def _skip(self, why: str) -> None:
        self.skipped += 1
        log.warning("%s: skipping %s", self.source, why)


class EventStreamClient:
    """Reads the event stream in the background; use as a context manager or start()/close().

    ``connect`` opens a fresh byte stream to the service each time it is called; see
    ``for_device`` for the adb route. seq restarts at 1 when the service restarts; the client
    notices when a hello's next_seq goes backwards, counts it in ``restarts`` and from then on
    ``events_since`` and ``wait_for`` look only at events of the new run.
    """

    def __init__(
        self,
        connect: Callable[[], SocketLike],
        *,
        retries: int = 5,
        backoff: float = 0.05,
        max_backoff: float = 2.0,
        name: str = "event stream",
    ) -> None:
        self._connect = connect
        self._retries = retries
        self._backoff = backoff
        self._max_backoff = max_backoff
        self.name = name
        self._cond = threading.Condition()
        self._events: list[AccessibilityEvent] = []
        self._gaps: list[tuple[int, int]] = []
        self._run_start = 0  # index in _events of the first event of the current service run
        self._expected: int | None = None  # seq the next event should carry
        self._sock: SocketLike | None = None
        self._closed = threading.Event()
        self._thread = threading.Thread(target=self._read_forever, name=name, daemon=True)
        self.hello: Hello | None = None
        self.connections = 0  # hellos received, so 1 + successful reconnects
        self.restarts = 0
        self.skipped_lines = 0
        self.error: EventStreamError | None = None

    @classmethod
    def for_device(cls, device: Any, port: int = EVENT_STREAM_PORT, **kwargs: Any) -> EventStreamClient:
        """A client that reaches the device's loopback port through the adb server (no forward)."""
        from adbutils import Network

        serial = getattr(device, "serial", "?")
        kwargs.setdefault("name", f"event stream {serial}")
        return cls(lambda: device.create_connection(Network.TCP, port), **kwargs)

    def start(self, timeout: float = 10.0) -> EventStreamClient:
        """Starts reading and waits for the first hello line."""
        self._thread.start()
        if not self.wait_connected(1, timeout):
            self.close()
            raise EventStreamError(f"{self.name}: no hello line within {timeout} s")
        return self

    def wait_connected(self, connections: int, timeout: float) -> bool:
        """Waits until ``connections`` hello lines arrived in all (1 + reconnects so far)."""
        with self._cond:
            self._cond.wait_for(lambda: self.connections >= connections or self.error is not None, timeout)
            if self.connections < connections and self.error is not None:
                raise self.error
            return self.connections >= connections

    def __enter__(self) -> EventStreamClient:
        return self.start()

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    @property
    def connected(self) -> bool:
        """Reading a connection now (not between retries, not given up)."""
        with self._cond:
            return self._sock is not None and self.error is None and not self._closed.is_set()

    @property
    def events(self) -> list[AccessibilityEvent]:
        with self._cond:
            return list(self._events)

    @property
    def gaps(self) -> list[tuple[int, int]]:
        """Missed events as (first_missing_seq, last_missing_seq) ranges, in order."""
        with self._cond:
            return list(self._gaps)

    @property
    def last_seq(self) -> int:
        """seq of the newest event of the current service run, 0 if none yet."""
        with self._cond:
            return self._events[-1].seq if len(self._events) > self._run_start else 0

    def events_since(self, seq: int) -> list[AccessibilityEvent]:
        """Events of the current service run with a seq above ``seq``, in order."""
        with self._cond:
            return [e for e in self._events[self._run_start :] if e.seq > seq]

    def wait_for(
        self,
        predicate: Callable[[AccessibilityEvent], bool],
        timeout: float,
        since: int = 0,
    ) -> AccessibilityEvent | None:
        """The first event after seq ``since`` that satisfies ``predicate``; None on timeout.

        Event-driven: it sleeps on a condition the reader notifies. The predicate runs with
        the client's lock held, so keep it a quick look at the event.
        """
        deadline = time.monotonic() + timeout
        checked = 0
        with self._cond:
            while True:
                start = max(checked, self._run_start)
                for event in self._events[start:]:
                    if event.seq > since and predicate(event):
                        return event
                checked = len(self._events)
                if self.error is not None:
                    raise self.error
                remaining = deadline - time.monotonic()
                if remaining <= 0 or self._closed.is_set():
                    return None
                self._cond.wait(remaining)

    def sync(self, timeout: float = 2.0) -> bool:
        """Wait until every event the service had published when this was called has arrived.

        A second connection's hello line carries the service's next_seq: that is the barrier,
        on a phone as on the virtual device. Returns False if the barrier was not reached in
        time (events may still be in flight; the caller decides what that means).
        """
        deadline = time.monotonic() + timeout
        sock = self._connect()
        decoder = LineDecoder(f"{self.name} (sync)")
        hello: Hello | None = None
        try:
            if isinstance(sock, socket.socket):
                sock.settimeout(timeout)
            quick_ack(sock)  # the ACK of the transport's OKAY, or the hello line waits 40 ms behind it
            while hello is None and time.monotonic() < deadline:
                data = sock.recv(65536)
                if not data:
                    break
                hello = next((item for item in decoder.feed(data) if isinstance(item, Hello)), None)
        except OSError:
            return False
        finally:
            _shutdown(sock)
        if hello is None:
            return False
        target = hello.next_seq
        with self._cond:
            return (
                self._cond.wait_for(
                    lambda: (self._expected or 0) >= target or self.error is not None or self._closed.is_set(),
                    max(0.0, deadline - time.monotonic()),
                )
                and (self._expected or 0) >= target
            )

    def close(self) -> None:
        self._closed.set()
        with self._cond:
            sock = self._sock
            self._cond.notify_all()
        if sock is not None:
            _shutdown(sock)
        if self._thread.is_alive() and self._thread is not threading.current_thread():
            self._thread.join(timeout=5)

    # -- reader thread

    def _read_forever(self) -> None:
        failures = 0
        while not self._closed.is_set():
            try:
                sock = self._connect()
            except Exception as exc:  # adbutils raises its own errors, sockets raise OSError
                why = f"connect failed: {exc}"
            else:
                got_hello = self._read(sock)
                if got_hello:
                    failures = 0
                why = "connection closed" if got_hello else "connection closed before a hello line"
            if self._closed.is_set():
                return
            failures += 1
            if failures > self._retries:
                self._fail(f"{self.name}: {why}; gave up after {self._retries} retries")
                return
            delay = min(self._max_backoff, self._backoff * 2 ** (failures - 1))
            log.warning("%s: %s; reconnecting in %.2f s", self.name, why, delay)
            if self._closed.wait(delay):
                return

    def _read(self, sock: SocketLike) -> bool:
        """Reads one connection to its end; True when it delivered a hello line."""
        with self._cond:
            self._sock = sock
        got_hello = False
        decoder = LineDecoder(self.name)
        try:
            if isinstance(sock, socket.socket):
                sock.settimeout(None)  # adbutils leaves a timeout; the stream may idle for long
            quick_ack(sock)  # for the transport's OKAY, or the hello line waits behind its ACK
            while not self._closed.is_set():
                data = sock.recv(65536)
                if not data:
                    break
                quick_ack(sock)
                for item in decoder.feed(data):
                    got_hello = self._handle(item) or got_hello
        except OSError as exc:
            log.debug("%s: read ended: %s", self.name, exc)
        finally:
            decoder.end()
            with self._cond:
                self._sock = None
                self.skipped_lines += decoder.skipped
            _shutdown(sock)
        return got_hello

    def _handle(self, item: AccessibilityEvent | Hello) -> bool:
        with self._cond:
            if isinstance(item, Hello):
                self._on_hello(item)
            else:
                self._on_event(item)
            self._cond.notify_all()
        return isinstance(item, Hello)

    def _on_hello(self, hello: Hello) -> None:
        expected = self._expected
        if expected is not None and hello.next_seq < expected:
            self.restarts += 1
            self._run_start = len(self._events)
            log.warning("%s: the service restarted (next_seq %d)", self.name, hello.next_seq)
        elif expected is not None and hello.next_seq > expected:
            self._gap(expected, hello.next_seq - 1)
        self._expected = hello.next_seq
        self.hello = hello
        self.connections += 1

    def _on_event(self, event: AccessibilityEvent) -> None:
        expected = self._expected if self._expected is not None else event.seq
        if event.seq < expected:
            self.skipped_lines += 1
            log.warning("%s: skipping event seq %d, expected %d", self.name, event.seq, expected)
            return
        if event.seq > expected:
            self._gap(expected, event.seq - 1)
        self._events.append(event)
        self._expected = event.seq + 1

    def _gap(self, first: int, last: int) -> None:
        self._gaps.append((first, last))
        log.warning("%s: missed events seq %d..%d", self.name, first, last)

    def _fail(self, message: str) -> None:
        log.error("%s", message)
        with self._cond:
            self.error = EventStreamError(message)
            self._cond.notify_all()


def quick_ack(sock: SocketLike) -> None:
    """Acknowledge at once. The reader never writes, so its ACKs would be delayed (up to 40 ms
    on Linux) and the adb server's Nagle would hold the next small event line until then."""
    if isinstance(sock, socket.socket) and hasattr(socket, "TCP_QUICKACK"):
        with contextlib.suppress(OSError):
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_QUICKACK, 1)


def _shutdown(sock: SocketLike) -> None:
    # shutdown() wakes a recv() blocked in another thread; close() alone may not.
    if isinstance(sock, socket.socket):
        with contextlib.suppress(OSError):
            sock.shutdown(socket.SHUT_RDWR)
    with contextlib.suppress(OSError):
        sock.close()
