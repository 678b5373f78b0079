"""The UI elements a model agent shows its model: numbered, in document order, from the hierarchy.

An element is a node on screen that a user can act on or read: clickable, long-clickable,
checkable, scrollable or editable, or with text or a content description. Layout containers
with none of these are left out. Each agent numbers the same list (T3A and M3A from 0,
AppAgent from 1, as their papers do) and turns a chosen number back into an action: a tap at
the element's centre, or a selector (for typing) that resolves to that very node.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from pytest_mobile_agent.actions import Action, Selector
from pytest_mobile_agent.device.ui_tree import Node, UiTree


@dataclass(frozen=True)
class Element:
    number: int
    node: Node
    bounds: tuple[int, int, int, int]  # clipped to the screen

    @property
    def center(self) -> tuple[int, int]:
        l, t, r, b = self.bounds
        return (l + r) // 2, (t + b) // 2

    @property
    def editable(self) -> bool:
        return self.node.cls.endswith("EditText")

    def fields(self) -> dict[str, Any]:
        """What the model reads about the element (empty fields left out to save tokens)."""
        n = self.node
        out: dict[str, Any] = {"class": n.cls.rsplit(".", 1)[-1]}
        for key, value in (("text", n.text), ("desc", n.desc), ("id", n.id)):
            if value:
                out[key] = value
        for flag in ("clickable", "long_clickable", "checkable", "checked", "scrollable", "selected", "focused"):
            if getattr(n, flag):
                out[flag] = True
        if self.editable:
            out["editable"] = True
        return out

    def line(self) -> str:
        """`3: {"class": "Button", "text": "7", ...}`: one element per line, JSON after the number."""
        return f"{self.number}: {json.dumps(self.fields(), ensure_ascii=False)}"


def _actionable(n: Node) -> bool:
    return bool(
        n.clickable or n.long_clickable or n.checkable or n.scrollable or n.text or n.desc or n.cls.endswith("EditText")
    )


def ui_elements(ui: UiTree, screen: tuple[int, int], start: int = 0) -> list[Element]:
    w, h = screen if screen[0] and screen[1] else (10**6, 10**6)
    out: list[Element] = []
    for n in ui.nodes():
        l, t, r, b = n.bounds
        l, t, r, b = max(l, 0), max(t, 0), min(r, w), min(b, h)
        if r > l and b > t and _actionable(n):
            out.append(Element(start + len(out), n, (l, t, r, b)))
    return out


def selector_for(node: Node, ui: UiTree) -> Selector:
    """A selector that resolves to exactly this node on this screen (the n-th of its look-alikes)."""
    sel = Selector(
        resourceId=node.id or None, text=node.text or None, description=node.desc or None, className=node.cls or None
    )
    matches = ui.find_all(id=sel.resourceId, text=sel.text, desc=sel.description, cls=sel.className)
    index = next((i for i, m in enumerate(matches) if m is node), 0)
    return Selector(sel.resourceId, sel.text, sel.description, sel.className, index=index)


def element_action(kind: str, element: Element, ui: UiTree, text: str | None = None) -> Action:
    """tap / long_press at the element's centre; type into the element: straight in when it has the
    focus (a tap would drop a selection the typing should replace), else by a selector, so the
    harness taps it first, as for a golden path's Type."""
    if kind == "type":
        if element.node.focused:
            return Action("type", text=text or "")
        return Action("type", text=text or "", selector=selector_for(element.node, ui))
    x, y = element.center
    return Action(kind, x=x, y=y)


def by_number(elements: list[Element], number: Any) -> Element:
    """The element with that number, or an AnswerError naming the valid range."""
    from pytest_mobile_agent.agents.baselines.answers import AnswerError

    try:
        i = int(number)
    except (TypeError, ValueError):
        raise AnswerError(f"element number must be an integer, not {number!r}") from None
    first = elements[0].number if elements else 0
    if not elements or not first <= i < first + len(elements):
        span = f"{first}..{first + len(elements) - 1}" if elements else "none on this screen"
        raise AnswerError(f"there is no element {i} (elements: {span})")
    return elements[i - first]
