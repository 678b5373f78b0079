"""Runs one virtual device: its adbd listening on a TCP port, registered with the adb server."""

from __future__ import annotations

import asyncio
import ctypes
import logging
import os
import random
import signal
import socket
import sys
import time
from pathlib import Path

from pytest_mobile_agent.virtual.adb.auth import Authenticator, ensure_user_key
from pytest_mobile_agent.virtual.adb.console import ConsoleSession, auth_token
from pytest_mobile_agent.virtual.adb.registration import (
    adb_request,
    adb_server_port,
    await_gone,
    disconnect,
    ensure_server,
)
from pytest_mobile_agent.virtual.adb.reverse import ReverseTable
from pytest_mobile_agent.virtual.adb.services import open_service
from pytest_mobile_agent.virtual.adb.transport import Connection
from pytest_mobile_agent.virtual.boot import boot
from pytest_mobile_agent.virtual.core.config import DeviceConfig
from pytest_mobile_agent.virtual.system.device import Device
from pytest_mobile_agent.virtual.system.snapshot import Snapshots

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


def banner(device: Device) -> bytes:
    """What adbd says of the device in its CNXN: product, model, device, and the features it speaks."""
    p = device.props
    # No abb/cmd: `adb install` then falls back to push + `pm install`. No sendrecv_v2 or
    # delayed_ack: push/pull stay on SEND/RECV with simple flow control.
    features = "shell_v2,stat_v2,ls_v2,fixed_push_mkdir,fixed_push_symlink_timestamp"
    return (
        f"device::ro.product.name={p['ro.product.name']};ro.product.model={p['ro.product.model']};"
        f"ro.product.device={p['ro.product.device']};features={features}"
    ).encode()


def _adb(request: str) -> str:
    return adb_request(request, adb_server_port())


def _free_pair(host: str) -> tuple[socket.socket, socket.socket]:
    """Two sockets bound to ports N (even: the console) and N+1 (adbd), as an emulator has.

    Below the kernel's ephemeral range: the adb server keeps reconnecting to a killed
    emulator's port, and a port in that range can be handed to its own outgoing socket, which
    then connects to itself (TCP self-connect), reads its own banner and lists the serial as
    `host`; a later device on that port is then never listed as `device`."""
    low = _ephemeral_low()
    if low < 12000:  # an unusual range: let the kernel choose
        return _kernel_pair(host)
    for _ in range(200):
        port = random.randrange(10000, low - 1, 2)
        try:
            first = _bound(host, port)
        except OSError:
            continue
        try:
            return first, _bound(host, port + 1)
        except OSError:
            first.close()
    raise OSError(f"no free pair of ports N, N+1 below {low} for the console and adbd")


