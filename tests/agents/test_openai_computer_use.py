"""The openai-computer-use agent in process, with a scripted Responses client: the tool version
from the model's name, the request it sends (the tool, the screenshot, the whole conversation),
every action of the tool mapped to the phone with its point scaled back, batches, answers,
safety checks and malformed calls; then the real `openai` SDK against the local server (an
answer's items and usage, a malformed body, a refused key). Coordinates are worked out by hand:
the 1080x2340 screen is sent at --mobile-model-image-side 512, reduced by 5 to 216x468, so a
point (x, y) of the screenshot is (5x, 5y) on the device."""

from __future__ import annotations

import base64
import io
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
from PIL import Image

from pytest_mobile_agent.actions import Action, DoubleTap, InvalidAction, Key, LongPress, Swipe, Tap, Type, Wait
from pytest_mobile_agent.agents.baselines.openai_computer_use import GA, PREVIEW, OpenAIComputerUse, tool_for
from pytest_mobile_agent.agents.loader import load_agent
from pytest_mobile_agent.errors import ModelUnavailable
from pytest_mobile_agent.models import ChatClient, ModelConfig, ModelStats, Reply
from pytest_mobile_agent.models.apis import api_for
from pytest_mobile_agent.models.errors import ModelConfigError
from tests.model_server import Answer, ModelServer
from tests.models.responses_route import message
from tests.models.test_agents import TASK, observe


@dataclass
class ScriptedResponses:
    """A client of the Responses API answering each request with the next list of output items."""

    outputs: list[list[dict[str, Any]]]
    config: ModelConfig = field(default_factory=lambda: ModelConfig(model="computer-use-preview", image_side=512))
    asked: list[dict[str, Any]] = field(default_factory=list)
    stats: ModelStats = field(default_factory=ModelStats)

    def ask(self, request: dict[str, Any]) -> Reply:
        self.asked.append(request)
        output = self.outputs.pop(0)
        data = {"output": output, "usage": {"input_tokens": 100, "output_tokens": 10}}
        self.stats.calls += 1
        self.stats.tokens_in += 100
        self.stats.tokens_out += 10
        return Reply(api_for("responses").text(data), 100, 10, None, data=data)

    def take_stats(self) -> ModelStats:
        stats, self.stats = self.stats, ModelStats()
        return stats


def call(*actions: dict[str, Any], call_id: str = "call_1", checks: list[dict[str, Any]] | None = None) -> dict:
    """A computer_call item: one action as the preview tool gives it, several as the GA tool's batch."""
    item: dict[str, Any] = {
        "type": "computer_call",
        "id": "cu_1",
        "call_id": call_id,
        "status": "completed",
        "pending_safety_checks": checks or [],
    }
    if len(actions) == 1:
        item["action"] = actions[0]
    else:
        item["actions"] = list(actions)
    return item


REASONING = {"type": "reasoning", "id": "rs_1", "summary": [{"type": "summary_text", "text": "The Save button."}]}


def agent_for(*outputs: list[dict[str, Any]], model: str = "computer-use-preview", **config: Any) -> OpenAIComputerUse:
    agent = OpenAIComputerUse()
    agent.client = ScriptedResponses(list(outputs), ModelConfig(model=model, **{"image_side": 512, **config}))
    agent.reset(TASK)
    return agent


def act(*actions: dict[str, Any], **kw: Any) -> Action:
    return agent_for([REASONING, call(*actions)], **kw).step(observe())


def image_size(url: str) -> tuple[int, int]:
    return Image.open(io.BytesIO(base64.b64decode(url.split(",", 1)[1]))).size


# -- the tool version and the request ----------------------------------------------------------
@pytest.mark.parametrize(
    "model, tool",
    [
        ("computer-use-preview", PREVIEW),
        ("computer-use-preview-2025-03-11", PREVIEW),
        ("gpt-5.4", GA),
        ("gpt-5.5-2026-04-23", GA),
        ("my-proxy-model", GA),  # the name does not tell: the newest tool
    ],
)
def test_the_tool_version_follows_the_model_name(model: str, tool: str) -> None:
    assert tool_for(model)[0] == tool


def test_an_explicit_tool_overrides_the_name() -> None:
    assert tool_for("gpt-5.4", PREVIEW) == (PREVIEW, "set by --mobile-model-tool-version")
    with pytest.raises(ValueError, match="must be one of computer_use_preview, computer"):
        tool_for("gpt-5.4", "computer_20250124")
    agent = agent_for([message("done")], model="gpt-5.4", tool_version=PREVIEW)
    assert agent.tool == PREVIEW


