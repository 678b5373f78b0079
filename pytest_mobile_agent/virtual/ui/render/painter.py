"""Painting the screen: each view drawn by its kind (text, button, edit, row, dialog...), and the bars.

A view's `kind` picks its `k_<kind>` method, which draws the view and returns the background
its children sit on; views of no known kind show their text. The status and navigation bars
are drawn here, the same for every app.
"""

from __future__ import annotations

import io
import zlib
from functools import lru_cache

from PIL import Image, ImageDraw

from pytest_mobile_agent.virtual.ui.render.canvas import Box, Canvas
from pytest_mobile_agent.virtual.ui.render.color_canvas import draw_cursor, draw_hue_bar, draw_line, draw_square
from pytest_mobile_agent.virtual.ui.render.colors import (
    ACCENT,
    DAY,
    DISABLED,
    DIVIDER,
    HINT,
    NAV_BG,
    NAV_FG,
    NO_COLOR,
    PRIMARY,
    RGB,
    TEXT,
    TEXT_2,
    TOAST_BG,
    WHITE,
    Theme,
    hsv,
    ink_on,
    is_dark,
    lum,
    mix,
    parse_color,
    seeded,
)
from pytest_mobile_agent.virtual.ui.render.media import (
    FILE_BANDS,
    FILE_LABELS,
    GENERIC_BAND,
    extension,
    picture,
    rounded_mask,
)
from pytest_mobile_agent.virtual.ui.render.month_canvas import draw_month
from pytest_mobile_agent.virtual.ui.render.text import Fonts
from pytest_mobile_agent.virtual.ui.render.week_canvas import draw_now_marker, draw_plus, draw_seekbar, draw_week_grid
from pytest_mobile_agent.virtual.ui.screen import Window
from pytest_mobile_agent.virtual.ui.view import View

KEY_GLYPHS = {"⌫": "backspace", "⏎": "enter"}  # key caps the bundled font cannot draw


