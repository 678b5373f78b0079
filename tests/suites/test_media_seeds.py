"""The suites' media seeds are real, small, distinct images made by the project, the same on
every run; the rotated one carries EXIF orientation 6; videos and other files keep their type."""

from __future__ import annotations

import io

from PIL import Image, ImageOps

from task_suites.shared.media import EXIF_ORIENTATION, ROTATED_90, image_bytes, media_bytes

NAMES = ("beach.jpg", "dunes.jpg", "cat.png", "mountain.jpg", "sunset.png", "holiday.jpg")


def test_each_name_is_a_small_decodable_image_of_its_own() -> None:
    pictures = {}
    for name in NAMES:
        data = media_bytes(name)
        assert 500 < len(data) < 16_000 and data == media_bytes(name)  # small, deterministic
        img = Image.open(io.BytesIO(data))
        assert img.format == ("PNG" if name.endswith(".png") else "JPEG") and img.size == (320, 240)
        pictures[name] = img.convert("RGB").resize((16, 12)).tobytes()
    assert len(set(pictures.values())) == len(NAMES)  # no two scenes alike


def test_a_token_changes_the_bytes_not_the_picture() -> None:
    a, b = media_bytes("beach.jpg", b"task-1"), media_bytes("beach.jpg", b"task-2")
    assert a != b
    assert Image.open(io.BytesIO(a)).tobytes() == Image.open(io.BytesIO(b)).tobytes()


def test_the_rotated_seed_is_upright_once_its_exif_is_honoured() -> None:
    stored = Image.open(io.BytesIO(image_bytes("dunes.jpg", rotated=True)))
    assert stored.getexif()[EXIF_ORIENTATION] == ROTATED_90 and stored.size == (240, 320)
    assert ImageOps.exif_transpose(stored).size == (320, 240)


def test_videos_and_other_files_keep_their_type() -> None:
    assert media_bytes("clip.mp4")[4:8] == b"ftyp"
    assert media_bytes("notes.txt") == b"notes.txt\n"
