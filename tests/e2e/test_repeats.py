"""--mobile-repeat=K: every task runs K times as items of their own (`-r1`..`-rK`), each from a
fresh reset, and the summary's statistics over the repeats equal hand-computed ones."""

from __future__ import annotations

import json

import pytest
from calc_tasks import calc_tasks as calc_task_file

from tests.model_server import Answer, ModelServer

SUMS = (("3 + 5", "3+5=", "8"), ("12 - 4", "12-4=", "8"), ("3 ^ 3", "3^3=", "27"))

# Replays the golden path on the 1st and 3rd episode of each prompt it is given and gives up at
# once on the 2nd; "3 ^ 3" it always solves. One process (no xdist), items in order: its n-th
# episode of a task is that task's r{n}.
FLAKY = """
from collections import Counter

from pytest_mobile_agent import Done


class Agent:
    name = "flaky"

    def __init__(self):
        self.started = Counter()

    def step(self, observation):
        if observation.step == 1:
            self.started[observation.prompt] += 1
        run = self.started[observation.prompt]
        if run % 2 == 0 and "3 ^ 3" not in observation.prompt:
            return Done("not this time")
        golden = observation.task.golden
        i = len(observation.history)
        return golden[i] if i < len(golden) else Done()
"""


def _ids(run) -> list[str]:  # noqa: ANN001
    return [e["nodeid"].split("[", 1)[1] for e in run.episodes]


def test_every_task_runs_k_times_with_ids_r1_to_rk(run_tasks, pytester) -> None:
    files = {"test_calc.py": calc_task_file(SUMS[:2])}
    args = ("--agent=oracle", "--mobile-repeat=3", "-p", "no:randomly", "-p", "no:xdist", "--alluredir=allure")
    run = run_tasks(files, *args)
    run.result.assert_outcomes(passed=6)
    assert _ids(run) == [
        "3 + 5-3+5=-8-r1]",
        "3 + 5-3+5=-8-r2]",
        "3 + 5-3+5=-8-r3]",
        "12 - 4-12-4=-8-r1]",
        "12 - 4-12-4=-8-r2]",
        "12 - 4-12-4=-8-r3]",
    ]
    assert [e["repeat"] for e in run.episodes] == [1, 2, 3, 1, 2, 3]
    assert {e["task"] for e in run.episodes} == {"test_arithmetic"}
    # Each run starts from a fresh reset: the calculator shows the result of its own taps only.
    assert all(e["success"] and e["steps"] == e["golden_steps"] for e in run.episodes)
    repeats = run.aggregate["repeats"]
    assert repeats["tasks"] == {
        "test_calc.py::test_arithmetic[3 + 5-3+5=-8]": {"runs": 3, "passes": 3},
        "test_calc.py::test_arithmetic[12 - 4-12-4=-8]": {"runs": 3, "passes": 3},
    }
    assert repeats["flaky"] == [] and repeats["SR_spread"] == 0.0
    assert all(v["pass@k"] == v["pass^k"] == 1.0 for v in repeats["pass_at_k"].values())
    assert run.lines("repeats: ") == [
        "repeats: 3 runs of each task; SR % 100.0 ± 0.0 between repeats (r1 100.0, r2 100.0, r3 100.0)"
    ]
    # Allure: each repeat is a case of its own; the environment gives the interval and pass@k.
    folder = pytester.path / "allure"
    cases = [json.loads(p.read_text()) for p in folder.glob("*-result.json")]
    assert len({c["historyId"] for c in cases}) == 6
    env = (folder / "environment.properties").read_text()
    assert "repeats=3" in env and "flaky.tasks=none" in env and "pass^k=k=1 1.000, k=2 1.000, k=3 1.000" in env
    # ... and each case its task's passes of its runs, none marked flaky.
    assert [_passes(c) for c in cases] == ["3 of 3"] * 6
    assert not any(c.get("statusDetails", {}).get("flaky") for c in cases)


def _passes(case: dict) -> str:
    return next(p["value"] for p in case["parameters"] if p["name"] == "passes of its runs")