def test_the_preview_tool_declares_the_size_of_the_screenshot_it_is_sent() -> None:
    agent = agent_for([REASONING, call({"type": "click", "button": "left", "x": 108, "y": 234})])
    agent.step(observe())
    request = agent.client.asked[0]
    assert request["tools"] == [
        {"type": "computer_use_preview", "display_width": 216, "display_height": 468, "environment": "linux"}
    ]
    assert request["truncation"] == "auto" and "Android phone" in request["instructions"]
    [first] = request["input"]
    assert first["role"] == "user" and first["content"][0] == {"type": "input_text", "text": f"The task: {TASK.prompt}"}
    assert image_size(first["content"][1]["image_url"]) == (216, 468)


def test_the_ga_tool_declares_nothing_and_sends_screenshots_at_original_detail() -> None:
    agent = agent_for(
        [call({"type": "click", "button": "left", "x": 108, "y": 234}, {"type": "wait"})],
        [message("done")],
        model="gpt-5.4",
    )
    agent.step(observe())
    agent.step(observe(step=2))
    agent.step(observe(step=3))
    first, second = agent.client.asked
    assert first["tools"] == [{"type": "computer"}] and first["input"][0]["content"][1]["detail"] == "original"
    output = second["input"][-1]
    assert output["type"] == "computer_call_output" and output["call_id"] == "call_1"
    assert output["output"]["type"] == "computer_screenshot" and output["output"]["detail"] == "original"
    assert image_size(output["output"]["image_url"]) == (216, 468)


def test_every_request_holds_the_whole_conversation_reasoning_included() -> None:
    click = {"type": "click", "button": "left", "x": 108, "y": 234}
    agent = agent_for([REASONING, call(click)], [REASONING, call(click, call_id="call_2")], [message("done")])
    for step in (1, 2, 3):
        agent.step(observe(step=step, last_error="(540, 1170) is off the screen" if step == 3 else None))
    third = agent.client.asked[2]["input"]
    kinds = [item.get("type") or item["role"] for item in third]
    assert kinds == [
        "user",
        "reasoning",
        "computer_call",
        "computer_call_output",
        "reasoning",
        "computer_call",
        "computer_call_output",
        "user",
    ]
    assert third[1] == REASONING and [third[3]["call_id"], third[6]["call_id"]] == ["call_1", "call_2"]
    assert third[-1]["content"][0]["text"] == (
        "The phone did not carry out your last action: (540, 1170) is off the screen"
    )
    assert agent.client.asked[1]["input"] == third[:4]  # each request extends the one before


# -- the tool's actions on the phone ------------------------------------------------------------
@pytest.mark.parametrize(
    "action, expected",
    [
        ({"type": "click", "button": "left", "x": 108, "y": 234}, Tap(540, 1170)),
        ({"type": "click", "button": "right", "x": 54, "y": 117}, LongPress(270, 585)),
        ({"type": "click", "button": "back", "x": 1, "y": 1}, Key("back")),
        ({"type": "type", "text": "Shopping"}, Type("Shopping")),
        ({"type": "keypress", "keys": ["ENTER"]}, Key("enter")),
        ({"type": "keypress", "keys": ["ESC"]}, Key("back")),
        ({"type": "keypress", "keys": ["BACK"]}, Key("back")),
        ({"type": "keypress", "keys": ["HOME"]}, Key("home")),
        ({"type": "keypress", "keys": ["Backspace"]}, Key("backspace")),
        ({"type": "keypress", "keys": ["ArrowDown"]}, Key("down")),
        ({"type": "keypress", "keys": ["+"]}, Type("+")),
        ({"type": "wait"}, Wait(1.0)),
        ({"type": "move", "x": 10, "y": 10}, Wait(0)),
        ({"type": "screenshot"}, Wait(0)),
        # the finger slides against the scroll, centred on the point: 100 px of the image is 500 on the device
        (
            {"type": "scroll", "x": 108, "y": 234, "scroll_x": 0, "scroll_y": 100},
            Swipe(540, 1420, 540, 920, 500, fling=False),
        ),
        (
            {"type": "scroll", "x": 108, "y": 234, "scroll_x": 0, "scroll_y": -100},
            Swipe(540, 920, 540, 1420, 500, fling=False),
        ),
        ({"type": "scroll", "x": 108, "y": 234, "scroll_x": 40, "scroll_y": 0}, Swipe(640, 1170, 440, 1170, 500)),
        (
            {"type": "drag", "path": [{"x": 108, "y": 234}, {"x": 100, "y": 200}, {"x": 108, "y": 117}]},
            Swipe(540, 1170, 540, 585, 500),
        ),
    ],
)
def test_each_action_of_the_tool_on_the_phone(action: dict[str, Any], expected: Action) -> None:
    assert act(action) == expected


