"""Gallery's basic editor, reached from the viewer's Edit: Transform's rotate, flips and fixed
aspect ratios change the picture on screen, and Save as writes the transformed image beside the
original, which the folder then lists; the viewer's own Rotate saves over the file. Saved files
are decoded to check their pixels."""

from __future__ import annotations

import io
import os

import pytest
from PIL import Image

PKG = "com.simplemobiletools.gallery.pro"
FOLDER = "/sdcard/EditorPixels"
RED, BLUE = (220, 30, 30), (30, 40, 220)


def rid(name: str) -> str:
    return f"{PKG}:id/{name}"


def red_left_blue_right() -> bytes:
    img = Image.new("RGB", (64, 48), BLUE)
    img.paste(RED, (0, 0, 32, 48))
    buf = io.BytesIO()
    img.save(buf, "PNG")
    return buf.getvalue()


def near(pixel: tuple[int, ...], color: tuple[int, int, int], tolerance: int = 40) -> bool:
    return all(abs(a - b) <= tolerance for a, b in zip(pixel, color, strict=False))


@pytest.fixture
def viewer(u2d, adbd):
    adbd.shell(["rm", "-rf", FOLDER])
    adbd.sync.push(red_left_blue_right(), f"{FOLDER}/halves.png")
    adbd.shell(f"pm clear {PKG}")
    u2d.app_start(PKG)
    u2d(resourceId=rid("dir_name"), text="EditorPixels").click()
    u2d(resourceId=rid("medium_thumbnail")).click()
    yield u2d
    adbd.shell(["rm", "-rf", FOLDER])


@pytest.fixture
def editor(viewer):
    viewer(description="Edit").click()
    return viewer


def saved(adbd, name: str) -> Image.Image:
    return Image.open(io.BytesIO(adbd.sync.read_bytes(f"{FOLDER}/{name}"))).convert("RGB")


def save_as(d) -> None:
    d(description="Save as").click()
    assert d(resourceId=rid("filename_value")).get_text() == "halves_1"
    assert d(resourceId=rid("extension_value")).get_text() == "png"
    d(text="OK").click()


def test_rotate_shows_on_screen_and_saves_a_turned_image_the_folder_lists(editor, adbd):
    d = editor
    assert d(resourceId=rid("default_image_view")).exists
    d(description="Transform").click()
    d(description="Rotate").click()
    b = d(resourceId=rid("crop_image_view")).info["bounds"]
    cx, cy = (b["left"] + b["right"]) // 2, (b["top"] + b["bottom"]) // 2
    screen = d.screenshot(format="pillow").convert("RGB")
    assert near(screen.getpixel((cx, cy - 60)), RED) and near(screen.getpixel((cx, cy + 60)), BLUE)
    save_as(d)
    img = saved(adbd, "halves_1.png")  # a quarter turn clockwise: the left half on top
    assert img.size == (48, 64)
    assert near(img.getpixel((24, 8)), RED) and near(img.getpixel((24, 56)), BLUE)
    assert d(resourceId=rid("medium_viewer_toolbar")).exists  # back in the viewer
    d.press("back")
    assert d(resourceId=rid("medium_thumbnail")).count == 2  # the folder lists the new file


def test_flip_and_a_square_crop_save_mirrored_pixels(editor, adbd):
    d = editor
    d(description="Transform").click()
    d(description="Flip horizontally").click()
    d(description="Crop").click()
    d(resourceId=rid("bottom_aspect_ratio_one_one")).click()
    save_as(d)
    img = saved(adbd, "halves_1.png")
    assert img.size == (48, 48)  # the centred square of 64 x 48
    assert near(img.getpixel((4, 24)), BLUE) and near(img.getpixel((44, 24)), RED)
    original = saved(adbd, "halves.png")
    assert original.size == (64, 48) and near(original.getpixel((4, 24)), RED)  # left as it was


def test_the_viewer_s_rotate_turns_the_photo_and_save_as_writes_it_over_the_file(viewer, adbd, vdevice):
    d = viewer
    os.utime(vdevice.root / "storage/emulated/0" / FOLDER.removeprefix("/sdcard/") / "halves.png", (1.6e9, 1.6e9))
    d(description="Rotate").click()
    d(text="Rotate left").click()  # a quarter turn anticlockwise: the left half at the bottom
    b = d(resourceId=rid("gestures_view")).info["bounds"]
    cx, cy = (b["left"] + b["right"]) // 2, (b["top"] + b["bottom"]) // 2
    screen = d.screenshot(format="pillow").convert("RGB")
    assert near(screen.getpixel((cx, cy - 60)), BLUE) and near(screen.getpixel((cx, cy + 60)), RED)
    assert not d(text="Change orientation").exists
    d(description="Save as").click()
    assert d(resourceId=rid("filename_value")).get_text() == "halves"  # its own name this time
    d(text="OK").click()
    d(text="Yes").click()  # File "halves.png" already exists. Overwrite?
    img = saved(adbd, "halves.png")
    assert img.size == (48, 64) and near(img.getpixel((24, 8)), BLUE) and near(img.getpixel((24, 56)), RED)
    assert adbd.shell(f"stat -c %Y {FOLDER}/halves.png").strip() == "1600000000"  # its place in the folder kept
    assert not d(description="Save as").exists
