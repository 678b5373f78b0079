"""The anthropic-computer-use agent in process, with a scripted client answering in the Messages
API's shapes: the screenshot's size (Anthropic's limits), the tool version from the model name,
every action of the computer tool mapped to the phone, the tool_use/tool_result conversation,
malformed answers. Coordinates are worked out by hand from a 1080x2340 screen sent at 360x780
(reduced by 3 for the default --mobile-model-image-side, 1024): a point (x, y) lands at (3x, 3y)."""

from __future__ import annotations

import base64
import io
import json
from dataclasses import dataclass, field
from typing import Any

import pytest
from PIL import Image

from pytest_mobile_agent.actions import Action, DoubleTap, InvalidAction, Key, LongPress, Swipe, Tap, Type, Wait
from pytest_mobile_agent.agents.baselines.anthropic_computer_use import (
    AnthropicComputerUse,
    display_size,
    tool_version_for,
)
from pytest_mobile_agent.agents.loader import load_agent
from pytest_mobile_agent.models import ModelConfig, ModelStats, Reply
from tests.models.test_agents import PKG, TASK, observe


@dataclass
class MessagesClient:
    """A ChatClient look-alike speaking the Messages API: each answer is the content blocks of
    one reply; it keeps every request it was asked."""

    answers: list[list[dict[str, Any]]]
    config: ModelConfig = field(default_factory=lambda: ModelConfig(model="claude-haiku-4-5", api="anthropic"))
    asked: list[dict[str, Any]] = field(default_factory=list)

    def ask(self, request: dict[str, Any]) -> Reply:
        self.asked.append(request)
        content = self.answers.pop(0)
        text = "\n".join(b["text"] for b in content if b["type"] == "text")
        stop = "tool_use" if any(b["type"] == "tool_use" for b in content) else "end_turn"
        return Reply(text, 100, 10, None, data={"content": content, "stop_reason": stop})

    def take_stats(self) -> ModelStats:
        return ModelStats()


def use(action: str, n: int = 1, **args: Any) -> list[dict[str, Any]]:
    said = {"type": "text", "text": f"I will {action}."}
    return [said, {"type": "tool_use", "id": f"toolu_{n}", "name": "computer", "input": {"action": action, **args}}]


def said(text: str) -> list[dict[str, Any]]:
    return [{"type": "text", "text": text}]


def agent_for(*answers: list[dict[str, Any]], model: str = "claude-haiku-4-5", **config: Any) -> AnthropicComputerUse:
    agent = AnthropicComputerUse()
    agent.client = MessagesClient(list(answers), ModelConfig(model=model, api="anthropic", **config))  # type: ignore[assignment]
    agent.reset(TASK)
    return agent


def act(*answers: list[dict[str, Any]], **kw: Any) -> Action:
    return agent_for(*answers, **kw).step(observe())


def asked(agent: AnthropicComputerUse) -> list[dict[str, Any]]:
    return agent.client.asked  # type: ignore[union-attr]


def image_size(block: dict[str, Any]) -> tuple[int, int]:
    return Image.open(io.BytesIO(base64.b64decode(block["source"]["data"]))).size


# -- the screenshot and the tool ---------------------------------------------------------------
@pytest.mark.parametrize(
    "size, limits, expected",
    [
        ((1080, 2340), (1024, 1_150_000), (360, 780)),  # the long edge decides: 2340 / 1024 -> 3
        ((1080, 2340), (1568, 1_150_000), (540, 1170)),  # 2340 / 1568 -> 2; 631800 pixels fit
        ((1080, 2340), (2576, 3_750_000), (1080, 2340)),  # within Opus 4.7's limits: sent whole
        ((1920, 1080), (1568, 1_150_000), (960, 540)),  # 1920 / 1568 -> 2
        ((1400, 1400), (1568, 1_150_000), (700, 700)),  # the pixels decide: 1.96 MP -> 2
        ((1081, 2341), (1568, 1_150_000), (541, 1171)),  # a side not divisible: rounded up, as reduce does
        ((1280, 800), (1568, 1_150_000), (1280, 800)),  # WXGA, the docs' size: never scaled up
    ],
)
def test_the_display_fits_anthropics_limits_by_hand(
    size: tuple[int, int], limits: tuple[int, int], expected: tuple[int, int]
) -> None:
    assert display_size(*size, *limits) == expected


