"""Property tests for the device's three wire parsers: adb packets, shell v2 frames, sync requests.

In process, no sockets: bytes are fed in arbitrary chunkings, as TCP may deliver them. A parser
either returns what it understood or raises its own protocol error, never anything else, and
valid input means the same thing however it is split.
"""

from __future__ import annotations

import operator
import os
import shutil
import stat
import struct
import tempfile
from collections.abc import Iterator
from pathlib import Path
from unittest.mock import patch

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pytest_mobile_agent.virtual.adb import packets, sync
from pytest_mobile_agent.virtual.adb.packets import HEADER, Packet, PacketReader, ProtocolError, encode
from pytest_mobile_agent.virtual.adb.services import V2Parser, v2_frame
from pytest_mobile_agent.virtual.adb.sync import MAX_CHUNK, SyncSession
from pytest_mobile_agent.virtual.core.fs import FileSystem

FUZZ = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])

chunk_sizes = st.lists(st.integers(1, 300), min_size=1, max_size=40)


def split(data: bytes, sizes: list[int]) -> Iterator[bytes]:
    """`data` cut into pieces of the given sizes, cycling through them; the last piece may be short."""
    i = k = 0
    while i < len(data):
        n = sizes[k % len(sizes)]
        yield data[i : i + n]
        i += n
        k += 1


# -- adb packets -------------------------------------------------------------------------------
MAX_TEST_PAYLOAD = 4096


def reference_packets(data: bytes, max_payload: int) -> tuple[list[Packet], bool]:
    """A plain reading of the wire format, written apart from PacketReader: (packets, error?)."""
    out, i = [], 0
    while len(data) - i >= 24:
        command, arg0, arg1, length, _check, magic = struct.unpack_from("<6I", data, i)
        if magic != command ^ 0xFFFFFFFF or command not in packets.COMMANDS or length > max_payload:
            return out, True
        if len(data) - i - 24 < length:
            break
        out.append(Packet(command, arg0, arg1, data[i + 24 : i + 24 + length]))
        i += 24 + length
    return out, False


def feed_packets(data: bytes, sizes: list[int], max_payload: int) -> tuple[list[Packet], bool]:
    reader = PacketReader(max_payload)
    got: list[Packet] = []
    for piece in split(data, sizes):
        try:
            got += reader.feed(piece)
        except ProtocolError:
            return got, True
    return got, False


u32 = st.integers(0, 0xFFFFFFFF)
commands = st.sampled_from(sorted(packets.COMMANDS))
valid_packets = st.builds(Packet, commands, u32, u32, st.binary(max_size=600))


@st.composite
def packet_soup(draw: st.DrawFn) -> bytes:
    """Mostly well-formed packets with bad ones mixed in: bad magic, unknown command, long length."""
    parts = []
    for _ in range(draw(st.integers(0, 6))):
        kind = draw(st.sampled_from(["ok", "ok", "ok", "magic", "command", "length", "junk"]))
        command = draw(commands)
        data = draw(st.binary(max_size=100))
        length, magic = len(data), command ^ 0xFFFFFFFF
        if kind == "magic":
            magic = draw(u32.filter(lambda m, c=command: m != c ^ 0xFFFFFFFF))
        elif kind == "command":
            command = draw(u32.filter(lambda c: c not in packets.COMMANDS))
            magic = command ^ 0xFFFFFFFF
        elif kind == "length":
            length = draw(st.integers(MAX_TEST_PAYLOAD + 1, 0xFFFFFFFF))
        elif kind == "junk":
            parts.append(draw(st.binary(min_size=1, max_size=60)))
            continue
        parts.append(HEADER.pack(command, draw(u32), draw(u32), length, draw(u32), magic) + data)
    return b"".join(parts)


@FUZZ
@given(data=st.one_of(st.binary(max_size=400), packet_soup()), sizes=chunk_sizes)
def test_packet_reader_yields_packets_or_protocol_error(data: bytes, sizes: list[int]) -> None:
    got, failed = feed_packets(data, sizes, MAX_TEST_PAYLOAD)
    expected, bad = reference_packets(data, MAX_TEST_PAYLOAD)
    assert failed == bad
    if bad:
        # Packets that shared a feed with the bad header go with it; the connection ends anyway.
        assert got == expected[: len(got)]
    else:
        assert got == expected


