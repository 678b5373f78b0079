"""The summary table printed at the end of the session, and one-line messages for the terminal."""

from __future__ import annotations

from typing import Any

COLUMNS = (
    ("N", "episodes", "{:d}"),
    ("SR", "SR", "{:.2f}"),
    ("SE", "SE", "{:.2f}"),
    ("lat s", "latency_s", "{:.2f}"),
    ("tokens", "tokens", "{:.0f}"),
    ("FFR", "FFR", "{:.2f}"),
    ("OER", "OER", "{:.2f}"),
    ("done%", "completed_share", "{:.0%}"),
    ("max%", "max_steps_share", "{:.0%}"),
    ("err%", "error_share", "{:.0%}"),
    ("PTR", "PTR", "{:.2f}"),
    ("OTR", "OTR", "{:.2f}"),
    ("side%", "side_effect_rate", "{:.0%}"),
    ("s/step", "time_per_step_s", "{:.3f}"),
    ("$/step", "cost_per_step_usd", "{:.4f}"),
    ("infra", "infrastructure_errors", "{:d}"),
)


def _cell(value: Any, fmt: str) -> str:
    return "-" if value is None else fmt.format(value)


def table(summary: dict[str, Any]) -> list[str]:
    rows: list[tuple[str, dict[str, Any]]] = [("all", summary["overall"])]
    rows += [(f"app {k}", v) for k, v in summary["by_app"].items()]
    rows += [(f"difficulty {k}", v) for k, v in summary["by_difficulty"].items()]
    cells = [[name] + [_cell(agg[key], fmt) for _, key, fmt in COLUMNS] for name, agg in rows]
    header = ["group"] + [title for title, _, _ in COLUMNS]
    widths = [max(len(r[i]) for r in [header, *cells]) for i in range(len(header))]

    def line(r: list[str]) -> str:
        return "  ".join(c.ljust(widths[0]) if i == 0 else c.rjust(widths[i]) for i, c in enumerate(r))

    return [line(header), line(["-" * w for w in widths]), *(line(r) for r in cells)]


def one_line(text: str | None, width: int = 160) -> str:
    """The first line of `text`, cut to `width` characters."""
    first = (text or "").strip().splitlines()[0] if (text or "").strip() else ""
    return first if len(first) <= width else first[: width - 1] + "…"
