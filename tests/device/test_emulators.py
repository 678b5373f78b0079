"""--devices=emulator:AVD*N boots N headless instances with the SDK's `emulator` (here a stand-in
that takes the same arguments, refuses what the emulator refuses and starts virtual devices with
the same console), each from a copy of the AVD of its own, runs the tasks on them and shuts them
down at the end."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from pytest_mobile_agent import doctor
from pytest_mobile_agent.device import adb_server
from pytest_mobile_agent.device.emulators import HEADLESS, EmulatorError, find_emulator, free_console_ports, parse

STAND_IN = Path(__file__).with_name("emulator_stand_in.py")


def install_stand_in(folder: Path) -> Path:
    """An executable `emulator` in `folder` that runs the stand-in."""
    folder.mkdir(parents=True, exist_ok=True)
    command = folder / "emulator"
    command.write_text(f'#!/bin/sh\nexec "{sys.executable}" "{STAND_IN}" "$@"\n')
    command.chmod(command.stat().st_mode | stat.S_IXUSR)
    return command


def make_avd(home: Path, name: str) -> Path:
    """An AVD as the SDK's avdmanager leaves it: `NAME.ini` naming the `NAME.avd` folder."""
    folder = home / f"{name}.avd"
    folder.mkdir(parents=True)
    (folder / "config.ini").write_text(f"AvdId={name}\nhw.lcd.width=1080\n")
    (folder / "userdata-qemu.img").write_bytes(b"\0" * 4096)
    (home / f"{name}.ini").write_text(f"avd.ini.encoding=UTF-8\npath={folder}\ntarget=android-33\n")
    return folder