def test_a_screenshot_sent_whole_maps_one_to_one() -> None:
    agent = agent_for([call({"type": "click", "button": "left", "x": 540, "y": 1170})], image_side=2340)
    assert agent.step(observe()) == Tap(540, 1170)
    assert agent.client.asked[0]["tools"][0]["display_width"] == 1080


def test_double_click_type_with_a_line_break_and_a_batch_take_a_step_each_without_asking_again() -> None:
    agent = agent_for(
        [
            call(
                {"type": "double_click", "x": 108, "y": 234},
                {"type": "type", "text": "milk\neggs"},
                {"type": "keypress", "keys": ["ENTER"]},
            )
        ],
        [message("done")],
        model="gpt-5.4",
    )
    steps = [agent.step(observe(step=n)) for n in range(1, 7)]
    assert steps[:5] == [DoubleTap(540, 1170), Type("milk"), Key("enter"), Type("eggs"), Key("enter")]
    assert steps[5].kind == "done" and len(agent.client.asked) == 2


def test_a_batch_stops_where_the_harness_refuses_an_action() -> None:
    agent = agent_for(
        [call({"type": "click", "button": "left", "x": 108, "y": 234}, {"type": "type", "text": "x"})],
        [message("done")],
        model="gpt-5.4",
    )
    agent.step(observe())
    assert agent.step(observe(step=2, last_error="(540, 1170) is off the screen")).kind == "done"
    note = agent.client.asked[1]["input"][-1]
    assert "did not carry out" in note["content"][0]["text"]


def test_a_message_ends_the_episode_with_its_answer_in_the_record() -> None:
    agent = agent_for([REASONING, message("42")])
    action = agent.step(observe())
    assert action.kind == "done" and action.reasoning == "The Save button. 42"
    usage = agent.episode_usage()
    assert usage["answer"] == "42" and usage["tokens_in"] == 100 and not usage["gave_up"]
    assert usage["agent_settings"] == {
        "coordinates": "absolute",
        "coordinates_why": "the computer_use_preview tool's points are pixels of the screenshot sent",
        "image_sent": [216, 468],
        "tool": PREVIEW,
        "tool_why": "computer-use-preview is the computer-use-preview model",
        "safety_checks": "surface",
        "safety_checks_seen": [],
    }


def test_infeasible_gives_up() -> None:
    agent = agent_for([message("INFEASIBLE: there is no such note.")])
    assert agent.step(observe()).reasoning == "infeasible: there is no such note."
    assert agent.episode_usage()["gave_up"]


# -- safety checks ------------------------------------------------------------------------------
CHECK = {"id": "cu_sc_1", "code": "malicious_instructions", "message": "The screen holds instructions."}


def test_a_pending_safety_check_is_surfaced_by_default() -> None:
    agent = agent_for([call({"type": "click", "button": "left", "x": 1, "y": 1}, checks=[CHECK])])
    action = agent.step(observe())
    assert action.kind == "done" and "malicious_instructions: The screen holds instructions." in action.reasoning
    usage = agent.episode_usage()
    assert usage["gave_up"] and usage["agent_settings"]["safety_checks_seen"] == [{**CHECK, "handled": "surface"}]


def test_an_acknowledged_safety_check_goes_ahead_and_is_sent_back() -> None:
    agent = agent_for(
        [call({"type": "click", "button": "left", "x": 108, "y": 234}, checks=[CHECK])],
        [message("done")],
        safety_checks="acknowledge",
    )
    assert agent.step(observe()) == Tap(540, 1170)
    agent.step(observe(step=2))
    assert agent.client.asked[1]["input"][-1]["acknowledged_safety_checks"] == [CHECK]
    assert agent.episode_usage()["agent_settings"]["safety_checks_seen"] == [{**CHECK, "handled": "acknowledge"}]
    assert agent.settings()["safety checks"] == "acknowledge"


