"""UI-TARS (ByteDance's native GUI model), its mobile template: screenshots in, `Thought: ...
Action: click(start_box='(x,y)')` out, with the point in the model's own image space.

UI-TARS 1.5 and later answer in absolute pixels of the image as its processor resized it
(`smart_resize`: sides rounded to multiples of 28, the pixel count kept within bounds); the
first release (UI-TARS-2B/7B/72B-SFT/DPO) answers on a relative 0-1000 grid. The convention
follows the model's name, the newest when the name does not tell, and
--mobile-model-coordinates overrides both.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from pytest_mobile_agent.actions import Action, Done, Key, Launch, LongPress, Swipe, Tap, Type, Wait
from pytest_mobile_agent.agents.baselines.answers import AnswerError, section
from pytest_mobile_agent.agents.baselines.base import ModelAgent
from pytest_mobile_agent.agents.baselines.elements import selector_for
from pytest_mobile_agent.agents.baselines.image_space import (
    ABSOLUTE,
    RELATIVE,
    Space,
    convention_record,
    overridden,
    smart_resize,
)
from pytest_mobile_agent.agents.baselines.t3a import package_for
from pytest_mobile_agent.models import assistant, image_part
from pytest_mobile_agent.models.messages import decode, fit

if TYPE_CHECKING:
    from pytest_mobile_agent.agents import Observation, TaskInfo

FIRST_RELEASE = re.compile(r"ui-?tars-(2b|7b|72b)(-(sft|dpo))?\b", re.I)
ACTIONS = """click(start_box='<|box_start|>(x1,y1)<|box_end|>')
long_press(start_box='<|box_start|>(x1,y1)<|box_end|>')
type(content='') # end `content` with "\\n" to submit what you typed
scroll(start_box='<|box_start|>(x1,y1)<|box_end|>', direction='down or up or right or left')
open_app(app_name='')
drag(start_box='<|box_start|>(x1,y1)<|box_end|>', end_box='<|box_start|>(x3,y3)<|box_end|>')
press_home()
press_back()
wait() # pause 5 s, then look at the screen again
finished(content='xxx') # the task is done; put the answer in `content` if it asks for one"""
HISTORY_IMAGES = 5  # screenshots of the latest steps the prompt keeps (older steps: their answers only)
WAIT_S = 5.0
DRAG_MS = 600


def convention_for(model: str | None, override: str | None = None) -> tuple[str, str]:
    """The coordinate convention and why: the override, else the model's name, else the newest."""
    if chosen := overridden(override):
        return chosen
    name = model or ""
    if FIRST_RELEASE.search(name):
        return RELATIVE, f"{name} is a first-release UI-TARS (0-1000 grid)"
    if re.search(r"ui-?tars", name, re.I):
        return ABSOLUTE, f"{name} is UI-TARS 1.5 or later (pixels of the resized image)"
    return ABSOLUTE, f"{name or 'the model'} does not name its UI-TARS release: the newest convention"


@dataclass(frozen=True)
class Call:
    """An action as the model wrote it: its name and keyword arguments."""

    name: str
    args: dict[str, str]


_POINT = re.compile(r"<point>\s*(-?[\d.]+)[\s,]+(-?[\d.]+)\s*</point>")
_BOX_TOKENS = re.compile(r"<\|box_(start|end)\|>|<bbox>|</bbox>")


