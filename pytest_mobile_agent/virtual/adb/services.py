"""Services a host can open on the device: shell (legacy and v2), exec, sync, tcp, framebuffer, reverse."""

from __future__ import annotations

import logging
import struct
import threading

from pytest_mobile_agent.virtual.adb.reverse import ReverseTable, reverse_service
from pytest_mobile_agent.virtual.adb.sync import SyncSession
from pytest_mobile_agent.virtual.adb.transport import Stream, StreamHandler
from pytest_mobile_agent.virtual.shell import interactive, run_script
from pytest_mobile_agent.virtual.shell.api import Input
from pytest_mobile_agent.virtual.system.device import Device

log = logging.getLogger(__name__)

# Shell protocol v2 packet ids.
V2_STDIN, V2_STDOUT, V2_STDERR, V2_EXIT, V2_CLOSE_STDIN, V2_WINDOW = 0, 1, 2, 3, 4, 5
_V2_HEADER = struct.Struct("<BI")


def v2_frame(ident: int, data: bytes) -> bytes:
    return _V2_HEADER.pack(ident, len(data)) + data


class V2Parser:
    """Splits a shell-v2 byte stream into (id, payload) frames, whatever the packet boundaries."""

    MAX_FRAME = 1024 * 1024

    def __init__(self) -> None:
        self._buf = bytearray()

    def feed(self, data: bytes) -> list[tuple[int, bytes]]:
        self._buf += data
        frames = []
        while len(self._buf) >= 5:
            ident, length = _V2_HEADER.unpack_from(self._buf)
            if length > self.MAX_FRAME:
                raise ValueError(f"shell v2 frame of {length} bytes")
            if len(self._buf) < 5 + length:
                break
            frames.append((ident, bytes(self._buf[5 : 5 + length])))
            del self._buf[: 5 + length]
        return frames


class _Output:
    """A shell session's output on its way to the host, written from the session's thread.

    A command writes in bursts (`uiautomator dump` writes the XML, then a line saying where it
    went). Sent one write per WRTE, every WRTE after the first waits a round trip through the
    adb server for its OKAY; gathered, a short command's output leaves in one. Gathered writes
    go out when the command ends, or FLUSH_AFTER seconds after the first of them, so a command
    that runs on (logcat, an interactive shell at its prompt) still streams.
    """

    FLUSH_AFTER = 0.002

    def __init__(self, stream: Stream) -> None:
        self.stream = stream
        self._loop = stream.conn.loop
        self._chunks: list[bytes] = []
        self._lock = threading.Lock()

    def write(self, data: bytes) -> None:
        with self._lock:
            first = not self._chunks
            self._chunks.append(data)
        if first:
            self._loop.call_soon_threadsafe(self._loop.call_later, self.FLUSH_AFTER, self._flush)

    def flush_threadsafe(self) -> None:
        self._loop.call_soon_threadsafe(self._flush)

    def _flush(self) -> None:  # on the event loop
        with self._lock:
            data, self._chunks = b"".join(self._chunks), []
        self.stream.send(data)


class _StreamOutput:
    """stdout or stderr of a shell session: raw (legacy shell, exec) or framed (shell v2). On a
    terminal every newline goes out as CR LF (the tty's `onlcr`, on in adbd's pty sessions)."""

    def __init__(self, output: _Output, ident: int | None, terminal: bool = False) -> None:
        self.output = output
        self.ident = ident
        self.terminal = terminal

    def write(self, data: bytes) -> None:
        if data:
            if self.terminal:
                data = data.replace(b"\n", b"\r\n")
            self.output.write(data if self.ident is None else v2_frame(self.ident, data))


