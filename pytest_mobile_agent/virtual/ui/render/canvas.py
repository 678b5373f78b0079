"""The canvas a screen is drawn on: rectangles, antialiased rounded shapes, icons, shadows, text.

Boxes and positions are in pixels (`dp` converts), text sizes in dp, colours RGB tuples.
Curved shapes are pasted through cached masks (masks.py, glyphs.py); text is laid out and
rasterized by text.py.
"""

from __future__ import annotations

from PIL import Image, ImageDraw

from pytest_mobile_agent.virtual.ui.render.colors import DAY, RGB, Theme
from pytest_mobile_agent.virtual.ui.render.glyphs import GLYPHS, glyph_mask, glyph_name
from pytest_mobile_agent.virtual.ui.render.masks import corner_masks, disc_mask, ring_mask
from pytest_mobile_agent.virtual.ui.render.text import Fonts, fit

Box = tuple[int, int, int, int]
DIM = 0.42  # brightness left under a dialog's scrim
SCRIM = [round(v * DIM) for v in range(256)] * 3  # Image.point's table, per band


class Canvas:
    """A screen-sized RGB picture and the primitives views are drawn with."""

    def __init__(
        self, width: int, height: int, scale: float, fonts: Fonts, theme: Theme = DAY, font_scale: float = 1.0
    ) -> None:
        self.s, self.fonts = scale, fonts
        self.theme = theme  # the colours views leave to the theme (day or night)
        self.font_scale = font_scale  # settings' system font_scale: text sizes are sp
        self.img = Image.new("RGB", (width, height), theme.background)
        self.d = ImageDraw.Draw(self.img)
        self._blend: ImageDraw.ImageDraw | None = None
        # (name, "material" | "shape" | "fallback") of every icon asked for: the fidelity
        # benchmark counts what the Material font drew and what fell back to a letter.
        self.icons: list[tuple[str, str]] = []

    def dp(self, v: float) -> int:
        return round(v * self.s)

    def sp(self, size: float) -> int:
        """A text size in px: sp are dp times the font scale (at least 6 px, to stay drawable)."""
        return max(6, round(size * self.s * self.font_scale))

    @property
    def blend(self) -> ImageDraw.ImageDraw:
        """A draw that composites translucent fills (shadows)."""
        if self._blend is None:
            self._blend = ImageDraw.Draw(self.img, "RGBA")
        return self._blend

    def dim(self) -> None:
        """Darkens everything drawn so far, as the scrim under a dialog does."""
        self.img = self.img.point(SCRIM)
        self.d = ImageDraw.Draw(self.img)
        self._blend = None

    def rect(self, box: Box, fill: RGB) -> None:
        if box[2] > box[0] and box[3] > box[1]:
            self.d.rectangle((box[0], box[1], box[2] - 1, box[3] - 1), fill=fill)

    def rrect(self, box: Box, r: int, fill: RGB, corners: tuple[bool, bool, bool, bool] = (True,) * 4) -> None:
        """Rounded rectangle with antialiased corners (tl, tr, br, bl)."""
        x0, y0, x1, y1 = box
        r = max(0, min(r, (x1 - x0) // 2, (y1 - y0) // 2))
        if r < 2:
            return self.rect(box, fill)
        self.rect((x0 + r, y0, x1 - r, y1), fill)
        self.rect((x0, y0 + r, x0 + r, y1 - r), fill)
        self.rect((x1 - r, y0 + r, x1, y1 - r), fill)
        masks = corner_masks(r)
        spots = ((x0, y0), (x1 - r, y0), (x1 - r, y1 - r), (x0, y1 - r))
        for mask, spot, round_ in zip(masks, spots, corners, strict=True):
            if round_:
                self.img.paste(fill, (*spot, spot[0] + r, spot[1] + r), mask)
            else:
                self.rect((*spot, spot[0] + r, spot[1] + r), fill)

    def disc(self, cx: int, cy: int, d: int, fill: RGB) -> None:
        if d > 0:
            self.img.paste(fill, (cx - d // 2, cy - d // 2, cx - d // 2 + d, cy - d // 2 + d), disc_mask(d))

    def ring(self, cx: int, cy: int, d: int, w: int, fill: RGB) -> None:
        if d > 0:
            self.img.paste(fill, (cx - d // 2, cy - d // 2, cx - d // 2 + d, cy - d // 2 + d), ring_mask(d, w))

    def icon(self, name: str, cx: int, cy: int, px: int, fill: RGB) -> bool:
        """Draws a glyph centred at (cx, cy); False when the name is unknown."""
        g = glyph_name(name)
        if g is None or px <= 0:
            self.icons.append((name, "fallback"))
            return False
        self.icons.append((name, "shape" if g in GLYPHS else "material"))
        x, y = cx - px // 2, cy - px // 2
        self.img.paste(fill, (x, y, x + px, y + px), glyph_mask(g, px))
        return True

    def shadow(self, box: Box, r: int, depth: int) -> None:
        """A soft drop shadow: translucent outlines growing outwards, a little lower."""
        x0, y0, x1, y1 = box
        drop = max(1, depth // 3)
        for i in range(1, depth + 1):
            a = round(40 * (1 - i / (depth + 1)) ** 2)
            if a:
                b = (x0 - i, y0 - i + drop, x1 + i - 1, y1 + i - 1 + drop)
                self.blend.rounded_rectangle(b, radius=r + i, outline=(0, 0, 0, a), width=1)

    def text(
        self,
        box: Box,
        text: str,
        size: float,
        color: RGB,
        *,
        bold: bool = False,
        align: str = "start",
        valign: str = "auto",
        wrap: bool = True,
        strike: bool = False,
        ellipsize: str = "end",
    ) -> tuple[int, int]:
        """Text in a box, ellipsized or wrapped; returns where the last line ends (caret spot).
        `ellipsize`: android:ellipsize ("end", "middle", or "" to cut without an ellipsis)."""
        x0, y0, x1, y1 = box
        px = self.sp(size)
        if not text or x1 <= x0:
            return x0, (y0 + y1) // 2
        line_h = round(px * 1.32)
        width = x1 - x0
        max_lines = max(1, (y1 - y0) // line_h) if wrap else 1
        lines = self.fonts.layout(text, px, width, max_lines, ellipsize)
        block = line_h * len(lines)
        if valign == "auto":
            valign = "center" if len(lines) == 1 or block * 2 >= (y1 - y0) else "top"
        top = y0 + (y1 - y0 - block) // 2 if valign == "center" else y0
        # The bundled font has no bold face; a thin stroke of the same colour emboldens it.
        stroke = max(1, round(px / 40)) if bold else 0
        end = (x0, top + line_h // 2)
        for i, line in enumerate(lines):
            cy = top + i * line_h + line_h // 2
            pieces, advance = self.fonts.line(line, px, stroke)
            if align == "center":
                x = x0 + (width - advance) // 2
            elif align == "end":
                x = x1 - advance
            else:
                x = x0
            for mask, dx, dy in pieces:
                self.img.paste(color, (x + dx, cy + dy, x + dx + mask.width, cy + dy + mask.height), mask)
            if strike:  # through the middle of the x-height, as the paint flag draws it
                t = max(1, round(px / 18))
                self.rect((x, cy - t // 2, x + advance, cy - t // 2 + t), color)
            end = (x + advance, cy)
        return end

    def text_at(self, x: int, baseline: int, text: str, px: int, color: RGB, align: str = "start") -> None:
        """One line on a canvas, placed by its baseline as Canvas.drawText does."""
        if not text:
            return
        pieces, advance = self.fonts.line(text, px, 0)
        ascent, descent = self.fonts.get(px).getmetrics()
        cy = baseline - (ascent - descent) // 2
        x -= advance // 2 if align == "center" else 0
        for mask, dx, dy in pieces:
            self.img.paste(color, (x + dx, cy + dy, x + dx + mask.width, cy + dy + mask.height), mask)

    def fitted_length(self, text: str, px: int, width: float) -> int:
        """len(TextUtils.ellipsize(text, width, END)): the characters a cut line keeps, its "…" counted."""
        return len(fit(lambda t: self.fonts.length(t, px), text, width))
