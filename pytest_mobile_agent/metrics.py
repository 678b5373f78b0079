"""Per-episode metrics and their aggregate over a session, grouped by app and difficulty.

MobileAgentBench (seeds 000/002):
- SR = successes / tasks.
- SE = steps taken / minimum (golden) steps, over successful tasks only (1.0 is ideal).
- Latency = mean seconds per step (agent + device + harness: the wait between two actions).
- Tokens = mean input + output tokens per task (reported by the agent, else estimated by
  MobileAgentBench's rule; `tokens_estimated` then says so, and the table shows "est.").
- FFR = early-stopped failures / failures (the agent said "done" but the task was not done).
- OER = late-stopped successes / successes (the task was done but the agent ran into the budget).
SPA-Bench (seed 004): success, step ratio on success (same as SE), termination-reason shares
(self-reported completion SRC, max steps MSR, error), PTR = premature / SRC, OTR = overdue / MSR,
time and cost per step.
Per episode, SPA-Bench's `premature` (said done, failed) is MobileAgentBench's early stop and
`overdue` (ran into the budget, succeeded) its late stop: the two benchmarks differ only in the
denominators (FFR: failures, PTR: completions; OER: successes, OTR: budget exhaustions).
Infrastructure errors (a device lost) are counted apart and left out of every agent metric.
SR comes with its 95% Wilson interval; with --mobile-repeat the summary adds the spread of SR
between repeats, pass@k and pass^k and each task's passes of its runs (stats.py; the formulas are
on the docs' "Statistics" page).
"""

from __future__ import annotations

import json
import re
from collections import defaultdict
from collections.abc import Iterable
from statistics import mean
from typing import Any

from pytest_mobile_agent.episode import Episode
from pytest_mobile_agent.errors import COMPLETED, ERROR, INFRASTRUCTURE, INTERRUPTED, MAX_STEPS, TASK_ERROR
from pytest_mobile_agent.models.pricing import cost_of
from pytest_mobile_agent.stats import pass_at_k, pass_hat_k, spread, wilson
from pytest_mobile_agent.tasks import app_marker, without_repeat


def plain_params(params: dict[str, Any]) -> dict[str, Any]:
    """A task's parameters as JSON: values JSON holds as they are, others by their repr."""

    def plain(value: object) -> object:
        try:
            json.dumps(value)
        except (TypeError, ValueError):
            return repr(value)
        return value

    return {k: plain(v) for k, v in params.items()}


def episode_record(
    ep: Episode,
    *,
    nodeid: str,
    prices: dict[str, tuple[float, float]],
    fingerprint: dict[str, Any] | None = None,
    fingerprint_id: str | None = None,
) -> dict[str, Any]:
    """One flat JSON-able record per episode (the results file line and the report payload);
    `fingerprint`: what decided it (reporting/fingerprint.py)."""
    steps = len(ep.steps)
    success = bool(ep.success)
    tokens_in = sum(s.tokens_in for s in ep.steps)
    tokens_out = sum(s.tokens_out for s in ep.steps)
    cost = cost_of(ep.model, tokens_in, tokens_out, prices)
    step_time = [s.agent_s + s.device_s + s.harness_s for s in ep.steps]
    return {
        "type": "episode",
        "nodeid": nodeid,
        "task": ep.task.name,
        "variation": ep.task.variation,  # None: the task as declared
        "repeat": ep.task.repeat,  # None: --mobile-repeat not given
        "params": plain_params(ep.task.params) if ep.task.variation is not None else None,  # the drawn values
        "prompt": ep.task.prompt,
        "apps": list(ep.task.apps),
        "app": app_marker(ep.task.apps[0]) if ep.task.apps else "home",  # a task that names no app
        "difficulty": ep.task.difficulty,
        "agent": ep.agent,
        "model": ep.model,
        "serial": ep.serial,
        "success": success,
        "success_step": ep.success_step,
        "steps": steps,
        "golden_steps": ep.task.golden_steps,
        "budget": ep.budget,
        "invalid_steps": ep.invalid_steps,
        "termination": ep.termination,
        "error": ep.error,
        "traceback": ep.traceback,  # the agent's own frames when it raised (the body's, for a task error)
        "failure_message": ep.failure_message,
        "se": steps / ep.task.golden_steps if success and ep.task.golden_steps else None,  # 0: none given
        "premature": ep.termination == COMPLETED and not success,  # SPA-Bench; MobileAgentBench's early stop
        "overdue": ep.termination == MAX_STEPS and success,  # SPA-Bench; MobileAgentBench's late stop
        "infrastructure": ep.termination == INFRASTRUCTURE,
        "retried": ep.retried,
        "tokens_in": tokens_in,
        "tokens_out": tokens_out,
        "tokens_estimated": any(s.tokens_estimated for s in ep.steps),
        "cost_usd": cost,
        "latency_s": mean(step_time) if step_time else None,
        "agent_s": sum(s.agent_s for s in ep.steps),
        "device_s": sum(s.device_s for s in ep.steps),
        "harness_s": sum(s.harness_s for s in ep.steps),
        "wall_s": ep.wall_s,
        "reset_s": ep.reset_s,
        "time_per_step_s": mean(step_time) if step_time else None,
        "cost_per_step_usd": cost / steps if cost is not None and steps else None,
        "body_success": ep.body_success,
        "side_effects": ep.side_effects,  # undeclared durable changes; None: not measured
        "judges": ep.judges,
        "fingerprint": fingerprint,
        "fingerprint_id": fingerprint_id,
        "extra": {},
    }


