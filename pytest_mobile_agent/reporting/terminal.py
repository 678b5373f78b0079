"""The summary table printed at the end of the session, and one-line messages for the terminal."""

from __future__ import annotations

from typing import Any

# (title, the aggregate's key, format, what it is): the docs' reference table is made from this,
# so the names a user reads in the terminal and in the docs are the same.
COLUMNS = (
    ("N", "episodes", "{:d}", "episodes counted (infrastructure errors and task errors left out)"),
    ("SR", "SR", "{:.2f}", "success rate: successes / episodes"),
    ("SR 95%", "SR_interval", "[{0[0]:.2f}, {0[1]:.2f}]", "the success rate's 95% confidence interval (Wilson)"),
    ("SE", "SE", "{:.2f}", "steps / golden steps, over successes (1.00 is ideal)"),
    ("latency", "latency_s", "{:.2f}", "seconds per step: agent, device and harness"),
    ("tokens", "tokens", "{:.0f}", "input + output tokens per episode; `est.`: estimated (the agent reports no usage)"),
    ("FFR", "FFR", "{:.2f}", "failures the agent said were done (early stops) / failures"),
    ("OER", "OER", "{:.2f}", "successes that ran into the step budget (late stops) / successes"),
    ("SRC%", "completed_share", "{:.0%}", "share of episodes the agent ended itself (self-reported completion)"),
    ("MSR%", "max_steps_share", "{:.0%}", "share of episodes that ran into the step budget (max steps reached)"),
    ("error%", "error_share", "{:.0%}", "share of episodes ended by the agent failing (raised, hung, invalid actions)"),
    ("PTR", "PTR", "{:.2f}", "said done but failed / episodes the agent ended itself"),
    ("OTR", "OTR", "{:.2f}", "succeeded but ran into the budget / episodes that ran into it"),
    ("side%", "side_effect_rate", "{:.0%}", "share of held bodies with durable changes nobody declared"),
    ("time/step", "time_per_step_s", "{:.3f}", "seconds per step, as SPA-Bench times it"),
    ("cost/step", "cost_per_step_usd", "{:.4f}", "US dollars per step (a price table for the model)"),
    ("infra", "infrastructure_errors", "{:d}", "attempts lost to the infrastructure (retried, not counted)"),
)
ESTIMATED = " est."  # after a token count that MobileAgentBench's rule estimated


def _cell(value: Any, fmt: str) -> str:
    return "-" if value is None else fmt.format(value)


def _cells(agg: dict[str, Any]) -> list[str]:
    cells = [_cell(agg.get(key), fmt) for _, key, fmt, _ in COLUMNS]
    if agg.get("tokens_estimated") and agg.get("tokens") is not None:
        cells[[key for _, key, _, _ in COLUMNS].index("tokens")] += ESTIMATED
    return cells


def table(summary: dict[str, Any]) -> list[str]:
    rows: list[tuple[str, dict[str, Any]]] = [("all", summary["overall"])]
    rows += [(f"app {k}", v) for k, v in summary["by_app"].items()]
    rows += [(f"difficulty {k}", v) for k, v in summary["by_difficulty"].items()]
    agents = summary.get("by_agent", {})
    if len(agents) > 1:  # several agents' runs merged: each agent's row (one agent's is "all")
        rows += [(f"agent {k}", v) for k, v in agents.items()]
    cells = [[name, *_cells(agg)] for name, agg in rows]
    return aligned(["group"] + [title for title, _, _, _ in COLUMNS], cells)


def aligned(header: list[str], rows: list[list[str]]) -> list[str]:
    """A table's lines: the first column to the left, the others to the right, a rule under the header."""
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]

    def line(r: list[str]) -> str:
        return "  ".join(c.ljust(widths[0]) if i == 0 else c.rjust(widths[i]) for i, c in enumerate(r))

    return [line(header), line(["-" * w for w in widths]), *(line(r) for r in rows)]


def repeat_lines(repeats: dict[str, Any] | None) -> list[str]:
    """What --mobile-repeat adds below the table (metrics.repeat_summary): SR as mean +- spread
    between repeats, pass@k and pass^k, and the tasks that passed some runs and failed others."""
    if not repeats or not repeats["SR_by_repeat"]:
        return []
    rates = [100 * v for v in repeats["SR_by_repeat"].values()]
    per_repeat = ", ".join(f"r{k} {100 * v:.1f}" for k, v in repeats["SR_by_repeat"].items())
    lines = [
        f"repeats: {repeats['repeats']} runs of each task; SR % {sum(rates) / len(rates):.1f} "
        f"± {100 * repeats['SR_spread']:.1f} between repeats ({per_repeat})"
    ]
    ks = repeats["pass_at_k"]
    for name in ("pass@k", "pass^k"):
        cells = [f"k={k} {'-' if v[name] is None else f'{v[name]:.3f}'}" for k, v in ks.items()]
        lines.append(f"{name}: " + "  ".join(cells))
    short = [f"k={k}: {v['left_out']}" for k, v in ks.items() if v["left_out"]]
    if short:
        lines.append("tasks left out of a k (fewer counted runs than k): " + ", ".join(short))
    tasks = repeats["tasks"]
    every = sum(t["passes"] == t["runs"] for t in tasks.values())
    never = sum(t["passes"] == 0 for t in tasks.values())
    flaky = repeats["flaky"]
    lines.append(f"tasks: {len(tasks)}; passed every run {every}, flaky {len(flaky)}, failed every run {never}")
    lines += [f"flaky: {t} passed {tasks[t]['passes']} of {tasks[t]['runs']} runs" for t in flaky]
    return lines


def one_line(text: str | None, width: int = 160) -> str:
    """The first line of `text`, cut to `width` characters."""
    first = (text or "").strip().splitlines()[0] if (text or "").strip() else ""
    return first if len(first) <= width else first[: width - 1] + "…"
