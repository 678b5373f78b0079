"""The renderer's media pictures: decoded once per file state and size, EXIF orientation
honoured, crop and fit as the scaleTypes do, None for what is not an image, a poster for a video."""

from __future__ import annotations

import io
import os
from pathlib import Path

from PIL import Image

from pytest_mobile_agent.virtual.ui import widgets as w
from pytest_mobile_agent.virtual.ui.render import media
from pytest_mobile_agent.virtual.ui.view import Media


def stamp(path: Path, fit: str = "crop") -> Media:
    """What an app's ImageView of the file carries."""
    m = w.media("", path, fit).media
    assert m is not None
    return m


def write(path: Path, size: tuple[int, int], color: tuple[int, int, int], fmt: str = "PNG") -> Path:
    buf = io.BytesIO()
    Image.new("RGB", size, color).save(buf, fmt)
    path.write_bytes(buf.getvalue())
    return path


def test_a_picture_is_decoded_once_per_file_state_and_size(tmp_path: Path) -> None:
    path = write(tmp_path / "a.png", (40, 30), (255, 0, 0))
    first = media.picture(stamp(path), 20, 20)
    before = media.decodes
    assert media.picture(stamp(path), 20, 20) is first
    assert media.decodes == before
    write(path, (40, 30), (0, 0, 255))
    os.utime(path, ns=(1, 1))  # another modification time: another state of the file
    again = media.picture(stamp(path), 20, 20)
    assert media.decodes == before + 1
    assert again is not None and again.getpixel((10, 10)) == (0, 0, 255)


def test_crop_fills_the_box_and_fit_keeps_the_whole_picture(tmp_path: Path) -> None:
    path = write(tmp_path / "wide.png", (80, 20), (0, 200, 0))
    cropped = media.picture(stamp(path, "crop"), 30, 30)
    fitted = media.picture(stamp(path, "fit"), 30, 30)
    assert cropped is not None and cropped.size == (30, 30)
    assert fitted is not None and fitted.size == (30, 8)  # 80 x 20 scaled to the box's width


def test_exif_orientation_turns_the_picture_upright(tmp_path: Path) -> None:
    stored = Image.new("RGB", (20, 40), (0, 0, 0))  # portrait as stored; tag 6 turns it a quarter
    exif = Image.Exif()
    exif[0x0112] = 6
    path = tmp_path / "turned.jpg"
    stored.save(path, "JPEG", exif=exif.tobytes())
    pic = media.picture(stamp(path, "fit"), 100, 100)
    assert pic is not None and pic.width > pic.height


def test_what_is_not_an_image_has_no_picture_and_a_video_has_a_poster(tmp_path: Path) -> None:
    (tmp_path / "fake.jpg").write_bytes(b"beach photo")
    (tmp_path / "clip.mp4").write_bytes(b"\x00\x00\x00\x1cftypisom")
    assert media.picture(stamp(tmp_path / "fake.jpg"), 16, 16) is None
    assert media.picture(stamp(tmp_path / "gone.png"), 16, 16) is None
    poster = media.picture(stamp(tmp_path / "clip.mp4"), 32, 18)
    assert poster is not None and len(set(poster.get_flattened_data())) > 5
    assert media.poster("clip.mp4").tobytes() != media.poster("other.mp4").tobytes()


def test_the_cache_keeps_a_byte_budget_not_a_count(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(media, "CACHE_BYTES", 3 * 100 * 100 * 3)  # three 100 x 100 pictures
    paths = [write(tmp_path / f"{i}.png", (10, 10), (i, 0, 0)) for i in range(5)]
    for path in paths:
        media.picture(stamp(path), 100, 100)
    before = media.decodes
    media.picture(stamp(paths[-1]), 100, 100)  # the newest is still there
    assert media.decodes == before
    media.picture(stamp(paths[0]), 100, 100)  # the oldest was let go
    assert media.decodes == before + 1