def read_call(text: str) -> Call:
    """The first action after the last `Action:`: `<point>x y</point>` and `<|box_start|>` forms
    read as `(x,y)`, `point=`/`start_point=`/`end_point=` as `start_box=`/`end_box=`."""
    if "Action:" not in text:
        raise AnswerError(f"no 'Action:' in the answer: {text[:120]!r}")
    raw = text.rsplit("Action:", 1)[1].strip()
    raw = raw.split(")\n\n", 1)[0].strip()
    if not raw.endswith(")"):
        raw = raw + ")" if raw.count("(") > raw.count(")") else raw
    raw = _POINT.sub(lambda m: f"({m.group(1)},{m.group(2)})", raw)
    raw = _BOX_TOKENS.sub("", raw)
    raw = re.sub(r"\bstart_point=", "start_box=", raw)
    raw = re.sub(r"\bend_point=", "end_box=", raw)
    raw = re.sub(r"\bpoint=", "start_box=", raw)
    try:
        node = ast.parse(raw, mode="eval").body
    except SyntaxError as exc:
        try:  # a remark on the lines after the action
            node = ast.parse(raw.split("\n", 1)[0], mode="eval").body
        except SyntaxError:
            raise AnswerError(f"the action is not a call: {raw[:120]!r} ({exc.msg})") from None
    if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Name) or node.args:
        raise AnswerError(f"the action must be name(key='value', ...): {raw[:120]!r}")
    args: dict[str, str] = {}
    for kw in node.keywords:
        if kw.arg is None or not isinstance(kw.value, ast.Constant):
            raise AnswerError(f"the action's arguments must be key='value': {raw[:120]!r}")
        args[kw.arg] = str(kw.value.value)
    return Call(node.func.id, args)


_PLAIN_BOX = re.compile(r"\b(start_box|end_box)='\(([\d.]+),\s*([\d.]+)\)'")


def with_box_tokens(reply: str) -> str:
    """An earlier answer as the model wrote it: servers drop special tokens from what they return
    (vLLM's skip_special_tokens), so a point's `<|box_start|>`/`<|box_end|>` go back in."""
    return _PLAIN_BOX.sub(lambda m: f"{m.group(1)}='<|box_start|>({m.group(2)},{m.group(3)})<|box_end|>'", reply)


def box_point(box: str | None, name: str = "start_box") -> tuple[float, float]:
    """`(x,y)` or a box `(x1,y1,x2,y2)` (its centre), as numbers."""
    numbers = [float(n) for n in re.findall(r"-?\d+(?:\.\d+)?", box or "")]
    if len(numbers) == 2:
        return numbers[0], numbers[1]
    if len(numbers) == 4:
        return (numbers[0] + numbers[2]) / 2, (numbers[1] + numbers[3]) / 2
    raise AnswerError(f"{name} must be '(x,y)' or '(x1,y1,x2,y2)', not {box!r}")


