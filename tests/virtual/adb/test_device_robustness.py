"""Bad input never takes a virtual device down, and the wire carries what a host expects.

Real sockets against a running device: malformed packets straight to its adbd port, unknown
services and commands, clients that vanish mid-transfer, a 200 MB push, broken shell-v2 streams.
After each, the device must still serve the ordinary adb server. Also: a running command's
output streams (test_shell_output.py has how it is gathered).
"""

from __future__ import annotations

import hashlib
import itertools
import random
import socket
import struct
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator
from pathlib import Path

import adbutils
import pytest

from pytest_mobile_agent.virtual import VirtualDevice, virtual_devices
from pytest_mobile_agent.virtual.adb import auth
from pytest_mobile_agent.virtual.adb.packets import (
    A_AUTH,
    A_CLSE,
    A_CNXN,
    A_OKAY,
    A_OPEN,
    A_WRTE,
    AUTH_SIGNATURE,
    AUTH_TOKEN,
    HEADER,
    MAX_PAYLOAD,
    VERSION,
    Packet,
    PacketReader,
    encode,
)

TIMEOUT = 10.0


@pytest.fixture(scope="module")
def device() -> Iterator[VirtualDevice]:
    """A device of this module's own: what these tests throw at it must not disturb other tests."""
    with virtual_devices(1) as (dev,):
        yield dev


@pytest.fixture
def adb(device: VirtualDevice) -> adbutils.AdbDevice:
    return adbutils.AdbClient().device(device.serial)


def assert_serves(device: VirtualDevice) -> None:
    """The device is alive and answers through the adb server and on a fresh direct connection."""
    assert device.alive
    assert adbutils.AdbClient().device(device.serial).shell("echo ok") == "ok"
    with RawHost(device.port) as host:
        assert host.run(b"shell:echo direct") == b"direct\n"


needs_proc = pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads /proc/PID/status")


def proc_status(pid: int, field: str = "VmRSS") -> int:
    """A number from /proc/PID/status: VmRSS in kB, Threads as a count."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    raise AssertionError(f"{field} missing")


def wait_for(cond: Callable[[], bool], timeout: float = TIMEOUT) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if cond():
            return True
        time.sleep(0.02)
    return cond()


def push_leftovers(device: VirtualDevice) -> list[str]:
    return [str(p.relative_to(device.root)) for p in device.root.rglob("*.push-*")]


class RawHost:
    """A bare adb host on a socket straight to the device's adbd, no adb server between."""

    def __init__(self, port: int, handshake: bool = True) -> None:
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=TIMEOUT)
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.reader = PacketReader()
        self.pending: deque[Packet] = deque()
        self.ids = itertools.count(1)
        self.data: dict[int, bytearray] = {}  # local id -> bytes the device wrote
        self.closed: set[int] = set()  # local ids the device closed
        self.acked: set[int] = set()  # local ids whose last WRTE the device OKAYed
        self.remote: dict[int, int] = {}
        if handshake:
            self.send(A_CNXN, VERSION, MAX_PAYLOAD, b"host::features=shell_v2,stat_v2\0")
            reply = self.sign(self.packet())
            assert reply is not None and reply.command == A_CNXN and reply.data.startswith(b"device::")

    def sign(self, challenge: Packet | None) -> Packet | None:
        """Answer the device's AUTH token with the owner's key, as the adb server does; its reply."""
        assert challenge is not None and (challenge.command, challenge.arg0) == (A_AUTH, AUTH_TOKEN)
        key = auth.parse_private_key((Path.home() / ".android" / "adbkey").read_bytes())
        self.send(A_AUTH, AUTH_SIGNATURE, 0, auth.sign(key, challenge.data))
        return self.packet()

    def __enter__(self) -> RawHost:
        return self

    def __exit__(self, *exc: object) -> None:
        self.sock.close()

    def send(self, command: int, arg0: int, arg1: int, data: bytes = b"") -> None:
        self.sock.sendall(encode(command, arg0, arg1, data))

    def packet(self) -> Packet | None:
        """The next packet from the device; None once it closed the connection."""
        while not self.pending:
            try:
                chunk = self.sock.recv(1 << 20)
            except ConnectionResetError:
                chunk = b""
            if not chunk:
                return None
            self.pending.extend(self.reader.feed(chunk))
        return self.pending.popleft()

    def device_hung_up(self) -> bool:
        """Read until the device closes the connection; packets on the way are dropped."""
        self.sock.settimeout(TIMEOUT)
        while True:
            try:
                if self.packet() is None:
                    return True
            except TimeoutError:
                return False

    def vanish(self) -> None:
        """Close with a reset, as a killed process or a pulled cable would."""
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        self.sock.close()

    def _handle(self, p: Packet) -> None:
        local = p.arg1
        if p.command == A_WRTE:
            self.data.setdefault(local, bytearray()).extend(p.data)
            self.send(A_OKAY, local, p.arg0)
        elif p.command == A_OKAY:
            self.remote[local] = p.arg0
            self.acked.add(local)
        elif p.command == A_CLSE:
            self.closed.add(local)

    def until(self, cond: Callable[[], bool]) -> None:
        while not cond():
            p = self.packet()
            assert p is not None, "the device closed the connection"
            self._handle(p)

    def open(self, service: bytes) -> int | None:
        """OPEN a stream: its local id once the device accepts, None if it refuses."""
        local = next(self.ids)
        self.send(A_OPEN, local, 0, service + b"\0")
        self.until(lambda: local in self.remote or local in self.closed)
        return local if local in self.remote else None

    def write(self, local: int, data: bytes) -> None:
        self.acked.discard(local)
        self.send(A_WRTE, local, self.remote[local], data)
        self.until(lambda: local in self.acked or local in self.closed)

    def read_all(self, local: int) -> bytes:
        self.until(lambda: local in self.closed)
        return bytes(self.data.get(local, b""))

    def run(self, service: bytes) -> bytes:
        local = self.open(service)
        assert local is not None, f"{service!r} refused"
        return self.read_all(local)


