"""Mobile-Bench's agent (Deng et al. 2024, §3.2): the hierarchy rendered as HTML (tag from the
class; resource id, class, package, clickable and scrollable kept, bounds only for scrollable
elements, description and text as content), and API calls (adb commands that start activities
or send intents) offered next to the UI operations click, input and scroll. One model call per
step chooses either kind; the paper's separate planning call is left out.
"""

from __future__ import annotations

import html
from typing import TYPE_CHECKING, Any, ClassVar

from pytest_mobile_agent.actions import Action, Api, Done, Key
from pytest_mobile_agent.agents.baselines.answers import AnswerError, call, section
from pytest_mobile_agent.agents.baselines.base import ModelAgent, history_lines
from pytest_mobile_agent.agents.baselines.elements import Element, by_number, element_action, selector_for, ui_elements
from pytest_mobile_agent.models import system, user

if TYPE_CHECKING:
    from pytest_mobile_agent.agents import Observation

TAGS = {
    "Button": "button",
    "ImageButton": "button",
    "EditText": "input",
    "TextView": "p",
    "ImageView": "img",
    "CheckBox": "checkbox",
    "Switch": "checkbox",
    "RadioButton": "checkbox",
}
SCROLLS = ("up", "down", "left", "right")


def html_line(e: Element) -> str:
    n = e.node
    short = n.cls.rsplit(".", 1)[-1]
    tag = TAGS.get(short, "div")
    attrs = [f'index="{e.number}"']
    if n.id:
        attrs.append(f'id="{html.escape(n.id)}"')
    attrs += [f'class="{html.escape(n.cls)}"', f'package="{html.escape(n.package)}"']
    if n.clickable or n.long_clickable:
        attrs.append('clickable="true"')
    if n.scrollable:
        l, t, r, b = e.bounds
        attrs.append(f'scrollable="true" bounds="[{l},{t}][{r},{b}]"')
    if n.focused:  # not in the paper's list: where typed text goes is otherwise not on the page
        attrs.append('focused="true"')
    if n.desc:
        attrs.append(f'description="{html.escape(n.desc)}"')
    return f"<{tag} {' '.join(attrs)}>{html.escape(n.text)}</{tag}>"


def api_list(obs: Observation) -> str:
    """The task's own API list when it has one (a Mobile-Bench task file's), else opening its apps."""
    if obs.task.apis:
        return "\n".join(obs.task.apis)
    # An implicit MAIN intent with a package reaches no launcher entry (they lack CATEGORY_DEFAULT): monkey's does.
    lines = [
        f"adb shell monkey -p {p} -c android.intent.category.LAUNCHER 1  (open this app: {p})" for p in obs.task.apps
    ]
    lines.append("adb shell am start -a android.intent.action.MAIN -c android.intent.category.HOME  (the home screen)")
    return "\n".join(lines)


class MobileBench(ModelAgent):
    name = "mobile-bench"
    prompt_files: ClassVar[dict[str, str]] = {"system": "mobile_bench_system.txt", "step": "mobile_bench_step.txt"}

    def messages(self, obs: Observation) -> list[dict[str, Any]]:
        self._elements = ui_elements(obs.ui, obs.screen_size, start=1)
        page = "\n".join(html_line(e) for e in self._elements) or "(an empty screen: it may still be loading)"
        text = self.prompt("step").format(
            goal=obs.prompt, history=history_lines(self.history), apis=api_list(obs), html=page
        )
        return [system(self.prompt("system")), user(text)]

    def reasoning(self, text: str) -> str:
        return section(text, "Thought") or text.strip()

    def action_text(self, text: str) -> str:
        return " ".join((section(text, "Action") or text).split())[:160]

    def parse(self, text: str, obs: Observation) -> Action:
        raw = section(text, "Action")
        if raw is None:
            raise AnswerError(f"no 'Action:' line in the answer: {text[:120]!r}")
        raw = raw.strip().strip("`").strip()
        if raw.lower().startswith("api(") and raw.endswith(")"):  # adb commands hold quotes and commas
            command = raw[4:-1].strip().strip("\"'").strip()
            return Api(command.removeprefix("adb shell ").strip())
        name, args = call(raw)
        name = name.lower()
        if name == "finish":
            return Done(self.reasoning(text))
        if name == "infeasible":
            return self.give_up(str(args[0]) if args else self.reasoning(text))
        if name == "back":
            return Key("back")
        if name == "home":
            return Key("home")
        if name in ("click", "long_press"):
            if len(args) != 1:
                raise AnswerError(f"{name}(index) takes one element index")
            return element_action(
                "tap" if name == "click" else "long_press", by_number(self._elements, args[0]), obs.ui
            )
        if name == "input":
            if len(args) != 2 or not isinstance(args[1], str):
                raise AnswerError('input(index, "text") takes an element index and a quoted text')
            return element_action("type", by_number(self._elements, args[0]), obs.ui, args[1])
        if name == "scroll":
            direction = str(args[-1]).lower() if args else ""
            if direction not in SCROLLS or len(args) not in (1, 2):
                raise AnswerError(f"scroll(index, direction) or scroll(direction); direction one of {SCROLLS}")
            if len(args) == 2:
                el = by_number(self._elements, args[0])
                return Action("scroll", direction=direction, selector=selector_for(el.node, obs.ui))
            return Action("scroll", direction=direction)
        raise AnswerError(f"unknown operation {name}()")
