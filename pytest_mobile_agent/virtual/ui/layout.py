"""A small LinearLayout/FrameLayout engine: assigns pixel bounds to a view tree.

Children of a vertical container stack top to bottom (fixed dp height, a weight share of what is
left, or their content's height); horizontal containers do the same left to right; "stack"
containers overlay their children. A scrollable container lays its children out at their
content height, shifted by its scroll offset; the parts outside its viewport are clipped, and
children wholly outside are not shown (a RecyclerView has no views for them).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from unicodedata import east_asian_width

from pytest_mobile_agent.virtual.ui.view import Bounds, View

CHAR_WIDTH = 0.55  # average glyph width as a fraction of the text size
LINE_HEIGHT = 1.45


# The font scale setting (`settings put system font_scale`): text sizes are in sp, so text takes
# that much more room than its dp size says; the window manager lays a frame out inside text_scale().
_FONT_SCALE: ContextVar[float] = ContextVar("font_scale", default=1.0)


@contextmanager
def text_scale(font_scale: float) -> Iterator[None]:
    """While a frame is laid out: sp are `font_scale` dp."""
    token = _FONT_SCALE.set(font_scale)
    try:
        yield
    finally:
        _FONT_SCALE.reset(token)


# A labelled compound button's control with its margins, in dp, as the painter lays it out
# (render/painter.py _control_spot: 12 dp, the control, 12 dp, the label, 4 dp).
COMPOUND_BUTTON_DP = {"checkbox": 12 + 18 + 12 + 4, "radio": 12 + 20 + 12 + 4, "switch": 12 + 36 + 12 + 4}


def text_px(view: View, scale: float, width: float | None = None) -> tuple[float, float]:
    """Approximate (width, height) of a view's text in px; with `width` (px) and max_lines > 1,
    the height of the text word-wrapped to that width."""
    size = view.text_size * scale * _FONT_SCALE.get()
    lines = (view.text or view.hint or " ").split("\n")
    if width is not None and view.max_lines > 1:
        count = sum(_wrapped_lines(line, width / (size * CHAR_WIDTH)) for line in lines)
        return width, min(count, view.max_lines) * size * LINE_HEIGHT
    return max(len(line) for line in lines) * size * CHAR_WIDTH, len(lines) * size * LINE_HEIGHT


def _wrapped_lines(line: str, chars: float) -> int:
    """Lines a greedy word wrap takes for `line`, `chars` characters fitting on each (a CJK
    character counts as two: it is about twice as wide)."""
    count, used = 1, 0
    for word in line.split(" "):
        size = sum(2 if east_asian_width(c) in "WF" else 1 for c in word)
        if used and used + 1 + size > chars:
            count, used = count + 1, size
        else:
            used += size + (1 if used else 0)
        while used > chars:  # a word longer than the line breaks inside it
            count, used = count + 1, used - int(chars)
    return count


def _intrinsic(view: View, axis: str, scale: float, width: float | None = None) -> float:
    """Content size of a view along an axis ("v" = height, "h" = width), in px; `width`: the px
    it is laid out in, where known (wrapping text needs it)."""
    fixed = view.height if axis == "v" else view.width
    if fixed is not None:
        return fixed * scale
    pad = 2 * view.padding * scale
    inner = None if width is None else width - pad
    if not view.children:
        w, h = text_px(view, scale, inner if axis == "v" else None)
        if view.text and view.kind in COMPOUND_BUTTON_DP:  # a wrap_content CheckBox fits its label too
            w += COMPOUND_BUTTON_DP[view.kind] * scale
        return (h if axis == "v" else w) + pad
    inner = None if view.orientation == "h" else inner  # a row shares its width: unknown per child
    sizes = [_intrinsic(c, axis, scale, inner) for c in view.children]
    along = view.orientation == axis
    return (sum(sizes) if along else max(sizes, default=0.0)) + pad


def layout(view: View, bounds: Bounds, scale: float, clip: Bounds | None = None) -> None:
    """Lay `view` out in `bounds`; `clip` is the visible region inherited from scroll parents."""
    view.bounds = bounds
    clip = bounds if clip is None else _intersect(bounds, clip)
    view.shown = clip[2] > clip[0] and clip[3] > clip[1]
    view.visible_bounds = clip
    if not view.children:
        return
    pad = round(view.padding * scale)
    left, top, right, bottom = bounds[0] + pad, bounds[1] + pad, bounds[2] - pad, bounds[3] - pad
    if view.orientation == "stack":
        for child in view.children:
            layout(child, _place(child, (left, top, right, bottom), scale), scale, clip)
        return
    axis = view.orientation
    start, end = (top, bottom) if axis == "v" else (left, right)
    across = right - left if axis == "v" else None
    if view.scrollable:
        sizes = [_intrinsic(c, axis, scale, across) for c in view.children]
        view.content_height = round(sum(sizes))
        max_scroll = max(0, view.content_height - (end - start))
        view.scroll_y = min(max(view.scroll_y, 0), max_scroll)
        start -= view.scroll_y
    else:
        fixed = [
            None if c.weight and (c.height if axis == "v" else c.width) is None else _intrinsic(c, axis, scale, across)
            for c in view.children
        ]
        free = max(0.0, (end - start) - sum(s for s in fixed if s is not None))
        weights = sum(c.weight for c, s in zip(view.children, fixed) if s is None) or 1.0
        sizes = [free * c.weight / weights if s is None else s for c, s in zip(view.children, fixed)]
        if None not in fixed and view.content_gravity in ("center", "end"):
            start += round(free / 2 if view.content_gravity == "center" else free)
    pos = float(start)
    for child, size in zip(view.children, sizes):
        a, b = round(pos), round(pos + size)
        pos += size
        if axis == "v":
            slot = (left, a, right, b)
        else:
            slot = (a, top, b, bottom)
        layout(child, _place(child, slot, scale, axis), scale, clip)


def _place(child: View, slot: Bounds, scale: float, axis: str = "stack") -> Bounds:
    """Where a child sits in its slot across the cross axis (or both axes in a stack)."""
    left, top, right, bottom = slot
    if axis == "stack" and (child.x is not None or child.y is not None):
        left, top = left + round((child.x or 0) * scale), top + round((child.y or 0) * scale)
        if child.width is not None:
            right = left + round(child.width * scale)
        if child.height is not None:
            bottom = top + round(child.height * scale)
        return left, top, right, bottom
    if axis != "h" and child.width is not None:
        w = round(child.width * scale)
        left, right = _align(child.gravity, left, right, w)
    if axis != "v" and child.height is not None:
        h = round(child.height * scale)
        top, bottom = _align(child.gravity if axis == "h" else child.vgravity, top, bottom, h)
    return left, top, right, bottom


def _align(gravity: str, lo: int, hi: int, size: int) -> tuple[int, int]:
    size = min(size, hi - lo)
    if gravity == "center":
        lo += (hi - lo - size) // 2
    elif gravity == "end":
        lo = hi - size
    return lo, lo + size


def _intersect(a: Bounds, b: Bounds) -> Bounds:
    return max(a[0], b[0]), max(a[1], b[1]), min(a[2], b[2]), min(a[3], b[3])