# -- how shell output leaves ---------------------------------------------------------------------
def test_output_of_a_running_command_streams(device: VirtualDevice) -> None:
    """Gathering waits moments only: what a command wrote before a long sleep reaches the host
    during the sleep."""
    with RawHost(device.port) as host:
        s = host.open(b"shell:echo early; sleep 3; echo late")
        assert s is not None
        start = time.monotonic()
        host.until(lambda: b"early" in host.data.get(s, b""))
        assert time.monotonic() - start < 1.5 and s not in host.closed
        assert host.read_all(s) == b"early\nlate\n"


# -- malformed packets -------------------------------------------------------------------------
def _header(command: int, length: int = 0, magic: int | None = None) -> bytes:
    return HEADER.pack(command, 1, 0, length, 0, command ^ 0xFFFFFFFF if magic is None else magic)


MALFORMED = {
    "bad magic": _header(A_OPEN, 5, magic=0x12345678) + b"shell",
    "unknown command": _header(0x41414141),
    "zero command": bytes(24),
    "oversized length": _header(A_WRTE, MAX_PAYLOAD + 1),
    "length 4 GiB": _header(A_WRTE, 0xFFFFFFFF),
    "garbage": random.Random(7).randbytes(4096),
    "http request": b"GET / HTTP/1.1\r\nHost: x\r\n\r\n",
}


@pytest.mark.parametrize("handshake", [True, False], ids=["after CNXN", "before CNXN"])
@pytest.mark.parametrize("payload", MALFORMED.values(), ids=MALFORMED.keys())
def test_malformed_packets_end_only_their_connection(device: VirtualDevice, payload: bytes, handshake: bool) -> None:
    with RawHost(device.port, handshake=handshake) as host, RawHost(device.port) as bystander:
        shell = bystander.open(b"shell,v2,raw:cat")
        assert shell is not None
        host.sock.sendall(payload)
        assert host.device_hung_up(), "the device kept a connection that sent garbage"
        # Another connection of the same device is untouched.
        bystander.write(shell, v2(0, b"hi\n") + v2(4, b""))
        assert v2_frames(bystander.read_all(shell)) == [(1, b"hi\n"), (3, b"\x00")]
    assert_serves(device)


@pytest.mark.parametrize(
    "piece",
    [_header(A_WRTE, 1000) + b"0123456789", _header(A_OPEN)[:10], _header(A_CNXN, 200) + b"host::"],
    ids=["truncated payload", "truncated header", "truncated CNXN"],
)
def test_truncated_packet_then_close(device: VirtualDevice, piece: bytes) -> None:
    for vanish in (False, True):
        host = RawHost(device.port, handshake=piece[:4] != b"CNXN")
        host.sock.sendall(piece)
        host.vanish() if vanish else host.sock.close()
    assert_serves(device)


