"""Fixtures shared by the plugin's own tests: virtual devices and the real clients on them."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest
from calc_tasks import calc_tasks as calc_task_file
from session_runs import Run, run_session

from pytest_mobile_agent.parallel.warmstart.process import spawn_device
from pytest_mobile_agent.virtual import VirtualDevice, virtual_devices


@pytest.fixture(scope="session", autouse=True)
def _fast_clients() -> Iterator[None]:
    """Tests talk to the device through the real clients thousands of times. Two client-side
    waits dominate their wall time, so they are tuned here, for the tests only: uiautomator2's
    HTTP socket gets TCP_NODELAY (its header and body writes otherwise wait on delayed ACKs),
    and adbutils skips the 10 ms sleep it takes after half-closing every connection (as the
    harness's own client does)."""
    import socket

    import adbutils._adb as adb_module
    import uiautomator2.core as u2core

    from pytest_mobile_agent.device.android import close_promptly

    original_connect, original_close = u2core.AdbHTTPConnection.connect, adb_module.AdbConnection.close

    def connect(self) -> None:  # noqa: ANN001
        original_connect(self)
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    u2core.AdbHTTPConnection.connect, adb_module.AdbConnection.close = connect, close_promptly
    yield
    u2core.AdbHTTPConnection.connect, adb_module.AdbConnection.close = original_connect, original_close


@pytest.fixture(scope="session")
def vdevice() -> Iterator[VirtualDevice]:
    """One virtual device for the session (per xdist worker); tests reset what they touch. A
    worker of a warm start forks it from the warm process, as the plugin's own devices are."""
    with virtual_devices(1, spawn=spawn_device) as devices:
        yield devices[0]


@pytest.fixture
def u2d(vdevice: VirtualDevice):
    """uiautomator2 on the session's device, starting from the home screen."""
    import uiautomator2 as u2

    d = u2.connect(vdevice.serial)
    d.press("home")
    yield d
    # Its server holds the one UiAutomation connection, as on Android: stopped, so that later
    # tests' `uiautomator dump` (adbutils, AndroidViewClient) can connect.
    d.stop_uiautomator()


@pytest.fixture
def adbd(vdevice: VirtualDevice):
    """adbutils' device object for the session's device."""
    import adbutils

    return adbutils.AdbClient().device(vdevice.serial)


@pytest.fixture
def run_tasks(pytester: pytest.Pytester) -> Callable[..., Run]:
    """Write files into a fresh directory, run pytest on them in a sub-process, read its results file."""

    def run(files: dict[str, str], *args: str, timeout: float = 600) -> Run:
        return run_session(pytester, files, *args, timeout=timeout)

    return run


@pytest.fixture
def calc_tasks() -> dict[str, str]:
    """The calculator task file (calc_tasks.py) as the one file of a session."""
    return {"test_calc.py": calc_task_file()}
