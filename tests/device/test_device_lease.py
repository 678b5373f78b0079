"""Devices behind one adb server, shared by several hosts, are leased on the device itself: two
pytest sessions that do not share a file-lock directory (two hosts) never drive the same device."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from calc_tasks import calc_tasks

from pytest_mobile_agent.device import adb_server
from pytest_mobile_agent.device.android import AndroidDevice, HarnessAdbClient
from pytest_mobile_agent.device.lease import LEASE_DIR, DeviceLease
from pytest_mobile_agent.reporting import results
from pytest_mobile_agent.virtual import VirtualDevice, start_devices

# Every worker of both sessions leases its device, then waits until all four hold one: so all
# four leases are held at the same time, and the serials they name must all differ.
ROOM = """
import os, time, pathlib, pytest

@pytest.fixture(scope="session", autouse=True)
def _everyone_holds_a_device(mobile_pool):
    serial = mobile_pool.lease().serial
    room = pathlib.Path(os.environ["LEASE_ROOM"])
    (room / f"{os.environ['HOST_NAME']}-{os.getpid()}").write_text(serial)
    deadline = time.monotonic() + 120
    while len(list(room.iterdir())) < 4 and time.monotonic() < deadline:
        time.sleep(0.05)
"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def farm(monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[int, list[VirtualDevice]]]:
    """A private adb server (a device farm's) with four virtual devices behind it."""
    port = free_port()
    monkeypatch.setenv("ANDROID_ADB_SERVER_PORT", str(port))
    devices = start_devices(4)  # starts the server on that port, registers the devices there
    try:
        yield port, devices
    finally:
        for d in devices:
            d.stop()
        subprocess.run([adb_server.adb_path(), "-P", str(port), "kill-server"], capture_output=True, timeout=30)


def test_two_hosts_sharing_an_adb_server_never_share_a_device(farm, tmp_path: Path) -> None:
    port, devices = farm
    (tmp_path / "project").mkdir()
    (tmp_path / "project" / "test_calc.py").write_text(calc_tasks())
    (tmp_path / "project" / "conftest.py").write_text(ROOM)
    room = tmp_path / "room"
    room.mkdir()
    sessions = {}
    for host in ("host-a", "host-b"):
        tmp = tmp_path / host  # each host its own temporary folder: its file locks see only itself
        tmp.mkdir()
        env = {
            **os.environ,
            "TMPDIR": str(tmp),
            "LEASE_ROOM": str(room),
            "HOST_NAME": host,
            "PYTHONPATH": os.pathsep.join(sys.path),
        }
        command = [
            sys.executable,
            "-m",
            "pytest",
            "-p",
            "no:cacheprovider",
            "-q",
            "-n",
            "2",
            "--agent=oracle",
            f"--devices=remote:127.0.0.1:{port}",
            f"--mobile-results={tmp_path / host}.jsonl",
            "--rootdir",
            str(tmp_path / "project"),
            str(tmp_path / "project"),
        ]
        sessions[host] = subprocess.Popen(
            command, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=tmp_path / "project"
        )
    outputs = {host: p.communicate(timeout=600)[0] for host, p in sessions.items()}
    for host, p in sessions.items():
        assert p.returncode == 0, outputs[host]

    held = {f.name: f.read_text() for f in room.iterdir()}
    assert len(held) == 4 and len(set(held.values())) == 4, held  # four workers at once: four devices
    used = {
        host: {r["serial"] for r in results.read(tmp_path / f"{host}.jsonl") if r["type"] == "episode"}
        for host in sessions
    }
    assert used["host-a"] and used["host-b"] and not used["host-a"] & used["host-b"], used
    assert used["host-a"] | used["host-b"] <= {d.serial for d in devices}
    client = HarnessAdbClient(host="127.0.0.1", port=port)
    for d in devices:  # every lease was handed back
        assert AndroidDevice(d.serial, client).sh(f"ls {LEASE_DIR} 2>/dev/null; echo end").strip() == "end"


def test_a_lease_excludes_others_until_released_or_stale(vdevice: VirtualDevice) -> None:
    client = HarnessAdbClient(host="127.0.0.1", port=adb_server.server_port())
    first = DeviceLease(vdevice.serial, client, ttl=2, grace=0.5, holder="host-1/1/aa")
    second = DeviceLease(vdevice.serial, client, ttl=2, grace=0.5, holder="host-2/2/bb")
    try:
        assert first.try_acquire()
        assert not second.try_acquire()
        assert first.current()[0] == "host-1/1/aa"
        first.release()
        assert first.current() is None
        assert second.try_acquire()  # released: free at once

        second._stop.set()  # the host of the second lease stops renewing it (crashed)
        assert not first.try_acquire()  # not expired yet
        time.sleep(2.6)
        assert first.try_acquire()  # expired past the grace: broken and taken
        assert not second.renew() and not second.held  # the old holder learns it lost the device
    finally:
        first.release()
        second.release()


def test_a_reset_that_rolls_the_lease_away_is_renewed(vdevice: VirtualDevice) -> None:
    client = HarnessAdbClient(host="127.0.0.1", port=adb_server.server_port())
    mine = DeviceLease(vdevice.serial, client, holder="host-1/1/cc")
    other = DeviceLease(vdevice.serial, client, holder="host-2/2/dd")
    try:
        assert mine.try_acquire()
        mine._sh(f"rm -r {LEASE_DIR}")  # a snapshot load from before the lease
        assert mine.renew() and mine.current()[0] == "host-1/1/cc"
        mine._sh(f"rm -r {LEASE_DIR}")
        assert other.try_acquire()  # another host got in first
        assert not mine.renew()
    finally:
        mine.release()
        other.release()
    assert other.current() is None


def test_the_lease_of_a_dead_process_of_this_host_is_broken_at_once(vdevice: VirtualDevice) -> None:
    client = HarnessAdbClient(host="127.0.0.1", port=adb_server.server_port())
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    ghost = DeviceLease(vdevice.serial, client, holder=f"{socket.gethostname()}/{dead.stdout.strip()}/ee")
    heir = DeviceLease(vdevice.serial, client)
    try:
        assert ghost.try_acquire()
        ghost._stop.set()
        assert heir.try_acquire()  # no need to wait for the expiry
    finally:
        heir.release()
        ghost.release()
