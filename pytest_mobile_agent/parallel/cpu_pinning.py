"""One CPU of its own for each xdist worker and the virtual device it drives.

A worker and its device take turns: the worker waits while the device handles a command, the
device waits while the worker thinks. One such pair never needs two CPUs at once, but left to
the scheduler the pairs of two workers often pile onto one CPU while another idles (a wake-up
prefers the waker's CPU). Pinning each pair to its own CPU keeps every CPU busy; the xdist
controller and the adb server, shared by all pairs, stay free to run anywhere.

Pinning applies only when it can help: on Linux, with virtual devices (a real device does its
work elsewhere), and with two or more workers but no more than the CPUs this process may use
(a lone worker has nobody to share with; surplus workers would share CPUs unevenly).
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Sequence


def worker_cpu(worker_id: str | None, worker_count: int, cpus: Sequence[int]) -> int | None:
    """The CPU for xdist worker `worker_id` (gw0, gw1, ...), or None where pinning would not help."""
    match = re.fullmatch(r"gw(\d+)", worker_id or "")
    if match is None or not 2 <= worker_count <= len(cpus):
        return None
    # A worker xdist starts to replace a crashed one gets a new number: wrap around.
    return sorted(cpus)[int(match.group(1)) % len(cpus)]


def pin(pids: Iterable[int], cpu: int) -> None:
    """Pin every thread of these processes to `cpu`; threads and processes they start later
    inherit it. A process that has already ended is skipped."""
    for pid in pids:
        try:
            tids = os.listdir(f"/proc/{pid}/task")
        except OSError:
            continue
        for tid in tids:
            try:
                os.sched_setaffinity(int(tid), {cpu})
            except OSError:  # the thread ended meanwhile
                pass


def pin_worker(device_pid: int | None) -> int | None:
    """Pin this xdist worker and its device's process; returns the CPU, None if not pinned."""
    if not hasattr(os, "sched_setaffinity"):
        return None
    count = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT") or 0)
    cpu = worker_cpu(os.environ.get("PYTEST_XDIST_WORKER"), count, tuple(os.sched_getaffinity(0)))
    if cpu is not None:
        pin([os.getpid()] + ([device_pid] if device_pid else []), cpu)
    return cpu
