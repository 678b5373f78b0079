"""The ui-tars agent in process, with a scripted client: its image space (smart_resize), the
version's coordinate convention, every action form of its grammar, malformed answers, the
prompt and its history. Coordinates are worked out by hand from a 1080x2340 screen."""

from __future__ import annotations

import base64
import io
from typing import Any

import pytest
from PIL import Image

from pytest_mobile_agent.actions import Action, InvalidAction, Key, Launch
from pytest_mobile_agent.agents.baselines.image_space import ABSOLUTE, RELATIVE, Space, smart_resize
from pytest_mobile_agent.agents.baselines.ui_tars import UITars, convention_for, read_call
from pytest_mobile_agent.agents.loader import load_agent
from pytest_mobile_agent.device.ui_tree import UiTree
from pytest_mobile_agent.models import ModelConfig
from pytest_mobile_agent.models.messages import text_of
from tests.models.test_agents import PKG, TASK, XML, ScriptedClient, observe


def agent_for(*answers: str, model: str = "UI-TARS-1.5-7B", side: int = 512, coordinates: str | None = None) -> UITars:
    agent = UITars()
    agent.client = ScriptedClient(list(answers), ModelConfig(model=model, image_side=side, coordinates=coordinates))
    agent.reset(TASK)
    return agent


def act(answer: str, **kw: Any) -> Action:
    return agent_for(answer, **kw).step(observe())


def sent_size(message: dict[str, Any]) -> tuple[int, int]:
    url = message["content"][-1]["image_url"]["url"]
    return Image.open(io.BytesIO(base64.b64decode(url.split(",", 1)[1]))).size


# -- the image space ---------------------------------------------------------------------------
@pytest.mark.parametrize(
    "height, width, expected",
    [
        (2340, 1080, (2352, 1092)),  # each side to the nearest multiple of 28
        (780, 360, (784, 364)),  # the same screen downscaled by 3 before sending
        (100, 100, (280, 280)),  # too few pixels: scaled up to 100 * 28 * 28
        (5000, 3000, (4620, 2772)),  # too many: both divided by sqrt(5000 * 3000 / (16384 * 28 * 28))
    ],
)
def test_smart_resize_by_hand(height: int, width: int, expected: tuple[int, int]) -> None:
    assert smart_resize(height, width) == expected


def test_smart_resize_rejects_an_impossible_aspect_ratio() -> None:
    with pytest.raises(ValueError, match="no smart_resize size"):
        smart_resize(10, 5000)


def test_points_map_back_to_the_device() -> None:
    absolute = Space(ABSOLUTE, (364, 784), (1080, 2340))
    assert absolute.to_device(182, 392) == (540, 1170)
    assert absolute.to_device(91, 196) == (270, 585)
    relative = Space(RELATIVE, (364, 784), (1080, 2340))
    assert relative.to_device(500, 500) == (540, 1170)
    assert relative.to_device(250, 100) == (270, 234)
    assert relative.to_device(1000, 1000) == (1079, 2339)  # the grid's edge is the screen's last pixel


@pytest.mark.parametrize(
    "model, convention",
    [
        ("UI-TARS-1.5-7B", ABSOLUTE),
        ("ByteDance-Seed/UI-TARS-1.5-7B", ABSOLUTE),
        ("ui-tars-2", ABSOLUTE),
        ("UI-TARS-7B-SFT", RELATIVE),
        ("bytedance-research/UI-TARS-72B-DPO", RELATIVE),
        ("UI-TARS-2B-SFT", RELATIVE),
        ("my-finetune", ABSOLUTE),  # the name does not tell: the newest release's convention
    ],
)
def test_the_convention_follows_the_model_name(model: str, convention: str) -> None:
    assert convention_for(model)[0] == convention


def test_an_explicit_convention_overrides_the_name() -> None:
    assert convention_for("UI-TARS-1.5-7B", RELATIVE) == (RELATIVE, "set by --mobile-model-coordinates")
    with pytest.raises(ValueError, match="must be one of absolute, relative"):
        convention_for("UI-TARS-1.5-7B", "normalized")


