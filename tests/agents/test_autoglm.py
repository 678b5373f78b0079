"""The autoglm agent in process, with a scripted client: the 0-999 grid mapped back to the device,
every documented operation, malformed answers kept as invalid steps, the conversation it sends
and the answer reaching the record. Coordinates are worked out by hand from a 1080x2340 screen."""

from __future__ import annotations

import base64
import io
import re
from typing import Any

import pytest
from PIL import Image

from pytest_mobile_agent.actions import Action, DoubleTap, InvalidAction, Key, Launch
from pytest_mobile_agent.agents import TaskInfo
from pytest_mobile_agent.agents.baselines.answers import AnswerError
from pytest_mobile_agent.agents.baselines.autoglm import (
    ABSOLUTE,
    RELATIVE,
    AutoGLM,
    Space,
    app_package,
    convention_for,
    language_for,
    read_call,
    seconds,
)
from pytest_mobile_agent.agents.loader import load_agent
from pytest_mobile_agent.device.ui_tree import UiTree
from pytest_mobile_agent.models import ModelConfig
from pytest_mobile_agent.models.messages import text_of
from tests.models.test_agents import PKG, TASK, XML, ScriptedClient, observe

MODEL = "zai-org/AutoGLM-Phone-9B"


def agent_for(*answers: str, side: int = 512, coordinates: str | None = None) -> AutoGLM:
    agent = AutoGLM()
    agent.client = ScriptedClient(list(answers), ModelConfig(model=MODEL, image_side=side, coordinates=coordinates))
    agent.reset(TASK)
    return agent


def act(op: str, **kw: Any) -> Action:
    return agent_for(f"<think>the next step</think>\n<answer>{op}</answer>", **kw).step(observe())


def sent_size(message: dict[str, Any]) -> tuple[int, int]:
    url = message["content"][0]["image_url"]["url"]
    return Image.open(io.BytesIO(base64.b64decode(url.split(",", 1)[1]))).size


# -- the grid ------------------------------------------------------------------------------------
def test_grid_points_map_to_the_device_as_open_autoglm_maps_them() -> None:
    grid = Space(RELATIVE, (216, 468), (1080, 2340))
    assert grid.to_device([500, 500]) == (540, 1170)
    assert grid.to_device([250, 100]) == (270, 234)
    assert grid.to_device([999, 999]) == (1078, 2337)  # x / 1000 * width, truncated
    assert grid.to_device([1200, -5]) == (1079, 0)  # off the grid: the screen's edge
    pixels = Space(ABSOLUTE, (216, 468), (1080, 2340))
    assert pixels.to_device([108, 234]) == (540, 1170)  # pixels of the image sent (1080x2340 / 5)


@pytest.mark.parametrize("point", [[1], "500,500", [1, "2"], [True, 3], None])
def test_a_point_that_is_not_two_numbers_is_refused(point: object) -> None:
    with pytest.raises(AnswerError, match=r"a point must be \[x,y\]"):
        Space(RELATIVE, (216, 468), (1080, 2340)).to_device(point)


def test_the_convention_is_the_grid_unless_overridden() -> None:
    assert convention_for(MODEL)[0] == RELATIVE
    assert convention_for("AutoGLM-Phone-9B-Multilingual")[0] == RELATIVE
    assert convention_for(MODEL, ABSOLUTE) == (ABSOLUTE, "set by --mobile-model-coordinates")
    with pytest.raises(ValueError, match="must be one of absolute, relative"):
        convention_for(MODEL, "normalized")


@pytest.mark.parametrize(
    "model, language",
    [
        ("zai-org/AutoGLM-Phone-9B", "zh"),
        ("autoglm-phone", "zh"),  # Z.ai's hosted name of it
        ("zai-org/AutoGLM-Phone-9B-Multilingual", "en"),
        ("autoglm-phone-multilingual", "en"),
        ("my-finetune", "en"),
    ],
)
def test_the_prompt_language_follows_the_release(model: str, language: str) -> None:
    assert language_for(model)[0] == language


