"""The action space: what an agent may ask the harness to do, and its validation.

Actions address UI elements by selector (uiautomator2's vocabulary: resourceId, text,
description, className, ...) or by pixel. `Action.parse` accepts an Action, a dict (JSON
agents) or a JSON string, and raises `InvalidAction` with a specific reason otherwise.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import asdict, dataclass, field
from typing import Any

KINDS = ("tap", "long_press", "swipe", "scroll", "type", "key", "launch", "api", "wait", "done")
KEYS = {
    "back": "BACK",
    "home": "HOME",
    "enter": "ENTER",
    "delete": "DEL",
    "del": "DEL",
    "backspace": "DEL",
    "recent": "APP_SWITCH",
    "recents": "APP_SWITCH",
    "app_switch": "APP_SWITCH",
    "tab": "TAB",
    "search": "SEARCH",
    "menu": "MENU",
    "space": "SPACE",
    "escape": "ESCAPE",
    "up": "DPAD_UP",
    "down": "DPAD_DOWN",
    "left": "DPAD_LEFT",
    "right": "DPAD_RIGHT",
    "volume_up": "VOLUME_UP",
    "volume_down": "VOLUME_DOWN",
}
SCROLL_DIRECTIONS = ("up", "down", "left", "right")
# Mobile-Bench's API actions: adb commands an agent may run instead of a UI action. Never input
# events (they would be UI actions in disguise), never shell operators (no chaining).
API_ALLOWLIST = (
    "am start",
    "am broadcast",
    "am force-stop",
    "content query",
    "content insert",
    "content update",
    "content delete",
    "pm list packages",
    "settings get",
    "settings put",
    "getprop",
    "dumpsys",
    "monkey -p",
)
_SHELL_OPERATORS = re.compile(r"[;&|<>`$\n]")
SELECTOR_FIELDS = (
    "resourceId",
    "text",
    "description",
    "className",
    "textContains",
    "descriptionContains",
    "packageName",
    "index",
)
_SELECTOR_ALIASES = {
    "id": "resourceId",
    "resource_id": "resourceId",
    "desc": "description",
    "content_desc": "description",
    "cls": "className",
    "class_name": "className",
    "text_contains": "textContains",
}
MAX_WAIT_S = 30.0
# The text of a `type` reaches the device inside one adb request, whose length is four hex
# digits: 65535 bytes at most, or the device closes the connection. Escaped for the shell (up to
# 4 bytes a character) or base64 of UTF-8 for ADB Keyboard (up to 5.4), this many always fit.
MAX_TYPE_CHARS = 10_000
MAX_COMMAND_BYTES = 60_000  # an `api` command: the same adb request, less the service's prefix
MAX_DURATION_MS = 60_000  # a gesture longer than a minute is no gesture
MAX_TOKENS = 10_000_000  # what one step may say it used: more is a bug in the agent's accounting


class InvalidAction(ValueError):
    """The agent asked for something the harness cannot do; recorded as an invalid step."""


@dataclass(frozen=True)
class Selector:
    resourceId: str | None = None
    text: str | None = None
    description: str | None = None
    className: str | None = None
    textContains: str | None = None
    descriptionContains: str | None = None
    packageName: str | None = None
    index: int = 0  # the n-th match, in document order

    @classmethod
    def of(cls, **kw: Any) -> Selector | None:
        """A selector from keyword fields (aliases allowed: id, desc, ...), as agents' JSON gives them."""
        fields = {_SELECTOR_ALIASES.get(k, k): v for k, v in kw.items() if v is not None}
        unknown = set(fields) - set(SELECTOR_FIELDS)
        if unknown:
            raise InvalidAction(f"unknown selector field(s): {', '.join(sorted(unknown))}")
        for name, value in fields.items():
            if name == "index":
                if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < 10_000:
                    raise InvalidAction(f"selector index must be a whole number from 0, not {_shown(value)}")
            elif not isinstance(value, str) or len(value) > MAX_TYPE_CHARS:
                raise InvalidAction(f"selector {name} must be a string of at most {MAX_TYPE_CHARS} characters")
        return cls(**fields) if fields else None

    def describe(self) -> str:
        return ", ".join(f"{k}={v!r}" for k, v in asdict(self).items() if v not in (None, 0))


