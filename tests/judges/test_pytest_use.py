"""Judges in a pytest session: --mobile-judge beside the bodies, the calibration table with a
scripted judge wrong on a known set of tasks, judge-only tasks, @task's judge inputs."""

from __future__ import annotations

import json
import re

from calc_tasks import calc_tasks

# Bodies: the oracle passes the first four, fails the last two (their expected value is wrong).
SUMS = (
    ("3 + 5", "3+5=", "8"),
    ("12 × 4", "12×4=", "48"),
    ("3 ^ 3", "3^3=", "27"),
    ("12 - 4", "12-4=", "8"),
    ("1 + 1", "1+1=", "3"),
    ("2 + 2", "2+2=", "5"),
)
# The scripted judge: wrong on '3 + 5' (a false negative) and '1 + 1' (a false positive).
SAYS_PASSED = {"3 + 5": False, "12 × 4": True, "3 ^ 3": True, "12 - 4": True, "1 + 1": True, "2 + 2": False}


def judge_script(request):
    text = " ".join(p.get("text", "") for p in request["messages"][-1]["content"] if p["type"] == "text")
    expression = re.search(r"Calculate the result of '([^']+)'", text)[1]
    return "Result: 1" if SAYS_PASSED[expression] else "Result: 0"


def table_rows(lines: list[str]) -> dict[str, list[str]]:
    start = next(i for i, line in enumerate(lines) if "judges against the task bodies" in line)
    header = lines[start + 1].split()
    return {
        line.split()[0]: dict(zip(header, line.split(), strict=True))
        for line in lines[start + 3 :]
        if line.strip()
        and not line.startswith(("=", "-", "results:", "FAILED", "AssertionError"))
        and len(line.split()) == len(header)
    }


def test_the_printed_f1_of_a_judge_wrong_on_known_tasks(run_tasks, model_server, tmp_path):
    model_server.script = judge_script
    prices = tmp_path / "prices.json"
    prices.write_text(json.dumps({"test-model": {"input": 1.0, "output": 2.0}}))
    run = run_tasks(
        {"test_calc.py": calc_tasks(SUMS)},
        "--agent=oracle",
        "--mobile-judge=mllm",
        "--mobile-judge-model=test-model",
        f"--mobile-model-url={model_server.url}",
        f"--mobile-prices={prices}",
    )
    run.result.assert_outcomes(passed=4, failed=2)
    row = table_rows(run.result.outlines)["mllm"]
    # TP 3, FN 1 ('3 + 5'), FP 1 ('1 + 1'), TN 1: precision = recall = F1 = 0.75, accuracy 4/6.
    assert (row["N"], row["TP"], row["FP"], row["FN"], row["TN"], row["abst"]) == ("6", "3", "1", "1", "1", "0")
    assert (row["precision"], row["recall"], row["F1"], row["accuracy"]) == ("0.750", "0.750", "0.750", "0.667")
    tin, tout = model_server.totals()
    assert row["tokens"] == str(tin + tout) and row["USD"] == f"{(tin * 1.0 + tout * 2.0) / 1e6:.4f}"
    for ep in run.episodes:  # both verdicts in every record
        assert ep["body_success"] is ep["success"] and ep["judges"]["mllm"]["passed"] in (True, False)


JUDGE_ONLY = """
from pytest_mobile_agent import task, Tap

@task(prompt="Calculate the result of '3 + 5'", app="com.simplemobiletools.calculator", judge_only=True,
      golden=[Tap(text=k) for k in "3+5="], checkpoints={"key_phrases": ["3", "+", "5", "="]})
def test_judged_only():
    pass
"""


def test_a_judge_only_task_fails_without_a_judge_and_is_decided_by_its_judges(run_tasks):
    run = run_tasks({"test_only.py": JUDGE_ONLY}, "--agent=oracle")
    run.result.assert_outcomes(failed=1)
    assert "judged only by judges; run it with --mobile-judge=NAME" in run.result.stdout.str()
    assert run.episodes[0]["body_success"] is None
    run = run_tasks({"test_only.py": JUDGE_ONLY}, "--agent=oracle", "--mobile-judge=checkpoints")
    run.result.assert_outcomes(passed=1)
    run = run_tasks({"test_only.py": JUDGE_ONLY}, "--agent=noop", "--mobile-judge=checkpoints")
    run.result.assert_outcomes(failed=1)
    assert "checkpoints: CheckPoints l1 0/0, l2 0/4" in run.result.stdout.str()
    assert "judges against the task bodies" not in run.result.stdout.str()  # no body: nothing to calibrate


def test_unknown_judges_stop_the_session_with_the_known_names(run_tasks):
    run = run_tasks({"test_calc.py": calc_tasks()}, "--agent=oracle", "--mobile-judge=checkpoint")
    known = "checkpoints, key-components, mllm, spa, autoeval"
    assert f"unknown judge 'checkpoint'; known: {known}" in run.result.stderr.str()


AUTOEVAL_CONFTEST = """
def pytest_mobile_agent_judge_inputs(item, task):
    return {"substates": ["Calculator main page is visible", "The result " + task.params["expected"] + " is shown",
                          "The history panel is open"]}
"""


def autoeval_script(request):
    content = request["messages"][-1]["content"]
    text = content if isinstance(content, str) else " ".join(p.get("text", "") for p in content)
    if "Break a phone task" in text:
        return (
            '0. PageNode(content="Calculator main page is visible", parent_id=None)\n'
            '1. UnitNode(content="The result 8 is shown", parent_id=0)\n'
            '2. UnitNode(content="The result 8 is shown", parent_id=0)\n'
            '3. UnitNode(content="oops", parent_id=None)'
        )
    count = text.count("Node(state_id=")
    return json.dumps({"states": ["true"] * count})


def test_autoeval_in_a_session_prints_the_decomposers_rates(run_tasks, model_server):
    model_server.script = autoeval_script
    run = run_tasks(
        {"test_calc.py": calc_tasks(SUMS[:1]), "conftest.py": AUTOEVAL_CONFTEST},
        "--agent=oracle",
        "--mobile-judge=autoeval",
        "--mobile-judge-model=test-model",
        f"--mobile-model-url={model_server.url}",
    )
    run.result.assert_outcomes(passed=1)
    out = run.result.stdout.str()
    assert "AutoEval State Decomposer against the reference substates" in out
    # 3 references, 2 covered; of 4 generated: 1 redundant (the same unit twice), 1 incorrect (a parentless unit)
    assert "tasks 1, reference substates 3, generated 4" in out
    assert "cover 66.67%  redundant 25.00%  optional 0.00%  incorrect 25.00%" in out
    verdict = run.episodes[0]["judges"]["autoeval"]
    assert verdict["passed"] is False and verdict["details"]["scr"] == 0.75  # the invalid node never succeeds