# -- malformed answers --------------------------------------------------------------------------
@pytest.mark.parametrize(
    "output, problem",
    [
        ([call({"type": "teleport", "x": 1, "y": 1})], "unknown action 'teleport'"),
        ([call({"type": "click", "button": "left", "x": "here", "y": 1})], "click needs a number x"),
        ([call({"type": "click", "button": "wheel", "x": 1, "y": 1})], "the 'wheel' button"),
        ([call({"type": "keypress", "keys": ["CTRL", "A"]})], "one key at a time"),
        ([call({"type": "keypress", "keys": ["F5"]})], "keypress 'F5'"),
        ([call({"type": "click", "button": "left", "x": 1, "y": 1, "keys": ["SHIFT"]})], "no modifier keys"),
        ([call({"type": "drag", "path": [{"x": 1, "y": 1}]})], "at least two points"),
        ([call({"type": "scroll", "x": 1, "y": 1, "scroll_x": 0, "scroll_y": 0})], "a scroll by (0, 0)"),
        ([{"type": "computer_call", "call_id": "c", "pending_safety_checks": []}], "without actions"),
        ([REASONING], "no computer_call and no message"),
    ],
)
def test_a_malformed_call_is_an_invalid_step_with_the_raw_answer(output: list[dict[str, Any]], problem: str) -> None:
    action = agent_for(output).step(observe())
    with pytest.raises(InvalidAction, match="unreadable model answer") as info:
        Action.parse(action)
    assert problem in str(info.value)
    assert action.tokens_in == 100 and action.reasoning


def test_after_an_invalid_call_the_model_gets_its_screenshot_and_why() -> None:
    agent = agent_for([call({"type": "teleport"})], [message("done")])
    bad = agent.step(observe())
    agent.step(observe(step=2, last_error=f"unreadable model answer: {bad.problem}"))  # type: ignore[attr-defined]
    sent = agent.client.asked[1]["input"]
    assert sent[-2]["type"] == "computer_call_output" and sent[-2]["call_id"] == "call_1"
    assert "unknown action 'teleport'" in sent[-1]["content"][0]["text"]


def test_a_first_step_without_reset_starts_the_episode() -> None:
    agent = OpenAIComputerUse(ScriptedResponses([[call({"type": "click", "button": "left", "x": 108, "y": 234})]]))
    assert agent.step(observe()) == Tap(540, 1170)


def test_a_coordinate_convention_other_than_pixels_is_refused() -> None:
    with pytest.raises(ValueError, match="--mobile-model-coordinates=relative does not apply"):
        agent_for([], coordinates="relative")


def test_loaded_by_name_with_its_own_api_and_default_model() -> None:
    agent = load_agent("openai-computer-use")
    assert isinstance(agent, OpenAIComputerUse)
    assert (agent.model_api, agent.default_model) == ("responses", "computer-use-preview")


# -- through the openai SDK, against the local server ---------------------------------------------
@pytest.fixture
def model_server() -> Iterator[ModelServer]:
    with ModelServer() as server:
        yield server


def client_for(server: ModelServer, **config: Any) -> ChatClient:
    return ChatClient(ModelConfig(model="computer-use-preview", api="responses", base_url=server.url, **config))


def test_the_sdk_brings_the_answers_items_and_the_servers_usage(model_server: ModelServer) -> None:
    click = call({"type": "click", "button": "left", "x": 108, "y": 234})
    model_server.script = lambda request: Answer(content=[REASONING, click, message("on it")], tokens_in=321)
    reply = client_for(model_server).ask({"input": [{"role": "user", "content": "go"}], "truncation": "auto"})
    assert (reply.tokens_in, reply.tokens_out) == model_server.usage_sent[0] and reply.tokens_in == 321
    assert reply.text == "on it" and reply.data["output"][1] == click
    assert model_server.requests[0]["model"] == "computer-use-preview"
    assert model_server.requests[0]["truncation"] == "auto"


def test_a_malformed_body_is_the_endpoints_fault(model_server: ModelServer) -> None:
    model_server.script = lambda request: Answer(body='{"id": "resp_1", "output": "nonsense"}')
    with pytest.raises(ModelUnavailable, match="no list of output items"):
        client_for(model_server, max_retries=1, backoff_s=0.01).ask({"input": []})
    assert len(model_server.requests) == 2  # retried once


