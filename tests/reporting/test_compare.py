"""The compare command: two runs' results files paired task by task, counted against hand-counted
totals, with the p-value and intervals worked out by hand, its HTML page's links, its refusals,
and two real sessions (oracle against noop) compared end to end."""

from __future__ import annotations

import json
import math
import re
import subprocess
import sys
from pathlib import Path
from typing import Any
from urllib.parse import unquote

import pytest

from pytest_mobile_agent.reporting import results, trajectory
from pytest_mobile_agent.reporting.compare import main, suite_of, task_key
from pytest_mobile_agent.reporting.merge import main as merge_main

Z = 1.959963984540054

MAB = "task_suites/mobileagentbench/test_calculator.py::test_sum"
SPA = "task_suites/spabench/test_notes.py::test_note"


def record(nodeid: str, success: bool, **fields: Any) -> dict[str, Any]:
    """An episode line with what the comparison reads (the rest of metrics.episode_record left out)."""
    out: dict[str, Any] = {
        "type": "episode",
        "nodeid": nodeid,
        "variation": None,
        "repeat": None,
        "app": "calculator" if "calculator" in nodeid else "notes",
        "difficulty": "easy",
        "agent": "oracle",
        "model": None,
        "success": success,
        "infrastructure": False,
        "termination": "completed",
        "retried": False,
        "failure_message": None if success else f"{nodeid} failed",
        # What the merge command's aggregate reads besides.
        "steps": 3,
        "se": 1.0 if success else None,
        "premature": not success,
        "overdue": False,
        "tokens_in": 0,
        "tokens_out": 0,
        "cost_usd": None,
        "time_per_step_s": 0.1,
    }
    out.update(fields)
    return out


def infrastructure(nodeid: str) -> dict[str, Any]:
    return record(nodeid, False, infrastructure=True, termination="infrastructure")


def write(path: Path, records: list[dict[str, Any]], tail: str = "") -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in records) + tail)
    return path


