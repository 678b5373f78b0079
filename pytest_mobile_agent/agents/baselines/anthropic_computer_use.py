"""Claude's computer-use tool (Anthropic's Messages API, `client.beta.messages.create`) on an
Android phone: the screenshot in, one `tool_use` of the `computer` tool out, answered on the next
step with a `tool_result` holding the new screenshot; a reply without a tool call ends the
episode, its text the answer.

The tool's version (and its beta flag) follows the model's name: `computer_20251124` for Claude
Opus 4.5 and later (Sonnet 4.6...), `computer_20250124` for Sonnet 4.5, Haiku 4.5, Opus 4.1,
Sonnet 4 and Opus 4; the newest when the name does not tell; --mobile-model-tool-version
overrides both. Screenshots are reduced, as Anthropic's docs ask, by the smallest whole factor
that fits the model's image limits (long edge and total pixels) and --mobile-model-image-side; the
tool declares that size (display_width_px/height_px) and the model's points, pixels of it, are
scaled back to the device.
"""

from __future__ import annotations

import json
import math
import re
import time
from dataclasses import replace
from typing import TYPE_CHECKING, Any, ClassVar

from pytest_mobile_agent.actions import Action, Done, Key, LongPress, Swipe, Tap, Type, Wait
from pytest_mobile_agent.agents.baselines.answers import AnswerError, invalid
from pytest_mobile_agent.agents.baselines.base import INFEASIBLE, ModelAgent, Turn
from pytest_mobile_agent.agents.baselines.image_space import ABSOLUTE, Space, convention_record
from pytest_mobile_agent.agents.baselines.ui_tars import scroll_at
from pytest_mobile_agent.models.messages import decode, jpeg_base64

if TYPE_CHECKING:
    from PIL import Image

    from pytest_mobile_agent.agents import Observation, TaskInfo
    from pytest_mobile_agent.models import Reply

TOOL = "computer"
NEWEST, OLDER = "computer_20251124", "computer_20250124"
BETAS = {NEWEST: "computer-use-2025-11-24", OLDER: "computer-use-2025-01-24"}
# Claude models whose computer tool is the older version (the docs' table); later ones take the newest.
OLDER_MODELS = re.compile(
    r"claude-(sonnet-4-5|haiku-4-5|opus-4-1|sonnet-4-0|opus-4-0|sonnet-4|opus-4|3-7-sonnet)(?!-\d\b)", re.I
)
CLAUDE = re.compile(r"claude", re.I)
# The image limits the API scales a larger image down to (long edge, total pixels): Opus 4.7 reads more.
LIMITS = (1568, 1_150_000)
LARGE_LIMITS = (2576, 3_750_000)
LARGE_MODELS = re.compile(r"claude-opus-4-7", re.I)
MAX_TOKENS = 4096  # the API requires max_tokens; --mobile-model's config may set its own
HISTORY_IMAGES = 3  # screenshots the conversation keeps (older ones are left out, as Anthropic's demo does)
CALLS_PER_STEP = 5  # answers without a phone action (screenshot, zoom, mouse_move...) one step may take
DRAG_MS = 600
# What a request may repeat of each kind of answer block (thinking blocks go back signed, unchanged).
ECHOED = {
    "text": ("type", "text"),
    "tool_use": ("type", "id", "name", "input"),
    "thinking": ("type", "thinking", "signature"),
    "redacted_thinking": ("type", "data"),
}
NOT_RUN = "not run: one action at a time"
LEFT_OUT = {"type": "text", "text": "(an earlier screenshot, left out)"}
KEYS = {
    "back": "back",
    "xf86back": "back",
    "home": "home",
    "xf86homepage": "home",
    "return": "enter",
    "enter": "enter",
    "kp_enter": "enter",
    "backspace": "delete",
    "tab": "tab",
    "escape": "escape",
    "esc": "escape",
    "space": "space",
    "up": "up",
    "down": "down",
    "left": "left",
    "right": "right",
    "menu": "menu",
    "search": "search",
    "appswitch": "recent",
    "recents": "recent",
    "volumeup": "volume_up",
    "xf86audioraisevolume": "volume_up",
    "volumedown": "volume_down",
    "xf86audiolowervolume": "volume_down",
}
PHONE_KEYS = (
    "Back, Home, Return, BackSpace, Tab, Escape, space, Up, Down, Left, Right, Menu, Search, AppSwitch, VolumeUp"
)
CLICKS = {"double_click": 2, "triple_click": 3}
NO_TOUCH = {
    "middle_click": "a touchscreen has no middle button: tap (left_click) or touch and hold (right_click)",
    "hold_key": "the phone has no keys to hold: press one with key",
}


