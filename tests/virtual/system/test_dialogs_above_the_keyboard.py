"""Dialogs on a short screen (1080x1920 at 420 dpi): a dialog whose field has the keyboard is
laid out above it, as adjustResize puts it, so a tap on the dump's OK presses OK; a dialog
taller than the screen scrolls its list and keeps its buttons."""

from __future__ import annotations

import re
from collections.abc import Iterator

import adbutils
import pytest

NOTES, LAUNCHER = "com.simplemobiletools.notes.pro", "com.simplemobiletools.applauncher"


@pytest.fixture
def short(adbd: adbutils.AdbDevice) -> Iterator[adbutils.AdbDevice]:
    adbd.shell("wm size 1080x1920; wm density 420")
    yield adbd
    adbd.shell(f"wm size reset; wm density reset; pm clear {NOTES}; pm clear {LAUNCHER}; input keyevent HOME")


def nodes(dev: adbutils.AdbDevice) -> dict[str, tuple[int, int, int, int]]:
    """Each resource id or text on screen, and its bounds (the last one of a repeated id)."""
    dump = dev.shell("uiautomator dump /sdcard/k.xml >/dev/null; cat /sdcard/k.xml; rm /sdcard/k.xml")
    found = {}
    for text, rid, box in re.findall(r'text="([^"]*)" resource-id="([^"]*)"[^>]*?bounds="([^"]+)"', dump):
        bounds = tuple(int(v) for v in re.findall(r"\d+", box))
        found[rid or text] = found[text] = bounds
    return found


def tap(dev: adbutils.AdbDevice, bounds: tuple[int, int, int, int]) -> None:
    dev.shell(f"input tap {(bounds[0] + bounds[2]) // 2} {(bounds[1] + bounds[3]) // 2}")


def test_a_dialog_with_the_keyboard_keeps_its_buttons_above_it(short: adbutils.AdbDevice) -> None:
    short.shell(f"monkey -p {NOTES} 1")
    tap(short, nodes(short)[f"{NOTES}:id/new_note"])
    short.shell("input text Groceries")  # the title field has the focus and the keyboard is up
    ok = nodes(short)["android:id/button1"]
    keyboard_top = 1920 - round(48 * 420 / 160) - round((4 * 52 + 4 * 2 + 2 * 2 + 8) * 420 / 160)
    assert ok[3] <= keyboard_top
    tap(short, ok)
    after = nodes(short)
    assert "android:id/button1" not in after and "Add a new note" not in after  # OK pressed: no letter typed
    assert "Groceries" in after  # the new note is open


def test_the_add_apps_dialog_scrolls_its_list_and_keeps_ok_and_cancel(short: adbutils.AdbDevice) -> None:
    short.shell(f"monkey -p {LAUNCHER} 1")
    tap(short, nodes(short)[f"{LAUNCHER}:id/no_items_placeholder_2"])  # "Manage visible app icons"
    shown = nodes(short)
    ok, cancel = shown["android:id/button1"], shown["android:id/button2"]
    assert ok[3] <= 1920 - round(48 * 420 / 160) and cancel[3] == ok[3]
    assert "Voice Recorder" not in shown  # below the list's end, reached by scrolling inside
    short.shell(f"input swipe 540 {ok[1] - 100} 540 {shown['Calculator'][1]} 300")
    assert "Voice Recorder" in nodes(short)
    tap(short, ok)
    assert "android:id/button1" not in nodes(short)
