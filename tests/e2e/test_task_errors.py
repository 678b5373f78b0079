"""Malformed tasks: one clear message naming the file, the task and what is wrong, with and
without xdist; the session's valid tasks still run."""

from __future__ import annotations

import pytest

HEADER = """
import pytest
from pytest_mobile_agent import Tap, task

CALC = "com.simplemobiletools.calculator"


@task(prompt="Calculate 3 + 5", app=CALC, golden=[Tap(text=k) for k in "3+5="])
def test_valid(ui, changes):
    changes.allow(CALC, "files/history.json")  # the calculator keeps its history
    assert ui.text_of("result") == "8"
"""

CASES = {
    "placeholder": (
        '@task(prompt="Weather in {city}", app=CALC, golden=[Tap(text="1")])',
        "malformed task 'test_bad' in test_bad.py::test_bad: prompt uses {city} but the test has no such parameter",
    ),
    "golden-42": (
        "@task(prompt='Add', app=CALC, golden=42)",
        "malformed task 'test_bad' in test_bad.py::test_bad: golden path must be a list of actions "
        "(or a function of the parameters returning one), not 42 (int)",
    ),
    "no-prompt": (
        "@task(app=CALC, golden=[Tap(text='1')])",
        "malformed task 'test_bad' in test_bad.py::test_bad: no prompt: declare it with @task(prompt=",
    ),
    "bad-golden-step": (
        "@task(prompt='Add', app=CALC, golden=[Tap(text='1'), {'action': 'fly'}])",
        "malformed task 'test_bad' in test_bad.py::test_bad: golden path step 2: unknown action kind 'fly'",
    ),
}


def _reported(out: str) -> str:
    """The report before pytest's short summary, which repeats each message (whole where the CI
    variable is set, cut to the terminal's width elsewhere)."""
    return out.split("short test summary info")[0]


def _body(decorator: str) -> str:
    return f"\n\n{decorator}\ndef test_bad(ui):\n    assert True\n"


@pytest.mark.parametrize("xdist", [("-p", "no:xdist"), ("-n", "2")], ids=["alone", "xdist"])
@pytest.mark.parametrize("case", sorted(CASES))
def test_malformed_task_fails_alone_with_one_message(run_tasks, case, xdist):
    decorator, message = CASES[case]
    run = run_tasks({"test_bad.py": HEADER + _body(decorator)}, *xdist, "--agent=oracle")
    out = run.result.stdout.str()
    assert "INTERNALERROR" not in out and "Traceback" not in out, out
    outcomes = run.result.parseoutcomes()
    assert outcomes["passed"] == 1 and outcomes["errors"] == 1, out
    assert _reported(out).count(message) == 1, out  # once, not once per worker
    (valid,) = run.episodes
    assert valid["success"] and valid["nodeid"] == "test_bad.py::test_valid"


NOT_INSTALLED = """

@task(prompt="Check the weather", app="com.example.weather", golden=[Tap(text="Today")])
def test_weather(ui):
    assert ui.find(text="Sunny")
"""


@pytest.mark.parametrize("xdist", [("-p", "no:xdist"), ("-n", "2")], ids=["alone", "xdist"])
def test_app_not_installed_is_a_task_error_with_a_results_line(run_tasks, xdist):
    run = run_tasks({"test_apps.py": HEADER + NOT_INSTALLED}, *xdist, "--agent=oracle")
    out = run.result.stdout.str()
    run.result.assert_outcomes(passed=1, failed=1)
    message = "test_apps.py::test_weather: task 'test_weather': com.example.weather is not installed on "
    assert _reported(out).count(message) == 1 and "Traceback" not in out, out
    missing = next(e for e in run.episodes if e["nodeid"].endswith("test_weather"))
    assert missing["termination"] == "task_error" and not missing["success"] and not missing["infrastructure"]
    overall = run.aggregate["overall"]
    assert overall["episodes"] == 1 and overall["task_errors"] == 1 and overall["SR"] == 1.0


UNMATCHED = """

@task(prompt="Calculate 2 + 2", app=CALC, golden=[Tap(text="2"), Tap(text="plus"), Tap(text="2"), Tap(text="=")])
def test_typo(ui):
    assert ui.text_of("result") == "4"
"""


def test_oracle_names_the_first_golden_step_that_matches_nothing(run_tasks):
    run = run_tasks({"test_paths.py": HEADER + UNMATCHED}, "-p", "no:xdist", "--agent=oracle")
    run.result.assert_outcomes(passed=1, failed=1)
    run.result.stdout.fnmatch_lines(
        ["*golden path step 2 of 4 (tap text='plus') matches nothing on the screen of task 'test_typo'*"]
    )
    typo = next(e for e in run.episodes if e["nodeid"].endswith("test_typo"))
    assert typo["termination"] == "error" and typo["steps"] == 1  # stopped at the step, not at the budget


BROKEN_PRECONDITION = """

@pytest.fixture
def dana_texted(device):
    # An apostrophe inside single quotes: the device's shell answers with a syntax error.
    device.sh("content insert --uri content://sms/inbox --bind address:s:5550123 --bind 'body:s:Hi, it's Dana'")


@task(prompt="Add 2 and 2", app=CALC, golden=[Tap(text=k) for k in "2+2="])
def test_seeded(ui, dana_texted, changes):
    changes.allow(CALC, "files/history.json")
    assert ui.text_of("result") == "4"
"""


@pytest.mark.parametrize("xdist", [("-p", "no:xdist"), ("-n", "2")], ids=["alone", "xdist"])
def test_a_fixture_whose_shell_command_fails_ends_the_task_as_a_task_error(run_tasks, xdist):
    run = run_tasks({"test_seeds.py": HEADER + BROKEN_PRECONDITION}, *xdist, "--agent=oracle")
    out = run.result.stdout.str()
    run.result.assert_outcomes(passed=1, errors=1)  # the oracle's path would pass: the task never ran
    assert "syntax error: unterminated quoted string" in out and "Traceback" not in out, out
    seeded = next(e for e in run.episodes if e["nodeid"].endswith("test_seeded"))
    assert seeded["termination"] == "task_error" and not seeded["success"] and not seeded["infrastructure"]
    assert "content insert --uri content://sms/inbox" in seeded["error"] and "syntax error" in seeded["error"]
    overall = run.aggregate["overall"]
    assert overall["task_errors"] == 1 and overall["episodes"] == 1 and overall["SR"] == 1.0  # counted neither way
