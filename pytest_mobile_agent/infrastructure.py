"""Telling the infrastructure's failures from the agent's, wherever they surface.

A device can die during a reset, a precondition fixture, an action, a dump, a screenshot or an
event-stream barrier; an xdist worker can die with its task. Each of these is infrastructure:
the attempt is recorded (termination `infrastructure`, never counted against the agent) and the
task runs again where --mobile-retries allows. Classification follows the exception's type (an
`InfrastructureFault` anywhere in its chain), and for any other error outside the verdict, asks
the device whether it is still there.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest

from pytest_mobile_agent.errors import DeviceLost, InfrastructureFault

# Set on a report (it travels to the xdist controller with the report's other attributes).
REPORT_FLAG = "mobile_infrastructure"


def fault_in(exc: BaseException | None) -> InfrastructureFault | None:
    """The InfrastructureFault that `exc` is, or was raised from (its cause or context)."""
    seen: set[int] = set()
    while exc is not None and id(exc) not in seen:
        if isinstance(exc, InfrastructureFault):
            return exc
        seen.add(id(exc))
        exc = exc.__cause__ or exc.__context__
    return None


def device_gone(pool: Any) -> bool:
    """True when this process's leased device no longer answers (one adb round trip)."""
    device = getattr(pool, "device", None)
    return device is not None and not device.alive()


def give_up_if_lost(pool: Any, exc: BaseException | None = None) -> None:
    """Give up the leased device when the fault was the device's (the retry takes another one);
    keep a device that still answers when the fault lay elsewhere (a model endpoint that stayed
    down), rather than booting a new one for nothing."""
    if pool is None or getattr(pool, "device", None) is None:
        return
    fault = fault_in(exc)
    if fault is not None and not isinstance(fault, DeviceLost) and not device_gone(pool):
        return
    pool.give_up()


def is_infrastructure(exc: BaseException, pool: Any) -> bool:
    """An error outside the verdict is infrastructure when it is (or comes from) an
    InfrastructureFault, or when the device is gone: a precondition fixture that drives adb
    itself sees a raw `AdbError: device offline`, not a DeviceLost."""
    if fault_in(exc) is not None:
        return True
    if isinstance(exc, AssertionError | pytest.skip.Exception | pytest.fail.Exception | KeyboardInterrupt):
        return False
    return device_gone(pool)


def flagged(report: Any) -> bool:
    """A failed report whose failure was the infrastructure's (the attempt runs again)."""
    return report.failed and bool(getattr(report, REPORT_FLAG, False))


def lost_on_error(fn: Callable[[], Any], serial: str) -> Callable[[], Any]:
    """Wrap an adb-level call (the event stream's barrier) so that a raw adb or socket error
    surfaces as DeviceLost, as the device's own calls do."""
    from adbutils import AdbError

    def call() -> Any:
        try:
            return fn()
        except (AdbError, OSError) as exc:
            raise DeviceLost(f"device {serial} lost during an event-stream barrier: {exc}") from exc

    return call


def one_line(text: str | None, width: int = 160) -> str:
    first = (text or "").strip().splitlines()[0] if (text or "").strip() else ""
    return first if len(first) <= width else first[: width - 1] + "…"


def task_name_of(nodeid: str) -> str:
    """What a results line can say of a task from its node id alone (the xdist controller, which
    does not collect): the parameter id, else the function name."""
    m = re.search(r"\[(.*)\]$", nodeid)
    return m.group(1) if m else nodeid.rsplit("::", 1)[-1]


def crash_record(nodeid: str, message: str) -> dict[str, Any]:
    """The results line of an episode whose xdist worker died: written by the controller, which
    knows the node id and little else (the worker, its device and its trajectory are gone)."""
    return {
        "type": "episode",
        "nodeid": nodeid,
        "task": task_name_of(nodeid),
        "prompt": None,
        "apps": [],
        "app": None,
        "difficulty": None,
        "agent": None,
        "model": None,
        "serial": None,
        "success": False,
        "success_step": None,
        "steps": 0,
        "golden_steps": None,
        "budget": None,
        "invalid_steps": 0,
        "termination": "infrastructure",
        "error": message,
        "traceback": None,
        "failure_message": message,
        "se": None,
        "premature": False,
        "overdue": False,
        "infrastructure": True,
        "retried": False,
        "tokens_in": 0,
        "tokens_out": 0,
        "tokens_estimated": False,
        "cost_usd": None,
        "latency_s": None,
        "agent_s": 0.0,
        "device_s": 0.0,
        "harness_s": 0.0,
        "wall_s": 0.0,
        "reset_s": 0.0,
        "time_per_step_s": None,
        "cost_per_step_usd": None,
        "extra": {},
    }


def summary_lines(records: list[dict[str, Any]]) -> list[str]:
    """The terminal's one line for each attempt the infrastructure lost."""
    lines = []
    for i, record in enumerate(records):
        if not record["infrastructure"]:
            continue
        where = f" on {record['serial']}" if record.get("serial") else ""
        rerun = any(r["nodeid"] == record["nodeid"] for r in records[i + 1 :])
        then = "ran again" if rerun else "not run again (--mobile-retries spent)"
        lines.append(
            f"infrastructure: {record['nodeid']}{where}: {one_line(record['error'], 120)}; {then}; not counted"
        )
    return lines
