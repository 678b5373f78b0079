"""Ended virtual devices leave nothing in `adb devices`: after a pytest session, and after a device
and the process that started it were both killed with SIGKILL (the next start sweeps it away)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from calc_tasks import SUMS, calc_tasks

from pytest_mobile_agent.device import adb_server
from pytest_mobile_agent.virtual import start_device
from pytest_mobile_agent.virtual.adb import registration

CALC_TASK = calc_tasks(SUMS[:1])

# A parent that starts a device, says its serial and pid, then waits to be killed.
PARENT = """
import sys
from pytest_mobile_agent.virtual import start_device
d = start_device()
print(d.serial, d.process.pid, d.root, flush=True)
sys.stdin.read()
"""


def listed(serial: str) -> str | None:
    return adb_server.state(serial)


def wait_for_state(serial: str, wanted: str | None, timeout: float = 10.0) -> str | None:
    deadline = time.monotonic() + timeout
    while (state := listed(serial)) != wanted and time.monotonic() < deadline:
        time.sleep(0.05)
    return state


def wait_until_offline(serial: str, timeout: float = 10.0) -> str | None:
    """Wait for a killed device to be listed offline. Another xdist worker's device start may
    sweep it first (its process is dead), which takes it off the list altogether."""
    deadline = time.monotonic() + timeout
    while (state := listed(serial)) == "device" and time.monotonic() < deadline:
        time.sleep(0.05)
    return state


def test_a_session_leaves_no_device_behind(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(test_calc=CALC_TASK)
    results = pytester.path / "results.jsonl"
    pytester.runpytest_subprocess(
        "-p", "no:cacheprovider", "--agent=oracle", f"--mobile-results={results}", timeout=300
    ).assert_outcomes(passed=1)
    records = [json.loads(line) for line in results.read_text().splitlines()]
    (serial,) = {r["serial"] for r in records if r["type"] == "episode"}
    assert listed(serial) is None
    assert not any(registration.directory().glob(f"*-{serial.replace(':', '_')}.json"))


def test_a_killed_device_whose_parent_died_is_swept_by_the_next_start() -> None:
    parent = subprocess.Popen([sys.executable, "-c", PARENT], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert parent.stdout is not None
    serial, pid, root = parent.stdout.readline().split()
    assert listed(serial) == "device"
    os.kill(int(pid), signal.SIGKILL)
    parent.kill()
    parent.wait()
    # Nobody is left to take it off: the adb server keeps it, offline, until a start sweeps it.
    assert wait_until_offline(serial) in ("offline", None)

    fresh = start_device()  # what the next session does first
    try:
        assert listed(serial) is None
        assert not Path(root).exists()
        assert listed(fresh.serial) == "device"
    finally:
        fresh.stop()
    assert listed(fresh.serial) is None


def test_a_device_killed_under_its_pool_is_taken_off_by_stop() -> None:
    device = start_device()
    device.kill()
    assert wait_until_offline(device.serial) in ("offline", None)
    device.stop()
    assert listed(device.serial) is None
    assert not device.root.exists()


def test_unregister_handles_both_serial_styles(tmp_path: Path) -> None:
    # An emulator-N the server does not know: no error, the record goes.
    registration.add("emulator-5554", 2**22 + 1, None)
    registration.unregister("emulator-5554")
    assert not any(registration.directory().glob(f"{registration.adb_server_port()}-emulator-5554.json"))
    # A HOST:PORT that the server does not know: no error, the record goes.
    registration.add("127.0.0.1:1", 2**22 + 1, tmp_path / "pma-vdev-gone")
    assert "127.0.0.1:1" in registration.sweep()
    assert "127.0.0.1:1" not in registration.sweep()


def test_a_device_whose_parent_died_takes_itself_off() -> None:
    parent = subprocess.Popen([sys.executable, "-c", PARENT], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert parent.stdout is not None
    serial, pid, root = parent.stdout.readline().split()
    parent.kill()  # a crashed xdist worker: its device notices (--watch-parent) and ends itself
    parent.wait()
    assert wait_for_state(serial, None) is None
    deadline = time.monotonic() + 10
    while registration.running(int(pid)) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not registration.running(int(pid))
    assert not Path(root).exists()
    assert not list(registration.directory().glob(f"*-{serial.replace(':', '_')}.json"))


def test_devices_listen_below_the_ephemeral_ports() -> None:
    """The adb server keeps reconnecting to a killed emulator's port; in the ephemeral range
    its own outgoing socket can get that port and connect to itself, listing the serial as
    `host` for good. A device's console and adbd ports (N, N+1) stay below that range."""
    from pytest_mobile_agent.virtual.adb.adbd import _ephemeral_low, _free_pair

    low = _ephemeral_low()
    pairs = [_free_pair("127.0.0.1") for _ in range(20)]
    try:
        ports = [(console.getsockname()[1], adbd.getsockname()[1]) for console, adbd in pairs]
    finally:
        for pair in pairs:
            for sock in pair:
                sock.close()
    assert all(console % 2 == 0 and adbd == console + 1 and adbd < low for console, adbd in ports), ports
    assert len(set(ports)) == len(ports)
    device = start_device()
    try:
        assert int(device.serial.split("-")[1]) + 1 == device.port < low
    finally:
        device.stop()


def test_a_record_whose_pid_now_belongs_to_another_process_is_swept(tmp_path: Path) -> None:
    """A device killed long ago may leave its pid to a new process: the sweep tells them apart
    by the process's start time, recorded with the pid."""
    me = os.getpid()
    registration.add("127.0.0.1:2", me, tmp_path / "pma-vdev-reused")  # recorded with my start time
    assert "127.0.0.1:2" not in registration.sweep()  # the same process: alive, kept
    record = registration.directory() / f"{registration.adb_server_port()}-127.0.0.1_2.json"
    data = json.loads(record.read_text())
    assert data["started"] == registration.started(me)
    record.write_text(json.dumps({**data, "started": str(int(data["started"]) - 1)}))  # an earlier process
    assert "127.0.0.1:2" in registration.sweep()
    assert not record.exists()
