"""The harness's adb client: adbutils' code paths without its per-connection waits."""

from __future__ import annotations

import adbutils._adb as adb_module
import pytest

from pytest_mobile_agent.actions import Scroll, Swipe
from pytest_mobile_agent.device.android import AndroidDevice, HarnessAdbClient
from pytest_mobile_agent.device.listener import ensure_listener
from pytest_mobile_agent.device.ui_tree import scroll_path
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


def test_a_scroll_drags_the_list_by_its_path_and_a_swipe_flings_it_on(vdevice: VirtualDevice) -> None:
    """The harness's Scroll moves a list by the distance dragged past the touch slop (it stops
    before it lifts), so the next screen is the next part of the list; a Swipe along the same
    path in 300 ms flings it further, as on a phone."""
    dev = AndroidDevice(vdevice.serial)
    dev.sh("am start -n com.simplemobiletools.calendar.pro/.activities.SettingsActivity")
    scroller = "com.simplemobiletools.calendar.pro:id/settings_nested_scrollview"

    ui = dev.ui()
    top = ui.select(Scroll(id=scroller).selector).bounds[1]  # type: ignore[union-attr]

    def tops() -> dict[str, int]:
        """The rows wholly inside the list: their tops."""
        return {n.id: n.bounds[1] for n in dev.ui().nodes() if n.id.endswith("_holder") and n.bounds[1] > top}

    x1, y1, x2, y2 = scroll_path(ui.select(Scroll(id=scroller).selector), ui, dev.window_size(), "down")
    slop = 8 * 440 / 160
    before = tops()
    dev.execute(Scroll("down", id=scroller), ui)
    after = tops()
    moved = {before[k] - after[k] for k in before.keys() & after.keys()}
    assert moved == {round(y1 - y2 - slop)}
    dev.execute(Swipe(x1, y1, x2, y2), dev.ui())
    flung = tops()
    # Every row moved more than 1.3 times the path, or left the screen.
    assert all(after[k] - flung[k] > 1.3 * (y1 - y2) for k in after.keys() & flung.keys())
    assert flung.keys() != after.keys()
    # The same swipe as a drag (fling=False: a computer-use model's wheel scroll) moves the list
    # back by its path only.
    dev.execute(Swipe(x1, y2, x2, y1, fling=False), dev.ui())
    dragged = tops()
    assert {dragged[k] - flung[k] for k in dragged.keys() & flung.keys()} == {round(y1 - y2 - slop)}
    dev.sh("am force-stop com.simplemobiletools.calendar.pro")
