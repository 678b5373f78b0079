"""Google's Gemini computer-use tool (`gemini-2.5-computer-use-preview-10-2025` and later, the
Gemini API's `generate_content`) on an Android phone. The screenshot and the task in; out, the
model's `function_call` parts, each answered on the next request by a `function_response` of the
same name carrying the new screenshot.

The tool is declared for a phone as Google's docs show for mobile use: its browser-only
predefined functions excluded, and custom functions declared for what a phone has and a browser
lacks (`open_app`, `long_press_at`, `go_home`). The model's points are on a 0-999 grid over the
screenshot whatever its size (divided by 1000, as Google's reference does), scaled to the device.
A call whose `safety_decision` asks for confirmation stops the episode (`surface`, the default)
or is acknowledged in its function response (--mobile-safety-checks=acknowledge); the record
lists them. Every request holds the whole conversation (the model's parts, thought signatures
included, go back as given); screenshots older than the last few turns are dropped from it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from pytest_mobile_agent.actions import Action, Done, Key, Launch, LongPress, Swipe, Tap, Type, Wait
from pytest_mobile_agent.agents.baselines.answers import AnswerError, excerpt
from pytest_mobile_agent.agents.baselines.image_space import RELATIVE, Space, convention_record
from pytest_mobile_agent.agents.baselines.openai_computer_use import (
    ACKNOWLEDGE,
    INFEASIBLE_REPLY,
    KEYPRESS,
    SURFACE,
    SWIPE_MS,
    QueuedActions,
)
from pytest_mobile_agent.agents.baselines.t3a import package_for
from pytest_mobile_agent.models.messages import decode, fit, jpeg_base64

if TYPE_CHECKING:
    from pytest_mobile_agent.agents import Observation, TaskInfo
    from pytest_mobile_agent.models import Reply

GRID = 1000  # the model's 0-999 points are divided by this
ENVIRONMENT = "ENVIRONMENT_BROWSER"  # the environment Google's mobile example declares, browser functions excluded
# The predefined functions a phone has no use for: they need a browser window.
EXCLUDED = ("open_web_browser", "search", "navigate", "hover_at", "go_forward", "scroll_document")
POINT = {"type": "INTEGER", "description": "on the 0-999 grid over the screenshot"}
CUSTOM = [
    {
        "name": "open_app",
        "description": "Starts an installed app and shows its first screen.",
        "parameters": {
            "type": "OBJECT",
            "properties": {"app_name": {"type": "STRING", "description": "the app's name as its icon shows it"}},
            "required": ["app_name"],
        },
    },
    {
        "name": "long_press_at",
        "description": "Touches and holds a point for about a second, as for an item's menu or to select it.",
        "parameters": {
            "type": "OBJECT",
            "properties": {"x": POINT, "y": POINT},
            "required": ["x", "y"],
        },
    },
    {"name": "go_home", "description": "Goes to the phone's home screen.", "parameters": {"type": "OBJECT"}},
]
WAIT_S = 5.0  # wait_5_seconds
SCROLL_MAGNITUDE = 800  # scroll_at's default, in grid units
HISTORY_IMAGES = 3  # screenshots the conversation keeps (older ones leave it, as Google's reference does)
SCROLLS = {"down": (0, 1), "up": (0, -1), "right": (1, 0), "left": (-1, 0)}  # where the content moves to


def _number(call: dict[str, Any], name: str) -> float:
    value = (call.get("args") or {}).get(name)
    if not isinstance(value, int | float) or isinstance(value, bool):
        raise AnswerError(f"{call.get('name')} needs a number {name}: {excerpt(call)}")
    return float(value)


def _text(call: dict[str, Any], name: str) -> str:
    value = (call.get("args") or {}).get(name)
    if not isinstance(value, str):
        raise AnswerError(f"{call.get('name')} needs a string {name}: {excerpt(call)}")
    return value


class GeminiComputerUse(QueuedActions):
    name = "gemini-computer-use"
    model_api = "gemini"
    default_model = "gemini-2.5-computer-use-preview-10-2025"
    needs_screenshot = True
    prompt_files: ClassVar[dict[str, str]] = {"system": "gemini_computer_use.txt"}

    def __init__(self, client: Any = None) -> None:
        super().__init__(client)
        self._fresh()

    def _fresh(self) -> None:
        self.answer: str | None = None
        self._contents: list[dict[str, Any]] = []  # the conversation, sent whole every turn
        self._open_calls: list[str] = []  # names of the calls the next request answers, in order
        self._acknowledged: set[int] = set()  # which of them carry a safety acknowledgement
        self._pending: list[Action] = []  # the rest of the answer's actions, one per step
        self._reply: Reply | None = None
        self.safety_log: list[dict[str, Any]] = []  # every safety decision asked for, and what was done

    def _choices(self) -> str:
        """The safety-check handling this run uses; a coordinate or tool override is refused."""
        cfg = self.client.config if self.client is not None else None
        if cfg is not None and cfg.coordinates not in (None, RELATIVE):
            raise ValueError(
                f"{self.name} answers on a 0-999 grid: --mobile-model-coordinates={cfg.coordinates} does not apply"
            )
        if cfg is not None and cfg.tool_version:
            raise ValueError(f"{self.name} has one tool version: --mobile-model-tool-version does not apply")
        safety = cfg.safety_checks if cfg is not None else SURFACE
        if safety not in (SURFACE, ACKNOWLEDGE):
            raise ValueError(f"--mobile-safety-checks must be {SURFACE} or {ACKNOWLEDGE}, not {safety!r}")
        return safety

    def settings(self) -> dict[str, str]:
        """What this run uses, for pytest's header (the records carry it too)."""
        return {
            "tool": f"computer_use ({ENVIRONMENT} without {', '.join(EXCLUDED)}; "
            f"custom: {', '.join(str(f['name']) for f in CUSTOM)})",
            "coordinates": f"{RELATIVE} (a 0-999 grid over the screenshot, divided by {GRID})",
            "screenshot side": f"{self.image_side} px",
            "safety checks": self._choices(),
        }

    def reset(self, task: TaskInfo) -> None:
        super().reset(task)
        self._fresh()
        self.safety = self._choices()
        self.convention, self.why = RELATIVE, f"Gemini's computer-use points are on a 0-999 grid (divided by {GRID})"

    # -- the request ---------------------------------------------------------------------------
    def screenshot(self, obs: Observation) -> dict[str, Any]:
        """The screenshot fitted into --mobile-model-image-side, as an inline_data part."""
        img = decode(obs.screenshot)
        screen = obs.screen_size if obs.screen_size[0] and obs.screen_size[1] else img.size
        img, _ = fit(img, self.image_side)
        self.space = Space(RELATIVE, img.size, screen, img.size, grid=GRID)
        return {"inline_data": {"mime_type": "image/jpeg", "data": jpeg_base64(img)}}

    def messages(self, obs: Observation) -> list[dict[str, Any]]:
        shot = self.screenshot(obs)
        if not self._contents:
            self._contents.append({"role": "user", "parts": [{"text": f"The task: {obs.prompt}"}, shot]})
            return list(self._contents)
        parts: list[dict[str, Any]] = []
        for i, name in enumerate(self._open_calls):
            response: dict[str, Any] = {"url": ""}  # the browser's field; a phone has no address
            if obs.last_error:
                response["error"] = obs.last_error
            if i in self._acknowledged:
                response["safety_acknowledgement"] = "true"
            last = i == len(self._open_calls) - 1  # the screen after all of them: once, on the last
            parts.append(
                {"function_response": {"name": name, "response": response, **({"parts": [shot]} if last else {})}}
            )
        if not parts:  # the last answer had no call to answer: the screen comes as a message
            note = f"The phone did not carry out your last action: {obs.last_error}" if obs.last_error else ""
            parts = [{"text": note or "The phone's screen now."}, shot]
        self._contents.append({"role": "user", "parts": parts})
        self._open_calls, self._acknowledged = [], set()
        self._drop_old_screenshots()
        return list(self._contents)

    def _drop_old_screenshots(self) -> None:
        turns = [c for c in self._contents if c["role"] == "user"]
        for turn in turns[:-HISTORY_IMAGES] if len(turns) > HISTORY_IMAGES else []:
            for part in turn["parts"]:
                response = part.get("function_response")
                if response is not None:
                    response.pop("parts", None)
            turn["parts"] = [p for p in turn["parts"] if "inline_data" not in p] or [{"text": "(an old screenshot)"}]

    def tools(self) -> list[dict[str, Any]]:
        computer = {"environment": ENVIRONMENT, "excluded_predefined_functions": list(EXCLUDED)}
        return [{"computer_use": computer}, {"function_declarations": CUSTOM}]

    def ask(self, messages: list[dict[str, Any]]) -> Reply:
        assert self.client is not None
        config: dict[str, Any] = {"system_instruction": self.prompt("system"), "tools": self.tools()}
        if self.client.config.max_tokens:
            config["max_output_tokens"] = self.client.config.max_tokens
        self._reply = self.client.ask({"contents": messages, "config": config})
        return self._reply

    # -- the answer ----------------------------------------------------------------------------
    def _parts(self) -> list[dict[str, Any]]:
        data = self._reply.data if self._reply is not None else {}
        try:
            parts = data["candidates"][0]["content"]["parts"]
        except (KeyError, IndexError, TypeError):
            return []
        return [p for p in parts if isinstance(p, dict)] if isinstance(parts, list) else []

    def _calls(self) -> list[dict[str, Any]]:
        return [p["function_call"] for p in self._parts() if isinstance(p.get("function_call"), dict)]

    def reasoning(self, text: str) -> str:
        said = " ".join(str(p.get("text") or "") for p in self._parts() if "text" in p)
        return " ".join(said.split()) or self.action_text(text)

    def action_text(self, text: str) -> str:
        calls = self._calls()
        if not calls:
            return " ".join(text.split())[:200]
        return " ".join(excerpt({"name": c.get("name"), "args": c.get("args")}) for c in calls)[:300]

    def parse(self, text: str, obs: Observation) -> Action:
        parts = self._parts()
        if parts:
            self._contents.append({"role": "model", "parts": parts})  # as given: thought signatures stay
        calls = self._calls()
        if not calls:
            message = text.strip()
            if not message:
                raise AnswerError(f"no function call and no text in the answer: {excerpt(parts)}")
            if message.upper().startswith(INFEASIBLE_REPLY):
                return self.give_up(message[len(INFEASIBLE_REPLY) :].strip())
            self.answer = message
            return Done(message)
        # Every call gets its function response next turn, whatever becomes of it here.
        self._open_calls = [str(c.get("name") or "") for c in calls]
        for i, call in enumerate(calls):
            decision = (call.get("args") or {}).get("safety_decision")
            if isinstance(decision, dict) and decision.get("decision") == "require_confirmation":
                self.safety_log.append({"call": call.get("name"), **decision, "handled": self.safety})
                if self.safety == SURFACE:
                    return self.give_up(f"the API's safety decision asks for the user ({decision.get('explanation')})")
                self._acknowledged.add(i)
        actions = [done for call in calls for done in self.harness_actions(call, obs)]
        first, *self._pending = actions
        return first

    def harness_actions(self, call: dict[str, Any], obs: Observation) -> list[Action]:
        """What one function call is on the phone, its points scaled from the grid to the device."""
        name, args = call.get("name"), call.get("args") or {}
        if not isinstance(args, dict):
            raise AnswerError(f"{name}'s args are not an object: {excerpt(call)}")
        if name in ("click_at", "long_press_at"):
            x, y = self.space.to_device(_number(call, "x"), _number(call, "y"))
            return [Tap(x, y) if name == "click_at" else LongPress(x, y)]
        if name == "type_text_at":
            x, y = self.space.to_device(_number(call, "x"), _number(call, "y"))
            # The tool empties the field first unless told not to (clear_before_typing, default true).
            out = [Tap(x, y), Type(_text(call, "text"), clear=args.get("clear_before_typing", True) is not False)]
            return out + [Key("enter")] if args.get("press_enter", True) else out
        if name == "scroll_at":
            return [self.scroll(call)]
        if name == "drag_and_drop":
            x, y = self.space.to_device(_number(call, "x"), _number(call, "y"))
            x2, y2 = self.space.to_device(_number(call, "destination_x"), _number(call, "destination_y"))
            return [Swipe(x, y, x2, y2, duration_ms=SWIPE_MS)]
        if name == "key_combination":
            keys = _text(call, "keys").split("+")
            if len(keys) > 1:
                raise AnswerError(f"key_combination {args['keys']!r}: this phone presses one key at a time")
            named = KEYPRESS.get(keys[0].strip().lower().replace(" ", "_"))
            if named is None:
                raise AnswerError(f"key_combination {keys[0]!r}: this phone has {', '.join(sorted(KEYPRESS))}")
            return [Key(named)]
        if name == "go_back":
            return [Key("back")]
        if name == "go_home":
            return [Key("home")]
        if name == "open_app":
            return [Launch(package_for(_text(call, "app_name"), obs))]
        if name == "wait_5_seconds":
            return [Wait(WAIT_S)]
        if name in EXCLUDED:
            raise AnswerError(f"{name} needs a browser; this is a phone: {excerpt(call)}")
        raise AnswerError(f"unknown function {name!r}: {excerpt(call)}")

    def scroll(self, call: dict[str, Any]) -> Action:
        """A finger sliding over (x, y), `magnitude` grid units long and against the scroll, so the
        content moves the way asked; the ends kept on the grid."""
        x, y = _number(call, "x"), _number(call, "y")
        direction = (call.get("args") or {}).get("direction")
        if direction not in SCROLLS:
            raise AnswerError(f"scroll_at needs a direction of {', '.join(SCROLLS)}: {excerpt(call)}")
        magnitude = (call.get("args") or {}).get("magnitude", SCROLL_MAGNITUDE)
        if not isinstance(magnitude, int | float) or isinstance(magnitude, bool) or magnitude <= 0:
            raise AnswerError(f"scroll_at needs a positive magnitude: {excerpt(call)}")
        dx, dy = (d * magnitude / 2 for d in SCROLLS[direction])

        def on_grid(v: float) -> float:
            return min(max(v, 0.0), GRID - 1.0)

        x1, y1 = self.space.to_device(on_grid(x + dx), on_grid(y + dy))
        x2, y2 = self.space.to_device(on_grid(x - dx), on_grid(y - dy))
        # Up or down, a wheel's scroll: the list moves by the distance, no fling; sideways, a
        # swipe that turns a pager's page (as the harness's own Scroll does).
        return Swipe(x1, y1, x2, y2, duration_ms=SWIPE_MS, fling=y1 == y2)

    def episode_usage(self) -> dict[str, Any]:
        out = super().episode_usage()
        out["answer"] = self.answer
        out["agent_settings"] = {
            **convention_record(self),
            "tool": "computer_use",
            "environment": ENVIRONMENT,
            "excluded_predefined_functions": list(EXCLUDED),
            "safety_checks": getattr(self, "safety", None),
            "safety_checks_seen": self.safety_log,
        }
        return out
