"""3 + 5 = 8 in the calculator through each real client, on virtual devices.

Every client talks to the ordinary adb server, which talks to the virtual device's adbd:
the same path a phone would take.
"""

from __future__ import annotations

import io
import re
import subprocess

import adbutils
import pytest
from PIL import Image

from pytest_mobile_agent.device.adb_server import adb_path, expose_adb_on_path
from pytest_mobile_agent.virtual import virtual_devices

CALC = "com.simplemobiletools.calculator"
RID = f"{CALC}:id/"


def bounds_center(xml: str, rid: str) -> tuple[int, int]:
    m = re.search(rf'resource-id="{re.escape(rid)}"[^>]*bounds="\[(\d+),(\d+)\]\[(\d+),(\d+)\]"', xml)
    assert m, f"{rid} not in the hierarchy"
    l, t, r, b = map(int, m.groups())
    return (l + r) // 2, (t + b) // 2


def result_text(xml: str) -> str:
    m = re.search(rf'<node [^>]*text="([^"]*)" resource-id="{RID}result"', xml)
    assert m, "result view missing"
    return m.group(1)


@pytest.fixture
def fresh_calc(adbd: adbutils.AdbDevice) -> adbutils.AdbDevice:
    adbd.shell(["pm", "clear", CALC])
    adbd.app_start(CALC)
    return adbd


def adb(serial: str, *args: str, binary: bool = False) -> bytes | str:
    out = subprocess.run([adb_path(), "-s", serial, *args], capture_output=True, check=True, timeout=30)
    return out.stdout if binary else out.stdout.decode()


def test_adb_cli(vdevice, fresh_calc, tmp_path):
    serial = vdevice.serial
    assert f"{serial}\tdevice" in adb(serial, "devices")
    adb(serial, "shell", "uiautomator", "dump", "/sdcard/window_dump.xml")
    adb(serial, "pull", "/sdcard/window_dump.xml", str(tmp_path / "dump.xml"))
    xml = (tmp_path / "dump.xml").read_text()
    for key in ("btn_3", "btn_plus", "btn_5", "btn_equals"):
        x, y = bounds_center(xml, RID + key)
        adb(serial, "shell", "input", "tap", str(x), str(y))
    adb(serial, "shell", "uiautomator", "dump", "/sdcard/window_dump.xml")
    adb(serial, "pull", "/sdcard/window_dump.xml", str(tmp_path / "after.xml"))
    assert result_text((tmp_path / "after.xml").read_text()) == "8"
    png = adb(serial, "exec-out", "screencap", "-p", binary=True)
    assert Image.open(io.BytesIO(png)).size == (1080, 2340)
    # Exit codes and stderr cross shell v2.
    proc = subprocess.run([adb_path(), "-s", serial, "shell", "ls /nonexistent"], capture_output=True, text=True)
    assert proc.returncode == 1 and "No such file" in proc.stderr


def test_adbutils(fresh_calc: adbutils.AdbDevice, tmp_path):
    d = fresh_calc
    assert d.shell("echo hi") == "hi"
    assert d.shell2("ls /nonexistent").returncode == 1
    assert d.window_size() == (1080, 2340)
    assert d.app_current().package == CALC
    xml = d.dump_hierarchy()
    for key in ("btn_3", "btn_plus", "btn_5", "btn_equals"):
        d.click(*bounds_center(xml, RID + key))
    assert result_text(d.dump_hierarchy()) == "8"
    assert d.screenshot().size == (1080, 2340)
    d.sync.push(b"x" * 300_000, "/sdcard/Download/blob.bin")
    assert d.sync.read_bytes("/sdcard/Download/blob.bin") == b"x" * 300_000
    local = tmp_path / "blob.bin"
    d.sync.pull("/sdcard/Download/blob.bin", str(local))
    assert local.stat().st_size == 300_000
    assert "blob.bin" in [e.path for e in d.sync.list("/sdcard/Download")]


def test_android_view_client(vdevice, fresh_calc):
    expose_adb_on_path()
    from com.dtmilano.android.viewclient import ViewClient

    device, serial = ViewClient.connectToDeviceOrExit(serialno=vdevice.serial, verbose=False)
    vc = ViewClient(device, serial, autodump=False)
    vc.dump(sleep=0)
    for label in ("3", "+", "5", "="):
        vc.findViewWithTextOrRaise(label).touch()
    vc.dump(sleep=0)
    assert vc.findViewByIdOrRaise(RID + "result").getText() == "8"
    assert vc.device.takeSnapshot(reconnect=True).size == (1080, 2340)  # the framebuffer: service


def test_uiautomator2(u2d):
    u2d.app_clear(CALC)
    u2d.app_start(CALC)
    assert "hierarchy" in u2d.dump_hierarchy()
    for label in ("3", "+", "5", "="):
        u2d(text=label).click()
    assert u2d(resourceId=RID + "result").get_text() == "8"
    assert u2d(resourceId=RID + "formula").get_text() == "3+5"
    keys = u2d(resourceId=RID + "calculator_holder").child(className="android.widget.TextView")
    assert [k.get_text() for k in keys][2:7] == ["%", "^", "√", "÷", "7"]  # child selectors iterate
    assert u2d.screenshot().size == (1080, 2340)
    u2d.press("home")
    assert u2d.app_current()["package"] == "com.android.launcher3"


def test_two_devices_keep_separate_state():
    with virtual_devices(2) as (one, two):
        a = adbutils.AdbClient().device(one.serial)
        b = adbutils.AdbClient().device(two.serial)
        a.app_start(CALC)
        xml = a.dump_hierarchy()
        for key in ("btn_7", "btn_plus", "btn_1", "btn_equals"):
            a.click(*bounds_center(xml, RID + key))
        a.shell("echo only-on-a > /sdcard/Download/mark.txt")
        b.app_start(CALC)
        assert result_text(a.dump_hierarchy()) == "8"
        assert result_text(b.dump_hierarchy()) == "0"
        assert b.shell2("cat /sdcard/Download/mark.txt").returncode == 1
        assert one.root != two.root
    assert not one.alive and not two.alive
    assert not one.root.exists() and not two.root.exists()
    serials = [d.serial for d in adbutils.AdbClient().device_list()]
    assert one.serial not in serials and two.serial not in serials
