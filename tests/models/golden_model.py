"""The golden model: a scripted model that reads each request the way the agent that sent it
formats it, finds the element the task's golden path targets next, and answers in that agent's
own answer format. Driving an agent through the whole suite with it tests the observation, the
prompt, HTTP, the answer parsing and the grounding (number -> element -> action) end to end.

It knows the golden paths from tests/models/golden_export.py, by the task's prompt; which step
comes next it reads from the request's own history. It never answers badly, so every history
entry is one golden step (AppAgent types in two: tap the field, then text()).
"""

from __future__ import annotations

import base64
import html
import io
import json
import re
from pathlib import Path
from typing import Any

from PIL import Image

from pytest_mobile_agent.actions import Selector
from pytest_mobile_agent.agents.baselines.image_space import MAX_PIXELS, smart_resize
from pytest_mobile_agent.agents.baselines.qwen_vl import SWIPE_MS as QWEN_SWIPE_MS
from pytest_mobile_agent.device.ui_tree import UiTree
from pytest_mobile_agent.models.messages import text_of
from pytest_mobile_agent.virtual.system.gestures import TOUCH_SLOP_DP, fling_distance
from tests.model_server import Answer

ELEMENT_LINE = re.compile(r"^(\d+): (\{.*\})$", re.M)
HTML_LINE = re.compile(r'^<(\w+) index="(\d+)"(.*?)>(.*)</\1>$', re.M)
ATTR = re.compile(r'(\w[\w-]*)="([^"]*)"')
HISTORY_NUMBER = re.compile(r"^(\d+)\. ", re.M)