def _ephemeral_low() -> int:
    try:
        return int(Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return 32768  # Linux's default


def _kernel_pair(host: str) -> tuple[socket.socket, socket.socket]:
    for _ in range(200):
        first = _bound(host, 0)
        port = first.getsockname()[1]
        other = port + 1 if port % 2 == 0 else port - 1  # Linux hands out odd ports for bind(0)
        try:
            second = _bound(host, other)
        except OSError:
            first.close()
            continue
        return (first, second) if port % 2 == 0 else (second, first)
    raise OSError("no free pair of ports N, N+1 for the console and adbd")


def _bound(host: str, port: int) -> socket.socket:
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    return sock


def adb_register_emulator(adb_port: int, timeout: float = 10.0, online: bool = True) -> str:
    """Tell the adb server about an emulator whose adbd listens on `adb_port` (`host:emulator:PORT`,
    which the server does not answer) and wait until it lists `emulator-(PORT-1)` online (or,
    not `online`, in any state).

    Spoken straight to the server so the device process need not import adbutils (and
    requests, urllib3, ...): about 9 MB less per device. Only when no server answers is one
    started (registration.ensure_server).
    """
    ensure_server()
    ensure_user_key()  # the server made one if it started just now; else a server started later signs with it
    serial = f"emulator-{adb_port - 1}"
    port = adb_server_port()
    deadline = time.monotonic() + timeout
    while True:
        with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
            request = f"host:emulator:{adb_port}".encode()
            sock.sendall(b"%04x" % len(request) + request)
        for _ in range(20):
            listed = _adb("host:devices").splitlines()
            if f"{serial}\tdevice" in listed or (not online and any(x.startswith(f"{serial}\t") for x in listed)):
                return serial
            time.sleep(0.01)
        if time.monotonic() > deadline:
            if f"{serial}\tunauthorized" in listed:
                raise ConnectionError(
                    f"the adb server on port {port} lists {serial} as unauthorized: it runs as another "
                    f"user and holds none of your adb keys (~/.android/adbkey, ADB_VENDOR_KEYS). Use an "
                    f"adb server of your own (ANDROID_ADB_SERVER_PORT) or give it your key."
                )
            raise ConnectionError(f"adb did not list {serial} (adbd on port {adb_port}) as online")


class _Held(asyncio.Protocol):
    """A connection to adbd while it is down (booting, or restored by a snapshot load): held
    unanswered, so that the adb server lists the serial `offline`, until adbd comes back and
    closes it."""

    def __init__(self, held: set[asyncio.BaseTransport]) -> None:
        self.held = held
        self.transport: asyncio.BaseTransport | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport
        self.held.add(transport)

    def connection_lost(self, exc: Exception | None) -> None:
        if self.transport is not None:
            self.held.discard(self.transport)


class _Refusing(Authenticator):
    """A device whose "Allow USB debugging?" prompt nobody answers: every host stays
    `unauthorized` (an emulator that has not got this host's adbkey.pub)."""

    def verify(self, token: bytes, signature: bytes) -> bool:
        return False

    @staticmethod
    def allow(here: tuple | None, there: tuple | None) -> bool:
        return False


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
    load_drop: float | None = None,
    boot_delay: float = 0.0,
    unauthorized: bool = False,
) -> None:
    """Serve a device until SIGTERM/SIGINT (or `watch_parent` is gone). As an emulator does:
    `load_drop`, seconds a console snapshot load drops adb for (None: never dropped);
    `boot_delay`, seconds adbd stays down (`offline`) after the start; `unauthorized`, no host
    let in."""
    loop = asyncio.get_running_loop()
    connections: set[Connection] = set()
    trimmer = MemoryTrimmer(loop)
    # An emulator's ports: the console on N, adbd on N+1; the adb server names it emulator-N.
    console_sock, adbd_sock = (_bound(host, port - 1), _bound(host, port)) if port else _free_pair(host)
    adbd_port = adbd_sock.getsockname()[1]
    serial = f"emulator-{adbd_port - 1}"
    config.serial = config.serial or serial
    device = boot(root, config)
    reverses = ReverseTable()  # adbd's `adb reverse` rules: where the device's local clients reach the host
    device.ports.dialer = reverses.connect
    snapshots = Snapshots(device)  # the console's `avd snapshot ...`: in memory, they end with the device

    class _Connection(Connection):
        def data_received(self, data: bytes) -> None:
            trimmer.poke()
            super().data_received(data)

    # adbd lets in only the hosts of the user who started it (no one, `unauthorized`).
    authenticator = _Refusing() if unauthorized else Authenticator()

    def factory() -> Connection:
        conn = _Connection(
            banner(device), lambda s, name: open_service(device, reverses, s, name), connections.discard, authenticator
        )
        connections.add(conn)
        return conn

    back_at = loop.time() + boot_delay  # while the loop's time is below it, adbd is down
    held: set[asyncio.BaseTransport] = set()

    def accept() -> asyncio.Protocol:
        return _Held(held) if loop.time() < back_at else factory()

    def drop_adb() -> None:
        """After a console snapshot load: every adb connection closed and none answered for
        `load_drop` seconds, then registered again, as an emulator comes back."""
        nonlocal back_at
        if load_drop is None:
            return
        back_at = loop.time() + load_drop
        for conn in list(connections):
            if conn.transport:
                conn.transport.close()
        loop.create_task(come_back())

    async def come_back(first: bool = False) -> None:
        while (wait := back_at - loop.time()) > 0:
            await asyncio.sleep(wait)
        for transport in list(held):  # the server then forgets the offline serial...
            transport.close()
        held.clear()
        if register and not stop.is_set():  # ...and connects again when told
            try:
                await loop.run_in_executor(None, adb_register_emulator, adbd_port, 10.0, not unauthorized)
            except (OSError, ValueError) as exc:
                if first:  # a device the adb server never listed online does not start
                    raise
                log.warning("%s: not registered again: %s", serial, exc)

    stop = asyncio.Event()
    token = auth_token()
    server = await loop.create_server(accept, sock=adbd_sock)
    console = await loop.create_server(
        lambda: ConsoleSession(device, snapshots, token, config.model.replace(" ", "_"), stop.set, drop_adb),
        sock=console_sock,
    )
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    if watch_parent:
        loop.create_task(_stop_when_gone(watch_parent, stop))
    if register and boot_delay > 0:  # listed at once, `offline` while it boots
        await loop.run_in_executor(None, adb_register_emulator, adbd_port, 10.0, False)
    if register:
        await come_back(first=True)
    if on_ready:
        on_ready(serial, adbd_port)
    try:
        await stop.wait()
    finally:
        # `host:disconnect:emulator-N` takes it off the adb server at once; the server would
        # notice the closed connections too, but only about 250 ms later.
        if register:
            await loop.run_in_executor(None, disconnect, serial)
        console.close()
        server.close()
        for conn in list(connections):
            if conn.transport:
                conn.transport.close()
        if register:
            await loop.run_in_executor(None, await_gone, serial)
        device.shutdown()
