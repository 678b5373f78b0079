"""`python -m pytest_mobile_agent.reporting.compare A B`: two runs of one suite, task by task.

    python -m pytest_mobile_agent.reporting.compare baseline.jsonl candidate.jsonl --html compare.html

A and B are results files (`--mobile-results`, or one merged from shards). Each task is paired
across the two runs and counted as both pass, both fail, A only or B only (with repeats: A
higher, B higher or equal, on its pass rate over its runs), in total and by suite, app and
difficulty, with the exact McNemar test's p-value, the difference in success rate with its 95%
interval and each run's success rate with its Wilson interval. The formulas are on the docs'
"Compare two runs" page.
"""

from __future__ import annotations

import argparse
import html
import json
import os
import re
import sys
from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any
from urllib.parse import quote

from pytest_mobile_agent.metrics import agent_label, counts
from pytest_mobile_agent.reporting import results, trajectory
from pytest_mobile_agent.reporting.terminal import aligned
from pytest_mobile_agent.stats import Interval, mcnemar_exact, paired_difference, wilson

# What the comparison reads from an episode record.
NEEDED = ("nodeid", "success", "infrastructure", "termination")
# A task's verdict: on one run per side (pass/fail) and on pass rates over repeats.
BOTH_PASS, BOTH_FAIL, A_ONLY, B_ONLY = "both pass", "both fail", "A only", "B only"
A_HIGHER, B_HIGHER, EQUAL = "A higher", "B higher", "equal"
UNKNOWN = "-"  # a group a record does not name (a crashed worker's record knows only its node id)


class CompareError(Exception):
    """Two inputs that cannot be compared; the message names the file and the reason."""


@dataclass
class Side:
    """One run: its counted episodes grouped by task key."""

    path: Path
    runners: list[str]  # the agents (with their models) that ran it
    episodes: int  # episode records read, retries and uncounted ones included
    tasks: dict[str, list[dict[str, Any]]]  # task key -> the last counted attempt of each of its episodes
    uncounted: set[str]  # task keys with episodes but none counted (infrastructure, task errors)
    repeated: bool  # some record has "repeat" set
    artifacts: Path | None = None  # the run's --mobile-artifacts folder, for records that do not name theirs

    def label(self) -> str:
        """Who ran it and how much: 'oracle (12 episodes, 10 tasks)'."""
        runners = ", ".join(self.runners) or "an unnamed agent"
        return f"{runners} ({self.episodes} episodes, {len(self.tasks)} tasks)"


@dataclass(frozen=True)
class Pair:
    """One task in both runs."""

    key: str
    a: list[dict[str, Any]]
    b: list[dict[str, Any]]
    suite: str
    app: str
    difficulty: str

    @property
    def a_rate(self) -> float:
        return _passes(self.a) / len(self.a)

    @property
    def b_rate(self) -> float:
        return _passes(self.b) / len(self.b)

    def verdict(self, repeats: bool) -> str:
        a, b = self.a_rate, self.b_rate
        if repeats:
            return A_HIGHER if a > b else B_HIGHER if b > a else EQUAL
        if a == b:
            return BOTH_PASS if a else BOTH_FAIL
        return A_ONLY if a > b else B_ONLY


@dataclass(frozen=True)
class Group:
    """The paired figures over some tasks."""

    name: str
    tasks: int
    verdicts: dict[str, int]  # verdict -> tasks
    a_better: int  # tasks where A did better (A only, A higher): McNemar's b
    b_better: int  # McNemar's c
    p_value: float
    difference: Interval  # A's success rate minus B's
    a_rate: Interval
    b_rate: Interval


@dataclass
class Comparison:
    a: Side
    b: Side
    repeats: bool
    pairs: list[Pair]
    only_a: list[str]
    only_b: list[str]
    total: Group = field(init=False)
    breakdowns: dict[str, dict[str, Group]] = field(init=False)  # "suite"/"app"/"difficulty" -> name -> figures

    def __post_init__(self) -> None:
        self.total = group("all", self.pairs, self.repeats)
        self.breakdowns = {
            what: {name: group(name, pairs, self.repeats) for name, pairs in sorted(_by(self.pairs, what).items())}
            for what in ("suite", "app", "difficulty")
        }

    @property
    def verdicts(self) -> tuple[str, ...]:
        return verdict_names(self.repeats)


