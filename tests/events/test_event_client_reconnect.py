"""EventStreamClient against a scripted local TCP server: reconnects, gaps, retries, waits.

The transport is injected as a plain loopback connection; test_listener_e2e.py covers the
adb route (``EventStreamClient.for_device``) on a virtual device.
"""

from __future__ import annotations

import logging
import queue
import socket
import threading
from collections.abc import Callable, Iterator

import pytest

from pytest_mobile_agent.errors import EventStreamError
from pytest_mobile_agent.events.client import EventStreamClient
from pytest_mobile_agent.events.schema import AccessibilityEvent, encode_event, encode_hello

Script = Callable[[socket.socket], None]


def ev(seq: int, **kw: object) -> bytes:
    fields: dict[str, object] = {"package": "com.example", "class_name": "android.widget.Button"}
    fields.update(kw)
    return encode_event(AccessibilityEvent(seq, "TYPE_VIEW_CLICKED", 100 + seq, **fields))  # type: ignore[arg-type]


def send(*lines: bytes, hold: threading.Event | None = None) -> Script:
    """A connection that sends lines, then closes (or stays open until ``hold`` is set)."""

    def script(conn: socket.socket) -> None:
        conn.sendall(b"".join(lines))
        if hold is not None:
            hold.wait(10)

    return script


class ScriptedServer:
    """Serves one script per accepted connection, in order; later connections are closed."""

    def __init__(self, *scripts: Script) -> None:
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.scripts: queue.Queue[Script] = queue.Queue()
        for s in scripts:
            self.scripts.put(s)
        self.accepted = 0
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()

    def _serve(self) -> None:
        while True:
            try:
                conn, _ = self.listener.accept()
            except OSError:
                return
            self.accepted += 1
            try:
                script = self.scripts.get_nowait()
            except queue.Empty:
                conn.close()
                continue
            threading.Thread(target=self._run, args=(script, conn), daemon=True).start()

    @staticmethod
    def _run(script: Script, conn: socket.socket) -> None:
        with conn:
            script(conn)

    def connect(self) -> socket.socket:
        return socket.create_connection(("127.0.0.1", self.port), timeout=5)

    def stop_listening(self) -> None:
        self.listener.close()


@pytest.fixture
def release() -> Iterator[threading.Event]:
    hold = threading.Event()
    yield hold
    hold.set()


def test_reconnects_and_reports_gaps(release: threading.Event, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING)
    server = ScriptedServer(
        send(encode_hello(1), ev(1), ev(2)),
        send(encode_hello(5), ev(5), ev(7), hold=release),
    )
    with EventStreamClient(server.connect, backoff=0.01, name="dev-9") as client:
        assert client.wait_for(lambda e: e.seq == 7, timeout=10) is not None
        assert [e.seq for e in client.events] == [1, 2, 5, 7]
        assert client.gaps == [(3, 4), (6, 6)]
        assert client.connections == 2 and client.restarts == 0
    text = caplog.text
    assert "dev-9: missed events seq 3..4" in text and "dev-9: missed events seq 6..6" in text
    assert "dev-9: connection closed; reconnecting in 0.01 s" in text


def test_first_hello_sets_the_start_without_a_gap(release: threading.Event) -> None:
    server = ScriptedServer(send(encode_hello(41), ev(41), hold=release))
    with EventStreamClient(server.connect) as client:
        assert client.wait_for(lambda e: True, timeout=10) is not None
        assert client.gaps == [] and client.last_seq == 41


def test_gives_up_after_bounded_retries() -> None:
    server = ScriptedServer(send(encode_hello(1), ev(1)))
    client = EventStreamClient(server.connect, retries=3, backoff=0.01).start()
    try:
        assert client.wait_for(lambda e: e.seq == 1, timeout=10) is not None
        server.stop_listening()
        with pytest.raises(EventStreamError, match="gave up after 3 retries") as info:
            client.wait_for(lambda e: False, timeout=30)
        assert "connect failed" in str(info.value)
        assert client.error is info.value
    finally:
        client.close()


