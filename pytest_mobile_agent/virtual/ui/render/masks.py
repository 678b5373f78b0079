"""Antialiased masks: shapes drawn supersampled on an L image, reduced, and cached.

Shapes with curves (icons, circles, rounded corners) are pasted through these masks, so they
are antialiased without per-pixel work in Python.
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

SS = 4  # supersampling factor of cached masks


class Pen:
    """Draws on a supersampled L mask in a w x h unit grid (icons use 24 x 24)."""

    def __init__(self, draw: ImageDraw.ImageDraw, k: float) -> None:
        self.d, self.k = draw, k

    def _p(self, pts: list[tuple[float, float]]) -> list[tuple[float, float]]:
        return [(x * self.k, y * self.k) for x, y in pts]

    def line(self, pts: list[tuple[float, float]], w: float, ink: int = 255, caps: bool = True) -> None:
        self.d.line(self._p(pts), fill=ink, width=max(1, round(w * self.k)), joint="curve")
        if caps:
            for x, y in (pts[0], pts[-1]):
                self.circle(x, y, w / 2, ink)

    def poly(self, pts: list[tuple[float, float]], ink: int = 255) -> None:
        self.d.polygon(self._p(pts), fill=ink)

    def circle(self, cx: float, cy: float, r: float, ink: int = 255) -> None:
        k = self.k
        self.d.ellipse(((cx - r) * k, (cy - r) * k, (cx + r) * k, (cy + r) * k), fill=ink)

    def ring(self, cx: float, cy: float, r: float, w: float, ink: int = 255) -> None:
        k = self.k
        box = ((cx - r) * k, (cy - r) * k, (cx + r) * k, (cy + r) * k)
        self.d.ellipse(box, outline=ink, width=max(1, round(w * k)))

    def rect(self, x0: float, y0: float, x1: float, y1: float, r: float = 0, ink: int = 255) -> None:
        k = self.k
        self.d.rounded_rectangle((x0 * k, y0 * k, x1 * k - 1, y1 * k - 1), radius=r * k, fill=ink)

    def frame(self, x0: float, y0: float, x1: float, y1: float, r: float, w: float, ink: int = 255) -> None:
        k = self.k
        box = (x0 * k, y0 * k, x1 * k - 1, y1 * k - 1)
        self.d.rounded_rectangle(box, radius=r * k, outline=ink, width=max(1, round(w * k)))

    def arc(self, box: tuple[float, float, float, float], start: float, end: float, w: float) -> None:
        k = self.k
        self.d.arc(tuple(v * k for v in box), start, end, fill=255, width=max(1, round(w * k)))

    def pie(self, box: tuple[float, float, float, float], start: float, end: float, ink: int = 255) -> None:
        self.d.pieslice(tuple(v * self.k for v in box), start, end, fill=ink)


@lru_cache(maxsize=256)
def disc_mask(d: int) -> Image.Image:
    big = Image.new("L", (d * SS, d * SS), 0)
    ImageDraw.Draw(big).ellipse((0, 0, d * SS - 1, d * SS - 1), fill=255)
    return big.reduce(SS)


@lru_cache(maxsize=256)
def ring_mask(d: int, w: int) -> Image.Image:
    big = Image.new("L", (d * SS, d * SS), 0)
    ImageDraw.Draw(big).ellipse((0, 0, d * SS - 1, d * SS - 1), outline=255, width=w * SS)
    return big.reduce(SS)


@lru_cache(maxsize=256)
def corner_masks(r: int) -> tuple[Image.Image, Image.Image, Image.Image, Image.Image]:
    """Quarter discs for the top-left, top-right, bottom-right and bottom-left corners."""
    disc = disc_mask(2 * r)
    return (
        disc.crop((0, 0, r, r)),
        disc.crop((r, 0, 2 * r, r)),
        disc.crop((r, r, 2 * r, 2 * r)),
        disc.crop((0, r, r, 2 * r)),
    )
