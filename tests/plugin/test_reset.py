"""`--mobile-reset`: the base snapshot on devices with an emulator console (virtual devices
register as emulators), clear-and-clean on request or where there is no console."""

from __future__ import annotations

import json

from pytest_mobile_agent.device import adb_server
from pytest_mobile_agent.virtual import virtual_devices

# Each task's precondition fixture notes what it finds in Download, then leaves a hidden file
# there and moves the clock: the trace a careless episode leaves on shared storage.
LEFTOVER_TASKS = """
import json
from pathlib import Path

import pytest
from pytest_mobile_agent import Tap, task

CALC = "com.simplemobiletools.calculator"
LOG = Path(__file__).parent / "seen.jsonl"


@pytest.fixture
def litter(device):
    seen = {"download": device.sh("ls -a /sdcard/Download").split(), "clock": device.sh("date +%s").strip()}
    with LOG.open("a") as f:
        f.write(json.dumps(seen) + "\\n")
    device.sh("echo x > /sdcard/Download/.left-behind; date -s 2031-01-01T00:00:00")


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
    assert len({s["clock"] for s in found}) == 1  # and at the same time


def test_clear_reset_leaves_shared_storage_as_it_was(run_tasks, pytester):
    """clear-and-clean only clears the task's apps: what is left on /sdcard stays (best effort)."""
    run = run_tasks({"test_left.py": LEFTOVER_TASKS}, "--agent=oracle", "-p", "no:randomly", "--mobile-reset=clear")
    run.result.assert_outcomes(passed=3)
    found = seen(pytester)
    assert [".left-behind" in s["download"] for s in found] == [False, True, True]


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
            run = run_tasks({"test_left.py": LEFTOVER_TASKS}, "--agent=oracle", "-p", "no:randomly",
                            f"--devices={address}")
            run.result.assert_outcomes(passed=3)
            assert [".left-behind" in s["download"] for s in seen(pytester)][1:] == [True, True]
            run = run_tasks({"test_left.py": LEFTOVER_TASKS}, "--agent=oracle", f"--devices={address}",
                            "--mobile-reset=snapshot", "--mobile-retries=0")
            run.result.assert_outcomes(errors=3)
            run.result.stdout.fnmatch_lines([f"*--mobile-reset=snapshot: {address} has no emulator console*"])
        finally:
            adb_server.disconnect(address)
