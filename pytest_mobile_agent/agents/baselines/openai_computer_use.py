"""OpenAI's computer-use agent: the Responses API's computer tool driving the phone. A screenshot
and the task in; out, `computer_call` items whose `call_id` the next request answers with a
`computer_call_output` holding the new screenshot.

Two tool versions: `computer_use_preview` (the `computer-use-preview` model) declares the display
size, and each call holds one `action`; the GA `computer` tool (gpt-5.4 and later) declares
nothing, takes screenshots at their original detail, and a call may batch several `actions`.
The version follows the model's name, and --mobile-model-tool-version overrides it. Either way the
model's points are pixels of the screenshot as sent (fitted into --mobile-model-image-side,
the declared display of the preview tool), scaled back to the device's. Every request holds the
whole conversation (the model's reasoning items included) with `truncation: "auto"`, so a
recorded run replays call by call. Pending safety checks stop the episode (`surface`, the
default) or are acknowledged (--mobile-safety-checks=acknowledge); the record lists them.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, ClassVar

from pytest_mobile_agent.actions import Action, Done, DoubleTap, Key, LongPress, Swipe, Tap, Type, Wait
from pytest_mobile_agent.agents.baselines.answers import AnswerError, excerpt
from pytest_mobile_agent.agents.baselines.base import ModelAgent
from pytest_mobile_agent.agents.baselines.image_space import ABSOLUTE, Space, convention_record
from pytest_mobile_agent.models import image_part
from pytest_mobile_agent.models.messages import decode, fit

if TYPE_CHECKING:
    from pytest_mobile_agent.agents import Observation, TaskInfo
    from pytest_mobile_agent.models import Reply

PREVIEW, GA = "computer_use_preview", "computer"  # the tool's type in each version
TOOLS = (PREVIEW, GA)
PREVIEW_MODEL = re.compile(r"computer-use-preview", re.I)
ENVIRONMENT = "linux"  # the preview tool's closest environment to Android's (its list has no phone)
SURFACE, ACKNOWLEDGE = "surface", "acknowledge"
INFEASIBLE_REPLY = "INFEASIBLE:"  # how the system prompt asks the model to say it cannot
WAIT_S = 1.0  # `wait`: the reference sample app's pause
SWIPE_MS = 500  # a drag or a scroll: slow enough that the content follows the finger, no fling
# keypress names (lower case) -> the harness's keys; the system prompt names them to the model
KEYPRESS = {
    "enter": "enter",
    "return": "enter",
    "back": "back",
    "esc": "back",
    "escape": "back",
    "browser_back": "back",
    "home": "home",
    "backspace": "backspace",
    "delete": "delete",
    "del": "delete",
    "tab": "tab",
    "space": "space",
    "up": "up",
    "arrowup": "up",
    "down": "down",
    "arrowdown": "down",
    "left": "left",
    "arrowleft": "left",
    "right": "right",
    "arrowright": "right",
    "menu": "menu",
    "search": "search",
    "volume_up": "volume_up",
    "volumeup": "volume_up",
    "volume_down": "volume_down",
    "volumedown": "volume_down",
}


def tool_for(model: str | None, override: str | None = None) -> tuple[str, str]:
    """The tool version and why: the override, else the model's name (computer-use-preview
    speaks the preview tool; the GA models, gpt-5.4 and later, the `computer` tool)."""
    if override:
        if override not in TOOLS:
            raise ValueError(f"--mobile-model-tool-version must be one of {', '.join(TOOLS)}, not {override!r}")
        return override, "set by --mobile-model-tool-version"
    name = model or ""
    if PREVIEW_MODEL.search(name):
        return PREVIEW, f"{name} is the computer-use-preview model"
    return GA, f"{name or 'the model'} is not computer-use-preview: the GA computer tool"


def actions_of(call: dict[str, Any]) -> list[dict[str, Any]]:
    """A computer_call's actions: the GA tool's batch, or the preview tool's one action."""
    batch = call.get("actions")
    if batch is None and isinstance(call.get("action"), dict):
        batch = [call["action"]]
    if not isinstance(batch, list) or not batch or not all(isinstance(a, dict) for a in batch):
        raise AnswerError(f"a computer_call without actions: {excerpt(call)}")
    return batch