@dataclass(frozen=True)
class Action:
    kind: str
    x: int | None = None
    y: int | None = None
    x2: int | None = None
    y2: int | None = None
    selector: Selector | None = None
    text: str | None = None
    key: str | None = None
    package: str | None = None
    command: str | None = None
    direction: str | None = None
    duration_ms: int | None = None
    seconds: float | None = None
    count: int | None = None  # a tap's taps: 2 is a double tap, 3 a triple tap (one gesture)
    clear: bool | None = None  # a type that first empties the field (as Open-AutoGLM's Type does)
    fling: bool | None = None  # a swipe: False stops the finger before it lifts (a drag, a wheel's scroll)
    # What the agent tells about itself (reports, token accounting); never executed.
    reasoning: str | None = field(default=None, compare=False)
    tokens_in: int | None = field(default=None, compare=False)
    tokens_out: int | None = field(default=None, compare=False)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"action": self.kind}
        for k, v in asdict(self).items():
            if k == "kind" or v is None:
                continue
            if k == "selector":
                v = {sk: sv for sk, sv in v.items() if sv not in (None, 0)}
            out[k] = v
        return out

    def describe(self) -> str:
        target = self.selector.describe() if self.selector else (f"({self.x}, {self.y})" if self.x is not None else "")
        extra = {
            "type": self.text,
            "key": self.key,
            "launch": self.package,
            "api": self.command,
            "scroll": self.direction,
        }.get(self.kind)
        kind = {2: "double tap", 3: "triple tap"}.get(self.count or 1, self.kind)
        return " ".join(str(p) for p in (kind, target, repr(extra) if extra else "") if p)

    @classmethod
    def parse(cls, raw: object) -> Action:
        if isinstance(raw, Action):
            return raw.validated()
        if isinstance(raw, str):
            text = raw
            try:
                raw = json.loads(text)
            except json.JSONDecodeError as exc:
                raise InvalidAction(f"action is not JSON: {exc.msg} in {text[:80]!r}") from exc
        if not isinstance(raw, dict):
            raise InvalidAction(f"action must be an Action, a dict or a JSON object, not {type(raw).__name__}")
        data = dict(raw)
        kind = data.pop("action", data.pop("kind", None))
        if kind not in KINDS:
            raise InvalidAction(f"unknown action kind {kind!r}; expected one of {', '.join(KINDS)}")
        selector_raw = data.pop("selector", None) or {}
        if not isinstance(selector_raw, dict):
            raise InvalidAction("selector must be an object")
        # Selector fields may also sit at the top level ({"action": "tap", "text": "="}); for
        # `type`, "text" is what to type, not a selector.
        for name in (*_SELECTOR_ALIASES, *SELECTOR_FIELDS):
            if name in data and not (name == "text" and kind == "type"):
                selector_raw.setdefault(name, data.pop(name))
        fields = {f for f in cls.__dataclass_fields__ if f not in ("kind", "selector")}
        unknown = set(data) - fields
        if unknown:
            raise InvalidAction(f"unknown field(s) for {kind}: {', '.join(sorted(unknown))}")
        try:
            action = cls(kind=kind, selector=Selector.of(**selector_raw), **data)
        except TypeError as exc:
            raise InvalidAction(f"bad {kind} action: {exc}") from exc
        return action.validated()

    def validated(self) -> Action:
        k = self.kind
        if not isinstance(k, str) or k not in KINDS:
            raise InvalidAction(f"unknown action kind {_shown(k)}; expected one of {', '.join(KINDS)}")
        if self.selector is not None:
            if not isinstance(self.selector, Selector):
                raise InvalidAction(f"selector must be a Selector, not {type(self.selector).__name__}")
            Selector.of(**asdict(self.selector))  # its fields checked as an agent's JSON's are
        for name in ("x", "y", "x2", "y2", "duration_ms"):
            v = getattr(self, name)
            if v is not None and (not isinstance(v, int | float) or isinstance(v, bool)):
                raise InvalidAction(f"{name} must be a number, not {_shown(v)}")
            if v is not None and not math.isfinite(v):
                raise InvalidAction(f"{name} must be a finite number, not {v!r}")
        if self.duration_ms is not None and not 0 <= self.duration_ms <= MAX_DURATION_MS:
            raise InvalidAction(f"duration_ms must be between 0 and {MAX_DURATION_MS}, not {self.duration_ms!r}")
        for name in ("tokens_in", "tokens_out"):
            v = getattr(self, name)
            if v is not None and (not isinstance(v, int) or isinstance(v, bool) or not 0 <= v <= MAX_TOKENS):
                raise InvalidAction(f"{name} must be a whole number from 0 to {MAX_TOKENS}, not {_shown(v)}")
        if self.reasoning is not None and not isinstance(self.reasoning, str):
            raise InvalidAction(f"reasoning must be a string, not {type(self.reasoning).__name__}")
        for name in ("text", "key", "package", "direction"):
            v = getattr(self, name)
            if v is not None and not isinstance(v, str):
                raise InvalidAction(f"{name} must be a string, not {_shown(v)}")
        if k in ("tap", "long_press") and self.selector is None and (self.x is None or self.y is None):
            raise InvalidAction(f"{k} needs x and y or a selector")
        if self.count is not None and (
            k != "tap" or not isinstance(self.count, int) or isinstance(self.count, bool) or not 1 <= self.count <= 3
        ):
            raise InvalidAction(f"count is a tap's number of taps, 1 to 3, not {_shown(self.count)} for {k}")
        if self.clear is not None and (k != "type" or not isinstance(self.clear, bool)):
            raise InvalidAction(f"clear is true or false, for a type only, not {_shown(self.clear)} for {k}")
        if self.fling is not None and (k != "swipe" or not isinstance(self.fling, bool)):
            raise InvalidAction(f"fling is true or false, for a swipe only, not {_shown(self.fling)} for {k}")
        if k == "swipe" and None in (self.x, self.y, self.x2, self.y2):
            raise InvalidAction("swipe needs x, y, x2 and y2")
        if k == "scroll" and self.direction not in SCROLL_DIRECTIONS:
            raise InvalidAction(
                f"scroll direction must be one of {', '.join(SCROLL_DIRECTIONS)}, not {self.direction!r}"
            )
        if k == "type" and not isinstance(self.text, str):
            raise InvalidAction("type needs text")
        if k == "type" and len(self.text or "") > MAX_TYPE_CHARS:
            raise InvalidAction(
                f"type text of {len(self.text or '')} characters: at most {MAX_TYPE_CHARS} fit in the one adb request "
                "that carries it to the device; type it in parts"
            )
        if k == "key" and (not isinstance(self.key, str) or self.key.lower() not in KEYS):
            raise InvalidAction(f"unknown key {self.key!r}; expected one of {', '.join(sorted(KEYS))}")
        if k == "launch" and not self.package:
            raise InvalidAction("launch needs a package")
        if k == "api":
            check_api_command(self.command)
        seconds = self.seconds
        if k == "wait" and not (
            isinstance(seconds, int | float) and not isinstance(seconds, bool) and 0 <= seconds <= MAX_WAIT_S
        ):
            raise InvalidAction(f"wait needs seconds between 0 and {MAX_WAIT_S:g}")
        return self


