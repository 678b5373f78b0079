"""`python -m pytest_mobile_agent doctor`: every check passes on a virtual device, and a device a
run could not use is named with what to do."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

import adbutils
import pytest

from pytest_mobile_agent import doctor
from pytest_mobile_agent.device.android import AndroidDevice
from pytest_mobile_agent.device.pool import DeviceSource
from pytest_mobile_agent.device.reset import ClearReset, DeviceResets
from pytest_mobile_agent.errors import DeviceLost
from pytest_mobile_agent.virtual import VirtualDevice, virtual_devices

CHECKS = ("adb state", "API level", "screenshot", "window dump", "foreground", "event stream")
CHECKS += ("permission grant", "locale", "animations", "snapshots", "clock")


def test_doctor_checks_a_virtual_device_it_starts() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "pytest_mobile_agent", "doctor"], capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("emulator-")
    for name in CHECKS:
        (line,) = [x for x in lines if x[8:].startswith(name)]
        assert line.split()[0] in ("ok", "warn"), line
    assert "uiautomator dump to a file" in done.stdout and "(dumpsys window displays)" in done.stdout
    assert "zh-CN set without root and read back" in done.stdout


def test_doctor_names_a_serial_adb_does_not_list(vdevice: VirtualDevice) -> None:
    out: list[str] = []
    status = doctor.run(f"{vdevice.serial},emulator-5998", out.append)
    assert status == 1
    assert out[:2] == ["emulator-5998", "  FAIL  adb state         not listed"]
    assert "adb does not list it" in out[2]
    assert vdevice.serial in out and "  ok    adb state         device (authorized)" in out
    assert not [line for line in out[2:] if line.startswith("  FAIL")]


def test_the_command_lists_its_commands() -> None:
    done = subprocess.run([sys.executable, "-m", "pytest_mobile_agent"], capture_output=True, text=True)
    assert done.returncode == 2 and "doctor [--devices SPEC]" in done.stderr


def old_adb_on_path(folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An `adb` of Android 10's platform tools first on PATH (protocol 1.0.39, the server's is 1.0.41)."""
    folder.mkdir()
    (folder / "adb").write_text(
        "#!/bin/sh\necho 'Android Debug Bridge version 1.0.39'\necho 'Version 29.0.6-6198805'\n"
    )
    (folder / "adb").chmod(0o755)
    monkeypatch.setenv("PATH", f"{folder}{os.pathsep}{os.environ['PATH']}")


def test_a_mismatched_adb_on_path_is_named_by_doctor_and_a_run(
    vdevice: VirtualDevice, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, run_tasks, calc_tasks
) -> None:
    old_adb_on_path(tmp_path / "bin", monkeypatch)
    out: list[str] = []
    assert doctor.run(vdevice.serial, out.append) == 1
    assert out[0] == "this host"
    assert out[1].startswith("  FAIL  adb on PATH")
    assert f"({tmp_path / 'bin' / 'adb'}, 1.0.39) is another version than the adb server's (1.0.41)" in out[1]
    run = run_tasks(calc_tasks, "--agent=oracle")
    run.result.assert_outcomes(passed=4)
    run.result.stdout.fnmatch_lines(["warning: the adb on PATH (*1.0.39) is another version*kill the server*"])


def test_an_emulator_behind_a_remote_adb_server_has_no_console_here(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A second adb server listening on every interface, reached at this host's own address: to
    the harness it is remote, and the device's console (on the loopback) is not there."""
    address = own_address()
    port = free_port()
    adb = adbutils.adb_path()
    subprocess.run([adb, "-a", "-P", str(port), "start-server"], check=True, capture_output=True, timeout=60)
    monkeypatch.setenv("ANDROID_ADB_SERVER_PORT", str(port))  # the device registers with that server
    try:
        with virtual_devices() as (device,):
            source = DeviceSource.parse(f"remote:{address}:{port}")
            dev = AndroidDevice(device.serial, source.client())
            with pytest.raises(DeviceLost, match=f"behind the adb server at {address}: its console listens on"):
                DeviceResets("snapshot").strategy(dev)
            assert isinstance(DeviceResets().strategy(dev), ClearReset)  # (and a warning says why)
            out: list[str] = []
            doctor.run(f"remote:{address}:{port}", out.append)
            (line,) = [x for x in out if x[8:].startswith("snapshots")]
            assert line.startswith("  warn") and f"no console at {address}:" in line
            assert "cannot be reached from this host" in out[out.index(line) + 1]
    finally:
        subprocess.run([adb, "-P", str(port), "kill-server"], capture_output=True, timeout=60)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def own_address() -> str:
    """This host's address on its default route (a UDP socket's connect sends nothing)."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        s.connect(("10.254.254.254", 1))
        return str(s.getsockname()[0])
