"""The action space's validation and the --agent loader, in-process."""

from __future__ import annotations

import sys
import textwrap

import pytest

from pytest_mobile_agent.actions import Action, Api, DoubleTap, InvalidAction, Selector, Tap, Type
from pytest_mobile_agent.agents import AgentLoadError, kind_of
from pytest_mobile_agent.agents.builtin import NoopAgent, OracleAgent, RandomAgent
from pytest_mobile_agent.agents.loader import load_agent
from pytest_mobile_agent.errors import TaskDefinitionError
from pytest_mobile_agent.tasks import difficulty_for, instantiate, task


@pytest.mark.parametrize(
    "raw, expected",
    [
        ({"action": "tap", "x": 10, "y": 20}, Action("tap", x=10, y=20)),
        ({"action": "tap", "text": "="}, Action("tap", selector=Selector(text="="))),
        ({"action": "tap", "id": "result", "index": 1}, Action("tap", selector=Selector(resourceId="result", index=1))),
        (
            '{"action": "type", "text": "hi", "desc": "Search"}',
            Action("type", text="hi", selector=Selector(description="Search")),
        ),
        ({"kind": "key", "key": "BACK"}, Action("key", key="BACK")),
        ({"action": "scroll", "direction": "down"}, Action("scroll", direction="down")),
        ({"action": "api", "command": "content query --uri content://sms"}, Api("content query --uri content://sms")),
        ({"action": "done"}, Action("done")),
        ({"action": "tap", "x": 10, "y": 20, "count": 2}, DoubleTap(10, 20)),
        ({"action": "tap", "text": "word", "count": 3}, Action("tap", selector=Selector(text="word"), count=3)),
        ({"action": "type", "text": "hi", "clear": True}, Type("hi", clear=True)),
    ],
)
def test_parse_accepts_agent_formats(raw, expected):
    assert Action.parse(raw) == expected


@pytest.mark.parametrize(
    "raw, reason",
    [
        ({"action": "fly"}, "unknown action kind 'fly'"),
        ("not json", "action is not JSON"),
        (42, "not int"),
        ({"action": "tap"}, "tap needs x and y or a selector"),
        ({"action": "tap", "x": "10", "y": 2}, "x must be a number"),
        ({"action": "tap", "x": 1, "y": 2, "colour": "red"}, "unknown field(s) for tap: colour"),
        ({"action": "swipe", "x": 1, "y": 2}, "swipe needs x, y, x2 and y2"),
        ({"action": "tap", "x": 1, "y": 2, "fling": False}, "fling is true or false, for a swipe only"),
        ({"action": "swipe", "x": 1, "y": 2, "x2": 3, "y2": 4, "fling": "no"}, "fling is true or false"),
        ({"action": "scroll", "direction": "sideways"}, "scroll direction must be one of"),
        ({"action": "key", "key": "TELEPORT"}, "unknown key 'TELEPORT'"),
        ({"action": "api", "command": "input tap 1 2"}, "api command not allowed"),
        ({"action": "api", "command": "am start -n x/.Y; rm -rf /sdcard"}, "may not chain or redirect"),
        ({"action": "wait", "seconds": 3600}, "wait needs seconds between 0 and 30"),
        ({"action": "tap", "selector": {"colour": "red"}}, "unknown selector field(s): colour"),
        ({"action": "tap", "x": 1, "y": 2, "count": 4}, "count is a tap's number of taps, 1 to 3, not 4"),
        ({"action": "tap", "x": 1, "y": 2, "count": True}, "count is a tap's number of taps, 1 to 3, not True"),
        (
            {"action": "long_press", "x": 1, "y": 2, "count": 2},
            "count is a tap's number of taps, 1 to 3, not 2 for long_press",
        ),
        ({"action": "type", "text": "hi", "clear": "yes"}, "clear is true or false, for a type only, not 'yes'"),
        ({"action": "tap", "x": 1, "y": 2, "clear": True}, "clear is true or false, for a type only, not True for tap"),
    ],
)
def test_parse_rejects_with_a_specific_reason(raw, reason):
    with pytest.raises(InvalidAction, match=None) as exc:
        Action.parse(raw)
    assert reason in str(exc.value)


