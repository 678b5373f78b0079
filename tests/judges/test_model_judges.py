"""The model judges against the scripted OpenAI-compatible server: their prompts, the parsing
of their answers (malformed ones abstain, never crash) and what they cost."""

from __future__ import annotations

import io
import json

import pytest
from PIL import Image

from pytest_mobile_agent.judges import JudgeSettings, make
from pytest_mobile_agent.judges.autoeval import AutoEvalJudge
from pytest_mobile_agent.judges.base import Trajectory, TrajectoryStep
from pytest_mobile_agent.judges.mllm import MllmJudge, parse_result
from pytest_mobile_agent.models import ChatClient, ModelConfig
from tests.model_server import Answer

PRICES = {"test-model": (1.0, 2.0)}  # USD per million tokens in and out
CALC, NOTES = "com.simplemobiletools.calculator", "com.simplemobiletools.notes.pro"


@pytest.fixture
def client(model_server) -> ChatClient:
    return ChatClient(ModelConfig(model="test-model", base_url=model_server.url, max_retries=0), PRICES)


def png(color: str = "white") -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (108, 234), color).save(out, "PNG")
    return out.getvalue()


def xml(package: str, *texts: str) -> str:
    nodes = "".join(
        f'<node package="{package}" class="android.widget.TextView" text="{t}" content-desc="" '
        f'enabled="true" bounds="[0,{i * 20}][108,{i * 20 + 20}]"/>'
        for i, t in enumerate(texts)
    )
    return (
        f'<hierarchy><node package="{package}" class="android.widget.FrameLayout" text="" content-desc="" '
        f'enabled="true" bounds="[0,0][108,234]">{nodes}</node></hierarchy>'
    )


def trajectory(inputs: dict | None = None, packages: tuple[str, ...] = (CALC, CALC, CALC)) -> Trajectory:
    steps = [
        TrajectoryStep(i, {"action": "tap", "selector": {"text": t}}, True, package_after=p)
        for i, (t, p) in enumerate(zip(("3", "+"), packages[1:], strict=True), 1)
    ]
    trees = [xml(p, f"screen {i}") for i, p in enumerate(packages)]
    return Trajectory(
        "calc", "Calculate 3 + 5", (CALC,), steps, [png(), png("gray"), png("black")], trees, inputs=dict(inputs or {})
    )


def user_text(request: dict) -> str:
    content = request["messages"][-1]["content"]
    return content if isinstance(content, str) else " ".join(p.get("text", "") for p in content if p["type"] == "text")


def images(request: dict) -> int:
    content = request["messages"][-1]["content"]
    return 0 if isinstance(content, str) else sum(p["type"] == "image_url" for p in content)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Result: 1", True),
        ("Result: 0", False),
        ("Reason: I believe this task is failed.\nResult：0", False),
        ("**Result:** 1", True),
        ("Result: **1**", True),
        ("result 1", None),
        ("", None),
        ("Result: 2", None),
        ("Result: 0\nOn second thought... Result: 1", True),
    ],
)
def test_spa_result_parsing(text, expected):
    assert parse_result(text) is expected


def test_mllm_sends_every_screenshot_and_reads_the_verdict(model_server, client):
    model_server.script = lambda request: "Result: 1"
    verdict = MllmJudge(client).judge(trajectory())
    assert verdict.passed is True
    (request,) = model_server.requests
    assert images(request) == 3 and "Calculate 3 + 5" in user_text(request)
    assert "Result: <1 or 0>" in user_text(request) and "Reason:" not in user_text(request)


def test_mllm_direct_text_action_mode_asks_for_a_reason_and_lists_the_actions(model_server, client):
    model_server.script = lambda request: "Reason: I believe this task is successful.\nResult: 1"
    verdict = make("mllm:direct:text_action", JudgeSettings(client=client)).judge(trajectory())
    text = user_text(model_server.requests[0])
    assert verdict.passed is True and "Reason:" in text
    assert "between screenshot 0 and screenshot 1 was tap text='3'" in text


