"""Start and stop virtual devices from Python (the plugin, the tests, the benchmarks).

Each device is its own process with its own temporary root; `stop()` ends the process,
takes the device off the adb server and removes the root, so nothing is left running or
written elsewhere. Devices start in parallel. A caller that can start processes faster (the
harness's warm start forks them from a process that has imported the device already) hands in
a `spawn` function; without one, or where it declines, each device is a new Python.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Protocol

from pytest_mobile_agent.virtual.adb import registration

# The line a device prints once it is online (the device side prints it in __main__). Kept here
# so starting devices does not import the device model into the caller's process.
READY = "pytest-mobile-agent virtual device ready"

START_TIMEOUT = 60.0


def new_root() -> Path:
    """A fresh device root, in RAM where the machine has /dev/shm: a device's files are few and
    small, and a snapshot restore on a disk filesystem spends most of its time in the journal
    (deleting two files and a folder: 12 ms on ext4, 0.5 ms on tmpfs)."""
    shm = "/dev/shm"
    parent = shm if os.path.isdir(shm) and os.access(shm, os.W_OK) else None
    return Path(tempfile.mkdtemp(prefix="pma-vdev-", dir=parent))


class VirtualDeviceError(RuntimeError):
    """A virtual device that did not come up: infrastructure, like a phone that does not boot."""


class Process(Protocol):
    """A device process, as subprocess.Popen drives one: its output (stdout and stderr on one
    text pipe), its exit status, and signals."""

    @property
    def pid(self) -> int: ...
    @property
    def stdout(self) -> IO[str] | None: ...
    @property
    def returncode(self) -> int | None: ...
    def poll(self) -> int | None: ...
    def wait(self, timeout: float | None = None) -> int: ...
    def send_signal(self, sig: int) -> None: ...
    def kill(self) -> None: ...


# Starts `python -m pytest_mobile_agent.virtual ARGV` some faster way; None: it cannot here.
Spawn = Callable[[list[str]], Process | None]


@dataclass
class VirtualDevice:
    """A running virtual device process."""

    serial: str
    port: int
    root: Path
    process: Process = field(repr=False)
    _log: list[str] = field(default_factory=list, repr=False)

    @property
    def alive(self) -> bool:
        return self.process.poll() is None

    def stop(self, timeout: float = 10.0) -> None:
        if self.alive:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout)
        if self.process.returncode != 0:  # a clean exit has taken itself off the adb server; a killed one cannot
            registration.unregister(self.serial)
        shutil.rmtree(self.root, ignore_errors=True)

    def kill(self) -> None:
        """Die abruptly, like a phone pulled off the cable (for failure tests)."""
        if self.alive:
            self.process.kill()
            self.process.wait()


def _spawn(args: Sequence[str], root: Path, spawn: Spawn | None) -> Process:
    # --watch-parent: the device ends itself when this process dies, so a crashed worker leaves
    # no device behind (PR_SET_PDEATHSIG would follow the spawning thread, not the process).
    argv = ["--root", str(root), *args, "--watch-parent", str(os.getpid())]
    spawned = spawn(argv) if spawn is not None else None
    if spawned is not None:
        return spawned
    return subprocess.Popen(
        [sys.executable, "-m", "pytest_mobile_agent.virtual", *argv],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env=os.environ.copy(),
        start_new_session=True,
    )


def _await_ready(proc: Process, root: Path, timeout: float) -> VirtualDevice:
    lines: list[str] = []
    result: list[VirtualDevice] = []
    ready = threading.Event()

    def read() -> None:
        # One reader for the device's whole life: it keeps draining the pipe so the device never
        # blocks on it, and closes it at end of file.
        assert proc.stdout is not None
        with proc.stdout:
            for line in proc.stdout:
                lines.append(line.rstrip())
                if not result and line.startswith(READY):
                    fields = dict(p.split("=", 1) for p in line.split(": ", 1)[1].split())
                    result.append(VirtualDevice(fields["serial"], int(fields["port"]), root, proc, lines))
                    ready.set()
        ready.set()

    threading.Thread(target=read, daemon=True, name="vdev-output").start()
    ready.wait(timeout)
    if not result:
        proc.kill()
        shutil.rmtree(root, ignore_errors=True)
        detail = "\n".join(lines[-20:]) or "(no output)"
        raise VirtualDeviceError(f"virtual device did not come up within {timeout:.0f}s:\n{detail}")
    return result[0]


def start_devices(
    count: int = 1, *, args: Sequence[str] = (), timeout: float = START_TIMEOUT, spawn: Spawn | None = None
) -> list[VirtualDevice]:
    """Start `count` devices in parallel; extra CLI `args` go to each (e.g. ["--size", "720x1600"]);
    `spawn` starts their processes where it can."""
    registration.ensure_server()
    registration.sweep()  # devices of earlier runs that were killed before they could unregister
    started = []
    for _ in range(count):
        root = new_root()
        started.append((_spawn(args, root, spawn), root))
    devices: list[VirtualDevice] = []
    try:
        for proc, root in started:
            devices.append(_await_ready(proc, root, timeout))
    except VirtualDeviceError:
        for d in devices:
            d.stop()
        for proc, root in started[len(devices) + 1 :]:
            proc.kill()
            shutil.rmtree(root, ignore_errors=True)
        raise
    return devices


def start_device(
    *, args: Sequence[str] = (), timeout: float = START_TIMEOUT, spawn: Spawn | None = None
) -> VirtualDevice:
    return start_devices(1, args=args, timeout=timeout, spawn=spawn)[0]


@contextmanager
def virtual_devices(
    count: int = 1, *, args: Sequence[str] = (), spawn: Spawn | None = None
) -> Iterator[list[VirtualDevice]]:
    devices = start_devices(count, args=args, spawn=spawn)
    try:
        yield devices
    finally:
        for d in devices:
            d.stop()
