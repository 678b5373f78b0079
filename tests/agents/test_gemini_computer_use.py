"""The gemini-computer-use agent in process, with a scripted client answering in the Gemini API's
shapes: the tool declared for a phone, every function mapped to the phone with its point worked
out by hand, the function_call/function_response conversation, safety decisions, malformed calls.
The screen is 1080x2340 and the model's points are on a 0-999 grid divided by 1000: a point
(x, y) lands at (1.08x, 2.34y), rounded."""

from __future__ import annotations

import base64
import io
from dataclasses import dataclass, field
from typing import Any

import pytest
from PIL import Image

from pytest_mobile_agent.actions import Action, Key, Launch, LongPress, Swipe, Tap, Type, Wait
from pytest_mobile_agent.agents.baselines.gemini_computer_use import EXCLUDED, GeminiComputerUse
from pytest_mobile_agent.agents.loader import load_agent
from pytest_mobile_agent.models import ModelConfig, ModelStats, Reply
from tests.models.test_agents import PKG, TASK, observe


@dataclass
class GeminiClient:
    """A ChatClient look-alike speaking the Gemini API: each answer is the parts of one candidate."""

    answers: list[list[dict[str, Any]]]
    config: ModelConfig = field(default_factory=lambda: ModelConfig(model="gemini-2.5-computer-use", api="gemini"))
    asked: list[dict[str, Any]] = field(default_factory=list)

    def ask(self, request: dict[str, Any]) -> Reply:
        self.asked.append(request)
        parts = self.answers.pop(0)
        text = "".join(p.get("text", "") for p in parts)
        return Reply(text, 100, 10, None, data={"candidates": [{"content": {"role": "model", "parts": parts}}]})

    def take_stats(self) -> ModelStats:
        return ModelStats()


def call(name: str, **args: Any) -> list[dict[str, Any]]:
    return [{"text": f"I will {name}."}, {"function_call": {"name": name, "args": args}}]


def agent_for(*answers: list[dict[str, Any]], **config: Any) -> GeminiComputerUse:
    agent = GeminiComputerUse()
    cfg = ModelConfig(model="gemini-2.5-computer-use-preview-10-2025", api="gemini", **config)
    agent.client = GeminiClient(list(answers), cfg)  # type: ignore[assignment]
    agent.reset(TASK)
    return agent


def act(*answers: list[dict[str, Any]], **kw: Any) -> Action:
    return agent_for(*answers, **kw).step(observe())


def test_the_agent_loads_by_name_and_speaks_the_gemini_api() -> None:
    agent = load_agent("gemini-computer-use")
    assert isinstance(agent, GeminiComputerUse) and agent.model_api == "gemini"


def test_the_first_request_declares_the_phone_tool_and_sends_task_and_screenshot() -> None:
    agent = agent_for(call("click_at", x=500, y=500))
    agent.step(observe())
    request = agent.client.asked[0]  # type: ignore[union-attr]
    computer, custom = request["config"]["tools"]
    assert computer["computer_use"]["environment"] == "ENVIRONMENT_BROWSER"
    assert set(computer["computer_use"]["excluded_predefined_functions"]) == set(EXCLUDED)
    assert {"navigate", "open_web_browser", "hover_at"} <= set(EXCLUDED)
    assert [f["name"] for f in custom["function_declarations"]] == ["open_app", "long_press_at", "go_home"]
    text, image = request["contents"][0]["parts"]
    assert text == {"text": f"The task: {TASK.prompt}"}
    shot = Image.open(io.BytesIO(base64.b64decode(image["inline_data"]["data"])))
    assert image["inline_data"]["mime_type"] == "image/jpeg" and shot.size == (360, 780)  # the test png, not enlarged


@pytest.mark.parametrize(
    "answer, expected",
    [
        (call("click_at", x=500, y=500), [Tap(540, 1170)]),
        (call("click_at", x=0, y=999), [Tap(0, 2338)]),
        (call("long_press_at", x=250, y=100), [LongPress(270, 234)]),
        (
            call("type_text_at", x=500, y=75, text="Shopping"),
            [Tap(540, 176), Type("Shopping", clear=True), Key("enter")],
        ),
        (call("type_text_at", x=500, y=75, text="Milk", press_enter=False), [Tap(540, 176), Type("Milk", clear=True)]),
        (
            call("type_text_at", x=500, y=75, text="Milk", press_enter=False, clear_before_typing=False),
            [Tap(540, 176), Type("Milk")],
        ),
        # down: the content moves up, the finger from below the point to above it, 800/2 each side
        (call("scroll_at", x=500, y=500, direction="down"), [Swipe(540, 2106, 540, 234, duration_ms=500, fling=False)]),
        (
            call("scroll_at", x=500, y=500, direction="right", magnitude=400),
            [Swipe(756, 1170, 324, 1170, duration_ms=500)],
        ),
        # the ends stay on the grid: 900 + 400 is clamped to 999
        (
            call("scroll_at", x=500, y=900, direction="down"),
            [Swipe(540, 2338, 540, 1170, duration_ms=500, fling=False)],
        ),
        (
            call("drag_and_drop", x=100, y=200, destination_x=900, destination_y=200),
            [Swipe(108, 468, 972, 468, duration_ms=500)],
        ),
        (call("key_combination", keys="Enter"), [Key("enter")]),
        (call("key_combination", keys="Backspace"), [Key("backspace")]),
        (call("go_back"), [Key("back")]),
        (call("go_home"), [Key("home")]),
        (call("open_app", app_name="Notes"), [Launch(PKG)]),
        (call("wait_5_seconds"), [Wait(5.0)]),
    ],
)
def test_each_function_maps_to_the_phone(answer: list[dict[str, Any]], expected: list[Action]) -> None:
    agent = agent_for(answer)
    first = agent.step(observe())
    steps = [first] + [agent.step(observe(step=i + 2)) for i in range(len(expected) - 1)]
    assert steps == expected


