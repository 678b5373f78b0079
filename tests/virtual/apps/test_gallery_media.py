"""Gallery draws media from their own pixels: thumbnails, the folder's cover, the viewer (fitted
on black), EXIF orientation honoured; a file that is not an image leaves its cell empty; a video
gets a poster frame under the play mark. Read from screenshots taken through uiautomator2."""

from __future__ import annotations

import io
import os
import time

import pytest
from PIL import Image

PKG = "com.simplemobiletools.gallery.pro"
FOLDER = "GalleryPixels"
SD = "/storage/emulated/0"
RED, BLUE = (220, 30, 30), (30, 40, 220)


def rid(name: str) -> str:
    return f"{PKG}:id/{name}"


def solid(color: tuple[int, int, int], fmt: str, size: tuple[int, int] = (64, 48)) -> bytes:
    buf = io.BytesIO()
    Image.new("RGB", size, color).save(buf, fmt)
    return buf.getvalue()


def red_over_blue_rotated() -> bytes:
    """Upright: red above blue. Stored a quarter turn left with EXIF orientation 6, so a viewer
    that ignores the tag shows red left of blue."""
    upright = Image.new("RGB", (64, 64), BLUE)
    upright.paste(RED, (0, 0, 64, 32))
    exif = Image.Exif()
    exif[0x0112] = 6
    buf = io.BytesIO()
    upright.transpose(Image.Transpose.ROTATE_90).save(buf, "JPEG", quality=95, exif=exif.tobytes())
    return buf.getvalue()


# Newest first, as the folder lists them by default (last modified, descending).
FILES = {
    "red.png": solid(RED, "PNG"),
    "blue.jpg": solid(BLUE, "JPEG"),
    "upright.jpg": red_over_blue_rotated(),
    "broken.jpg": b"\xff\xd8 not really a jpeg",
    "clip.mp4": b"\x00\x00\x00\x1cftypisom",
}


@pytest.fixture(scope="module")
def pushed(vdevice):
    import adbutils

    adbd = adbutils.AdbClient().device(vdevice.serial)
    now = time.time()
    for i, (name, data) in enumerate(FILES.items()):
        adbd.sync.push(data, f"/sdcard/{FOLDER}/{name}")
        os.utime(vdevice.root / SD.lstrip("/") / FOLDER / name, (now - i * 60, now - i * 60))
    yield adbd
    adbd.shell(["rm", "-rf", f"/sdcard/{FOLDER}"])
    adbd.shell(f"pm clear {PKG}")


@pytest.fixture
def folder(u2d, pushed):
    pushed.shell(f"pm clear {PKG}")
    u2d.app_start(PKG)
    u2d(resourceId=rid("dir_name"), text=FOLDER).click()
    return u2d


def shot(d) -> Image.Image:
    return d.screenshot(format="pillow").convert("RGB")


def box(view) -> tuple[int, int, int, int]:
    b = view.info["bounds"]
    return b["left"], b["top"], b["right"], b["bottom"]


def near(pixel: tuple[int, ...], color: tuple[int, int, int], tolerance: int = 40) -> bool:
    return all(abs(a - b) <= tolerance for a, b in zip(pixel, color, strict=False))


def at(img: Image.Image, bounds: tuple[int, int, int, int], fx: float, fy: float) -> tuple[int, ...]:
    x0, y0, x1, y1 = bounds
    return img.getpixel((round(x0 + (x1 - x0) * fx), round(y0 + (y1 - y0) * fy)))


