"""Done checklist items as Simple Notes draws them: struck through, at alpha 0.4, no background."""

from __future__ import annotations

from PIL import Image

from pytest_mobile_agent.virtual.ui import layout
from pytest_mobile_agent.virtual.ui.render.renderer import ScreenRenderer
from pytest_mobile_agent.virtual.ui.screen import Frame, Window
from pytest_mobile_agent.virtual.ui.view import LINEAR, View


def draw_title(strike: bool = False, alpha: float = 1.0) -> Image.Image:
    r = ScreenRenderer(360, 640, 2.0)
    title = View(kind="text", text="Milk and eggs", text_size=16, height=48, strike=strike, alpha=alpha)
    root = View(LINEAR, children=[title])
    layout.layout(root, (0, r.status_h, 360, 640 - r.nav_h), 2.0)
    x0, y0, x1, y1 = title.bounds
    return r.image(Frame(1, [Window("activity", "p", "a", root)]), "9:00").crop((x0, y0, x1, y1)).convert("L")


def longest_dark_run(img: Image.Image, threshold: int) -> int:
    """The longest horizontal run of pixels darker than threshold, over all rows."""
    best = 0
    for y in range(img.height):
        run = 0
        for x in range(img.width):
            run = run + 1 if img.getpixel((x, y)) < threshold else 0
            best = max(best, run)
    return best


def test_a_done_item_is_struck_through_and_faded() -> None:
    plain, done = draw_title(), draw_title(strike=True, alpha=0.4)
    ink_width = max(x for y in range(plain.height) for x in range(plain.width) if plain.getpixel((x, y)) < 160)
    # A line runs across the whole text; no glyph of the plain text has a stroke that long.
    assert longest_dark_run(done, 235) >= 0.9 * ink_width
    assert longest_dark_run(plain, 235) < 0.3 * ink_width
    # Faded, not highlighted: the darkest ink is lighter, the background stays white.
    assert done.getextrema()[0] > plain.getextrema()[0] + 60
    assert done.getpixel((1, 1)) == plain.getpixel((1, 1)) == 255
