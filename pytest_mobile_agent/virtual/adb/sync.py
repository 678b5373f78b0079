"""The `sync:` service: STAT/STA2/LST2/LIST/LIS2/RECV/SEND/DATA/DONE/QUIT.

Requests may arrive split across WRTE packets at any byte, so input is buffered and parsed
incrementally. A push is streamed into a temporary file and renamed on DONE: a client that
vanishes mid-transfer leaves nothing half-written behind.
"""

from __future__ import annotations

import itertools
import os
import stat
import struct
from collections.abc import Callable
from pathlib import Path
from typing import BinaryIO

from pytest_mobile_agent.virtual.core.fs import FileSystem

MAX_CHUNK = 64 * 1024
MAX_PATH = 1024
# A paced pull queues this many chunks per OKAY from the host: one WRTE of just under 1 MiB.
PULL_WINDOW = 15
_REQ = struct.Struct("<4sI")
_STAT_V1 = struct.Struct("<4sIII")
_STAT_V2 = struct.Struct("<4sIQQIIIIQqqq")  # 72 bytes
_DENT_V1 = struct.Struct("<4sIIII")
_DENT_V2 = struct.Struct("<4sIQQIIIIQqqqI")  # 76 bytes
ENOENT = 2


class SyncError(Exception):
    pass


