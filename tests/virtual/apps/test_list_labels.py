"""The apps' list labels on screen, cut as their layouts say: Gallery's file names wrap to
three lines, Music Player's track titles to two, File Manager's names keep their extension.
In-process devices; the pixels come from the device's own screenshot."""

from __future__ import annotations

import io

from inproc_shell import sh
from PIL import Image

from pytest_mobile_agent.virtual.apps.gallery.main import MediaActivity
from pytest_mobile_agent.virtual.system.device import Device
from pytest_mobile_agent.virtual.ui.render.text import Fonts
from pytest_mobile_agent.virtual.ui.view import View

LONG = "a_rather_long_name_of_a_file_from_the_summer_holidays_2024"


def view(dev: Device, rid: str) -> View:
    return next(v for v in dev.wm.frame().windows[0].root.walk() if v.id.endswith(":id/" + rid) and v.shown)


def ink_lines(dev: Device, v: View, size_sp: float) -> int:
    """How many lines of text the view's box shows, from the height of its ink: a line's ink is
    about three quarters of the line's height."""
    img = Image.open(io.BytesIO(dev.screen_png())).convert("L")
    x0, y0, x1, y1 = v.visible_bounds
    box = img.crop((x0, y0, x1, y1))
    bg = max(range(256), key=box.histogram().__getitem__)  # the commonest shade: the background
    rows = [y for y in range(y0, y1) if any(abs(img.getpixel((x, y)) - bg) > 90 for x in range(x0, x1, 2))]
    return round((rows[-1] - rows[0]) / (size_sp * dev.wm.scale * 1.32) + 0.3) if rows else 0


def test_gallery_file_names_wrap_to_three_lines(device):
    sh(device, f"mkdir -p /sdcard/Pictures; echo x > /sdcard/Pictures/{LONG}.jpg")
    gallery = device.packages.app("com.simplemobiletools.gallery.pro")
    gallery.set_pref("display_file_names", True)  # type: ignore[attr-defined]
    device.wm.start_activity(gallery, MediaActivity, {"directory": "/storage/emulated/0/Pictures"})
    assert ink_lines(device, view(device, "medium_name"), 12) == 3


def test_music_player_track_titles_wrap_to_two_lines(device):
    sh(device, f"mkdir -p /sdcard/Music; echo x > /sdcard/Music/{LONG}.mp3")
    music = device.packages.app("com.simplemobiletools.musicplayer")
    music.set_pref("last_used_view_pager_page", music.shown_tabs().index("tracks"))  # type: ignore[attr-defined]
    device.wm.start_activity(music, music.main_activity, launcher=True)
    assert ink_lines(device, view(device, "track_title"), 16) == 2


def test_file_manager_names_keep_their_extension(device):
    files = "com.simplemobiletools.filemanager.pro"
    sh(device, f"mkdir -p /sdcard/Download; echo x > /sdcard/Download/{LONG}.txt")
    sh(
        device,
        f"pm grant {files} android.permission.MANAGE_EXTERNAL_STORAGE; am start -n {files}/.activities.MainActivity",
    )
    device.wm.tap(*centre(next(v for v in rows(device) if v.text == "Download")))
    name = next(v for v in rows(device) if v.text == f"{LONG}.txt")
    assert name.ellipsize == "middle" and ink_lines(device, name, 16) == 1
    shown = Fonts().layout(name.text, round(16 * device.wm.scale), name.bounds[2] - name.bounds[0], 1, "middle")
    assert shown[0].endswith(".txt") and "…" in shown[0]


def rows(dev: Device) -> list[View]:
    return [v for v in dev.wm.frame().windows[0].root.walk() if v.id.endswith(":id/item_name") and v.shown]


def centre(v: View) -> tuple[int, int]:
    l, t, r, b = v.visible_bounds
    return (l + r) // 2, (t + b) // 2