def verdict_names(repeats: bool) -> tuple[str, ...]:
    return (A_HIGHER, B_HIGHER, EQUAL) if repeats else (BOTH_PASS, BOTH_FAIL, A_ONLY, B_ONLY)


def _passes(records: list[dict[str, Any]]) -> int:
    return sum(bool(r["success"]) for r in records)


def _by(pairs: list[Pair], what: str) -> dict[str, list[Pair]]:
    out: dict[str, list[Pair]] = defaultdict(list)
    for p in pairs:
        out[getattr(p, what)].append(p)
    return out


def group(name: str, pairs: list[Pair], repeats: bool) -> Group:
    a, b = [p.a_rate for p in pairs], [p.b_rate for p in pairs]
    verdicts = dict.fromkeys(verdict_names(repeats), 0)
    for p in pairs:
        verdicts[p.verdict(repeats)] += 1
    a_better, b_better = sum(x > y for x, y in zip(a, b, strict=True)), sum(x < y for x, y in zip(a, b, strict=True))
    a_runs, b_runs = [r for p in pairs for r in p.a], [r for p in pairs for r in p.b]
    return Group(
        name=name,
        tasks=len(pairs),
        verdicts=verdicts,
        a_better=a_better,
        b_better=b_better,
        p_value=mcnemar_exact(a_better, b_better),
        difference=paired_difference(a, b),
        a_rate=wilson(_passes(a_runs), len(a_runs)),
        b_rate=wilson(_passes(b_runs), len(b_runs)),
    )


# -- reading ------------------------------------------------------------------------------------
def task_key(record: dict[str, Any], repeated: bool = False) -> str:
    """The task an episode is a run of: its node id without the repeat's `r{k}` id component (a
    variation's `v{i}` stays: each variation is a task of its own). In a run with repeats, a
    record that does not say its repeat (a crashed worker's) is read from its id."""
    nodeid = str(record["nodeid"])
    repeat = record.get("repeat")
    _, bracket, rest = nodeid.partition("[")
    if not bracket or not rest.endswith("]") or (repeat is None and not repeated):
        return nodeid
    base = nodeid[: len(nodeid) - len(rest) - 1]
    ids = rest[:-1]
    if repeat is None:
        found = re.findall(r"(?:^|-)(r\d+)(?=-|$)", ids)
        if not found:
            return nodeid
        component = found[-1]
    else:
        component = f"r{repeat}"
    if ids == component:
        return base
    if ids.endswith("-" + component):
        ids = ids[: -len(component) - 1]
    elif ids.startswith(component + "-"):
        ids = ids[len(component) + 1 :]
    elif f"-{component}-" in ids:
        before, _, after = ids.rpartition(f"-{component}-")
        ids = f"{before}-{after}"
    return f"{base}[{ids}]"


def suite_of(nodeid: str) -> str:
    """The task's suite: its folder under task_suites/, else its file's folder."""
    path = PurePosixPath(nodeid.split("::", 1)[0])
    parts = path.parts
    if "task_suites" in parts[:-1]:
        at = parts.index("task_suites")
        if at + 1 < len(parts) - 1:
            return parts[at + 1]
    return str(path.parent)


def read_side(path: Path, artifacts: Path | None = None) -> Side:
    if not path.exists():
        raise CompareError(f"{path}: no such results file")
    if not path.is_file():
        raise CompareError(f"{path}: not a file (give the --mobile-results file)")
    try:
        records = results.episodes(path)
    except UnicodeDecodeError as exc:
        raise CompareError(f"{path}: not a results file (not UTF-8 text: {exc.reason})") from exc
    if not records:
        raise CompareError(f"{path}: no episode records (is it a --mobile-results file?)")
    for number, record in enumerate(records, 1):
        missing = [k for k in NEEDED if k not in record]
        if missing:
            raise CompareError(f"{path}: episode record {number} has no {', '.join(missing)}")
    repeated = any(r.get("repeat") is not None for r in records)
    last: dict[str, dict[str, Any]] = {}
    for record in records:
        if counts(record):
            last[record["nodeid"]] = record  # a retry's record comes after the try it replaces
    tasks: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for record in last.values():
        tasks[task_key(record, repeated)].append(record)
    seen = {task_key(r, repeated) for r in records}
    runners = sorted({label for r in records if (label := agent_label(r)) is not None})
    return Side(path, runners, len(records), dict(tasks), seen - tasks.keys(), repeated, artifacts)


