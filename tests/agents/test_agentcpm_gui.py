"""The agentcpm-gui agent in process, with a scripted client: the 0-1000 grid, every action of its
schema (the README's examples among them), STATUS alone and beside an action, malformed answers
and the prompt. Coordinates are worked out by hand from a 1080x2340 screen."""

from __future__ import annotations

import json
from typing import Any

import pytest

from pytest_mobile_agent.actions import Action, InvalidAction, Key, Type, Wait
from pytest_mobile_agent.agents.baselines.agentcpm_gui import AgentCPMGUI, convention_for
from pytest_mobile_agent.agents.baselines.image_space import ABSOLUTE, RELATIVE
from pytest_mobile_agent.agents.loader import load_agent
from pytest_mobile_agent.models import ModelConfig
from pytest_mobile_agent.models.messages import DEFAULT_IMAGE_SIDE, text_of
from tests.agents.test_ui_tars import sent_size
from tests.models.test_agents import ScriptedClient, observe

MODEL = "openbmb/AgentCPM-GUI"


def agent_for(*answers: str, side: int = DEFAULT_IMAGE_SIDE, coordinates: str | None = None) -> AgentCPMGUI:
    agent = AgentCPMGUI()
    agent.client = ScriptedClient(list(answers), ModelConfig(model=MODEL, image_side=side, coordinates=coordinates))
    agent.reset(observe().task)
    return agent


def answer(**fields: Any) -> str:
    return json.dumps({"thought": "I act.", **fields}, ensure_ascii=False, separators=(",", ":"))


def act(text: str, **kw: Any) -> Action:
    return agent_for(text, **kw).step(observe())


def shape(a: Action) -> tuple[Any, ...]:
    return (a.kind, a.x, a.y, a.x2, a.y2, a.duration_ms, a.text, a.key, a.seconds)


# -- coordinates -------------------------------------------------------------------------------
def test_one_convention_unless_overridden() -> None:
    assert convention_for(MODEL)[0] == RELATIVE
    assert convention_for("anything")[0] == RELATIVE
    assert convention_for(MODEL, ABSOLUTE) == (ABSOLUTE, "set by --mobile-model-coordinates")
    with pytest.raises(ValueError, match="must be one of absolute, relative"):
        convention_for(MODEL, "normalized")


@pytest.mark.parametrize(
    "point, expected", [([500, 500], (540, 1170)), ([250, 100], (270, 234)), ([1000, 1000], (1079, 2339))]
)
def test_points_are_on_a_0_1000_grid_over_the_screen(point: list[int], expected: tuple[int, int]) -> None:
    action = act(answer(POINT=point))
    assert (action.kind, action.x, action.y) == ("tap", *expected)


def test_absolute_reads_pixels_of_the_image_sent() -> None:
    # at side 512 the screen is sent at 216x468: (108, 234) is its centre
    action = act(answer(POINT=[108, 234]), side=512, coordinates=ABSOLUTE)
    assert (action.x, action.y) == (540, 1170)


def test_the_screenshot_is_sent_at_the_model_cards_1120_unless_asked_otherwise() -> None:
    agent = agent_for(answer(POINT=[500, 500]))
    agent.step(observe())
    assert sent_size(agent.client.asked[0][-1]) == (360, 780)  # 2340 / 3 fits in 1120
    assert agent.settings()["screenshot side"] == "1120 px"
    small = agent_for(answer(POINT=[500, 500]), side=512)
    small.step(observe())
    assert sent_size(small.client.asked[0][-1]) == (216, 468)


# -- every action ------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "fields, expected",
    [
        ({"POINT": [480, 320]}, Action("tap", x=518, y=749)),  # the README's examples, from here on
        ({"POINT": [480, 320], "duration": 1000}, Action("long_press", x=518, y=749)),
        ({"POINT": [500, 200], "to": "down"}, Action("swipe", x=540, y=468, x2=540, y2=1170, duration_ms=200)),
        ({"PRESS": "HOME"}, Key("home")),
        ({"TYPE": "Hello, world!"}, Type("Hello, world!")),
        ({"duration": 500}, Wait(0.5)),
        ({"POINT": [480, 320], "duration": 200}, Action("tap", x=518, y=749)),  # the default: a tap
        ({"POINT": [500, 500], "to": "up"}, Action("swipe", x=540, y=1170, x2=540, y2=468, duration_ms=200)),
        ({"POINT": [500, 500], "to": "left"}, Action("swipe", x=540, y=1170, x2=216, y2=1170, duration_ms=200)),
        ({"POINT": [500, 900], "to": "down"}, Action("swipe", x=540, y=2106, x2=540, y2=2339, duration_ms=200)),
        (
            {"POINT": [500, 800], "to": [500, 200], "duration": 500},
            Action("swipe", x=540, y=1872, x2=540, y2=468, duration_ms=500),
        ),
        ({"PRESS": "BACK"}, Key("back")),
        ({"PRESS": "ENTER"}, Key("enter")),
    ],
)
def test_every_action_of_the_schema(fields: dict[str, Any], expected: Action) -> None:
    assert shape(act(answer(**fields))) == shape(expected)


