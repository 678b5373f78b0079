"""Qwen2.5-VL and Qwen3-VL as phone agents: the `mobile_use` function-calling tool their cookbooks
and Qwen-Agent define. Screenshots in; out, one `<tool_call>{"name": "mobile_use", "arguments":
{"action": "click", "coordinate": [x, y]}}</tool_call>`.

Qwen2.5-VL answers in absolute pixels of the image as its processor resized it (`smart_resize`,
sides multiples of 28, 4*28*28 to 16384*28*28 pixels), and the tool tells it that image's size;
Qwen3-VL answers on a relative 0-1000 grid. The convention follows the model's name, the newest
(Qwen3-VL's) when the name does not tell, and --mobile-model-coordinates overrides both.
"""

from __future__ import annotations

import json
import re
from typing import TYPE_CHECKING, Any, ClassVar

from pytest_mobile_agent.actions import KEYS, Action, Done, Key, Launch, LongPress, Swipe, Tap, Type, Wait
from pytest_mobile_agent.agents.baselines.answers import AnswerError
from pytest_mobile_agent.agents.baselines.base import ModelAgent
from pytest_mobile_agent.agents.baselines.image_space import (
    ABSOLUTE,
    FACTOR,
    MAX_PIXELS,
    RELATIVE,
    Space,
    convention_record,
    overridden,
    smart_resize,
)
from pytest_mobile_agent.agents.baselines.t3a import package_for
from pytest_mobile_agent.models import image_part
from pytest_mobile_agent.models.messages import decode, fit, system

if TYPE_CHECKING:
    from pytest_mobile_agent.agents import Observation, TaskInfo

QWEN25_MIN_PIXELS = 4 * FACTOR * FACTOR  # Qwen2.5-VL's processor (preprocessor_config.json: 3136)
QWEN25 = re.compile(r"qwen2[._]?5-?vl", re.I)
QWEN3 = re.compile(r"qwen3(\.\d+)?-?vl", re.I)
TOOL = "mobile_use"
BUTTONS = ("back", "home", "menu", "enter")
WAIT_S = 2.0  # `wait` without a time
SWIPE_MS = 500
HISTORY_STEPS = 20  # earlier actions the prompt lists


def convention_for(model: str | None, override: str | None = None) -> tuple[str, str]:
    """The coordinate convention and why: the override, else the model's name, else the newest."""
    if chosen := overridden(override):
        return chosen
    name = model or ""
    if QWEN25.search(name):
        return ABSOLUTE, f"{name} is Qwen2.5-VL (pixels of the resized image)"
    if QWEN3.search(name):
        return RELATIVE, f"{name} is Qwen3-VL (0-1000 grid)"
    return RELATIVE, f"{name or 'the model'} does not name its Qwen-VL release: the newest convention (0-1000 grid)"


# The tool's actions and what each does, in the order the tool lists them.
ACTIONS = {
    "key": "press a key by its adb keyevent name (`text`).",
    "click": "tap the point (`coordinate`).",
    "long_press": "touch and hold the point (`coordinate`) for `time` seconds.",
    "swipe": "drag a finger from `coordinate` to `coordinate2`.",
    "type": "enter `text` into the focused field.",
    "system_button": "press Back, Home, Menu or Enter (`button`).",
    "open": "start the app named `text`.",
    "wait": "wait `time` seconds for the screen to change.",
    "answer": "give the answer the task asks for (`text`); this ends the task.",
    "terminate": "end the task, with `status` success or failure.",
}