def test_well_formed_packets_out_of_place_are_ignored(device: VirtualDevice) -> None:
    with RawHost(device.port) as host:
        # Streams that do not exist: WRTE is answered with CLSE, OKAY and CLSE are dropped.
        host.send(A_WRTE, 77, 12345, b"data for nobody")
        reply = host.packet()
        assert reply is not None and (reply.command, reply.arg1) == (A_CLSE, 77)
        host.send(A_OKAY, 78, 23456)
        host.send(A_CLSE, 79, 34567)
        host.send(A_CNXN, VERSION, 0, b"host::again\0")  # a second CNXN: a new handshake
        reply = host.sign(host.packet())
        assert reply is not None and reply.command == A_CNXN
        assert host.run(b"shell:echo still here") == b"still here\n"
    assert_serves(device)


# -- unknown services and commands -------------------------------------------------------------
UNKNOWN_SERVICES = [
    b"",
    b"nosuch:",
    b"nosuch",
    b"reboot:",
    b"root:",
    b"remount:",
    b"abb:pm\0list",
    b"abb_exec:cmd",
    b"jdwp:1234",
    b"track-jdwp",
    b"reverse-forward:tcp:1;tcp:2",
    b"host:version",
    b"dev:/dev/null",
    b"localabstract:chrome_devtools_remote",
    b"tcp:",
    b"tcp:1",
    b"tcp:99999999999999999999999",
    b"tcp:-5",
    b"tcp:\xd9\xa3",  # an Arabic-Indic digit: isdigit() but not a port
    b"\xff\xfe\xfd",
    b"x" * 60000,
]


def test_unknown_services_are_refused_on_a_direct_connection(device: VirtualDevice) -> None:
    with RawHost(device.port) as host:
        for service in UNKNOWN_SERVICES:
            assert host.open(service) is None, f"{service[:40]!r} was accepted"
        assert host.run(b"shell:echo ok") == b"ok\n"
    assert_serves(device)


def test_unknown_services_through_the_adb_server(device: VirtualDevice, adb: adbutils.AdbDevice) -> None:
    for service in ("nosuch:", "reboot:", "jdwp:1", "tcp:1", "localabstract:x"):
        conn = adb.open_transport()
        try:
            conn.send_command(service)
            with pytest.raises(adbutils.AdbError):
                conn.check_okay()
        finally:
            conn.close()
    with pytest.raises(adbutils.AdbError):
        adb.create_connection(adbutils.Network.TCP, 1)
    assert_serves(device)


@pytest.mark.parametrize("command", ["definitely_not_a_command", "nosuch --help; true && nosuch2", "/system/bin/nope"])
def test_unknown_shell_commands_exit_127(device: VirtualDevice, adb: adbutils.AdbDevice, command: str) -> None:
    result = adb.shell2(command)
    assert result.returncode == 127
    assert "not found" in result.output
    with RawHost(device.port) as host:
        frames = host.run(f"shell,v2,raw:{command}".encode())
        assert frames[-6:] == b"\x03\x01\x00\x00\x00\x7f"  # the exit frame: 127
    assert_serves(device)


ODD_LINES = [
    b"'unterminated",
    b"echo $(",
    b"((((",
    b";;",
    b"|",
    b"\x00\x01\x02",
    b"\xff\xfe",
    b"echo " + b"a" * 200_000,
]


@pytest.mark.parametrize("line", ODD_LINES, ids=lambda b: repr(b[:16]))
def test_odd_shell_lines_end_with_an_exit_status(device: VirtualDevice, line: bytes) -> None:
    with RawHost(device.port) as host:
        frames = v2_frames(host.run(b"shell,v2,raw:" + line))
        assert frames[-1][0] == 3 and len(frames[-1][1]) == 1
    assert_serves(device)


# -- clients that vanish mid-transfer ----------------------------------------------------------
def _sync_req(ident: bytes, payload: bytes) -> bytes:
    return ident + struct.pack("<I", len(payload)) + payload


