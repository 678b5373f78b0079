"""AutoGLM (Zhipu's phone agent, zai-org/Open-AutoGLM, model AutoGLM-Phone-9B): a screenshot and
the app in front in, `<think>...</think><answer>do(action="Tap", element=[x,y])</answer>` out.

Points are on a relative grid over the screenshot, 0-999 as the prompt states, mapped back as
Open-AutoGLM's own handler does (x / 1000 * screen width): the `relative` convention, the only
one its releases use. --mobile-model-coordinates=absolute reads them as pixels of the image sent
(a model fine-tuned that way). AutoGLM-Phone-9B gets the Chinese prompt, the Multilingual
release (and any other name) the English one. Launch names an app; the task's Simple Mobile
Tools apps are found by the names a model gives them.
"""

from __future__ import annotations

import ast
import json
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from pytest_mobile_agent.actions import Action, Done, DoubleTap, Key, Launch, LongPress, Swipe, Tap, Type, Wait
from pytest_mobile_agent.agents.baselines.answers import AnswerError
from pytest_mobile_agent.agents.baselines.base import ModelAgent
from pytest_mobile_agent.agents.baselines.image_space import convention_record
from pytest_mobile_agent.agents.baselines.t3a import package_for
from pytest_mobile_agent.models import assistant, image_part, system
from pytest_mobile_agent.models.messages import decode, fit

if TYPE_CHECKING:
    from pytest_mobile_agent.agents import Observation, TaskInfo

ABSOLUTE, RELATIVE = "absolute", "relative"
CONVENTIONS = (ABSOLUTE, RELATIVE)
GRID = 1000  # Open-AutoGLM divides by 1000 (the prompt's grid ends at 999)
WAIT_S = 2.0  # a Wait with no readable duration (Open-AutoGLM's own default is 1 s)


