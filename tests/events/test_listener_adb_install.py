"""The listener APK through the adb CLI on a virtual device: `adb install`, enabled with
`settings`, events of a calculator computation through the host client, and a dropped
connection that reconnects and reports the events it missed."""

from __future__ import annotations

import re
import subprocess

import pytest

from pytest_mobile_agent.device.adb_server import adb_path
from pytest_mobile_agent.device.listener import shipped_apk_path
from pytest_mobile_agent.events.client import EventStreamClient
from pytest_mobile_agent.events.schema import LISTENER_PACKAGE, LISTENER_SERVICE

CALC = "com.simplemobiletools.calculator"


def adb(serial: str, *args: str) -> str:
    proc = subprocess.run([adb_path(), "-s", serial, *args], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def tap_text(serial: str, xml: str, text: str) -> None:
    m = re.search(rf'<node [^>]*text="{re.escape(text)}"[^>]*bounds="\[(\d+),(\d+)\]\[(\d+),(\d+)\]"', xml)
    assert m, f"{text!r} is not on screen"
    l, t, r, b = map(int, m.groups())
    adb(serial, "shell", "input", "tap", str((l + r) // 2), str((t + b) // 2))


@pytest.fixture
def listener(vdevice, adbd):
    yield vdevice.serial
    adbd.shell(["settings", "delete", "secure", "enabled_accessibility_services"])
    adbd.shell(["pm", "uninstall", LISTENER_PACKAGE])


def test_adb_install_enable_stream_and_gap_after_drop(listener, adbd):
    serial = listener
    assert "Success" in adb(serial, "install", "-r", str(shipped_apk_path()))
    assert LISTENER_PACKAGE in adb(serial, "shell", "pm", "list", "packages", LISTENER_PACKAGE)
    adb(serial, "shell", "settings", "put", "secure", "enabled_accessibility_services", LISTENER_SERVICE)
    adb(serial, "shell", "settings", "put", "secure", "accessibility_enabled", "1")

    with EventStreamClient.for_device(adbd, retries=30, backoff=0.02, max_backoff=0.2) as client:
        adb(serial, "shell", "am", "start", "-n", f"{CALC}/.activities.MainActivity")
        xml = adbd.dump_hierarchy()
        for key in ("3", "+", "5", "="):
            tap_text(serial, xml, key)
        # The barrier: once sync() returns, every event the device had sent is in.
        assert client.sync(timeout=10)
        equals = next(e for e in reversed(client.events) if e.type == "TYPE_VIEW_CLICKED" and e.text == ("=",))
        clicks = [e.text[0] for e in client.events if e.type == "TYPE_VIEW_CLICKED" and e.package == CALC]
        assert clicks[-4:] == ["3", "+", "5", "="]
        assert any(e.type == "TYPE_WINDOW_STATE_CHANGED" and e.package == CALC for e in client.events)
        assert client.gaps == []

        # Turning the service off drops the connection (Android unbinds it); what happens while
        # it is off is never seen; once back on, the client reconnects and reports the gap.
        adb(serial, "shell", "settings", "delete", "secure", "enabled_accessibility_services")
        for key in ("C", "C"):
            tap_text(serial, xml, key)
        adb(serial, "shell", "settings", "put", "secure", "enabled_accessibility_services", LISTENER_SERVICE)
        assert client.wait_connected(2, timeout=10)
        tap_text(serial, xml, "7")
        seven = client.wait_for(lambda e: e.type == "TYPE_VIEW_CLICKED" and e.text == ("7",), timeout=10)
        assert seven is not None
        assert client.gaps, "the events missed while disconnected must be reported"
        first, last = client.gaps[-1]
        assert equals.seq < first <= last < seven.seq
