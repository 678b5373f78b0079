"""Simple Calendar's weekly view as it draws itself: WeeklyViewGrid's lines, the now marker
(weekly_now.9.png), the "+" over a tapped hour and the day-count SeekBar.

WeeklyViewGrid.onDraw: a divider_grey (#55808080) line at the top of each of the 24 rows, each
`rowHeight * i - i / 2` px down, and one at the left of each day's column. The now marker's
nine-patch is a dot at each end of a thin bar, tinted with the primary colour. The seekbar is
Material's: the track, its part up to the thumb in the primary colour, the thumb.

The views describe themselves in `View.canvas`: the grid (rows, days, row height in dp), the
seekbar (progress, max).
"""

from __future__ import annotations

from pytest_mobile_agent.virtual.ui.render.canvas import Canvas
from pytest_mobile_agent.virtual.ui.render.colors import RGB, ink_on, mix
from pytest_mobile_agent.virtual.ui.view import View

GRID_GREY: RGB = (128, 128, 128)
GRID_ALPHA = 0x55 / 255


def draw_week_grid(p: Canvas, v: View, bg: RGB) -> None:
    rows, days, row_dp = v.canvas
    x0, y0, x1, y1 = v.bounds
    line = mix(GRID_GREY, bg, GRID_ALPHA)
    row_px = row_dp * p.s
    for i in range(rows):
        y = y0 + int(row_px * i - i // 2)
        p.rect((x0, y, x1, y + 1), line)
    day_px = (x1 - x0) / days
    for i in range(days):
        x = x0 + int(day_px * i)
        p.rect((x, y0, x + 1, y1), line)


def draw_now_marker(p: Canvas, v: View, color: RGB) -> None:
    x0, y0, x1, y1 = v.bounds
    h = y1 - y0
    d = max(2, round(h * 0.75))  # the dots: 27 of the picture's 36 px
    cy = (y0 + y1) // 2
    bar = max(1, round(h * 0.15))
    p.rect((x0 + d // 2, cy - bar // 2, x1 - d // 2, cy - bar // 2 + bar), color)
    p.disc(x0 + d // 2 + 1, cy, d, color)
    p.disc(x1 - d // 2 - 1, cy, d, color)


def draw_plus(p: Canvas, v: View, color: RGB) -> None:
    """week_grid_item.xml: the hour filled with the primary colour, ic_plus_vector in its contrast."""
    x0, y0, x1, y1 = v.bounds
    p.rect(v.bounds, color)
    p.icon("add", (x0 + x1) // 2, (y0 + y1) // 2, p.dp(24), ink_on(color))


def draw_seekbar(p: Canvas, v: View, color: RGB, bg: RGB) -> None:
    progress, top = v.canvas
    x0, y0, x1, y1 = v.bounds
    pad = p.dp(16)
    left, right = x0 + pad, x1 - pad
    cy = (y0 + y1) // 2
    t = p.dp(2)
    thumb = left + round((right - left) * progress / max(1, top))
    p.rect((left, cy - t // 2, right, cy - t // 2 + t), mix(color, bg, 0.3))
    p.rect((left, cy - t // 2, thumb, cy - t // 2 + t), color)
    p.disc(thumb, cy, p.dp(20), color)