# -- the grammar -------------------------------------------------------------------------------
# The screenshot is sent at --mobile-model-image-side 512: 1080x2340 reduced by 5 to 216x468,
# smart-resized to 224x476. (112, 238) is the centre of that image: (540, 1170) on the device.
@pytest.mark.parametrize(
    "answer, expected",
    [
        ("Thought: tap the middle\nAction: click(start_box='<|box_start|>(112,238)<|box_end|>')", ("tap", 540, 1170)),
        ("Thought: tap\nAction: click(start_box='(112,238)')", ("tap", 540, 1170)),
        ("Thought: tap\nAction: click(point='<point>112 238</point>')", ("tap", 540, 1170)),
        ("Thought: tap\nAction: click(start_box='(100,200,124,276)')", ("tap", 540, 1170)),  # a box: its centre
        ("Thought: hold\nAction: long_press(start_box='<|box_start|>(56,119)<|box_end|>')", ("long_press", 270, 585)),
        ("Thought: hold\nAction: long_press(point='<point>56 119</point>')", ("long_press", 270, 585)),
    ],
)
def test_every_point_form_in_the_resized_image(answer: str, expected: tuple[str, int, int]) -> None:
    action = act(answer)
    assert (action.kind, action.x, action.y) == expected


def test_a_screenshot_sent_whole_has_its_own_space() -> None:
    agent = agent_for("Action: click(start_box='(546,1176)')", side=2340)
    action = agent.step(observe())
    assert sent_size(agent.client.asked[0][-1]) == (1080, 2340)  # the model's processor makes it 1092x2352
    assert (action.x, action.y) == (540, 1170)


def test_the_first_release_answers_on_a_0_1000_grid() -> None:
    agent = agent_for("Action: click(start_box='(500,500)')", model="UI-TARS-7B-SFT")
    action = agent.step(observe())
    assert (action.x, action.y) == (540, 1170)
    usage = agent.episode_usage()
    assert usage["agent_settings"]["coordinates"] == RELATIVE
    assert "first-release" in usage["agent_settings"]["coordinates_why"]


def test_the_override_reaches_the_agent_from_the_config() -> None:
    action = act("Action: click(start_box='(500,500)')", model="UI-TARS-1.5-7B", coordinates=RELATIVE)
    assert (action.x, action.y) == (540, 1170)


def test_type_scroll_drag_and_keys() -> None:
    assert act("Action: type(content='Shopping')") == Action("type", text="Shopping")
    assert act("Action: type(content='it\\'s \"here\"')").text == 'it\'s "here"'
    assert act("Action: press_home()") == Key("home")
    assert act("Action: press_back()") == Key("back")
    assert act("Action: hotkey(key='Enter')") == Key("enter")
    assert act("Action: open_app(app_name='Notes')") == Launch(PKG)
    assert act("Action: wait()") == Action("wait", seconds=5.0)
    drag = act("Action: drag(start_point='<point>112 238</point>', end_point='<point>112 119</point>')")
    assert (drag.kind, drag.x, drag.y, drag.x2, drag.y2) == ("swipe", 540, 1170, 540, 585)
    box_drag = act("Action: drag(start_box='(112,238)', end_box='(112,119)')")
    assert (box_drag.x, box_drag.y, box_drag.x2, box_drag.y2) == (540, 1170, 540, 585)


def test_a_scroll_moves_the_view_under_its_point() -> None:
    inside = act("Action: scroll(start_box='(112,238)', direction='down')")  # (540, 1170): in the list
    assert inside.kind == "scroll" and inside.direction == "down"
    assert UiTree(XML).select(inside.selector).id == f"{PKG}:id/list"
    outside = act("Action: scroll(start_box='(112,20)', direction='up')")  # the title field: no list there
    assert outside == Action("scroll", direction="up")


def test_type_ending_in_a_newline_types_then_presses_enter() -> None:
    agent = agent_for("Thought: search\nAction: type(content='milk\\n')")
    assert agent.step(observe()) == Action("type", text="milk")
    assert agent.step(observe(step=2)) == Key("enter")  # the model was not asked again
    assert len(agent.client.asked) == 1
    assert act("Action: type(content='\\n')") == Key("enter")


def test_finished_ends_the_episode_with_its_answer_in_the_record() -> None:
    agent = agent_for("Thought: the result reads 42.\nAction: finished(content='42')")
    action = agent.step(observe())
    assert action.kind == "done" and action.reasoning == "the result reads 42."
    usage = agent.episode_usage()
    assert usage["answer"] == "42" and usage["tokens_in"] == 100
    assert usage["agent_settings"] == {
        "coordinates": ABSOLUTE,
        "coordinates_why": "UI-TARS-1.5-7B is UI-TARS 1.5 or later (pixels of the resized image)",
        "image_sent": [216, 468],
        "image_size": [224, 476],
        "history_images": 5,
    }


def test_call_user_gives_up() -> None:
    agent = agent_for("Thought: I need the user's password.\nAction: call_user()")
    assert agent.step(observe()).reasoning == "infeasible: I need the user's password."
    assert agent.episode_usage()["gave_up"]