@pytest.mark.parametrize(
    "answer, why",
    [
        (call("navigate", url="https://example.com"), "navigate needs a browser"),
        (call("hover_at", x=1, y=2), "hover_at needs a browser"),
        (call("fly_to", x=1, y=2), "unknown function 'fly_to'"),
        (call("click_at", x="left", y=2), "click_at needs a number x"),
        (call("click_at", y=2), "click_at needs a number x"),
        (call("type_text_at", x=1, y=2), "type_text_at needs a string text"),
        (call("scroll_at", x=1, y=2, direction="sideways"), "scroll_at needs a direction"),
        (call("scroll_at", x=1, y=2, direction="up", magnitude=0), "positive magnitude"),
        (call("key_combination", keys="Control+C"), "one key at a time"),
        (call("key_combination", keys="F13"), "key_combination 'F13'"),
        (call("open_app", app_name="Nowhere Maps"), "Nowhere Maps"),
        ([], "no function call and no text"),
    ],
)
def test_a_call_the_phone_cannot_do_is_an_invalid_step(answer: list[dict[str, Any]], why: str) -> None:
    action = act(answer)
    assert action.kind == "invalid" and why in action.problem  # type: ignore[attr-defined]


def test_an_invalid_call_keeps_the_raw_call_in_the_history() -> None:
    agent = agent_for(call("navigate", url="https://example.com"))
    agent.step(observe())
    assert "navigate" in agent.history[0].action and "https://example.com" in agent.history[0].action


def test_the_next_request_answers_each_call_with_the_new_screenshot_and_keeps_the_model_turn() -> None:
    two = [
        {"function_call": {"name": "click_at", "args": {"x": 500, "y": 75}}, "thought_signature": "c2ln"},
        {"function_call": {"name": "wait_5_seconds", "args": {}}},
    ]
    agent = agent_for(two, [{"text": "done"}])
    assert agent.step(observe()).kind == "tap"
    assert agent.step(observe(step=2)).kind == "wait"  # the second call, without asking
    assert agent.step(observe(step=3)).kind == "done" and agent.answer == "done"
    contents = agent.client.asked[1]["contents"]  # type: ignore[union-attr]
    assert len(agent.client.asked) == 2 and contents[1] == {"role": "model", "parts": two}  # type: ignore[union-attr]
    first, second = contents[2]["parts"]
    assert first["function_response"]["name"] == "click_at" and "parts" not in first["function_response"]
    assert second["function_response"]["name"] == "wait_5_seconds"
    assert second["function_response"]["parts"][0]["inline_data"]["mime_type"] == "image/jpeg"


def test_a_refused_action_goes_back_in_the_function_response() -> None:
    agent = agent_for(call("click_at", x=1, y=1), call("go_back"))
    agent.step(observe())
    agent.step(observe(step=2, last_error="the tap landed off the app"))
    response = agent.client.asked[1]["contents"][-1]["parts"][0]["function_response"]["response"]  # type: ignore[union-attr]
    assert response["error"] == "the tap landed off the app"


def test_old_screenshots_leave_the_conversation() -> None:
    agent = agent_for(*[call("wait_5_seconds")] * 5)
    for i in range(5):
        agent.step(observe(step=i + 1))
    contents = agent.client.asked[-1]["contents"]  # type: ignore[union-attr]
    users = [c for c in contents if c["role"] == "user"]
    with_image = [u for u in users if "inline_data" in str(u)]
    assert len(users) == 5 and with_image == users[-3:]


def test_an_infeasible_reply_gives_up_and_an_answer_reaches_the_record() -> None:
    agent = agent_for([{"text": "INFEASIBLE: there is no such app"}])
    action = agent.step(observe())
    assert action.kind == "done" and agent.gave_up == " there is no such app".strip()
    agent = agent_for([{"text": "42"}])
    agent.step(observe())
    usage = agent.episode_usage()
    assert usage["answer"] == "42" and usage["agent_settings"]["coordinates"] == "relative"
    assert usage["agent_settings"]["image_sent"] == [360, 780]


DECISION = {"decision": "require_confirmation", "explanation": "this buys something"}


def test_a_safety_decision_is_surfaced_by_default() -> None:
    agent = agent_for(call("click_at", x=5, y=5, safety_decision=DECISION))
    action = agent.step(observe())
    usage = agent.episode_usage()
    assert action.kind == "done" and usage["gave_up"] and "this buys something" in usage["give_up_reason"]
    assert usage["agent_settings"]["safety_checks_seen"] == [{"call": "click_at", **DECISION, "handled": "surface"}]


def test_an_acknowledged_safety_decision_goes_ahead_and_is_sent_back() -> None:
    confirm = call("click_at", x=500, y=500, safety_decision=DECISION)
    agent = agent_for(confirm, call("go_back"), safety_checks="acknowledge")
    assert agent.step(observe()).kind == "tap"
    agent.step(observe(step=2))
    response = agent.client.asked[1]["contents"][-1]["parts"][0]["function_response"]["response"]  # type: ignore[union-attr]
    assert response["safety_acknowledgement"] == "true"


def test_an_absolute_coordinate_override_is_refused() -> None:
    with pytest.raises(ValueError, match="0-999 grid"):
        agent_for(coordinates="absolute")