@FUZZ
@given(sent=st.lists(valid_packets, max_size=8), checks=st.lists(u32, min_size=1), sizes=chunk_sizes)
def test_valid_packets_round_trip_whatever_the_chunking(
    sent: list[Packet], checks: list[int], sizes: list[int]
) -> None:
    wire = bytearray()
    for i, p in enumerate(sent):
        raw = bytearray(encode(p.command, p.arg0, p.arg1, p.data))
        # Old hosts fill in the data checksum; the reader must not care.
        struct.pack_into("<I", raw, 16, checks[i % len(checks)])
        wire += raw
    got, failed = feed_packets(bytes(wire), sizes, packets.MAX_PAYLOAD)
    assert not failed
    assert got == sent
    assert b"".join(encode(p.command, p.arg0, p.arg1, p.data) for p in got) == b"".join(
        encode(p.command, p.arg0, p.arg1, p.data) for p in sent
    )


def test_packet_reader_rejects_oversized_length_from_the_header_alone() -> None:
    header = HEADER.pack(packets.A_WRTE, 1, 1, packets.MAX_PAYLOAD + 1, 0, packets.A_WRTE ^ 0xFFFFFFFF)
    with pytest.raises(ProtocolError):
        PacketReader().feed(header)


# -- shell v2 ----------------------------------------------------------------------------------
def reference_frames(data: bytes) -> tuple[list[tuple[int, bytes]], bool]:
    out, i = [], 0
    while len(data) - i >= 5:
        ident, length = struct.unpack_from("<BI", data, i)
        if length > V2Parser.MAX_FRAME:
            return out, True
        if len(data) - i - 5 < length:
            break
        out.append((ident, data[i + 5 : i + 5 + length]))
        i += 5 + length
    return out, False


def feed_frames(data: bytes, sizes: list[int]) -> tuple[list[tuple[int, bytes]], bool]:
    parser = V2Parser()
    got: list[tuple[int, bytes]] = []
    for piece in split(data, sizes):
        try:
            got += parser.feed(piece)
        except ValueError:
            return got, True
    return got, False


frames = st.tuples(st.integers(0, 255), st.binary(max_size=300))


@st.composite
def frame_soup(draw: st.DrawFn) -> bytes:
    parts = []
    for _ in range(draw(st.integers(0, 6))):
        kind = draw(st.sampled_from(["ok", "ok", "long", "junk"]))
        if kind == "ok":
            parts.append(v2_frame(*draw(frames)))
        elif kind == "long":
            parts.append(
                struct.pack("<BI", draw(st.integers(0, 255)), draw(st.integers(V2Parser.MAX_FRAME + 1, 2**32 - 1)))
            )
        else:
            parts.append(draw(st.binary(min_size=1, max_size=40)))
    return b"".join(parts)


@FUZZ
@given(data=st.one_of(st.binary(max_size=400), frame_soup()), sizes=chunk_sizes)
def test_v2_parser_yields_frames_or_value_error(data: bytes, sizes: list[int]) -> None:
    got, failed = feed_frames(data, sizes)
    expected, bad = reference_frames(data)
    assert failed == bad
    assert got == (expected[: len(got)] if bad else expected)


@FUZZ
@given(sent=st.lists(frames, max_size=10), sizes=chunk_sizes)
def test_v2_frames_round_trip_whatever_the_chunking(sent: list[tuple[int, bytes]], sizes: list[int]) -> None:
    wire = b"".join(v2_frame(i, d) for i, d in sent)
    got, failed = feed_frames(wire, sizes)
    assert not failed
    assert got == sent
    assert b"".join(v2_frame(i, d) for i, d in got) == wire


# -- sync --------------------------------------------------------------------------------------
class Jail:
    """A device root inside a base directory that holds nothing else but a sentinel.

    One per test, not per example: directories are slow to make and remove on some disks.
    """

    def __init__(self) -> None:
        self._tmp = tempfile.TemporaryDirectory(prefix="pma-syncfuzz-")
        self.base = Path(self._tmp.name)
        (self.base / "outside").mkdir()
        (self.base / "outside" / "sentinel").write_bytes(b"keep")
        self.fs = FileSystem(self.base / "root")
        self.replies = bytearray()
        self.closed = 0

    def session(self, paced: bool = False) -> SyncSession:
        self.replies.clear()
        self.closed = 0
        return SyncSession(self.fs, self.replies.extend, self._close, paced=paced)

    def _close(self) -> None:
        self.closed += 1

    def files_outside_root(self) -> list[str]:
        out = []
        for dirpath, _dirs, names in os.walk(self.base):
            if Path(dirpath).is_relative_to(self.base / "root"):
                continue
            out += [os.path.relpath(os.path.join(dirpath, n), self.base) for n in names]
        return out

    def leftovers(self) -> list[str]:
        """Temporary files of pushes that never finished."""
        return [n for _d, _s, names in os.walk(self.base / "root") for n in names if ".push-" in n]

    def cleanup(self) -> None:
        self._tmp.cleanup()