class ShellSession:
    """Runs one command line (or an interactive shell) on a worker thread."""

    def __init__(self, device: Device, stream: Stream, command: str, v2: bool, pty: bool) -> None:
        self.device = device
        self.stream = stream
        self.command = command
        self.v2 = v2
        self.pty = pty
        self.stdin = Input()
        self.parser = V2Parser() if v2 else None
        self.output = _Output(stream)  # one for both, so stdout and stderr keep their order
        if pty:
            # A terminal is one stream: stderr comes out on stdout, v2 or not, as from adbd.
            self.out = self.err = _StreamOutput(self.output, V2_STDOUT if v2 else None, terminal=True)
        elif v2:
            self.out, self.err = _StreamOutput(self.output, V2_STDOUT), _StreamOutput(self.output, V2_STDERR)
        else:
            # Legacy shell and exec: one raw stream, stdout and stderr in time order.
            self.out = self.err = _StreamOutput(self.output, None)
        device.run_session(self._run)

    def on_data(self, data: bytes) -> None:
        if self.parser is None:
            self.stdin.feed(data)
            return
        try:
            frames = self.parser.feed(data)
        except ValueError as exc:
            log.warning("bad shell v2 input: %s", exc)
            self.stdin.close()
            return
        for ident, payload in frames:
            if ident == V2_STDIN:
                self.stdin.feed(payload)
            elif ident == V2_CLOSE_STDIN:
                self.stdin.close()

    def on_close(self) -> None:
        self.stdin.hangup.set()
        self.stdin.close()

    def _run(self) -> None:
        status = 1
        try:
            if self.command.strip():
                status = run_script(self.device, self.command, self.stdin, self.out, self.err, tty=self.pty)
            else:
                status = interactive(self.device, self.stdin, self.out, self.err)
        except Exception as exc:  # the interpreter reports errors itself; this is a last guard
            log.exception("shell command failed: %r", self.command)
            self.err.write(f"sh: {exc}\n".encode())
        finally:
            self.device.changed()
            if self.v2:
                self.output.write(v2_frame(V2_EXIT, bytes([status & 0xFF])))
            self.output.flush_threadsafe()
            self.stream.close_threadsafe()


class _SyncHandler:
    def __init__(self, device: Device, stream: Stream) -> None:
        self.session = SyncSession(device.fs, stream.send, stream.close, lambda path: device.changed(), paced=True)
        stream.on_drained = self.session.on_drained

    def on_data(self, data: bytes) -> None:
        self.session.on_data(data)

    def on_close(self) -> None:
        self.session.on_close()


class _Sink:
    """A stream whose input is ignored (framebuffer)."""

    def on_data(self, data: bytes) -> None:
        pass

    def on_close(self) -> None:
        pass


def _framebuffer(device: Device, stream: Stream) -> StreamHandler:
    w, h = device.wm.width, device.wm.height
    data = device.screen_rgba()
    # Version 1 header: bpp, size, width, height, then (offset, length) for R, B, G, A.
    header = struct.pack("<13I", 1, 32, len(data), w, h, 0, 8, 16, 8, 8, 8, 24, 8)
    stream.send(header + data)
    stream.close()
    return _Sink()


def open_service(device: Device, reverses: ReverseTable, stream: Stream, service: str) -> StreamHandler | None:
    name, _, arg = service.partition(":")
    if name == "shell" or name.startswith("shell,"):
        # As adbd: a terminal for an interactive shell or `pty`, raw for a command or `raw`.
        options = name.split(",")[1:]
        pty = "pty" in options or (not arg.strip() and "raw" not in options)
        return ShellSession(device, stream, arg, v2="v2" in options, pty=pty)
    if name == "exec":
        return ShellSession(device, stream, arg, v2=False, pty=False)
    if name == "sync":
        return _SyncHandler(device, stream)
    if name == "tcp":
        port = arg.split(":")[0]
        listener = device.ports.listeners.get(int(port)) if port.isdigit() else None
        return listener(stream) if listener else None
    if name == "framebuffer":
        return _framebuffer(device, stream)
    if name == "reverse":
        return reverse_service(reverses, stream, arg)
    log.info("refusing unknown service %r", service)
    return None