@pytest.mark.parametrize(
    "model, version",
    [
        ("claude-sonnet-4-5-20250929", "computer_20250124"),
        ("claude-haiku-4-5", "computer_20250124"),
        ("claude-opus-4-1-20250805", "computer_20250124"),
        ("claude-sonnet-4-20250514", "computer_20250124"),
        ("claude-opus-4-0", "computer_20250124"),
        ("claude-3-7-sonnet-latest", "computer_20250124"),
        ("claude-opus-4-5-20251101", "computer_20251124"),
        ("claude-sonnet-4-6", "computer_20251124"),
        ("claude-opus-4-7", "computer_20251124"),
        ("my-gateway-model", "computer_20251124"),  # the name does not tell: the newest tool
    ],
)
def test_the_tool_version_follows_the_model_name(model: str, version: str) -> None:
    assert tool_version_for(model)[0] == version


def test_an_explicit_tool_version_overrides_the_name() -> None:
    assert tool_version_for("claude-opus-4-5", "computer_20250124") == (
        "computer_20250124",
        "set by --mobile-model-tool-version",
    )
    with pytest.raises(ValueError, match="must be one of computer_20251124, computer_20250124"):
        tool_version_for("claude-opus-4-5", "computer_20241022")
    agent = agent_for(said("done"), model="claude-opus-4-5", tool_version="computer_20250124")
    agent.step(observe())
    assert asked(agent)[0]["tools"][0]["type"] == "computer_20250124"
    assert asked(agent)[0]["betas"] == ["computer-use-2025-01-24"]


def test_the_request_declares_the_sent_screenshot_as_the_display() -> None:
    agent = agent_for(said("done"), model="claude-opus-4-5")
    agent.step(observe())
    request = asked(agent)[0]
    assert request["tools"] == [
        {
            "type": "computer_20251124",
            "name": "computer",
            "display_width_px": 360,
            "display_height_px": 780,
            "enable_zoom": True,
        }
    ]
    assert request["betas"] == ["computer-use-2025-11-24"]
    assert request["max_tokens"] == 4096
    assert request["tool_choice"] == {"type": "auto", "disable_parallel_tool_use": True}
    assert "Android phone" in request["system"] and "right_click: touch and hold" in request["system"]
    first = request["messages"][0]
    assert first["role"] == "user" and first["content"][0] == {"type": "text", "text": f"The task: {TASK.prompt}"}
    assert image_size(first["content"][1]) == (360, 780)
    assert first["content"][1]["source"]["media_type"] == "image/jpeg"


def test_a_larger_image_side_is_capped_by_the_models_limits() -> None:
    agent = agent_for(said("done"), image_side=4000)
    agent.step(observe())
    assert asked(agent)[0]["tools"][0]["display_width_px"] == 540  # 1568 px long edge: reduced by 2
    agent = agent_for(said("done"), model="claude-opus-4-7", image_side=4000)
    agent.step(observe())
    assert asked(agent)[0]["tools"][0]["display_height_px"] == 2340  # Opus 4.7 reads it whole


def test_max_tokens_comes_from_the_config_when_set() -> None:
    agent = agent_for(said("done"), max_tokens=1000)
    agent.step(observe())
    assert asked(agent)[0]["max_tokens"] == 1000


# -- the actions ---------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "args, expected",
    [
        # the documented examples' shapes
        ({"action": "left_click", "coordinate": [180, 390]}, Tap(540, 1170)),
        ({"action": "left_click", "coordinate": [500, 300]}, Tap(1079, 900)),  # beyond the display: the edge
        ({"action": "type", "text": "Hello, world!"}, Type("Hello, world!")),
        ({"action": "key", "text": "Return"}, Key("enter")),
        ({"action": "scroll", "coordinate": [180, 390], "scroll_direction": "down", "scroll_amount": 3}, None),
        ({"action": "wait", "duration": 2}, Wait(2.0)),
        # the rest, each mapped to the phone
        ({"action": "right_click", "coordinate": [90, 195]}, LongPress(270, 585)),
        ({"action": "double_click", "coordinate": [180, 390]}, DoubleTap(540, 1170)),
        ({"action": "triple_click", "coordinate": [180, 390]}, Action("tap", x=540, y=1170, count=3)),
        (
            {"action": "left_click_drag", "start_coordinate": [180, 600], "coordinate": [180, 150]},
            Swipe(540, 1800, 540, 450, duration_ms=600),
        ),
        ({"action": "key", "text": "Back"}, Key("back")),
        ({"action": "key", "text": "Home"}, Key("home")),
        ({"action": "key", "text": "BackSpace"}, Key("delete")),
        ({"action": "key", "text": "XF86Back"}, Key("back")),
        ({"action": "key", "text": "AppSwitch"}, Key("recent")),
        ({"action": "wait", "duration": 90}, Wait(30.0)),  # the harness's longest wait
        ({"action": "type", "text": "\n"}, Key("enter")),
    ],
)
def test_every_action_maps_to_the_phone(args: dict[str, Any], expected: Action | None) -> None:
    action = act(use(**args))
    if expected is None:  # the scroll: the scrollable list under (540, 1170), by its selector
        assert (action.kind, action.direction) == ("scroll", "down")
        assert action.selector is not None and action.selector.resourceId == f"{PKG}:id/list"
        return
    assert action == expected
    assert action.tokens_in == 100 and action.reasoning and action.reasoning.startswith("I will")