@pytest.mark.parametrize(
    "answer, problem",
    [
        ("I would tap the save button.", "no 'Action:'"),
        ("Thought: x\nAction: fly(start_box='(1,2)')", "unknown action 'fly'"),
        ("Thought: x\nAction: click(start_box='(1)')", "start_box must be '(x,y)'"),
        ("Thought: x\nAction: click(start_box='(1,2)", "not a call"),  # an unclosed string
        ("Thought: x\nAction: click('(1,2)')", "name(key='value', ...)"),
        ("Thought: x\nAction: scroll(start_box='(1,2)', direction='sideways')", "scroll direction"),
        ("Thought: x\nAction: type()", "type needs content"),
        ("Thought: x\nAction: hotkey(key='ctrl c')", "a phone has enter, back and home"),
        ("Thought: x\nAction: open_app(app_name='Maps')", "no app called 'Maps'"),
    ],
)
def test_a_malformed_answer_is_an_invalid_step_with_its_text(answer: str, problem: str) -> None:
    action = act(answer)
    with pytest.raises(InvalidAction, match="unreadable model answer") as info:
        Action.parse(action)
    assert problem in str(info.value)
    assert action.tokens_in == 100
    assert action.reasoning and action.reasoning.split()[0] in answer  # the model's text is kept


def test_a_remark_after_the_action_is_left_out() -> None:
    call = read_call("Thought: t\nAction: press_back()\nThat should close the dialog.")
    assert (call.name, call.args) == ("press_back", {})


def test_earlier_answers_get_their_box_tokens_back() -> None:
    agent = agent_for(
        "Thought: a\nAction: drag(start_box='(1,2)', end_box='(3, 4)')",
        "Thought: b\nAction: click(point='<point>5 6</point>')",
    )
    agent.step(observe())
    agent.step(observe(step=2))
    agent.client.answers.append("Action: press_back()")
    agent.step(observe(step=3))
    replayed = [m["content"] for m in agent.client.asked[-1] if m["role"] == "assistant"]
    assert replayed == [
        "Thought: a\nAction: drag(start_box='<|box_start|>(1,2)<|box_end|>', end_box='<|box_start|>(3,4)<|box_end|>')",
        "Thought: b\nAction: click(point='<point>5 6</point>')",  # the point form has no special tokens
    ]


def test_read_call_takes_the_first_of_several_actions() -> None:
    call = read_call("Thought: two\nAction: click(start_box='(1,2)')\n\npress_back()")
    assert (call.name, call.args) == ("click", {"start_box": "(1,2)"})


# -- the prompt --------------------------------------------------------------------------------
def test_the_prompt_replays_the_answers_and_keeps_the_last_five_screens() -> None:
    answers = [f"Thought: step {n}\nAction: press_back()" for n in range(1, 8)]
    agent = agent_for(*answers)
    for n in range(1, 8):
        agent.step(observe(step=n))
    last = agent.client.asked[-1]
    first = text_of(last[0])
    assert last[0]["role"] == "user" and TASK.prompt in first.split("## User Instruction", 1)[1]
    for form in ("click(start_box=", "long_press(", "type(content=", "scroll(", "open_app(", "drag(", "finished("):
        assert form in first
    assert [m["content"] for m in last if m["role"] == "assistant"] == answers[:6]
    images = [m for m in last if m["role"] == "user" and isinstance(m["content"], list)]
    assert len(images) == 5 and last[-1] is images[-1]
    assert sent_size(last[-1]) == (216, 468)  # the screen reduced by 5; the model sees it at 224x476
    assert last[1]["role"] == "assistant"  # the first step's screen is gone, its answer stays


def test_loaded_by_name() -> None:
    assert isinstance(load_agent("ui-tars"), UITars)


def test_the_coordinate_convention_is_part_of_the_fingerprint(pytester: pytest.Pytester) -> None:
    """One model under two conventions (the override) must not resume or compare as one run."""
    from pytest_mobile_agent.reporting import fingerprint

    config = pytester.parseconfig("--agent=ui-tars")
    parts = [
        fingerprint._agent_part(config, agent_for(model="UI-TARS-1.5-7B", coordinates=c)) for c in (None, "relative")
    ]
    assert parts[0]["settings"]["coordinates"].startswith("absolute")
    assert parts[1]["settings"]["coordinates"].startswith("relative")
    assert fingerprint.fingerprint_id(parts[0]) != fingerprint.fingerprint_id(parts[1])


def test_the_first_step_of_an_agent_never_reset_starts_its_episode() -> None:
    agent = UITars()  # as a harness that does not call reset() first would use it
    agent.client = ScriptedClient(["Action: press_home()"], ModelConfig(model="UI-TARS-1.5-7B", image_side=512))
    assert agent.step(observe()) == Key("home")
    assert agent.task is TASK
