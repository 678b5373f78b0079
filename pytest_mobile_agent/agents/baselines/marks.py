"""Set-of-marks screenshots: each element's box and number drawn on the screen (M3A, AppAgent).

The screenshot is scaled to the size it is sent at first, then drawn on: fewer pixels to draw and
no second resize. Marks are the agents' own and never reach the reports' frames.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

from pytest_mobile_agent.drawing import font
from pytest_mobile_agent.models.messages import decode, fit

if TYPE_CHECKING:
    from PIL import Image

    from pytest_mobile_agent.agents.baselines.elements import Element

BOX = (255, 64, 129)
LABEL_BG = (20, 20, 20)
LABEL_FG = (255, 255, 255)


def screen_image(png: bytes, max_side: int) -> tuple[Image.Image, float]:
    """The screenshot as RGB, fitted into max_side as every image the client sends; and the scale.
    A copy: the caller draws on it."""
    img, scale = _fitted(png, max_side)
    return img.copy(), scale


@lru_cache(maxsize=2)
def _fitted(png: bytes, max_side: int) -> tuple[Image.Image, float]:
    """Decoding and shrinking are most of a marked screenshot's time; a screen that did not change
    (an invalid step, a wait, AppAgent's grid(), a step summary's "before") is not done again."""
    img, factor = fit(decode(png), max_side)
    return img, 1.0 / factor


def draw_marks(img: Image.Image, elements: list[Element], scale: float) -> Image.Image:
    from PIL import ImageDraw

    draw = ImageDraw.Draw(img)
    size = max(10, round(28 * scale))
    width = max(1, round(3 * scale))
    for el in elements:
        l, t, r, b = (round(v * scale) for v in el.bounds)
        draw.rectangle((l, t, max(l, r - 1), max(t, b - 1)), outline=BOX, width=width)
        img.paste(label_stamp(str(el.number), size), (l, t))
    return img


@lru_cache(maxsize=1024)
def label_stamp(label: str, size: int) -> Image.Image:
    """A number's label, white on dark, rendered once per font size and pasted after: rendering the
    text was most of the marks' time, and a screen's numbers repeat from step to step."""
    from PIL import Image, ImageDraw

    f = font(size)
    tl, tt, tr, tb = ImageDraw.Draw(Image.new("RGB", (1, 1))).textbbox((0, 0), label, font=f)
    stamp = Image.new("RGB", (round(tr - tl) + 5, round(tb - tt) + 5), LABEL_BG)
    ImageDraw.Draw(stamp).text((2 - tl, 2 - tt), label, fill=LABEL_FG, font=f)
    return stamp