def test_malformed_answers_abstain_and_still_count_their_cost(model_server, client):
    model_server.script = lambda request: "I think the agent did fine."
    verdict = MllmJudge(client).judge(trajectory())
    assert verdict.passed is None and "no 'Result: 1|0'" in verdict.reason
    ((tin, tout),) = model_server.usage_sent
    assert (verdict.tokens_in, verdict.tokens_out) == (tin, tout)
    assert verdict.cost_usd == pytest.approx((tin * PRICES["test-model"][0] + tout * PRICES["test-model"][1]) / 1e6)


def test_a_broken_answer_body_or_a_refusal_never_crashes_the_judge(model_server, client):
    from pytest_mobile_agent.judges import run

    model_server.script = lambda request: Answer(body="{not json", status=200)
    assert run(MllmJudge(client), trajectory()).passed is None
    model_server.script = lambda request: Answer(status=400, body=json.dumps({"error": {"message": "bad"}}))
    verdict = run(MllmJudge(client), trajectory())
    assert verdict.passed is None and "raised" in verdict.reason


def test_unknown_modes_are_refused_with_the_choices():
    with pytest.raises(ValueError, match="result_only, direct"):
        MllmJudge(None, "verbose")
    with pytest.raises(ValueError, match="no_action, text_action, with_action"):
        MllmJudge(None, "direct", "video")


def test_spa_skips_the_model_when_the_key_components_are_missing(model_server, client, tmp_path):
    from pytest_mobile_agent.judges.key_components import KeyComponentsJudge
    from pytest_mobile_agent.judges.ocr import OcrCache
    from pytest_mobile_agent.judges.spa import SpaJudge

    class Texts(OcrCache):  # OCR stands in here; the real OCR runs in test_suite_judges.py
        def texts(self, png_bytes):
            return ["3+5", "8"]

    spa = SpaJudge(KeyComponentsJudge(Texts(tmp_path)), MllmJudge(client))
    model_server.script = lambda request: "Result: 0"
    assert spa.judge(trajectory({"key_components": ["42"]})).passed is False
    assert model_server.requests == []  # coarse failed: no model call
    verdict = spa.judge(trajectory({"key_components": ["3+5", "8"]}))
    assert verdict.passed is False and len(model_server.requests) == 1 and verdict.details["coarse"] is True


SUBTASKS = [
    {"app": CALC, "task": "Calculate 3 + 5", "history": False, "memory": "the result"},
    {"app": NOTES, "task": "Write {the result} in a note", "history": True, "memory": "None"},
]


def test_cross_app_subtasks_are_judged_in_order_on_their_own_screens_with_memory(model_server, client):
    def script(request):
        text = user_text(request)
        if "Summarise" in text:
            return "The result is 8."
        return "Result: 1"

    model_server.script = script
    verdict = MllmJudge(client).judge(trajectory({"subtasks": SUBTASKS}, packages=(CALC, CALC, NOTES)))
    assert verdict.passed is True
    first, memory, second = model_server.requests
    assert images(first) == 2 and images(second) == 1
    assert "The result is 8." in user_text(second) and "Write {the result} in a note" in user_text(second)


def test_cross_app_fails_when_an_app_is_missing_or_a_subtask_fails(model_server, client):
    model_server.script = lambda request: "Result: 1"
    verdict = MllmJudge(client).judge(trajectory({"subtasks": SUBTASKS}))
    assert verdict.passed is False and "never reached the foreground" in verdict.reason
    assert model_server.requests == []
    model_server.script = lambda request: "Result: 0"
    verdict = MllmJudge(client).judge(trajectory({"subtasks": SUBTASKS}, packages=(CALC, CALC, NOTES)))
    assert verdict.passed is False and "subtask 1" in verdict.reason and len(model_server.requests) == 1


DECOMPOSED = """0. PageNode(content="Calculator main page is visible", parent_id=None)
1. UnitNode(content="The result 8 is shown", parent_id=0)"""