def test_type_ending_in_a_newline_types_then_presses_enter() -> None:
    agent = agent_for(use("type", text="milk\n"))
    assert agent.step(observe()) == Type("milk")
    assert agent.step(observe(2)) == Key("enter")
    assert len(asked(agent)) == 1  # the Enter is the same tool call's: no model call for it


def test_a_click_where_the_cursor_was_moved_takes_two_calls_in_one_step() -> None:
    agent = agent_for(use("mouse_move", 1, coordinate=[180, 390]), use("left_click", 2))
    assert agent.step(observe()) == Tap(540, 1170)
    second = asked(agent)[1]["messages"]
    assert second[-1]["content"] == [
        {
            "type": "tool_result",
            "tool_use_id": "toolu_1",
            "content": [{"type": "text", "text": "The finger hovers at (180, 390)."}],
        }
    ]


def test_mouse_down_move_up_is_a_drag_and_down_up_in_place_a_tap() -> None:
    agent = agent_for(
        use("left_mouse_down", 1, coordinate=[180, 600]),
        use("mouse_move", 2, coordinate=[180, 150]),
        use("left_mouse_up", 3),
    )
    assert agent.step(observe()) == Swipe(540, 1800, 540, 450, duration_ms=600)
    agent = agent_for(use("left_mouse_down", 1, coordinate=[180, 390]), use("left_mouse_up", 2))
    assert agent.step(observe()) == Tap(540, 1170)


def test_screenshot_and_zoom_are_answered_within_the_step() -> None:
    agent = agent_for(
        use("screenshot", 1),
        use("zoom", 2, region=[0, 0, 180, 195]),
        use("cursor_position", 3),
        use("left_click", 4, coordinate=[10, 10]),
        model="claude-opus-4-5",
    )
    assert agent.step(observe()) == Tap(30, 30)
    requests = asked(agent)
    shot = requests[1]["messages"][-1]["content"][0]
    assert shot["tool_use_id"] == "toolu_1" and image_size(shot["content"][0]) == (360, 780)
    zoom = requests[2]["messages"][-1]["content"][0]
    # the screen's pixels (0, 0) to (540, 585) inclusive, 541x586, scaled up to the 1024 px budget
    assert image_size(zoom["content"][0]) == (945, 1024)
    assert requests[3]["messages"][-1]["content"][0]["content"][0]["text"] == "The cursor is at no position yet."


def test_zoom_is_not_an_action_of_the_older_tool() -> None:
    action = act(use("zoom", region=[0, 0, 100, 100]), model="claude-haiku-4-5")
    with pytest.raises(InvalidAction, match="zoom is an action of computer_20251124"):
        Action.parse(action)


def test_the_next_step_answers_the_call_with_the_new_screenshot_and_the_harness_verdict() -> None:
    agent = agent_for(use("left_click", 1, coordinate=[180, 390]), use("key", 2, text="Back"), said("done"))
    agent.step(observe())
    agent.step(observe(2, last_error="(540, 1170) is off the 1080x2340 screen"))
    agent.step(observe(3))
    second, third = asked(agent)[1]["messages"], asked(agent)[2]["messages"]
    result = second[-1]["content"][0]
    assert second[1] == {"role": "assistant", "content": use("left_click", 1, coordinate=[180, 390])}
    assert result["tool_use_id"] == "toolu_1" and result["is_error"] is True
    assert result["content"][0] == {"type": "text", "text": "(540, 1170) is off the 1080x2340 screen"}
    assert image_size(result["content"][1]) == (360, 780)
    assert "is_error" not in third[-1]["content"][0]


def test_only_the_last_three_screenshots_are_sent() -> None:
    clicks = [use("left_click", n, coordinate=[10, 10]) for n in range(5)]
    agent = agent_for(*clicks, said("done"))
    for n in range(6):
        agent.step(observe(n + 1))
    messages = asked(agent)[-1]["messages"]
    images = [
        m
        for m in messages
        if m["role"] == "user"
        for b in m["content"]
        for p in ([b] + b.get("content", []))
        if p.get("type") == "image"
    ]
    left_out = [m for m in messages if m["role"] == "user" and "left out" in str(m["content"])]
    assert len(images) == 3 and len(left_out) == 3
    assert "left out" not in str(asked(agent)[0]["messages"])  # what was sent before is unchanged