def test_host_vanishing_mid_push_leaves_no_file(device: VirtualDevice, adb: adbutils.AdbDevice) -> None:
    target = "/sdcard/Download/vanish-direct.bin"
    host = RawHost(device.port)
    sync = host.open(b"sync:")
    assert sync is not None
    host.write(sync, _sync_req(b"SEND", f"{target},33188".encode()))
    block = b"".join(_sync_req(b"DATA", bytes([i]) * 65536) for i in range(15))  # under 1 MiB a WRTE
    for _ in range(8):
        host.write(sync, block)
    assert wait_for(lambda: push_leftovers(device) != []), "the push never started"
    host.vanish()
    assert wait_for(lambda: push_leftovers(device) == []), push_leftovers(device)
    assert adb.sync.stat(target).size == 0  # never there
    assert_serves(device)


class Exploding:
    """A file object that gives `limit` bytes and then fails, like a client killed mid-push."""

    def __init__(self, limit: int) -> None:
        self.left = limit

    def read(self, n: int) -> bytes:
        if self.left <= 0:
            raise ConnectionAbortedError("client went away")
        n = min(n, self.left)
        self.left -= n
        return b"\xab" * n


def test_client_vanishing_mid_push_through_the_adb_server(device: VirtualDevice, adb: adbutils.AdbDevice) -> None:
    target = "/sdcard/Download/vanish-server.bin"
    with pytest.raises(ConnectionAbortedError):
        adb.sync.push(Exploding(8 << 20), target)
    assert wait_for(lambda: push_leftovers(device) == []), push_leftovers(device)
    assert adb.sync.stat(target).size == 0
    # The same path can be pushed afterwards, whole.
    adb.sync.push(b"whole", target)
    assert adb.sync.read_bytes(target) == b"whole"
    adb.shell(["rm", target])
    assert_serves(device)


@pytest.fixture(scope="module")
def big_file(device: VirtualDevice) -> tuple[str, str]:
    path = "/data/local/tmp/pull-me.bin"
    data = random.Random(3).randbytes(24 << 20)
    adbutils.AdbClient().device(device.serial).sync.push(data, path)
    return path, hashlib.md5(data).hexdigest()


def test_host_vanishing_mid_pull(device: VirtualDevice, adb: adbutils.AdbDevice, big_file: tuple[str, str]) -> None:
    path, md5 = big_file
    for _ in range(3):
        host = RawHost(device.port)
        sync = host.open(b"sync:")
        assert sync is not None
        host.write(sync, _sync_req(b"RECV", path.encode()))
        host.until(lambda h=host, s=sync: len(h.data.get(s, b"")) > 2 << 20)
        host.vanish()
    # Through the server too: a reader that stops after a few chunks closes its connection.
    chunks = adb.sync.iter_content(path)
    for _ in range(5):
        next(chunks)
    chunks.close()
    assert adb.shell(["md5sum", path]).split()[0] == md5
    assert_serves(device)


@needs_proc
def test_pull_keeps_device_memory_bounded(device: VirtualDevice, adb: adbutils.AdbDevice, big_file) -> None:
    path, md5 = big_file
    pid = device.process.pid
    before = proc_status(pid)
    peak = Sampler(pid)
    with peak:
        digest = hashlib.md5()
        for chunk in adb.sync.iter_content(path):
            digest.update(chunk)
    assert digest.hexdigest() == md5
    # The file is 24 MiB: streaming it must not hold it all in memory at once.
    assert peak.max_kb - before < 16 * 1024, f"RSS grew from {before} kB to {peak.max_kb} kB during a pull"


