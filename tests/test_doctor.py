"""`python -m pytest_mobile_agent doctor`: every check passes on a virtual device, and a device a
run could not use is named with what to do."""

from __future__ import annotations

import subprocess
import sys

from pytest_mobile_agent import doctor
from pytest_mobile_agent.virtual import VirtualDevice

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
