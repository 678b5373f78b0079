"""Gates for the SPA-Bench-style suite (task_suites/spabench): the oracle passes every task in
exactly its golden steps, English tasks on an English device and Chinese ones on a zh-CN
device; noop passes none; every near miss fails having run as written; each level is a prefix
of the next; the key components are on the oracle's final screen and not on the start screen;
the cross-app tasks' subtask splits are in SPA-Bench's shape and follow the golden path's apps."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import suite_runs

from pytest_mobile_agent.device.ui_tree import UiTree
from pytest_mobile_agent.judges.key_components import normalize
from task_suites.spabench import cross_app, levels
from task_suites.spabench import sets as single_app

ROOT = Path(__file__).resolve().parents[2]
SUITE = ROOT / "task_suites" / "spabench"
HERE = Path(__file__).resolve().parent


def run_suite(tmp_path: Path, agent: str, *args: str) -> tuple[subprocess.CompletedProcess, list[dict], dict]:
    """One run of the suite over two xdist workers: its episode records, and each task's final
    hierarchy by node id (tests/suites/end_state_plugin.py)."""
    states = tmp_path / f"{agent}-end.jsonl"
    env = {"PMA_END_STATES": str(states), "PYTHONPATH": os.pathsep.join([str(HERE), os.environ.get("PYTHONPATH", "")])}
    proc, episodes = suite_runs.run_suite(
        SUITE, tmp_path, agent, "-p", "end_state_plugin", "-p", "no:randomly", "-n", "2", *args, env=env
    )
    lines = states.read_text().splitlines() if states.exists() else []
    finals = {state["nodeid"]: state["hierarchy"] for state in map(json.loads, lines)}
    return proc, episodes, finals


def collect() -> list[str]:
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", str(SUITE), "--collect-only", "-q", "--agent=noop", "-p", "no:cacheprovider"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    return [line for line in proc.stdout.splitlines() if "::" in line]


def screen_text(hierarchy: str) -> str:
    """What SPA-Bench's key-component matcher compares against: the screen's texts joined,
    lowercased, without whitespace (the hierarchy's texts and descriptions instead of OCR)."""
    return normalize("".join(n.text + n.desc for n in UiTree(hierarchy).nodes()))


@pytest.fixture(scope="module")
def collected() -> list[str]:
    return collect()


@pytest.fixture(scope="module")
def oracle(tmp_path_factory) -> tuple[subprocess.CompletedProcess, list[dict], dict]:
    return run_suite(tmp_path_factory.mktemp("oracle"), "oracle")


@pytest.fixture(scope="module")
def noop(tmp_path_factory) -> tuple[subprocess.CompletedProcess, list[dict], dict]:
    return run_suite(tmp_path_factory.mktemp("noop"), "noop")


def test_the_suite_has_20_sets_of_3_levels_per_language_and_10_cross_app_tasks_per_language(collected):
    single = [n for n in collected if "test_single_app.py" in n]
    cross = [n for n in collected if "test_cross_app.py" in n]
    for lang in levels.LANGUAGES:
        assert len([n for n in single if n.endswith(f"_{lang}")]) == 3 * len(single_app.SETS) >= 60
        assert len([n for n in cross if n.endswith(f"_{lang}")]) == len(cross_app.TASKS) >= 10
    apps = {levels.in_language(s, lang).app for s in single_app.SETS for lang in levels.LANGUAGES}
    assert apps == set(levels.APP_NAMES_CHN), "a set on each of the ten apps"


def test_each_level_is_the_one_below_plus_one_part():
    for spa in single_app.SETS:
        for lang in levels.LANGUAGES:
            specs = [levels.make_task(spa, level, lang).__mobile_task__ for level in (1, 2, 3)]
            for lower, higher in zip(specs, specs[1:], strict=False):
                assert higher.prompt.startswith(lower.prompt) and higher.prompt != lower.prompt, higher.name
                assert list(higher.golden[: len(lower.golden)]) == list(lower.golden), higher.name
                assert len(higher.golden) > len(lower.golden)
            assert specs[0].locale == levels.LANGUAGES[lang]
            assert all(len(spec.near_misses()) >= 2 for spec in specs), f"{specs[0].name}: fewer than 2 near misses"


def test_cross_app_splits_are_in_spa_benchs_shape():
    for t in cross_app.TASKS:
        assert len(t.apps) == (3 if t.category == "Multi_Apps" else 2), t.name("ENG")
        # The golden path opens the apps in the split's order.
        launched = [a.package for a in t.golden if a.kind == "launch"]
        assert launched == [s.app for s in t.subtasks][: len(launched)], t.name("ENG")
        for lang in levels.LANGUAGES:
            split = cross_app.split_file(t, lang)
            assert split["task_description"] == (t.en if lang == "ENG" else t.zh)
            subtasks = [split[f"subtask_{i}"] for i in range(1, len(t.subtasks) + 1)]
            assert set(split) == {"task_description", *(f"subtask_{i}" for i in range(1, len(subtasks) + 1))}
            for sub in subtasks:
                assert set(sub) == {"app", "task", "history", "memory"}
            for a, b in zip(subtasks, subtasks[1:], strict=False):
                assert a["app"] != b["app"], f"{t.name(lang)}: adjacent subtasks on the same app"
            # Each {memory} a subtask refers to was named by an earlier one, and it says it needs history.
            named: set[str] = set()
            for sub in subtasks:
                used = set(re.findall(r"\{([^}]+)\}", sub["task"]))
                assert used <= named, f"{t.name(lang)}: {sub['task']!r} refers to {used - named}, never named"
                assert not used or sub["history"] is True, f"{t.name(lang)}: {sub['task']!r} without history"
                if sub["memory"] != "None":
                    named.add(sub["memory"])


def test_oracle_passes_every_task_in_its_golden_steps(oracle, collected):
    proc, episodes, _ = oracle
    assert proc.returncode == 0, proc.stdout[-3000:]
    assert len(episodes) == len(collected) > 0
    bad = [(e["task"], e["steps"], e["golden_steps"]) for e in episodes if not e["success"] or e["se"] != 1.0]
    assert not bad, f"tasks the oracle did not solve in exactly the golden steps: {bad}"


def test_the_oracle_runs_chinese_tasks_on_a_chinese_device(oracle):
    _, _, finals = oracle
    assert finals, "no final screens were recorded"
    chinese = [h for nodeid, h in finals.items() if nodeid.endswith("_CHN") and "com.simplemobiletools" in h]
    assert chinese and all(any("\u4e00" <= ch <= "\u9fff" for ch in h) for h in chinese), (
        "a Chinese task's final screen shows no Chinese text"
    )


def test_the_oracle_passes_english_tasks_on_a_chinese_device_and_chinese_tasks_on_an_english_one(tmp_path):
    """The golden paths are written once, in the apps' English texts and their ids: an explicit
    --mobile-locale (which wins over each task's) swaps the devices' languages."""
    for lang, locale in (("ENG", "zh-CN"), ("CHN", "en-US")):
        (tmp_path / locale).mkdir()
        proc, episodes, _ = run_suite(tmp_path / locale, "oracle", "-k", f"_{lang}", f"--mobile-locale={locale}")
        assert len(episodes) == 3 * len(single_app.SETS) + len(cross_app.TASKS), proc.stdout[-3000:]
        failed = [e["task"] for e in episodes if not e["success"] or e["se"] != 1.0]
        assert not failed, f"tasks the oracle did not solve on a {locale} device: {failed}"


def test_noop_fails_every_task(noop, collected):
    _, episodes, _ = noop
    assert len(episodes) == len(collected) > 0
    broken = [e["nodeid"] for e in episodes if e["success"]]
    assert not broken, f"tasks that pass without a single action are broken: {broken}"


def test_key_components_are_on_the_oracles_final_screen_and_not_on_the_start_screen(oracle, noop):
    _, episodes, done = oracle
    _, _, start = noop
    keyed = {e["nodeid"]: e for e in episodes if e["task"] in KEYS}
    assert len(keyed) >= 100
    missing, at_start = [], []
    for nodeid, e in keyed.items():
        keys = [normalize(k) for k in KEYS[e["task"]]]
        if not all(k in screen_text(done[nodeid]) for k in keys):
            missing.append((e["task"], KEYS[e["task"]]))
        if all(k in screen_text(start[nodeid]) for k in keys):
            at_start.append((e["task"], KEYS[e["task"]]))
    assert not missing, f"key components missing from the oracle's final screen: {missing}"
    assert not at_start, f"key components the start screen already shows: {at_start}"


KEYS = {  # each task's key components, in its language
    name: spec.judge_inputs["key_components"]
    for spa in single_app.SETS
    for level in (1, 2, 3)
    for lang in levels.LANGUAGES
    if "key_components" in (spec := levels.make_task(spa, level, lang).__mobile_task__).judge_inputs
    and (name := levels.task_name(levels.in_language(spa, lang), level, lang))
}


def test_near_misses_fail_and_run_as_written(tmp_path, collected):
    """Every near miss (the last part done wrong, the goal plus a change nobody asked for, the
    level below) fails, after executing every step as written."""
    proc, episodes, _ = run_suite(tmp_path, "near-miss", "-m", "near_miss")
    assert len(episodes) >= 2 * len(collected), proc.stdout[-3000:]
    suite_runs.assert_near_misses_fail_as_written(episodes)
