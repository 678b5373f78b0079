"""The device side of an adb transport (what adbd does), on asyncio.

One TCP connection carries many streams. A stream opened by the host is handed to a service;
the service writes through `Stream.send`, which keeps one WRTE in flight until the host OKAYs
it (the simple flow control every adb host speaks), and closes with `Stream.close`.
Malformed input ends that connection only; the device keeps serving others. With an
`Authenticator` the host must pass the AUTH handshake (auth.py) before the device answers its
CNXN; until then nothing but AUTH is answered, as adbd does for an unauthorized host.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
from collections import deque
from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol, cast

from pytest_mobile_agent.virtual.adb.packets import (
    A_AUTH,
    A_CLSE,
    A_CNXN,
    A_OKAY,
    A_OPEN,
    A_WRTE,
    AUTH_RSAPUBLICKEY,
    AUTH_SIGNATURE,
    AUTH_TOKEN,
    MAX_PAYLOAD,
    VERSION,
    PacketReader,
    ProtocolError,
    encode,
)

if TYPE_CHECKING:
    from pytest_mobile_agent.virtual.adb.auth import Authenticator

log = logging.getLogger(__name__)


class StreamHandler(Protocol):
    def on_data(self, data: bytes) -> None: ...
    def on_close(self) -> None: ...


class Stream:
    def __init__(self, conn: Connection, local_id: int, remote_id: int) -> None:
        self.conn = conn
        self.local_id = local_id
        self.remote_id = remote_id
        self.handler: StreamHandler | None = None
        # Called when all queued data was taken by the host: lets a producer (a pull) queue its
        # next part only then, so a big file never sits in memory whole.
        self.on_drained: Callable[[], None] | None = None
        self._out: deque[bytes | memoryview] = deque()
        self._in_flight = False
        self._closing = False
        self.closed = False

    @property
    def loop(self) -> asyncio.AbstractEventLoop:
        """The event loop of the stream's connection, which its calls but the *_threadsafe ones run on."""
        return self.conn.loop

    # Called on the event loop thread.
    def send(self, data: bytes) -> None:
        if self.closed or not data:
            return
        self._out.append(data)
        self._pump()

    def close(self) -> None:
        if self.closed:
            return
        self._closing = True
        self._pump()

    # Safe from any thread (shell commands run on worker threads).
    def send_threadsafe(self, data: bytes) -> None:
        self.conn.loop.call_soon_threadsafe(self.send, data)

    def close_threadsafe(self) -> None:
        self.conn.loop.call_soon_threadsafe(self.close)

    def _pump(self) -> None:
        if self.closed or self._in_flight:
            return
        if self._out:
            limit = self.conn.max_payload
            chunk = bytearray()
            # Coalesce small writes queued while the last WRTE was in flight.
            while self._out and len(chunk) < limit:
                head = self._out[0]
                room = limit - len(chunk)
                if len(head) <= room:
                    chunk += self._out.popleft()
                else:
                    # A view, not a slice: a 10 MB screen would be copied once per WRTE.
                    view = memoryview(head)
                    chunk += view[:room]
                    self._out[0] = view[room:]
            self._in_flight = True
            self.conn.write(A_WRTE, self.local_id, self.remote_id, bytes(chunk))
        elif self._closing:
            self.closed = True
            self.conn.write(A_CLSE, self.local_id, self.remote_id)
            self.conn.streams.pop(self.local_id, None)

    def _okayed(self) -> None:
        self._in_flight = False
        if not self._out and not self._closing and self.on_drained is not None:
            self.on_drained()
        self._pump()

    def _host_closed(self) -> None:
        self.closed = True
        self._out.clear()
        self.conn.streams.pop(self.local_id, None)
        if self.handler is not None:
            self.handler.on_close()


OpenService = Callable[[Stream, str], "StreamHandler | None"]


