"""A uiautomator dump as a queryable model: find nodes by id, text, class, description, state.

`find(id="result")` matches the short id against `pkg:id/result`; every query runs over the
whole tree in document order. The same model backs the `ui` fixture, the observation given to
agents and selector resolution for actions.
"""

from __future__ import annotations

import copy
import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from pytest_mobile_agent.actions import Action, Selector
from pytest_mobile_agent.locales import DEFAULT_LOCALE, is_default, normalize, variants

_BOUNDS = re.compile(r"\[(-?\d+),(-?\d+)\]\[(-?\d+),(-?\d+)\]")


@dataclass(eq=False)
class Node:
    text: str
    id: str
    cls: str
    package: str
    desc: str
    checkable: bool
    checked: bool
    clickable: bool
    enabled: bool
    focusable: bool
    focused: bool
    scrollable: bool
    long_clickable: bool
    password: bool
    selected: bool
    bounds: tuple[int, int, int, int]
    index: int
    parent: Node | None = field(default=None, repr=False)
    children: list[Node] = field(default_factory=list, repr=False)

    @property
    def center(self) -> tuple[int, int]:
        l, t, r, b = self.bounds
        return (l + r) // 2, (t + b) // 2

    @property
    def short_id(self) -> str:
        return self.id.rsplit("/", 1)[-1] if self.id else ""

    def walk(self) -> Iterator[Node]:
        yield self
        for c in self.children:
            yield from c.walk()

    def texts(self) -> list[str]:
        """Texts of this node and its descendants (what a row shows)."""
        return [n.text for n in self.walk() if n.text]


def _flag(value: str | None) -> bool:
    return value == "true"


def _node(el: ET.Element, parent: Node | None) -> Node:
    a = el.attrib
    m = _BOUNDS.match(a.get("bounds", ""))
    node = Node(
        text=a.get("text", ""),
        id=a.get("resource-id", ""),
        cls=a.get("class", ""),
        package=a.get("package", ""),
        desc=a.get("content-desc", ""),
        checkable=_flag(a.get("checkable")),
        checked=_flag(a.get("checked")),
        clickable=_flag(a.get("clickable")),
        enabled=_flag(a.get("enabled")),
        focusable=_flag(a.get("focusable")),
        focused=_flag(a.get("focused")),
        scrollable=_flag(a.get("scrollable")),
        long_clickable=_flag(a.get("long-clickable")),
        password=_flag(a.get("password")),
        selected=_flag(a.get("selected")),
        bounds=tuple(map(int, m.groups())) if m else (0, 0, 0, 0),  # type: ignore[arg-type]
        index=int(a.get("index", "0") or 0),
        parent=parent,
    )
    node.children = [_node(c, node) for c in el if c.tag == "node"]
    return node


