"""Each xdist worker and its virtual device share one CPU of their own (parallel/cpu_pinning.py)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from pytest_mobile_agent.parallel.cpu_pinning import pin, worker_cpu

CPUS = sorted(os.sched_getaffinity(0))


@pytest.mark.parametrize(
    "worker, count, cpus, expected",
    [
        ("gw0", 2, [0, 1], 0),
        ("gw1", 2, [0, 1], 1),
        ("gw2", 2, [0, 1], 0),  # xdist's replacement for a crashed worker wraps around
        ("gw1", 2, [6, 4], 6),  # the CPUs this process may use, in order
        ("gw0", 1, [0, 1], None),  # a lone worker shares with nobody
        ("gw0", 3, [0, 1], None),  # more workers than CPUs: pinning would share them unevenly
        (None, 2, [0, 1], None),  # not an xdist worker
        ("master", 2, [0, 1], None),
    ],
)
def test_worker_cpu(worker: str | None, count: int, cpus: list[int], expected: int | None) -> None:
    assert worker_cpu(worker, count, cpus) == expected


def test_pin_reaches_every_thread_of_a_process() -> None:
    code = "import threading, time; threading.Thread(target=time.sleep, args=(30,)).start(); print(1, flush=True)"
    child = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
    try:
        assert child.stdout is not None and child.stdout.readline().strip() == "1"  # its thread runs
        tids = [int(t) for t in os.listdir(f"/proc/{child.pid}/task")]
        assert len(tids) >= 2
        pin([child.pid], CPUS[-1])
        assert {tid: os.sched_getaffinity(tid) for tid in tids} == {tid: {CPUS[-1]} for tid in tids}
    finally:
        child.kill()
        child.wait()


REPORT_AFFINITY = """
import json, os

def cmdline(pid):
    try:
        with open(f"/proc/{pid}/cmdline") as f:
            return f.read() + "\\0"
    except OSError:
        return ""  # a process that ended between the listing and the read


def test_where(mobile_pool, tmp_path_factory):
    mobile_pool.lease()
    device_pid = next(
        int(pid) for pid in os.listdir("/proc") if pid.isdigit()
        and "pytest_mobile_agent.virtual" in cmdline(pid)
        and f"--watch-parent\\0{os.getpid()}\\0" in cmdline(pid)
    )
    out = os.path.join(os.environ["AFFINITY_DIR"], os.environ["PYTEST_XDIST_WORKER"] + ".json")
    with open(out, "w") as f:
        json.dump({"worker": sorted(os.sched_getaffinity(0)), "device": sorted(os.sched_getaffinity(device_pid))}, f)
"""


def _affinities(pytester: pytest.Pytester, *args: str) -> dict[str, dict[str, list[int]]]:
    pytester.makepyfile(test_where=REPORT_AFFINITY)
    out = pytester.path / "affinity"
    out.mkdir()
    os.environ["AFFINITY_DIR"] = str(out)
    try:
        result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "-n", "2", "--dist", "each", *args)
    finally:
        del os.environ["AFFINITY_DIR"]
    result.assert_outcomes(passed=2)
    return {p.stem: json.loads(p.read_text()) for p in out.iterdir()}


def test_two_workers_and_their_devices_get_a_cpu_each(pytester: pytest.Pytester) -> None:
    found = _affinities(pytester)
    if len(CPUS) < 2:  # one CPU: nothing to pin
        assert found == {w: {"worker": CPUS, "device": CPUS} for w in ("gw0", "gw1")}
    else:
        first, second = CPUS[:1], CPUS[1:2]
        assert found == {"gw0": {"worker": first, "device": first}, "gw1": {"worker": second, "device": second}}


def test_pinning_off_leaves_the_scheduler_free(pytester: pytest.Pytester) -> None:
    found = _affinities(pytester, "--mobile-cpu-pinning=off")
    assert found == {w: {"worker": CPUS, "device": CPUS} for w in ("gw0", "gw1")}


def test_a_bad_pinning_value_is_a_usage_error(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(test_nothing="def test_nothing(): pass")
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "--mobile-cpu-pinning=yes")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*--mobile-cpu-pinning='yes': expected auto or off*"])