def test_connections_without_hello_count_as_failures() -> None:
    server = ScriptedServer()  # accepts, then closes at once: like adb with nothing listening
    client = EventStreamClient(server.connect, retries=2, backoff=0.01)
    with pytest.raises(EventStreamError, match="closed before a hello line; gave up after 2"):
        client.start(timeout=10)
    assert server.accepted == 3


def test_start_times_out_without_hello(release: threading.Event) -> None:
    server = ScriptedServer(send(hold=release))
    client = EventStreamClient(server.connect)
    with pytest.raises(EventStreamError, match="no hello line within 0.2 s"):
        client.start(timeout=0.2)


def test_service_restart_starts_a_new_run(release: threading.Event) -> None:
    server = ScriptedServer(
        send(encode_hello(1), ev(1), ev(2), ev(3)),
        send(encode_hello(1), ev(1, package="after"), hold=release),
    )
    with EventStreamClient(server.connect, backoff=0.01) as client:
        new = client.wait_for(lambda e: e.package == "after", timeout=10)
        assert new is not None and new.seq == 1
        assert client.restarts == 1 and client.gaps == []
        assert client.events_since(0) == [new]
        assert len(client.events) == 4
        assert client.wait_for(lambda e: e.seq == 2, timeout=0.05) is None  # old run ignored


def test_duplicate_and_backwards_events_are_skipped(release: threading.Event) -> None:
    server = ScriptedServer(send(encode_hello(1), ev(1), ev(2), ev(2), ev(1), ev(3), hold=release))
    with EventStreamClient(server.connect) as client:
        assert client.wait_for(lambda e: e.seq == 3, timeout=10) is not None
        assert [e.seq for e in client.events] == [1, 2, 3]
        assert client.skipped_lines == 2


def test_wait_for_is_woken_by_new_events(release: threading.Event) -> None:
    go = threading.Event()

    def later(conn: socket.socket) -> None:
        conn.sendall(encode_hello(1) + ev(1, text=("7",)))
        go.wait(10)
        conn.sendall(ev(2, text=("=",)) + ev(3, text=("8",)))
        release.wait(10)

    server = ScriptedServer(later)
    with EventStreamClient(server.connect) as client:
        assert client.wait_for(lambda e: e.seq == 1, timeout=10) is not None
        assert client.wait_for(lambda e: "=" in e.text, timeout=0.05) is None
        threading.Timer(0.1, go.set).start()
        hit = client.wait_for(lambda e: "=" in e.text, timeout=10)
        assert hit is not None and hit.seq == 2
        assert client.wait_for(lambda e: e.text == ("7",), timeout=0) is not None
        assert client.wait_for(lambda e: e.text == ("7",), timeout=0, since=1) is None
        assert [e.seq for e in client.events_since(1)] in ([2], [2, 3])


def test_close_stops_a_blocked_reader(release: threading.Event) -> None:
    server = ScriptedServer(send(encode_hello(1), hold=release))
    client = EventStreamClient(server.connect).start()
    waiter_result: list[object] = []
    waiter = threading.Thread(target=lambda: waiter_result.append(client.wait_for(lambda e: True, timeout=30)))
    waiter.start()
    client.close()
    waiter.join(timeout=5)
    assert not waiter.is_alive() and waiter_result == [None]
    assert not client._thread.is_alive()
    assert client.error is None


class FakeAdbDevice:
    def __init__(self, server: ScriptedServer) -> None:
        self.serial = "emulator-5554"
        self.server = server
        self.calls: list[tuple[object, object]] = []

    def create_connection(self, network: object, address: object) -> socket.socket:
        self.calls.append((network, address))
        return self.server.connect()


def test_for_device_opens_tcp_7333_through_adb(release: threading.Event) -> None:
    from adbutils import Network

    device = FakeAdbDevice(ScriptedServer(send(encode_hello(3), hold=release)))
    with EventStreamClient.for_device(device) as client:
        assert client.hello is not None and client.hello.next_seq == 3
        assert client.name == "event stream emulator-5554"
    assert device.calls == [(Network.TCP, 7333)]
