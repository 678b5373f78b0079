"""Near misses per suite and family, as a Markdown table (docs/explanation/validity.md holds it).

Each near miss's label names its family (task_suites/shared/near_misses.py). A task counts once
per parametrization, as the near-miss gates run it; the SPA-Bench-style suite has a task per
language, the other two run the same tasks in both (their zh-CN gates). Run from the repository
root: `python scripts/near_miss_families.py`.
"""

from __future__ import annotations

import importlib
import math
import sys
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pytest_mobile_agent.tasks import spec_of  # noqa: E402
from task_suites.shared.near_misses import FAMILIES, OTHER, family_of  # noqa: E402

SUITES = {
    "MobileAgentBench": "mobileagentbench",
    "SPA-Bench-style": "spabench",
    "Mobile-Bench-style": "mobilebench",
}


def task_functions(folder: str) -> Iterator[Callable[..., Any]]:
    for path in sorted((ROOT / "task_suites" / folder).glob("test_*.py")):
        module = importlib.import_module(f"task_suites.{folder}.{path.stem}")
        for value in vars(module).values():
            if callable(value) and spec_of(value) is not None:
                yield value


def parametrizations(fn: Callable[..., Any]) -> int:
    marks = [m for m in getattr(fn, "pytestmark", []) if m.name == "parametrize"]
    return math.prod(len(m.args[1]) for m in marks) if marks else 1


def tally() -> dict[str, Counter[str]]:
    """Suite (with its language where tasks have one) -> family -> near misses."""
    rows: dict[str, Counter[str]] = {}
    for suite, folder in SUITES.items():
        for fn in task_functions(folder):
            spec = spec_of(fn)
            assert spec is not None
            row = f"{suite} ({'zh-CN' if spec.locale == 'zh-CN' else 'en-US'})" if folder == "spabench" else suite
            counts = rows.setdefault(row, Counter())
            for label in spec.near_misses():
                counts[family_of(label)] += parametrizations(fn)
    return dict(sorted(rows.items(), key=lambda kv: list(SUITES).index(kv[0].split(" (")[0])))


def table(rows: dict[str, Counter[str]]) -> str:
    columns = [*FAMILIES, OTHER]
    lines = [
        "| suite | "
        + " | ".join(FAMILIES.get(c, "other (wrong value or item, extra change, level below)") for c in columns)
        + " | all |",
        "|---|" + "---:|" * (len(columns) + 1),
    ]
    for row, counts in rows.items():
        cells = [str(counts[c]) for c in columns] + [str(sum(counts.values()))]
        lines.append(f"| {row} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


if __name__ == "__main__":
    print(table(tally()))
