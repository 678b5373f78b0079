"""The listener app's pure-Java classes, compiled with javac and run on a plain JVM.

Checks that the app's JSON writer produces lines the host decoder accepts with the same values,
that its type table is the schema's, and that its TCP server works with EventStreamClient.
"""

from __future__ import annotations

import contextlib
import random
import shutil
import socket
import subprocess
import threading
from pathlib import Path

import pytest

from pytest_mobile_agent.events.client import EventStreamClient
from pytest_mobile_agent.events.schema import (
    EVENT_TYPE_NAMES,
    EVENT_TYPES,
    MAX_LINE_BYTES,
    AccessibilityEvent,
    decode_line,
)

ROOT = Path(__file__).resolve().parents[2]
APP_JAVA = ROOT / "listener_app/src/main/java/io/pytestmobileagent/listener"
PURE_JAVA = ["EventTypes.java", "EventRecord.java", "JsonLineWriter.java", "EventBroadcaster.java"]
HARNESS = Path(__file__).with_name("java") / "EventHarness.java"


@pytest.fixture(scope="module")
def classes(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if shutil.which("javac") is None or shutil.which("java") is None:
        pytest.fail("javac/java not found: run `bash listener_app/install-build-deps.sh` as root")
    out = tmp_path_factory.mktemp("java")
    sources = [str(APP_JAVA / name) for name in PURE_JAVA] + [str(HARNESS)]
    subprocess.run(["javac", "--release", "8", "-Xlint:-options", "-d", str(out), *sources], check=True)
    return out


def harness(classes: Path, *args: str, **kwargs: object) -> subprocess.CompletedProcess[bytes]:
    cmd = ["java", "-cp", str(classes), "EventHarness", *args]
    return subprocess.run(cmd, check=True, capture_output=True, timeout=60, **kwargs)


def test_pure_java_sources_have_no_android_imports() -> None:
    for name in PURE_JAVA:
        assert "import android" not in (APP_JAVA / name).read_text(), name


def test_type_table_matches_schema(classes: Path) -> None:
    lines = harness(classes, "types").stdout.decode().split()
    table = dict(zip(lines[1::2], map(int, lines[::2]), strict=True))
    assert table == EVENT_TYPES


# -- the JSON writer


def _hex(s: str | None) -> str:
    return "-" if s is None else s.encode("utf-16-be", "surrogatepass").hex()


def _fields(seq: int, code: int, ev: dict[str, object]) -> str:
    text = ev["text"]
    assert isinstance(text, list)
    bounds = ev["bounds"]
    cols = [
        str(seq),
        str(code),
        str(ev["time"]),
        _hex(ev["package"]),  # type: ignore[arg-type]
        _hex(ev["class"]),  # type: ignore[arg-type]
        f"{len(text)}:" + ",".join(_hex(t) for t in text),
        _hex(ev["cd"]),  # type: ignore[arg-type]
        _hex(ev["view_id"]),  # type: ignore[arg-type]
        "-" if bounds is None else ",".join(map(str, bounds)),  # type: ignore[arg-type]
        str(ev["window_id"]),
        _hex(ev["title"]),  # type: ignore[arg-type]
    ]
    return "\t".join(cols)


TRICKY = [
    "",
    'quote " backslash \\ slash /',
    "new\nline\r\ttab \b \f \x00 \x1f \x7f",
    "unicode: é ü ß 中文 日本語 한국어 עברית العربية",
    "emoji 🙂👍🏽 and astral 𝄞",
    "line sep \u2028 para sep \u2029",
    '</script> {"json": [1, 2]}',
]


def _random_string(rng: random.Random) -> str:
    alphabet = 'abc XYZ09"\\\n\t\x01é中🙂\u2028'
    return "".join(rng.choice(alphabet) for _ in range(rng.randrange(0, 40)))


def _sample_events() -> list[dict[str, object]]:
    rng = random.Random(7333)
    events: list[dict[str, object]] = []
    for i in range(200):
        pick = TRICKY if i < 40 else None

        def s(pick: list[str] | None = pick) -> str:
            return rng.choice(pick) if pick else _random_string(rng)

        events.append(
            {
                "code": rng.choice(list(EVENT_TYPES.values())),
                "time": rng.randrange(0, 2**40),
                "package": s(),
                "class": s(),
                "text": [s() for _ in range(rng.randrange(0, 4))],
                "cd": rng.choice([None, s()]),
                "view_id": rng.choice([None, s()]),
                "bounds": rng.choice([None, [rng.randrange(-5, 3000) for _ in range(4)]]),
                "window_id": rng.randrange(-1, 100),
                "title": rng.choice([None, s()]),
            }
        )
    return events


def test_writer_lines_decode_to_the_same_values(classes: Path, tmp_path: Path) -> None:
    events = _sample_events()
    infile = tmp_path / "events.tsv"
    infile.write_text("".join(_fields(i + 1, e["code"], e) + "\n" for i, e in enumerate(events)))  # type: ignore[arg-type]
    out = harness(classes, "encode", str(infile)).stdout
    lines = out.split(b"\n")
    assert lines.pop() == b""
    assert len(lines) == len(events)
    for i, (line, ev) in enumerate(zip(lines, events, strict=True)):
        got = decode_line(line)
        assert got == AccessibilityEvent(
            seq=i + 1,
            type=EVENT_TYPE_NAMES[ev["code"]],  # type: ignore[index]
            time=ev["time"],  # type: ignore[arg-type]
            package=ev["package"],  # type: ignore[arg-type]
            class_name=ev["class"],  # type: ignore[arg-type]
            text=tuple(ev["text"]),  # type: ignore[arg-type]
            content_description=ev["cd"],  # type: ignore[arg-type]
            view_id=ev["view_id"],  # type: ignore[arg-type]
            bounds=None if ev["bounds"] is None else tuple(ev["bounds"]),  # type: ignore[arg-type]
            window_id=ev["window_id"],  # type: ignore[arg-type]
            window_title=ev["title"],  # type: ignore[arg-type]
        )


def _one_event(classes: Path, tmp_path: Path, **overrides: object) -> bytes:
    ev: dict[str, object] = {
        "time": 5,
        "package": "p",
        "class": "c",
        "text": [],
        "cd": None,
        "view_id": None,
        "bounds": None,
        "window_id": 1,
        "title": None,
    }
    ev.update(overrides)
    infile = tmp_path / "one.tsv"
    infile.write_text(_fields(1, 1, ev) + "\n")
    return harness(classes, "encode", str(infile)).stdout


def test_lone_surrogates_become_replacement_characters(classes: Path, tmp_path: Path) -> None:
    line = _one_event(classes, tmp_path, text=["a\ud800b", "\udc00", "ok 🙂"])
    assert decode_line(line).text == ("a\ufffdb", "\ufffd", "ok 🙂")  # type: ignore[union-attr]


def test_oversized_event_is_shortened_to_fit_a_line(classes: Path, tmp_path: Path) -> None:
    huge = "\x01" * 30000  # 6 bytes each once escaped
    line = _one_event(classes, tmp_path, text=[huge] * 5, cd="🙂" * 40000)
    assert len(line) - 1 <= MAX_LINE_BYTES
    ev = decode_line(line)
    assert ev.seq == 1 and ev.text and set(ev.text[0]) == {"\x01"}  # type: ignore[union-attr]


# -- the TCP server


class JavaServer:
    def __init__(self, classes: Path, capacity: int) -> None:
        cmd = ["java", "-cp", str(classes), "EventHarness", "serve", str(capacity)]
        self.proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        first = self.proc.stdout.readline()  # type: ignore[union-attr]
        assert first.startswith("port "), first
        self.port = int(first.split()[1])

    def command(self, line: str) -> None:
        self.proc.stdin.write(line + "\n")  # type: ignore[union-attr]
        self.proc.stdin.flush()  # type: ignore[union-attr]
        assert self.proc.stdout.readline().strip() == "ok"  # type: ignore[union-attr]

    def connect(self) -> socket.socket:
        return socket.create_connection(("127.0.0.1", self.port), timeout=5)

    def close(self) -> None:
        with contextlib.suppress(BrokenPipeError, AssertionError):
            self.command("quit")
        try:
            self.proc.wait(timeout=10)
        finally:
            self.proc.kill()  # a no-op once it has exited
            self.proc.stdin.close()  # type: ignore[union-attr]
            self.proc.stdout.close()  # type: ignore[union-attr]


@pytest.fixture
def java_server(classes: Path):
    server = JavaServer(classes, capacity=64)
    yield server
    server.close()


def test_java_server_feeds_several_clients(java_server: JavaServer) -> None:
    with (
        EventStreamClient(java_server.connect) as a,
        EventStreamClient(java_server.connect) as b,
    ):
        assert a.hello is not None and a.hello.next_seq == 1
        java_server.command("publish 5")
        for client in (a, b):
            assert client.wait_for(lambda e: e.seq == 5, timeout=10) is not None
            assert [e.seq for e in client.events] == [1, 2, 3, 4, 5]
            assert client.events[0].view_id == "com.example:id/b0"
            assert client.gaps == []


def test_java_server_reconnect_reports_the_gap(java_server: JavaServer) -> None:
    gate = threading.Event()
    gate.set()

    def connect() -> socket.socket:
        assert gate.wait(10)
        return java_server.connect()

    with EventStreamClient(connect, backoff=0.01) as client:
        java_server.command("publish 3")
        assert client.wait_for(lambda e: e.seq == 3, timeout=10)
        gate.clear()  # hold the reconnect until events were published in between
        java_server.command("drop")
        java_server.command("publish 2")
        gate.set()
        assert client.wait_connected(2, timeout=10)
        java_server.command("publish 1")
        assert client.wait_for(lambda e: e.seq == 6, timeout=10) is not None
        assert client.gaps == [(4, 5)]
        assert [e.seq for e in client.events] == [1, 2, 3, 6]


def test_java_server_dropped_events_show_as_gaps(java_server: JavaServer) -> None:
    with EventStreamClient(java_server.connect) as client:
        java_server.command("publish 1")
        java_server.command("skip 2")  # what the service does when its queue overflows
        java_server.command("publish 1")
        assert client.wait_for(lambda e: e.seq == 4, timeout=10) is not None
        assert [e.seq for e in client.events] == [1, 4]
        assert client.gaps == [(2, 3)]


def test_java_server_slow_reader_skips_ahead(classes: Path) -> None:
    server = JavaServer(classes, capacity=4)
    try:
        with server.connect() as sock:
            sock.settimeout(5)
            data = sock.recv(65536)  # the hello: from here on every event is sent
            server.command("publish 50")
            while not data.endswith(b'"window_title":null}\n') or b'"seq":50,' not in data:
                chunk = sock.recv(65536)
                assert chunk, "server closed the connection"
                data += chunk
        items = [decode_line(line) for line in data.splitlines()]
        seqs = [i.seq for i in items[1:]]  # type: ignore[union-attr]
        assert items[0].next_seq == 1  # type: ignore[union-attr]
        assert seqs == sorted(set(seqs)) and seqs[-1] == 50
    finally:
        server.close()