def autoeval_script(states_per_round):
    rounds = iter(states_per_round)

    def script(request):
        text = user_text(request)
        if "Break a phone task" in text:
            return DECOMPOSED
        return next(rounds)

    return script


def test_autoeval_decomposes_then_judges_round_by_round_with_sticky_success(model_server, client):
    model_server.script = autoeval_script(
        [
            '{"states": ["true", "uncertain"], "critical_info": "calculator open"}',
            '{"states": ["true", "true"]}',
        ]
    )
    verdict = AutoEvalJudge(client).judge(trajectory({"substates": ["Calculator app is open", "8 is shown"]}))
    assert verdict.passed is True and verdict.details["scr"] == 1.0 and verdict.details["rounds"] == 2
    third = user_text(model_server.requests[2])
    assert "calculator open" in third and "substate 0 reached" in third and 'text "screen 1"' in third
    assert verdict.details["decomposer"]["covered"] == 2
    assert verdict.tokens_in == sum(t for t, _ in model_server.usage_sent)


def test_autoeval_retries_a_rule_breaking_round_then_skips_it(model_server, client):
    model_server.script = autoeval_script(
        [
            '{"states": ["true", "false"]}',
            "no json here",
            '{"states": ["uncertain", "true"]}',  # round 1: 3 violations
            '{"states": ["true", "uncertain"]}',
            '{"states": ["true", "uncertain"]}',
        ]
    )
    verdict = AutoEvalJudge(client, retries=2).judge(trajectory())
    assert verdict.passed is False
    assert verdict.details["violations"] == 3 and verdict.details["skipped_rounds"] == 1
    assert verdict.details["success"] == [0] and verdict.details["scr"] == 0.5


def test_autoeval_vlm_capturer_describes_screenshots_with_the_model(model_server, client):
    def script(request):
        text = user_text(request)
        if "Break a phone task" in text:
            return DECOMPOSED
        if "Describe this phone screenshot" in text:
            return "Calculator app. The display shows 3+5 and 8."
        return '{"states": ["true", "true"]}'

    model_server.script = script
    verdict = make("autoeval:vlm", JudgeSettings(client=client)).judge(trajectory())
    assert verdict.passed is True
    assert images(model_server.requests[1]) == 1
    assert "The display shows 3+5 and 8." in user_text(model_server.requests[2])


def test_model_judges_need_a_model():
    from pytest_mobile_agent.judges import JudgeConfigError

    with pytest.raises(JudgeConfigError, match="--mobile-judge-model"):
        make("spa")


def test_autoeval_takes_one_option(client):
    from pytest_mobile_agent.judges import JudgeConfigError

    with pytest.raises(JudgeConfigError, match="one option, its Capturer, not 'vlm:3'"):
        make("autoeval:vlm:3", JudgeSettings(client=client))


def test_a_cross_app_task_without_declared_subtasks_is_split_by_the_model_first(model_server, client):
    split = json.dumps(
        {
            "subtask_2": {"app": NOTES, "task": "Write {result} in a note", "history": True, "memory": "None"},
            "subtask_1": {"app": CALC, "task": "Calculate 3 + 5", "history": False, "memory": "None"},
        }
    )
    model_server.script = lambda request: split if "Split this phone task" in user_text(request) else "Result: 1"
    traj = trajectory(packages=(CALC, CALC, NOTES))
    traj.apps = (CALC, NOTES)
    verdict = MllmJudge(client).judge(traj)
    assert verdict.passed is True and verdict.reason == "all 2 subtasks passed"
    assert CALC in user_text(model_server.requests[0]) and NOTES in user_text(model_server.requests[0])
    assert "Calculate 3 + 5" in user_text(model_server.requests[1])
    model_server.script = lambda request: '{"subtask_1": {"app": "com.other", "task": "x"}}'
    verdict = MllmJudge(client).judge(traj)
    assert verdict.passed is None and "names no app of the task" in verdict.reason