class SyncSession:
    """Parses sync requests from `feed` and answers through `send`; `close` ends the stream."""

    def __init__(
        self,
        fs: FileSystem,
        send: Callable[[bytes], None],
        close: Callable[[], None],
        on_write: Callable[[str], None] = lambda path: None,
        *,
        paced: bool = False,
    ) -> None:
        self.fs = fs
        self.send = send
        self.close = close
        self.on_write = on_write
        # Paced: a pull sends a window at a time and waits for `on_drained` before the next.
        self.paced = paced
        self._buf = bytearray()
        self._push: tuple[str, int, Path, BinaryIO] | None = None  # path, mode, temp path, file
        self._pull: BinaryIO | None = None
        self.done = False

    def on_data(self, data: bytes) -> None:
        self._buf += data
        self._guarded(self._parse)

    def on_drained(self) -> None:
        """The host has taken everything sent so far: go on with a pull, then with waiting requests."""
        if self._pull is not None:
            self._guarded(self._continue_pull)

    def on_close(self) -> None:
        self._abort_push()
        self._end_pull()
        self.done = True

    def _guarded(self, step: Callable[[], None]) -> None:
        try:
            step()
        except SyncError as exc:
            self._fail(str(exc))
        except OSError as exc:  # e.g. a push under a path that is a file: the host gets FAIL, not silence
            self._fail(f"{exc.strerror or exc}")

    def _parse(self) -> None:
        while not self.done and self._pull is None and len(self._buf) >= 8:
            ident, length = _REQ.unpack_from(self._buf)
            if self._push is not None:
                if ident == b"DATA":
                    if length > MAX_CHUNK:
                        raise SyncError(f"data chunk of {length} bytes is larger than 64 KiB")
                    if len(self._buf) < 8 + length:
                        return
                    self._push[3].write(self._buf[8 : 8 + length])
                    del self._buf[: 8 + length]
                elif ident == b"DONE":
                    del self._buf[:8]
                    self._finish_push(length)
                else:
                    raise SyncError(f"unexpected {ident!r} during a push")
                continue
            if length > MAX_PATH:
                raise SyncError(f"path of {length} bytes is too long")
            if len(self._buf) < 8 + length:
                return
            payload = bytes(self._buf[8 : 8 + length])
            del self._buf[: 8 + length]
            # adbd reads the path as a C string: a NUL ends it.
            self._request(ident, payload.split(b"\0", 1)[0].decode("utf-8", "replace"))

    def _request(self, ident: bytes, path: str) -> None:
        if ident == b"STAT":
            self.send(self._stat_v1(path))
        elif ident in (b"STA2", b"LST2"):
            self.send(self._stat_v2(ident, path))
        elif ident == b"LIST":
            self._list(path, v2=False)
        elif ident == b"LIS2":
            self._list(path, v2=True)
        elif ident == b"RECV":
            self._recv(path)
        elif ident == b"SEND":
            self._start_push(path)
        elif ident == b"QUIT":
            self.done = True
            self.close()
        else:
            raise SyncError(f"unknown sync request {ident!r}")

    def _stat_v1(self, path: str) -> bytes:
        try:
            st = self.fs.host(path).stat()
        except OSError:
            return _STAT_V1.pack(b"STAT", 0, 0, 0)
        return _STAT_V1.pack(b"STAT", st.st_mode, st.st_size & 0xFFFFFFFF, int(st.st_mtime))

    def _stat_v2(self, ident: bytes, path: str) -> bytes:
        try:
            st = self.fs.host(path).stat()
        except OSError:
            return _STAT_V2.pack(ident, ENOENT, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        return _STAT_V2.pack(
            ident,
            0,
            0,
            st.st_ino,
            st.st_mode,
            st.st_nlink,
            2000,
            2000,
            st.st_size,
            int(st.st_atime),
            int(st.st_mtime),
            int(st.st_ctime),
        )

    def _list(self, path: str, v2: bool) -> None:
        host = self.fs.host(path)
        names = [".", ".."] + sorted(os.listdir(host)) if host.is_dir() else []
        out = bytearray()
        for name in names:
            try:
                st = (host / name).stat()
            except OSError:
                continue
            raw = name.encode()
            if v2:
                out += (
                    _DENT_V2.pack(
                        b"DNT2",
                        0,
                        0,
                        st.st_ino,
                        st.st_mode,
                        st.st_nlink,
                        2000,
                        2000,
                        st.st_size,
                        int(st.st_atime),
                        int(st.st_mtime),
                        int(st.st_ctime),
                        len(raw),
                    )
                    + raw
                )
            else:
                out += _DENT_V1.pack(b"DENT", st.st_mode, st.st_size & 0xFFFFFFFF, int(st.st_mtime), len(raw)) + raw
        out += _DENT_V2.pack(b"DONE", *([0] * 12)) if v2 else _DENT_V1.pack(b"DONE", 0, 0, 0, 0)
        self.send(bytes(out))

    def _recv(self, path: str) -> None:
        host = self.fs.host(path)
        if not host.is_file():
            self._fail(f"remote object '{path}' does not exist")
            return
        self._pull = host.open("rb")
        self._pull_more()

    def _pull_more(self) -> None:
        """Send the next window of the file being pulled (all of it when not paced), DONE at its end."""
        assert self._pull is not None
        for _ in range(PULL_WINDOW) if self.paced else itertools.count():
            chunk = self._pull.read(MAX_CHUNK)
            if not chunk:
                self._end_pull()
                self.send(b"DONE\0\0\0\0")
                return
            self.send(b"DATA" + struct.pack("<I", len(chunk)) + chunk)

    def _continue_pull(self) -> None:
        self._pull_more()
        if self._pull is None:
            self._parse()  # requests that arrived while the pull was under way

    def _end_pull(self) -> None:
        if self._pull is not None:
            self._pull.close()
            self._pull = None

    def _start_push(self, spec: str) -> None:
        path, _, mode = spec.rpartition(",")
        if not path:
            path, mode = spec, "33188"
        host = self.fs.host(path)
        if host.is_dir():
            raise SyncError(f"remote path '{path}' is a directory")
        host.parent.mkdir(parents=True, exist_ok=True)
        temp = host.with_name(f".{host.name}.push-{id(self)}")
        # adbd parses the mode with strtoul into a u32; "²".isdigit() holds, so ASCII only.
        perm = int(mode) & 0xFFFFFFFF if mode.isascii() and mode.isdigit() else 0o644
        self._push = (path, perm, temp, temp.open("wb"))

    def _finish_push(self, mtime: int) -> None:
        assert self._push is not None
        path, mode, temp, fobj = self._push
        self._push = None
        fobj.close()
        target = self.fs.host(path)
        os.replace(temp, target)
        os.chmod(target, stat.S_IMODE(mode) or 0o644)
        if mtime:
            os.utime(target, (mtime, mtime))
        self.on_write(path)
        self.send(b"OKAY\0\0\0\0")

    def _abort_push(self) -> None:
        if self._push is not None:
            _, _, temp, fobj = self._push
            self._push = None
            fobj.close()
            temp.unlink(missing_ok=True)

    def _fail(self, message: str) -> None:
        self._abort_push()
        self._end_pull()
        raw = message.encode()
        self.send(b"FAIL" + struct.pack("<I", len(raw)) + raw)
        self.done = True
        self.close()
