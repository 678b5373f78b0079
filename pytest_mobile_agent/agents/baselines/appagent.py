"""AppAgent (Yang et al. 2023): a screenshot whose actionable elements carry numeric labels,
answered in AppAgent's grammar: tap(n), text("..."), long_press(n), swipe(n, dir, dist), grid(),
FINISH. Here also back() and INFEASIBLE("why"). grid() turns the next screenshot into numbered
areas for elements without a label. The answer has Observation, Thought, Action and Summary
parts; each Summary goes into the history. The labels are listed in a legend under the image
(AppAgent's element documentation, made from the hierarchy instead of an exploration phase).
"""

from __future__ import annotations

import json
import math
from typing import TYPE_CHECKING, Any, ClassVar

from pytest_mobile_agent.actions import Action, Done, Key
from pytest_mobile_agent.agents.baselines.answers import AnswerError, call, section
from pytest_mobile_agent.agents.baselines.base import ModelAgent, history_lines
from pytest_mobile_agent.agents.baselines.elements import Element, by_number, element_action, ui_elements
from pytest_mobile_agent.agents.baselines.marks import draw_marks, screen_image
from pytest_mobile_agent.drawing import font
from pytest_mobile_agent.models import image_part, system

if TYPE_CHECKING:
    from PIL import Image

    from pytest_mobile_agent.agents import Observation

DIRECTIONS = ("up", "down", "left", "right")
DISTANCES = {"short": 0.2, "medium": 0.4, "long": 0.6}  # of the screen's height (up/down) or width
SUBAREAS = {
    "top-left": (1, 1),
    "top": (3, 1),
    "top-right": (5, 1),
    "left": (1, 3),
    "center": (3, 3),
    "right": (5, 3),
    "bottom-left": (1, 5),
    "bottom": (3, 5),
    "bottom-right": (5, 5),
}  # sixths of an area
GRID_COLUMNS = 6


