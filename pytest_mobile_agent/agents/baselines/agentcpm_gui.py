"""AgentCPM-GUI (OpenBMB's on-device GUI agent, built on MiniCPM-V): the task and one screenshot
in, one compact JSON object out: `{"thought":"...","POINT":[480,320]}`, `{"POINT":[500,200],
"to":"up"}`, `{"PRESS":"BACK"}`, `{"TYPE":"..."}`, `{"duration":500}`, `{"STATUS":"finish"}`.

As the reference inference code does, the model sees no history: its Chinese system prompt with
the action schema, then `<Question>task</Question>` and the current screenshot, its longest side
at 1120 px. Points are on a 0-1000 grid over the screen (the `relative` convention, its only
release's); --mobile-model-coordinates=absolute reads them as pixels of the image sent. It has
no answer action: the record's answer stays empty.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any, ClassVar

from pytest_mobile_agent.actions import Action, Done, Key, LongPress, Swipe, Tap, Type, Wait
from pytest_mobile_agent.agents.baselines.answers import AnswerError, first_json_object
from pytest_mobile_agent.agents.baselines.base import ModelAgent
from pytest_mobile_agent.agents.baselines.image_space import RELATIVE, Space, convention_record, overridden
from pytest_mobile_agent.models import image_part, system
from pytest_mobile_agent.models.messages import DEFAULT_IMAGE_SIDE, decode, fit

if TYPE_CHECKING:
    from pytest_mobile_agent.agents import Observation, TaskInfo

IMAGE_SIDE = 1120  # the model card's resize: the longest side at most 1120 px
PRESS_DEFAULT_MS = 200  # the schema's default duration: a POINT held longer is a long press
SWIPE_SHARE = 0.3  # how far a swipe toward a direction moves, as a share of the screen's side
DIRECTIONS = {"up": (0, -1), "down": (0, 1), "left": (-1, 0), "right": (1, 0)}
KEYS = {"HOME": "home", "BACK": "back", "ENTER": "enter"}
DONE, GAVE_UP = ("finish", "satisfied"), ("impossible", "interrupt", "need_feedback")
STATUSES = ("continue", *DONE, *GAVE_UP)
FIELDS = ("thought", "POINT", "to", "duration", "PRESS", "TYPE", "STATUS")
_LOCATION = {
    "type": "array",
    "description": "屏幕上的一点，以左上角为原点，横、纵坐标都按屏幕的宽和高换算到0至1000，先x后y",
    "items": {"type": "integer", "minimum": 0, "maximum": 1000},
    "minItems": 2,
    "maxItems": 2,
}
# The action schema the system prompt shows, with its fields, types and enums; "thought" required.
SCHEMA = {
    "type": "object",
    "description": "这一步的操作，以及任务现在的状态",
    "additionalProperties": False,
    "required": ["thought"],
    "properties": {
        "thought": {"type": "string", "description": "决定这一步之前的思考"},
        "POINT": {"$ref": "#/$defs/Location", "description": "点击屏幕上的这一点"},
        "to": {
            "description": "滑动手势：从POINT出发",
            "oneOf": [
                {"enum": list(DIRECTIONS), "description": "手指朝这个方向滑动：上、下、左、右"},
                {"$ref": "#/$defs/Location", "description": "手指滑到这一点"},
            ],
        },
        "duration": {
            "type": "integer",
            "description": "操作持续的时间，或等待的时间，单位毫秒",
            "minimum": 0,
            "default": PRESS_DEFAULT_MS,
        },
        "PRESS": {"type": "string", "description": "按键：HOME回到桌面，BACK返回上一页，ENTER回车", "enum": list(KEYS)},
        "TYPE": {"type": "string", "description": "在当前的输入框里输入这段文字"},
        "STATUS": {
            "type": "string",
            "description": "任务的状态：continue继续；finish已完成；satisfied已满足，不必操作；impossible做不到；"
            "interrupt中断；need_feedback要用户回复",
            "enum": list(STATUSES),
            "default": "continue",
        },
    },
    "$defs": {"Location": _LOCATION},
}


def convention_for(model: str | None, override: str | None = None) -> tuple[str, str]:
    """The coordinate convention and why: the override, else the model's one grid."""
    if chosen := overridden(override):
        return chosen
    return RELATIVE, f"{model or 'the model'}: AgentCPM-GUI's 0-1000 grid (its only release)"


def read_answer(text: str) -> dict[str, Any]:
    """The answer's JSON object (text or a ```json fence around it forgiven), its fields checked."""
    answer = first_json_object(text)
    unknown = [k for k in answer if k not in FIELDS]
    if unknown:
        raise AnswerError(f"unknown field {unknown[0]!r}: the schema has {', '.join(FIELDS)}")
    status = answer.get("STATUS", "continue")
    if status not in STATUSES:
        raise AnswerError(f"STATUS must be one of {', '.join(STATUSES)}, not {status!r}")
    return answer


def location(value: object, name: str = "POINT") -> tuple[float, float]:
    if (
        not isinstance(value, list)
        or len(value) != 2
        or not all(isinstance(v, int | float) and not isinstance(v, bool) for v in value)
    ):
        raise AnswerError(f"{name} must be [x,y], not {value!r}")
    return float(value[0]), float(value[1])


def milliseconds(answer: dict[str, Any]) -> int:
    value = answer.get("duration", PRESS_DEFAULT_MS)
    if not isinstance(value, int | float) or isinstance(value, bool) or value < 0:
        raise AnswerError(f"duration must be milliseconds, not {value!r}")
    return int(value)


