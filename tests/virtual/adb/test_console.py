"""The emulator console of the virtual device: the protocol spoken raw, then through the real
`adb emu` (the binary inside the adbutils wheel) and the plugin's own console client."""

from __future__ import annotations

import os
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from pytest_mobile_agent.device import adb_server
from pytest_mobile_agent.device.reset import ConsoleError, EmulatorConsole, console_port
from pytest_mobile_agent.virtual import VirtualDevice, virtual_devices

TOKEN = "s3cret-token"


@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("home")
    (path / ".emulator_console_auth_token").write_text(TOKEN + "\n")
    return path


@pytest.fixture(scope="module")
def emulator(home: Path) -> Iterator[VirtualDevice]:
    """A device whose console reads its token from `home` (HOME, as the emulator does)."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("HOME", str(home))
        with virtual_devices(1) as devices:
            yield devices[0]


class Raw:
    """The console spoken by hand: CRLF lines, replies ending in OK or KO."""

    def __init__(self, port: int) -> None:
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=10)
        self.buf = b""

    def reply(self) -> list[str]:
        lines = []
        while True:
            while b"\r\n" not in self.buf:
                data = self.sock.recv(4096)
                assert data, f"console closed; so far {lines}"
                self.buf += data
            line, self.buf = self.buf.split(b"\r\n", 1)
            lines.append(line.decode())
            if line == b"OK" or line.startswith((b"KO", b"OK:")):
                return lines

    def send(self, text: str) -> list[str]:
        self.sock.sendall(text.encode() + b"\r\n")
        return self.reply()


def test_serial_names_the_console_port_as_an_emulator_does(emulator: VirtualDevice) -> None:
    assert emulator.serial == f"emulator-{emulator.port - 1}"
    assert console_port(emulator.serial) == emulator.port - 1
    assert adb_server.state(emulator.serial) == "device"


def test_authentication_is_required_and_checked(emulator: VirtualDevice, home: Path) -> None:
    raw = Raw(emulator.port - 1)
    greeting = raw.reply()
    assert greeting[0] == "Android Console: Authentication required"
    assert f"'{home / '.emulator_console_auth_token'}'" in greeting and greeting[-1] == "OK"
    assert raw.send("avd snapshot list") == ["KO: unknown command, try 'help'"]  # not before auth
    assert raw.send("auth") == ["KO: missing authentication token"]
    assert raw.send("auth wrong") == ["KO: authentication token does not match ~/.emulator_console_auth_token"]
    assert raw.send(f"auth {TOKEN}") == ["Android Console: type 'help' for a list of commands", "OK"]
    assert raw.send("ping") == ["I am alive!", "OK"]
    assert raw.send("frobnicate now") == ["KO: unknown command, try 'help'"]
    assert raw.send("avd status") == ["virtual device is running", "OK"]
    help_lines = raw.send("help")
    assert help_lines[-1] == "OK" and any(line.strip().startswith("avd") for line in help_lines)
    raw.sock.sendall(b"quit\n")  # LF alone is a line too
    assert raw.sock.recv(100) == b""  # quit closes the session


def test_snapshot_save_list_load_delete(emulator: VirtualDevice, home: Path) -> None:
    console = EmulatorConsole(emulator.port - 1, home=home)
    try:
        assert console.command("avd snapshot save first") == []
        assert any(line.split()[1:2] == ["first"] for line in console.command("avd snapshot list"))
        with pytest.raises(ConsoleError, match="snapshot 'missing' does not exist"):
            console.command("avd snapshot load missing")
        with pytest.raises(ConsoleError, match="argument missing"):
            console.command("avd snapshot load")
        assert console.command("avd snapshot load first") == []
        assert console.command("avd snapshot delete first") == []
        with pytest.raises(ConsoleError, match="does not exist"):
            console.command("avd snapshot delete first")
        assert not any("first" in line for line in console.command("avd snapshot list"))
    finally:
        console.close()


def test_the_real_adb_emu_command(emulator: VirtualDevice, home: Path) -> None:
    env = {**os.environ, "HOME": str(home)}  # adb reads the token from the caller's home

    def emu(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run(
            [adb_server.adb_path(), "-s", emulator.serial, "emu", *args],
            capture_output=True,
            text=True,
            env=env,
            timeout=30,
        )

    assert emu("avd", "snapshot", "save", "by-cli").stdout.strip() == "OK"
    assert "by-cli" in emu("avd", "snapshot", "list").stdout
    assert "KO: snapshot 'nope' does not exist" in emu("avd", "snapshot", "load", "nope").stdout
    assert emu("avd", "snapshot", "load", "by-cli").stdout.strip() == "OK"
    wrong = emu("ping")
    assert "I am alive!" in wrong.stdout
    bad_home = home / "elsewhere"
    bad_home.mkdir(exist_ok=True)
    (bad_home / ".emulator_console_auth_token").write_text("not-the-token")
    denied = subprocess.run(
        [adb_server.adb_path(), "-s", emulator.serial, "emu", "ping"],
        capture_output=True,
        text=True,
        env={**env, "HOME": str(bad_home)},
        timeout=30,
    )
    assert "KO: authentication token does not match" in denied.stdout and "I am alive" not in denied.stdout


def test_an_empty_token_file_turns_authentication_off(tmp_path: Path) -> None:
    (tmp_path / ".emulator_console_auth_token").write_text("")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("HOME", str(tmp_path))
        with virtual_devices(1) as (device,):
            raw = Raw(device.port - 1)
            assert raw.reply() == ["Android Console: type 'help' for a list of commands", "OK"]
            assert raw.send("avd name")[-1] == "OK"
            assert raw.send("kill") == ["OK: killing emulator, bye bye"]
            assert device.process.wait(10) == 0  # kill ends the device, as it ends an emulator
            deadline = time.monotonic() + 10
            while adb_server.state(device.serial) is not None and time.monotonic() < deadline:
                time.sleep(0.05)  # the adb server notices the closed connection on its own schedule
            assert adb_server.state(device.serial) is None


def test_a_restore_that_fails_is_an_infrastructure_error(emulator: VirtualDevice, home: Path) -> None:
    from pytest_mobile_agent.device.android import AndroidDevice
    from pytest_mobile_agent.device.reset import SNAPSHOT_NAME, SnapshotReset
    from pytest_mobile_agent.errors import DeviceLost

    dev = AndroidDevice(emulator.serial)
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("HOME", str(home))  # where the plugin's console client finds the token
        snap = SnapshotReset(emulator.port - 1)
        snap.save(dev)
        snap.reset(dev, [], [])
        snap.console().command(f"avd snapshot delete {SNAPSHOT_NAME}")
        with pytest.raises(DeviceLost, match=f"`avd snapshot load {SNAPSHOT_NAME}` on the emulator console failed"):
            snap.reset(dev, [], [])
        snap.close()
        with pytest.raises(DeviceLost, match="the emulator console did not answer"):
            SnapshotReset(1).reset(dev, [], [])  # nothing listens on port 1
