"""Runs one virtual device: its adbd listening on a TCP port, registered with the adb server."""

from __future__ import annotations

import asyncio
import ctypes
import logging
import os
import signal
import sys
import time
from pathlib import Path

from .registration import adb_request, adb_server_port
from .services import open_service
from .system import Device, DeviceConfig
from .transport import Connection

log = logging.getLogger(__name__)


def _glibc() -> ctypes.CDLL | None:
    if not sys.platform.startswith("linux"):
        return None
    try:
        libc = ctypes.CDLL("libc.so.6")
        libc.malloc_trim  # noqa: B018  (only glibc has it)
        return libc
    except (OSError, AttributeError):  # musl and others: nothing to tune
        return None


class MemoryTrimmer:
    """Gives memory freed by a burst of work back to the OS once the device has been idle a moment.

    Each fresh screen costs several full-screen buffers (about 10 MB each). glibc keeps freed ones
    for reuse, which keeps back-to-back screenshots fast (fresh pages cost about 4 us each in a
    microVM: 25 ms a screen) but, kept for good, adds about 50 MB to every device. So they are
    kept while packets flow and trimmed after IDLE seconds without one. Two malloc arenas instead
    of one per worker thread keep the rest from spreading.
    """

    IDLE = 1.0

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.libc = _glibc()
        self.last = 0.0
        self._timer: asyncio.TimerHandle | None = None
        if self.libc is not None:
            m_arena_max = -8
            self.libc.mallopt(m_arena_max, 2)

    def poke(self) -> None:
        if self.libc is None:
            return
        self.last = self.loop.time()
        if self._timer is None:
            self._timer = self.loop.call_later(self.IDLE, self._check)

    def _check(self) -> None:
        idle = self.loop.time() - self.last
        if idle < self.IDLE:
            self._timer = self.loop.call_later(self.IDLE - idle, self._check)
            return
        self._timer = None
        assert self.libc is not None
        self.libc.malloc_trim(0)


def _adb(request: str) -> str:
    return adb_request(request, adb_server_port())


def adb_connect(address: str, timeout: float = 10.0) -> None:
    """`adb connect ADDRESS` and wait until the server lists it online.

    Spoken straight to the server so the device process need not import adbutils (and
    requests, urllib3, ...): about 9 MB less per device. Only when no server answers does it
    fall back to adbutils, which knows where the adb binary is to start one.
    """
    try:
        _adb("host:version")
    except OSError:
        from ..device import adb_server

        adb_server.connect(address, timeout)
        return
    deadline = time.monotonic() + timeout
    while True:
        message = _adb(f"host:connect:{address}")
        for line in _adb("host:devices").splitlines():
            if line.split("\t") == [address, "device"]:
                return
        if time.monotonic() > deadline:
            raise ConnectionError(f"adb could not connect to {address}: {message}")
        time.sleep(0.05)


def adb_disconnect(address: str) -> None:
    try:
        _adb(f"host:disconnect:{address}")
    except OSError:  # already gone, or the server is down: nothing left to undo
        pass


async def _stop_when_gone(pid: int, stop: asyncio.Event) -> None:
    """End the device once the process that started it is gone."""
    while not stop.is_set():
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            stop.set()
            return
        except PermissionError:
            pass
        await asyncio.sleep(1.0)


async def serve(
    root: Path,
    config: DeviceConfig,
    port: int = 0,
    host: str = "127.0.0.1",
    register: bool = True,
    on_ready=None,  # noqa: ANN001
    watch_parent: int | None = None,
) -> None:
    loop = asyncio.get_running_loop()
    connections: set[Connection] = set()
    holder: list[Device] = []
    trimmer = MemoryTrimmer(loop)

    class _Connection(Connection):
        def data_received(self, data: bytes) -> None:
            trimmer.poke()
            super().data_received(data)

    def factory() -> Connection:
        conn = _Connection(holder[0].banner(), lambda s, name: open_service(holder[0], s, name), connections.discard)
        connections.add(conn)
        return conn

    server = await loop.create_server(factory, host, port, reuse_address=True)
    bound = server.sockets[0].getsockname()[1]
    config.serial = config.serial or f"{host}:{bound}"
    holder.append(Device(root, config))
    stop = asyncio.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    if watch_parent:
        loop.create_task(_stop_when_gone(watch_parent, stop))
    address = f"{host}:{bound}"
    if register:
        await loop.run_in_executor(None, adb_connect, address)
    if on_ready:
        on_ready(address, bound)
    try:
        await stop.wait()
    finally:
        if register:
            await loop.run_in_executor(None, adb_disconnect, address)
        server.close()
        for conn in list(connections):
            if conn.transport:
                conn.transport.close()
        holder[0].shutdown()
