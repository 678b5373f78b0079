"""Every pager of the ten apps turns as a ViewPager does: a sideways fling turns it the fling's
way, a slow drag short of 60% of its width springs back, a slow drag past it turns, and
neither end turns further. In-process devices, one per app."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from inproc_shell import sh

from pytest_mobile_agent.virtual.apps.gallery.viewer import ViewPagerActivity
from pytest_mobile_agent.virtual.system.device import Device

Setup = Callable[[Device], None]


def start(component: str) -> Setup:
    return lambda dev: None if sh(dev, f"am start -n {component}") else None


def notes(dev: Device) -> None:
    app = dev.packages.app("com.simplemobiletools.notes.pro")
    app.add("Groceries", "text")  # type: ignore[attr-defined]
    app.add("Ideas", "text")  # type: ignore[attr-defined]
    app.set_pref("current_note_id", 1)  # type: ignore[attr-defined]
    start("com.simplemobiletools.notes.pro/.activities.MainActivity")(dev)


def gallery(dev: Device) -> None:
    sh(dev, "mkdir -p /sdcard/Pictures; for f in a b c; do echo x > /sdcard/Pictures/$f.jpg; done")
    app = dev.packages.app("com.simplemobiletools.gallery.pro")
    dev.wm.start_activity(app, ViewPagerActivity, {"path": "/storage/emulated/0/Pictures/b.jpg"})


def filemanager(dev: Device) -> None:
    sh(dev, "pm grant com.simplemobiletools.filemanager.pro android.permission.MANAGE_EXTERNAL_STORAGE")
    start("com.simplemobiletools.filemanager.pro/.activities.MainActivity")(dev)


# app -> (how its pager comes on screen, the pager's id)
PAGERS: dict[str, tuple[Setup, str]] = {
    "contacts": (start("com.simplemobiletools.contacts.pro/.activities.MainActivity"), "view_pager"),
    "filemanager": (filemanager, "main_view_pager"),
    "musicplayer": (start("com.simplemobiletools.musicplayer/.activities.MainActivity"), "view_pager"),
    "voicerecorder": (start("com.simplemobiletools.voicerecorder/.activities.MainActivity"), "view_pager"),
    "notes": (notes, "view_pager"),
    "gallery": (gallery, "view_pager"),
    "calendar": (start("com.simplemobiletools.calendar.pro/.activities.MainActivity"), "fragment_months_viewpager"),
}


def page(dev: Device) -> tuple:
    """What the activity shows: every view's text, key and selection (a tab, a month, a note)."""
    return tuple((v.text, v.key, v.selected) for v in dev.wm.frame().windows[0].root.walk() if v.shown)


def scrolled(dev: Device) -> int:
    return sum(e.type == "TYPE_VIEW_SCROLLED" for e in dev.accessibility.history)


@pytest.mark.parametrize("app", PAGERS)
def test_the_pager_turns_on_a_fling_or_a_drag_past_60_percent(device, app):
    setup, pager_id = PAGERS[app]
    setup(device)
    root = device.wm.frame().windows[0].root
    l, t, r, b = next(v for v in root.walk() if v.id.endswith(":id/" + pager_id)).bounds
    y, mid, width = (t + b) // 2, (l + r) // 2, r - l

    def swipe(fraction: float, ms: int) -> None:
        """Across the pager's middle, `fraction` of its width (negative: to the left)."""
        half = round(width * fraction / 2)
        sh(device, f"input swipe {mid - half} {y} {mid + half} {y} {ms}")

    first = page(device)
    swipe(-0.15, 60)  # a short fast fling to the left: the next page
    second = page(device)
    assert second != first and scrolled(device) == 1
    swipe(0.3, 3000)  # slow and short of 60%: it springs back
    assert page(device) == second
    swipe(0.75, 3000)  # slow, past 60%: the previous page
    assert page(device) == first
    sh(device, f"input swipe {mid + 200} {y - 150} {mid - 200} {y + 150} 100")  # more down than sideways
    assert page(device) == first and scrolled(device) == 2
    if app != "calendar":  # months go on either way
        for _ in range(4):
            swipe(0.15, 60)  # towards the first page, and no further
        at_start = page(device)
        swipe(0.15, 60)
        assert page(device) == at_start