@pytest.fixture(scope="module")
def jail() -> Iterator[Jail]:
    j = Jail()
    yield j
    j.cleanup()


def req(ident: bytes, payload: bytes) -> bytes:
    return ident + struct.pack("<I", len(payload)) + payload


PATHS = [
    "/data/local/tmp/f",
    "/sdcard/Download/a.txt",
    "/storage/self/primary/Download/a.txt",
    "../../../../outside/sentinel",
    "/../../outside/evil",
    "/data/local/tmp/../../../../../outside/x",
    "/",
    "",
    ".",
    "/data/local/tmp",
    "/data/local/tmp/f/sub",
    "a\0b",
    "/data/local/tmp/\udcff",
    "/dev/null",
    "/proc",
    "x" * 300,
    "/sdcard/" + "d/" * 60 + "deep",
]
IDENTS = [b"STAT", b"STA2", b"LST2", b"LIST", b"LIS2", b"RECV", b"SEND", b"DATA", b"DONE", b"QUIT", b"OKAY", b"FAIL"]


@st.composite
def sync_soup(draw: st.DrawFn) -> bytes:
    """Request-shaped bytes: known and unknown ids, right and wrong lengths, odd paths, junk."""
    parts = []
    for _ in range(draw(st.integers(0, 8))):
        kind = draw(st.sampled_from(["req", "req", "push", "badlen", "junk"]))
        if kind == "junk":
            parts.append(draw(st.binary(min_size=1, max_size=40)))
            continue
        path = draw(st.sampled_from(PATHS) | st.text(max_size=30)).encode("utf-8", "surrogateescape")
        if kind == "push":
            mode = draw(st.sampled_from(["33188", "16877", "0", "abc", "", "9" * 40]))
            parts.append(req(b"SEND", path + b"," + mode.encode()))
            for _ in range(draw(st.integers(0, 3))):
                parts.append(req(b"DATA", draw(st.binary(max_size=200))))
            if draw(st.booleans()):
                parts.append(b"DONE" + struct.pack("<I", draw(u32)))
        elif kind == "badlen":
            ident = draw(st.sampled_from(IDENTS))
            parts.append(ident + struct.pack("<I", draw(st.integers(0, 2**32 - 1))) + path)
        else:
            ident = draw(st.sampled_from(IDENTS) | st.binary(min_size=4, max_size=4))
            parts.append(req(ident, path))
    return b"".join(parts)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.one_of(st.binary(max_size=300), sync_soup()), sizes=chunk_sizes)
def test_sync_session_survives_any_bytes(jail: Jail, data: bytes, sizes: list[int]) -> None:
    session = jail.session()
    for piece in split(data, sizes):
        session.on_data(piece)  # must not raise
    session.on_close()
    assert jail.files_outside_root() == ["outside/sentinel"]
    assert (jail.base / "outside" / "sentinel").read_bytes() == b"keep"
    assert jail.leftovers() == []
    assert jail.closed <= 1


# Valid conversations: a small model of the files decides what every reply must be.
DIR = "/data/local/tmp/fz"
NAMES = ["a", "b.txt", "c d", "é"]
PERMS = [0o644, 0o755, 0o600, 0o777]

ops = st.one_of(
    st.tuples(
        st.just("send"),
        st.sampled_from(NAMES),
        st.binary(max_size=3 * 1024)
        | st.builds(operator.mul, st.binary(min_size=1, max_size=40), st.integers(1, 5000)),
        st.sampled_from(PERMS),
        st.integers(1, 2**31 - 1),
        st.integers(1, MAX_CHUNK),
    ),
    st.tuples(st.sampled_from(["stat", "sta2", "lst2", "recv"]), st.sampled_from(NAMES)),
    st.tuples(st.sampled_from(["list", "lis2"]), st.sampled_from([DIR, "/data/local/tmp/missing"])),
)


def encode_op(op: tuple) -> bytes:
    kind = op[0]
    if kind == "send":
        _, name, content, perm, mtime, piece = op
        out = req(b"SEND", f"{DIR}/{name},{stat.S_IFREG | perm}".encode())
        for i in range(0, len(content), piece):
            out += req(b"DATA", content[i : i + piece])
        return out + b"DONE" + struct.pack("<I", mtime)
    ident = {"stat": b"STAT", "sta2": b"STA2", "lst2": b"LST2", "recv": b"RECV", "list": b"LIST", "lis2": b"LIS2"}
    target = op[1] if kind in ("list", "lis2") else f"{DIR}/{op[1]}"
    return req(ident[kind], target.encode())


