"""The qwen-vl agent in process, with a scripted client: each release's coordinate convention,
every action of the `mobile_use` tool, malformed calls, the answer in the record and the prompt.
Coordinates are worked out by hand from a 1080x2340 screen."""

from __future__ import annotations

import json
from typing import Any

import pytest

from pytest_mobile_agent.actions import Action, InvalidAction, Key, Launch, Type, Wait
from pytest_mobile_agent.agents.baselines.image_space import ABSOLUTE, MAX_PIXELS, MIN_PIXELS, RELATIVE, smart_resize
from pytest_mobile_agent.agents.baselines.qwen_vl import QWEN25_MIN_PIXELS, QwenVL, convention_for, read_tool_call
from pytest_mobile_agent.agents.loader import load_agent
from pytest_mobile_agent.models import ModelConfig
from pytest_mobile_agent.models.messages import text_of
from tests.agents.test_ui_tars import sent_size
from tests.models.test_agents import PKG, TASK, ScriptedClient, observe


def agent_for(
    *answers: str, model: str = "Qwen2.5-VL-7B-Instruct", side: int = 512, coordinates: str | None = None
) -> QwenVL:
    agent = QwenVL()
    agent.client = ScriptedClient(list(answers), ModelConfig(model=model, image_side=side, coordinates=coordinates))
    agent.reset(TASK)
    return agent


def call(**args: Any) -> str:
    return f"I act.\n<tool_call>\n{json.dumps({'name': 'mobile_use', 'arguments': args})}\n</tool_call>"


def act(answer: str, **kw: Any) -> Action:
    return agent_for(answer, **kw).step(observe())


# -- versions and their coordinates ------------------------------------------------------------
@pytest.mark.parametrize(
    "model, convention",
    [
        ("Qwen2.5-VL-7B-Instruct", ABSOLUTE),
        ("Qwen/Qwen2.5-VL-72B-Instruct-AWQ", ABSOLUTE),
        ("qwen2_5vl:7b", ABSOLUTE),
        ("Qwen/Qwen3-VL-8B-Instruct", RELATIVE),
        ("Qwen3-VL-235B-A22B-Thinking", RELATIVE),
        ("qwen3-vl:30b", RELATIVE),
        ("my-finetune", RELATIVE),  # the name does not tell: the newest release's convention
    ],
)
def test_the_convention_follows_the_model_name(model: str, convention: str) -> None:
    assert convention_for(model)[0] == convention


def test_an_explicit_convention_overrides_the_name() -> None:
    assert convention_for("Qwen3-VL-8B", ABSOLUTE) == (ABSOLUTE, "set by --mobile-model-coordinates")
    with pytest.raises(ValueError, match="must be one of absolute, relative"):
        convention_for("Qwen3-VL-8B", "pixels")
    agent = agent_for(call(action="click", coordinate=[500, 500]), model="Qwen3-VL-8B", coordinates=ABSOLUTE)
    assert agent.settings()["coordinates"].startswith("absolute (set by")


def test_qwen25_allows_smaller_images_than_ui_tars() -> None:
    assert smart_resize(50, 50, QWEN25_MIN_PIXELS, MAX_PIXELS) == (56, 56)  # 56 * 56 = 4 * 28 * 28
    assert smart_resize(50, 50, MIN_PIXELS, MAX_PIXELS) == (280, 280)


# At --mobile-model-image-side 512 the 1080x2340 screen is sent at 216x468, which Qwen2.5-VL's
# processor makes 224x476: (112, 238) is its centre, (540, 1170) on the device.
def test_qwen25_points_are_pixels_of_the_resized_image() -> None:
    agent = agent_for(call(action="click", coordinate=[112, 238]))
    action = agent.step(observe())
    assert (action.kind, action.x, action.y) == ("tap", 540, 1170)
    assert sent_size(agent.client.asked[0][-1]) == (216, 468)
    assert "The screen is 224x476" in text_of(agent.client.asked[0][0])  # the tool names the space


def test_qwen3_points_are_on_a_0_1000_grid() -> None:
    agent = agent_for(call(action="click", coordinate=[250, 100]), model="Qwen3-VL-8B-Instruct")
    action = agent.step(observe())
    assert (action.x, action.y) == (270, 234)
    assert "The screen is 1000x1000" in text_of(agent.client.asked[0][0])


# -- every action ------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "args, expected",
    [
        ({"action": "long_press", "coordinate": [56, 119], "time": 2}, Action("long_press", x=270, y=585)),
        (
            {"action": "swipe", "coordinate": [112, 357], "coordinate2": [112, 119]},
            Action("swipe", x=540, y=1755, x2=540, y2=585, duration_ms=500),
        ),
        ({"action": "type", "text": "Shopping"}, Type("Shopping")),
        ({"action": "key", "text": "KEYCODE_DEL"}, Key("del")),
        ({"action": "key", "text": "enter"}, Key("enter")),
        ({"action": "system_button", "button": "Back"}, Key("back")),
        ({"action": "system_button", "button": "Home"}, Key("home")),
        ({"action": "system_button", "button": "Menu"}, Key("menu")),
        ({"action": "system_button", "button": "Enter"}, Key("enter")),
        ({"action": "open", "text": "Notes"}, Launch(PKG)),
        ({"action": "wait", "time": 3}, Wait(3.0)),
        ({"action": "wait"}, Wait(2.0)),
    ],
)
def test_every_action_of_the_tool(args: dict[str, Any], expected: Action) -> None:
    action = act(call(**args))
    assert (action.kind, action.x, action.y, action.x2, action.y2, action.duration_ms) == (
        expected.kind,
        expected.x,
        expected.y,
        expected.x2,
        expected.y2,
        expected.duration_ms,
    )
    assert (action.text, action.key, action.package, action.seconds) == (
        expected.text,
        expected.key,
        expected.package,
        expected.seconds,
    )