def crash_record(
    nodeid: str,
    message: str,
    *,
    agent: bool = False,
    fingerprint: dict[str, Any] | None = None,
    fingerprint_id: str | None = None,
) -> dict[str, Any]:
    """The results line of an episode whose xdist worker died: written by the controller, which
    knows the node id and little else (the worker, its device and its trajectory are gone).
    `agent`: the agent's code held control when it died, so the crash is the agent's error."""
    return {
        "type": "episode",
        "nodeid": nodeid,
        "task": _task_name_of(nodeid),
        "variation": None,
        "params": None,
        "repeat": None,
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
        "termination": ERROR if agent else INFRASTRUCTURE,
        "error": message,
        "traceback": None,
        "failure_message": message,
        "se": None,
        "premature": False,
        "overdue": False,
        "infrastructure": not agent,
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
        "fingerprint": fingerprint,
        "fingerprint_id": fingerprint_id,
        "extra": {},
    }


def _task_name_of(nodeid: str) -> str:
    """What a results line can say of a task from its node id alone (the xdist controller, which
    does not collect): the parameter id, else the function name."""
    nodeid = without_repeat(nodeid)  # the task, not its run: "expr", never "expr-r2"
    m = re.search(r"\[(.*)\]$", nodeid)
    return m.group(1) if m else nodeid.rsplit("::", 1)[-1]


def apply_model_usage(record: dict[str, Any], usage: dict[str, Any]) -> None:
    """An agent's own account of its model calls (`episode_usage()`, as the built-in model agents
    give) replaces the per-step token sums: it also counts calls no step shows (the final "done",
    step summaries, unreadable answers), exactly as the endpoint's `usage` reported them."""
    usage = dict(usage)
    if "tokens_in" in usage:
        record["tokens_in"], record["tokens_out"] = usage.pop("tokens_in"), usage.pop("tokens_out")
        record["tokens_estimated"] = bool(usage.get("model_estimated"))  # some answers had no usage
        record["cost_usd"] = usage.pop("cost_usd", None)
        steps = record["steps"]
        record["cost_per_step_usd"] = record["cost_usd"] / steps if record["cost_usd"] is not None and steps else None
    record.update(usage)


def _ratio(num: int, den: int) -> float | None:
    return num / den if den else None


def _mean(values: Iterable[float | None]) -> float | None:
    vals = [v for v in values if v is not None]
    return mean(vals) if vals else None


def counts(record: dict[str, Any]) -> bool:
    """Whether an episode counts for the agent: not lost to the infrastructure, not a task that
    could not run (e.g. an app not installed), not cut short by Ctrl-C."""
    return not record["infrastructure"] and record["termination"] not in (TASK_ERROR, INTERRUPTED)