def test_a_refused_key_names_the_apis_own_variable(model_server: ModelServer, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-wrong")
    model_server.script = lambda request: Answer(status=401)
    with pytest.raises(ModelConfigError, match=r"refused the API key in \$OPENAI_API_KEY \(401"):
        client_for(model_server).ask({"input": []})
    assert model_server.authorizations == ["Bearer sk-wrong"]


# -- the options --------------------------------------------------------------------------------
def test_without_mobile_model_the_agent_asks_its_default_model(pytester: pytest.Pytester) -> None:
    from pytest_mobile_agent.session import mobile_session

    config = pytester.parseconfig("--agent=openai-computer-use", "--mobile-model-url=http://127.0.0.1:9/v1")
    agent = mobile_session(config).get_agent()
    assert agent.client is not None and agent.client.config.model == "computer-use-preview"  # type: ignore[attr-defined]
    assert agent.client.config.api == "responses"  # type: ignore[attr-defined]
    assert agent.settings()["tool"].startswith("computer_use_preview")  # type: ignore[attr-defined]


def test_the_tool_and_safety_options_reach_the_agent_and_its_fingerprint(pytester: pytest.Pytester) -> None:
    from pytest_mobile_agent.models.options import model_config
    from pytest_mobile_agent.reporting import fingerprint

    parts = []
    for extra in ((), ("--mobile-model-tool-version=computer", "--mobile-safety-checks=acknowledge")):
        config = pytester.parseconfig("--agent=openai-computer-use", "--mobile-model=computer-use-preview", *extra)
        cfg = model_config(config, api="responses")
        assert cfg is not None
        agent = OpenAIComputerUse(ScriptedResponses([], cfg))
        parts.append(fingerprint._agent_part(config, agent))
    assert (
        parts[0]["settings"]["tool"].startswith("computer_use_preview")
        and parts[0]["settings"]["safety checks"] == "surface"
    )
    assert parts[1]["settings"]["tool"] == "computer (set by --mobile-model-tool-version)"
    assert parts[1]["settings"]["safety checks"] == "acknowledge"
    assert fingerprint.fingerprint_id(parts[0]) != fingerprint.fingerprint_id(parts[1])


def test_an_unknown_safety_check_handling_is_a_usage_error(pytester: pytest.Pytester) -> None:
    from pytest_mobile_agent.models.options import model_config

    config = pytester.parseconfig("--mobile-model=computer-use-preview", "--mobile-safety-checks=ignore")
    with pytest.raises(pytest.UsageError, match="--mobile-safety-checks must be surface or acknowledge, not 'ignore'"):
        model_config(config, api="responses")


def test_the_agent_through_the_sdk_the_guides_example_call_then_a_malformed_one(model_server: ModelServer) -> None:
    """The guide's example `computer_call` (a left click) and then an action no version has, both
    through the SDK: a tap scaled back to the device, then an invalid step whose call is still
    answered with a screenshot in the next request."""
    example = {
        "type": "computer_call",
        "id": "cu_67cc",
        "call_id": "call_zw3",
        "action": {"type": "click", "button": "left", "x": 156, "y": 50},
        "pending_safety_checks": [],
        "status": "completed",
    }
    answers = [[REASONING, example], [call({"type": "pinch", "scale": 2}, call_id="call_2")], [message("done")]]
    model_server.script = lambda request: Answer(content=answers[len(model_server.requests) - 1])
    agent = OpenAIComputerUse(client_for(model_server, image_side=512))
    assert agent.step(observe()) == Tap(780, 250)
    bad = agent.step(observe(step=2))
    assert "unknown action 'pinch'" in bad.problem  # type: ignore[attr-defined]
    assert agent.step(observe(step=3, last_error="unreadable model answer")).kind == "done"
    first, second, third = model_server.requests
    assert first["tools"][0]["display_width"] == 216 and first["truncation"] == "auto"
    assert second["input"][1:3] == [REASONING, example]
    assert second["input"][3]["call_id"] == "call_zw3"
    assert [i.get("call_id") for i in third["input"] if i.get("type") == "computer_call_output"] == [
        "call_zw3",
        "call_2",
    ]
    assert agent.episode_usage()["tokens_in"] == sum(u[0] for u in model_server.usage_sent)