class GoldenModel:
    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.paths: dict[str, list[dict[str, Any]]] = {}
        self.misses: list[str] = []  # why an answer could not be golden (shown when a test fails)

    def golden(self, goal: str) -> list[dict[str, Any]]:
        if goal not in self.paths:
            for f in self.folder.glob("*.json"):
                self.paths.update(json.loads(f.read_text()))
        return self.paths[goal]

    def __call__(self, request: dict[str, Any]) -> str | Answer:
        if "input" in request:  # the Responses API
            return self.openai_computer_use(request)
        if "contents" in request:  # the Gemini API
            return self.gemini_computer_use(request)
        if any(str(t.get("type", "")).startswith("computer_") for t in request.get("tools") or []):
            return self.anthropic_computer_use(request)
        messages = request["messages"]
        system = text_of(messages[0]) if messages[0]["role"] == "system" else ""
        if "start_box=" in text_of(messages[0]):
            return self.ui_tars(request)
        if '"mobile_use"' in system and "Previous actions:" in text_of(messages[1]):
            return self.gui_owl15(request)
        if '"mobile_use"' in system and "<conclusion>" in text_of(messages[-1]):
            return self.gui_owl(request)
        if '"mobile_use"' in system:
            return self.qwen_vl(request)
        if '"POINT"' in system:
            return self.agentcpm_gui(request)
        if 'do(action="Tap"' in system:
            return self.autoglm(request)
        text = text_of(messages[-1])
        if text.startswith("STEP SUMMARY"):
            return "Summary: the action did what was intended; the goal is closer."
        if "action_type" in system:
            return self.t3a(text)
        if "numeric label" in system:
            return self.appagent(text)
        if "API call" in system:
            return self.mobile_bench(text)
        raise ValueError(f"an agent format the golden model does not know: {system[:80]!r}")

    # -- shared ----------------------------------------------------------------------------------
    @staticmethod
    def _field(text: str, label: str) -> str:
        m = re.search(rf"^{label}: (.*)$", text, re.M)
        if not m:
            raise ValueError(f"no {label!r} line in the request")
        return m.group(1)

    @staticmethod
    def _done_steps(text: str, header: str) -> int:
        block = text.split(header, 1)[1].split("\n\n", 1)[0]
        numbers = HISTORY_NUMBER.findall(block)
        return int(numbers[-1]) if numbers else 0

    def _find(self, elements: list[tuple[int, dict[str, Any]]], selector: dict[str, Any], text: str = "") -> int:
        """The number of the first listed element the selector matches (the harness's rule); with no
        selector (typing into the field that has the focus), the focused field, else the first one."""
        if not selector:
            fields = [n for n, el in elements if el.get("editable") or el.get("tag") == "input"]
            focused = [n for n, el in elements if el.get("focused") and n in fields]
            if focused or fields:
                return (focused or fields)[0]
        skip = selector.get("index", 0)  # the n-th match, as the harness resolves it
        for number, el in elements:
            rid = selector.get("resourceId")
            if rid is not None and el.get("id") != rid and not el.get("id", "").endswith(":id/" + rid):
                continue
            if "text" in selector and el.get("text", "") != selector["text"]:
                continue
            if "description" in selector and el.get("desc", "") != selector["description"]:
                continue
            if skip:
                skip -= 1
                continue
            return number
        self.misses.append(f"no listed element matches {selector} in:\n{text}")
        raise LookupError(f"no listed element matches {selector}")

    # -- T3A and M3A: JSON actions on a numbered element list ------------------------------------
    def t3a(self, text: str) -> str:
        goal = self._field(text, "Goal")
        path = self.golden(goal)
        i = self._done_steps(text, "What you did so far:")
        if i >= len(path):
            return 'Reason: the goal is reached.\nAction: {"action_type": "status", "goal_status": "complete"}'
        a = path[i]
        elements = [(int(n), json.loads(blob)) for n, blob in ELEMENT_LINE.findall(text)]
        kind, sel = a["action"], a.get("selector") or {}
        if kind in ("tap", "long_press"):
            act = {"action_type": "click" if kind == "tap" else "long_press", "index": self._find(elements, sel, text)}
        elif kind == "type":
            act = {"action_type": "input_text", "text": a["text"], "index": self._find(elements, sel, text)}
        elif kind == "scroll":
            act = {"action_type": "scroll", "direction": a["direction"]}
            if sel:
                act["index"] = self._find(elements, sel, text)
        elif kind == "key":
            act = {"action_type": {"back": "navigate_back", "home": "navigate_home"}.get(a["key"], "keyboard_enter")}
        else:
            raise ValueError(f"the golden model cannot say {kind} to T3A")
        return f"Reason: step {i + 1} of the way there.\nAction: ```json\n{json.dumps(act)}\n```"

    # -- AppAgent: labelled screenshot, tap(n) / text("...") -------------------------------------
    def appagent(self, text: str) -> str:
        goal = self._field(text, "The task")
        calls: list[tuple[str, dict[str, Any]]] = []
        for a in self.golden(goal):
            if a["action"] == "type" and a.get("selector"):
                calls += [("tap", a), ("text", a)]
            elif a["action"] == "type":
                calls.append(("text", a))
            else:
                calls.append((a["action"], a))
        i = self._done_steps(text, "Your earlier actions:")
        form = "Observation: a phone screen.\nThought: the next step.\nAction: {}\nSummary: {} steps done."
        if i >= len(calls):
            return form.format("FINISH", i)
        kind, a = calls[i]
        legend = [(int(n), json.loads(blob)) for n, blob in ELEMENT_LINE.findall(text)]
        sel = a.get("selector") or {}
        if kind in ("tap", "long_press"):
            return form.format(f"{kind}({self._find(legend, sel, text)})", i + 1)
        if kind == "text":
            return form.format(f"text({json.dumps(a['text'])})", i + 1)
        if kind == "scroll":
            target = self._find(legend, sel, text) if sel else max(n for n, e in legend if e)  # any element
            finger = {"down": "up", "up": "down", "left": "right", "right": "left"}[a["direction"]]
            return form.format(f'swipe({target}, "{finger}", "medium")', i + 1)
        if kind == "key" and a["key"] == "back":
            return form.format("back()", i + 1)
        raise ValueError(f"the golden model cannot say {kind} to AppAgent")

    # -- Mobile-Bench: HTML, click(i) / input(i, "...") / api(...) --------------------------------
    def mobile_bench(self, text: str) -> str:
        goal = self._field(text, "Request")
        path = self.golden(goal)
        i = self._done_steps(text, "Steps taken so far:")
        if i >= len(path):
            return "Thought: the request is complete.\nAction: finish()"
        a = path[i]
        elements = []
        for _tag, number, attrs, content in HTML_LINE.findall(text):
            fields = {k: html.unescape(v) for k, v in ATTR.findall(attrs)}
            elements.append(
                (
                    int(number),
                    {
                        "id": fields.get("id", ""),
                        "desc": fields.get("description", ""),
                        "text": html.unescape(content),
                        "tag": _tag,
                        "focused": fields.get("focused") == "true",
                    },
                )
            )
        kind, sel = a["action"], a.get("selector") or {}
        if kind in ("tap", "long_press"):
            op = f"{'click' if kind == 'tap' else 'long_press'}({self._find(elements, sel, text)})"
        elif kind == "type":
            op = f"input({self._find(elements, sel, text)}, {json.dumps(a['text'])})"
        elif kind == "scroll":
            op = f"scroll({self._find(elements, sel, text)}, {a['direction']})" if sel else f"scroll({a['direction']})"
        elif kind == "key":
            op = f"{a['key']}()"
        else:
            raise ValueError(f"the golden model cannot say {kind} to Mobile-Bench")
        return f"Thought: the screen shows what I need; step {i + 1}.\nAction: {op}"

    # -- shared by the agents that see screenshots only ------------------------------------------
    def _gui_calls(self, goal: str) -> list[tuple[str, dict[str, Any]]]:
        """The golden path as a GUI model walks it: typing into a named field is a tap, then the text."""
        calls: list[tuple[str, dict[str, Any]]] = []
        for a in self.golden(goal):
            if a["action"] == "type" and a.get("selector"):
                calls += [("tap", a), ("type", {"text": a["text"]})]
            else:
                calls.append((a["action"], a))
        return calls

    def _screen(self, goal: str) -> tuple[UiTree, tuple[int, int]]:
        """The screen the agent's screenshot shows (written by golden_screens.py) and its size."""
        from tests.models.golden_screens import screen_file

        screen = json.loads(screen_file(self.folder, goal).read_text())
        return UiTree(screen["xml"]), tuple(screen["screen"])  # type: ignore[return-value]

    def _step(self, goal: str) -> int:
        """The harness's step (1 first) the screen was written at."""
        from tests.models.golden_screens import screen_file

        return int(json.loads(screen_file(self.folder, goal).read_text())["step"])

    def _node(self, ui: UiTree, sel: dict[str, Any], goal: str) -> Any:
        node = ui.select(Selector.of(**sel)) if sel else None  # type: ignore[arg-type]
        if node is None:
            self.misses.append(f"no element matches {sel} on the screen of {goal!r}")
            raise LookupError(f"no element matches {sel}")
        return node

    @staticmethod
    def _scrolled(ui: UiTree, screen: tuple[int, int], sel: dict[str, Any]) -> Any:
        """The view a scroll moves: the one the selector names, else the largest scrollable one
        (None when the screen has none)."""
        found = ui.select(Selector.of(**sel)) if sel else None  # type: ignore[arg-type]
        scrollables = [n for n in ui.nodes() if n.scrollable]
        return found or max(
            scrollables, key=lambda n: (n.bounds[2] - n.bounds[0]) * (n.bounds[3] - n.bounds[1]), default=None
        )

    @classmethod
    def _scroll_swipe(
        cls, ui: UiTree, screen: tuple[int, int], sel: dict[str, Any], direction: str, swipe_ms: float | None = None
    ) -> tuple[tuple[float, float], tuple[float, float]]:
        """A scroll as the finger's swipe over the scrolled view, 60% of its side, against the
        content: scrolling down is a swipe up. Given the agent's swipe time, a list's swipe is
        shortened so that its drag and the fling after it move the list as far as the harness's
        Scroll does (a model that has learnt how far its swipes carry)."""
        node = cls._scrolled(ui, screen, sel)
        x1, y1, x2, y2 = node.bounds if node is not None else (0, 0, *screen)
        cx, cy = (x1 + x2) / 2, (y1 + y2) / 2
        share = (
            0.3 if swipe_ms is None or direction in ("left", "right") else cls._unflung(0.6 * (y2 - y1), swipe_ms) / 2
        )
        dx, dy = (x2 - x1) * 0.3, (y2 - y1) * share
        fx, fy = {"down": (0, -dy), "up": (0, dy), "right": (-dx, 0), "left": (dx, 0)}[direction]
        return (cx - fx, cy - fy), (cx + fx, cy + fy)

    @staticmethod
    def _unflung(length: float, swipe_ms: float) -> float:
        """The share of `length` a swipe of `swipe_ms` covers so that the list moves `length`
        past the touch slop in all, its fling included, on the default 440 dpi display."""
        scale = 440 / 160
        slop = TOUCH_SLOP_DP * scale
        lo, hi = 0.05, 1.0
        for _ in range(30):
            k = (lo + hi) / 2
            moved = k * length - slop + fling_distance(k * length * 1000 / swipe_ms, scale)
            lo, hi = (k, hi) if moved < length - slop else (lo, k)
        return (lo + hi) / 2 * 0.6

    @staticmethod
    def _sent_size(messages: list[dict[str, Any]]) -> tuple[int, int]:
        """(width, height) of the screenshot the request's last message carries."""
        url = next(p for p in messages[-1]["content"] if p.get("type") == "image_url")["image_url"]["url"]
        return Image.open(io.BytesIO(base64.b64decode(url.split(",", 1)[1]))).size

    # -- UI-TARS: screenshots only, `Action: click(start_box='(x,y)')` in the image's pixels -----
    def ui_tars(self, request: dict[str, Any]) -> str:
        """Reads the goal from the template, the step from the replies so far, the screen from
        tests/models/golden_screens.py, and answers in the 1.5 grammar: pixels of the image it
        was sent as its processor resizes it (a first-release model name: the 0-1000 grid). Even steps write points as
        `<|box_start|>(x,y)<|box_end|>`, odd ones as `<point>x y</point>`, as releases do."""
        messages = request["messages"]
        goal = text_of(messages[0]).split("## User Instruction", 1)[1].strip()
        calls = self._gui_calls(goal)
        i = sum(m["role"] == "assistant" for m in messages)
        if i >= len(calls):
            return "Thought: The task is complete.\nAction: finished(content='done')"
        ui, (sw, sh) = self._screen(goal)
        iw, ih = self._sent_size(messages)
        first_release = re.search(r"ui-?tars-(2b|7b|72b)", request.get("model", ""), re.I)
        gh, gw = (1000, 1000) if first_release else smart_resize(ih, iw)  # what the server's processor makes of it

        def point(x: float, y: float) -> str:
            px, py = round((x + 0.5) * gw / sw), round((y + 0.5) * gh / sh)
            return f"<point>{px} {py}</point>" if i % 2 else f"<|box_start|>({px},{py})<|box_end|>"

        kind, a = calls[i]
        sel = a.get("selector") or {}
        if kind in ("tap", "long_press"):
            op = f"{'click' if kind == 'tap' else 'long_press'}(start_box='{point(*self._node(ui, sel, goal).center)}')"
        elif kind == "type":
            op = f"type(content={a['text']!r})"
        elif kind == "scroll":
            node = self._node(ui, sel, goal) if sel else self._scrolled(ui, (sw, sh), sel)
            where = point(*node.center) if node is not None else point(sw // 2, sh // 2)
            op = f"scroll(start_box='{where}', direction='{a['direction']}')"
        elif kind == "swipe":
            op = f"drag(start_box='{point(a['x'], a['y'])}', end_box='{point(a['x2'], a['y2'])}')"
        elif kind == "key":
            op = {"back": "press_back()", "home": "press_home()", "enter": "type(content='\\n')"}[a["key"]]
        elif kind == "launch":
            op = f"open_app(app_name='{a['package']}')"
        else:
            raise ValueError(f"the golden model cannot say {kind} to UI-TARS")
        return f"Thought: Step {i + 1} of the way there: the target is on screen.\nAction: {op}"

    # -- the `mobile_use` tool: Qwen-VL and GUI-Owl, points in the image's pixels or on a grid ---
    def _mobile_use(self, request: dict[str, Any], goal: str, i: int, grid: tuple[int, int] | None) -> dict[str, Any]:
        """The arguments of the call for step i: points in pixels of the sent image as a processor
        resizes it (`grid` None; 4*28*28 pixels at least), else on the (width, height) grid."""
        calls = self._gui_calls(goal)
        if i >= len(calls):
            return {"action": "answer", "text": "done"}
        ui, (sw, sh) = self._screen(goal)
        if grid is None:
            iw, ih = self._sent_size(request["messages"])
            gh, gw = smart_resize(ih, iw, 4 * 28 * 28, MAX_PIXELS)
        else:
            gw, gh = grid

        def point(x: float, y: float) -> list[int]:
            return [round((x + 0.5) * gw / sw), round((y + 0.5) * gh / sh)]

        kind, a = calls[i]
        sel = a.get("selector") or {}
        if kind in ("tap", "long_press"):
            where = point(*self._node(ui, sel, goal).center)
            return {"action": "click" if kind == "tap" else "long_press", "coordinate": where}
        if kind == "type":
            return {"action": "type", "text": a["text"]}
        if kind == "scroll":
            if sel:
                self._node(ui, sel, goal)
            start, end = self._scroll_swipe(ui, (sw, sh), sel, a["direction"], QWEN_SWIPE_MS)
            return {"action": "swipe", "coordinate": point(*start), "coordinate2": point(*end)}
        if kind == "swipe":
            return {"action": "swipe", "coordinate": point(a["x"], a["y"]), "coordinate2": point(a["x2"], a["y2"])}
        if kind == "key":
            if a["key"] in ("back", "home", "enter"):
                return {"action": "system_button", "button": a["key"].capitalize()}
            return {"action": "key", "text": a["key"]}
        if kind == "launch":
            return {"action": "open", "text": a["package"]}
        raise ValueError(f"the golden model cannot say {kind} in the mobile_use tool")

    @staticmethod
    def _tool_call(args: dict[str, Any]) -> str:
        return f"<tool_call>\n{json.dumps({'name': 'mobile_use', 'arguments': args})}\n</tool_call>"

    def qwen_vl(self, request: dict[str, Any]) -> str:
        """Reads the goal and the step from the user text, the screen from golden_screens.py, and
        calls `mobile_use`: a Qwen2.5-VL name in pixels of the sent image as its processor resizes
        it (4*28*28 pixels at least), any other name on Qwen3-VL's 0-1000 grid."""
        text = text_of(request["messages"][-1])
        goal = text.split("The user's task: ", 1)[1].split("\nWhat you have done on this phone so far:", 1)[0]
        steps = re.findall(r"^Step (\d+):", text, re.M)
        i = int(steps[-1]) if steps else 0
        qwen25 = re.search(r"qwen2[._]?5-?vl", request.get("model", ""), re.I)
        args = self._mobile_use(request, goal, i, None if qwen25 else (1000, 1000))
        return f"Step {i + 1} of the way there: the target is on screen.\n{self._tool_call(args)}"

    def gui_owl(self, request: dict[str, Any]) -> str:
        """GUI-Owl-7B/32B: one turn, the step from its `Step N: ...;` progress; answers
        `<thinking>`, the call in pixels of the resized image, then `<conclusion>`."""
        text = text_of(request["messages"][-1])
        goal = text.split("The user query: ", 1)[1].split("\n", 1)[0]
        i = len(re.findall(r"Step \d+: ", text))
        args = self._mobile_use(request, goal, i, None)
        return (
            f"<thinking>\nStep {i + 1} of the way there: the target is on screen.\n</thinking>\n"
            f"{self._tool_call(args)}\n<conclusion>\nI did step {i + 1} of the task.\n</conclusion>"
        )

    def gui_owl15(self, request: dict[str, Any]) -> str:
        """GUI-Owl-1.5: a conversation; the step is the steps its first turn tells plus the
        answers since; answers `Action: ...` then the call, on the 0-1000 grid (divided by 999)."""
        messages = request["messages"]
        text = text_of(messages[1])
        goal = text.split("Instruction: ", 1)[1].split("\n\nPrevious actions:", 1)[0]
        i = len(re.findall(r"^Step\d+: ", text, re.M)) + sum(m["role"] == "assistant" for m in messages)
        args = self._mobile_use(request, goal, i, (999, 999))
        return f"Action: do step {i + 1} of the task.\n{self._tool_call(args)}"

    # -- AgentCPM-GUI: one compact JSON object, points on the 0-1000 grid, no history ------------
    def agentcpm_gui(self, request: dict[str, Any]) -> str:
        """The prompt tells no history, so the step is the harness's, from the screen's file;
        taps, swipes between points, keys and text as the schema writes them, then STATUS finish."""
        text = text_of(request["messages"][-1])
        goal = text.split("<Question>", 1)[1].split("</Question>", 1)[0]
        i = self._step(goal) - 1
        calls = self._gui_calls(goal)
        thought = f"Step {i + 1} of the way there: the target is on screen."
        if i >= len(calls):
            return json.dumps({"thought": "The task is complete.", "STATUS": "finish"}, separators=(",", ":"))
        ui, (sw, sh) = self._screen(goal)

        def point(x: float, y: float) -> list[int]:
            return [round((x + 0.5) * 1000 / sw), round((y + 0.5) * 1000 / sh)]

        kind, a = calls[i]
        sel = a.get("selector") or {}
        act: dict[str, Any]
        if kind in ("tap", "long_press"):
            act = {"POINT": point(*self._node(ui, sel, goal).center)}
            if kind == "long_press":
                act["duration"] = 1000
        elif kind == "type":
            act = {"TYPE": a["text"]}
        elif kind == "scroll":
            if sel:
                self._node(ui, sel, goal)
            start, end = self._scroll_swipe(ui, (sw, sh), sel, a["direction"], 500)
            act = {"POINT": point(*start), "to": point(*end), "duration": 500}
        elif kind == "swipe":
            act = {"POINT": point(a["x"], a["y"]), "to": point(a["x2"], a["y2"]), "duration": 500}
        elif kind == "key" and a["key"] in ("back", "home", "enter"):
            act = {"PRESS": a["key"].upper()}
        else:
            raise ValueError(f"the golden model cannot say {kind} {a} to AgentCPM-GUI")
        return json.dumps({"thought": thought, **act}, ensure_ascii=False, separators=(",", ":"))

    # -- AutoGLM: `<answer>do(action="Tap", element=[x,y])</answer>` on the 0-999 grid -------------
    def autoglm(self, request: dict[str, Any]) -> str:
        """Reads the goal from the first user message, the step from the answers so far, the
        screen from tests/models/golden_screens.py; answers on the grid (x / 1000 of the screen),
        scrolls as finger swipes, and launches apps by the names people call them."""
        messages = request["messages"]
        goal = text_of(messages[1]).split("\n\n** Screen Info **", 1)[0]
        calls = self._gui_calls(goal)
        i = sum(m["role"] == "assistant" for m in messages)
        form = "<think>Step {} of the way there: the target is on screen.</think>\n<answer>{}</answer>"
        if i >= len(calls):
            return form.format(i + 1, 'finish(message="done")')
        ui, (sw, sh) = self._screen(goal)

        def point(x: float, y: float) -> str:
            return f"[{round((x + 0.5) * 1000 / sw)},{round((y + 0.5) * 1000 / sh)}]"

        kind, a = calls[i]
        sel = a.get("selector") or {}
        if kind in ("tap", "long_press"):
            where = point(*self._node(ui, sel, goal).center)
            op = f'do(action="{"Tap" if kind == "tap" else "Long Press"}", element={where})'
        elif kind == "type":
            op = f'do(action="Type", text={json.dumps(a["text"])})'
        elif kind == "scroll" and a["direction"] in ("up", "down"):
            start, end = self._scroll_swipe(ui, (sw, sh), sel, a["direction"])
            op = f'do(action="Swipe", start={point(*start)}, end={point(*end)})'
        elif kind == "swipe":
            op = f'do(action="Swipe", start={point(a["x"], a["y"])}, end={point(a["x2"], a["y2"])})'
        elif kind == "key" and a["key"] in ("back", "home"):
            op = f'do(action="{a["key"].title()}")'
        elif kind == "launch":
            name = a["package"].split(".")[2] if a["package"].startswith("com.simplemobiletools.") else a["package"]
            spoken = {"smsmessenger": "Messages", "filemanager": "Files"}.get(name, name.title())
            op = f'do(action="Launch", app="{spoken}")'
        else:
            raise ValueError(f"the golden model cannot say {kind} {a} to AutoGLM")
        return form.format(i + 1, op)

    # -- OpenAI computer use: Responses API output items, points in the screenshot's pixels --------
    def openai_computer_use(self, request: dict[str, Any]) -> Answer:
        """Reads the goal from the first input message, the step from the actions called so far,
        the screen from golden_screens.py; answers with a `computer_call` in the tool version the
        model's name asks for (computer-use-preview: one `action`; others: the GA tool's batched
        `actions`, a tap and the typing after it in one call), points in the pixels of the
        screenshot sent, which the preview tool's declared display must equal."""
        from tests.models.golden_screens import screen_file
        from tests.models.responses_route import message

        items = request["input"]
        goal = items[0]["content"][0]["text"].removeprefix("The task: ")
        calls = self._gui_calls(goal)
        made = [i for i in items if i.get("type") == "computer_call"]
        i = sum(len(c.get("actions") or [c.get("action")]) for c in made)
        preview = "computer-use-preview" in request.get("model", "")
        tool = request["tools"][0]
        images = [
            part
            for item in items
            for part in ([item["output"]] if item.get("type") == "computer_call_output" else item.get("content") or [])
            if isinstance(part, dict) and "image_url" in part
        ]
        shot = images[-1]
        iw, ih = Image.open(io.BytesIO(base64.b64decode(shot["image_url"].split(",", 1)[1]))).size
        problem = None
        if tool["type"] != ("computer_use_preview" if preview else "computer"):
            problem = f"{request.get('model')} was sent the {tool['type']} tool"
        elif preview and (tool["display_width"], tool["display_height"]) != (iw, ih):
            problem = f"the tool declares {tool['display_width']}x{tool['display_height']}, the screenshot is {iw}x{ih}"
        elif not preview and shot.get("detail") != "original":
            problem = f"a GA screenshot at detail {shot.get('detail')!r}"
        if problem:
            self.misses.append(problem)
            raise ValueError(problem)
        thought = {
            "type": "reasoning",
            "id": f"rs_{i}",
            "summary": [{"type": "summary_text", "text": f"Step {i + 1}."}],
        }
        if i >= len(calls):
            return Answer(content=[thought, message("done")])
        screen = json.loads(screen_file(self.folder, goal).read_text())
        ui, (sw, sh) = UiTree(screen["xml"]), screen["screen"]

        def point(x: float, y: float) -> dict[str, int]:
            return {"x": round((x + 0.5) * iw / sw), "y": round((y + 0.5) * ih / sh)}

        def node_of(sel: dict[str, Any]) -> Any:
            node = ui.select(Selector.of(**sel)) if sel else None  # type: ignore[arg-type]
            if node is None:
                self.misses.append(f"no element matches {sel} on the screen of {goal!r}")
                raise LookupError(f"no element matches {sel}")
            return node

        def action(kind: str, a: dict[str, Any]) -> dict[str, Any]:
            sel = a.get("selector") or {}
            if kind in ("tap", "long_press"):
                button = "left" if kind == "tap" else "right"
                return {"type": "click", "button": button, **point(*node_of(sel).center)}
            if kind == "type":
                return {"type": "type", "text": a["text"]}
            if kind == "scroll":
                if sel:
                    node = node_of(sel)
                else:
                    scrollables = [n for n in ui.nodes() if n.scrollable]
                    node = max(scrollables, key=lambda n: (n.bounds[2] - n.bounds[0]) * (n.bounds[3] - n.bounds[1]))
                x1, y1, x2, y2 = node.bounds
                dx, dy = round((x2 - x1) * 0.6 * iw / sw), round((y2 - y1) * 0.6 * ih / sh)
                amount = {"down": (0, dy), "up": (0, -dy), "right": (dx, 0), "left": (-dx, 0)}[a["direction"]]
                centre = point((x1 + x2) / 2, (y1 + y2) / 2)
                return {"type": "scroll", **centre, "scroll_x": amount[0], "scroll_y": amount[1]}
            if kind == "swipe":
                return {"type": "drag", "path": [point(a["x"], a["y"]), point(a["x2"], a["y2"])]}
            if kind == "key":
                return {
                    "type": "keypress",
                    "keys": [{"back": "ESC" if i % 2 else "BACK"}.get(a["key"], a["key"].upper())],
                }
            raise ValueError(f"the golden model cannot say {kind} to the computer tool")

        batch = [action(*calls[i])]
        if not preview and calls[i][0] == "tap" and i + 1 < len(calls) and calls[i + 1][0] == "type":
            batch.append(action(*calls[i + 1]))
        call: dict[str, Any] = {
            "type": "computer_call",
            "id": f"cu_{i}",
            "call_id": f"call_{i}",
            "status": "completed",
            "pending_safety_checks": [],
        }
        call.update({"action": batch[0]} if preview else {"actions": batch})
        return Answer(content=[thought, call])

    # -- Anthropic's computer tool: tool_use blocks, points in the pixels of the declared display ---
    def anthropic_computer_use(self, request: dict[str, Any]) -> Any:
        """Reads the goal from the first user turn, the step from its phone actions so far, the
        screen from golden_screens.py, and calls the `computer` tool with points in the pixels of
        the display the tool declares. It looks first (`screenshot`), and on odd steps taps in two
        calls (`mouse_move`, then `left_click` where the cursor is), as Claude does at times."""
        from tests.model_server import Answer
        from tests.models.golden_screens import screen_file

        messages, tool = request["messages"], request["tools"][0]
        goal = messages[0]["content"][0]["text"].removeprefix("The task: ")
        calls = self._gui_calls(goal)
        mine = [
            b["input"] for m in messages if m["role"] == "assistant" for b in m["content"] if b["type"] == "tool_use"
        ]
        looks = ("screenshot", "mouse_move", "cursor_position", "zoom", "left_mouse_down")
        i = sum(c["action"] not in looks for c in mine)

        def use(args: dict[str, Any]) -> Answer:
            said = {"type": "text", "text": f"Step {i + 1} of the way there: the target is on screen."}
            block = {"type": "tool_use", "id": f"toolu_{len(mine):04d}", "name": "computer", "input": args}
            return Answer(content=[said, block])

        if not mine:
            return use({"action": "screenshot"})
        if i >= len(calls):
            return Answer(content=[{"type": "text", "text": "done"}])
        screen = json.loads(screen_file(self.folder, goal).read_text())
        ui, (sw, sh) = UiTree(screen["xml"]), screen["screen"]
        dw, dh = tool["display_width_px"], tool["display_height_px"]

        def point(x: float, y: float) -> list[int]:
            return [int((x + 0.5) * dw / sw), int((y + 0.5) * dh / sh)]

        def node_of(sel: dict[str, Any]) -> Any:
            node = ui.select(Selector.of(**sel)) if sel else None  # type: ignore[arg-type]
            if node is None:
                self.misses.append(f"no element matches {sel} on the screen of {goal!r}")
                raise LookupError(f"no element matches {sel}")
            return node

        kind, a = calls[i]
        sel = a.get("selector") or {}
        if kind == "tap":
            where = point(*node_of(sel).center)
            if i % 2 and mine[-1]["action"] != "mouse_move":
                return use({"action": "mouse_move", "coordinate": where})
            return use({"action": "left_click"} if i % 2 else {"action": "left_click", "coordinate": where})
        if kind == "long_press":
            return use({"action": "right_click", "coordinate": point(*node_of(sel).center)})
        if kind == "type":
            return use({"action": "type", "text": a["text"]})
        if kind == "scroll":
            if sel:
                node = node_of(sel)
            else:
                scrollables = [n for n in ui.nodes() if n.scrollable]
                node = max(scrollables, key=lambda n: (n.bounds[2] - n.bounds[0]) * (n.bounds[3] - n.bounds[1]))
            where = point(*node.center)
            return use(
                {"action": "scroll", "coordinate": where, "scroll_direction": a["direction"], "scroll_amount": 5}
            )
        if kind == "swipe":
            start, end = point(a["x"], a["y"]), point(a["x2"], a["y2"])
            return use({"action": "left_click_drag", "start_coordinate": start, "coordinate": end})
        if kind == "key" and a["key"] in ("back", "home", "enter"):
            return use({"action": "key", "text": {"back": "Back", "home": "Home", "enter": "Return"}[a["key"]]})
        raise ValueError(f"the golden model cannot say {kind} {a} to Anthropic's computer tool")

    # -- Gemini's computer use: function_call parts, points on the 0-999 grid ---------------------
    @staticmethod
    def _gemini_moves(calls: list[tuple[str, dict[str, Any]]]) -> list[list[tuple[str, dict[str, Any]]]]:
        """The golden calls grouped by the function call that makes them: a tap and the typing after
        it are one type_text_at."""
        moves: list[list[tuple[str, dict[str, Any]]]] = []
        for call in calls:
            if call[0] == "type" and moves and moves[-1][-1][0] == "tap" and len(moves[-1]) == 1:
                moves[-1].append(call)
            else:
                moves.append([call])
        return moves

    def gemini_computer_use(self, request: dict[str, Any]) -> Any:
        """Reads the goal from the first user turn, the step from the function calls so far, the
        screen from golden_screens.py; calls the predefined functions (and the phone's custom ones)
        with points on the 0-999 grid over the screenshot, a tap and its typing as one type_text_at."""
        contents, tools = request["contents"], request["tools"]
        goal = contents[0]["parts"][0]["text"].removeprefix("The task: ")
        made = [p for c in contents if c.get("role") == "model" for p in c["parts"] if "functionCall" in p]
        moves = self._gemini_moves(self._gui_calls(goal))
        i = len(made)
        computer = tools[0]["computerUse"]
        declared = [f["name"] for f in tools[1]["functionDeclarations"]]
        last = contents[-1]["parts"]
        # The SDK renames the parts it knows (inlineData) and passes nested ones as written (the
        # API reads either spelling).
        image = ("inlineData", "inline_data")
        shots = [p for p in last if any(k in p for k in image)] + [
            q for p in last for q in (p.get("functionResponse") or {}).get("parts") or [] if any(k in q for k in image)
        ]
        problem = None
        if computer.get("environment") != "ENVIRONMENT_BROWSER" or "navigate" not in str(computer):
            problem = f"the computer_use tool is not declared for a phone: {computer}"
        elif declared != ["open_app", "long_press_at", "go_home"]:
            problem = f"the custom functions declared are {declared}"
        elif len(shots) != 1:
            problem = f"the last turn carries {len(shots)} screenshots"
        if problem:
            self.misses.append(problem)
            raise ValueError(problem)

        def answer(name: str, **args: Any) -> Answer:
            said = {"text": f"Step {i + 1} of the way there: the target is on screen."}
            return Answer(content=[said, {"functionCall": {"name": name, "args": args}}])

        if i >= len(moves):
            return Answer(content=[{"text": "done"}])
        ui, (sw, sh) = self._screen(goal)

        def point(x: float, y: float) -> dict[str, int]:
            return {"x": min(round(x * 1000 / sw), 999), "y": min(round(y * 1000 / sh), 999)}

        (kind, a), *rest = moves[i]
        sel = a.get("selector") or {}
        if kind == "tap" and rest:
            return answer(
                "type_text_at", **point(*self._node(ui, sel, goal).center), text=rest[0][1]["text"], press_enter=False
            )
        if kind in ("tap", "long_press"):
            return answer("click_at" if kind == "tap" else "long_press_at", **point(*self._node(ui, sel, goal).center))
        if kind == "type":
            focused = next((n for n in ui.nodes() if n.focused), None)
            if focused is None:
                self.misses.append(f"nothing focused to type {a['text']!r} into on the screen of {goal!r}")
                raise LookupError("nothing focused")
            return answer("type_text_at", **point(*focused.center), text=a["text"], press_enter=False)
        if kind == "scroll":
            node = self._scrolled(ui, (sw, sh), sel)
            x1, y1, x2, y2 = node.bounds if node is not None else (0, 0, sw, sh)
            vertical = a["direction"] in ("up", "down")
            magnitude = round(0.6 * 1000 * ((y2 - y1) / sh if vertical else (x2 - x1) / sw))
            return answer(
                "scroll_at", **point((x1 + x2) / 2, (y1 + y2) / 2), direction=a["direction"], magnitude=magnitude
            )
        if kind == "swipe":
            end = point(a["x2"], a["y2"])
            return answer("drag_and_drop", **point(a["x"], a["y"]), destination_x=end["x"], destination_y=end["y"])
        if kind == "key" and a["key"] in ("back", "home"):
            return answer("go_back" if a["key"] == "back" else "go_home")
        if kind == "key":
            return answer("key_combination", keys=a["key"].title())
        if kind == "launch":
            name = a["package"].split(".")[2] if a["package"].startswith("com.simplemobiletools.") else a["package"]
            return answer("open_app", app_name=name.title())
        raise ValueError(f"the golden model cannot say {kind} {a} to Gemini's computer use")
