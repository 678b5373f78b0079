"""The merge command: the shards of a run, merged, count what one unsharded run over the same
tasks counts (results file, summary table, Allure results and report)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from report_helpers import CALC_TASKS, MIXED_AGENT, allure_results

from pytest_mobile_agent.reporting import results, terminal
from pytest_mobile_agent.reporting.merge import main as merge_main

# The aggregate's fields that count outcomes; the timings differ from one run to another.
COUNTS = (
    "episodes",
    "infrastructure_errors",
    "successes",
    "SR",
    "SE",
    "FFR",
    "OER",
    "step_ratio",
    "completed_share",
    "max_steps_share",
    "error_share",
    "PTR",
    "OTR",
)


def merge(*args: str | Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "pytest_mobile_agent.reporting.merge", *map(str, args)],
        capture_output=True,
        text=True,
        timeout=300,
    )


def counts(summary: dict) -> list[dict]:
    groups = [summary["overall"], *summary["by_app"].values(), *summary["by_difficulty"].values()]
    return [{k: g[k] for k in COUNTS} for g in groups]


def cells(table: list[str]) -> dict[str, dict[str, str]]:
    """A printed table's counting cells by group and column (timings and tokens left out)."""
    titles = re.split(r"\s{2,}", table[0].strip())
    rows = (dict(zip(titles, re.split(r"\s{2,}", line.strip()), strict=True)) for line in table[2:])
    timings = ("latency", "tokens", "time/step", "cost/step")
    return {r["group"]: {k: v for k, v in r.items() if k not in timings} for r in rows}


def test_merged_shards_count_what_one_run_counts(pytester: pytest.Pytester, tmp_path: Path) -> None:
    pytester.makepyfile(test_calc=CALC_TASKS)
    pytester.makeconftest(MIXED_AGENT)
    runs = {"whole": (), "shard1": ("--mobile-shard=1/2",), "shard2": ("--mobile-shard=2/2",)}
    for name, extra in runs.items():
        pytester.runpytest_subprocess(
            "-p",
            "no:cacheprovider",
            "--agent=mixed",
            f"--mobile-results={name}.jsonl",
            f"--alluredir={name}-allure",
            *extra,
            timeout=600,
        )
    whole = results.read(pytester.path / "whole.jsonl")
    assert len([r for r in whole if r["type"] == "episode"]) == 7  # six tasks, one retried after its device died

    out = tmp_path / "merged"
    done = merge(
        pytester.path / "shard1.jsonl",
        pytester.path / "shard2.jsonl",
        "-o",
        out / "results.jsonl",
        "--allure-results",
        pytester.path / "shard1-allure",
        pytester.path / "shard2-allure",
        "--allure-output",
        out / "allure-results",
        "--report",
        out / "allure-report",
    )
    assert done.returncode == 0, done.stdout + done.stderr
    merged = results.read(out / "results.jsonl")
    assert merged[-1]["type"] == "aggregate" and all(r["type"] == "episode" for r in merged[:-1])
    assert counts(merged[-1]) == counts(whole[-1])
    assert sorted(r["nodeid"] for r in merged[:-1]) == sorted(r["nodeid"] for r in whole[:-1])

    # The same table as the plugin prints, with the same counts in every row.
    printed = done.stdout.splitlines()
    start = printed.index(next(line for line in printed if line.startswith("group ")))
    assert printed[start - 1].strip("= ") == "mobile agent summary (7 episodes)"
    assert printed[start : start + len(terminal.table(merged[-1]))] == terminal.table(merged[-1])
    assert cells(terminal.table(merged[-1])) == cells(terminal.table(whole[-1]))

    # One Allure results folder with every shard's cases, one environment, one report.
    assert len(allure_results(out / "allure-results")) == len(allure_results(pytester.path / "whole-allure"))
    env = (out / "allure-results" / "environment.properties").read_text()
    assert "episodes=7" in env and "agent=mixed" in env
    assert len(list((out / "allure-results").glob("*-globals.json"))) == 1  # one success plot, over all episodes
    index = Path(done.stdout.strip().splitlines()[-1])
    assert index == out / "allure-report" / "index.html"
    cases = json.loads((index.parent / "test-results.json").read_text())["byId"]
    assert len(cases) == 6


def test_the_merged_aggregate_is_the_aggregate_of_the_same_episodes(tmp_path: Path, capsys) -> None:
    episodes = [json.loads(line) for line in EPISODES]
    whole = tmp_path / "whole.jsonl"
    for r in episodes:
        results.append(whole, r)
    from pytest_mobile_agent.metrics import summarize

    parts = [tmp_path / "a.jsonl", tmp_path / "b.jsonl"]  # a task's retry stays in its shard
    for part, chunk in zip(parts, (episodes[:4], episodes[4:]), strict=True):
        for r in chunk:
            results.append(part, r)
        results.append(part, summarize(chunk))  # each shard's own aggregate: dropped by the merge
    assert merge_main([*map(str, parts), "-o", str(tmp_path / "merged.jsonl")]) == 0
    merged = results.read(tmp_path / "merged.jsonl")
    assert merged[-1] == json.loads(json.dumps(summarize(episodes)))  # timings too: the same episodes
    assert "\n".join(terminal.table(summarize(episodes))) in capsys.readouterr().out


