"""--devices=emulator:AVD*N boots N headless read-only instances with the SDK's `emulator` (here a
stand-in that takes the same arguments and starts virtual devices with the same console), runs
the tasks on them and shuts them down at the end."""

from __future__ import annotations

import os
import stat
import sys
from pathlib import Path

import pytest

from pytest_mobile_agent.device import adb_server
from pytest_mobile_agent.device.emulators import HEADLESS, EmulatorError, find_emulator, parse

STAND_IN = Path(__file__).with_name("emulator_stand_in.py")


def install_stand_in(folder: Path) -> Path:
    """An executable `emulator` in `folder` that runs the stand-in."""
    folder.mkdir(parents=True, exist_ok=True)
    command = folder / "emulator"
    command.write_text(f'#!/bin/sh\nexec "{sys.executable}" "{STAND_IN}" "$@"\n')
    command.chmod(command.stat().st_mode | stat.S_IXUSR)
    return command


@pytest.fixture
def stand_in(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    install_stand_in(tmp_path / "sdk-bin")
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
    for b in boots:
        assert b[:2] == ["-avd", "Pixel_7_API_33"] and set(HEADLESS) <= set(b)
    assert ports[0] != ports[1] and all(p % 2 == 0 for p in ports)
    serials = {f"emulator-{p}" for p in ports}
    run.result.stdout.fnmatch_lines(["*created: 2/2 workers*"])  # -n auto: a worker per instance
    used = {e["serial"] for e in run.episodes}
    assert used and used <= serials  # (work stealing may leave one worker's queue to the other)
    listed = {d.serial for d in adb_server.client().list()}
    assert not serials & listed  # shut down: the adb server has forgotten them


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