def tool_schema(width: int, height: int, actions: tuple[str, ...] = tuple(ACTIONS)) -> dict[str, Any]:
    """The `mobile_use` function as the model was trained to see it: its actions (a release's
    own subset) and parameters, and the size of the space its coordinates are in."""
    return {
        "type": "function",
        "function": {
            "name": TOOL,
            "description": (
                "Operate an Android phone through its touchscreen and buttons; each call is answered with a "
                "new screenshot.\n"
                f"* The screen is {width}x{height}: give every coordinate in that space.\n"
                "* Aim at the middle of an element, not its edge."
                + ("\n* Open an app with `open` rather than looking for its icon." if "open" in actions else "")
            ),
            "parameters": {
                "type": "object",
                "required": ["action"],
                "properties": {
                    "action": {
                        "type": "string",
                        "enum": list(actions),
                        "description": "\n".join(f"* `{a}`: {ACTIONS[a]}" for a in actions),
                    },
                    "coordinate": {"type": "array", "description": "(x, y): for click, long_press and swipe."},
                    "coordinate2": {"type": "array", "description": "(x, y): where a swipe ends."},
                    "text": {"type": "string", "description": "for key, type, open and answer."},
                    "time": {"type": "number", "description": "seconds, for long_press and wait."},
                    "button": {"type": "string", "enum": ["Back", "Home", "Menu", "Enter"]},
                    "status": {"type": "string", "enum": ["success", "failure"]},
                },
            },
        },
    }


_CALL = re.compile(r"<tool_call>\s*(.*?)\s*(?:</tool_call>|$)", re.S)


def after_thinking(text: str) -> str:
    """The answer after a Thinking model's reasoning, where its call is."""
    return text.rsplit("</think>", 1)[-1]


def read_tool_call(text: str) -> dict[str, Any]:
    """The arguments of the answer's first `mobile_use` call after a Thinking model's `</think>`
    (a closing tag the server cut off, or a ```json fence inside the tags, is forgiven)."""
    m = _CALL.search(after_thinking(text))
    if m is None:
        raise AnswerError(f"no <tool_call> in the answer: {text[:120]!r}")
    body = re.sub(r"^```(?:json)?\s*|\s*```$", "", m.group(1).strip())
    try:
        call = json.loads(body)
    except json.JSONDecodeError as exc:
        raise AnswerError(f"the tool call is not JSON: {body[:120]!r} ({exc.msg})") from None
    if not isinstance(call, dict) or call.get("name") != TOOL:
        raise AnswerError(f"the tool call must be {{'name': '{TOOL}', 'arguments': {{...}}}}: {body[:120]!r}")
    args = call.get("arguments")
    if isinstance(args, str):  # some servers pass the arguments on as a JSON string
        try:
            args = json.loads(args)
        except json.JSONDecodeError:
            args = None
    if not isinstance(args, dict) or not isinstance(args.get("action"), str):
        raise AnswerError(f"the tool call's arguments need an 'action': {body[:120]!r}")
    return args


def point(args: dict[str, Any], key: str = "coordinate") -> tuple[float, float]:
    value = args.get(key)
    if (
        not isinstance(value, list | tuple)
        or len(value) != 2
        or not all(isinstance(v, int | float) and not isinstance(v, bool) for v in value)
    ):
        raise AnswerError(f"{args['action']} needs {key}=[x, y], not {value!r}")
    return float(value[0]), float(value[1])


def text_arg(args: dict[str, Any]) -> str:
    value = args.get("text")
    if not isinstance(value, str):
        raise AnswerError(f"{args['action']} needs text='...', not {value!r}")
    return value


def seconds(args: dict[str, Any], default: float) -> float:
    value = args.get("time", default)
    if not isinstance(value, int | float) or isinstance(value, bool) or value < 0:
        raise AnswerError(f"{args['action']} needs time in seconds, not {value!r}")
    return float(value)


