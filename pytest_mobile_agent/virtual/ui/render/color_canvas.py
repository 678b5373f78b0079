"""Simple-Commons' colour pickers as they draw themselves: ColorPickerSquare (the hue's colour
across, saturation left to right and value top to bottom, as its two LinearGradients compose),
the hue bar (img_color_picker_hue: 360 at the top down to 0), the ring of the square's cursor
(color_picker_circle) and LineColorPicker's stripes (each one its colour, the chosen one the
full height, the others 10 dp shorter at each end).

The views say what to draw in `View.canvas`: the square (hue, saturation, value), the bar (hue,),
a line (colours, chosen index).
"""

from __future__ import annotations

import colorsys
from functools import lru_cache

from PIL import Image

from pytest_mobile_agent.virtual.ui.render.canvas import Canvas
from pytest_mobile_agent.virtual.ui.render.colors import RGB, WHITE, parse_color
from pytest_mobile_agent.virtual.ui.view import View

LINE_MARGIN_DP = 10  # line_color_picker_margin


def _rgb(h: float, s: float, v: float) -> RGB:
    r, g, b = colorsys.hsv_to_rgb(h / 360 % 1.0, s, v)
    return round(r * 255), round(g * 255), round(b * 255)


@lru_cache(maxsize=8)
def _square(hue: float, w: int, h: int) -> Image.Image:
    across = Image.linear_gradient("L").rotate(90).resize((w, h))  # 0 (white) at the left
    down = Image.linear_gradient("L").resize((w, h))  # 0 at the top: value 1 there
    saturated = Image.composite(Image.new("RGB", (w, h), _rgb(hue, 1, 1)), Image.new("RGB", (w, h), WHITE), across)
    return Image.composite(Image.new("RGB", (w, h), (0, 0, 0)), saturated, down)


@lru_cache(maxsize=4)
def _hue_bar(w: int, h: int) -> Image.Image:
    strip = Image.new("RGB", (1, h))
    for y in range(h):
        strip.putpixel((0, y), _rgb(360 - 360 * y / h, 1, 1))
    return strip.resize((w, h))


def draw_square(p: Canvas, v: View) -> None:
    hue = v.canvas[0]
    x0, y0, x1, y1 = v.bounds
    if x1 > x0 and y1 > y0:
        p.img.paste(_square(round(hue, 1), x1 - x0, y1 - y0), (x0, y0))


def draw_hue_bar(p: Canvas, v: View) -> None:
    x0, y0, x1, y1 = v.bounds
    if x1 > x0 and y1 > y0:
        p.img.paste(_hue_bar(x1 - x0, y1 - y0), (x0, y0))


def draw_cursor(p: Canvas, v: View) -> None:
    x0, y0, x1, y1 = v.bounds
    d = min(x1 - x0, y1 - y0)
    p.ring((x0 + x1) // 2, (y0 + y1) // 2, d, p.dp(2), WHITE)


def draw_line(p: Canvas, v: View) -> None:
    colors, chosen = v.canvas
    x0, y0, x1, y1 = v.bounds
    stripe = (x1 - x0) / max(1, len(colors))  # weighted ImageViews: they share the width
    margin = p.dp(LINE_MARGIN_DP)
    for i, name in enumerate(colors):
        fill = parse_color(name) or WHITE
        inset = 0 if i == chosen else margin
        p.rect((x0 + round(i * stripe), y0 + inset, x0 + round((i + 1) * stripe), y1 - inset), fill)