class UITars(ModelAgent):
    name = "ui-tars"
    needs_screenshot = True
    prompt_files: ClassVar[dict[str, str]] = {"mobile": "ui_tars_mobile.txt"}
    language = "English"  # of the `Thought` part
    history_images = HISTORY_IMAGES
    _pending: Action | None = None  # the Enter a `type(content='...\n')` asks for; reset() clears it

    def settings(self) -> dict[str, str]:
        """What this run uses, for pytest's header (the records carry it too)."""
        override = self.client.config.coordinates if self.client is not None else None
        convention, why = convention_for(self.model, override)
        return {"coordinates": f"{convention} ({why})", "screenshot side": f"{self.image_side} px"}

    def reset(self, task: TaskInfo) -> None:
        super().reset(task)
        self.answer: str | None = None
        self._replies: list[str] = []  # the model's answers, in order (the history the prompt replays)
        self._images: list[dict[str, Any]] = []  # the screenshot part each step sent
        self._pending = None
        override = self.client.config.coordinates if self.client is not None else None
        self.convention, self.why = convention_for(self.model, override)

    # -- the image -----------------------------------------------------------------------------
    def screen_image(self, obs: Observation) -> tuple[dict[str, Any], Space]:
        """The screenshot fitted into --mobile-model-image-side, as a JPEG part; and the space the
        model answers in: that image as the server's processor resizes it (`smart_resize`), as
        UI-TARS's own code maps its answers back."""
        img = decode(obs.screenshot)
        screen = obs.screen_size if obs.screen_size[0] and obs.screen_size[1] else img.size
        img, _ = fit(img, self.image_side)
        h, w = smart_resize(img.height, img.width)
        return image_part(img, self.image_side), Space(self.convention, (w, h), screen, img.size)

    # -- the prompt ----------------------------------------------------------------------------
    def messages(self, obs: Observation) -> list[dict[str, Any]]:
        image, self.space = self.screen_image(obs)
        self._images.append(image)
        text = self.prompt("mobile").format(actions=ACTIONS, language=self.language, goal=obs.prompt)
        out: list[dict[str, Any]] = [{"role": "user", "content": text}]
        first_image = len(self._images) - self.history_images
        for i, reply in enumerate(self._replies):
            if i >= first_image:
                out.append({"role": "user", "content": [self._images[i]]})
            out.append(assistant(with_box_tokens(reply)))
        out.append({"role": "user", "content": [image]})
        return out

    # -- the answer ----------------------------------------------------------------------------
    def reasoning(self, text: str) -> str:
        return section(text, "Thought") or text.split("Action:", 1)[0].strip() or text.strip()

    def action_text(self, text: str) -> str:
        return text.rsplit("Action:", 1)[-1].strip()[:200] if "Action:" in text else " ".join(text.split())[:120]

    def step(self, obs: Observation) -> Action:
        if self._pending is not None and self.task is obs.task:
            action, self._pending = self._pending, None
            return action
        action = super().step(obs)
        self._replies.append(self._last_text)
        return action

    def parse(self, text: str, obs: Observation) -> Action:
        self._last_text = text
        call = read_call(text)
        a, space = call.args, self.space
        name = call.name
        if name in ("click", "left_single", "tap"):
            return Tap(*space.to_device(*box_point(a.get("start_box"))))
        if name == "long_press":
            return LongPress(*space.to_device(*box_point(a.get("start_box"))))
        if name == "type":
            content = a.get("content")
            if content is None:
                raise AnswerError("type needs content='...'")
            if content == "\n":
                return Key("enter")
            if content.endswith("\n"):
                content = content.rstrip("\n")
                self._pending = Key("enter")
            return Type(content)
        if name == "scroll":
            direction = a.get("direction", "").strip().lower()
            if direction not in ("up", "down", "left", "right"):
                raise AnswerError(f"scroll direction must be up, down, left or right, not {direction!r}")
            if "start_box" not in a:
                return Action("scroll", direction=direction)
            x, y = space.to_device(*box_point(a["start_box"]))
            return scroll_at(x, y, direction, obs)
        if name in ("drag", "swipe"):
            x, y = space.to_device(*box_point(a.get("start_box")))
            x2, y2 = space.to_device(*box_point(a.get("end_box"), "end_box"))
            return Swipe(x, y, x2, y2, duration_ms=DRAG_MS)
        if name == "open_app":
            return Launch(package_for(a.get("app_name", ""), obs))
        if name == "press_home":
            return Key("home")
        if name == "press_back":
            return Key("back")
        if name == "press_enter":
            return Key("enter")
        if name == "hotkey":  # the desktop template's keys, where a phone has them
            key = a.get("key", "").strip().lower()
            if key not in ("enter", "back", "home"):
                raise AnswerError(f"hotkey {key!r}: a phone has enter, back and home")
            return Key(key)
        if name == "wait":
            return Wait(WAIT_S)
        if name == "finished":
            self.answer = a.get("content") or None
            return Done(self.reasoning(text))
        if name == "call_user":
            return self.give_up(self.reasoning(text))
        raise AnswerError(f"unknown action {name!r}")

    def episode_usage(self) -> dict[str, Any]:
        out = super().episode_usage()
        space = getattr(self, "space", None)
        out["answer"] = getattr(self, "answer", None)
        out["agent_settings"] = {
            **convention_record(self),
            "image_size": list(space.image) if space is not None else None,
            "history_images": self.history_images,
        }
        return out


def scroll_at(x: int, y: int, direction: str, obs: Observation) -> Action:
    """A scroll of the innermost scrollable view under (x, y), the view the finger would move;
    the screen's main scrollable view when there is none there."""
    under = [
        n for n in obs.ui.nodes() if n.scrollable and n.bounds[0] <= x < n.bounds[2] and n.bounds[1] <= y < n.bounds[3]
    ]
    if not under:
        return Action("scroll", direction=direction)
    node = min(under, key=lambda n: (n.bounds[2] - n.bounds[0]) * (n.bounds[3] - n.bounds[1]))
    return Action("scroll", direction=direction, selector=selector_for(node, obs.ui))
