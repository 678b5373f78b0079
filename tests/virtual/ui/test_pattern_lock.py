"""The pattern lock (PatternLockView) shows its 3 x 3 dots."""

from __future__ import annotations

from pytest_mobile_agent.virtual.ui import layout
from pytest_mobile_agent.virtual.ui.render.renderer import ScreenRenderer
from pytest_mobile_agent.virtual.ui.screen import Frame, Window
from pytest_mobile_agent.virtual.ui.view import LINEAR, VIEW, View


def test_the_pattern_view_draws_nine_dots_in_a_grid() -> None:
    r = ScreenRenderer(1080, 2340, 420 / 160)
    pattern = View(VIEW, id="p:id/pattern_lock_view", height=240, kind="pattern")
    root = View(LINEAR, children=[pattern])
    layout.layout(root, (0, r.status_h, 1080, 2340 - r.nav_h), r.scale)
    img = r.image(Frame(1, [Window("activity", "p", "a", root)]), "9:00").convert("L")
    x0, y0, x1, y1 = pattern.bounds
    side = y1 - y0
    left = x0 + (x1 - x0 - side) // 2
    spots = [round(side * (i + 0.5) / 3) for i in range(3)]
    centres = [(left + dx, y0 + dy) for dy in spots for dx in spots]
    assert all(img.getpixel(c) < 80 for c in centres)  # a dark dot at each of the nine spots
    between = (left + round(side / 3), y0 + round(side / 3))  # halfway between dots: background
    assert img.getpixel(between) > 200
    dark = sum(img.crop(pattern.bounds).histogram()[:80])
    dot_area = 3.14 / 4 * (10 * r.scale) ** 2
    assert 9 * dot_area * 0.7 < dark < 9 * dot_area * 1.3  # nine dots, nothing else