def test_answer_ends_the_episode_with_the_answer_in_the_record() -> None:
    agent = agent_for(f"The display reads 42.\n{call(action='answer', text='42')[len('I act.') :]}")
    action = agent.step(observe())
    assert action.kind == "done" and action.reasoning == "The display reads 42."
    usage = agent.episode_usage()
    assert usage["answer"] == "42"
    assert usage["agent_settings"] == {
        "coordinates": ABSOLUTE,
        "coordinates_why": "Qwen2.5-VL-7B-Instruct is Qwen2.5-VL (pixels of the resized image)",
        "image_sent": [216, 468],
        "image_size": [224, 476],
    }


def test_terminate_succeeds_or_gives_up() -> None:
    assert act(call(action="terminate", status="success")).kind == "done"
    agent = agent_for(call(action="terminate", status="failure"))
    assert agent.step(observe()).reasoning == "infeasible: I act."
    assert agent.episode_usage()["gave_up"] is True


@pytest.mark.parametrize(
    "answer",
    [
        '<tool_call>{"name": "mobile_use", "arguments": {"action": "click", "coordinate": [112, 238]}}',  # cut off
        '<tool_call>\n```json\n{"name": "mobile_use", "arguments": {"action": "click", "coordinate": [112, 238]}}\n```'
        "\n</tool_call>",
        '<tool_call>{"name": "mobile_use", "arguments": "{\\"action\\": \\"click\\", \\"coordinate\\": [112, 238]}"}'
        "</tool_call>",  # the arguments as a JSON string
        '<think>maybe <tool_call>{"name": "mobile_use", "arguments": {"action": "wait"}}</tool_call>?</think>\n'
        '<tool_call>{"name": "mobile_use", "arguments": {"action": "click", "coordinate": [112, 238]}}</tool_call>',
    ],
)
def test_forgiven_forms(answer: str) -> None:
    action = act(answer)
    assert (action.kind, action.x, action.y) == ("tap", 540, 1170)


@pytest.mark.parametrize(
    "answer, problem",
    [
        ("I would tap the save button.", "no <tool_call>"),
        ("Tap it.\n<tool_call>{'name': 'mobile_use'}</tool_call>", "not JSON"),
        ('Tap it.\n<tool_call>{"name": "computer_use", "arguments": {}}</tool_call>', "must be {'name': 'mobile_use'"),
        ('Tap it.\n<tool_call>{"name": "mobile_use", "arguments": {}}</tool_call>', "need an 'action'"),
        (call(action="click"), "click needs coordinate=[x, y], not None"),
        (call(action="click", coordinate=[1, 2, 3]), "click needs coordinate=[x, y]"),
        (call(action="swipe", coordinate=[1, 2]), "swipe needs coordinate2=[x, y]"),
        (call(action="type"), "type needs text="),
        (call(action="key", text="ctrl_c"), "key 'ctrl_c': this phone has"),
        (call(action="system_button", button="Power"), "system_button must be Back, Home, Menu or Enter"),
        (call(action="wait", time="soon"), "wait needs time in seconds"),
        (call(action="terminate", status="done"), "terminate needs status success or failure"),
        (call(action="open", text="Maps"), "no app called 'Maps'"),
        (call(action="fly"), "unknown action 'fly'"),
    ],
)
def test_a_malformed_answer_is_an_invalid_step_with_its_text(answer: str, problem: str) -> None:
    action = act(answer)
    with pytest.raises(InvalidAction, match="unreadable model answer") as info:
        Action.parse(action)
    assert problem in str(info.value)
    assert action.tokens_in == 100
    assert action.reasoning and action.reasoning.split()[0] in answer  # the model's text is kept


def test_read_tool_call_takes_the_first_call() -> None:
    two = call(action="type", text="a") + call(action="type", text="b")
    assert read_tool_call(two) == {"action": "type", "text": "a"}


def test_the_prompt_lists_the_earlier_calls() -> None:
    agent = agent_for(call(action="click", coordinate=[112, 238]), call(action="type", text="Shopping"))
    agent.step(observe())
    agent.step(observe(2))
    first, second = agent.client.asked
    assert [m["role"] for m in second] == ["system", "user"]
    assert "Nothing yet." in text_of(first[1])
    assert 'Step 1: {"name": "mobile_use", "arguments": {"action": "click", "coordinate": [112, 238]}}' in text_of(
        second[1]
    )
    assert "The user's task: Write the title 'Shopping'" in text_of(second[1])


def test_loaded_by_name() -> None:
    assert isinstance(load_agent("qwen-vl"), QwenVL)