class AppAgent(ModelAgent):
    name = "appagent"
    needs_screenshot = True
    prompt_files: ClassVar[dict[str, str]] = {
        "system": "appagent_system.txt",
        "step": "appagent_step.txt",
        "grid": "appagent_grid.txt",
    }

    def reset(self, task: Any) -> None:
        super().reset(task)
        self.grid = False  # the previous answer asked for grid()
        self._grid_now = False

    def messages(self, obs: Observation) -> list[dict[str, Any]]:
        self._grid_now = self.grid
        img, scale = screen_image(obs.screenshot, self.image_side)
        history = history_lines(self.history)
        if self._grid_now:
            self._cells = grid_cells(obs.screen_size)
            text = self.prompt("grid").format(
                goal=obs.prompt, history=history, areas=len(self._cells), columns=GRID_COLUMNS
            )
            img = draw_grid(img, self._cells, scale)
        else:
            self._elements = ui_elements(obs.ui, obs.screen_size, start=1)
            legend = "\n".join(legend_line(e) for e in self._elements) or "(no labels: the screen may be loading)"
            text = self.prompt("step").format(goal=obs.prompt, history=history, legend=legend)
            img = draw_marks(img, self._elements, scale)
        self.grid = False
        content = [{"type": "text", "text": text}, image_part(img, self.image_side)]
        return [system(self.prompt("system")), {"role": "user", "content": content}]

    def reasoning(self, text: str) -> str:
        return section(text, "Thought") or text.strip()

    def summary_of(self, text: str) -> str:
        return section(text, "Summary") or self.reasoning(text)

    def action_text(self, text: str) -> str:
        return " ".join((section(text, "Action") or text).split())[:120]

    def parse(self, text: str, obs: Observation) -> Action:
        raw = section(text, "Action")
        if raw is None:
            raise AnswerError(f"no 'Action:' line in the answer: {text[:120]!r}")
        if raw.strip().upper().startswith("FINISH"):
            return Done(self.reasoning(text))
        name, args = call(raw)
        name = name.lower()
        if name == "infeasible":
            return self.give_up(str(args[0]) if args else self.reasoning(text))
        if name == "back":
            return Key("back")
        if name == "grid":
            self.grid = True
            return Action("wait", seconds=0.0)  # nothing happens on the phone; the next prompt shows the grid
        if self._grid_now:
            return self._grid_action(name, args, obs)
        if name in ("tap", "long_press"):
            return element_action(name, self._element(args, 1, name), obs.ui)
        if name == "text":
            if len(args) != 1 or not isinstance(args[0], str):
                raise AnswerError('text() takes one string in double quotes: text("...")')
            return Action("type", text=args[0])
        if name == "swipe":
            el = self._element(args, 3, name)
            direction, dist = str(args[1]).lower(), str(args[2]).lower()
            if direction not in DIRECTIONS or dist not in DISTANCES:
                raise AnswerError(
                    f"swipe(element, direction, dist): direction in {DIRECTIONS}, "
                    f"dist in {tuple(DISTANCES)}; got {direction!r}, {dist!r}"
                )
            return swipe_from(el.center, direction, dist, obs.screen_size)
        raise AnswerError(f"unknown function {name}()")

    def _element(self, args: list[Any], arity: int, name: str) -> Element:
        if len(args) != arity:
            raise AnswerError(f"{name}() takes {arity} argument(s), got {len(args)}")
        return by_number(self._elements, args[0])

    def _grid_action(self, name: str, args: list[Any], obs: Observation) -> Action:
        if name in ("tap", "long_press"):
            if len(args) != 2:
                raise AnswerError(f'in grid mode {name}(area, "subarea") takes two arguments')
            x, y = self._point(args[0], args[1])
            return Action(name, x=x, y=y)
        if name == "swipe":
            if len(args) != 4:
                raise AnswerError("in grid mode swipe(start_area, start_subarea, end_area, end_subarea)")
            (x, y), (x2, y2) = self._point(args[0], args[1]), self._point(args[2], args[3])
            return Action("swipe", x=x, y=y, x2=x2, y2=y2, duration_ms=400)
        raise AnswerError(f"{name}() is not a grid action; use tap, long_press or swipe with areas")

    def _point(self, area: Any, subarea: Any) -> tuple[int, int]:
        try:
            l, t, r, b = self._cells[int(area) - 1]
        except (ValueError, TypeError, IndexError):
            raise AnswerError(f"there is no area {area!r} (areas 1..{len(self._cells)})") from None
        if int(area) < 1:
            raise AnswerError(f"there is no area {area!r} (areas 1..{len(self._cells)})")
        if str(subarea).lower() not in SUBAREAS:
            raise AnswerError(f"unknown subarea {subarea!r}; one of {', '.join(SUBAREAS)}")
        fx, fy = SUBAREAS[str(subarea).lower()]
        return l + (r - l) * fx // 6, t + (b - t) * fy // 6


def legend_line(e: Element) -> str:
    f = e.fields()
    what = {k: f[k] for k in ("class", "text", "desc", "id") if k in f}
    return f"{e.number}: {json.dumps(what, ensure_ascii=False)}"


def swipe_from(center: tuple[int, int], direction: str, dist: str, screen: tuple[int, int]) -> Action:
    """A swipe of the given length from the element's centre, kept on the screen."""
    w, h = screen
    x, y = center
    dx = {"left": -1, "right": 1}.get(direction, 0) * round(w * DISTANCES[dist])
    dy = {"up": -1, "down": 1}.get(direction, 0) * round(h * DISTANCES[dist])
    x2, y2 = min(max(x + dx, 0), w - 1), min(max(y + dy, 0), h - 1)
    return Action("swipe", x=x, y=y, x2=x2, y2=y2, duration_ms=400)


def grid_cells(screen: tuple[int, int]) -> list[tuple[int, int, int, int]]:
    w, h = screen
    side = max(1, w // GRID_COLUMNS)
    rows = math.ceil(h / side)
    return [
        (c * side, r * side, min(w, (c + 1) * side), min(h, (r + 1) * side))
        for r in range(rows)
        for c in range(GRID_COLUMNS)
    ]


def draw_grid(img: Image.Image, cells: list[tuple[int, int, int, int]], scale: float) -> Image.Image:
    from PIL import ImageDraw

    draw = ImageDraw.Draw(img)
    f = font(max(10, round(26 * scale)))
    for i, (l, t, r, b) in enumerate(cells, start=1):
        box = tuple(round(v * scale) for v in (l, t, r, b))
        draw.rectangle(box, outline=(255, 64, 129), width=1)
        draw.text((box[0] + 3, box[1] + 2), str(i), fill=(255, 64, 129), font=f)
    return img
