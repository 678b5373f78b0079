"""Set-of-marks screenshots: each element's box and number drawn on the screen (M3A, AppAgent).

The screenshot is scaled to the size it is sent at first, then drawn on: fewer pixels to draw and
no second resize. Marks are the agents' own and never reach the reports' frames.
"""

from __future__ import annotations

import io
from typing import TYPE_CHECKING

from ...models.messages import fit
from ...reporting.draw import font

if TYPE_CHECKING:
    from PIL import Image

    from .elements import Element

BOX = (255, 64, 129)
LABEL_BG = (20, 20, 20)
LABEL_FG = (255, 255, 255)


def screen_image(png: bytes, max_side: int) -> tuple[Image.Image, float]:
    """The screenshot as RGB, fitted into max_side as every image the client sends; and the scale."""
    from PIL import Image

    img, factor = fit(Image.open(io.BytesIO(png)), max_side)
    return img, 1.0 / factor


def draw_marks(img: Image.Image, elements: list[Element], scale: float) -> Image.Image:
    from PIL import ImageDraw

    draw = ImageDraw.Draw(img)
    size = max(10, round(28 * scale))
    f = font(size)
    for el in elements:
        l, t, r, b = (round(v * scale) for v in el.bounds)
        draw.rectangle((l, t, max(l, r - 1), max(t, b - 1)), outline=BOX, width=max(1, round(3 * scale)))
        label = str(el.number)
        tl, tt, tr, tb = draw.textbbox((0, 0), label, font=f)
        w, h = tr - tl + 4, tb - tt + 4
        draw.rectangle((l, t, l + w, t + h), fill=LABEL_BG)
        draw.text((l + 2 - tl, t + 2 - tt), label, fill=LABEL_FG, font=f)
    return img
