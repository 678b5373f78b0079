"""ensure_listener's adb steps against a scripted fake device (the virtual device comes later)."""

from __future__ import annotations

import shlex
import socket
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from adbutils import AdbError, Network

from pytest_mobile_agent.device import listener
from pytest_mobile_agent.device.listener import (
    ListenerApkMissing,
    ListenerUnavailable,
    ensure_listener,
    installed_version_code,
    shipped_apk_path,
)
from pytest_mobile_agent.events.schema import (
    LISTENER_PACKAGE,
    LISTENER_SERVICE,
    LISTENER_VERSION_CODE,
    Hello,
    encode_hello,
)
from pytest_mobile_agent.virtual.system import apk as apk_module
from pytest_mobile_agent.virtual.system.apk import ApkInfo

TALKBACK = "com.google.android.marvin.talkback/com.google.android.marvin.talkback.TalkBackService"


class HelloServer:
    """Answers every connection with a hello line, as the running service would."""

    def __init__(self, silent: bool = False) -> None:
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.silent = silent
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self) -> None:
        while True:
            try:
                conn, _ = self.listener.accept()
            except OSError:
                return
            if not self.silent:
                conn.sendall(encode_hello(12))
            conn.close()

    def connect(self) -> socket.socket:
        return socket.create_connection(self.listener.getsockname())


class FakeDevice:
    serial = "emulator-5556"

    def __init__(self, server: HelloServer, installed: int | None = None) -> None:
        self.server = server
        self.installed = installed
        self.settings: dict[str, str] = {}
        self.commands: list[str] = []
        self.pushed: list[tuple[str, str]] = []
        self.install_output = "Success"
        self.settings_stick = True
        self.sync = self

    def push(self, local: str, remote: str) -> None:
        self.pushed.append((local, remote))

    def shell(self, cmd: list[str]) -> str:
        line = shlex.join(cmd)  # what adbutils sends
        self.commands.append(line)
        match shlex.split(line):
            case ["dumpsys", "package", pkg] if self.installed is not None:
                return (
                    f"Packages:\n  Package [{pkg}] (5f3a):\n    userId=10150\n"
                    f"    versionCode={self.installed} minSdk=21 targetSdk=30\n"
                    "    versionName=1.0\n"
                )
            case ["dumpsys", "package", _]:
                return "Dexopt state:\n  Unable to find package: io.pytestmobileagent.listener\n"
            case ["pm", "install", "-r", "-t", _]:
                if self.install_output == "Success":
                    self.installed = 2
                return self.install_output
            case ["settings", "get", "secure", key]:
                return self.settings.get(key, "null")
            case ["settings", "put", "secure", key, value]:
                if self.settings_stick:
                    self.settings[key] = value
                return ""
        return ""

    def create_connection(self, network: Network, port: int) -> socket.socket:
        assert (network, port) == (Network.TCP, 7333)
        enabled = self.settings.get("enabled_accessibility_services", "")
        if self.installed is None or LISTENER_SERVICE not in enabled.split(":"):
            raise AdbError("closed")
        return self.server.connect()


@pytest.fixture
def server() -> Iterator[HelloServer]:
    s = HelloServer()
    yield s
    s.listener.close()


@pytest.fixture
def apk(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An APK file whose manifest says versionCode 2 (its bytes do not matter here)."""
    path = tmp_path / "listener.apk"
    path.write_bytes(b"apk")
    info = ApkInfo(LISTENER_PACKAGE, 2, "2.0", [f"{LISTENER_PACKAGE}.EventStreamService"])
    monkeypatch.setattr(apk_module, "read_manifest", lambda p: info)
    return path


def test_fresh_device_gets_installed_enabled_and_checked(server: HelloServer, apk: Path) -> None:
    device = FakeDevice(server)
    assert ensure_listener(device, apk, timeout=5) == Hello(12)
    assert device.pushed == [(str(apk), "/data/local/tmp/pytest-mobile-agent-listener.apk")]
    assert "pm install -r -t /data/local/tmp/pytest-mobile-agent-listener.apk" in device.commands
    assert device.settings == {
        "enabled_accessibility_services": LISTENER_SERVICE,
        "accessibility_enabled": "1",
    }


def test_other_services_are_kept(server: HelloServer, apk: Path) -> None:
    device = FakeDevice(server, installed=2)
    device.settings["enabled_accessibility_services"] = TALKBACK
    ensure_listener(device, apk, timeout=5)
    assert device.settings["enabled_accessibility_services"] == f"{TALKBACK}:{LISTENER_SERVICE}"
    assert not device.pushed


def test_current_and_enabled_listener_is_left_alone(server: HelloServer, apk: Path) -> None:
    device = FakeDevice(server, installed=2)
    device.settings["enabled_accessibility_services"] = f"{LISTENER_SERVICE}:{TALKBACK}"
    ensure_listener(device, apk, timeout=5)
    assert not device.pushed
    assert not any(c.startswith("settings put secure enabled_") for c in device.commands)
    assert device.settings["enabled_accessibility_services"] == f"{LISTENER_SERVICE}:{TALKBACK}"


def test_older_listener_is_upgraded(server: HelloServer, apk: Path) -> None:
    device = FakeDevice(server, installed=1)
    ensure_listener(device, apk, timeout=5)
    assert device.pushed and device.installed == 2


def test_failed_install_names_device_and_output(server: HelloServer, apk: Path) -> None:
    device = FakeDevice(server)
    device.install_output = "Failure [INSTALL_FAILED_INSUFFICIENT_STORAGE]"
    with pytest.raises(ListenerUnavailable) as info:
        ensure_listener(device, apk, timeout=5)
    message = str(info.value)
    assert "emulator-5556" in message and "INSTALL_FAILED_INSUFFICIENT_STORAGE" in message


def test_setting_that_does_not_stick(server: HelloServer, apk: Path) -> None:
    device = FakeDevice(server, installed=2)
    device.settings_stick = False
    with pytest.raises(ListenerUnavailable, match="emulator-5556: enabling the service did not"):
        ensure_listener(device, apk, timeout=5)


def test_silent_service_times_out(apk: Path) -> None:
    silent = HelloServer(silent=True)
    device = FakeDevice(silent, installed=2)
    with pytest.raises(ListenerUnavailable, match=r"no hello on tcp:7333 within 0.3 s \(the stream"):
        ensure_listener(device, apk, timeout=0.3)


def test_missing_apk_explains_how_to_build(
    server: HelloServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(listener, "__file__", str(tmp_path / "listener.py"))
    with pytest.raises(ListenerApkMissing, match="listener_app/build.sh"):
        shipped_apk_path()
    with pytest.raises(ListenerUnavailable, match="emulator-5556.*listener_app/build.sh"):
        ensure_listener(FakeDevice(server), timeout=1)
    # A phone that already runs the current listener needs no APK on the host.
    device = FakeDevice(server, installed=LISTENER_VERSION_CODE)
    assert ensure_listener(device, timeout=5) == Hello(12)
    assert not device.pushed


def test_version_code_is_read_from_the_package_section(server: HelloServer) -> None:
    assert installed_version_code(FakeDevice(server, installed=3)) == 3
    assert installed_version_code(FakeDevice(server)) is None