class Replies:
    def __init__(self, data: bytes) -> None:
        self.data, self.pos = data, 0

    def take(self, n: int) -> bytes:
        chunk = self.data[self.pos : self.pos + n]
        assert len(chunk) == n, "reply cut short"
        self.pos += n
        return chunk

    def unpack(self, fmt: str) -> tuple:
        return struct.unpack(fmt, self.take(struct.calcsize(fmt)))


def check_replies(conversation: list[tuple], replies: bytes) -> None:
    files: dict[str, tuple[bytes, int, int]] = {}  # name -> content, perm, mtime
    r = Replies(replies)
    for op in conversation:
        kind = op[0]
        if kind == "send":
            _, name, content, perm, mtime, _piece = op
            assert r.take(8) == b"OKAY\0\0\0\0"
            files[name] = (content, perm, mtime)
        elif kind == "stat":
            ident, mode, size, mtime = r.unpack("<4sIII")
            assert ident == b"STAT"
            f = files.get(op[1])
            assert (mode, size, mtime) == ((stat.S_IFREG | f[1], len(f[0]), f[2]) if f else (0, 0, 0))
        elif kind in ("sta2", "lst2"):
            fields = r.unpack("<4sIQQIIIIQqqq")
            assert fields[0] == kind.upper().encode()
            f = files.get(op[1])
            if f is None:
                assert fields[1] != 0  # the errno
            else:
                assert fields[1] == 0
                assert (fields[4], fields[8], fields[10]) == (stat.S_IFREG | f[1], len(f[0]), f[2])
        elif kind == "recv":
            f = files.get(op[1])
            if f is None:
                ident, n = r.unpack("<4sI")
                assert ident == b"FAIL"
                r.take(n)
                break  # a failed pull ends the sync session
            body = bytearray()
            while True:
                ident, n = r.unpack("<4sI")
                if ident == b"DONE":
                    break
                assert ident == b"DATA" and 0 < n <= MAX_CHUNK
                body += r.take(n)
            assert body == f[0]
        else:
            v2 = kind == "lis2"
            seen = {}
            while True:
                if v2:
                    ident, *fields, namelen = r.unpack("<4sIQQIIIIQqqqI")
                    mode, size, mtime = fields[3], fields[7], fields[9]
                else:
                    ident, mode, size, mtime, namelen = r.unpack("<4sIIII")
                if ident == b"DONE":
                    break
                assert ident == (b"DNT2" if v2 else b"DENT")
                seen[r.take(namelen).decode()] = (mode, size, mtime)
            expected = {n: (stat.S_IFREG | p, len(c), m) for n, (c, p, m) in files.items()}
            if op[1] == DIR and files:
                assert set(seen) == {".", ".."} | set(expected)
                assert {n: v for n, v in seen.items() if n in expected} == expected
            else:
                assert seen == {} or set(seen) == {".", ".."}
    assert r.pos == len(replies), "replies left over"


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    conversation=st.lists(ops, min_size=1, max_size=12),
    sizes=st.lists(st.integers(1, 5000), min_size=1),
    drains=st.none() | st.lists(st.integers(0, 3), min_size=1),
)
def test_valid_sync_conversations_get_correct_replies_whatever_the_splits(
    jail: Jail, conversation: list[tuple], sizes: list[int], drains: list[int] | None
) -> None:
    """`drains`: None for an unpaced session; else how many OKAYs the host sends after each piece."""
    shutil.rmtree(jail.fs.host(DIR), ignore_errors=True)  # each conversation starts with no files
    with patch.object(sync, "PULL_WINDOW", 1):  # a window per 64 KiB chunk, so pulls take several
        session = jail.session(paced=drains is not None)
        wire = b"".join(encode_op(op) for op in conversation) + req(b"QUIT", b"")
        for k, piece in enumerate(split(wire, sizes)):
            session.on_data(piece)
            for _ in range((drains or [0])[k % len(drains or [0])]):
                session.on_drained()
        # The host keeps taking what comes until the session ends.
        for _ in range(10_000):
            if jail.closed:
                break
            session.on_drained()
        session.on_close()
    check_replies(conversation, bytes(jail.replies))
    assert jail.closed == 1
    assert jail.leftovers() == []
