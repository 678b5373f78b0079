"""The harness's adb client: adbutils' code paths without its per-connection waits."""

from __future__ import annotations

import adbutils._adb as adb_module
import pytest

from pytest_mobile_agent.device.android import AndroidDevice, HarnessAdbClient
from pytest_mobile_agent.device.listener import ensure_listener
from pytest_mobile_agent.virtual import VirtualDevice


def test_no_harness_connection_takes_adbutils_sleeping_close(
    vdevice: VirtualDevice, monkeypatch: pytest.MonkeyPatch
) -> None:
    def sleeping_close(self: adb_module.AdbConnection) -> None:
        raise AssertionError("adbutils' AdbConnection.close (10 ms sleep) was called")

    monkeypatch.setattr(adb_module.AdbConnection, "close", sleeping_close)
    dev = AndroidDevice(vdevice.serial)
    assert isinstance(dev.client, HarnessAdbClient)
    dev.push(b"hello", "/sdcard/Download/harness.txt")
    assert dev.pull("/sdcard/Download/harness.txt") == b"hello"  # adbutils' own sync code
    assert dev.sh("cat /sdcard/Download/harness.txt") == "hello"
    assert dev.window_size() == (1080, 2340)  # adbutils' AdbDevice.shell
    ensure_listener(dev.adb)
    with pytest.raises(FileNotFoundError):
        dev.pull("/sdcard/Download/none.txt")
    conn = dev.adb.open_transport()
    conn.close()
    assert conn.closed
    conn.close()  # a second close is harmless, as with adbutils