@pytest.fixture
def stand_in(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    install_stand_in(tmp_path / "sdk-bin")
    make_avd(tmp_path / "avd", "Pixel_7_API_33")
    monkeypatch.setenv("ANDROID_AVD_HOME", str(tmp_path / "avd"))
    monkeypatch.setenv("PATH", f"{tmp_path / 'sdk-bin'}{os.pathsep}{os.environ['PATH']}")
    monkeypatch.setenv("STAND_IN_LOG", str(tmp_path / "emulator-calls.log"))
    return tmp_path / "emulator-calls.log"


def test_tasks_run_on_emulators_booted_for_the_session(run_tasks, calc_tasks, stand_in: Path) -> None:
    run = run_tasks(calc_tasks, "--agent=oracle", "--devices=emulator:Pixel_7_API_33*2", "-n", "auto")
    run.result.assert_outcomes(passed=4)
    calls = stand_in.read_text().splitlines()
    assert calls[0] == "-list-avds"
    boots = [c.split() for c in calls[1:]]
    assert len(boots) == 2
    ports = sorted(int(b[b.index("-port") + 1]) for b in boots)
    # Each from a copy of its own, writable (so that its snapshots can be saved), not -read-only.
    assert sorted(b[1] for b in boots) == ["Pixel_7_API_33_pma0", "Pixel_7_API_33_pma1"]
    for b in boots:
        assert b[0] == "-avd" and set(HEADLESS) <= set(b) and "-read-only" not in b
    assert ports[0] != ports[1] and all(p % 2 == 0 for p in ports)
    serials = {f"emulator-{p}" for p in ports}
    run.result.stdout.fnmatch_lines(["*created: 2/2 workers*"])  # -n auto: a worker per instance
    used = {e["serial"] for e in run.episodes}
    assert used and used <= serials  # (work stealing may leave one worker's queue to the other)
    listed = {d.serial for d in adb_server.client().list()}
    assert not serials & listed  # shut down: the adb server has forgotten them
    avd = stand_in.parent / "avd"  # the user's AVD: untouched, no lock left, no copy beside it
    assert sorted(p.name for p in avd.iterdir()) == ["Pixel_7_API_33.avd", "Pixel_7_API_33.ini"]
    assert sorted(p.name for p in (avd / "Pixel_7_API_33.avd").iterdir()) == ["config.ini", "userdata-qemu.img"]


def test_an_unknown_avd_is_named_with_the_known_ones(run_tasks, calc_tasks, stand_in: Path) -> None:
    run = run_tasks(calc_tasks, "--agent=oracle", "--devices=emulator:Nexus_4*2")
    assert run.result.ret == pytest.ExitCode.USAGE_ERROR
    run.result.stderr.fnmatch_lines(["*no AVD named 'Nexus_4' (`emulator -list-avds`: Pixel_7_API_33)*"])
    assert stand_in.read_text().splitlines() == ["-list-avds"]  # nothing booted


def test_no_emulator_command_is_a_clear_error(run_tasks, calc_tasks, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", os.path.dirname(sys.executable) + os.pathsep + "/usr/bin:/bin")
    monkeypatch.delenv("ANDROID_HOME", raising=False)
    monkeypatch.delenv("ANDROID_SDK_ROOT", raising=False)
    run = run_tasks(calc_tasks, "--agent=oracle", "--devices=emulator:Pixel_7_API_33")
    assert run.result.ret == pytest.ExitCode.USAGE_ERROR
    run.result.stderr.fnmatch_lines(["*no `emulator` command*ANDROID_HOME*"])


def test_the_sdk_emulator_is_found_under_android_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", "/usr/bin:/bin")
    monkeypatch.delenv("ANDROID_HOME", raising=False)
    monkeypatch.setenv("ANDROID_SDK_ROOT", str(tmp_path / "sdk"))
    command = install_stand_in(tmp_path / "sdk" / "emulator")
    assert find_emulator() == str(command)


@pytest.mark.parametrize(
    "spec, parsed",
    [("emulator:Pixel_7*4", ("Pixel_7", 4)), ("emulator:Pixel_7", ("Pixel_7", 1)), ("virtual", None)],
)
def test_parse(spec: str, parsed: tuple[str, int] | None) -> None:
    assert parse(spec) == parsed


@pytest.mark.parametrize("spec", ["emulator:", "emulator:Pixel 7", "emulator:Pixel_7*0", "emulator:Pixel_7*x"])
def test_a_bad_spec_says_what_is_expected(spec: str) -> None:
    with pytest.raises(EmulatorError, match="emulator:AVD"):
        parse(spec)


def start_stand_in(avd: str, port: int, *flags: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, str(STAND_IN), "-avd", avd, "-port", str(port), "-no-window", *flags],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )


def await_ready(proc: subprocess.Popen[str]) -> str:
    """The serial the stand-in's device registered as, once it is ready."""
    assert proc.stdout is not None
    for line in proc.stdout:
        if "serial=" in line:
            return line.split("serial=")[1].split()[0]
    raise AssertionError(f"the stand-in ended with {proc.wait()} before it was ready")


def test_a_second_writable_instance_of_one_avd_is_refused(stand_in: Path) -> None:
    port = free_console_ports(2, set())
    first = start_stand_in("Pixel_7_API_33", port[0])
    try:
        await_ready(first)
        second = start_stand_in("Pixel_7_API_33", port[1])
        out, _ = second.communicate(timeout=60)
        assert second.returncode == 1 and "Please use -read-only flag" in out
    finally:
        first.terminate()
        first.wait(30)


def test_a_read_only_instance_refuses_snapshots_and_doctor_says_so(stand_in: Path) -> None:
    proc = start_stand_in("Pixel_7_API_33", free_console_ports(1, set())[0], "-read-only")
    try:
        serial = await_ready(proc)
        lines: list[str] = []
        assert doctor.run(serial, lines.append) == 1
        (failed,) = [line for line in lines if line.startswith("  FAIL")]
        assert 'Snapshot save is disabled because "-read-only" was specified' in failed
        assert "boot one writable AVD copy per instance" in lines[lines.index(failed) + 1]
    finally:
        proc.terminate()
        proc.wait(30)


def test_tasks_run_on_a_read_only_emulator_reset_by_clearing(run_tasks, calc_tasks, stand_in: Path) -> None:
    proc = start_stand_in("Pixel_7_API_33", free_console_ports(1, set())[0], "-read-only")
    try:
        serial = await_ready(proc)
        run = run_tasks(calc_tasks, "--agent=oracle", f"--devices={serial}")
        run.result.assert_outcomes(passed=4)
        assert {e["serial"] for e in run.episodes} == {serial}
        assert not [e for e in run.episodes if e["infrastructure"]]
    finally:
        proc.terminate()
        proc.wait(30)
