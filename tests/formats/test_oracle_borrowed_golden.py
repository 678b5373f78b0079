"""The oracle on a golden path borrowed by an original MobileAgentBench file: a step that matches
nothing on that file's setup ends the replay (the file's check decides); on a suite's own path the
same step is a GoldenPathError naming it."""

from __future__ import annotations

import pytest

from pytest_mobile_agent.actions import Tap
from pytest_mobile_agent.agents import Observation, StepRecord, TaskInfo
from pytest_mobile_agent.agents.builtin import OracleAgent
from pytest_mobile_agent.device.ui_tree import UiTree
from pytest_mobile_agent.errors import GoldenPathError

XML = (
    "<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation=\"0\">"
    '<node index="0" text="Settings" resource-id="" class="android.widget.TextView" package="p" '
    'content-desc="" checkable="false" checked="false" clickable="true" enabled="true" focusable="true" '
    'focused="false" scrollable="false" long-clickable="false" password="false" selected="false" '
    'bounds="[0,0][100,100]" /></hierarchy>'
)
GOLDEN = (Tap(text="Settings"), Tap(text="Yes"))


def observe(borrowed: bool, done_steps: int) -> Observation:
    info = TaskInfo("t", "p", ("p",), 2, 4, GOLDEN, golden_borrowed=borrowed)
    history = [StepRecord(i, {}, True) for i in range(done_steps)]
    return Observation("p", done_steps + 1, XML, UiTree(XML), info, history)


@pytest.mark.parametrize("borrowed", [False, True])
def test_a_matching_step_is_replayed(borrowed):
    assert OracleAgent().step(observe(borrowed, 0)) == GOLDEN[0]


def test_a_suite_path_step_that_matches_nothing_is_named():
    with pytest.raises(GoldenPathError, match=r"step 2 of 2 \(tap text='Yes'\) matches nothing"):
        OracleAgent().step(observe(False, 1))


def test_a_borrowed_path_ends_where_its_step_matches_nothing():
    action = OracleAgent().step(observe(True, 1))
    assert action.kind == "done" and "borrowed golden path ends" in (action.reasoning or "")