class Sampler:
    """Samples a process's VmRSS from a thread while a block runs."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.max_kb = proc_status(pid)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        while not self._stop.wait(0.005):
            self.max_kb = max(self.max_kb, proc_status(self.pid))

    def __enter__(self) -> Sampler:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()
        self.max_kb = max(self.max_kb, proc_status(self.pid))


class Generated:
    """`size` bytes made up as they are read, never held in memory, with their md5."""

    def __init__(self, size: int) -> None:
        self.left = size
        self.md5 = hashlib.md5()
        self.block = random.Random(11).randbytes(1 << 16)
        self.offset = 0

    def read(self, n: int) -> bytes:
        n = min(n, self.left, len(self.block) - self.offset)
        if n <= 0:
            return b""
        piece = self.block[self.offset : self.offset + n]
        self.offset = (self.offset + n) % len(self.block)
        self.left -= n
        self.md5.update(piece)
        return piece


@needs_proc
def test_huge_push_streams_to_disk(device: VirtualDevice, adb: adbutils.AdbDevice) -> None:
    target = "/data/local/tmp/huge.bin"
    size = 200 << 20
    source = Generated(size)
    pid = device.process.pid
    before = proc_status(pid)
    with Sampler(pid) as peak:
        assert adb.sync.push(source, target) == size
    assert peak.max_kb - before < 32 * 1024, f"RSS grew from {before} kB to {peak.max_kb} kB during the push"
    assert adb.sync.stat(target).size == size
    assert adb.shell(["md5sum", target], timeout=60).split()[0] == source.md5.hexdigest()
    adb.shell(["rm", target])
    assert wait_for(lambda: proc_status(pid) - before < 32 * 1024), f"RSS {proc_status(pid)} kB, was {before} kB"
    assert push_leftovers(device) == []
    assert_serves(device)


# -- shell v2 streams --------------------------------------------------------------------------
def v2(ident: int, data: bytes) -> bytes:
    return struct.pack("<BI", ident, len(data)) + data


def v2_frames(data: bytes) -> list[tuple[int, bytes]]:
    out, i = [], 0
    while i + 5 <= len(data):
        ident, n = struct.unpack_from("<BI", data, i)
        out.append((ident, data[i + 5 : i + 5 + n]))
        i += 5 + n
    assert i == len(data), "trailing bytes after the last frame"
    return out


def test_shell_v2_unknown_ids_and_odd_window_sizes_are_ignored(device: VirtualDevice) -> None:
    with RawHost(device.port) as host:
        s = host.open(b"shell,v2,raw:cat")
        assert s is not None
        host.write(s, v2(5, b"not a window size") + v2(9, b"?") + v2(200, b"") + v2(0, b"abc"))
        host.write(s, v2(0, b"def")[:3])  # a frame split across WRTEs
        host.write(s, v2(0, b"def")[3:] + v2(4, b""))
        frames = v2_frames(host.read_all(s))
        assert b"".join(d for i, d in frames if i == 1) == b"abcdef"
        assert frames[-1] == (3, b"\x00")
    assert_serves(device)


def test_shell_v2_oversized_frame_ends_the_session(device: VirtualDevice) -> None:
    with RawHost(device.port) as host:
        s = host.open(b"shell,v2,raw:cat")
        assert s is not None
        host.write(s, v2(0, b"before\n"))
        host.write(s, struct.pack("<BI", 0, 0xFFFFFFFF) + b"junk")
        frames = v2_frames(host.read_all(s))
        assert b"".join(d for i, d in frames if i == 1) == b"before\n"
        assert frames[-1][0] == 3
        assert host.run(b"shell:echo same connection") == b"same connection\n"
    assert_serves(device)


@needs_proc
def test_shell_v2_truncated_frame_then_close(device: VirtualDevice) -> None:
    threads = proc_status(device.process.pid, "Threads")
    with RawHost(device.port) as host:
        for _ in range(5):
            s = host.open(b"shell,v2,raw:cat")
            assert s is not None
            host.write(s, v2(0, b"0123456789")[:8])
            host.send(A_CLSE, s, host.remote[s])
        assert host.run(b"shell:echo ok") == b"ok\n"
    assert wait_for(lambda: proc_status(device.process.pid, "Threads") <= threads + 8)
    assert_serves(device)


def test_interactive_shell_with_garbage_stdin(device: VirtualDevice) -> None:
    with RawHost(device.port) as host:
        s = host.open(b"shell,v2,raw:")
        assert s is not None
        host.write(s, v2(0, b"\xff\xfe\x00 garbage ;; |\n"))
        host.write(s, v2(0, b"\n\necho alive\n"))
        host.write(s, v2(0, b"exit 3\n"))
        frames = v2_frames(host.read_all(s))
        assert b"alive" in b"".join(d for i, d in frames if i == 1)
        assert frames[-1] == (3, b"\x03")
    assert_serves(device)


@needs_proc
def test_more_stalled_sessions_than_shell_workers(device: VirtualDevice) -> None:
    """Sessions that never end (shells waiting on stdin) must not starve other commands, and a host
    that vanishes gives their threads back."""
    threads = proc_status(device.process.pid, "Threads")
    host = RawHost(device.port)
    for _ in range(80):  # more than the 64 pooled shell workers
        assert host.open(b"shell,v2,raw:cat") is not None
    assert_serves(device)
    host.vanish()
    assert wait_for(lambda: proc_status(device.process.pid, "Threads") <= threads + 40), "session threads left behind"
    assert_serves(device)