def test_each_release_gets_its_prompt() -> None:
    for model, marker in (("AutoGLM-Phone-9B", "# 操作"), ("AutoGLM-Phone-9B-Multilingual", "# Operations")):
        agent = AutoGLM()
        agent.client = ScriptedClient(['<answer>do(action="Back")</answer>'], ModelConfig(model=model, image_side=512))
        agent.step(observe())
        assert marker in text_of(agent.client.asked[0][0])


def test_the_override_reaches_the_agent_from_the_config() -> None:
    action = act('do(action="Tap", element=[108,234])', coordinates=ABSOLUTE)
    assert (action.kind, action.x, action.y) == ("tap", 540, 1170)


# -- the grammar ---------------------------------------------------------------------------------
def test_every_operation() -> None:
    tap = act('do(action="Tap", element=[500,500])')
    assert (tap.kind, tap.x, tap.y) == ("tap", 540, 1170)
    sensitive = act('do(action="Tap", element=[250,100], message="Delete the note")')
    assert (sensitive.kind, sensitive.x, sensitive.y) == ("tap", 270, 234)
    hold = act('do(action="Long Press", element=[250,100])')
    assert (hold.kind, hold.x, hold.y) == ("long_press", 270, 234)
    swipe = act('do(action="Swipe", start=[500,500], end=[500,250])')
    assert (swipe.kind, swipe.x, swipe.y, swipe.x2, swipe.y2) == ("swipe", 540, 1170, 540, 585)
    assert act('do(action="Type", text="Shopping")') == Action("type", text="Shopping", clear=True)
    assert act('do(action="Type_Name", text="Ann")') == Action("type", text="Ann", clear=True)
    assert act('do(action="Type", text="it\'s \\"here\\"")').text == 'it\'s "here"'
    assert act('do(action="Launch", app="Notes")') == Launch(PKG)
    assert act('do(action="Back")') == Key("back")
    assert act('do(action="Home")') == Key("home")
    assert act('do(action="Wait", duration="3 seconds")') == Action("wait", seconds=3.0)


def test_a_double_tap_is_one_double_tap_gesture() -> None:
    agent = agent_for('<answer>do(action="Double Tap", element=[500,500])</answer>')
    assert agent.step(observe()) == DoubleTap(540, 1170)
    assert len(agent.client.asked) == 1


@pytest.mark.parametrize(
    "duration, expected", [("3 seconds", 3.0), ("2", 2.0), (4, 4.0), ("a while", 2.0), (-1, 2.0), (1e9, 2.0)]
)
def test_wait_durations(duration: object, expected: float) -> None:
    assert seconds(duration) == expected


@pytest.mark.parametrize(
    "name, package",
    [
        ("Messages", "com.simplemobiletools.smsmessenger"),
        ("SMS Messenger", "com.simplemobiletools.smsmessenger"),
        ("Simple Gallery", "com.simplemobiletools.gallery.pro"),
        ("Files", "com.simplemobiletools.filemanager.pro"),
        ("File Manager", "com.simplemobiletools.filemanager.pro"),
        ("Music", "com.simplemobiletools.musicplayer"),
        ("Voice Recorder", "com.simplemobiletools.voicerecorder"),
        ("Calculator", "com.simplemobiletools.calculator"),
        ("com.simplemobiletools.calculator", "com.simplemobiletools.calculator"),
    ],
)
def test_launch_finds_the_task_app_by_the_names_people_use(name: str, package: str) -> None:
    apps = (
        "com.simplemobiletools.smsmessenger",
        "com.simplemobiletools.gallery.pro",
        "com.simplemobiletools.filemanager.pro",
        "com.simplemobiletools.musicplayer",
        "com.simplemobiletools.voicerecorder",
        "com.simplemobiletools.calculator",
    )
    obs = observe()
    obs.task = TaskInfo("t", "a task", apps, 2, 4)
    assert app_package(name, obs) == package


