"""PNG encoding: metadata-free RGB PNGs, re-deflating only the bands of rows a new screen changed.

The same pixels always give the same bytes.
"""

from __future__ import annotations

import struct
import threading
import zlib
from typing import Any

from PIL import Image


def _chunk(tag: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + tag + data + struct.pack(">I", zlib.crc32(tag + data))


ADLER_MOD = 65521


def _adler_concat(a: int, b: int, len_b: int) -> int:
    """Adler-32 of X+Y from those of X and Y: A = Ax + Ay - 1, B = Bx + By + len(Y) * (Ax - 1)."""
    ax, bx, ay, by = a & 0xFFFF, a >> 16, b & 0xFFFF, b >> 16
    s1 = (ax + ay - 1) % ADLER_MOD
    s2 = (bx + by + len_b * (ax - 1)) % ADLER_MOD
    return s1 | (s2 << 16)


class PngEncoder:
    """RGB PNG writer that re-deflates only the bands of rows that changed since last time.

    Pillow's encoder tries every filter on every row; for flat UI pictures that costs more
    than it saves, so this writes filter 0 rows itself. Each band of rows is deflated alone
    and ends with a sync flush, so bands kept from the previous screen splice into the new
    stream as they are (with their Adler-32, combined arithmetically); changed bands are
    deflated on two threads, as zlib lets go of the GIL. No metadata: same pixels, same bytes.
    """

    BAND = 64  # rows

    def __init__(self, level: int = 1) -> None:
        self.level = level
        self._size: tuple[int, int] = (0, 0)
        self._bands: list[tuple[bytes, bytes, int]] = []  # raw rows, deflated, adler32 of filtered rows

    def _deflate(self, raw: bytes, stride: int) -> tuple[bytes, int]:
        view = memoryview(raw)
        rows: list[Any] = []
        for y in range(0, len(raw), stride):
            rows.append(b"\x00")
            rows.append(view[y : y + stride])
        data = b"".join(rows)
        c = zlib.compressobj(self.level, zlib.DEFLATED, -15)
        return c.compress(data) + c.flush(zlib.Z_SYNC_FLUSH), zlib.adler32(data)

    def encode(self, img: Image.Image) -> bytes:
        if img.mode != "RGB":
            img = img.convert("RGB")
        w, h = img.size
        raw = img.tobytes()
        stride = w * 3
        step = self.BAND * stride
        if self._size != (w, h):
            self._size, self._bands = (w, h), []
        old = self._bands
        bands: list[Any] = []
        todo: list[int] = []
        for i, at in enumerate(range(0, len(raw), step)):
            piece = raw[at : at + step]
            if i < len(old) and old[i][0] == piece:
                bands.append(old[i])
            else:
                bands.append(piece)
                todo.append(i)

        def work(indices: list[int]) -> None:
            for i in indices:
                bands[i] = (bands[i], *self._deflate(bands[i], stride))

        worker = threading.Thread(target=work, args=(todo[::2],))
        worker.start()
        work(todo[1::2])
        worker.join()
        self._bands = bands
        adler = 1
        for piece, _, band_adler in bands:
            adler = _adler_concat(adler, band_adler, len(piece) + len(piece) // stride)
        # A sync flush leaves no final block: end the stream with an empty fixed-Huffman one.
        stream = b"".join([b"\x78\x01", *(b[1] for b in bands), b"\x03\x00", struct.pack(">I", adler)])
        header = struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0)
        return b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", header) + _chunk(b"IDAT", stream) + _chunk(b"IEND", b"")


def encode_png(img: Image.Image, level: int = 1) -> bytes:
    """One picture as a metadata-free RGB PNG."""
    return PngEncoder(level).encode(img)
