"""Fixtures shared by the plugin's own tests: virtual devices and the real clients on them."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from pytest_mobile_agent.virtual import VirtualDevice, virtual_devices


@pytest.fixture(scope="session")
def vdevice() -> Iterator[VirtualDevice]:
    """One virtual device for the session (per xdist worker); tests reset what they touch."""
    with virtual_devices(1) as devices:
        yield devices[0]


@pytest.fixture
def u2d(vdevice: VirtualDevice):
    """uiautomator2 on the session's device, starting from the home screen."""
    import uiautomator2 as u2

    d = u2.connect(vdevice.serial)
    d.press("home")
    return d


@pytest.fixture
def adbd(vdevice: VirtualDevice):
    """adbutils' device object for the session's device."""
    import adbutils

    return adbutils.AdbClient().device(vdevice.serial)