def counted(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The episodes of `records` that count (`counts`)."""
    return [r for r in records if counts(r)]


def aggregate(records: list[dict[str, Any]]) -> dict[str, Any]:
    """The summary of a group of episode records (those `counted` leaves out are only counted)."""
    kept = counted(records)
    n = len(kept)
    wins = [r for r in kept if r["success"]]
    fails = [r for r in kept if not r["success"]]
    by_reason = {k: sum(r["termination"] == k for r in kept) for k in (COMPLETED, MAX_STEPS, ERROR)}
    step_times = [r["time_per_step_s"] for r in kept if r["steps"]]
    measured = [r for r in kept if r.get("side_effects") is not None]
    costs = [r["cost_usd"] for r in kept if r["cost_usd"] is not None]
    total_steps = sum(r["steps"] for r in kept)
    return {
        "episodes": n,
        "infrastructure_errors": sum(r["infrastructure"] for r in records),
        "task_errors": sum(r["termination"] == TASK_ERROR for r in records),
        "interrupted": sum(r["termination"] == INTERRUPTED for r in records),
        "successes": len(wins),
        "SR": _ratio(len(wins), n),
        "SR_interval": [*_interval(len(wins), n)] if n else None,  # 95% Wilson: [low, high]
        "SE": _mean(r["se"] for r in wins),
        "latency_s": _mean(step_times),
        "tokens": _mean(r["tokens_in"] + r["tokens_out"] for r in kept),
        # Any episode's tokens estimated (the agent reported no usage): the mean is an estimate.
        "tokens_estimated": any(r.get("tokens_estimated", False) for r in kept),
        "FFR": _ratio(sum(r["premature"] for r in fails), len(fails)),
        "OER": _ratio(sum(r["overdue"] for r in wins), len(wins)),
        "step_ratio": _mean(r["se"] for r in wins),
        "completed_share": _ratio(by_reason[COMPLETED], n),
        "max_steps_share": _ratio(by_reason[MAX_STEPS], n),
        "error_share": _ratio(by_reason[ERROR], n),
        "PTR": _ratio(sum(r["premature"] for r in kept), by_reason[COMPLETED]),
        # Unexpected side effects (MobileGym): episodes that changed what nobody asked for, of
        # those whose body held (where the undeclared changes are known).
        "side_effect_rate": _ratio(sum(bool(r["side_effects"]) for r in measured), len(measured)),
        "OTR": _ratio(sum(r["overdue"] for r in kept), by_reason[MAX_STEPS]),
        "time_per_step_s": _mean(step_times),
        "cost_per_step_usd": sum(costs) / total_steps if costs and total_steps else None,
        "cost_usd": sum(costs) if costs else None,
    }


def _interval(successes: int, n: int) -> tuple[float, float]:
    ci = wilson(successes, n)
    return ci.low, ci.high


def repeat_summary(records: list[dict[str, Any]]) -> dict[str, Any] | None:
    """What --mobile-repeat adds, or None when no record is a repeat: SR per repeat and their
    spread; pass@k and pass^k for k = 1..K, the mean over tasks of the unbiased estimators on each
    task's counted runs n and passes c (a task with fewer than k counted runs is left out of
    that k, and `left_out` says how many); each task's runs and passes, and the flaky tasks
    (some runs passed, some failed). A task is its node id without the `r{k}` component."""
    if not any(r.get("repeat") is not None for r in records):
        return None
    kept = counted(records)
    by_repeat: dict[int, list[bool]] = defaultdict(list)
    by_task: dict[str, list[bool]] = defaultdict(list)
    for r in kept:
        if r.get("repeat") is not None:
            by_repeat[r["repeat"]].append(bool(r["success"]))
        by_task[without_repeat(r["nodeid"])].append(bool(r["success"]))
    rates = {k: sum(v) / len(v) for k, v in sorted(by_repeat.items())}
    tasks = {t: {"runs": len(v), "passes": sum(v)} for t, v in sorted(by_task.items())}
    most = max(by_repeat, default=0)
    at_k: dict[str, dict[str, Any]] = {}
    for k in range(1, most + 1):
        fit = [t for t in tasks.values() if t["runs"] >= k]
        at_k[str(k)] = {
            "pass@k": _mean(pass_at_k(t["runs"], t["passes"], k) for t in fit),
            "pass^k": _mean(pass_hat_k(t["runs"], t["passes"], k) for t in fit),
            "tasks": len(fit),
            "left_out": len(tasks) - len(fit),
        }
    return {
        "repeats": most,
        "SR_by_repeat": {str(k): v for k, v in rates.items()},
        "SR_spread": spread(list(rates.values())),
        "pass_at_k": at_k,
        "tasks": tasks,
        "flaky": [t for t, v in tasks.items() if 0 < v["passes"] < v["runs"]],
    }


def agent_label(record: dict[str, Any]) -> str | None:
    """The agent an episode was run by, with its model when it names one."""
    if record.get("agent") is None:
        return None
    return f"{record['agent']} ({record['model']})" if record.get("model") else str(record["agent"])


def summarize(records: list[dict[str, Any]]) -> dict[str, Any]:
    """Overall, by app, by difficulty and by agent (a merge of several agents' runs): the terminal
    table and the results file both use this."""
    by_app: dict[str, list[dict[str, Any]]] = defaultdict(list)
    by_difficulty: dict[str, list[dict[str, Any]]] = defaultdict(list)
    by_agent: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for r in records:
        # A crashed xdist worker's attempt is known by its node id alone: it counts only overall.
        if r["app"] is not None:
            by_app[r["app"]].append(r)
        if r["difficulty"] is not None:
            by_difficulty[r["difficulty"]].append(r)
        label = agent_label(r)
        if label is not None:
            by_agent[label].append(r)
    order = {"easy": 0, "medium": 1, "hard": 2}
    return {
        "type": "aggregate",
        "overall": aggregate(records),
        "by_app": {k: aggregate(v) for k, v in sorted(by_app.items())},
        "by_difficulty": {
            k: aggregate(v) for k, v in sorted(by_difficulty.items(), key=lambda kv: order.get(kv[0], 9))
        },
        "by_agent": {k: aggregate(v) for k, v in sorted(by_agent.items())},
        "repeats": repeat_summary(records),
    }
