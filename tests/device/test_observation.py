"""The harness observes a device as real Android answers: a window dump to a file read back,
screens that never idle, another UiAutomation client, and the focus as each API level prints it."""

from __future__ import annotations

import io
from collections.abc import Iterator

import pytest
from PIL import Image

from pytest_mobile_agent.device.android import DUMP_FILE, AndroidDevice
from pytest_mobile_agent.virtual import VirtualDevice

RECORDER = "com.simplemobiletools.voicerecorder"
CALC = "com.simplemobiletools.calculator"


@pytest.fixture
def dev(vdevice: VirtualDevice) -> Iterator[AndroidDevice]:
    d = AndroidDevice(vdevice.serial)
    d.reset_app([RECORDER, CALC], grants=["android.permission.RECORD_AUDIO"], launch=CALC)
    yield d
    d.reset_app([RECORDER])
    d.sh("rm -rf /sdcard/Music/Recordings")  # a recording would show in other tests' Music Player


def test_a_dump_reads_a_file_back_and_leaves_none(dev: AndroidDevice) -> None:
    xml = dev.dump()
    assert xml.startswith("<?xml") and xml.rstrip().endswith("</hierarchy>")
    assert f'package="{CALC}"' in xml
    assert dev.sh(f"ls {DUMP_FILE} 2>&1", check=False).strip().endswith("No such file or directory")


def test_a_screen_that_never_idles_is_dumped_through_uiautomator2(dev: AndroidDevice) -> None:
    dev.launch(RECORDER)
    dev._await_foreground(RECORDER)
    button = dev.ui().find(id=f"{RECORDER}:id/toggle_recording_button")
    assert button is not None
    dev.sh(f"input tap {button.center[0]} {button.center[1]}")  # recording: the timer runs
    assert "could not get idle state" in dev.sh("uiautomator dump /data/local/tmp/x.xml 2>&1", check=False)
    xml = dev.dump()
    assert f"{RECORDER}:id/recording_duration" in xml
    # The server started for that dump is stopped again: `uiautomator dump` can connect.
    dev.sh(f"input tap {button.center[0]} {button.center[1]}")  # stop recording
    assert "dumped to" in dev.sh(
        "uiautomator dump /data/local/tmp/x.xml 2>&1; rm -f /data/local/tmp/x.xml", check=False
    )


def test_while_an_agent_holds_uiautomator2_the_harness_dumps_through_it(dev: AndroidDevice) -> None:
    assert dev.u2 is not None  # an agent's own uiautomator2 session: its server holds the UiAutomation connection
    try:
        assert "already registered" in dev.sh("uiautomator dump /data/local/tmp/x.xml 2>&1", check=False)
        assert f'package="{CALC}"' in dev.dump()
    finally:
        dev._stop_u2()
    assert f'package="{CALC}"' in dev.dump()


def test_the_focus_is_read_where_the_api_level_prints_it(dev: AndroidDevice) -> None:
    assert dev.sdk() == 33
    assert dev.current_app()[0] == CALC
    assert f"{CALC}/" in dev.focus()
    # API 33 prints no focus in the windows section, where API 28 and older printed it.
    assert "mCurrentFocus" not in dev.sh("dumpsys window windows", check=False)
    dev._sdk = 28
    assert dev.focus().strip() == ""


def test_a_screenshot_survives_the_warning_of_a_device_with_several_displays(dev: AndroidDevice) -> None:
    dev.sh("setprop debug.virtual.displays 2")
    try:
        raw = dev.sh_bytes("screencap -p")
        assert raw.startswith(b"[Warning] Multiple displays were found")  # what the harness is given
        assert dev.sh_bytes("screencap -d 0 -p").startswith(b"\x89PNG")  # a display named: no warning
        png = dev.screenshot()
    finally:
        dev.sh("setprop debug.virtual.displays 1")
    assert png.startswith(b"\x89PNG\r\n\x1a\n") and raw.endswith(png)
    assert Image.open(io.BytesIO(png)).size == dev.window_size()