def test_actions_round_trip_through_json():
    for action in (Tap(3, 4), DoubleTap(text="="), Type("héllo", id="name"), Api("getprop ro.build.version.sdk")):
        assert Action.parse(action.to_json()) == action


@pytest.fixture
def agent_module(tmp_path, monkeypatch):
    monkeypatch.syspath_prepend(str(tmp_path))

    def write(name: str, source: str):
        path = tmp_path / f"{name}.py"
        path.write_text(textwrap.dedent(source))
        sys.modules.pop(name, None)
        return path

    return write


def test_loader_takes_builtins_files_modules_classes_factories_and_functions(agent_module):
    assert isinstance(load_agent("oracle"), OracleAgent) and isinstance(load_agent("noop"), NoopAgent)
    assert load_agent("random", seed=7).seed == 7
    mine = "class Mine:\n    def step(self, observation):\n        return {'action': 'done'}\n"
    path = agent_module("file_agent", mine)
    assert type(load_agent(str(path))).__name__ == "Mine"
    agent_module(
        "pkg_agents",
        """
        class Driver:
            def run(self, task, recorder):
                recorder.done()

        def make(): return Driver()

        def decide(observation): return {"action": "done"}
    """,
    )
    assert kind_of(load_agent("pkg_agents:Driver")) == "self-driving"
    assert kind_of(load_agent("pkg_agents:make")) == "self-driving"
    assert kind_of(load_agent("pkg_agents:decide")) == "step"  # a plain function of the observation


@pytest.mark.parametrize(
    "spec, source, message",
    [
        ("nowhere/agent.py", None, "file not found"),
        ("broken.py", "raise RuntimeError('no API key')\n", "importing .* raised RuntimeError: no API key"),
        ("empty.py", "x = 1\n", "defines no agent"),
        (
            "needs_args.py",
            "class Agent:\n    def __init__(self, key): pass\n    def step(self, o): pass\n",
            "cannot create Agent\\(\\) without arguments",
        ),
        ("not_an_agent.py", "agent = 42\n", "is not an agent: it needs a step"),
        ("no_such_module:Agent", None, "no built-in agent, file or module of that name"),
        ("pytest_mobile_agent.agents:Nope", None, "has no attribute 'Nope'"),
    ],
)
def test_loader_errors_name_the_file_and_what_is_missing(agent_module, tmp_path, monkeypatch, spec, source, message):
    monkeypatch.chdir(tmp_path)
    if source is not None:
        agent_module(spec.removesuffix(".py"), source)
    with pytest.raises(AgentLoadError, match=message):
        load_agent(spec)


def test_random_agent_is_seeded():
    assert RandomAgent(3).rng.random() == RandomAgent(3).rng.random()


def test_task_declarations_are_checked():
    @task(prompt="Say {word}", app="a.b", golden=lambda word: [Tap(text=word)])
    def body(ui):
        pass

    instance = instantiate(body.__mobile_task__, "say", {"word": "hi"})
    assert instance.prompt == "Say hi" and instance.golden == (Tap(text="hi"),) and instance.difficulty == "easy"
    with pytest.raises(TaskDefinitionError, match="prompt uses {word}"):
        instantiate(body.__mobile_task__, "say", {})

    @task(prompt="x", app="a.b", golden=[Tap(text="a")], golden_steps=2)
    def mismatch(ui):
        pass

    with pytest.raises(TaskDefinitionError, match="golden path has 1 actions but golden_steps=2"):
        instantiate(mismatch.__mobile_task__, "m", {})
    assert [difficulty_for(n) for n in (1, 2, 3, 6, 7)] == ["easy", "easy", "medium", "medium", "hard"]