class Painter(Canvas):
    """Draws one screen; lives for a single render."""

    def __init__(
        self, width: int, height: int, scale: float, fonts: Fonts, theme: Theme = DAY, font_scale: float = 1.0
    ) -> None:
        super().__init__(width, height, scale, fonts, theme, font_scale)
        self.win_kind = "activity"

    # the screen
    def window(self, win: Window) -> None:
        root = win.root
        self.win_kind = win.kind
        chrome = win.kind if win.kind in ("dialog", "menu", "sheet", "keyboard", "toast") else ""
        if chrome and root.kind != chrome:
            # A window whose root is not dressed as its kind still gets its frame.
            self.view(root, self.theme.background, True, chrome)
        else:
            self.view(root, self.theme.background, True)

    def view(self, v: View, bg: RGB, enabled: bool, kind: str | None = None) -> None:
        if not v.shown:
            return
        enabled = enabled and v.enabled
        kind = v.kind if kind is None else kind
        handler = getattr(self, "k_" + kind, None) if kind else self.k_text
        child_bg = (handler or self.k_unknown)(v, bg, enabled)
        if child_bg is None:
            child_bg = bg
        if not v.children:
            return
        if v.scrollable:
            return self._clipped(v, child_bg, enabled)
        for child in v.children:
            self.view(child, child_bg, enabled)

    def _clipped(self, v: View, bg: RGB, enabled: bool) -> None:
        """Children of a scrolling container, cut to its viewport: draw, then restore outside."""
        cx0, cy0, cx1, cy1 = v.visible_bounds
        ux0, uy0, ux1, uy1 = cx0, cy0, cx1, cy1
        for child in v.children:
            for d in child.walk():
                if d.shown:
                    b = d.bounds
                    ux0, uy0, ux1, uy1 = min(ux0, b[0]), min(uy0, b[1]), max(ux1, b[2]), max(uy1, b[3])
        w, h = self.img.size
        ux0, uy0, ux1, uy1 = max(ux0, 0), max(uy0, 0), min(ux1, w), min(uy1, h)
        strips = [
            (ux0, uy0, ux1, cy0),
            (ux0, cy1, ux1, uy1),
            (ux0, cy0, cx0, cy1),
            (cx1, cy0, ux1, cy1),
        ]
        saved = [(s, self.img.crop(s)) for s in strips if s[2] > s[0] and s[3] > s[1]]
        for child in v.children:
            self.view(child, bg, enabled)
        for s, piece in saved:
            self.img.paste(piece, s[:2])

    def _inner(self, v: View, min_pad: float = 0) -> Box:
        p = max(self.dp(v.padding), self.dp(min_pad))
        x0, y0, x1, y1 = v.bounds
        return x0 + p, y0 + p, x1 - p, y1 - p

    def _fg(self, bg: RGB, enabled: bool, size: float = 16, bold: bool = False) -> RGB:
        fg = self.theme.text if bg == self.theme.background else ink_on(bg)
        if fg == TEXT and size <= 14 and not bold:
            fg = TEXT_2
        return fg if enabled else mix(fg, bg, 0.45)

    def _themed(self, bg: RGB) -> bool:
        """Whether `bg` is light or the theme's own background, where accents take the primary
        colour (on other dark surfaces, a photo viewer's bars, they are white)."""
        return not is_dark(bg) or bg in (self.theme.background, self.theme.dialog)

    def _align(self, v: View) -> str:
        return v.gravity if v.gravity in ("center", "end") else "start"

    def _fill(self, v: View, bg: RGB) -> RGB:
        """Fills a view's own background colour; the background its content sits on."""
        c = self.theme.color(v.color) if v.color else None
        if c is None:
            return bg
        self.rect(v.bounds, c)
        return c

    # kinds: each draws the view itself and returns the background its children sit on
    def k_text(self, v: View, bg: RGB, enabled: bool) -> RGB:
        bg = self._fill(v, bg)
        if v.text and not v.children:
            tint = parse_color(v.tint) if v.tint else None  # setTextColor, where the app sets one
            fg = mix(tint or self._fg(bg, enabled, v.text_size, v.bold), bg, v.alpha)
            box, align = self._inner(v), self._align(v)
            self.text(box, v.text, v.text_size, fg, bold=v.bold, align=align, strike=v.strike, ellipsize=v.ellipsize)
        return bg

    def k_unknown(self, v: View, bg: RGB, enabled: bool) -> RGB:
        if v.text and not v.children:
            fg = self._fg(bg, enabled, v.text_size, v.bold)
            self.text(self._inner(v), v.text, v.text_size, fg, bold=v.bold, align=self._align(v))
        return bg

    def k_toolbar(self, v: View, bg: RGB, enabled: bool) -> RGB:
        c = parse_color(v.color) if v.color else PRIMARY
        c = c or bg
        x0, _, x1, y1 = v.bounds
        self.rect(v.bounds, c)
        for i in range(self.dp(3)):  # elevation
            a = round(46 * (1 - i / self.dp(3)) ** 2)
            self.blend.line((x0, y1 + i, x1 - 1, y1 + i), fill=(0, 0, 0, a))
        if v.text and not v.children:
            size = _size(v, 20)
            self.text(self._inner(v, 16), v.text, size, ink_on(c), bold=True)
        return c

    def k_button(self, v: View, bg: RGB, enabled: bool) -> RGB:
        x0, y0, x1, y1 = v.bounds
        inset = self.dp(4) if y1 - y0 >= self.dp(40) else self.dp(1)
        box = (x0 + self.dp(2), y0 + inset, x1 - self.dp(2), y1 - inset)
        named = v.color.strip().lower() in NO_COLOR if v.color else False
        c = parse_color(v.color) if v.color else PRIMARY
        if named or c is None or (not v.color and self.win_kind in ("dialog", "menu", "sheet")):
            # A text button (dialogs): coloured label, no container.
            fg = (PRIMARY if self._themed(bg) else WHITE) if enabled else mix(ink_on(bg), bg, 0.45)
            size = _size(v, 15)
            self.text(box, v.text, size, fg, bold=True, align="center", wrap=False)
            return bg
        if not enabled:
            c = (224, 224, 224)
        # Ordinary buttons are pills; tall grid keys (a calculator's) are rounded squares.
        self.rrect(box, min((box[3] - box[1]) // 2, self.dp(20)), c)
        fg = ink_on(c) if enabled else (158, 158, 158)
        if v.text and not v.children:
            size = _size(v, 15)
            pad = self.dp(12)
            label = (box[0] + pad, box[1], box[2] - pad, box[3])
            self.text(label, v.text, size, fg, bold=True, align="center", wrap=False)
        return c

    def k_icon(self, v: View, bg: RGB, enabled: bool) -> RGB:
        x0, y0, x1, y1 = v.bounds
        cx, cy = (x0 + x1) // 2, (y0 + y1) // 2
        side = min(x1 - x0, y1 - y0)
        c = parse_color(v.color) if v.color else None
        if c is not None:
            self.disc(cx, cy, side - self.dp(4), c)
            bg = c
        fg = (ink_on(bg) if is_dark(bg) else (84, 88, 92)) if enabled else mix(ink_on(bg), bg, 0.4)
        tint = parse_color(v.tint) if v.tint else None
        fg = mix(tint or fg, bg, v.alpha)
        px = min(self.dp(24), round(side * (0.5 if c is not None else 0.62)))
        if v.icon and self.icon(v.icon, cx, cy, px, fg):
            return bg
        if not (v.icon or v.desc or v.text):
            return bg  # a colour swatch (its disc drawn above) or a divider: nothing to letter
        if v.icon and len(v.icon) <= 2:
            self.text(v.bounds, v.icon, px / self.s, fg, align="center", wrap=False)
        elif v.text and not v.icon:
            self.text(self._inner(v, 4), v.text, _size(v, 14), fg, bold=True, align="center", wrap=False)
        elif c is not None:  # already on a coloured disc: the letter alone
            self.text(v.bounds, (v.icon or v.desc or "?")[:1].upper(), px / self.s, fg, bold=True, align="center")
        else:
            self._letter(v.icon or v.desc or v.text or "?", cx, cy, px, fg, bg)
        return bg

    def _letter(self, name: str, cx: int, cy: int, d: int, color: RGB, bg: RGB) -> None:
        """Fallback icon: the name's first letter in a circle."""
        self.disc(cx, cy, d, color)
        ch = name.strip()[:1].upper() or "?"
        box = (cx - d, cy - d, cx + d, cy + d)
        self.text(box, ch, d * 0.55 / self.s, ink_on(color), bold=True, align="center", wrap=False)

    def k_edit(self, v: View, bg: RGB, enabled: bool) -> RGB:
        x0, y0, x1, y1 = v.bounds
        c = parse_color(v.color) if v.color else None
        if c is not None:
            self.rrect((x0, y0, x1, y1), self.dp(6), c)
            bg = c
        dark = is_dark(bg)
        accent = PRIMARY if self._themed(bg) else WHITE
        if c is None:
            line = accent if v.focused else ((200, 200, 200) if dark else (160, 160, 160))
            th = self.dp(2) if v.focused else max(1, self.dp(1))
            self.rect((x0 + self.dp(2), y1 - self.dp(5) - th, x1 - self.dp(2), y1 - self.dp(5)), line)
        box = self._inner(v, 4)
        box = (box[0], box[1], box[2], y1 - self.dp(6))
        size = v.text_size
        line_h = round(self.sp(size) * 1.32)
        # A tall field (a note body) fills from the top; a one-line field centres its text.
        valign = "top" if box[3] - box[1] >= 3 * line_h else "center"
        align = self._align(v)
        if v.text:
            fg = self._fg(bg, enabled, max(size, 15))
            if v.password:
                end = self._dots(box, len(v.text), size, fg)
            else:
                end = self.text(box, v.text, size, fg, align=align, valign=valign)
        else:
            if v.hint:
                hint = mix(ink_on(bg), bg, 0.55) if dark else HINT
                self.text(box, v.hint, size, hint, align=align, valign=valign)
            cy = box[1] + line_h // 2 if valign == "top" else (box[1] + box[3]) // 2
            end = ((box[0] + box[2]) // 2 if align == "center" else box[0], cy)
        if v.focused and enabled:
            # Android draws the cursor from the line's top to its bottom, its left edge at the
            # glyph advance minus half a pixel (Editor.clampHorizontalPosition, Layout.getCursorPath):
            # text_cursor_material's 2dp bar in the accent colour, or with textCursorDrawable="@null"
            # a hairline in the text colour. Drawn in its shown phase: it blinks 500 ms on, 500 ms off,
            # shown from each edit on (Editor.Blink), so a screenshot right after typing has it.
            hairline = v.cursor == "hairline"
            w = 1 if hairline else self.dp(2)
            x = min(max(end[0] - 1, box[0]), box[2] - w)
            color = self._fg(bg, enabled, max(size, 15)) if hairline else accent
            self.rect((x, end[1] - line_h // 2, x + w, end[1] + line_h - line_h // 2), color)
        return bg

    def _dots(self, box: Box, n: int, size: float, color: RGB) -> tuple[int, int]:
        d = self.dp(size * 0.42)
        step = self.dp(size * 0.62)
        cy = (box[1] + box[3]) // 2
        n = min(n, max(0, (box[2] - box[0]) // max(1, step)))
        for i in range(n):
            self.disc(box[0] + d // 2 + i * step, cy, d, color)
        return box[0] + n * step, cy

    def _control_text(self, v: View, box: Box, bg: RGB, enabled: bool) -> None:
        if v.text and not v.children:
            fg = self._fg(bg, enabled, max(v.text_size, 15), v.bold)
            self.text(box, v.text, v.text_size, fg, bold=v.bold)

    def _control_spot(self, v: View, width: int, at_end: bool) -> tuple[int, Box]:
        """Where a control sits (its centre x) and what is left for its label."""
        x0, y0, x1, y1 = self._inner(v)
        margin = self.dp(12)
        if not v.text:
            return (x0 + x1) // 2, (x1, y0, x1, y1)
        if at_end:
            cx = x1 - margin - width // 2
            return cx, (x0 + self.dp(4), y0, cx - width // 2 - margin, y1)
        cx = x0 + margin + width // 2
        return cx, (cx + width // 2 + margin, y0, x1 - self.dp(4), y1)

    def k_checkbox(self, v: View, bg: RGB, enabled: bool) -> RGB:
        bg = self._fill(v, bg)
        side = self.dp(18)
        # Wide checkboxes are settings rows, where the box sits at the end.
        wide = v.bounds[2] - v.bounds[0] >= 0.7 * self.img.size[0]
        cx, label = self._control_spot(v, side, at_end=wide)
        cy = (v.bounds[1] + v.bounds[3]) // 2
        box = (cx - side // 2, cy - side // 2, cx - side // 2 + side, cy - side // 2 + side)
        on = PRIMARY if enabled else DISABLED
        if v.checked:
            self.rrect(box, self.dp(2), on)
            self.icon("check", cx, cy, round(side * 0.95), WHITE)
        else:
            self.rrect(box, self.dp(2), (117, 117, 117) if enabled else DISABLED)
            t = self.dp(2)
            self.rect((box[0] + t, box[1] + t, box[2] - t, box[3] - t), bg)
        self._control_text(v, label, bg, enabled)
        return bg

    def k_radio(self, v: View, bg: RGB, enabled: bool) -> RGB:
        bg = self._fill(v, bg)
        d = self.dp(20)
        cx, label = self._control_spot(v, d, at_end=False)
        cy = (v.bounds[1] + v.bounds[3]) // 2
        on = PRIMARY if enabled else DISABLED
        self.ring(cx, cy, d, self.dp(2), on if v.checked else ((117, 117, 117) if enabled else DISABLED))
        if v.checked:
            self.disc(cx, cy, self.dp(10), on)
        self._control_text(v, label, bg, enabled)
        return bg

    def k_switch(self, v: View, bg: RGB, enabled: bool) -> RGB:
        bg = self._fill(v, bg)
        w, h, thumb = self.dp(36), self.dp(14), self.dp(20)
        cx, label = self._control_spot(v, w, at_end=True)
        cy = (v.bounds[1] + v.bounds[3]) // 2
        on = PRIMARY if enabled else DISABLED
        track = mix(on, WHITE, 0.5) if v.checked else (189, 189, 189)
        self.rrect((cx - w // 2, cy - h // 2, cx + w // 2, cy - h // 2 + h), h // 2, track)
        tx = cx + w // 2 - thumb // 2 if v.checked else cx - w // 2 + thumb // 2
        self.disc(tx, cy + self.dp(1), thumb + self.dp(1), mix((0, 0, 0), bg, 0.18))
        self.disc(tx, cy, thumb, on if v.checked else (250, 250, 250))
        self._control_text(v, label, bg, enabled)
        return bg

    def k_row(self, v: View, bg: RGB, enabled: bool) -> RGB:
        c = self.theme.color(v.color) if v.color else None
        if c is None and (v.selected or v.checked):
            c = self.theme.selected_row
        if c is not None:
            self.rect(v.bounds, c)
            bg = c
        x0, _, x1, y1 = v.bounds
        if self.win_kind == "activity":  # popup and dialog lists have no dividers
            self.rect((x0, y1 - 1, x1, y1), mix(DIVIDER, bg, 0.9) if not is_dark(bg) else mix(WHITE, bg, 0.15))
        if v.text and not v.children:
            fg = self._fg(bg, enabled, max(v.text_size, 15), v.bold)
            self.text(self._inner(v, 16), v.text, v.text_size, fg, bold=v.bold, align=self._align(v))
        return bg

    def k_bubble(self, v: View, bg: RGB, enabled: bool) -> RGB:
        """A message bubble: its colour in a rounded rectangle (the messenger's corners of
        section_margin, 20dp), the text inside its padding, no row divider."""
        c = parse_color(v.color) if v.color else None
        if c is None or v.selected or v.checked:
            c = self.theme.selected_row if v.selected or v.checked else mix(TEXT, bg, 0.08)
        self.rrect(v.bounds, self.dp(20), c)
        if v.text:
            box = self._inner(v)
            if "\n" not in v.text and self.fonts.length(v.text, self.sp(v.text_size)) > box[2] - box[0]:
                # The layout's width estimate fell short of a short word ("ok"): a phone's bubble
                # wraps its text, so the padding gives way rather than the text.
                box = (v.bounds[0] + self.dp(4), box[1], v.bounds[2] - self.dp(4), box[3])
            self.text(box, v.text, v.text_size, self._fg(c, enabled, v.text_size), align="center")
        return c

    def k_fab(self, v: View, bg: RGB, enabled: bool) -> RGB:
        x0, y0, x1, y1 = v.bounds
        d = min(x1 - x0, y1 - y0) - self.dp(4)
        cx, cy = (x0 + x1) // 2, (y0 + y1) // 2
        c = (parse_color(v.color) if v.color else None) or ACCENT
        if not enabled:
            c = DISABLED
        for i in range(self.dp(4), 0, -1):  # soft shadow below the button
            self.disc(cx, cy + self.dp(2), d + 2 * i, mix((0, 0, 0), bg, 0.05 + 0.1 * (1 - i / self.dp(4))))
        self.disc(cx, cy, d, c)
        px = min(self.dp(24), round(d * 0.45))
        if not self.icon(v.icon or "add", cx, cy, px, ink_on(c)):
            ch = (v.icon or v.text or "+")[:1].upper()
            self.text(v.bounds, ch, px / self.s, ink_on(c), bold=True, align="center", wrap=False)
        return c

    def k_tab(self, v: View, bg: RGB, enabled: bool) -> RGB:
        bg = self._fill(v, bg)
        if v.selected:
            fg, bar = (PRIMARY, PRIMARY) if self._themed(bg) else (WHITE, WHITE)
        else:
            fg, bar = mix(ink_on(bg), bg, 0.7), bg
        if v.text and not v.children:
            size = _size(v, 14)
            self.text(self._inner(v, 8), v.text.upper(), size, fg, bold=True, align="center", wrap=False)
        if v.selected:
            x0, _, x1, y1 = v.bounds
            self.rect((x0, y1 - self.dp(3), x1, y1), bar)
        return bg

    def k_appicon(self, v: View, bg: RGB, enabled: bool) -> RGB:
        x0, y0, x1, y1 = v.bounds
        label_h = round(self.sp(v.text_size) * 1.5) if v.text else 0
        d = max(0, min(x1 - x0 - self.dp(12), y1 - y0 - label_h - self.dp(12), self.dp(56)))
        cx = (x0 + x1) // 2
        cy = y0 + (y1 - y0 - label_h - d) // 2 + d // 2
        c = (parse_color(v.color) if v.color else None) or seeded(v.icon or v.text or v.id)
        self.disc(cx, cy + self.dp(1), d + self.dp(2), mix((0, 0, 0), bg, 0.12))
        self.disc(cx, cy, d, c)
        px = round(d * 0.5)
        if not (v.icon and self.icon(v.icon, cx, cy, px, WHITE)):
            ch = v.icon if v.icon and len(v.icon) <= 2 else (v.text or v.icon or "?")[:1].upper()
            self.text((cx - d, cy - d, cx + d, cy + d), ch, px / self.s, WHITE, bold=True, align="center", wrap=False)
        if v.text:
            fg = ink_on(bg) if enabled else mix(ink_on(bg), bg, 0.45)
            top = cy + d // 2 + self.dp(4)
            label = (x0 + self.dp(2), top, x1 - self.dp(2), top + label_h)
            self.text(label, v.text, v.text_size, fg, align="center", wrap=False)
        return bg

    def k_image(self, v: View, bg: RGB, enabled: bool) -> RGB:
        x0, y0, x1, y1 = v.bounds
        seed = zlib.crc32((v.text or v.id or v.key or v.desc).encode())
        h = (seed & 0xFFFF) / 0xFFFF
        sky = hsv(h, 0.35, 0.95)
        ground = hsv((h + 0.08) % 1, 0.55, 0.55 + 0.2 * ((seed >> 16) & 0xFF) / 255)
        far = mix(ground, sky, 0.55)
        self.rect(v.bounds, sky)
        w, hh = x1 - x0, y1 - y0
        if w < 4 or hh < 4:
            return bg
        peak = 0.25 + 0.5 * ((seed >> 8) & 0xFF) / 255
        # Two ranges of hills under a sun: reads as "a photo" at any size.
        for top, crest, right, c in ((0.62, (peak, 0.32), 0.7, far), (0.8, (1 - peak * 0.8, 0.5), 0.78, ground)):
            hill = [(x0, y1), (x0, y0 + hh * top), (x0 + w * crest[0], y0 + hh * crest[1]), (x1, y0 + hh * right)]
            self.d.polygon([*hill, (x1, y1)], fill=c)
        sun = max(2, round(min(w, hh) * 0.16))
        self.disc(x0 + round(w * (0.2 + 0.6 * (1 - peak))), y0 + round(hh * 0.24), sun, hsv((h + 0.12) % 1, 0.5, 1.0))
        return bg

    k_thumb = k_image

    def k_cover(self, v: View, bg: RGB, enabled: bool) -> RGB:
        """An album cover as Glide loads it: `canvas` = (image bytes, corner radius in dp),
        centre-cropped to the view; bytes that are not an image (or none) show the view's
        placeholder icon in the text colour, as the apps' error drawable."""
        x0, y0, x1, y1 = v.bounds
        w, h = x1 - x0, y1 - y0
        data, radius = (v.canvas + (b"", 0))[:2] if v.canvas else (b"", 0)
        picture = _decoded(data) if data and w > 0 and h > 0 else None
        if picture is None:
            fg = mix(ink_on(bg), bg, v.alpha)
            side = min(w, h) - 2 * self.dp(v.padding)
            if v.icon and side > 0:
                self.icon(v.icon, (x0 + x1) // 2, (y0 + y1) // 2, side, fg)
            return bg
        scale = max(w / picture.width, h / picture.height)
        fitted = picture.resize((max(w, round(picture.width * scale)), max(h, round(picture.height * scale))))
        left, top = (fitted.width - w) // 2, (fitted.height - h) // 2
        fitted = fitted.crop((left, top, left + w, top + h))
        r = self.dp(radius)
        mask = None
        if r > 0:
            mask = Image.new("L", (w, h), 0)
            ImageDraw.Draw(mask).rounded_rectangle((0, 0, w - 1, h - 1), r, fill=255)
        self.img.paste(fitted, (x0, y0), mask)
        return bg

    def k_seekbar(self, v: View, bg: RGB, enabled: bool) -> RGB:
        """A Material SeekBar (MySeekBar: track and thumb in the primary colour): `canvas` =
        (progress, max); the track runs inside the view's padding."""
        progress, top = (v.canvas + (0, 0))[:2] if v.canvas else (0, 0)
        x0, x1 = v.bounds[0] + self.dp(v.padding), v.bounds[2] - self.dp(v.padding)
        cy = (v.bounds[1] + v.bounds[3]) // 2
        c = (parse_color(v.tint) if v.tint else None) or PRIMARY
        if not enabled:
            c = DISABLED
        t = max(1, self.dp(2))
        self.rect((x0, cy - t // 2, x1, cy - t // 2 + t), mix(c, bg, 0.3))
        at = x0 + round((x1 - x0) * (min(max(progress / top, 0.0), 1.0) if top > 0 else 0.0))
        self.rect((x0, cy - t // 2, at, cy - t // 2 + t), c)
        self.disc(at, cy, self.dp(16), c)
        return bg

    def k_media(self, v: View, bg: RGB, enabled: bool) -> RGB:
        """An ImageView showing a file (View.media): its own pixels, cropped to the view or fitted
        and centred; a file that cannot be decoded leaves the view empty, as Glide leaves an
        ImageView whose load failed, or shows its type's sheet where the app sets that as the
        error drawable (Media.error "file_type")."""
        bg = self._fill(v, bg)
        m = v.media
        x0, y0, x1, y1 = self._inner(v)
        pic = picture(m, x1 - x0, y1 - y0) if m is not None else None
        if pic is None:
            if m is not None and m.error == "file_type":
                self._file_type((x0, y0, x1, y1), extension(m.path))
            return bg
        at = (x0 + (x1 - x0 - pic.width) // 2, y0 + (y1 - y0 - pic.height) // 2)
        r = self.dp(m.corners) if m is not None else 0
        self.img.paste(pic, at, rounded_mask(pic.width, pic.height, r) if r > 1 else None)
        return bg

    def _file_type(self, box: Box, ext: str) -> None:
        """Simple-Commons' ic_file_<type> drawable (a 56-unit viewport): a paper sheet with a
        folded corner and the type's colour in a band across its bottom, its name in white (three
        dots on the generic one)."""
        x0, y0, x1, y1 = box
        side = min(x1 - x0, y1 - y0)
        u = side / 56
        ox, oy = x0 + (x1 - x0 - side) / 2, y0 + (y1 - y0 - side) / 2

        def at(x: float, y: float) -> tuple[float, float]:
            return ox + x * u, oy + y * u

        self.d.polygon([at(6.5, 0), at(37, 0), at(49.5, 12.5), at(49.5, 56), at(6.5, 56)], fill=(233, 233, 224))
        self.d.polygon([at(37.5, 0), at(37.5, 12), at(49.5, 12)], fill=(217, 215, 202))
        band = (round(ox + 6.5 * u), round(oy + 39 * u), round(ox + 49.5 * u), round(oy + 56 * u))
        self.rect(band, parse_color(FILE_BANDS.get(ext, GENERIC_BAND)) or WHITE)
        if ext in FILE_BANDS:
            label = FILE_LABELS.get(ext, ext.upper())
            self.text(band, label, 10 * u / self.s, WHITE, bold=True, align="center", wrap=False)
        else:
            for dx in (18.5, 28.5, 38.5):
                cx, cy = at(dx, 47)
                self.disc(round(cx), round(cy), max(2, round(6 * u)), WHITE)

    def k_scrim(self, v: View, bg: RGB, enabled: bool) -> RGB:
        """gradient_background (angle 90): 80% black (#CC000000) at the bottom fading to
        transparent at the top, the shade under captions laid over a picture."""
        x0, y0, x1, y1 = v.bounds
        h = max(1, y1 - y0 - 1)
        for i in range(y1 - y0):
            self.blend.line((x0, y0 + i, x1 - 1, y0 + i), fill=(0, 0, 0, round(0xCC * i / h)))
        return bg

    def k_caption(self, v: View, bg: RGB, enabled: bool) -> RGB:
        """A transparent container over a picture's scrim: nothing of its own; its texts and
        icons take white, as the layouts set them (textColor white)."""
        return (48, 48, 48)

    def k_play(self, v: View, bg: RGB, enabled: bool) -> RGB:
        """ic_play_outline_vector, the video mark over a thumbnail or a video's page: a white play
        arrow on a disc of 40% black."""
        x0, y0, x1, y1 = v.bounds
        side = min(x1 - x0, y1 - y0)
        cx, cy, r = (x0 + x1) / 2, (y0 + y1) / 2, side * 11.3 / 24
        self.blend.ellipse((cx - r, cy - r, cx + r, cy + r), fill=(0, 0, 0, 102))
        self.icon("play_arrow", round(cx), round(cy), round(side * 0.62), WHITE)
        return bg

    def k_progress(self, v: View, bg: RGB, enabled: bool) -> RGB:
        """Material's LinearProgressIndicator: a 4 dp track in the indicator colour at 25 %
        (LOWER_ALPHA) and the indicator over the share `canvas` = (progress 0..1,) gives."""
        x0, y0, x1, y1 = v.bounds
        t = min(self.dp(4), y1 - y0)
        y = (y0 + y1 - t) // 2
        c = (parse_color(v.color) if v.color else None) or PRIMARY
        self.rect((x0, y, x1, y + t), mix(c, bg, 0.25))
        share = min(max(float(v.canvas[0]) if v.canvas else 0.0, 0.0), 1.0)
        if share > 0:
            self.rect((x0, y, x0 + max(1, round((x1 - x0) * share)), y + t), c)
        return bg

    def k_divider(self, v: View, bg: RGB, enabled: bool) -> RGB:
        x0, y0, x1, y1 = v.bounds
        t = max(1, round(self.s * 0.75))
        y = (y0 + y1 - t) // 2
        c = parse_color(v.color) if v.color else None
        self.rect((x0, y, x1, y + t), c or (mix(WHITE, bg, 0.2) if is_dark(bg) else DIVIDER))
        return bg

    # window kinds
    def k_dialog(self, v: View, bg: RGB, enabled: bool) -> RGB:
        self.dim()  # the scrim over everything below
        c = (self.theme.color(v.color) if v.color else None) or self.theme.dialog
        r = self.dp(12)
        self.shadow(v.bounds, r, self.dp(6))
        self.rrect(v.bounds, r, c)
        if v.text and not v.children:
            self.text(self._inner(v, 24), v.text, v.text_size, ink_on(c))
        return c

    def k_menu(self, v: View, bg: RGB, enabled: bool) -> RGB:
        c = (self.theme.color(v.color) if v.color else None) or self.theme.dialog
        r = self.dp(4)
        self.shadow(v.bounds, r, self.dp(8))
        self.rrect(v.bounds, r, c)
        return c

    def k_sheet(self, v: View, bg: RGB, enabled: bool) -> RGB:
        c = (self.theme.color(v.color) if v.color else None) or self.theme.dialog
        r = self.dp(16)
        self.shadow(v.bounds, r, self.dp(10))
        self.rrect(v.bounds, r, c, (True, True, False, False))
        x0, y0, x1, _ = v.bounds
        cx = (x0 + x1) // 2  # the drag handle
        handle = (cx - self.dp(16), y0 + self.dp(8), cx + self.dp(16), y0 + self.dp(12))
        self.rrect(handle, self.dp(2), mix(TEXT, c, 0.25))
        return c

    def k_keyboard(self, v: View, bg: RGB, enabled: bool) -> RGB:
        c = (parse_color(v.color) if v.color else None) or self.theme.keyboard
        self.rect(v.bounds, c)
        return c

    def k_key(self, v: View, bg: RGB, enabled: bool) -> RGB:
        x0, y0, x1, y1 = v.bounds
        label = v.text
        drawn = KEY_GLYPHS.get(label)
        special = drawn is not None or len(label.strip()) > 1
        c = self.theme.key_special if special else self.theme.key
        box = (x0 + self.dp(3), y0 + self.dp(4), x1 - self.dp(3), y1 - self.dp(4))
        self.rrect((box[0], box[1] + self.dp(1), box[2], box[3] + self.dp(1)), self.dp(5), mix((0, 0, 0), bg, 0.2))
        self.rrect(box, self.dp(5), c)
        cx, cy = (box[0] + box[2]) // 2, (box[1] + box[3]) // 2
        if drawn is not None:
            self.icon(drawn, cx, cy, self.dp(22), self.theme.key_text)
        elif label.strip():
            # Key labels are sized to the key (LatinIME), not by the font scale setting.
            size = (v.text_size if len(label) == 1 else 15) / self.font_scale
            self.text(box, label, size, self.theme.key_text, align="center", wrap=False)
        return c

    def k_month(self, v: View, bg: RGB, enabled: bool) -> RGB:
        bg = self._fill(v, bg)
        if v.canvas:
            draw_month(self, v, ink_on(bg), PRIMARY, bg)
        return bg

    def k_week_grid(self, v: View, bg: RGB, enabled: bool) -> RGB:
        if v.canvas:
            draw_week_grid(self, v, bg)
        return bg

    def k_week_now(self, v: View, bg: RGB, enabled: bool) -> RGB:
        draw_now_marker(self, v, (parse_color(v.tint) if v.tint else None) or PRIMARY)
        return bg

    def k_week_plus(self, v: View, bg: RGB, enabled: bool) -> RGB:
        draw_plus(self, v, PRIMARY)
        return bg

    def k_week_seekbar(self, v: View, bg: RGB, enabled: bool) -> RGB:
        if v.canvas:
            draw_seekbar(self, v, PRIMARY, bg)
        return bg

    def k_color_square(self, v: View, bg: RGB, enabled: bool) -> RGB:
        if v.canvas:
            draw_square(self, v)
        return bg

    def k_hue_bar(self, v: View, bg: RGB, enabled: bool) -> RGB:
        draw_hue_bar(self, v)
        return bg

    def k_color_cursor(self, v: View, bg: RGB, enabled: bool) -> RGB:
        draw_cursor(self, v)
        return bg

    def k_color_line(self, v: View, bg: RGB, enabled: bool) -> RGB:
        if v.canvas:
            draw_line(self, v)
        return bg

    def k_pattern(self, v: View, bg: RGB, enabled: bool) -> RGB:
        """PatternLockView at rest: 3 x 3 dots of 10 dp (its dotNormalSize default) in the text
        colour, spread over the view's largest centred square."""
        bg = self._fill(v, bg)
        x0, y0, x1, y1 = v.bounds
        side = min(x1 - x0, y1 - y0)
        left, top = x0 + (x1 - x0 - side) // 2, y0 + (y1 - y0 - side) // 2
        for row in range(3):
            for col in range(3):
                cx, cy = left + round(side * (col + 0.5) / 3), top + round(side * (row + 0.5) / 3)
                self.disc(cx, cy, self.dp(10), ink_on(bg))
        return bg

    def k_toast(self, v: View, bg: RGB, enabled: bool) -> RGB:
        c = (parse_color(v.color) if v.color else None) or TOAST_BG
        self.rrect(v.bounds, (v.bounds[3] - v.bounds[1]) // 2, c)
        if v.text and not v.children:
            self.text(self._inner(v, 8), v.text, v.text_size, ink_on(c), align="center")
        return c

    # system bars
    def status_bar(self, clock: str, h: int) -> None:
        w = self.img.size[0]
        below = self.img.getpixel((self.dp(2), min(h + 1, self.img.size[1] - 1)))
        base: RGB = (below[0], below[1], below[2]) if isinstance(below, tuple) else WHITE
        c = mix(base, (0, 0, 0), 0.97) if lum(base) > 0.85 else mix(base, (0, 0, 0), 0.82)
        self.rect((0, 0, w, h), c)
        fg = TEXT if lum(c) > 0.6 else WHITE
        self.text((self.dp(16), 0, w // 2, h), clock, 14, fg, bold=True, wrap=False)
        px = self.dp(16)
        cy = h // 2
        x = w - self.dp(14) - px // 2
        for name in ("battery", "signal", "wifi"):
            self.icon(name, x, cy, px, fg)
            x -= px + self.dp(4)

    def nav_bar(self, h: int) -> None:
        w, H = self.img.size
        self.rect((0, H - h, w, H), NAV_BG)
        third = w / 3
        cy = H - h // 2
        for i, name in enumerate(("nav_back", "nav_home", "nav_recents")):
            self.icon(name, round(third * (i + 0.5)), cy, self.dp(22), NAV_FG)


@lru_cache(maxsize=32)
def _decoded(data: bytes) -> Image.Image | None:
    """Image bytes (JPEG, PNG...) as RGB, or None when they are not a picture Pillow reads."""
    try:
        with Image.open(io.BytesIO(data)) as im:
            return im.convert("RGB")
    except (OSError, ValueError, Image.DecompressionBombError):
        return None


def _size(v: View, default: float) -> float:
    """The view's text size, or the kind's own when the app left the View default."""
    return default if v.text_size == 16.0 else v.text_size
