"""Music Player's own ID3v2 reader (virtual/apps/musicplayer/library.py) on the suites' audio
seeds (task_suites/shared/audio.py) and on hand-made tags: text frames, the embedded cover
(APIC, v2.2 PIC), and the duration of the MPEG stream after the tag."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from pytest_mobile_agent.virtual.apps.musicplayer import library as lib
from task_suites.shared.audio import FRAME, cover_jpeg, mp3

PATH = "/storage/emulated/0/Music/song.mp3"


def read(tmp_path, data: bytes) -> dict:
    host = tmp_path / "song.mp3"
    host.write_bytes(data)
    return lib.read_track(host, PATH)


def picture(data: bytes, art: list[int]) -> bytes:
    return data[art[0] : art[0] + art[1]]


def test_the_seed_is_a_small_tagged_mp3_with_its_cover_and_duration(tmp_path):
    data = mp3("Come Together", "The Beatles", "Abbey Road", 1969, seconds=7)
    assert len(data) < 12_000
    track = read(tmp_path, data)
    assert (track["title"], track["artist"], track["album"], track["year"]) == (
        "Come Together",
        "The Beatles",
        "Abbey Road",
        1969,
    )
    assert track["duration"] == 7
    cover = picture(data, track["art"])
    assert cover == cover_jpeg("Abbey Road")
    assert Image.open(io.BytesIO(cover)).format == "JPEG"
    assert cover_jpeg("Abbey Road") != cover_jpeg("Blue Train"), "albums' covers differ"


def test_a_file_without_a_picture_has_no_art(tmp_path):
    assert read(tmp_path, mp3("Plain", cover=False))["art"] is None
    assert read(tmp_path, b"\x00" * 64)["art"] is None


def _tag(major: int, frames: bytes) -> bytes:
    n = len(frames)
    return b"ID3" + bytes((major, 0, 0, n >> 21 & 127, n >> 14 & 127, n >> 7 & 127, n & 127)) + frames


def _frame(major: int, frame_id: str, payload: bytes) -> bytes:
    n = len(payload)
    if major == 2:
        return frame_id.encode() + n.to_bytes(3, "big")
    size = bytes((n >> 21 & 127, n >> 14 & 127, n >> 7 & 127, n & 127)) if major == 4 else n.to_bytes(4, "big")
    return frame_id.encode() + size + b"\x00\x00"


@pytest.mark.parametrize("major", [2, 3, 4])
def test_the_front_cover_wins_over_an_earlier_picture_in_each_version(tmp_path, major):
    """A back cover (type 4) first, then the front cover (3), in UTF-16 descriptions."""
    back, front = b"BACK-IMAGE", b"FRONT-IMAGE"
    frames = b""
    for kind, image in ((4, back), (3, front)):
        if major == 2:
            payload = b"\x01JPG" + bytes((kind,)) + "d".encode("utf-16") + b"\x00\x00" + image
            frames += _frame(2, "PIC", payload) + payload
        else:
            payload = b"\x01image/jpeg\x00" + bytes((kind,)) + "d".encode("utf-16") + b"\x00\x00" + image
            frames += _frame(major, "APIC", payload) + payload
    title = b"\x00Tagged"
    frames += (_frame(major, "TT2" if major == 2 else "TIT2", title)) + title
    data = _tag(major, frames) + FRAME * 28
    track = read(tmp_path, data)
    assert track["title"] == "Tagged"
    assert picture(data, track["art"]) == front
    assert track["duration"] == 1  # 28 frames of 36 ms at 8 kbps


def test_a_v2_4_frame_with_a_data_length_indicator_keeps_its_picture_whole(tmp_path):
    image = b"PICTURE-BYTES"
    payload = b"\x00image/png\x00\x03\x00" + image
    body = len(payload).to_bytes(4, "big") + payload  # the indicator, then the frame's data
    n = len(body)
    header = b"APIC" + bytes((n >> 21 & 127, n >> 14 & 127, n >> 7 & 127, n & 127)) + b"\x00\x01"
    data = _tag(4, header + body)
    assert picture(data, read(tmp_path, data)["art"]) == image