def _first(values: Iterable[Any]) -> str:
    return next((str(v) for v in values if v is not None), UNKNOWN)


def compare(a: Side, b: Side) -> Comparison:
    common = [key for key in a.tasks if key in b.tasks]
    if not common:
        raise CompareError(
            f"{a.path} and {b.path} have no task in common "
            f"({len(a.tasks)} and {len(b.tasks)} tasks with a counted episode): were they run on the same suite?"
        )
    pairs = []
    for key in sorted(common):
        runs = [*a.tasks[key], *b.tasks[key]]
        pairs.append(
            Pair(
                key,
                a.tasks[key],
                b.tasks[key],
                suite_of(key),
                _first(r.get("app") for r in runs),
                _first(r.get("difficulty") for r in runs),
            )
        )
    only_a = sorted(k for k in a.tasks if k not in b.tasks)
    only_b = sorted(k for k in b.tasks if k not in a.tasks)
    return Comparison(a, b, a.repeated or b.repeated, pairs, only_a, only_b)


# -- figures as text ----------------------------------------------------------------------------
def points(interval: Interval) -> str:
    """A difference in percentage points with its interval: '+25.0 [-5.1, 55.1]'."""
    return f"{100 * interval.estimate:+.1f} [{100 * interval.low:+.1f}, {100 * interval.high:+.1f}]"


def tasks(n: int) -> str:
    return f"{n} task" if n == 1 else f"{n} tasks"


def p_text(p: float) -> str:
    return f"{p:.3g}"


def outcome(records: list[dict[str, Any]], repeats: bool) -> str:
    if repeats:
        return f"{_passes(records)}/{len(records)}"
    return "pass" if records[0]["success"] else "fail"


def _row(g: Group, verdicts: tuple[str, ...]) -> list[str]:
    return [
        g.name,
        str(g.tasks),
        *(str(g.verdicts[v]) for v in verdicts),
        p_text(g.p_value),
        points(g.difference),
        g.a_rate.percent(),
        g.b_rate.percent(),
    ]


def group_header(c: Comparison, first: str) -> list[str]:
    return [first, "tasks", *c.verdicts, "p (McNemar)" if not c.repeats else "p (sign)", "A-B points [95%]", "A", "B"]


def not_compared(c: Comparison) -> list[tuple[str, str, str]]:
    """(which run holds it, task key, why the other lacks it) for each task left out."""
    out = []
    for mine, other, keys in (("A", c.b, c.only_a), ("B", c.a, c.only_b)):
        for key in keys:
            why = f"{_other(mine)}: no counted episode" if key in other.uncounted else f"not in {_other(mine)}"
            out.append((mine, key, why))
    return out


def _other(side: str) -> str:
    return "B" if side == "A" else "A"


def text_lines(c: Comparison) -> list[str]:
    lines = [
        f"A: {c.a.path}: {c.a.label()}",
        f"B: {c.b.path}: {c.b.label()}",
    ]
    if c.repeats:
        lines.append("with repeats: a task's outcome is its pass rate over its runs")
    lines += ["", f" per task ({len(c.pairs)} in both runs) ".center(80, "=")]
    lines += aligned(
        ["task", "A", "B", "verdict"],
        [[p.key, outcome(p.a, c.repeats), outcome(p.b, c.repeats), p.verdict(c.repeats)] for p in c.pairs],
    )
    lines += ["", " total ".center(80, "=")]
    t = c.total
    lines.append(", ".join(f"{v} {t.verdicts[v]}" for v in c.verdicts) + f" (of {t.tasks} tasks)")
    test = "exact sign test on the tasks whose rates differ" if c.repeats else "exact McNemar test"
    lines.append(f"{test}: {t.a_better} A better, {t.b_better} B better, p = {p_text(t.p_value)}")
    lines.append(f"success rate A - B: {points(t.difference)} points (95% interval)")
    lines.append(f"success rate A: {t.a_rate.percent()}, B: {t.b_rate.percent()} (Wilson 95% intervals)")
    for what, groups in c.breakdowns.items():
        lines += ["", f" by {what} ".center(80, "=")]
        lines += aligned(group_header(c, what), [_row(g, c.verdicts) for g in groups.values()])
    left = not_compared(c)
    if left:
        lines += ["", f" not compared ({tasks(len(left))} in one run only) ".center(80, "=")]
        lines += [f"only in {side}: {key} ({why})" for side, key, why in left]
    return lines