def test_a_reply_without_a_tool_call_ends_the_episode_with_its_text_as_the_answer() -> None:
    agent = agent_for(said("The result is 48."))
    action = agent.step(observe())
    assert action.kind == "done" and action.reasoning == "The result is 48."
    usage = agent.episode_usage()
    assert usage["answer"] == "The result is 48." and usage["gave_up"] is False
    assert usage["agent_settings"] == {
        "coordinates": "absolute",
        "coordinates_why": "pixels of the screenshot as sent (the tool's display_width_px x display_height_px)",
        "image_sent": [360, 780],
        "tool_version": "computer_20250124",
        "tool_version_why": "claude-haiku-4-5 takes computer_20250124",
        "beta": "computer-use-2025-01-24",
        "history_images": 3,
    }


def test_infeasible_gives_up() -> None:
    agent = agent_for(said("Infeasible: this phone has no such app."))
    action = agent.step(observe())
    assert action.kind == "done"
    usage = agent.episode_usage()
    assert usage["gave_up"] is True and usage["give_up_reason"] == "this phone has no such app."
    assert usage["answer"] is None


@pytest.mark.parametrize(
    "content, problem",
    [
        (use("middle_click", coordinate=[1, 1]), "no middle button"),
        (use("hold_key", text="shift", duration=1), "no keys to hold"),
        (use("key", text="ctrl+s"), "no modifier keys"),
        (use("key", text="F5"), "the phone has no such key"),
        (use("left_click", coordinate=[1, 1], text="shift"), "'shift' held"),
        (use("left_click"), "left_click without a coordinate, and the cursor has not been placed"),
        (use("left_click", coordinate=[1]), "left_click needs coordinate=[x, y]"),
        (use("left_click", coordinate="(1, 2)"), "left_click needs coordinate=[x, y]"),
        (use("scroll", coordinate=[1, 1], scroll_direction="sideways"), "scroll needs scroll_direction"),
        (use("left_mouse_up", coordinate=[1, 1]), "left_mouse_up without left_mouse_down"),
        (use("type", text=""), "type needs text"),
        (use("wait", duration=-1), "wait needs duration"),
        (use("teleport", coordinate=[1, 1]), "unknown action 'teleport'"),
        ([{"type": "tool_use", "id": "t", "name": "bash", "input": {"command": "ls"}}], "no tool 'bash'"),
        ([{"type": "tool_use", "id": "t", "name": "computer", "input": "left_click"}], "needs an 'action'"),
    ],
)
def test_a_malformed_answer_is_an_invalid_step_with_the_raw_answer(content: list[dict[str, Any]], problem: str) -> None:
    agent = agent_for(content, said("done"))
    action = agent.step(observe())
    with pytest.raises(InvalidAction, match="unreadable model answer") as info:
        Action.parse(action)
    assert problem in str(info.value)
    assert action.tokens_in == 100
    call = next(b for b in content if b["type"] == "tool_use")
    assert json.dumps(call["input"]) in (action.reasoning or "")  # the tool call is kept, as the model wrote it
    agent.step(observe(2, last_error=str(info.value)))
    result = asked(agent)[1]["messages"][-1]["content"][0]
    assert result["tool_use_id"] == call["id"] and result["is_error"] is True and problem in str(result)


def test_calls_without_a_phone_action_are_bounded() -> None:
    agent = agent_for(*[use("screenshot", n) for n in range(5)], said("done"))
    action = agent.step(observe())
    with pytest.raises(InvalidAction, match="5 answers in a row without an action on the phone"):
        Action.parse(action)
    agent.step(observe(2))
    last = asked(agent)[-1]["messages"]
    assert [m["role"] for m in last[-2:]] == ["assistant", "user"]
    assert last[-1]["content"][0]["tool_use_id"] == "toolu_4"  # the last call answered with the next screen


def test_settings_name_the_tool_and_the_image_budget() -> None:
    agent = agent_for(model="claude-opus-4-7", image_side=4000)
    assert agent.settings() == {
        "tool": "computer_20251124 with beta computer-use-2025-11-24 (claude-opus-4-7 takes computer_20251124)",
        "screenshots": "within 2576 px long edge and 3.75 MP, coordinates in their pixels",
    }


def test_loaded_by_name_speaking_the_anthropic_api() -> None:
    agent = load_agent("anthropic-computer-use")
    assert isinstance(agent, AnthropicComputerUse) and agent.model_api == "anthropic"