def test_thumbnails_show_each_file_s_own_pixels(folder):
    d = folder
    thumbs = [box(v) for v in d(resourceId=rid("medium_thumbnail"))]
    assert len(thumbs) == len(FILES)
    img = shot(d)
    red, blue, upright, broken, clip = thumbs
    assert near(at(img, red, 0.5, 0.5), RED) and near(at(img, blue, 0.5, 0.5), BLUE)
    # EXIF orientation 6 honoured: red on top, blue below (ignored, they would sit side by side).
    assert near(at(img, upright, 0.5, 0.2), RED) and near(at(img, upright, 0.5, 0.8), BLUE)
    # Not an image: Glide leaves the cell empty, the screen's background shows (no drawing at all).
    x0, y0, x1, y1 = broken
    cell = img.crop((x0 + 4, y0 + 4, x1 - 4, y1 - 4))
    assert len(set(cell.get_flattened_data())) <= 4 and near(cell.getpixel((0, 0)), img.getpixel((x0 - 1, y0 + 5)), 12)
    # A video: its poster frame (many colours) under the play mark at the top left.
    x0, y0, x1, y1 = clip
    assert len(set(img.crop((x0, y0 + (y1 - y0) // 2, x1, y1)).get_flattened_data())) > 20
    play = d(resourceId=rid("play_portrait_outline"))
    assert play.count == 1
    px0, py0, px1, py1 = box(play)
    assert x0 <= px0 and y0 <= py0 and px1 <= x1 and py1 <= y1
    assert near(at(img, (px0, py0, px1, py1), 0.5, 0.5), (255, 255, 255), 60)  # the white arrow


def cover_of(d) -> tuple[int, int, int, int]:
    holder = next(h for h in d(resourceId=rid("dir_holder")) if h.child(resourceId=rid("dir_name"), text=FOLDER).exists)
    return box(holder.child(resourceId=rid("dir_thumbnail")))


def test_the_folder_cover_is_its_newest_medium(folder, pushed, vdevice):
    d = folder
    d.press("back")
    img = shot(d)
    assert near(at(img, cover_of(d), 0.5, 0.3), RED)  # above the captions' shade
    # The folder's name lies over the cover, in white (directory_item_grid_square.xml).
    x0, y0, x1, y1 = box(d(resourceId=rid("dir_name"), text=FOLDER))
    cover = cover_of(d)
    assert cover[1] < y0 and y1 <= cover[3]
    assert any(near(p, (255, 255, 255), 30) for p in img.crop((x0, y0, x1, y1)).get_flattened_data())
    os.utime(vdevice.root / SD.lstrip("/") / FOLDER / "blue.jpg")  # now the newest
    d.press("back")
    d.app_start(PKG)
    assert near(at(shot(d), cover_of(d), 0.5, 0.3), BLUE)
    os.utime(vdevice.root / SD.lstrip("/") / FOLDER / "blue.jpg", (time.time() - 60,) * 2)


def test_the_viewer_fits_the_photo_on_black(folder):
    d = folder
    d(resourceId=rid("medium_thumbnail"))[0].click()  # red.png, 64 x 48: wider than the screen's shape
    page = box(d(resourceId=rid("gestures_view")))
    img = shot(d)
    x0, y0, x1, y1 = page
    assert near(at(img, page, 0.5, 0.5), RED)
    # fitCenter: the full width, a 3:4 band in the middle, black above and below it.
    band = (x1 - x0) * 48 / 64
    middle = (y0 + y1) / 2
    assert near(img.getpixel(((x0 + x1) // 2, round(middle - band / 2 - 20))), (0, 0, 0), 16)
    assert near(img.getpixel(((x0 + x1) // 2, round(middle + band / 2 + 20))), (0, 0, 0), 16)
    assert near(img.getpixel((x0 + 4, round(middle))), RED)
    d(description="Properties").click()  # commons PropertiesDialog: an image's stored resolution
    labels = [v.get_text() for v in d(resourceId=rid("property_label"))]
    values = [v.get_text() for v in d(resourceId=rid("property_value"))]
    assert labels[2:4] == ["Size", "Resolution"] and values[3] == "64 x 48 (0.0MP)"


def test_a_video_page_shows_its_frame_under_the_big_play_mark(folder):
    d = folder
    d(resourceId=rid("medium_thumbnail"))[4].click()  # clip.mp4
    assert d(resourceId=rid("video_preview")).exists
    mark = box(d(resourceId=rid("video_play_outline")))
    page = box(d(resourceId=rid("video_holder")))
    assert abs((mark[0] + mark[2]) - (page[0] + page[2])) <= 2  # centred
    assert near(at(shot(d), mark, 0.5, 0.5), (255, 255, 255), 60)