def tool_version_for(model: str | None, override: str | None = None) -> tuple[str, str]:
    """The computer tool's version and why: the override, else the model's name, else the newest."""
    if override:
        if override not in BETAS:
            raise ValueError(f"--mobile-model-tool-version must be one of {', '.join(BETAS)}, not {override!r}")
        return override, "set by --mobile-model-tool-version"
    name = model or ""
    if OLDER_MODELS.search(name):
        return OLDER, f"{name} takes {OLDER}"
    if CLAUDE.search(name):
        return NEWEST, f"{name} takes {NEWEST}"
    return NEWEST, f"{name or 'the model'} does not name its Claude release: the newest tool"


def limits_for(model: str | None) -> tuple[int, int]:
    return LARGE_LIMITS if LARGE_MODELS.search(model or "") else LIMITS


def display_factor(width: int, height: int, long_edge: int, pixels: int) -> int:
    """The smallest whole factor that brings the screen's long edge and pixel count within the
    limits (what Anthropic's docs ask a screenshot to be before it is sent); whole, so that the
    reduction is a box filter: several times faster than resampling, and as sharp at these factors."""
    factor = max(1, -(-max(width, height) // long_edge))
    while -(-width // factor) * -(-height // factor) > pixels:
        factor += 1
    return factor


def display_size(width: int, height: int, long_edge: int, pixels: int) -> tuple[int, int]:
    """The size the screen is sent at (Pillow's `reduce` rounds up)."""
    factor = display_factor(width, height, long_edge, pixels)
    return -(-width // factor), -(-height // factor)


def point(args: dict[str, Any], action: str, key: str = "coordinate") -> tuple[float, float]:
    value = args.get(key)
    if (
        not isinstance(value, list | tuple)
        or len(value) != 2
        or not all(isinstance(v, int | float) and not isinstance(v, bool) for v in value)
    ):
        raise AnswerError(f"{action} needs {key}=[x, y], not {value!r}")
    return float(value[0]), float(value[1])


def image_block(img: Image.Image) -> dict[str, Any]:
    return {"type": "image", "source": {"type": "base64", "media_type": "image/jpeg", "data": jpeg_base64(img)}}


def recent_images(conversation: list[dict[str, Any]], keep: int) -> list[dict[str, Any]]:
    """The conversation with every screenshot but the last `keep` replaced by a line of text (the
    messages holding them copied, the conversation itself unchanged)."""
    out, seen = list(conversation), 0
    for m in range(len(out) - 1, -1, -1):
        content = out[m]["content"]
        if out[m]["role"] != "user" or not isinstance(content, list):
            continue
        changed = False
        blocks = list(content)
        for b in range(len(blocks) - 1, -1, -1):
            block = blocks[b]
            inner = block.get("content") if block.get("type") == "tool_result" else None
            if isinstance(inner, list):
                parts = list(inner)
                for i in range(len(parts) - 1, -1, -1):
                    if parts[i].get("type") == "image":
                        seen += 1
                        if seen > keep:
                            parts[i], changed = dict(LEFT_OUT), True
                if parts != inner:
                    blocks[b] = {**block, "content": parts}
            elif block.get("type") == "image":
                seen += 1
                if seen > keep:
                    blocks[b], changed = dict(LEFT_OUT), True
        if changed:
            out[m] = {**out[m], "content": blocks}
    return out


def echoed(block: dict[str, Any]) -> dict[str, Any]:
    """An answer's block as the next request repeats it: the fields the API takes back, no more."""
    fields = ECHOED.get(block.get("type", ""))
    return {k: v for k, v in block.items() if k in fields} if fields else block


def tool_result(tool_id: str, content: list[dict[str, Any]], error: str | None = None) -> dict[str, Any]:
    block: dict[str, Any] = {"type": "tool_result", "tool_use_id": tool_id, "content": content}
    if error:
        block["content"] = [{"type": "text", "text": error}, *content]
        block["is_error"] = True
    return block


class AnthropicComputerUse(ModelAgent):
    name = "anthropic-computer-use"
    model_api = "anthropic"
    needs_screenshot = True
    prompt_files: ClassVar[dict[str, str]] = {"system": "anthropic_computer_use.txt"}
    history_images = HISTORY_IMAGES

    def settings(self) -> dict[str, str]:
        """What this run uses, for pytest's header (the records carry it too)."""
        override = self.client.config.tool_version if self.client is not None else None
        version, why = tool_version_for(self.model, override)
        long_edge, pixels = limits_for(self.model)
        return {
            "tool": f"{version} with beta {BETAS[version]} ({why})",
            "screenshots": f"within {min(long_edge, self.image_side)} px long edge and {pixels / 1e6:g} MP, "
            "coordinates in their pixels",
        }

    def reset(self, task: TaskInfo) -> None:
        super().reset(task)
        override = self.client.config.tool_version if self.client is not None else None
        self.version, self.version_why = tool_version_for(self.model, override)
        self.convention = ABSOLUTE
        self.why = "pixels of the screenshot as sent (the tool's display_width_px x display_height_px)"
        self.answer: str | None = None
        self.conversation: list[dict[str, Any]] = []
        self._pending: str | None = None  # the tool_use the next step's screenshot answers
        self._unanswered: list[str] = []  # further tool_use ids of that answer (one action is taken a step)
        self._enter: Action | None = None  # the Enter a `type` ending in a newline asks for after the text
        self._cursor: tuple[float, float] | None = None  # in the screenshot's pixels
        self._pressed: tuple[float, float] | None = None  # where left_mouse_down put the finger
        self._carry: list[dict[str, Any]] = []  # tool results the next user turn starts with

    # -- the screenshot ------------------------------------------------------------------------
    def screen_image(self, obs: Observation) -> tuple[Image.Image, Image.Image, Space]:
        """The screen at full size and scaled to the display the tool declares, and that space."""
        full = decode(obs.screenshot)
        full = full if full.mode == "RGB" else full.convert("RGB")
        screen = obs.screen_size if obs.screen_size[0] and obs.screen_size[1] else full.size
        long_edge, pixels = limits_for(self.model)
        factor = display_factor(*full.size, min(long_edge, self.image_side), pixels)
        sent = full.reduce(factor) if factor > 1 else full
        return full, sent, Space(ABSOLUTE, sent.size, screen, sent.size)

    def tool(self) -> dict[str, Any]:
        w, h = self.space.image
        tool: dict[str, Any] = {"type": self.version, "name": TOOL, "display_width_px": w, "display_height_px": h}
        if self.version == NEWEST:
            tool["enable_zoom"] = True
        return tool

    def request(self) -> dict[str, Any]:
        cfg = self.client.config if self.client is not None else None
        request: dict[str, Any] = {
            "system": self.prompt("system"),
            "messages": recent_images(self.conversation, self.history_images),
            "tools": [self.tool()],
            "tool_choice": {"type": "auto", "disable_parallel_tool_use": True},
            "max_tokens": (cfg.max_tokens if cfg is not None and cfg.max_tokens else MAX_TOKENS),
            "betas": [BETAS[self.version]],
        }
        return request  # no temperature: the SDK's current releases no longer take one

    def _say(self, content: list[dict[str, Any]]) -> None:
        self.conversation.append({"role": "user", "content": content})

    # -- the loop ------------------------------------------------------------------------------
    def step(self, obs: Observation) -> Action:
        if self.client is None:
            raise RuntimeError(f"{self.name}: no model client (pass --mobile-model NAME)")
        if self.task is None or obs.task is not self.task:
            self.reset(obs.task)
        if self._enter is not None:
            enter, self._enter = self._enter, None
            return enter
        _ = obs.screenshot  # a capture, when the harness has none yet, is the device's time: not ours
        t0, c0 = time.perf_counter(), time.thread_time()
        waited = cpu_waited = 0.0
        tokens_in = tokens_out = 0
        self.full, self.sent, self.space = self.screen_image(obs)
        screenshot = image_block(self.sent)
        if not self.conversation:
            self._say([{"type": "text", "text": f"The task: {obs.prompt}"}, screenshot])
        elif self._pending is None:  # an answer without a phone action: cut off, or too many calls
            self._say([*self._carry, {"type": "text", "text": "The screen now:"}, screenshot])
        else:
            results = [tool_result(self._pending, [screenshot], obs.last_error)]
            results += [tool_result(i, [], NOT_RUN) for i in self._unanswered]
            self._say(results)
        self._pending, self._unanswered, self._carry = None, [], []
        action: Action | None = None
        texts: list[str] = []
        for call in range(CALLS_PER_STEP):
            w0, wc0 = time.perf_counter(), time.thread_time()
            reply = self.client.ask(self.request())
            waited += time.perf_counter() - w0
            cpu_waited += time.thread_time() - wc0
            tokens_in, tokens_out = tokens_in + reply.tokens_in, tokens_out + reply.tokens_out
            action, result = self._read(reply, obs)
            texts.append(self._said(reply))
            if result is None:
                break
            if call == CALLS_PER_STEP - 1:
                self._carry = result  # answered with the next screenshot
            else:
                self._say(result)
        if action is None:
            action = invalid(f"{CALLS_PER_STEP} answers in a row without an action on the phone")
        reasoning = "\n".join(t for t in texts if t) or None
        if action.kind == "done" and action.reasoning and action.reasoning.startswith(INFEASIBLE):
            self.gave_up = action.reasoning[len(INFEASIBLE) :]
            reasoning = action.reasoning
        action = replace(action, reasoning=reasoning, tokens_in=tokens_in, tokens_out=tokens_out)
        self.history.append(Turn(len(self.history) + 1, action.describe(), reasoning or ""))
        self.overhead_s.append(time.perf_counter() - t0 - waited)
        self.overhead_cpu_s.append(time.thread_time() - c0 - cpu_waited)
        return action

    @staticmethod
    def _said(reply: Reply) -> str:
        """The answer's text and its tool call as the model wrote it (what an invalid step keeps)."""
        calls = [
            json.dumps(b.get("input"), ensure_ascii=False)
            for b in reply.data.get("content", [])
            if b.get("type") == "tool_use"
        ]
        return "\n".join(p for p in (reply.text.strip(), *calls) if p)

    def _read(self, reply: Reply, obs: Observation) -> tuple[Action | None, list[dict[str, Any]] | None]:
        """The answer's action for the phone, or the tool results to ask again with (an action
        that does not touch the phone: screenshot, zoom, the cursor); the answer joins the conversation."""
        content = [echoed(b) for b in reply.data.get("content", []) if isinstance(b, dict)]
        self.conversation.append({"role": "assistant", "content": content})
        calls = [b for b in content if b.get("type") == "tool_use"]
        if not calls:
            if reply.data.get("stop_reason") == "max_tokens":
                return invalid(f"the answer was cut off at max_tokens: {reply.text[:120]!r}"), None
            self.conversation.pop()  # the episode is over: nothing answers it
            text = reply.text.strip()
            if text.lower().startswith("infeasible:"):
                return self.give_up(text.split(":", 1)[1].strip() or "the model found the task infeasible"), None
            self.answer = text or None
            return Done(text or None), None
        call, extra = calls[0], [str(b.get("id")) for b in calls[1:]]
        tool_id = str(call.get("id"))
        try:
            if call.get("name") != TOOL:
                raise AnswerError(f"no tool {call.get('name')!r}: the one tool is {TOOL!r}")
            args = call.get("input")
            if not isinstance(args, dict) or not isinstance(args.get("action"), str):
                raise AnswerError(f"the tool call's input needs an 'action': {str(args)[:120]!r}")
            outcome = self.act(args, obs)
        except AnswerError as exc:
            self._pending, self._unanswered = tool_id, extra
            return invalid(str(exc)), None
        if isinstance(outcome, Action):
            self._pending, self._unanswered = tool_id, extra
            return outcome, None
        return None, [tool_result(tool_id, outcome)] + [tool_result(i, [], NOT_RUN) for i in extra]

    def act(self, a: dict[str, Any], obs: Observation) -> Action | list[dict[str, Any]]:
        """One computer action: the phone's action, or the content of a tool result given at once."""
        action, space = a["action"], self.space
        if action in NO_TOUCH:
            raise AnswerError(f"{action}: {NO_TOUCH[action]}")
        held = a.get("text") if action not in ("type", "key") else None
        if held:
            raise AnswerError(f"{action} with {held!r} held: the phone has no modifier keys")
        if action in ("left_click", "right_click", "double_click", "triple_click"):
            x, y = point(a, action) if "coordinate" in a else self._at(action)
            self._cursor = (x, y)
            where = space.to_device(x, y)
            if action in ("left_click", "right_click"):
                return Tap(*where) if action == "left_click" else LongPress(*where)
            # A double or triple click is a double or triple tap: one gesture on the touchscreen.
            return Action("tap", x=where[0], y=where[1], count=CLICKS[action])
        if action == "left_click_drag":
            x, y = point(a, action, "start_coordinate")
            x2, y2 = point(a, action)
            self._cursor = (x2, y2)
            return Swipe(*space.to_device(x, y), *space.to_device(x2, y2), duration_ms=DRAG_MS)
        if action == "mouse_move":
            self._cursor = point(a, action)
            return self._note(f"The finger hovers at {self._shown(self._cursor)}.")
        if action == "left_mouse_down":
            self._pressed = self._cursor = self._at(action) if "coordinate" not in a else point(a, action)
            return self._note(f"The finger is down at {self._shown(self._pressed)}.")
        if action == "left_mouse_up":
            if self._pressed is None:
                raise AnswerError("left_mouse_up without left_mouse_down")
            end = point(a, action) if "coordinate" in a else self._at(action)
            start, self._pressed, self._cursor = self._pressed, None, end
            if space.to_device(*start) == space.to_device(*end):
                return Tap(*space.to_device(*start))
            return Swipe(*space.to_device(*start), *space.to_device(*end), duration_ms=DRAG_MS)
        if action == "scroll":
            direction = a.get("scroll_direction")
            if direction not in ("up", "down", "left", "right"):
                raise AnswerError(f"scroll needs scroll_direction up, down, left or right, not {direction!r}")
            x, y = point(a, action) if "coordinate" in a else self._at(action)
            self._cursor = (x, y)
            return scroll_at(*space.to_device(x, y), direction, obs)
        if action == "type":
            text = a.get("text")
            if not isinstance(text, str) or not text:
                raise AnswerError(f"type needs text, not {text!r}")
            if text == "\n":
                return Key("enter")
            if text.endswith("\n"):
                self._enter = Key("enter")
            return Type(text.rstrip("\n"))
        if action == "key":
            name = a.get("text")
            if not isinstance(name, str) or not name.strip():
                raise AnswerError(f"key needs text naming a key, not {name!r}")
            key = KEYS.get(name.strip().lower().replace("_", ""))
            if key is None:
                why = "the phone has no modifier keys" if "+" in name.strip("+") else "the phone has no such key"
                raise AnswerError(f"key {name!r}: {why} (its keys: {PHONE_KEYS})")
            return Key(key)
        if action == "wait":
            seconds = a.get("duration", 1)
            if not isinstance(seconds, int | float) or isinstance(seconds, bool) or seconds < 0:
                raise AnswerError(f"wait needs duration in seconds, not {seconds!r}")
            return Wait(min(float(seconds), 30.0))
        if action == "screenshot":
            return [image_block(self.sent)]
        if action == "cursor_position":
            return self._note(f"The cursor is at {self._shown(self._cursor)}.")
        if action == "zoom":
            return [image_block(self.zoomed(a.get("region")))]
        raise AnswerError(f"unknown action {action!r}")

    def _at(self, action: str) -> tuple[float, float]:
        if self._cursor is None:
            raise AnswerError(f"{action} without a coordinate, and the cursor has not been placed")
        return self._cursor

    @staticmethod
    def _shown(where: tuple[float, float] | None) -> str:
        return "no position yet" if where is None else f"({round(where[0])}, {round(where[1])})"

    @staticmethod
    def _note(text: str) -> list[dict[str, Any]]:
        return [{"type": "text", "text": text}]

    def zoomed(self, region: Any) -> Image.Image:
        """The region (x0, y0, x1, y1 in the screenshot's pixels) cut from the full-size screen and
        scaled to fill the image budget, as the zoom action shows it."""
        from PIL import Image

        if self.version != NEWEST:
            raise AnswerError(f"zoom is an action of {NEWEST}, not of {self.version}")
        if (
            not isinstance(region, list | tuple)
            or len(region) != 4
            or not all(isinstance(v, int | float) and not isinstance(v, bool) for v in region)
        ):
            raise AnswerError(f"zoom needs region=[x0, y0, x1, y1], not {region!r}")
        x0, y0 = self.space.to_device(region[0], region[1])
        x1, y1 = self.space.to_device(region[2], region[3])
        fw, fh = self.full.size
        sw, sh = self.space.screen
        box = (x0 * fw // sw, y0 * fh // sh, (x1 + 1) * fw // sw, (y1 + 1) * fh // sh)
        if box[2] - box[0] < 2 or box[3] - box[1] < 2:
            raise AnswerError(f"zoom region {region!r} is empty")
        crop = self.full.crop(box)
        long_edge, pixels = limits_for(self.model)
        w, h = crop.size
        scale = min(min(long_edge, self.image_side) / max(w, h), math.sqrt(pixels / (w * h)))
        return crop.resize((max(1, int(w * scale)), max(1, int(h * scale))), Image.Resampling.BICUBIC)

    def episode_usage(self) -> dict[str, Any]:
        out = super().episode_usage()
        out["answer"] = getattr(self, "answer", None)
        out["agent_settings"] = {
            **convention_record(self),
            "tool_version": getattr(self, "version", None),
            "tool_version_why": getattr(self, "version_why", None),
            "beta": BETAS.get(getattr(self, "version", "")),
            "history_images": self.history_images,
        }
        return out
