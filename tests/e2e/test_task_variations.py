"""@task(variations=...) under --mobile-variations=N and --mobile-seed=S: each declared case runs as
N drawn variations (ids `<case>-v1`..), the records say which and with what; without the option
nothing changes; a bad declaration fails its own task with a clear message."""

from __future__ import annotations

import pytest

HEADER = """
import pytest
from pytest_mobile_agent import Tap, task

CALC = "com.simplemobiletools.calculator"


def keys(text):
    return [Tap(text=k) for k in text]
"""

SUMS = """

def vary(rng):
    a, b = rng.randint(10, 99), rng.randint(10, 99)
    return {"expression": f"{a} + {b}", "presses": f"{a}+{b}=", "expected": str(a + b)}


@pytest.mark.parametrize("expression, presses, expected", [("3 + 5", "3+5=", "8"), ("2 + 2", "2+2=", "4")],
                         ids=["three", "two"])
@task(prompt="Calculate the result of '{expression}'", app=CALC, golden=lambda presses: keys(presses),
      variations=vary)
def test_sum(ui, changes, expected):
    changes.allow(CALC, "files/history.json")
    assert ui.text_of("result") == expected


# `b` is read only by the prompt and the golden path.
@pytest.mark.parametrize("a, b", [(6, 7)])
@task(prompt="Calculate {a} × {b}", app=CALC, golden=lambda a, b: keys(f"{a}×{b}="),
      variations=lambda rng: {"a": rng.randint(2, 9), "b": rng.randint(2, 9)})
def test_product(ui, changes, a):
    changes.allow(CALC, "files/history.json")
    assert ui.text_of("formula").startswith(f"{a}×")
"""

VALID = """

@task(prompt="Calculate 3 + 5", app=CALC, golden=keys("3+5="))
def test_valid(ui, changes):
    changes.allow(CALC, "files/history.json")
    assert ui.text_of("result") == "8"
"""


def test_each_case_runs_as_n_drawn_variations_which_the_oracle_passes(run_tasks):
    run = run_tasks({"test_v.py": HEADER + SUMS}, "--agent=oracle", "--mobile-variations=3", "--mobile-seed=7")
    run.result.assert_outcomes(passed=9)
    ids = sorted(e["nodeid"].split("::")[1] for e in run.episodes)
    expected_ids = [f"test_product[6-7-v{i}]" for i in (1, 2, 3)]
    expected_ids += [f"test_sum[{case}-v{i}]" for case in ("three", "two") for i in (1, 2, 3)]
    assert ids == sorted(expected_ids)
    sums = [e for e in run.episodes if "test_sum" in e["nodeid"]]
    for episode in sums:
        params = episode["params"]
        a, b = (int(x) for x in params["expression"].split(" + "))
        assert params["expected"] == str(a + b) and params["presses"] == f"{a}+{b}="
        assert episode["prompt"] == f"Calculate the result of '{params['expression']}'"
        assert episode["variation"] == int(episode["nodeid"][-2])
    drawn = {e["params"]["expression"] for e in sums}
    assert len(drawn) >= 5, f"six variations drew only {drawn}"  # two cases, three each, from 8100 sums


def test_without_the_option_the_declared_cases_run_as_before(run_tasks):
    run = run_tasks({"test_v.py": HEADER + SUMS}, "--agent=oracle")
    run.result.assert_outcomes(passed=3)
    ids = sorted(e["nodeid"].split("::")[1] for e in run.episodes)
    assert ids == ["test_product[6-7]", "test_sum[three]", "test_sum[two]"]
    assert all(e["variation"] is None and e["params"] is None for e in run.episodes)


NO_PARAMETERS = """

# No parameters declared: the drawn names become the parameters (under --mobile-variations only).
@task(prompt="Calculate {a} + {b}", app=CALC, golden=lambda a, b: keys(f"{a}+{b}="),
      variations=lambda rng: {"a": rng.randint(2, 9), "b": rng.randint(2, 9)})
def test_drawn(ui, changes, a):
    changes.allow(CALC, "files/history.json")
    assert ui.text_of("formula").startswith(f"{a}+")
"""


def test_a_task_without_parameters_gets_the_drawn_names_as_parameters(run_tasks):
    run = run_tasks({"test_v.py": HEADER + NO_PARAMETERS}, "--agent=oracle", "--mobile-variations=2")
    run.result.assert_outcomes(passed=2)
    assert sorted(e["nodeid"].split("::")[1] for e in run.episodes) == ["test_drawn[v1]", "test_drawn[v2]"]
    for episode in run.episodes:
        a, b = episode["params"]["a"], episode["params"]["b"]
        assert episode["prompt"] == f"Calculate {a} + {b}"


def test_the_noop_agent_fails_every_variation(run_tasks):
    run = run_tasks({"test_v.py": HEADER + SUMS}, "--agent=noop", "--mobile-variations=2", "-n", "2")
    run.result.assert_outcomes(failed=6)
    assert {e["variation"] for e in run.episodes} == {1, 2}


BAD = {
    "not-a-function": ("variations=3", "variations must be a function of a random.Random returning the parameters"),
    "unknown-name": (
        'variations=lambda rng: {"expresion": "1 + 1"}',
        "variations gives expresion, not parameters of the task (it has: expected, expression, presses)",
    ),
    "not-a-dict": ("variations=lambda rng: [1, 2]", "variations must return a dict of parameter names to values"),
    "raises": ("variations=lambda rng: 1 / 0", "the variations function raised ZeroDivisionError"),
    "no-generator": ("variations=lambda: {}", "variations must take the random generator as its first parameter"),
    "unknown-case-name": (
        "variations=lambda rng, city: {}",
        "variations asks for city, which the task's cases do not give",
    ),
}


@pytest.mark.parametrize("case", sorted(BAD))
def test_a_bad_declaration_fails_its_own_task_with_what_is_wrong(run_tasks, case):
    argument, message = BAD[case]
    bad = f"""

@pytest.mark.parametrize("expression, presses, expected", [("3 + 5", "3+5=", "8")])
@task(prompt="Calculate '{{expression}}'", app=CALC, golden=lambda presses: keys(presses), {argument})
def test_bad(ui, expected):
    assert ui.text_of("result") == expected
"""
    run = run_tasks({"test_bad.py": HEADER + VALID + bad}, "--agent=oracle", "--mobile-variations=2")
    out = run.result.stdout.str()
    assert "INTERNALERROR" not in out and "Traceback" not in out, out
    outcomes = run.result.parseoutcomes()
    assert outcomes["passed"] == 1 and outcomes["errors"] >= 1, out
    assert "malformed task 'test_bad' in test_bad.py::test_bad[" in out
    assert message in out, out


@pytest.mark.parametrize("value", ["0", "-2", "two"])
def test_variations_must_be_a_whole_number_from_1(run_tasks, value):
    run = run_tasks({"test_v.py": HEADER + VALID}, "--agent=oracle", f"--mobile-variations={value}")
    assert run.result.ret != 0
    assert run.episodes == []
    assert "--mobile-variations" in run.result.stderr.str() + run.result.stdout.str()
