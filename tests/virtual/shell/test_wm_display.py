"""`wm size` and `wm density` as WindowManagerShellCommand answers them: the physical value,
the override where one is set, `reset`; a new size or density lays the screen out again."""

from __future__ import annotations

import io
from collections.abc import Iterator

import adbutils
import pytest
from PIL import Image


@pytest.fixture
def wm(adbd: adbutils.AdbDevice) -> Iterator[adbutils.AdbDevice]:
    yield adbd
    adbd.shell("wm size reset; wm density reset")  # the session's device is shared


def test_an_override_is_printed_after_the_physical_value_and_reset_removes_it(wm: adbutils.AdbDevice) -> None:
    assert wm.shell("wm size; wm density") == "Physical size: 1080x2340\nPhysical density: 440"
    assert wm.shell("wm size 720x1600; wm density 320; wm size; wm density") == (
        "Physical size: 1080x2340\nOverride size: 720x1600\nPhysical density: 440\nOverride density: 320"
    )
    assert tuple(wm.window_size()) == (720, 1600)  # adbutils reads the override, as on a phone
    assert wm.shell("wm size reset; wm density reset; wm size; wm density") == (
        "Physical size: 1080x2340\nPhysical density: 440"
    )


def test_the_screen_is_drawn_and_dumped_at_the_new_size(wm: adbutils.AdbDevice) -> None:
    wm.shell("wm size 720x1600; wm density 320")
    wm.shell("input keyevent HOME")
    screen = Image.open(io.BytesIO(wm.shell("screencap -p", encoding=None)))
    assert screen.size == (720, 1600)
    dump = wm.shell("uiautomator dump /sdcard/w.xml >/dev/null; cat /sdcard/w.xml; rm /sdcard/w.xml")
    assert 'bounds="[0,0][720,1600]"' in dump and "[1080," not in dump


@pytest.mark.parametrize("command", ["wm size 0x100", "wm size big", "wm density 5"])
def test_a_value_that_is_no_display_is_refused(wm: adbutils.AdbDevice, command: str) -> None:
    assert wm.shell(f"{command}; echo rc=$?").endswith("rc=255")
    assert wm.shell("wm size") == "Physical size: 1080x2340"
