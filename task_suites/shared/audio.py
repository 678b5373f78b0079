"""Small real audio files the suites seed, made here (never downloaded): an MP3 of silence
with ID3v2.3 tags and a cover drawn with Pillow, a few KB each.

The audio is MPEG-2 layer III at 8 kbps, 16 kHz, mono: 36-byte frames of 576 samples whose
side information is all zeros (no main data), which decoders play as silence; about 1 KB a
second, so the duration a player reads from the file is real. The cover (an APIC frame, front
cover, JPEG) is a gradient with a disc in two colours taken from the album's name: covers of
different albums differ, the same album's are alike.
"""

from __future__ import annotations

import io
import math
import zlib
from colorsys import hsv_to_rgb

from PIL import Image, ImageDraw

FRAME = b"\xff\xf3\x18\xc0" + bytes(32)  # MPEG-2 layer III, 8 kbps, 16 kHz, mono, no CRC
FRAMES_PER_SECOND = 16000 / 576
COVER_PX = 160


def _synchsafe(n: int) -> bytes:
    return bytes((n >> shift) & 0x7F for shift in (21, 14, 7, 0))


def _frame(frame_id: str, payload: bytes) -> bytes:
    return frame_id.encode() + len(payload).to_bytes(4, "big") + b"\x00\x00" + payload


def cover_jpeg(album: str, px: int = COVER_PX) -> bytes:
    """A square JPEG cover for `album`: a vertical gradient and a disc, coloured by its name."""
    seed = zlib.crc32(album.encode())
    hue = (seed & 0xFFFF) / 0xFFFF

    def rgb(h: float, s: float, v: float) -> tuple[int, int, int]:
        r, g, b = hsv_to_rgb(h % 1, s, v)
        return round(r * 255), round(g * 255), round(b * 255)

    top, bottom, disc = rgb(hue, 0.6, 0.95), rgb(hue + 0.1, 0.8, 0.45), rgb(hue + 0.5, 0.5, 1.0)
    img = Image.new("RGB", (px, px))
    draw = ImageDraw.Draw(img)
    for y in range(px):
        t = y / (px - 1)
        draw.line([(0, y), (px, y)], fill=tuple(round(a + (b - a) * t) for a, b in zip(top, bottom, strict=True)))
    r = px // 4
    cx, cy = px // 2 + (seed >> 16) % (px // 4) - px // 8, px // 2
    draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=disc)
    out = io.BytesIO()
    img.save(out, "JPEG", quality=60)
    return out.getvalue()


def mp3(title: str, artist: str = "", album: str = "", year: int = 0, seconds: int = 5, cover: bool = True) -> bytes:
    """An MP3 of `seconds` of silence tagged with what is given (ISO-8859-1 text frames), with
    a front cover unless `cover` is False."""
    frames = b""
    for frame_id, value in (("TIT2", title), ("TPE1", artist), ("TALB", album), ("TYER", str(year) if year else "")):
        if value:
            frames += _frame(frame_id, b"\x00" + value.encode("latin-1"))
    if cover:
        # encoding 0, MIME type, NUL, picture type 3 (front cover), empty description, NUL
        frames += _frame("APIC", b"\x00image/jpeg\x00\x03\x00" + cover_jpeg(album or title))
    audio = FRAME * math.ceil(seconds * FRAMES_PER_SECOND)  # at least `seconds`, as players floor it
    return b"ID3\x03\x00\x00" + _synchsafe(len(frames)) + frames + audio