class QwenVL(ModelAgent):
    name = "qwen-vl"
    needs_screenshot = True
    prompt_files: ClassVar[dict[str, str]] = {"system": "qwen_vl_mobile.txt"}

    def settings(self) -> dict[str, str]:
        """What this run uses, for pytest's header (the records carry it too)."""
        override = self.client.config.coordinates if self.client is not None else None
        convention, why = convention_for(self.model, override)
        return {"coordinates": f"{convention} ({why})", "screenshot side": f"{self.image_side} px"}

    def reset(self, task: TaskInfo) -> None:
        super().reset(task)
        self.answer: str | None = None
        override = self.client.config.coordinates if self.client is not None else None
        self.convention, self.why = convention_for(self.model, override)

    def screen_image(self, obs: Observation) -> tuple[dict[str, Any], Space]:
        """The screenshot fitted into --mobile-model-image-side, as a JPEG part; and the space the
        model answers in (Qwen2.5-VL: that image as its processor resizes it)."""
        img = decode(obs.screenshot)
        screen = obs.screen_size if obs.screen_size[0] and obs.screen_size[1] else img.size
        img, _ = fit(img, self.image_side)
        h, w = smart_resize(img.height, img.width, QWEN25_MIN_PIXELS, MAX_PIXELS)
        return image_part(img, self.image_side), Space(self.convention, (w, h), screen, img.size)

    def messages(self, obs: Observation) -> list[dict[str, Any]]:
        image, self.space = self.screen_image(obs)
        w, h = self.space.image if self.convention == ABSOLUTE else (1000, 1000)
        tools = self.prompt("system").format(tool=json.dumps(tool_schema(w, h), ensure_ascii=False))
        done = [f"Step {t.number}: {t.action}" + (f" [rejected: {t.error}]" if t.error else "") for t in self.history]
        text = (
            f"The user's task: {obs.prompt}\n"
            "What you have done on this phone so far:\n"
            + ("\n".join(done[-HISTORY_STEPS:]) or "Nothing yet.")
            + "\nSay in one sentence what you will do next and why, then make the call."
        )
        return [system(tools), {"role": "user", "content": [{"type": "text", "text": text}, image]}]

    def reasoning(self, text: str) -> str:
        return text.split("<tool_call>", 1)[0].strip() or " ".join(text.split())[:200]

    def action_text(self, text: str) -> str:
        m = _CALL.search(after_thinking(text))
        return " ".join(m.group(1).split())[:200] if m else " ".join(text.split())[:120]

    def parse(self, text: str, obs: Observation) -> Action:
        a = read_tool_call(text)
        action, space = a["action"], self.space
        if action == "click":
            return Tap(*space.to_device(*point(a)))
        if action == "long_press":
            return LongPress(*space.to_device(*point(a)))
        if action == "swipe":
            x, y = space.to_device(*point(a))
            x2, y2 = space.to_device(*point(a, "coordinate2"))
            return Swipe(x, y, x2, y2, duration_ms=SWIPE_MS)
        if action == "type":
            return Type(text_arg(a))
        if action == "key":
            key = text_arg(a).strip().lower().removeprefix("keycode_")
            if key not in KEYS:
                raise AnswerError(f"key {key!r}: this phone has {', '.join(sorted(KEYS))}")
            return Key(key)
        if action == "system_button":
            button = str(a.get("button", "")).strip().lower()
            if button not in BUTTONS:
                raise AnswerError(f"system_button must be Back, Home, Menu or Enter, not {a.get('button')!r}")
            return Key(button)
        if action == "open":
            return Launch(package_for(text_arg(a), obs))
        if action == "wait":
            return Wait(seconds(a, WAIT_S))
        if action == "answer":
            self.answer = text_arg(a)
            return Done(self.reasoning(text))
        if action == "terminate":
            status = a.get("status")
            if status == "success":
                return Done(self.reasoning(text))
            if status == "failure":
                return self.give_up(self.reasoning(text))
            raise AnswerError(f"terminate needs status success or failure, not {status!r}")
        raise AnswerError(f"unknown action {action!r}")

    def episode_usage(self) -> dict[str, Any]:
        out = super().episode_usage()
        space = getattr(self, "space", None)
        out["answer"] = getattr(self, "answer", None)
        out["agent_settings"] = {
            **convention_record(self),
            "image_size": list(space.image) if space is not None else None,
        }
        return out