# -- figures as JSON ----------------------------------------------------------------------------
def _interval(i: Interval) -> dict[str, float]:
    return {"estimate": i.estimate, "low": i.low, "high": i.high}


def _group_json(g: Group) -> dict[str, Any]:
    return {
        "tasks": g.tasks,
        "verdicts": g.verdicts,
        "a_better": g.a_better,
        "b_better": g.b_better,
        "p_value": g.p_value,
        "difference": _interval(g.difference),
        "a_rate": _interval(g.a_rate),
        "b_rate": _interval(g.b_rate),
    }


def as_json(c: Comparison) -> dict[str, Any]:
    def side(s: Side) -> dict[str, Any]:
        return {"path": str(s.path), "runners": s.runners, "episodes": s.episodes, "tasks": len(s.tasks)}

    return {
        "a": side(c.a),
        "b": side(c.b),
        "repeats": c.repeats,
        "total": _group_json(c.total),
        **{f"by_{what}": {n: _group_json(g) for n, g in groups.items()} for what, groups in c.breakdowns.items()},
        "tasks": [
            {
                "task": p.key,
                "suite": p.suite,
                "app": p.app,
                "difficulty": p.difficulty,
                "a": {"runs": len(p.a), "passes": _passes(p.a)},
                "b": {"runs": len(p.b), "passes": _passes(p.b)},
                "verdict": p.verdict(c.repeats),
            }
            for p in c.pairs
        ],
        "only_a": c.only_a,
        "only_b": c.only_b,
        "not_compared": [{"run": side, "task": key, "why": why} for side, key, why in not_compared(c)],
    }


# -- the HTML page ------------------------------------------------------------------------------
STYLE = """
body { font-family: system-ui, sans-serif; margin: 2em; color: #222; }
table { border-collapse: collapse; margin: 0.5em 0 1.5em; }
th, td { border: 1px solid #ccc; padding: 0.25em 0.6em; text-align: right; vertical-align: top; }
th:first-child, td:first-child, td.text { text-align: left; }
th { background: #f2f2f2; }
.pass { color: #1a7f37; } .fail { color: #cf222e; }
pre { white-space: pre-wrap; margin: 0; font-size: 0.85em; max-width: 60em; }
"""


def trajectory_of(record: dict[str, Any], side: Side) -> Path | None:
    """An episode's trajectory folder on this machine, when there is one: the record's own
    "artifacts" (relative: to the working directory, else to the results file's folder), else
    the folder the run's --mobile-artifacts would hold."""
    candidates: list[Path] = []
    if record.get("artifacts"):
        named = Path(record["artifacts"])
        candidates = [named] if named.is_absolute() else [Path.cwd() / named, side.path.parent / named]
    elif side.artifacts is not None:
        candidates = [trajectory.folder_of(side.artifacts, record["nodeid"], bool(record.get("retried")))]
    return next((p for p in candidates if p.is_dir()), None)


def _href(target: Path, page: Path) -> str:
    """A link from the page to a file: relative where the two share a root, else absolute."""
    try:
        link = os.path.relpath(target.resolve(), page.resolve().parent)
    except ValueError:  # another drive (Windows)
        link = target.resolve().as_uri()
        return html.escape(link, quote=True)
    return html.escape(quote(Path(link).as_posix()), quote=True)


def _run_cell(records: list[dict[str, Any]], side: Side, page: Path, repeats: bool) -> str:
    """Each run's outcome, linked to its trajectory, and the failure message of each failed run."""
    out = []
    for record in records:
        ok = bool(record["success"])
        word = "pass" if ok else "fail"
        if repeats and record.get("repeat") is not None:
            word = f"r{record['repeat']} {word}"
        folder = trajectory_of(record, side)
        if folder is None:
            shown = f'<span class="{word.split()[-1]}">{html.escape(word)}</span>'
        else:
            sheet = folder / "contact-sheet.png"
            target = sheet if sheet.is_file() else folder
            shown = f'<a class="{word.split()[-1]}" href="{_href(target, page)}">{html.escape(word)}</a>'
            if target is sheet:
                shown += f' (<a href="{_href(folder, page)}">folder</a>)'
        if not ok and record.get("failure_message"):
            shown += f"<pre>{html.escape(clipped(record['failure_message']))}</pre>"
        out.append(f"<div>{shown}</div>")
    return "".join(out)