def test_finish_ends_the_episode_with_its_answer_in_the_record() -> None:
    agent = agent_for('<think>The result reads 42.</think>\n<answer>finish(message="42")</answer>')
    action = agent.step(observe())
    assert action.kind == "done" and action.reasoning == "The result reads 42."
    usage = agent.episode_usage()
    assert usage["answer"] == "42" and usage["tokens_in"] == 100
    assert usage["agent_settings"] == {
        "coordinates": RELATIVE,
        "coordinates_why": f"{MODEL}: AutoGLM's 0-999 grid, divided by 1000",
        "image_sent": [216, 468],
        "prompt_language": "zh",
    }


def test_a_finish_message_with_quotes_and_lines_is_kept_whole() -> None:
    call = read_call('<answer>finish(message="He said "hi"\nand left")</answer>')
    assert (call.name, call.args) == ("finish", {"message": 'He said "hi"\nand left'})


def test_a_typed_text_with_quotes_of_its_own_is_kept_whole() -> None:
    call = read_call('<answer>do(action="Type", text="say "hi"")</answer>')
    assert call.args == {"action": "Type", "text": 'say "hi"'}


def test_answers_without_tags_are_read_from_the_operation() -> None:
    assert read_call('I will tap it. do(action="Tap", element=[1,2])').args == {"action": "Tap", "element": [1, 2]}
    assert read_call("<think>x</think><answer>finish(message='done')</answer>").args == {"message": "done"}


def test_take_over_gives_up() -> None:
    agent = agent_for('<think>a login</think><answer>do(action="Take_over", message="Log in, please")</answer>')
    assert agent.step(observe()).reasoning == "infeasible: Log in, please"
    assert agent.episode_usage()["gave_up"]


@pytest.mark.parametrize(
    "answer, problem",
    [
        ("I would tap the save button.", "no <answer>"),
        ('<answer>do(action="Fly", element=[1,2])</answer>', "unknown action 'Fly'"),
        ('<answer>do(action="Tap", element=[1])</answer>', r"a point must be \[x,y\]"),
        ('<answer>do(action="Tap", element=[1,2]</answer>', "must be do"),  # unclosed
        ("<answer>tap(element=[1,2])</answer>", "must be do"),
        ('<answer>do("Tap")</answer>', "must be do"),
        ('<answer>do(action="Type")</answer>', 'Type needs text="..."'),
        ('<answer>do(action="Tap", element=[x,y])</answer>', "must be a literal"),
        ('<answer>do(action="Launch", app="Maps")</answer>', "no app called 'Maps'"),
    ],
)
def test_malformed_answers_are_invalid_steps_with_the_raw_text_kept(answer: str, problem: str) -> None:
    action = agent_for(answer).step(observe())
    with pytest.raises(InvalidAction, match="unreadable model answer") as info:
        Action.parse(action)
    assert re.search(problem, str(info.value)), info.value
    assert action.tokens_in == 100
    assert action.reasoning and answer.split("(")[0].split()[0] in action.reasoning  # the model's text is kept


# -- the conversation ----------------------------------------------------------------------------
def test_the_conversation_keeps_only_the_latest_screenshot() -> None:
    answers = [f'<think>step {n}</think><answer>do(action="Back")</answer>' for n in range(1, 4)]
    agent = agent_for(*answers)
    for n in range(1, 4):
        agent.step(observe(step=n))
    last = agent.client.asked[-1]
    assert last[0]["role"] == "system"
    for form in ('do(action="Tap", element=[x,y])', "Long Press", "Double Tap", "Launch", "finish(message="):
        assert form in text_of(last[0])
    assert TASK.prompt in text_of(last[1]) and '"current_app": "' + PKG + '"' in text_of(last[1])
    users = [m for m in last if m["role"] == "user"]
    images = [p for m in users for p in m["content"] if p.get("type") == "image_url"]
    assert len(users) == 3 and len(images) == 1 and last[-1]["content"][0] is images[0]
    assert sent_size(last[-1]) == (216, 468)
    assert [m["content"] for m in last if m["role"] == "assistant"] == [
        f'<think>step {n}</think><answer>do(action="Back")</answer>' for n in (1, 2)
    ]


def test_loaded_by_name() -> None:
    assert isinstance(load_agent("autoglm"), AutoGLM)
    assert UiTree(XML).roots[0].package == PKG
