"""Validity gates for the Mobile-Bench-style suite (task_suites/mobilebench): 20 SAST, 20 SAMT
and 10 MAMT queries; the oracle passes every one by its UI path and by its API path (with step
ratio 1.0, and Mobile-Bench's CheckPoints passing on both), in English and in zh-CN; noop passes
none; every near miss fails, having run as written, in both languages. Each run uses two xdist
workers."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
import suite_runs

from pytest_mobile_agent.actions import Action
from pytest_mobile_agent.tasks import instantiate, spec_of

ROOT = Path(__file__).resolve().parents[2]
SUITE = ROOT / "task_suites" / "mobilebench"


def run_suite(tmp_path: Path, agent: str, *args: str, golden: str = "ui") -> tuple[str, list[dict]]:
    proc, episodes = suite_runs.run_suite(
        SUITE,
        tmp_path,
        agent,
        "-n",
        "2",
        "-p",
        "no:randomly",
        *args,
        env={"MOBILEBENCH_GOLDEN": golden},
        name=f"{agent}-{golden}",
    )
    return proc.stdout, episodes


def specs() -> dict[str, object]:
    """Every task's @task spec by name, from the suite's modules."""
    import importlib

    found = {}
    for kind in ("sast", "samt", "mamt"):
        module = importlib.import_module(f"task_suites.mobilebench.test_{kind}")
        for value in vars(module).values():
            spec = spec_of(value)
            if spec is not None:
                found[spec.name] = spec
    return found


def declared_params() -> dict[str, dict]:
    """Each query's declared parameters (its first parametrize case; none for most)."""
    import importlib

    from pytest_mobile_agent.variations import declared_cases

    found = {}
    for kind in ("sast", "samt", "mamt"):
        module = importlib.import_module(f"task_suites.mobilebench.test_{kind}")
        for value in vars(module).values():
            spec = spec_of(value)
            if spec is not None:
                marks = [m for m in getattr(value, "pytestmark", []) if m.name == "parametrize"]
                found[spec.name] = declared_cases(marks)[1][0].values
    return found


def both_paths(spec, params: dict) -> tuple[list[Action], list[Action]]:
    """The API and the UI golden path, with the query's parameters bound (a query that varies)."""
    old = os.environ.get("MOBILEBENCH_GOLDEN")
    try:
        paths = []
        for which in ("api", "ui"):
            os.environ["MOBILEBENCH_GOLDEN"] = which
            paths.append(list(instantiate(spec, spec.name, params).golden))
        return paths[0], paths[1]
    finally:
        os.environ.pop("MOBILEBENCH_GOLDEN") if old is None else os.environ.__setitem__("MOBILEBENCH_GOLDEN", old)


def test_the_suite_has_20_sast_20_samt_and_10_mamt_queries_with_two_paths_each():
    tasks = specs()
    kinds = {k: [n for n in tasks if n.startswith(f"mb_{k}_")] for k in ("sast", "samt", "mamt")}
    assert {k: len(v) for k, v in kinds.items()} == {"sast": 20, "samt": 20, "mamt": 10}
    limits = {"sast": 10, "samt": 20, "mamt": 50}
    params = declared_params()
    for kind, names in kinds.items():
        for name in names:
            spec = tasks[name]
            api, ui = both_paths(spec, params[name])
            assert spec.max_steps == limits[kind] and not spec.launch, name  # from HOME, Mobile-Bench's limits
            assert any(a.kind == "api" and a.command.startswith("am start") for a in api) or name in {
                "mb_sast_open_calculator",
                "mb_sast_open_notes",
                "mb_sast_calculate",
                "mb_samt_checklist",
                "mb_samt_calc_chain",
                "mb_samt_calc_divide",
            }, f"{name}: no intent on its API path"
            assert ui and all(a.kind != "api" for a in ui), f"{name}: its UI path calls an API"
            assert len(spec.near_misses()) >= 2, f"{name}: fewer than two near misses"
            assert (len(spec.apps) > 1) == (kind == "mamt"), f"{name}: {spec.apps}"


@pytest.mark.parametrize("golden", ["ui", "api"])
def test_oracle_passes_every_query_by_either_path_and_the_checkpoints_agree(tmp_path, golden):
    out, episodes = run_suite(tmp_path, "oracle", "--mobile-judge=checkpoints", golden=golden)
    assert len(episodes) == 50, out[-3000:]
    bad = [(e["task"], e["steps"], e["golden_steps"]) for e in episodes if not e["success"] or e["se"] != 1.0]
    assert not bad, f"queries the oracle did not solve in exactly the golden steps by the {golden} path: {bad}"
    missed = [
        (e["task"], e["judges"]["checkpoints"]["reason"]) for e in episodes if not e["judges"]["checkpoints"]["passed"]
    ]
    assert not missed, f"CheckPoints that miss the {golden} path: {missed}"


@pytest.mark.parametrize("golden", ["ui", "api"])
def test_oracle_passes_every_query_in_zh_cn_too(tmp_path, golden):
    """The golden paths name English texts; the oracle follows them in the device's locale."""
    out, episodes = run_suite(tmp_path, "oracle", "--mobile-locale=zh-CN", golden=golden)
    assert len(episodes) == 50, out[-3000:]
    assert not [e["task"] for e in episodes if not e["success"]], out[-3000:]


def test_noop_passes_no_query(tmp_path):
    out, episodes = run_suite(tmp_path, "noop")
    assert len(episodes) == 50, out[-3000:]
    assert not [e["task"] for e in episodes if e["success"]]


@pytest.mark.parametrize("locale", ["en-US", "zh-CN"])
def test_every_near_miss_fails_as_written(tmp_path, locale):
    expected = sum(len(spec.near_misses()) for spec in specs().values())
    out, episodes = run_suite(tmp_path, "near-miss", "-m", "near_miss", f"--mobile-locale={locale}")
    assert len(episodes) == expected, out[-3000:]
    suite_runs.assert_near_misses_fail_as_written(episodes, f" on a {locale} device")
