"""The harness sets the locale without root (the listener app's LocaleReceiver), and a locale
that did not take is the task's error, never a run in the wrong language."""

from __future__ import annotations

import pytest

from pytest_mobile_agent.device.android import AndroidDevice
from pytest_mobile_agent.device.listener import ensure_listener
from pytest_mobile_agent.errors import TaskError
from pytest_mobile_agent.events.schema import LISTENER_PACKAGE
from pytest_mobile_agent.virtual import VirtualDevice


def test_the_locale_is_set_through_the_listener_and_read_back(vdevice: VirtualDevice) -> None:
    dev = AndroidDevice(vdevice.serial)
    ensure_listener(dev.adb)
    try:
        dev.set_locale("zh-CN")
        assert dev.locale == "zh-CN"
        assert dev.sh("getprop persist.sys.locale").strip() == "zh-CN"  # kept by the system
        dev.sh("input keyevent HOME")
        assert dev.ui().find(text="计算器") is not None  # the launcher's labels: on screen
        # Without the listener nobody answers the broadcast: the locale did not take.
        dev.sh(f"pm uninstall {LISTENER_PACKAGE}", check=False)
        with pytest.raises(TaskError, match="could not set the locale to en-US"):
            dev.set_locale("en-US")
        assert dev.locale == "zh-CN"
    finally:
        ensure_listener(dev.adb)
        dev.set_locale("en-US")
    assert dev.sh("getprop persist.sys.locale").strip() == "en-US"
