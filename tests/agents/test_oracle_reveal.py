"""The oracle and near-miss replays on a display shorter than the path was written on: a step
whose target is off screen is preceded by scrolls of the scrolling view (down, then up once a
scroll moved nothing), which count as steps of the episode but not of the path; past
MAX_REVEALS the step is named as matching nothing."""

from __future__ import annotations

import pytest

from pytest_mobile_agent.actions import Tap
from pytest_mobile_agent.agents import Observation, StepRecord, TaskInfo
from pytest_mobile_agent.agents.builtin import MAX_REVEALS, NearMissAgent, OracleAgent, reveal_scroll
from pytest_mobile_agent.device.ui_tree import UiTree
from pytest_mobile_agent.errors import GoldenPathError

FLAGS = (
    'content-desc="" checkable="false" checked="false" clickable="true" enabled="true" focusable="true" '
    'focused="false" long-clickable="false" password="false" selected="false"'
)


def screen(*texts: str) -> str:
    rows = "".join(
        f'<node index="{i}" text="{t}" resource-id="" class="android.widget.TextView" package="p" {FLAGS} '
        f'scrollable="false" bounds="[0,{i * 100}][100,{i * 100 + 100}]" />'
        for i, t in enumerate(texts)
    )
    return (
        "<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation=\"0\">"
        f'<node index="0" text="" resource-id="p:id/list" class="android.widget.ScrollView" package="p" {FLAGS} '
        f'scrollable="true" bounds="[0,0][100,300]">{rows}</node></hierarchy>'
    )


PATH = (Tap(text="Settings"), Tap(text="Theme"))


def observe(xml: str, history: list[dict], near_miss: bool = False) -> Observation:
    info = TaskInfo("t", "p", ("p",), 2, 4, PATH, near_miss=PATH if near_miss else ())
    records = [StepRecord(i, action, True) for i, action in enumerate(history)]
    return Observation("p", len(records) + 1, xml, UiTree(xml), info, records)


TAPPED = {"action": "tap", "text": "Settings"}
DOWN, UP = reveal_scroll("down"), reveal_scroll("up")


@pytest.mark.parametrize("agent", [OracleAgent(), NearMissAgent()], ids=["oracle", "near-miss"])
def test_a_target_below_the_fold_is_scrolled_to_then_tapped(agent):
    near = isinstance(agent, NearMissAgent)
    assert agent.step(observe(screen("Settings", "Sound"), [TAPPED], near)) == DOWN
    revealed = [TAPPED, DOWN.to_json()]
    assert agent.step(observe(screen("Sound", "Theme"), revealed, near)) == PATH[1]  # the path's step 2, not 3
    assert agent.step(observe(screen("Theme"), [*revealed, {"action": "tap", "text": "Theme"}], near)).kind == "done"


def test_once_a_scroll_moves_nothing_the_target_is_looked_for_above():
    agent = OracleAgent()
    bottom = screen("Sound", "Wallpaper")  # scrolled to the end: Theme is above
    assert agent.step(observe(bottom, [TAPPED])) == DOWN
    assert agent.step(observe(bottom, [TAPPED, DOWN.to_json()])) == UP  # the same screen: the end
    assert agent.step(observe(screen("Theme", "Sound"), [TAPPED, DOWN.to_json(), UP.to_json()])) == PATH[1]


def test_a_target_no_scroll_reveals_is_named_as_matching_nothing():
    history = [TAPPED] + [DOWN.to_json()] * MAX_REVEALS
    with pytest.raises(GoldenPathError, match=r"step 2 of 2 \(tap text='Theme'\) matches nothing"):
        OracleAgent().step(observe(screen("Sound"), history))