def test_bad_input_is_named_and_nothing_is_written(tmp_path: Path) -> None:
    good, bad = tmp_path / "good.jsonl", tmp_path / "bad.jsonl"
    good.write_text(EPISODES[0] + "\n")
    bad.write_text(EPISODES[1] + "\n{not json\n")
    out = tmp_path / "merged.jsonl"
    done = merge(good, bad, "-o", out)
    assert done.returncode == 2 and f"{bad}:2: not a JSON line" in done.stderr
    bad.write_text('{"type": "episode", "nodeid": "t::x"}\n')
    done = merge(good, bad, "-o", out)
    assert done.returncode == 2 and f"{bad}:1: an episode record without app, difficulty" in done.stderr
    done = merge(good, tmp_path / "missing.jsonl", "-o", out)
    assert done.returncode == 2 and "missing.jsonl: no such results file" in done.stderr
    done = merge(good, "--allure-results", tmp_path / "nowhere", "--allure-output", tmp_path / "allure", "-o", out)
    assert done.returncode == 2 and "no such allure-results folder" in done.stderr
    assert not out.exists() and not (tmp_path / "allure").exists()


def test_one_shard_given_twice_is_refused_unless_allowed(tmp_path: Path) -> None:
    shard1, shard2, out = tmp_path / "shard1.jsonl", tmp_path / "shard2.jsonl", tmp_path / "merged.jsonl"
    shard1.write_text("\n".join(EPISODES[:3]) + "\n")
    shard2.write_text("\n".join(EPISODES[3:]) + "\n")
    done = merge(shard1, shard2, shard1, "-o", out)
    assert done.returncode == 2 and f"given more than once: {shard1} (one shard counted twice)" in done.stderr
    copy = tmp_path / "copy.jsonl"
    copy.write_text(shard1.read_text())  # the same shard under another name
    done = merge(shard1, shard2, copy, "-o", out)
    assert done.returncode == 2, done.stderr
    assert "3 task(s) ran in more than one results file: test_calculator.py::test_add" in done.stderr
    assert "--allow-overlap" in done.stderr and not out.exists()
    allure = tmp_path / "allure"
    allure.mkdir()
    done = merge(shard1, shard2, "--allure-results", allure, allure, "--allure-output", tmp_path / "out", "-o", out)
    assert done.returncode == 2 and "allure-results folder is given more than once" in done.stderr
    assert not out.exists()
    done = merge(shard1, shard2, copy, "-o", out, "--allow-overlap")  # counted twice, as asked
    assert done.returncode == 0 and "ran in more than one shard" in done.stderr
    assert len([r for r in results.read(out) if r["type"] == "episode"]) == len(EPISODES) + 3


def test_two_agents_results_are_refused_unless_allowed(tmp_path: Path) -> None:
    from pytest_mobile_agent.metrics import aggregate

    oracle, noop, out = tmp_path / "oracle.jsonl", tmp_path / "noop.jsonl", tmp_path / "merged.jsonl"
    for path, agent, model, chunk in ((oracle, "oracle", None, EPISODES[:3]), (noop, "t3a", "gpt-4o", EPISODES[3:])):
        path.write_text("".join(json.dumps({**json.loads(e), "agent": agent, "model": model}) + "\n" for e in chunk))
    done = merge(oracle, noop, "-o", out)
    assert done.returncode == 2 and not out.exists()
    assert f"different agents: oracle in {oracle}; t3a (gpt-4o) in {noop}" in done.stderr
    assert "--allow-mixed" in done.stderr
    done = merge(oracle, noop, "-o", out, "--allow-mixed")
    assert done.returncode == 0 and f"warning: t3a (gpt-4o) ran {noop}" in done.stderr
    assert len([r for r in results.read(out) if r["type"] == "episode"]) == len(EPISODES)
    # Each agent's own figures beside the overall ones, in the aggregate and in the table.
    by_agent = results.read(out)[-1]["by_agent"]
    assert sorted(by_agent) == ["oracle", "t3a (gpt-4o)"]
    for name, chunk in (("oracle", EPISODES[:3]), ("t3a (gpt-4o)", EPISODES[3:])):
        assert by_agent[name] == json.loads(json.dumps(aggregate([json.loads(e) for e in chunk])))
    assert "agent oracle" in done.stdout and "agent t3a (gpt-4o)" in done.stdout


def _episode(
    task: str,
    app: str,
    difficulty: str,
    success: bool,
    steps: int,
    golden: int,
    termination: str,
    latency: float,
    infra: bool = False,
) -> str:
    return json.dumps(
        {
            "type": "episode",
            "nodeid": f"test_{app}.py::test_{task}",
            "task": task,
            "app": app,
            "difficulty": difficulty,
            "success": success,
            "steps": steps,
            "golden_steps": golden,
            "termination": termination,
            "se": steps / golden if success else None,
            "premature": termination == "completed" and not success,
            "overdue": termination == "max_steps" and success,
            "infrastructure": infra,
            "tokens_in": 100 * steps,
            "tokens_out": 7 * steps,
            "cost_usd": 0.001 * steps,
            "time_per_step_s": latency,
            "latency_s": latency,
        }
    )


EPISODES = [
    _episode("add", "calculator", "medium", True, 4, 4, "completed", 0.31),
    _episode("sub", "calculator", "medium", False, 2, 4, "completed", 0.17),
    _episode("new_note", "notes", "hard", True, 9, 7, "max_steps", 0.23),
    _episode("open", "applauncher", "easy", False, 4, 2, "max_steps", 0.11),
    _episode("open2", "applauncher", "easy", False, 1, 2, "error", 0.5),
    _episode("rename", "notes", "medium", False, 0, 3, "infrastructure", 0.0, infra=True),
    _episode("rename", "notes", "medium", True, 3, 3, "completed", 0.29),
]