@pytest.mark.parametrize("status", ["finish", "satisfied"])
def test_a_finishing_status_alone_ends_the_episode(status: str) -> None:
    agent = agent_for(answer(STATUS=status))
    action = agent.step(observe())
    assert action.kind == "done" and action.reasoning == "I act."
    usage = agent.episode_usage()
    assert usage["gave_up"] is False and usage["answer"] is None


@pytest.mark.parametrize("status", ["impossible", "interrupt", "need_feedback"])
def test_the_other_ending_statuses_give_up(status: str) -> None:
    agent = agent_for(answer(STATUS=status))
    assert agent.step(observe()).reasoning == f"infeasible: {status}: I act."
    assert agent.episode_usage()["gave_up"] is True


def test_a_status_beside_an_action_ends_after_it() -> None:
    agent = agent_for(answer(POINT=[500, 500], STATUS="finish"))
    assert agent.step(observe()).kind == "tap"
    assert agent.step(observe(2)).kind == "done"
    assert len(agent.client.asked) == 1  # the end needs no second question


def test_continue_is_an_ordinary_step() -> None:
    assert act(answer(TYPE="milk", STATUS="continue")).text == "milk"


@pytest.mark.parametrize(
    "text",
    [
        '```json\n{"thought":"I act.","POINT":[500,500]}\n```',
        'The save button is there.\n{"POINT": [500, 500]}',
    ],
)
def test_forgiven_forms(text: str) -> None:
    action = act(text)
    assert (action.kind, action.x, action.y) == ("tap", 540, 1170)


@pytest.mark.parametrize(
    "text, problem",
    [
        ("I would tap the save button.", "no JSON object"),
        (answer(ANSWER="42"), "unknown field 'ANSWER'"),
        (answer(STATUS="done"), "STATUS must be one of continue, finish"),
        (answer(), "no action: the answer needs POINT, PRESS, TYPE or duration"),
        (answer(POINT=[1, 2, 3]), "POINT must be [x,y]"),
        (answer(POINT="center"), "POINT must be [x,y]"),
        (answer(POINT=[500, 500], to="north"), "to must be up, down, left, right or [x,y]"),
        (answer(to="up"), "'to' needs a POINT"),
        (answer(POINT=[500, 500], TYPE="a"), "one action per answer, not POINT and TYPE"),
        (answer(PRESS="MENU"), "PRESS must be HOME, BACK or ENTER"),
        (answer(TYPE=5), "TYPE must be text"),
        (answer(duration=-1), "duration must be milliseconds"),
    ],
)
def test_a_malformed_answer_is_an_invalid_step_with_its_text(text: str, problem: str) -> None:
    action = act(text)
    with pytest.raises(InvalidAction, match="unreadable model answer") as info:
        Action.parse(action)
    assert problem in str(info.value)
    assert action.tokens_in == 100 and action.reasoning


# -- the prompt --------------------------------------------------------------------------------
def test_the_prompt_is_the_schema_the_question_and_the_screen_without_history() -> None:
    agent = agent_for(answer(POINT=[500, 43]), answer(TYPE="Shopping"))
    agent.step(observe())
    agent.step(observe(2))
    first, second = agent.client.asked
    assert [m["role"] for m in second] == ["system", "user"]
    prompt = text_of(first[0])
    assert prompt.startswith("# Role") and "# Rule" in prompt
    schema = json.loads(prompt.split("# Schema\n", 1)[1])
    assert schema["required"] == ["thought"] and schema["additionalProperties"] is False
    assert set(schema["properties"]) == {"thought", "POINT", "to", "duration", "PRESS", "TYPE", "STATUS"}
    assert ", " not in prompt.split("# Schema\n", 1)[1][:200]  # compact JSON
    question = second[1]["content"][0]["text"]
    assert question == "<Question>Write the title 'Shopping'</Question>\n当前屏幕截图：(<image>./</image>)"
    assert second[1]["content"][1]["type"] == "image_url"
    assert first[1] == second[1]  # the same screen, the same question: no history in the prompt


def test_the_record_names_the_convention_and_the_image() -> None:
    agent = agent_for(answer(STATUS="finish"))
    agent.step(observe())
    assert agent.episode_usage()["agent_settings"] == {
        "coordinates": RELATIVE,
        "coordinates_why": f"{MODEL}: AgentCPM-GUI's 0-1000 grid (its only release)",
        "image_sent": [360, 780],
    }


def test_loaded_by_name() -> None:
    assert isinstance(load_agent("agentcpm-gui"), AgentCPMGUI)
