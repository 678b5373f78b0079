"""The whole path on a virtual device: ensure_listener and EventStreamClient through adb.

The virtual device serves tcp:7333 only while the listener APK is installed and enabled, so
this exercises install (sync push + pm install of the built APK), the settings, and the stream
through the ordinary adb server, as on a phone.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import adbutils
import pytest

from pytest_mobile_agent.device.listener import ensure_listener, installed_version_code
from pytest_mobile_agent.events.client import EventStreamClient
from pytest_mobile_agent.events.schema import LISTENER_PACKAGE, LISTENER_SERVICE, LISTENER_VERSION_CODE

CALC = "com.simplemobiletools.calculator"
OTHER = "com.example.screenreader/.ReaderService"
SETTING = ["settings", "get", "secure", "enabled_accessibility_services"]


@pytest.fixture
def device(adbd: adbutils.AdbDevice) -> Iterator[adbutils.AdbDevice]:
    """The session's virtual device, left as it was found: no listener, same services."""
    before = adbd.shell(SETTING).strip()
    yield adbd
    adbd.shell(["pm", "uninstall", LISTENER_PACKAGE])
    if before == "null":
        adbd.shell(["settings", "delete", "secure", "enabled_accessibility_services"])
    else:
        adbd.shell(["settings", "put", "secure", "enabled_accessibility_services", before])


def center(xml: str, view_id: str) -> tuple[int, int]:
    m = re.search(rf'resource-id="{re.escape(view_id)}"[^>]*bounds="\[(\d+),(\d+)\]\[(\d+),(\d+)\]"', xml)
    assert m, f"{view_id} is not on screen"
    left, top, right, bottom = map(int, m.groups())
    return (left + right) // 2, (top + bottom) // 2


def test_listener_streams_events_through_adb(device: adbutils.AdbDevice) -> None:
    device.shell(["settings", "put", "secure", "enabled_accessibility_services", OTHER])
    hello = ensure_listener(device, timeout=20)
    assert installed_version_code(device) == LISTENER_VERSION_CODE
    assert device.shell(SETTING).strip() == f"{OTHER}:{LISTENER_SERVICE}"

    with EventStreamClient.for_device(device) as client:
        assert client.hello is not None and client.hello.next_seq >= hello.next_seq
        device.app_start(CALC)
        opened = client.wait_for(lambda e: e.type == "TYPE_WINDOW_STATE_CHANGED" and e.package == CALC, timeout=20)
        assert opened is not None and opened.window_title

        button = f"{CALC}:id/btn_7"
        device.click(*center(device.dump_hierarchy(), button))
        clicked = client.wait_for(lambda e: e.type == "TYPE_VIEW_CLICKED", timeout=20, since=opened.seq)
        assert clicked is not None
        assert clicked.view_id == button and clicked.bounds is not None
        assert client.gaps == [] and client.skipped_lines == 0

    # Already installed, current and enabled: nothing to do but check the stream answers.
    assert ensure_listener(device, timeout=20).next_seq > clicked.seq
    assert device.shell(SETTING).strip() == f"{OTHER}:{LISTENER_SERVICE}"
