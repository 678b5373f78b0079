"""Near misses per suite and family, as a Markdown table (docs/explanation/validity.md holds it).

Each near miss's label names its family (task_suites/shared/near_misses.py). A task counts once
per parametrization, as the near-miss gates run it; the SPA-Bench-style suite has a task per
language, the other two run the same tasks in both (their zh-CN gates). Run from the repository
root: `python scripts/near_miss_families.py`; with `--tasks`, each task's families: the near
misses of each, the reason a family does not apply, or "missing" (neither).
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
from task_suites.shared.near_misses import FAMILIES, OTHER, family_of, reasons_of  # noqa: E402

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


def coverage(fn: Callable[..., Any]) -> dict[str, int | str]:
    """Family -> how many near misses the task has of it, or the reason it does not apply, or
    "missing"."""
    spec = spec_of(fn)
    assert spec is not None
    counts = Counter(family_of(label) for label in spec.near_misses())
    reasons = reasons_of(fn, spec.apps, spec.launch)
    return {f: counts[f] or reasons.get(f, "missing") for f in FAMILIES}


def missing(folder: str) -> dict[str, list[str]]:
    """Task name -> the families it neither has near misses of nor says why not."""
    out = {}
    for fn in task_functions(folder):
        spec = spec_of(fn)
        assert spec is not None
        gaps = [f for f, v in coverage(fn).items() if v == "missing"]
        if gaps:
            out[spec.name or fn.__name__] = gaps
    return out


def task_lines() -> Iterator[str]:
    for suite, folder in SUITES.items():
        yield f"## {suite}"
        for fn in task_functions(folder):
            spec = spec_of(fn)
            assert spec is not None
            yield f"{spec.name or fn.__name__}:"
            for family, value in coverage(fn).items():
                yield f"  {family}: {value if isinstance(value, str) else f'{value} near miss(es)'}"
        gaps = missing(folder)
        yield f"{suite}: {len(gaps)} task(s) with a family neither covered nor said not to apply"


if __name__ == "__main__":
    print("\n".join(task_lines()) if "--tasks" in sys.argv[1:] else table(tally()))
