"""`adb reverse`: a device port whose connections adbd carries to a port on the host.

The host sends `reverse:forward:[norebind:]tcp:DEVICE;tcp:HOST` over a transport; adbd answers
with adb status bytes ("OKAY", or "FAIL" and a length-prefixed message) and from
then on a device-side connection to DEVICE opens a stream *to the host*, `OPEN(id, 0, "tcp:HOST")`,
which the adb server connects to HOST. `reverse:list-forward`, `reverse:killforward:tcp:DEVICE`
and `reverse:killforward-all` manage the rules. Rules die with the transport that made them.

On the device, `nc localhost DEVICE` (shell/netcat) is the client that reaches them: adbd makes
its table the dialer of the device's ports (core/net.py).
"""

from __future__ import annotations

import itertools
import threading
from dataclasses import dataclass

from pytest_mobile_agent.virtual.adb.transport import Connection, Stream

_transport_numbers = itertools.count(1)


@dataclass
class Rule:
    device_spec: str
    host_spec: str
    conn: Connection
    transport_name: str


class ReverseTable:
    """The device's reverse rules, keyed by device spec (`tcp:8081`)."""

    def __init__(self) -> None:
        self.rules: dict[str, Rule] = {}
        self.lock = threading.Lock()
        self.names: dict[int, str] = {}  # id(conn) -> "host-N", as adbd names a TCP transport

    def live(self) -> list[Rule]:
        """Rules whose transport is still up (adbd drops the others with their transport)."""
        with self.lock:
            for spec, rule in list(self.rules.items()):
                if rule.conn.transport is None or rule.conn.transport.is_closing():
                    del self.rules[spec]
            return list(self.rules.values())

    def connect(self, port: int, timeout: float = 5.0) -> Channel | None:
        """Connect to a device port that a rule carries to the host; None: refused."""
        rule = next((r for r in self.live() if r.device_spec == f"tcp:{port}"), None)
        if rule is None:
            return None
        channel = Channel(rule.conn)
        channel.start(rule.host_spec)
        if not channel.answered.wait(timeout) or not channel.accepted:
            channel.close()
            return None
        return channel


def _fail(message: str) -> bytes:
    data = message.encode()
    return b"FAIL" + b"%04x" % len(data) + data


def _valid_tcp(spec: str) -> bool:
    kind, _, port = spec.partition(":")
    return kind == "tcp" and port.isdigit() and int(port) < 65536


class _Ignore:
    def on_data(self, data: bytes) -> None:
        pass

    def on_close(self) -> None:
        pass


def reverse_service(table: ReverseTable, stream: Stream, command: str) -> _Ignore:
    """Answer one `reverse:` request on its stream, then close it."""
    stream.send(_answer(table, stream.conn, command))
    stream.close()
    return _Ignore()


def _answer(table: ReverseTable, conn: Connection, command: str) -> bytes:
    if command == "list-forward":
        listing = "".join(f"{r.transport_name} {r.device_spec} {r.host_spec}\n" for r in table.live())
        return b"%04x" % len(listing.encode()) + listing.encode()
    if command == "killforward-all":
        with table.lock:
            table.rules.clear()
        return b"OKAY"
    if command.startswith("killforward:"):
        spec = command.removeprefix("killforward:")
        table.live()
        with table.lock:
            if table.rules.pop(spec, None) is None:
                return _fail(f"listener '{spec}' not found")
        return b"OKAY"
    if command.startswith("forward:"):
        rest = command.removeprefix("forward:")
        norebind = rest.startswith("norebind:")
        device_spec, sep, host_spec = rest.removeprefix("norebind:").partition(";")
        if not sep or not device_spec or not host_spec:
            return _fail(f"bad forward: {command}")
        if not _valid_tcp(device_spec) or not _valid_tcp(host_spec):
            return _fail(f"cannot bind listener: unsupported socket spec '{device_spec}'")
        table.live()
        with table.lock:
            if norebind and device_spec in table.rules:
                return _fail("cannot rebind existing socket")
            name = table.names.setdefault(id(conn), f"host-{next(_transport_numbers)}")
            table.rules[device_spec] = Rule(device_spec, host_spec, conn, name)
        return b"OKAY"
    return _fail("not a reverse forwarding command")


class Channel:
    """A device-side connection carried to the host: bytes in, bytes out, usable from any thread."""

    def __init__(self, conn: Connection) -> None:
        self._conn = conn
        self._stream: Stream | None = None
        self.received = bytearray()
        self.cond = threading.Condition()
        self.closed = False
        self.answered = threading.Event()  # the host took the stream (OKAY) or refused it (CLSE)

    # StreamHandler, called on the event loop thread.
    def on_data(self, data: bytes) -> None:
        with self.cond:
            self.received += data
            self.cond.notify_all()

    def on_close(self) -> None:
        with self.cond:
            self.closed = True
            self.cond.notify_all()
        self.answered.set()

    @property
    def accepted(self) -> bool:
        return self._stream is not None and self._stream.remote_id != 0  # the host's OKAY named its end

    def start(self, host_spec: str) -> None:
        def open_it() -> None:
            self._stream = self._conn.open_to_host(host_spec, self)
            self._stream.on_drained = self.answered.set  # the first OKAY: nothing was queued yet

        self._conn.loop.call_soon_threadsafe(open_it)

    def send(self, data: bytes) -> None:
        if self._stream is not None and data:
            self._stream.send_threadsafe(data)

    def close(self) -> None:
        if self._stream is not None:
            self._stream.close_threadsafe()