class UiTree:
    """The screen as the last dump saw it.

    `locale`: the device's, for task bodies (the `ui` fixture). A body's query by an English
    text of the apps (`find(text="About")`) then also matches the form that locale shows
    ("关于"), through the apps' string tables; `tr("June")` gives that form for comparisons.
    Actions' selectors (`select`) always match exactly what the screen shows.
    """

    def __init__(self, xml: str = "", locale: str = DEFAULT_LOCALE) -> None:
        self.xml = ""
        self.roots: list[Node] = []
        self.locale = locale
        if xml:
            self.update(xml)

    def exact(self) -> UiTree:
        """The same screen with queries that match only what it shows (what agents get)."""
        if is_default(self.locale):
            return self
        view = copy.copy(self)
        view.locale = DEFAULT_LOCALE
        return view

    def tr(self, text: str) -> str:
        """An English text of the apps on screen as this tree's locale shows it."""
        return variants(text, self._packages(), self.locale)[0]

    def _packages(self) -> list[str]:
        return list(dict.fromkeys(r.package for r in self.roots if r.package))

    def _forms(self, text: str | None) -> set[str] | None:
        if text is None:
            return None
        if is_default(self.locale):
            return {text}
        return {text, *variants(text, self._packages(), self.locale)}

    def update(self, xml: str) -> None:
        """Load a new dump in place (the `ui` fixture object stays the same during an episode)."""
        start = xml.find("<?xml")
        end = xml.rfind("</hierarchy>")
        body = xml[start if start >= 0 else 0 : end + len("</hierarchy>") if end >= 0 else len(xml)]
        root = ET.fromstring(body)
        self.xml = body
        self.roots = [_node(el, None) for el in root if el.tag == "node"]

    def nodes(self) -> Iterator[Node]:
        for r in self.roots:
            yield from r.walk()

    @property
    def package(self) -> str:
        return self.roots[-1].package if self.roots else ""

    def find_all(
        self,
        *,
        id: str | None = None,
        text: str | None = None,
        desc: str | None = None,
        cls: str | None = None,
        text_contains: str | None = None,
        desc_contains: str | None = None,
        package: str | None = None,
        checked: bool | None = None,
        clickable: bool | None = None,
        selected: bool | None = None,
    ) -> list[Node]:
        texts, descs = self._forms(text), self._forms(desc)
        out = []
        for n in self.nodes():
            if id is not None and n.id != id and not n.id.endswith(":id/" + id):
                continue
            if texts is not None and n.text not in texts:
                continue
            if descs is not None and n.desc not in descs:
                continue
            if cls is not None and n.cls != cls and not n.cls.endswith("." + cls):
                continue
            if text_contains is not None and text_contains not in n.text:
                continue
            if desc_contains is not None and desc_contains not in n.desc:
                continue
            if package is not None and n.package != package:
                continue
            if checked is not None and n.checked != checked:
                continue
            if clickable is not None and n.clickable != clickable:
                continue
            if selected is not None and n.selected != selected:
                continue
            out.append(n)
        return out

    def find(self, **query: object) -> Node | None:
        found = self.find_all(**query)  # type: ignore[arg-type]
        return found[0] if found else None

    def exists(self, **query: object) -> bool:
        return self.find(**query) is not None

    def text_of(self, id: str) -> str | None:
        node = self.find(id=id)
        return None if node is None else node.text

    def texts(self) -> list[str]:
        return [n.text for n in self.nodes() if n.text]

    def select(self, selector: Selector) -> Node | None:
        """Resolve an action's selector: the `index`-th node that matches every given field."""
        found = self.exact().find_all(
            id=selector.resourceId,
            text=selector.text,
            desc=selector.description,
            cls=selector.className,
            text_contains=selector.textContains,
            desc_contains=selector.descriptionContains,
            package=selector.packageName,
        )
        return found[selector.index] if selector.index < len(found) else None

    def __repr__(self) -> str:
        return f"UiTree(package={self.package!r}, nodes={sum(1 for _ in self.nodes())})"


_TEXT_FIELDS = ("text", "description", "textContains", "descriptionContains")


def localize_action(action: Action, ui: UiTree | None, packages: Sequence[str], locale: str) -> Action:
    """A golden-path action written against the English apps, for a device in `locale`: each
    text or description in its selector becomes the form the screen shows (the first variant
    that matches an element), so the replay taps the same element a person would."""
    selector = action.selector
    if selector is None or is_default(normalize(locale)) or ui is None:
        return action
    if ui.select(selector) is not None:
        return action  # user content, or a text no table translates
    shown = tuple(dict.fromkeys((*packages, *(n.package for n in ui.nodes() if n.package))))
    choices = [selector]
    for name in _TEXT_FIELDS:
        value = getattr(selector, name)
        if value:
            forms: list[dict[str, Any]] = [{name: form} for form in variants(value, shown, locale)]
            choices = [replace(s, **changed) for s in choices for changed in forms]
    match = next((s for s in choices if ui.select(s) is not None), choices[0])
    return replace(action, selector=match)


def scroll_path(
    target: Node | None, ui: UiTree | None, size: tuple[int, int], direction: str | None
) -> tuple[int, int, int, int]:
    """A scroll's finger path (x1, y1, x2, y2): 30% either side of the centre of `target`, else
    of the largest scrollable view, else of the screen. "down" shows what is below: the finger
    moves up. The device swipes it and the reports draw it, so both follow this one rule."""
    l, t, r, b = 0, 0, *size
    if target is not None:
        l, t, r, b = target.bounds
    elif ui is not None:
        scrollables = [n for n in ui.nodes() if n.scrollable]
        if scrollables:
            l, t, r, b = max(
                scrollables, key=lambda n: (n.bounds[2] - n.bounds[0]) * (n.bounds[3] - n.bounds[1])
            ).bounds
    cx, cy = (l + r) // 2, (t + b) // 2
    dx, dy = (r - l) * 3 // 10, (b - t) * 3 // 10
    return {
        "down": (cx, cy + dy, cx, cy - dy),
        "up": (cx, cy - dy, cx, cy + dy),
        "right": (cx + dx, cy, cx - dx, cy),
        "left": (cx - dx, cy, cx + dx, cy),
    }.get(direction or "down", (cx, cy + dy, cx, cy - dy))