def test_a_flaky_agent_gets_the_hand_computed_statistics_and_its_flaky_tasks_named(run_tasks, pytester) -> None:
    files = {"test_calc.py": calc_task_file(SUMS), "flaky_agent.py": FLAKY}
    args = ("--agent=flaky_agent.py", "--mobile-repeat=3", "--alluredir=allure", "-p", "no:randomly")
    run = run_tasks(files, *args, "-p", "no:xdist")
    run.result.assert_outcomes(passed=7, failed=2)
    assert [(e["repeat"], e["success"]) for e in run.episodes] == [
        (1, True),
        (2, False),
        (3, True),
        (1, True),
        (2, False),
        (3, True),
        (1, True),
        (2, True),
        (3, True),
    ]
    overall, repeats = run.overall, run.aggregate["repeats"]
    # 7 of 9: Wilson's 95% interval, worked out by hand (docs' Statistics page, z = 1.95996).
    assert overall["SR"] == 7 / 9
    assert [round(x, 4) for x in overall["SR_interval"]] == [0.4526, 0.9368]
    # SR by repeat: 3/3, 1/3, 3/3; sample standard deviation sqrt(((2/9)² + (4/9)² + (2/9)²) / 2).
    assert repeats["SR_by_repeat"] == {"1": 1.0, "2": 1 / 3, "3": 1.0}
    assert round(repeats["SR_spread"], 4) == 0.3849
    # Per task (n, c): (3, 2), (3, 2), (3, 3). pass@k = 1 - C(n-c, k)/C(n, k); pass^k = C(c, k)/C(n, k).
    at = {k: (round(v["pass@k"], 4), round(v["pass^k"], 4)) for k, v in repeats["pass_at_k"].items()}
    assert at == {"1": (0.7778, 0.7778), "2": (1.0, round(5 / 9, 4)), "3": (1.0, round(1 / 3, 4))}
    flaky = ["test_calc.py::test_arithmetic[12 - 4-12-4=-8]", "test_calc.py::test_arithmetic[3 + 5-3+5=-8]"]
    assert repeats["flaky"] == flaky
    assert repeats["tasks"]["test_calc.py::test_arithmetic[3 ^ 3-3^3=-27]"] == {"runs": 3, "passes": 3}
    assert run.lines("repeats: ") == [
        "repeats: 3 runs of each task; SR % 77.8 ± 38.5 between repeats (r1 100.0, r2 33.3, r3 100.0)"
    ]
    assert run.lines("pass^k: ") == ["pass^k: k=1 0.778  k=2 0.556  k=3 0.333"]
    assert run.lines("flaky: ") == [f"flaky: {t} passed 2 of 3 runs" for t in flaky]
    assert run.table_row()["SR 95%"] == "[0.45, 0.94]"
    # Allure: each case gives its task's passes of its runs, and a flaky task's cases carry
    # Allure's flaky mark, the failed run's and the passed runs' alike.
    cases = [json.loads(p.read_text()) for p in (pytester.path / "allure").glob("*-result.json")]
    shown = sorted((c["name"], _passes(c), bool(c.get("statusDetails", {}).get("flaky"))) for c in cases)
    said = "Calculate the result of '{}'"
    flaky_ones = [(said.format("12 - 4"), "2 of 3", True), (said.format("3 + 5"), "2 of 3", True)]
    assert shown == sorted([*flaky_ones * 3, *[(said.format("3 ^ 3"), "3 of 3", False)] * 3])


@pytest.mark.parametrize(
    "given, said",
    [
        ("--mobile-repeat=0", "--mobile-repeat=0: every task runs at least once; give 1 or more"),
        ("--mobile-variations=-2", "--mobile-variations=-2: every task runs at least once; give 1 or more"),
        ("-omobile_variations=many", "--mobile-variations='many': expected a whole number of runs, 1 or more"),
        ("-omobile_repeat=two", "--mobile-repeat='two': expected a whole number of runs, 1 or more"),
    ],
)
def test_a_repeat_or_variation_count_that_is_no_count_of_runs_is_a_usage_error(
    run_tasks, calc_tasks, given, said
) -> None:
    run = run_tasks(calc_tasks, "--agent=oracle", given)
    assert run.result.ret == 4
    run.result.stderr.fnmatch_lines([f"*{said}*"])
    assert run.episodes == []


def test_the_ini_value_repeats_as_the_option_does(run_tasks, calc_tasks) -> None:
    run = run_tasks(calc_tasks, "--agent=oracle", "-omobile_repeat=2", "--collect-only", "-q")
    listed = [line for line in run.result.outlines if "::" in line]
    assert len(listed) == 8 and all(line.endswith(("-r1]", "-r2]")) for line in listed)


def test_a_recording_with_repeats_asks_the_model_every_time_and_a_replay_gives_each_repeat_its_own(
    run_tasks, tmp_path
) -> None:
    # Every repeat sends the same request (a fresh reset, the same screen); the server answers
    # each with usage of its own (tokens_out = its count of requests), so each episode's
    # tokens say which answer it was served.
    server = ModelServer()
    server.script = lambda request: Answer(
        'Reason: nothing to do\nAction: {"action_type": "status", "goal_status": "complete"}',
        tokens_in=100,
        tokens_out=len(server.requests),
    )
    cache = tmp_path / "model-cache"
    files = {"test_calc.py": calc_task_file(SUMS[:1])}
    args = ("--agent=t3a", "--mobile-model=test-model", "--mobile-repeat=3", "-p", "no:randomly", "-p", "no:xdist")
    with server:
        recorded = run_tasks(files, *args, f"--mobile-model-url={server.url}", f"--mobile-model-cache={cache}")
    assert len(server.requests) == 3 and len({json.dumps(r["messages"]) for r in server.requests}) == 1
    tokens = {e["nodeid"]: e["tokens_out"] for e in recorded.episodes}
    assert sorted(tokens.values()) == [1, 2, 3], tokens
    assert all(e["model_calls"] == 1 and e["model_cached"] == 0 for e in recorded.episodes)

    replayed = run_tasks(files, *args, f"--mobile-model-cache={cache}", "--mobile-model-replay")
    assert {e["nodeid"]: e["tokens_out"] for e in replayed.episodes} == tokens
    assert all(e["model_calls"] == e["model_cached"] == 1 for e in replayed.episodes)