def swipe_ms(x: int, y: int, x2: int, y2: int) -> int:
    """How long Open-AutoGLM's swipe takes: the squared distance in pixels over 1000, as
    milliseconds, kept between 1 and 2 s (slow enough that a list barely flings on)."""
    return max(1000, min(((x2 - x) ** 2 + (y2 - y) ** 2) // 1000, 2000))


# Names a model gives the Simple Mobile Tools apps, as words their packages hold.
APP_NAMES = {
    "calculator": "calculator",
    "calendar": "calendar",
    "contacts": "contacts",
    "phone": "contacts",
    "files": "filemanager",
    "filemanager": "filemanager",
    "filemanagerpro": "filemanager",
    "gallery": "gallery",
    "photos": "gallery",
    "music": "musicplayer",
    "musicplayer": "musicplayer",
    "notes": "notes",
    "messages": "smsmessenger",
    "messaging": "smsmessenger",
    "sms": "smsmessenger",
    "smsmessenger": "smsmessenger",
    "recorder": "voicerecorder",
    "voicerecorder": "voicerecorder",
    "applauncher": "applauncher",
    "launcher": "applauncher",
}


def language_for(model: str | None) -> tuple[str, str]:
    """The prompt's language and why: Open-AutoGLM pairs AutoGLM-Phone-9B with its Chinese
    prompt and the Multilingual release with the English one; another name gets English."""
    name = model or ""
    if re.search(r"autoglm-phone(-9b)?$", name.split("/")[-1], re.I):
        return "zh", f"{name} is the Chinese AutoGLM-Phone release"
    return "en", f"{name or 'the model'} is not the Chinese AutoGLM-Phone-9B"


def convention_for(model: str | None, override: str | None = None) -> tuple[str, str]:
    """The coordinate convention and why: the override, else AutoGLM's one grid."""
    if override:
        if override not in CONVENTIONS:
            raise ValueError(f"--mobile-model-coordinates must be one of {', '.join(CONVENTIONS)}, not {override!r}")
        return override, "set by --mobile-model-coordinates"
    return RELATIVE, f"{model or 'the model'}: AutoGLM's 0-999 grid, divided by {GRID}"


@dataclass(frozen=True)
class Space:
    """Where the model's numbers live and how they map to the device's pixels."""

    convention: str
    sent: tuple[int, int]  # (width, height) of the image sent
    screen: tuple[int, int]  # (width, height) of the device

    def to_device(self, point: object) -> tuple[int, int]:
        if not isinstance(point, list | tuple) or len(point) != 2 or not all(_is_number(v) for v in point):
            raise AnswerError(f"a point must be [x,y], not {point!r}")
        grid_w, grid_h = (GRID, GRID) if self.convention == RELATIVE else self.sent
        sw, sh = self.screen
        x, y = float(point[0]), float(point[1])
        return min(max(int(x * sw / grid_w), 0), sw - 1), min(max(int(y * sh / grid_h), 0), sh - 1)


def _is_number(v: object) -> bool:
    return isinstance(v, int | float) and not isinstance(v, bool)


@dataclass(frozen=True)
class Call:
    """An operation as the model wrote it: `do` with its action, or `finish`; its arguments."""

    name: str  # "do" or "finish"
    args: dict[str, Any]


_ANSWER = re.compile(r"<answer>(.*?)(?:</answer>|$)", re.S)


def split_answer(text: str) -> tuple[str, str]:
    """(the thinking, the operation): the <answer> part, else the text from the last `do(` or
    `finish(` (servers that strip the tags, models that skip them)."""
    m = _ANSWER.search(text)
    if m:
        think = text[: m.start()]
        op = m.group(1)
    else:
        at = max(text.rfind("do(action="), text.rfind("finish(message="))
        if at < 0:
            raise AnswerError(f"no <answer> and no do(...)/finish(...) in the answer: {text[:120]!r}")
        think, op = text[:at], text[at:]
    think = re.sub(r"</?think>", "", think).strip()
    return think, op.strip()


def read_call(text: str) -> Call:
    """The operation in the answer, read as a call with literal arguments."""
    _, op = split_answer(text)
    line = op.strip().strip("`").strip()
    if line.startswith("finish(message="):  # a message may hold quotes or lines a literal cannot
        node = _parse(line)
        if node is None:
            message = line[len("finish(message=") :].rstrip().removesuffix(")").strip()
            return Call("finish", {"message": message[1:-1] if message[:1] in "\"'" else message})
    else:
        node = _parse(line)
        typed = re.match(r'do\(action="Type(?:_Name)?",\s*text=(["\'])(.*)\1\)$', line, re.S)
        if node is None and typed:  # a text with quotes of its own, as Open-AutoGLM reads it
            return Call("do", {"action": "Type", "text": typed.group(2)})
    if node is None or not isinstance(node.func, ast.Name) or node.func.id not in ("do", "finish") or node.args:
        raise AnswerError(f'the operation must be do(action="...", ...) or finish(message="..."): {line[:120]!r}')
    args: dict[str, Any] = {}
    for kw in node.keywords:
        try:
            args[str(kw.arg)] = ast.literal_eval(kw.value)
        except ValueError:
            raise AnswerError(f"the argument {kw.arg} must be a literal: {line[:120]!r}") from None
    return Call(node.func.id, args)


def _parse(line: str) -> ast.Call | None:
    for candidate in (line, line.replace("\n", "\\n")):
        try:
            node = ast.parse(candidate, mode="eval").body
        except SyntaxError:
            continue
        return node if isinstance(node, ast.Call) else None
    return None


def app_package(name: str, obs: Observation) -> str:
    """The package of the app a Launch names: a package, a task app's own name, or a name a
    model gives a Simple Mobile Tools app (Messages -> ...smsmessenger)."""
    key = re.sub(r"[^a-z]", "", name.lower().removeprefix("simple "))
    word = APP_NAMES.get(key)
    if word is not None:
        for package in obs.task.apps:
            if word in package.split("."):
                return package
    return package_for(name, obs)


def seconds(duration: object) -> float:
    """A Wait's duration: "3 seconds", "3" or 3; the default when it reads as none."""
    try:
        value = float(str(duration).replace("seconds", "").strip())
    except ValueError:
        return WAIT_S
    return value if 0 <= value <= 60 else WAIT_S


class AutoGLM(ModelAgent):
    name = "autoglm"
    needs_screenshot = True
    prompt_files: ClassVar[dict[str, str]] = {"en": "autoglm_phone.txt", "zh": "autoglm_phone_zh.txt"}

    def settings(self) -> dict[str, str]:
        """What this run uses, for pytest's header (the records carry it too)."""
        override = self.client.config.coordinates if self.client is not None else None
        convention, why = convention_for(self.model, override)
        language, reason = language_for(self.model)
        return {
            "coordinates": f"{convention} ({why})",
            "prompt": f"{language} ({reason})",
            "screenshot side": f"{self.image_side} px",
        }

    def reset(self, task: TaskInfo) -> None:
        super().reset(task)
        self.answer: str | None = None
        self._context: list[dict[str, Any]] = []  # the conversation, older screenshots dropped as Open-AutoGLM does
        override = self.client.config.coordinates if self.client is not None else None
        self.convention, self.why = convention_for(self.model, override)
        self.language = language_for(self.model)[0]

    def messages(self, obs: Observation) -> list[dict[str, Any]]:
        img = decode(obs.screenshot)
        screen = obs.screen_size if obs.screen_size[0] and obs.screen_size[1] else img.size
        img, _ = fit(img, self.image_side)
        self.space = Space(self.convention, img.size, screen)
        roots = [r.package for r in obs.ui.roots if r.package]
        info = "** Screen Info **\n\n" + json.dumps({"current_app": roots[0] if roots else "unknown"})
        if not self._context:
            # Open-AutoGLM's prompt starts with today's date; left out, so a recorded run replays on any day.
            self._context.append(system(self.prompt(self.language)))
            info = f"{obs.prompt}\n\n{info}"
        elif self._context[-1]["role"] == "user":  # the previous step's answer was lost: replace it
            self._context.pop()
        content = [image_part(img, self.image_side), {"type": "text", "text": info}]
        self._context.append({"role": "user", "content": content})
        return list(self._context)

    def reasoning(self, text: str) -> str:
        try:
            think, _ = split_answer(text)
        except AnswerError:
            return text.strip()
        return think or text.strip()

    def action_text(self, text: str) -> str:
        try:
            return split_answer(text)[1][:200]
        except AnswerError:
            return " ".join(text.split())[:120]

    def parse(self, text: str, obs: Observation) -> Action:
        last = self._context[-1]  # its screenshot goes: Open-AutoGLM sends the latest screen only
        self._context[-1] = {**last, "content": [p for p in last["content"] if p.get("type") == "text"]}
        try:
            think, op = split_answer(text)
        except AnswerError:
            think, op = text.strip(), text.strip()
        self._context.append(assistant(f"<think>{think}</think><answer>{op}</answer>"))
        call = read_call(text)
        a, space = call.args, self.space
        if call.name == "finish":
            message = a.get("message")
            self.answer = str(message) if message not in (None, "") else None
            return Done(self.reasoning(text))
        action = str(a.get("action", ""))
        if action == "Tap":
            return Tap(*space.to_device(a.get("element")))
        if action == "Long Press":
            return LongPress(*space.to_device(a.get("element")))
        if action == "Double Tap":
            return DoubleTap(*space.to_device(a.get("element")))
        if action in ("Type", "Type_Name"):
            if not isinstance(a.get("text"), str):
                raise AnswerError(f'{action} needs text="..."')
            return Type(a["text"], clear=True)  # Open-AutoGLM empties the field first, then types
        if action == "Swipe":
            (x, y), (x2, y2) = space.to_device(a.get("start")), space.to_device(a.get("end"))
            return Swipe(x, y, x2, y2, duration_ms=swipe_ms(x, y, x2, y2))
        if action == "Launch":
            return Launch(app_package(str(a.get("app", "")), obs))
        if action == "Back":
            return Key("back")
        if action == "Home":
            return Key("home")
        if action == "Wait":
            return Wait(seconds(a.get("duration", WAIT_S)))
        if action in ("Take_over", "Interact"):
            return self.give_up(str(a.get("message") or f"the model asked for the user ({action})"))
        raise AnswerError(f"unknown action {action!r}")

    def episode_usage(self) -> dict[str, Any]:
        out = super().episode_usage()
        out["answer"] = getattr(self, "answer", None)
        out["agent_settings"] = {
            **convention_record(self),
            "prompt_language": getattr(self, "language", None),
        }
        return out