def clipped(message: str, limit: int = 2000) -> str:
    """A failure message as the page shows it: whole, unless it runs past `limit` characters."""
    message = message.strip()
    return message if len(message) <= limit else message[: limit - 1] + "…"


def _table(header: list[str], rows: list[list[str]]) -> str:
    head = "".join(f"<th>{html.escape(h)}</th>" for h in header)
    body = "".join("<tr>" + "".join(f"<td>{cell}</td>" for cell in row) + "</tr>" for row in rows)
    return f"<table><tr>{head}</tr>{body}</table>"


def html_page(c: Comparison, page: Path) -> str:
    """The comparison as one self-contained page; links are relative to `page`'s folder."""
    esc: Callable[[Any], str] = lambda v: html.escape(str(v))  # noqa: E731
    t = c.total
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8"><title>A against B</title>',
        f"<style>{STYLE}</style></head><body>",
        "<h1>Two runs, task by task</h1>",
        "<ul>",
        f"<li>A: <code>{esc(c.a.path)}</code>: {esc(c.a.label())}</li>",
        f"<li>B: <code>{esc(c.b.path)}</code>: {esc(c.b.label())}</li>",
        "</ul>",
    ]
    if c.repeats:
        parts.append("<p>With repeats: a task's outcome is its pass rate over its runs.</p>")
    parts += [
        f"<h2>Total ({t.tasks} tasks in both runs)</h2>",
        _table(group_header(c, "group"), [[esc(x) for x in _row(t, c.verdicts)]]),
    ]
    for what, groups in c.breakdowns.items():
        parts += [
            f"<h2>By {esc(what)}</h2>",
            _table(group_header(c, what), [[esc(x) for x in _row(g, c.verdicts)] for g in groups.values()]),
        ]
    differing = [p for p in c.pairs if p.a_rate != p.b_rate]
    parts.append(f"<h2>Tasks that differ ({len(differing)})</h2>")
    parts.append(
        _table(
            ["task", "verdict", "A", "B"],
            [
                [
                    f'<span class="text">{esc(p.key)}</span>',
                    esc(p.verdict(c.repeats)),
                    _run_cell(p.a, c.a, page, c.repeats),
                    _run_cell(p.b, c.b, page, c.repeats),
                ]
                for p in differing
            ],
        )
    )
    left = not_compared(c)
    if left:
        parts.append(f"<h2>Not compared ({tasks(len(left))} in one run only)</h2><ul>")
        parts += [f"<li>only in {side}: <code>{esc(key)}</code> ({esc(why)})</li>" for side, key, why in left]
        parts.append("</ul>")
    parts.append("</body></html>")
    return "\n".join(parts) + "\n"


# -- the command --------------------------------------------------------------------------------
def argument_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m pytest_mobile_agent.reporting.compare", description=__doc__.split("\n")[0]
    )
    parser.add_argument("a", type=Path, help="run A's results file (--mobile-results, or a merged one)")
    parser.add_argument("b", type=Path, help="run B's results file")
    parser.add_argument("--html", type=Path, help="also write the comparison as an HTML page here")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON instead of tables")
    parser.add_argument(
        "--a-artifacts",
        type=Path,
        help="run A's --mobile-artifacts folder, to link trajectories its records do not name",
    )
    parser.add_argument("--b-artifacts", type=Path, help="run B's --mobile-artifacts folder")
    return parser


def main(argv: list[str] | None = None) -> int:
    args = argument_parser().parse_args(argv)
    try:
        c = compare(read_side(args.a, args.a_artifacts), read_side(args.b, args.b_artifacts))
        if args.html:
            args.html.parent.mkdir(parents=True, exist_ok=True)
            args.html.write_text(html_page(c, args.html), encoding="utf-8")
    except (CompareError, OSError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(as_json(c), indent=2, ensure_ascii=False))
    else:
        print("\n".join(text_lines(c)))
    if args.html:
        print(f"html: {args.html}", file=sys.stderr if args.json else sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
