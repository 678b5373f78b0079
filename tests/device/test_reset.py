"""`--mobile-reset`: the base snapshot on devices with an emulator console (virtual devices
register as emulators), clear-and-clean on request or where there is no console."""

from __future__ import annotations

import json
import subprocess

from pytest_mobile_agent.device import adb_server
from pytest_mobile_agent.virtual import virtual_devices

# Each task's precondition fixture notes what it finds in Download and in the data of an app no
# task uses, then leaves a hidden file in both and moves the clock: the traces a careless episode
# (or, for the app, a phone's own background work) leaves behind.
LEFTOVER_TASKS = """
import json
import subprocess
from pathlib import Path

import pytest
from pytest_mobile_agent import Tap, task

CALC = "com.simplemobiletools.calculator"
LOG = Path(__file__).parent / "seen.jsonl"
OTHER_APP_FILES = "/data/data/com.simplemobiletools.notes.pro/files"


@pytest.fixture
def litter(device):
    seen = {
        "download": device.sh("ls -a /sdcard/Download").split(),
        "other app": device.sh(f"ls -a {OTHER_APP_FILES}", check=False).split(),  # may not be there
        "clock": device.sh("date +%s").strip(),
    }
    with LOG.open("a") as f:
        f.write(json.dumps(seen) + "\\n")
    device.sh(f"echo x > /sdcard/Download/.left-behind; mkdir -p {OTHER_APP_FILES}; echo x > {OTHER_APP_FILES}/.mine")
    device.sh("date -s 2031-01-01T00:00:00")


@pytest.mark.parametrize("n", [1, 2, 3])
@task(prompt="Type {n} on the calculator", app=CALC, golden=lambda n: [Tap(text=str(n)), Tap(text="=")])
def test_type(litter, ui, n):
    assert ui.text_of("result") == str(n)
"""


def seen(pytester) -> list[dict]:  # noqa: ANN001
    return [json.loads(line) for line in (pytester.path / "seen.jsonl").read_text().splitlines()]


def test_virtual_devices_get_the_snapshot_reset_by_default(run_tasks, pytester):
    run = run_tasks({"test_left.py": LEFTOVER_TASKS}, "--agent=oracle", "-p", "no:randomly")
    run.result.assert_outcomes(passed=3)
    found = seen(pytester)
    assert len(found) == 3
    assert all(".left-behind" not in s["download"] for s in found)  # each task starts clean
    assert all(".mine" not in s["other app"] for s in found)
    assert len({s["clock"] for s in found}) == 1  # and at the same time


def test_clear_reset_cleans_what_it_can_without_knowing_the_task(run_tasks, pytester):
    """clear-and-clean deletes what the baseline lacks (the hidden file); the clock, which is
    not durable state, stays where the episode left it: best effort. The data of an app no task
    used is neither compared nor cleared."""
    run = run_tasks({"test_left.py": LEFTOVER_TASKS}, "--agent=oracle", "-p", "no:randomly", "--mobile-reset=clear")
    run.result.assert_outcomes(passed=3)
    found = seen(pytester)
    assert [".left-behind" in s["download"] for s in found] == [False, False, False]
    assert len({s["clock"] for s in found}) == 2  # the first task's clock, then 2031 twice
    assert [".mine" in s["other app"] for s in found] == [False, True, True]


CHANGE_A_KEPT_FILE = """
import pytest
from pytest_mobile_agent import Tap, task

CALC = "com.simplemobiletools.calculator"


@pytest.fixture
def scribble(device):
    device.sh("echo changed > /sdcard/Download/keep.txt")


@pytest.mark.parametrize("n", [1, 2])
@task(prompt="Type {n} on the calculator", app=CALC, golden=lambda n: [Tap(text=str(n)), Tap(text="=")])
def test_type(scribble, ui, n):
    assert ui.text_of("result") == str(n)
"""


def test_clear_reset_that_cannot_restore_the_baseline_is_an_infrastructure_error(run_tasks):
    with virtual_devices(1) as (vdev,):
        subprocess.run(
            [adb_server.adb_path(), "-s", vdev.serial, "shell", "echo kept > /sdcard/Download/keep.txt"],
            check=True,
            timeout=30,
        )
        run = run_tasks(
            {"test_keep.py": CHANGE_A_KEPT_FILE},
            "--agent=oracle",
            "-p",
            "no:randomly",
            f"--devices={vdev.serial}",
            "--mobile-reset=clear",
            "--mobile-retries=0",
        )
        run.result.assert_outcomes(passed=1, errors=1)
        run.result.stdout.fnmatch_lines(
            [
                "*clear-and-clean did not bring back the state of its first reset*",
                "*files:*",
                "*~ Download/keep.txt: *",
            ]
        )


def test_a_bad_reset_value_is_a_usage_error(run_tasks):
    run = run_tasks({"test_left.py": LEFTOVER_TASKS}, "--agent=oracle", "--mobile-reset=wipe")
    assert run.result.ret == 4
    run.result.stderr.fnmatch_lines(["*--mobile-reset='wipe': expected one of snapshot, clear*"])


def test_a_device_without_a_console_falls_back_to_clear_or_refuses_snapshot(run_tasks, pytester):
    """The same virtual device reached as `adb connect HOST:PORT` has no console to find: by
    default it gets clear-and-clean; an explicit --mobile-reset=snapshot is an error naming it."""
    with virtual_devices(1) as (vdev,):
        address = f"127.0.0.1:{vdev.port}"
        adb_server.connect(address)
        try:
            run = run_tasks(
                {"test_left.py": LEFTOVER_TASKS}, "--agent=oracle", "-p", "no:randomly", f"--devices={address}"
            )
            run.result.assert_outcomes(passed=3)
            assert len({s["clock"] for s in seen(pytester)}) == 2  # clear: the clock is not put back
            run = run_tasks(
                {"test_left.py": LEFTOVER_TASKS},
                "--agent=oracle",
                f"--devices={address}",
                "--mobile-reset=snapshot",
                "--mobile-retries=0",
            )
            run.result.assert_outcomes(errors=3)
            run.result.stdout.fnmatch_lines([f"*--mobile-reset=snapshot: {address} has no emulator console*"])
        finally:
            adb_server.disconnect(address)


def test_a_given_up_device_is_forgotten_so_a_new_one_on_its_serial_saves_anew() -> None:
    """A device the pool gave up may be followed by one on the same port, so the same serial,
    without its base snapshot: what the resets knew of the serial goes with the loss, once."""
    from pytest_mobile_agent.device.reset import DeviceResets, SnapshotReset

    resets = DeviceResets()
    resets.by_serial = {"emulator-5554": SnapshotReset(port=5554), "emulator-5556": SnapshotReset(port=5556)}
    lost: list[str] = []
    resets.forget_lost(lost)
    assert set(resets.by_serial) == {"emulator-5554", "emulator-5556"}
    lost.append("emulator-5554")
    resets.forget_lost(lost)
    assert set(resets.by_serial) == {"emulator-5556"}
    resets.by_serial["emulator-5554"] = SnapshotReset(port=5554)  # its successor saved its own
    resets.forget_lost(lost)  # the same loss is not forgotten twice
    assert set(resets.by_serial) == {"emulator-5554", "emulator-5556"}
