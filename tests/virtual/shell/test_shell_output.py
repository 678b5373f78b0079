"""How a shell session's output leaves the virtual device: gathered into one WRTE when the
command ends, and sent FLUSH_AFTER after the first unsent write while it runs on.

In process, with the two event-loop methods the output uses run by hand, so the order of
writes, flushes and timers is exact (end to end: test_device_robustness.py, streaming).
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from pytest_mobile_agent.virtual.adb.services import V2_STDERR, V2_STDOUT, V2Parser, _Output, _StreamOutput


class HandRunLoop:
    """Records what the output schedules; the test decides when it runs."""

    def __init__(self) -> None:
        self.soon: list[tuple[Any, tuple]] = []
        self.timers: list[tuple[float, Any]] = []

    def call_soon_threadsafe(self, fn: Any, *args: Any) -> None:
        self.soon.append((fn, args))

    def call_later(self, delay: float, fn: Any) -> None:
        self.timers.append((delay, fn))

    def run_soon(self) -> None:
        while self.soon:
            fn, args = self.soon.pop(0)
            fn(*args)

    def fire_timers(self) -> None:
        timers, self.timers = self.timers, []
        for _, fn in timers:
            fn()


class RecordingStream:
    """What Stream.send would put on the wire: one WRTE per non-empty send."""

    def __init__(self, loop: HandRunLoop) -> None:
        self.conn = SimpleNamespace(loop=loop)
        self.sent: list[bytes] = []

    def send(self, data: bytes) -> None:
        if data:
            self.sent.append(data)


def make() -> tuple[HandRunLoop, RecordingStream, _Output]:
    loop = HandRunLoop()
    stream = RecordingStream(loop)
    return loop, stream, _Output(stream)  # type: ignore[arg-type]


def test_a_finished_commands_writes_leave_in_one_send() -> None:
    loop, stream, out = make()
    out.write(b"<hierarchy/>")
    out.write(b"UI hierchary dumped to: /dev/tty\n")  # uiautomator dump's second write
    out.flush_threadsafe()  # the command ended
    loop.run_soon()
    loop.fire_timers()  # the timer armed by the first write finds nothing left
    assert stream.sent == [b"<hierarchy/>UI hierchary dumped to: /dev/tty\n"]


def test_a_running_commands_output_goes_out_when_its_timer_fires() -> None:
    loop, stream, out = make()
    out.write(b"early\n")
    loop.run_soon()
    assert stream.sent == [] and [delay for delay, _ in loop.timers] == [_Output.FLUSH_AFTER]
    loop.fire_timers()
    assert stream.sent == [b"early\n"]
    out.write(b"late\n")  # a new burst arms a new timer
    loop.run_soon()
    assert len(loop.timers) == 1
    out.flush_threadsafe()
    loop.run_soon()
    assert stream.sent == [b"early\n", b"late\n"]


def test_stdout_and_stderr_keep_their_order() -> None:
    loop, stream, out = make()
    stdout, stderr = _StreamOutput(out, V2_STDOUT), _StreamOutput(out, V2_STDERR)
    stdout.write(b"a")
    stderr.write(b"b")
    stdout.write(b"")  # nothing to send: no frame
    stdout.write(b"c")
    out.flush_threadsafe()
    loop.run_soon()
    assert len(stream.sent) == 1
    assert V2Parser().feed(stream.sent[0]) == [(V2_STDOUT, b"a"), (V2_STDERR, b"b"), (V2_STDOUT, b"c")]
