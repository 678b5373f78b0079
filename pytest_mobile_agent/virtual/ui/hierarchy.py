"""View trees in uiautomator's dump format.

`uiautomator dump` writes the active window only, as one root `<node>` (AndroidViewClient keeps
the last top-level node as its root, so there must be exactly one); uiautomator2's
`dumpWindowHierarchy` writes every app window as its own root. Attributes come in the real
order; `--compressed` leaves out layout nodes that carry nothing for accessibility and lifts
their children up, as Android's compressed mode does.
"""

from __future__ import annotations

from pytest_mobile_agent.virtual.ui.screen import Frame, Window
from pytest_mobile_agent.virtual.ui.view import View

HEADER = "<?xml version='1.0' encoding='UTF-8' standalone='yes' ?>"
_ESCAPES = str.maketrans(
    {"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "\n": "&#10;", "\r": "&#13;", "\t": "&#9;"}
)
_CONTROL = {c: None for c in range(32) if c not in (9, 10, 13)}


def _esc(text: str) -> str:
    return text.translate(_ESCAPES).translate(_CONTROL)


def _b(flag: bool) -> str:
    return "true" if flag else "false"


def _important(v: View) -> bool:
    return bool(
        v.text
        or v.desc
        or v.id
        or v.clickable
        or v.long_clickable
        or v.checkable
        or v.reports_scrollable
        or v.focusable
        or not v.children
    )


def _children(v: View, compressed: bool) -> list[View]:
    out: list[View] = []
    for c in v.children:
        if not c.shown:
            continue
        if compressed and not _important(c):
            out.extend(_children(c, compressed))
        else:
            out.append(c)
    return out


def _node(v: View, index: int, package: str, compressed: bool, parts: list[str]) -> None:
    l, t, r, b = v.visible_bounds
    text = "•" * len(v.text) if v.password else v.text
    parts.append(
        f'<node index="{index}" text="{_esc(text)}" resource-id="{_esc(v.id)}" class="{v.cls}" '
        f'package="{package}" content-desc="{_esc(v.desc)}" checkable="{_b(v.checkable)}" '
        f'checked="{_b(v.checked)}" clickable="{_b(v.clickable)}" enabled="{_b(v.enabled)}" '
        f'focusable="{_b(v.focusable)}" focused="{_b(v.focused)}" scrollable="{_b(v.reports_scrollable)}" '
        f'long-clickable="{_b(v.long_clickable)}" password="{_b(v.password)}" '
        f'selected="{_b(v.selected)}" bounds="[{l},{t}][{r},{b}]"'
    )
    kids = _children(v, compressed)
    if not kids:
        parts.append(" />")
        return
    parts.append(">")
    for i, c in enumerate(kids):
        _node(c, i, package, compressed, parts)
    parts.append("</node>")


def window_xml(win: Window, compressed: bool = False, index: int = 0) -> str:
    parts: list[str] = []
    _node(win.root, index, win.package, compressed, parts)
    return "".join(parts)


def dump(frame: Frame, compressed: bool = False, all_windows: bool = False) -> str:
    windows = frame.app_windows() if all_windows else [frame.active()]
    body = "".join(window_xml(w, compressed, i) for i, w in enumerate(windows))
    return f'{HEADER}<hierarchy rotation="0">{body}</hierarchy>'