def run(*args: str | Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


def figures(a: Path, b: Path, capsys: pytest.CaptureFixture[str], *extra: str) -> dict[str, Any]:
    code, out, err = run(a, b, "--json", *extra, capsys=capsys)
    assert code == 0, err
    return json.loads(out)


def wilson(s: int, n: int) -> tuple[float, float, float]:
    p = s / n
    centre = (p + Z * Z / (2 * n)) / (1 + Z * Z / n)
    half = Z * math.sqrt(p * (1 - p) / n + Z * Z / (4 * n * n)) / (1 + Z * Z / n)
    return p, max(0.0, centre - half), min(1.0, centre + half)


def interval(i: dict[str, float]) -> tuple[float, float, float]:
    return i["estimate"], i["low"], i["high"]


@pytest.fixture
def two_runs(tmp_path: Path) -> tuple[Path, Path]:
    """Run A (oracle) and run B (another agent) over seven tasks of two suites.

    task   A                                   B           verdict
    s1     pass                                fail        A only
    s2     infra, then pass (retry)            fail        A only
    s3     pass                                pass        both pass
    s4     fail                                pass        B only
    s5     fail                                fail        both fail
    n1     pass                                fail, then infra (kept: fail)   A only
    n2     infra only                          pass        only in B (A: no counted episode)
    n3     pass                                (absent)    only in A
    n4     task error                          task error  nowhere
    and a last line of A half written.
    """
    a = [
        record(f"{MAB}[s1]", True),
        infrastructure(f"{MAB}[s2]"),
        record(f"{MAB}[s2]", True, retried=True),
        record(f"{MAB}[s3]", True),
        record(f"{MAB}[s4]", False),
        record(f"{MAB}[s5]", False, difficulty="hard"),
        record(f"{SPA}[n1]", True),
        infrastructure(f"{SPA}[n2]"),
        record(f"{SPA}[n3]", True),
        record(f"{SPA}[n4]", False, termination="task_error"),
    ]
    b = [
        record(f"{MAB}[s1]", False),
        record(f"{MAB}[s2]", False),
        record(f"{MAB}[s3]", True),
        record(f"{MAB}[s4]", True),
        record(f"{MAB}[s5]", False, difficulty="hard"),
        record(f"{SPA}[n1]", False),
        infrastructure(f"{SPA}[n1]"),
        record(f"{SPA}[n2]", True),
        record(f"{SPA}[n4]", False, termination="task_error"),
    ]
    b = [dict(r, agent="t3a", model="gpt-4o") for r in b]
    return (
        write(tmp_path / "a.jsonl", a, tail='{"type": "episode", "nodeid": "cut'),
        write(tmp_path / "b.jsonl", b),
    )


def test_totals_are_the_hand_counted_ones(two_runs, capsys) -> None:
    got = figures(*two_runs, capsys)
    total = got["total"]
    assert total["tasks"] == 6
    assert total["verdicts"] == {"both pass": 1, "both fail": 1, "A only": 3, "B only": 1}
    assert got["only_a"] == [f"{SPA}[n3]"] and got["only_b"] == [f"{SPA}[n2]"]
    assert got["not_compared"] == [
        {"run": "A", "task": f"{SPA}[n3]", "why": "not in B"},
        {"run": "B", "task": f"{SPA}[n2]", "why": "A: no counted episode"},
    ]
    # Exact McNemar on 3 against 1: 2 * (C(4,0) + C(4,1)) / 2^4.
    assert total["p_value"] == pytest.approx(2 * (1 + 4) / 16)
    # Per task A - B: 1, 1, 0, -1, 0, 1: d = 2/6, mean(d_i^2) = 4/6.
    d = 2 / 6
    half = Z * math.sqrt((4 / 6 - d * d) / 6)
    assert interval(total["difference"]) == pytest.approx((d, d - half, d + half))
    assert interval(total["a_rate"]) == pytest.approx(wilson(4, 6))
    assert interval(total["b_rate"]) == pytest.approx(wilson(2, 6))
    assert got["by_suite"]["mobileagentbench"]["verdicts"] == {"both pass": 1, "both fail": 1, "A only": 2, "B only": 1}
    assert got["by_suite"]["spabench"]["verdicts"] == {"both pass": 0, "both fail": 0, "A only": 1, "B only": 0}
    assert got["by_app"]["notes"]["tasks"] == 1 and got["by_app"]["calculator"]["tasks"] == 5
    assert got["by_difficulty"]["hard"]["verdicts"]["both fail"] == 1
    assert got["by_difficulty"]["easy"]["tasks"] == 5
    assert got["a"]["runners"] == ["oracle"] and got["b"]["runners"] == ["t3a (gpt-4o)"]


def test_the_printed_figures_name_both_runs_and_the_left_out_tasks(two_runs, capsys) -> None:
    code, out, _ = run(*two_runs, capsys=capsys)
    assert code == 0
    assert f"A: {two_runs[0]}: oracle (10 episodes, 7 tasks)" in out
    assert f"B: {two_runs[1]}: t3a (gpt-4o) (9 episodes, 7 tasks)" in out
    assert "both pass 1, both fail 1, A only 3, B only 1 (of 6 tasks)" in out
    assert "exact McNemar test: 3 A better, 1 B better, p = 0.625" in out
    assert f"only in A: {SPA}[n3] (not in B)" in out
    assert f"only in B: {SPA}[n2] (A: no counted episode)" in out
    rows = [line.split() for line in out.splitlines() if line.startswith(f"{MAB}[s")]
    assert [r[1:] for r in rows] == [
        ["pass", "fail", "A", "only"],
        ["pass", "fail", "A", "only"],
        ["pass", "pass", "both", "pass"],
        ["fail", "pass", "B", "only"],
        ["fail", "fail", "both", "fail"],
    ]
    for heading in ("by suite", "by app", "by difficulty"):
        assert f" {heading} " in out


def test_a_merged_file_compares_as_its_shards_together(two_runs, tmp_path, capsys) -> None:
    a, b = two_runs
    episodes = results.episodes(b)
    shards = [write(tmp_path / "b1.jsonl", episodes[:4]), write(tmp_path / "b2.jsonl", episodes[4:])]
    merged = tmp_path / "merged.jsonl"
    assert merge_main([*map(str, shards), "-o", str(merged)]) == 0
    capsys.readouterr()
    assert results.read(merged)[-1]["type"] == "aggregate"
    assert figures(a, merged, capsys)["total"] == figures(a, b, capsys)["total"]


def repeats(nodeid: str, outcomes: str, **fields: Any) -> list[dict[str, Any]]:
    """One record per repeat: 'PF' is r1 passed, r2 failed."""
    out = []
    for k, mark in enumerate(outcomes, 1):
        bracket = f"[{nodeid.partition('[')[2][:-1]}-r{k}]" if "[" in nodeid else f"[r{k}]"
        out.append(record(nodeid.partition("[")[0] + bracket, mark == "P", repeat=k, **fields))
    return out


def test_with_repeats_a_task_is_its_pass_rate(tmp_path, capsys) -> None:
    """Task rates A against B: 3/3-1/3 A higher, 1/3-2/3 B higher, 2/3-2/3 equal, 0/3-0/3 equal,
    3/3-0/3 A higher; the variation v2 is a task of its own, and A's r2 of t1 was retried."""
    t = f"{MAB}"
    a = [
        *repeats(f"{t}[t1]", "PPP"),
        *repeats(f"{t}[t2]", "PFF"),
        *repeats(f"{t}[t3]", "PFP"),
        *repeats(f"{t}[v2]", "FFF", variation=2),
        *repeats("test_home.py::test_clear", "PPP", app="home"),
    ]
    a.insert(1, infrastructure(f"{t}[t1-r2]") | {"repeat": 2})
    b = [
        *repeats(f"{t}[t1]", "FPF"),
        *repeats(f"{t}[t2]", "PFP"),
        *repeats(f"{t}[t3]", "PPF"),
        *repeats(f"{t}[v2]", "FFF", variation=2),
        *repeats("test_home.py::test_clear", "FFF", app="home"),
    ]
    got = figures(write(tmp_path / "a.jsonl", a), write(tmp_path / "b.jsonl", b), capsys)
    assert got["repeats"] is True
    total = got["total"]
    assert total["verdicts"] == {"A higher": 2, "B higher": 1, "equal": 2}
    tasks = {x["task"]: x for x in got["tasks"]}
    assert set(tasks) == {f"{t}[t1]", f"{t}[t2]", f"{t}[t3]", f"{t}[v2]", "test_home.py::test_clear"}
    assert tasks[f"{t}[t1]"]["a"] == {"runs": 3, "passes": 3}  # the retry replaces the lost attempt
    # The sign test on 2 against 1: 2 * (C(3,0) + C(3,1)) / 2^3, capped at 1.
    assert total["p_value"] == 1.0
    # Rates in task order t1, t2, t3, v2, clear: A - B = 2/3, -1/3, 0, 0, 1.
    diffs = [2 / 3, -1 / 3, 0, 0, 1]
    d = sum(diffs) / 5
    half = Z * math.sqrt((sum(x * x for x in diffs) / 5 - d * d) / 5)
    assert interval(total["difference"]) == pytest.approx((d, d - half, min(1.0, d + half)))
    assert interval(total["a_rate"]) == pytest.approx(wilson(9, 15))
    assert interval(total["b_rate"]) == pytest.approx(wilson(5, 15))
    code, out, _ = run(tmp_path / "a.jsonl", tmp_path / "b.jsonl", capsys=capsys)
    assert "exact sign test on the tasks whose rates differ: 2 A better, 1 B better, p = 1" in out
    assert re.search(r"test_clear\s+3/3\s+0/3\s+A higher", out)


def test_repeats_against_one_run_pair_on_the_task(tmp_path, capsys) -> None:
    a = write(tmp_path / "a.jsonl", [*repeats(f"{MAB}[t1]", "PF"), *repeats(f"{MAB}[t2]", "PP")])
    b = write(tmp_path / "b.jsonl", [record(f"{MAB}[t1]", True), record(f"{MAB}[t2]", False)])
    got = figures(a, b, capsys)
    assert got["total"]["verdicts"] == {"A higher": 1, "B higher": 1, "equal": 0}
    assert {x["task"] for x in got["tasks"]} == {f"{MAB}[t1]", f"{MAB}[t2]"}


@pytest.mark.parametrize(
    ("nodeid", "repeat", "key"),
    [
        ("t.py::test_a[r3]", 3, "t.py::test_a"),
        ("t.py::test_a[12 - 4-r2]", 2, "t.py::test_a[12 - 4]"),
        ("t.py::test_a[r2-12 - 4]", 2, "t.py::test_a[12 - 4]"),
        ("t.py::test_a[v2-r3]", 3, "t.py::test_a[v2]"),
        ("t.py::test_a[x-r1-v2]", 1, "t.py::test_a[x-v2]"),
        ("t.py::test_a[r2]", None, "t.py::test_a[r2]"),  # a task's own parameter, no repeats
    ],
)
def test_the_task_key_drops_only_the_repeat(nodeid: str, repeat: int | None, key: str) -> None:
    assert task_key({"nodeid": nodeid, "repeat": repeat}) == key


def test_a_record_without_its_repeat_is_read_from_its_id_in_a_run_with_repeats() -> None:
    assert task_key({"nodeid": "t.py::test_a[x-r4]", "repeat": None}, repeated=True) == "t.py::test_a[x]"


@pytest.mark.parametrize(
    ("nodeid", "suite"),
    [
        ("task_suites/spabench/english/test_notes.py::test_x[a]", "spabench"),
        ("task_suites/mobilebench/test_sms.py::test_x", "mobilebench"),
        ("tests/e2e/test_calc.py::test_x", "tests/e2e"),
        ("test_calc.py::test_x", "."),
    ],
)
def test_the_suite_is_the_folder_under_task_suites_else_the_files_folder(nodeid: str, suite: str) -> None:
    assert suite_of(nodeid) == suite


def test_the_html_page_links_both_trajectories_of_each_differing_task(two_runs, tmp_path, capsys) -> None:
    a, b = two_runs
    # A's records name their folders (one with a contact sheet); B's are found under its artifacts folder.
    a_records = results.episodes(a)
    for r in a_records:
        if not r["infrastructure"]:
            folder = tmp_path / "a-art" / trajectory.slug(r["nodeid"])
            folder.mkdir(parents=True)
            r["artifacts"] = str(folder)
            if r["nodeid"].endswith("[s1]"):
                (folder / "contact-sheet.png").write_bytes(b"\x89PNG")
    write(a, a_records)
    b_art = tmp_path / "b-art"
    for r in results.episodes(b):
        trajectory.folder_of(b_art, r["nodeid"], r["retried"]).mkdir(parents=True, exist_ok=True)
    b_records = results.episodes(b)
    b_records[0]["failure_message"] = "<script>alert(1)</script> was not 8\nassert '9' == '8'"
    write(b, b_records)
    page = tmp_path / "out" / "compare.html"
    code, out, err = run(a, b, "--html", page, "--b-artifacts", b_art, capsys=capsys)
    assert code == 0, err
    text = page.read_text()
    links = re.findall(r'href="([^"]+)"', text)
    # Four differing tasks, each with a link per side, and s1's contact sheet with its folder.
    assert len(links) == 2 * 4 + 1
    for link in links:
        assert not Path(link).is_absolute()
        assert (page.parent / unquote(link)).exists(), link
    assert any(link.endswith("contact-sheet.png") for link in links)
    assert "<script>" not in text
    assert "&lt;script&gt;alert(1)&lt;/script&gt; was not 8\nassert &#x27;9&#x27; == &#x27;8&#x27;" in text
    assert f"{MAB}[s4]" in text and f"{MAB}[s4] failed" in text  # A's failure message, where A failed
    assert "<td>both pass</td>" not in text.split("Tasks that differ")[1]


def test_the_html_page_without_trajectories_says_the_outcomes(two_runs, tmp_path, capsys) -> None:
    page = tmp_path / "compare.html"
    code, _, _ = run(*two_runs, "--html", page, capsys=capsys)
    assert code == 0
    text = page.read_text()
    assert "href=" not in text
    assert text.count('<span class="fail">fail</span>') == 4 and "only in A:" in text


def refused(capsys, *args: str | Path) -> str:
    code, out, err = run(*args, capsys=capsys)
    assert code == 2 and out == ""
    return err


def test_a_missing_file_is_refused(two_runs, tmp_path, capsys) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "pytest_mobile_agent.reporting.compare", two_runs[0], tmp_path / "nope.jsonl"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr == f"error: {tmp_path / 'nope.jsonl'}: no such results file\n"
    assert "not a file" in refused(capsys, tmp_path, two_runs[1])


def test_a_file_with_no_episodes_is_refused(two_runs, tmp_path, capsys) -> None:
    only_aggregate = write(tmp_path / "agg.jsonl", [{"type": "aggregate", "overall": {}}])
    assert "agg.jsonl: no episode records" in refused(capsys, only_aggregate, two_runs[1])
    empty = write(tmp_path / "empty.jsonl", [])
    assert "empty.jsonl: no episode records" in refused(capsys, two_runs[0], empty)
    binary = tmp_path / "binary.jsonl"
    binary.write_bytes(b"\xff\xfe\x00")
    assert "binary.jsonl: not a results file" in refused(capsys, binary, two_runs[1])


def test_two_files_with_no_task_in_common_are_refused(two_runs, tmp_path, capsys) -> None:
    other = write(tmp_path / "other.jsonl", [record("test_other.py::test_x", True)])
    assert "have no task in common" in refused(capsys, two_runs[0], other)
    lost = write(tmp_path / "lost.jsonl", [infrastructure(f"{MAB}[s1]")])
    assert "have no task in common" in refused(capsys, lost, two_runs[1])


def test_a_record_without_the_fields_it_needs_is_refused(two_runs, tmp_path, capsys) -> None:
    bad = write(tmp_path / "bad.jsonl", [{"type": "episode", "nodeid": "t.py::test_x"}])
    assert "bad.jsonl: episode record 1 has no success, infrastructure, termination" in refused(
        capsys, bad, two_runs[1]
    )


def test_oracle_against_noop_is_all_a_only(run_tasks, calc_tasks, pytester, tmp_path) -> None:
    """Two real sessions over the calculator tasks, compared by the command in a sub-process; the
    noop run's records name their trajectory folders, which the page links without being told."""
    oracle = run_tasks(calc_tasks, "--agent=oracle", "-p", "no:randomly")
    assert oracle.overall["successes"] == 4
    first = (pytester.path / "results.jsonl").rename(tmp_path / "oracle.jsonl")
    art = tmp_path / "noop-art"
    noop = run_tasks(calc_tasks, "--agent=noop", "-p", "no:randomly", f"--mobile-artifacts={art}")
    assert noop.overall["episodes"] == 4 and noop.overall["successes"] == 0
    page = tmp_path / "compare.html"
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest_mobile_agent.reporting.compare",
            first,
            pytester.path / "results.jsonl",
            "--json",
            "--html",
            page,
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    got = json.loads(done.stdout)
    assert got["total"]["verdicts"] == {"both pass": 0, "both fail": 0, "A only": 4, "B only": 0}
    assert got["total"]["p_value"] == pytest.approx(2 / 16)
    assert got["a"]["runners"] == ["oracle"] and got["b"]["runners"] == ["noop"]
    links = re.findall(r'href="([^"]+)"', page.read_text())
    assert len(links) >= 4 and all((page.parent / unquote(link)).exists() for link in links)