def _shown(value: object) -> str:
    """A value an agent gave, for a message: its repr cut short, whatever its type does."""
    try:
        text = repr(value)
    except Exception:  # an agent's object whose __repr__ raises
        text = f"<{type(value).__name__}>"
    return text if len(text) <= 80 else text[:77] + "..."


def check_api_command(command: str | None) -> None:
    if not command or not isinstance(command, str):
        raise InvalidAction("api needs a command")
    if len(command.encode(errors="replace")) > MAX_COMMAND_BYTES:
        raise InvalidAction(f"api command of {len(command)} characters: at most {MAX_COMMAND_BYTES} bytes fit")
    if _SHELL_OPERATORS.search(command):
        raise InvalidAction(f"api command may not chain or redirect: {command!r}")
    normalized = " ".join(command.split())
    if not any(normalized == p or normalized.startswith(p + " ") for p in API_ALLOWLIST):
        raise InvalidAction(f"api command not allowed: {command!r}; allowed: {', '.join(API_ALLOWLIST)}")


# Short constructors for golden paths and agents.
def Tap(x: int | None = None, y: int | None = None, **selector: str | int | None) -> Action:  # noqa: N802
    """Tap at (x, y), or at the centre of the element a selector names (`text=`, `id=`, `desc=`, ...)."""
    return Action("tap", x=x, y=y, selector=Selector.of(**selector))


def DoubleTap(x: int | None = None, y: int | None = None, **selector: str | int | None) -> Action:  # noqa: N802
    """Two taps at one point as one gesture, close enough in time for Android's double tap (an
    EditText selects the word; a button is clicked twice)."""
    return Action("tap", x=x, y=y, selector=Selector.of(**selector), count=2)


def LongPress(x: int | None = None, y: int | None = None, **selector: str | int | None) -> Action:  # noqa: N802
    """Long-press at (x, y), or on the element a selector names."""
    return Action("long_press", x=x, y=y, selector=Selector.of(**selector))


def Swipe(x: int, y: int, x2: int, y2: int, duration_ms: int = 300, fling: bool = True) -> Action:  # noqa: N802
    """Swipe from (x, y) to (x2, y2) in duration_ms; the list under it flings on by the speed at
    the lift, as on a phone. `fling=False` drags: the finger stops before it lifts, so the content
    moves by the distance dragged (what a mouse wheel's scroll means to a computer-use model)."""
    return Action("swipe", x=x, y=y, x2=x2, y2=y2, duration_ms=duration_ms, fling=None if fling else False)


def Scroll(direction: str = "down", **selector: str | int | None) -> Action:  # noqa: N802
    """Scroll the screen, or the element a selector names: up, down, left or right."""
    return Action("scroll", direction=direction, selector=Selector.of(**selector))


def Type(text: str, clear: bool = False, **selector: str | int | None) -> Action:  # noqa: N802
    """Type text into the focused field, or into the element a selector names (tapped first);
    with `clear`, what the field holds is deleted first, so the text replaces it."""
    return Action("type", text=text, selector=Selector.of(**selector), clear=clear or None)


def Key(key: str) -> Action:  # noqa: N802
    """Press a key by name (back, home, enter, ...: the list below)."""
    return Action("key", key=key)


def Launch(package: str) -> Action:  # noqa: N802
    """Start an app by package name, as its launcher icon does."""
    return Action("launch", package=package)


def Api(command: str) -> Action:  # noqa: N802
    """Run an adb shell command from the allowlist (am start, content query, ...): Mobile-Bench's API calls."""
    return Action("api", command=command)


def Wait(seconds: float) -> Action:  # noqa: N802
    """Wait this many seconds without acting."""
    return Action("wait", seconds=seconds)


def Done(reasoning: str | None = None) -> Action:  # noqa: N802
    """The agent believes the task is complete: the episode ends with termination completed."""
    return Action("done", reasoning=reasoning)