def _number(action: dict[str, Any], name: str) -> float:
    value = action.get(name)
    if not isinstance(value, int | float) or isinstance(value, bool):
        raise AnswerError(f"{action.get('type')} needs a number {name}: {excerpt(action)}")
    return float(value)


class QueuedActions(ModelAgent):
    """An agent whose one answer may hold several actions (the computer-use APIs' batches): the
    rest wait in `_pending`, one a step, until the harness refuses one."""

    _pending: list[Action]

    def step(self, obs: Observation) -> Action:
        if self._pending and self.task is obs.task:
            if not obs.last_error:
                return self._pending.pop(0)
            self._pending = []  # the harness refused one: the model sees why before the rest
        return super().step(obs)


class OpenAIComputerUse(QueuedActions):
    name = "openai-computer-use"
    model_api = "responses"
    default_model = "computer-use-preview"
    needs_screenshot = True
    prompt_files: ClassVar[dict[str, str]] = {"system": "openai_computer_use.txt"}

    def __init__(self, client: Any = None) -> None:
        super().__init__(client)
        self._fresh()

    def _fresh(self) -> None:
        self.answer: str | None = None
        self._input: list[dict[str, Any]] = []  # the conversation, sent whole every turn
        self._open_calls: list[str] = []  # call_ids the next request answers with a screenshot
        self._acknowledged: list[dict[str, Any]] = []  # safety checks the next answer acknowledges
        self._pending: list[Action] = []  # the rest of a call's actions, one per step
        self._reply: Reply | None = None
        self.safety_log: list[dict[str, Any]] = []  # every pending safety check, and what was done

    def _choices(self) -> tuple[str, str, str]:
        """The tool version, why, and the safety-check handling this run uses."""
        cfg = self.client.config if self.client is not None else None
        if cfg is not None and cfg.coordinates not in (None, ABSOLUTE):
            raise ValueError(
                f"{self.name} answers in pixels of the screenshot sent: "
                f"--mobile-model-coordinates={cfg.coordinates} does not apply"
            )
        tool, why = tool_for(self.model, cfg.tool_version if cfg is not None else None)
        safety = cfg.safety_checks if cfg is not None else SURFACE
        if safety not in (SURFACE, ACKNOWLEDGE):
            raise ValueError(f"--mobile-safety-checks must be {SURFACE} or {ACKNOWLEDGE}, not {safety!r}")
        return tool, why, safety

    def settings(self) -> dict[str, str]:
        """What this run uses, for pytest's header (the records carry it too)."""
        tool, why, safety = self._choices()
        return {
            "tool": f"{tool} ({why})",
            "coordinates": f"{ABSOLUTE} (pixels of the screenshot sent)",
            "screenshot side": f"{self.image_side} px",
            "safety checks": safety,
        }

    def reset(self, task: TaskInfo) -> None:
        super().reset(task)
        self._fresh()
        self.tool, self.tool_why, self.safety = self._choices()
        self.convention, self.why = ABSOLUTE, f"the {self.tool} tool's points are pixels of the screenshot sent"

    # -- the request ---------------------------------------------------------------------------
    def screenshot(self, obs: Observation) -> dict[str, Any]:
        """The screenshot fitted into --mobile-model-image-side, as an image part of the tool's
        version; its size is the space the model's points are in."""
        img = decode(obs.screenshot)
        screen = obs.screen_size if obs.screen_size[0] and obs.screen_size[1] else img.size
        img, _ = fit(img, self.image_side)
        self.space = Space(ABSOLUTE, img.size, screen, img.size)
        url = image_part(img, self.image_side)["image_url"]["url"]
        return {"image_url": url, "detail": "original"} if self.tool == GA else {"image_url": url}

    def messages(self, obs: Observation) -> list[dict[str, Any]]:
        shot = self.screenshot(obs)
        if not self._input:
            text = f"The task: {obs.prompt}"
            image = {"type": "input_image", "detail": "auto", **shot}
            self._input.append({"role": "user", "content": [{"type": "input_text", "text": text}, image]})
            return list(self._input)
        for call_id in self._open_calls:
            output: dict[str, Any] = {
                "type": "computer_call_output",
                "call_id": call_id,
                "output": {"type": "computer_screenshot", **shot},
            }
            if self._acknowledged:
                output["acknowledged_safety_checks"] = self._acknowledged
            self._input.append(output)
        note = f"The phone did not carry out your last action: {obs.last_error}" if obs.last_error else ""
        if not self._open_calls:  # the last answer had no call to answer: the screen comes as a message
            image = {"type": "input_image", "detail": "auto", **shot}
            text = note or "The phone's screen now."
            self._input.append({"role": "user", "content": [{"type": "input_text", "text": text}, image]})
        elif note:
            self._input.append({"role": "user", "content": [{"type": "input_text", "text": note}]})
        self._open_calls, self._acknowledged = [], []
        return list(self._input)

    def tool_spec(self) -> dict[str, Any]:
        if self.tool == PREVIEW:
            width, height = self.space.sent
            return {"type": PREVIEW, "display_width": width, "display_height": height, "environment": ENVIRONMENT}
        return {"type": GA}

    def ask(self, messages: list[dict[str, Any]]) -> Reply:
        assert self.client is not None
        request: dict[str, Any] = {
            "instructions": self.prompt("system"),
            "input": messages,
            "tools": [self.tool_spec()],
            "truncation": "auto",  # the computer tool's requirement: old turns go when the context is full
            "reasoning": {"summary": "concise" if self.tool == PREVIEW else "auto"},
        }
        if self.client.config.max_tokens:
            request["max_output_tokens"] = self.client.config.max_tokens
        self._reply = self.client.ask(request)
        return self._reply

    # -- the answer ----------------------------------------------------------------------------
    def _items(self) -> list[dict[str, Any]]:
        data = self._reply.data if self._reply is not None else {}
        output = data.get("output")
        return output if isinstance(output, list) else []

    def reasoning(self, text: str) -> str:
        """The reasoning summaries and the message, else the calls as the model wrote them."""
        said = [
            str(part.get("text") or "")
            for item in self._items()
            if item.get("type") == "reasoning"
            for part in item.get("summary") or []
            if isinstance(part, dict)
        ]
        said.append(text)
        return " ".join(" ".join(said).split()) or self.action_text(text)

    def action_text(self, text: str) -> str:
        calls = [item for item in self._items() if item.get("type") == "computer_call"]
        if not calls:
            return " ".join(text.split())[:200]
        return " ".join(excerpt(call.get("actions", call.get("action"))) for call in calls)[:300]

    def parse(self, text: str, obs: Observation) -> Action:
        items = self._items()
        self._input.extend(items)  # reasoning items stay with their calls, as the API asks
        calls = [item for item in items if item.get("type") == "computer_call"]
        if not calls:
            message = text.strip()
            if not message:
                raise AnswerError(f"no computer_call and no message in the answer: {excerpt(items)}")
            if message.upper().startswith(INFEASIBLE_REPLY):
                return self.give_up(message[len(INFEASIBLE_REPLY) :].strip())
            self.answer = message
            return Done(message)
        for call in calls:
            if not isinstance(call.get("call_id"), str):
                raise AnswerError(f"a computer_call without a call_id: {excerpt(call)}")
        self._open_calls = [call["call_id"] for call in calls]
        checks = [c for call in calls for c in call.get("pending_safety_checks") or [] if isinstance(c, dict)]
        if checks:
            self.safety_log += [{**c, "handled": self.safety} for c in checks]
            if self.safety == SURFACE:
                said = "; ".join(f"{c.get('code') or 'check'}: {c.get('message') or ''}".strip() for c in checks)
                return self.give_up(f"the API's safety check asks for the user ({said})")
            self._acknowledged = checks
        actions = [done for call in calls for action in actions_of(call) for done in self.harness_actions(action)]
        if not actions:  # only screenshots asked for: the next request sends one
            return Wait(0)
        first, *self._pending = actions
        return first

    def harness_actions(self, a: dict[str, Any]) -> list[Action]:
        """What one of the tool's actions is on the phone, its points scaled back to the device."""
        kind, space = a.get("type"), self.space
        if kind in ("click", "double_click", "move", "scroll", "drag") and a.get("keys"):
            raise AnswerError(f"{kind} holding keys: this phone has no modifier keys: {excerpt(a)}")
        if kind == "click":
            x, y = space.to_device(_number(a, "x"), _number(a, "y"))
            button = a.get("button", "left")
            if button == "left":
                return [Tap(x, y)]
            if button == "right":
                return [LongPress(x, y)]
            if button == "back":
                return [Key("back")]
            raise AnswerError(
                f"click with the {button!r} button: a phone has left, right (hold) and back: {excerpt(a)}"
            )
        if kind == "double_click":
            return [DoubleTap(*space.to_device(_number(a, "x"), _number(a, "y")))]
        if kind == "drag":
            path = a.get("path")
            if not isinstance(path, list) or len(path) < 2 or not all(isinstance(p, dict) for p in path):
                raise AnswerError(f"drag needs a path of at least two points: {excerpt(a)}")
            (x, y), (x2, y2) = (space.to_device(_number(p, "x"), _number(p, "y")) for p in (path[0], path[-1]))
            return [Swipe(x, y, x2, y2, duration_ms=SWIPE_MS)]
        if kind == "scroll":
            return [self.scroll(a)]
        if kind == "type":
            if not isinstance(a.get("text"), str):
                raise AnswerError(f"type needs text: {excerpt(a)}")
            out: list[Action] = []
            lines = a["text"].split("\n")
            for i, line in enumerate(lines):
                if line:
                    out.append(Type(line))
                if i < len(lines) - 1:
                    out.append(Key("enter"))
            return out or [Type("")]
        if kind == "keypress":
            keys = a.get("keys")
            if not isinstance(keys, list) or not keys or not all(isinstance(k, str) for k in keys):
                raise AnswerError(f"keypress needs keys: {excerpt(a)}")
            if len(keys) > 1:
                raise AnswerError(f"keypress {keys}: this phone presses one key at a time, no combinations")
            key = keys[0]
            named = KEYPRESS.get(key.strip().lower().replace(" ", "_"))
            if named is not None:
                return [Key(named)]
            if len(key) == 1 and key.isprintable():
                return [Type(key)]
            raise AnswerError(f"keypress {key!r}: this phone has {', '.join(sorted(KEYPRESS))} and single characters")
        if kind == "wait":
            return [Wait(WAIT_S)]
        if kind == "move":
            return [Wait(0)]  # a touchscreen has no pointer to move: the step changes nothing
        if kind == "screenshot":
            return []
        raise AnswerError(f"unknown action {kind!r}: {excerpt(a)}")

    def scroll(self, a: dict[str, Any]) -> Action:
        """A finger sliding across (x, y) so the content moves by (scroll_x, scroll_y): against
        the scroll, centred on the point, within the screen."""
        space = self.space
        x, y = _number(a, "x"), _number(a, "y")
        dx, dy = _number(a, "scroll_x"), _number(a, "scroll_y")
        if dx == 0 and dy == 0:
            raise AnswerError(f"a scroll by (0, 0): {excerpt(a)}")
        x1, y1 = space.to_device(x + dx / 2, y + dy / 2)
        x2, y2 = space.to_device(x - dx / 2, y - dy / 2)
        # Up or down, a wheel's scroll: the list moves by the distance, no fling; sideways, a
        # swipe that turns a pager's page (as the harness's own Scroll does).
        return Swipe(x1, y1, x2, y2, duration_ms=SWIPE_MS, fling=y1 == y2)

    def episode_usage(self) -> dict[str, Any]:
        out = super().episode_usage()
        out["answer"] = self.answer
        out["agent_settings"] = {
            **convention_record(self),
            "tool": getattr(self, "tool", None),
            "tool_why": getattr(self, "tool_why", None),
            "safety_checks": getattr(self, "safety", None),
            "safety_checks_seen": self.safety_log,
        }
        return out
