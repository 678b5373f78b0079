"""Simple-Commons' drag-select in the apps that have it (File Manager's items, Gallery's
folders and media): a long press on an item that then drags to another selects both and
every item between; a quick swipe over the same items scrolls instead. In-process devices."""

from __future__ import annotations

import pytest
from inproc_shell import sh

from pytest_mobile_agent.virtual.apps.gallery.main import MediaActivity
from pytest_mobile_agent.virtual.system.device import Device
from pytest_mobile_agent.virtual.ui.view import View

FILES = "com.simplemobiletools.filemanager.pro"
GALLERY = "com.simplemobiletools.gallery.pro"


def items(dev: Device, holder: str) -> list[View]:
    return [v for v in dev.wm.frame().windows[0].root.walk() if v.id.endswith(":id/" + holder) and v.shown]


def centre(v: View) -> tuple[int, int]:
    l, t, r, b = v.visible_bounds
    return (l + r) // 2, (t + b) // 2


def selected(dev: Device, holder: str, name: str) -> list[str]:
    """The names shown in the selected items."""
    return [t.text for v in items(dev, holder) if v.selected for t in v.walk() if t.id.endswith(":id/" + name)]


def open_file_manager(dev: Device) -> None:
    sh(dev, f"pm grant {FILES} android.permission.MANAGE_EXTERNAL_STORAGE")
    sh(dev, f"am start -n {FILES}/.activities.MainActivity")


def test_file_manager_drag_selects_the_range_of_items(device):
    open_file_manager(device)
    rows = items(device, "item_frame")
    (x1, y1), (x2, y2) = centre(rows[1]), centre(rows[4])
    sh(device, f"input draganddrop {x1} {y1} {x2} {y2} 1000")
    assert selected(device, "item_frame", "item_name") == ["DCIM", "Documents", "Download", "Movies"]
    assert any(v.text == "4 / 11" for v in device.wm.frame().windows[0].root.walk())
    # Upwards from a later item adds that range; what was selected stays.
    (x1, y1), (x2, y2) = centre(rows[7]), centre(rows[6])
    sh(device, f"input swipe {x1} {y1} {x2} {y2} 5000")  # slow: still past the long-press timeout
    assert selected(device, "item_frame", "item_name") == [
        "DCIM", "Documents", "Download", "Movies", "Notifications", "Pictures",
    ]  # fmt: skip


def test_a_quick_swipe_over_the_items_selects_nothing(device):
    open_file_manager(device)
    rows = items(device, "item_frame")
    (x1, y1), (x2, y2) = centre(rows[4]), centre(rows[1])
    sh(device, f"input swipe {x1} {y1} {x2} {y2} 1000")
    assert selected(device, "item_frame", "item_name") == []


@pytest.mark.parametrize("view", ["folders", "media"])
def test_gallery_drag_selects_folders_and_media(device, view):
    for folder in ("Alpha", "Beta", "Gamma", "Delta"):
        sh(device, f"mkdir -p /sdcard/{folder}; for f in 1 2 3 4 5; do echo x > /sdcard/{folder}/$f.jpg; done")
    app = device.packages.app(GALLERY)
    if view == "folders":
        device.wm.start_activity(app, app.main_activity, launcher=True)
        holder = "dir_holder"
    else:
        device.wm.start_activity(app, MediaActivity, {"directory": "/storage/emulated/0/Alpha"})
        holder = "media_item_holder"
    cells = items(device, holder)
    (x1, y1), (x2, y2) = centre(cells[0]), centre(cells[2])
    sh(device, f"input draganddrop {x1} {y1} {x2} {y2} 800")
    picked = [v.key for v in items(device, holder) if v.selected]
    assert picked == [v.key for v in cells[:3]]


def test_uiautomator2_drag_is_a_long_press_drag_and_swipe_scrolls(u2d, adbd):
    """uiautomator2's drag (UiDevice.drag: held for the long-press timeout first) drag-selects;
    its quick swipe over the same rows selects nothing."""
    adbd.shell(f"pm clear {FILES}; pm grant {FILES} android.permission.MANAGE_EXTERNAL_STORAGE")
    u2d.app_start(FILES)
    rows = u2d(resourceId=f"{FILES}:id/item_frame")
    first, fourth = rows[0].center(), rows[3].center()
    u2d.swipe(*fourth, *first, 0.05)
    assert not u2d(resourceId=f"{FILES}:id/item_frame", selected=True).exists
    u2d.drag(*first, *fourth, 0.3)
    assert u2d(resourceId=f"{FILES}:id/item_frame", selected=True).count == 4
    adbd.shell(f"pm clear {FILES}")


def test_app_launcher_and_music_player_drag_select(device):
    launcher = device.packages.app("com.simplemobiletools.applauncher")
    apps = ("com.simplemobiletools.calculator", "com.simplemobiletools.notes.pro", "com.simplemobiletools.gallery.pro")
    launcher.set_apps([device.packages.app(p) for p in apps])  # type: ignore[attr-defined]
    device.wm.start_activity(launcher, launcher.main_activity, launcher=True)
    cells = items(device, "launcher_holder")
    (x1, y1), (x2, y2) = centre(cells[2]), centre(cells[1])
    sh(device, f"input draganddrop {x1} {y1} {x2} {y2} 800")
    assert [v.key for v in items(device, "launcher_holder") if v.selected] == [v.key for v in cells[1:]]

    music = device.packages.app("com.simplemobiletools.musicplayer")
    music.library["playlists"] = [{"id": i, "title": f"Mix {i}", "tracks": []} for i in (2, 3, 4, 5)]  # type: ignore[attr-defined]
    music.set_pref("was_all_tracks_playlist_created", True)  # type: ignore[attr-defined]
    device.wm.start_activity(music, music.main_activity, launcher=True)
    rows = items(device, "playlist_frame")
    (x1, y1), (x2, y2) = centre(rows[0]), centre(rows[2])
    sh(device, f"input draganddrop {x1} {y1} {x2} {y2} 800")
    assert [v.key for v in items(device, "playlist_frame") if v.selected] == ["2", "3", "4"]
