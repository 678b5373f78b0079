"""`settings put system font_scale` and `cmd uimode night` as on Android: the font scale grows
text (sp) and the rows that wrap it, night mode is printed and kept as UiModeManagerService
does, and the apps draw their night theme."""

from __future__ import annotations

import io
import re
from collections.abc import Iterator

import adbutils
import pytest
from PIL import Image

CONTACTS = "com.simplemobiletools.contacts.pro"


@pytest.fixture
def dev(adbd: adbutils.AdbDevice) -> Iterator[adbutils.AdbDevice]:
    yield adbd
    adbd.shell("cmd uimode night no; settings put system font_scale 1.0; am force-stop " + CONTACTS)


def screen(dev: adbutils.AdbDevice) -> Image.Image:
    return Image.open(io.BytesIO(dev.shell("screencap -p", encoding=None))).convert("RGB")


def bounds_of(dev: adbutils.AdbDevice, text: str, rid: str = "") -> tuple[int, ...]:
    dump = dev.shell("uiautomator dump /sdcard/w.xml >/dev/null; cat /sdcard/w.xml; rm /sdcard/w.xml")
    attribute = f'resource-id="{rid}"' if rid else f'text="{text}"'
    found = re.search(rf'{attribute}[^>]*?bounds="\[(\d+),(\d+)\]\[(\d+),(\d+)\]"', dump)
    assert found, dump
    return tuple(int(v) for v in found.groups())


def test_night_mode_is_printed_and_kept_as_uimode_does(dev: adbutils.AdbDevice) -> None:
    assert dev.shell("cmd uimode night") == "Night mode: no"
    assert dev.shell("cmd uimode night yes; settings get secure ui_night_mode") == "Night mode: yes\n2"
    assert dev.shell("cmd uimode night auto; settings get secure ui_night_mode") == "Night mode: auto\n0"
    out = dev.shell("cmd uimode night dusk; echo rc=$?")
    assert "Error: mode must be 'yes', 'no', or 'auto'" in out and out.endswith("rc=255")
    assert dev.shell("cmd uimode night") == "Night mode: auto"  # a refused mode changes nothing


def test_the_apps_draw_their_night_theme_with_night_mode_on(dev: adbutils.AdbDevice) -> None:
    dev.shell(f"monkey -p {CONTACTS} 1")
    w, h = screen(dev).size
    spot = (w // 2, h * 2 // 3)  # the empty contact list: the window's background
    assert screen(dev).getpixel(spot) == (255, 255, 255)
    assert dev.shell("cmd uimode night yes") == "Night mode: yes"
    night = screen(dev)
    assert night.getpixel(spot) == (45, 45, 45)  # Simple-Commons' theme_dark_background_color
    assert max(night.getpixel((w // 2, 2))) < 64  # the status bar follows the app's dark background
    search = bounds_of(dev, "", rid=f"{CONTACTS}:id/top_toolbar_search")
    dev.shell(f"input tap {(search[0] + search[2]) // 2} {(search[1] + search[3]) // 2}")  # the keyboard opens
    nav_top = h - round(48 * 440 / 160)
    assert screen(dev).getpixel((3, nav_top - 3)) == (32, 33, 36)  # the keyboard's dark background
    dev.shell("input keyevent BACK; cmd uimode night no")
    assert screen(dev).getpixel(spot) == (255, 255, 255)


def test_a_font_scale_grows_text_and_the_rows_that_wrap_it(dev: adbutils.AdbDevice) -> None:
    dev.shell(f"monkey -p {CONTACTS} 1")
    row = bounds_of(dev, "No contacts found")
    ink = ink_height(screen(dev), row)
    dev.shell("settings put system font_scale 1.3")
    big = bounds_of(dev, "No contacts found")
    assert big[3] - big[1] > (row[3] - row[1]) * 1.1  # a wrap_content row: taller by the text's growth
    assert bounds_of(dev, "Change filter")[1] == big[3]  # the rows below move down
    assert 1.2 < ink_height(screen(dev), big) / ink < 1.4  # the letters are drawn 1.3 times as tall


def ink_height(picture: Image.Image, box: tuple[int, ...]) -> int:
    """The height of what is drawn darker than the background in `box`."""
    found = picture.crop(box).convert("L").point(lambda v: 255 if v < 128 else 0).getbbox()
    assert found is not None
    return found[3] - found[1]