class AgentCPMGUI(ModelAgent):
    name = "agentcpm-gui"
    needs_screenshot = True
    prompt_files: ClassVar[dict[str, str]] = {"system": "agentcpm_gui_system.txt"}

    @property
    def screenshot_side(self) -> int:
        """The model card's 1120 px, unless --mobile-model-image-side asks for another side."""
        return IMAGE_SIDE if self.image_side == DEFAULT_IMAGE_SIDE else self.image_side

    def settings(self) -> dict[str, str]:
        override = self.client.config.coordinates if self.client is not None else None
        convention, why = convention_for(self.model, override)
        return {"coordinates": f"{convention} ({why})", "screenshot side": f"{self.screenshot_side} px"}

    def reset(self, task: TaskInfo) -> None:
        super().reset(task)
        override = self.client.config.coordinates if self.client is not None else None
        self.convention, self.why = convention_for(self.model, override)
        self._pending: Action | None = None  # the end a STATUS asks for after the action beside it

    def messages(self, obs: Observation) -> list[dict[str, Any]]:
        img = decode(obs.screenshot)
        screen = obs.screen_size if obs.screen_size[0] and obs.screen_size[1] else img.size
        img, _ = fit(img, self.screenshot_side)
        self.space = Space(self.convention, img.size, screen, img.size)
        schema = json.dumps(SCHEMA, ensure_ascii=False, separators=(",", ":"))
        question = f"<Question>{obs.prompt}</Question>\n当前屏幕截图：(<image>./</image>)"
        content = [{"type": "text", "text": question}, image_part(img, self.screenshot_side)]
        return [system(self.prompt("system").format(schema=schema)), {"role": "user", "content": content}]

    def reasoning(self, text: str) -> str:
        try:
            thought = first_json_object(text).get("thought")
        except AnswerError:
            thought = None
        return thought.strip() if isinstance(thought, str) and thought.strip() else " ".join(text.split())[:200]

    def action_text(self, text: str) -> str:
        try:
            answer = {k: v for k, v in first_json_object(text).items() if k != "thought"}
        except AnswerError:
            return " ".join(text.split())[:120]
        return json.dumps(answer, ensure_ascii=False, separators=(",", ":"))[:200]

    def step(self, obs: Observation) -> Action:
        if self._pending is not None and self.task is obs.task:
            action, self._pending = self._pending, None
            return action
        return super().step(obs)

    def parse(self, text: str, obs: Observation) -> Action:
        answer = read_answer(text)
        action = self.primitive(answer, ending=answer.get("STATUS", "continue") != "continue")
        status = answer.get("STATUS", "continue")
        if status == "continue":
            if action is None:
                raise AnswerError("no action: the answer needs POINT, PRESS, TYPE or duration")
            return action
        end = Done(self.reasoning(text)) if status in DONE else self.give_up(f"{status}: {self.reasoning(text)}")
        if action is None:
            return end
        self._pending = end  # the action beside the STATUS first, then the end
        return action

    def primitive(self, answer: dict[str, Any], ending: bool) -> Action | None:
        """The one action the answer holds besides its STATUS; None when it holds none (a lone
        duration beside an ending STATUS is no wait)."""
        given = [k for k in ("POINT", "PRESS", "TYPE") if k in answer]
        if len(given) > 1:
            raise AnswerError(f"one action per answer, not {' and '.join(given)}")
        if "to" in answer and "POINT" not in answer:
            raise AnswerError("'to' needs a POINT to start from")
        ms = milliseconds(answer)
        if "TYPE" in answer:
            if not isinstance(answer["TYPE"], str):
                raise AnswerError(f"TYPE must be text, not {answer['TYPE']!r}")
            return Type(answer["TYPE"])
        if "PRESS" in answer:
            key = KEYS.get(str(answer["PRESS"]))
            if key is None:
                raise AnswerError(f"PRESS must be HOME, BACK or ENTER, not {answer['PRESS']!r}")
            return Key(key)
        if "POINT" in answer:
            x, y = self.space.to_device(*location(answer["POINT"]))
            if "to" in answer:
                x2, y2 = self.swipe_end(x, y, answer["to"])
                return Swipe(x, y, x2, y2, duration_ms=ms)
            return LongPress(x, y) if ms > PRESS_DEFAULT_MS else Tap(x, y)
        if "duration" in answer and not ending:
            return Wait(ms / 1000)
        return None

    def swipe_end(self, x: int, y: int, to: object) -> tuple[int, int]:
        """Where a swipe from (x, y) ends: the point `to` names, or SWIPE_SHARE of the screen away
        in its direction (the finger's), kept on the screen."""
        if isinstance(to, str):
            if to not in DIRECTIONS:
                raise AnswerError(f"to must be up, down, left, right or [x,y], not {to!r}")
            (dx, dy), (sw, sh) = DIRECTIONS[to], self.space.screen
            x2, y2 = x + round(dx * SWIPE_SHARE * sw), y + round(dy * SWIPE_SHARE * sh)
            return min(max(x2, 0), sw - 1), min(max(y2, 0), sh - 1)
        return self.space.to_device(*location(to, "to"))

    def episode_usage(self) -> dict[str, Any]:
        out = super().episode_usage()
        out["answer"] = None  # the schema has no answer
        out["agent_settings"] = convention_record(self)
        return out