class Connection(asyncio.Protocol):
    """One host connection: CNXN handshake, then streams."""

    def __init__(
        self,
        banner: bytes,
        open_service: OpenService,
        on_lost: Callable[[Connection], None],
        auth: Authenticator | None = None,
    ) -> None:
        self.banner = banner
        self.auth = auth
        self._token = b""  # the AUTH token the host was last asked to sign
        self.open_service = open_service
        self.on_lost = on_lost
        self.reader = PacketReader()
        self.streams: dict[int, Stream] = {}
        self._ids = itertools.count(1)
        self.max_payload = 256 * 1024
        self.transport: asyncio.Transport | None = None
        self.loop = asyncio.get_event_loop()
        self.online = False

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        # create_server's protocols get a socket transport; typeshed types the argument as its base.
        self.transport = cast(asyncio.Transport, transport)
        sock = transport.get_extra_info("socket")
        if sock is not None:
            import socket

            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def write(self, command: int, arg0: int, arg1: int, data: bytes = b"") -> None:
        if self.transport is not None and not self.transport.is_closing():
            self.transport.write(encode(command, arg0, arg1, data))

    def data_received(self, data: bytes) -> None:
        try:
            packets = self.reader.feed(data)
        except ProtocolError as exc:
            log.warning("dropping connection: %s", exc)
            assert self.transport is not None
            self.transport.close()
            return
        for p in packets:
            try:
                self._dispatch(p.command, p.arg0, p.arg1, p.data)
            except Exception:  # a bug in one service must not take the device down
                log.exception("error handling %s", p.name)

    def _dispatch(self, command: int, arg0: int, arg1: int, data: bytes) -> None:
        if command == A_CNXN:
            self.max_payload = max(4096, min(arg1 or MAX_PAYLOAD, MAX_PAYLOAD))
            if self.auth is None:  # a device with ro.adb.secure=0 goes online at once
                self._go_online()
            else:
                self.online = False  # a new CNXN starts the handshake over
                self._ask_to_sign()
        elif command == A_AUTH:
            self._auth(arg0, data)
        elif not self.online:
            return  # adbd ignores everything but CNXN and AUTH from a host it has not let in
        elif command == A_OPEN:
            self._open(arg0, data)
        elif command == A_WRTE:
            stream = self.streams.get(arg1)
            if stream is None:
                self.write(A_CLSE, 0, arg0)
                return
            self.write(A_OKAY, stream.local_id, stream.remote_id)
            if stream.handler is not None:
                stream.handler.on_data(data)
        elif command == A_OKAY:
            stream = self.streams.get(arg1)
            if stream is not None:
                stream.remote_id = arg0
                stream._okayed()
        elif command == A_CLSE:
            stream = self.streams.get(arg1)
            if stream is not None:
                stream._host_closed()

    def _go_online(self) -> None:
        self.online = True
        self.write(A_CNXN, VERSION, MAX_PAYLOAD, self.banner)

    def _ask_to_sign(self) -> None:
        assert self.auth is not None
        self._token = self.auth.token()
        self.write(A_AUTH, AUTH_TOKEN, 0, self._token)

    def _auth(self, kind: int, data: bytes) -> None:
        if self.auth is None or self.online or not self._token:
            return  # not asked for: a real adbd ignores it too
        if kind == AUTH_SIGNATURE:
            if self.auth.verify(self._token, data):
                self._token = b""
                self._go_online()
            else:
                self._ask_to_sign()  # the host tries its next key, then sends its public key
        elif kind == AUTH_RSAPUBLICKEY:
            # A phone would now ask "Allow USB debugging?"; the device's owner is the one who
            # answers: a process of theirs is let in, anyone else stays `unauthorized`.
            extra = self.transport.get_extra_info if self.transport is not None else lambda _: None
            if self.auth.allow(extra("sockname"), extra("peername")):
                self._token = b""
                self._go_online()
            else:
                log.info("adb host refused: unknown key from another user's process")

    def _open(self, remote_id: int, data: bytes) -> None:
        service = data.rstrip(b"\0").decode("utf-8", "replace")
        stream = Stream(self, next(self._ids), remote_id)
        stream._in_flight = True  # hold writes until the OKAY below has gone out
        try:
            handler = self.open_service(stream, service)
        except Exception:
            log.exception("service %r failed to open", service)
            handler = None
        if handler is None:
            # CLSE(0, id) refuses the stream: the client sees the open fail.
            self.write(A_CLSE, 0, remote_id)
            return
        stream.handler = handler
        self.streams[stream.local_id] = stream
        self.write(A_OKAY, stream.local_id, remote_id)
        stream._okayed()

    def open_to_host(self, service: str, handler: StreamHandler) -> Stream:
        """A stream the device opens (`adb reverse`): OPEN(id, 0, service); the host's OKAY gives its
        id and releases queued writes, its CLSE refuses. Call on the event loop thread."""
        stream = Stream(self, next(self._ids), 0)
        stream._in_flight = True  # until the host's OKAY
        stream.handler = handler
        self.streams[stream.local_id] = stream
        self.write(A_OPEN, stream.local_id, 0, service.encode() + b"\0")
        return stream

    def connection_lost(self, exc: Exception | None) -> None:
        for stream in list(self.streams.values()):
            stream._host_closed()
        self.on_lost(self)
