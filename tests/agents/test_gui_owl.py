"""The gui-owl agent in process, with a scripted client: each release's template and coordinate
convention, the conversation 1.5 keeps, its answers and malformed ones. Coordinates are worked
out by hand from a 1080x2340 screen sent at 216x468 (--mobile-model-image-side 512)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from pytest_mobile_agent.actions import Action, InvalidAction
from pytest_mobile_agent.agents.baselines.gui_owl import GUIOwl, release_for
from pytest_mobile_agent.agents.baselines.image_space import ABSOLUTE, RELATIVE
from pytest_mobile_agent.agents.loader import load_agent
from pytest_mobile_agent.models import ModelConfig
from pytest_mobile_agent.models.messages import text_of
from tests.agents.test_ui_tars import sent_size
from tests.models.test_agents import ScriptedClient, observe

V3, V15 = "mPLUG/GUI-Owl-7B", "mPLUG/GUI-Owl-1.5-8B-Instruct"


def agent_for(*answers: str, model: str = V15, coordinates: str | None = None) -> GUIOwl:
    agent = GUIOwl()
    agent.client = ScriptedClient(list(answers), ModelConfig(model=model, image_side=512, coordinates=coordinates))
    agent.reset(observe().task)
    return agent


def call(**args: Any) -> str:
    return f"<tool_call>\n{json.dumps({'name': 'mobile_use', 'arguments': args})}\n</tool_call>"


def v15(line: str, **args: Any) -> str:
    return f"Action: {line}\n{call(**args)}"


def v3(thinking: str, conclusion: str, **args: Any) -> str:
    return f"<thinking>\n{thinking}\n</thinking>\n{call(**args)}\n<conclusion>\n{conclusion}\n</conclusion>"


# -- releases and their coordinates ------------------------------------------------------------
@pytest.mark.parametrize(
    "model, release, convention",
    [
        ("GUI-Owl-7B", "v3", ABSOLUTE),
        ("mPLUG/GUI-Owl-32B", "v3", ABSOLUTE),
        ("mPLUG/GUI-Owl-1.5-8B-Instruct", "1.5", RELATIVE),
        ("GUI-Owl-1.5-32B-Think", "1.5", RELATIVE),
        ("gui-owl-15-2b", "1.5", RELATIVE),
        ("my-owl-finetune", "1.5", RELATIVE),  # the name does not tell: the newest release
    ],
)
def test_the_release_and_convention_follow_the_model_name(model: str, release: str, convention: str) -> None:
    assert release_for(model)[:2] == (release, convention)


def test_an_explicit_convention_overrides_the_name_but_keeps_the_release() -> None:
    assert release_for(V3, RELATIVE) == ("v3", RELATIVE, "set by --mobile-model-coordinates")
    with pytest.raises(ValueError, match="must be one of absolute, relative"):
        release_for(V3, "grid")
    # a 1.5 name read in pixels: the image as v3's resize makes it, 224x476; (112, 238) is its centre
    agent = agent_for(v15("Tap the middle.", action="click", coordinate=[112, 238]), coordinates=ABSOLUTE)
    action = agent.step(observe())
    assert (action.x, action.y) == (540, 1170)
    assert agent.settings()["coordinates"].startswith("absolute (set by")
    assert "The screen is 224x476" in text_of(agent.client.asked[0][0])


# GUI-Owl-7B: pixels of the 216x468 image as its processor resizes it (224x476).
def test_v3_points_are_pixels_of_the_resized_image() -> None:
    agent = agent_for(v3("The middle.", "I tapped the middle.", action="click", coordinate=[112, 238]), model=V3)
    action = agent.step(observe())
    assert (action.kind, action.x, action.y) == ("tap", 540, 1170)
    assert action.reasoning == "The middle."
    assert sent_size(agent.client.asked[0][-1]) == (216, 468)


# GUI-Owl-1.5: x / 999 of the screen, as Mobile-Agent-v3.5 maps it (not / 1000: 540, 1170).
@pytest.mark.parametrize("point, expected", [([500, 500], (541, 1171)), ([999, 999], (1079, 2339)), ([0, 0], (0, 0))])
def test_v15_points_are_on_a_grid_divided_by_999(point: list[int], expected: tuple[int, int]) -> None:
    action = agent_for(v15("Tap.", action="click", coordinate=point)).step(observe())
    assert (action.x, action.y) == expected


# -- the templates -----------------------------------------------------------------------------
def test_v3_sees_one_turn_with_the_conclusions_so_far() -> None:
    agent = agent_for(
        v3("The title field is empty.", "I tapped the title field.", action="click", coordinate=[112, 20]),
        v3("Now the text.", "I typed the title.", action="type", text="Shopping"),
        model=V3,
    )
    assert agent.step(observe()).kind == "tap"
    assert agent.step(observe(2)).kind == "type"
    first, second = agent.client.asked
    assert [m["role"] for m in second] == ["system", "user"]
    tools = text_of(first[0])
    assert tools.startswith("You are a helpful assistant.") and "The screen is 224x476" in tools
    schema = json.loads(tools.split("<tools>\n", 1)[1].split("\n</tools>", 1)[0])
    assert schema["function"]["parameters"]["properties"]["action"]["enum"] == [
        "click",
        "long_press",
        "swipe",
        "type",
        "system_button",
        "wait",
        "answer",
        "terminate",
    ]  # v3's tool: no key, no open
    assert "The user query: Write the title 'Shopping'" in text_of(first[1])
    assert "on this device): ." in text_of(first[1])
    assert "on this device): Step 1: I tapped the title field.; ." in text_of(second[1])
    assert "<conclusion></conclusion>" in text_of(second[1])


def test_v15_keeps_the_latest_five_screenshots_and_tells_the_steps_before() -> None:
    answers = [v15(f"Tap row {n}.", action="click", coordinate=[500, 100 * n]) for n in range(1, 8)]
    agent = agent_for(*answers)
    for n in range(1, 8):
        agent.step(observe(n))
    first, seventh = agent.client.asked[0], agent.client.asked[6]
    assert [m["role"] for m in first] == ["system", "user"]
    assert "Previous actions:\nNo previous action." in text_of(first[1])
    assert "The screen is 1000x1000" in text_of(first[0]) and "# Response format" in text_of(first[0])
    assert [m["role"] for m in seventh] == ["system", *["user", "assistant"] * 4, "user"]
    images = [p for m in seventh for p in (m["content"] if isinstance(m["content"], list) else [])]
    assert sum(p.get("type") == "image_url" for p in images) == 5
    assert "Previous actions:\nStep1: Tap row 1.\nStep2: Tap row 2." in text_of(seventh[1])
    assert "Instruction: Write the title 'Shopping'" in text_of(seventh[1])
    assert text_of(seventh[2]) == answers[2]  # the answers to the kept screenshots, as the model wrote them


def test_a_thinking_model_reasons_before_its_action_line() -> None:
    answer = "<think>The title field is at the top.</think>\n" + v15(
        "Tap the title field.", action="tap", coordinate=[500, 75]
    )
    agent = agent_for(answer, model="GUI-Owl-1.5-8B-Think")
    action = agent.step(observe())
    assert (action.kind, action.x, action.y) == ("tap", 541, 176)  # `tap` read as `click`, as Mobile-Agent does
    assert action.reasoning == "Tap the title field."


def test_answer_ends_the_episode_with_the_answer_in_the_record() -> None:
    agent = agent_for(v15("Report the total.", action="answer", text="42"))
    assert agent.step(observe()).kind == "done"
    usage = agent.episode_usage()
    assert usage["answer"] == "42"
    assert usage["agent_settings"] == {
        "coordinates": RELATIVE,
        "coordinates_why": f"{V15} is GUI-Owl-1.5 (0-1000 grid, divided by 999)",
        "image_sent": [216, 468],
        "image_size": [224, 476],
        "release": "1.5",
    }
    assert agent_for(model=V3).settings()["release"] == "GUI-Owl v3"


@pytest.mark.parametrize(
    "answer, problem",
    [
        ("Action: Tap the save button.", "no <tool_call>"),
        (v15("Tap.", action="click"), "click needs coordinate=[x, y], not None"),
        (v15("Press.", action="system_button", button="Power"), "system_button must be Back, Home, Menu or Enter"),
        (v15("Fly.", action="fly"), "unknown action 'fly'"),
    ],
)
def test_a_malformed_answer_is_an_invalid_step_with_its_text(answer: str, problem: str) -> None:
    agent = agent_for(answer, answer)
    action = agent.step(observe())
    with pytest.raises(InvalidAction, match="unreadable model answer") as info:
        Action.parse(action)
    assert problem in str(info.value)
    assert action.tokens_in == 100 and action.reasoning
    agent.step(observe(2))
    assert text_of(agent.client.asked[1][2]) == answer  # the conversation keeps the unreadable answer too


def test_loaded_by_name() -> None:
    assert isinstance(load_agent("gui-owl"), GUIOwl)
