"""Text: fonts per size with fallbacks for what the bundled font lacks, measuring, and line layout.

Lines are wrapped or ellipsized as Android's TextView does (breaking between words, between CJK
characters, and inside words too long for a line), and rasterized into masks that are kept.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

FALLBACK_FONTS = (  # tried, in order, for characters the bundled font lacks (symbols, CJK)
    "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc",
    "/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf",
    "/usr/share/fonts/truetype/wqy/wqy-microhei.ttc",
)
CJK_FONT_PACKAGE = "fonts-wqy-microhei"  # the Debian package of the CJK font scripts/setup.sh installs
MISSING_CJK_FONT = (
    f"no CJK font on this machine: Chinese text is drawn as empty boxes in screenshots; install the Debian "
    f"package {CJK_FONT_PACKAGE} (scripts/setup.sh does: apt-get install {CJK_FONT_PACKAGE})"
)
Piece = tuple[Image.Image, int, int]  # a rasterized run: mask and its offset from the line's start


def is_cjk(ch: str) -> bool:
    """CJK ideographs, kana, hangul and their punctuation and full-width forms."""
    code = ord(ch)
    return 0x2E80 <= code <= 0x9FFF or 0xAC00 <= code <= 0xD7AF or 0xF900 <= code <= 0xFAFF or 0xFF00 <= code <= 0xFFEF


class Fonts:
    """Fonts per pixel size, fallback fonts for what the bundled one lacks, and laid-out text.

    Pillow's bundled Aileron covers ASCII only, so other characters are drawn in runs with
    the first fallback font on this machine that has them. Screens share most of their text
    with the previous one, so line layouts and rasterized lines are kept (bounded).
    """

    LIMIT = 2048

    def __init__(self) -> None:
        self._fonts: dict[tuple[int, int], ImageFont.FreeTypeFont] = {}
        self._paths = [p for p in FALLBACK_FONTS if Path(p).exists()]
        self._warned = False  # about a missing CJK font, once
        self._covers: dict[tuple[int, str], bool] = {}
        self._layouts: dict[tuple[int, str, int, int, str], tuple[str, ...]] = {}
        self._lines: dict[tuple[int, str, int], tuple[list[Piece], int]] = {}

    def get(self, px: int, which: int = 0) -> ImageFont.FreeTypeFont:
        """which = 0: the bundled default (Aileron), n > 0: the n-th fallback font present."""
        key = (px, which)
        font = self._fonts.get(key)
        if font is None:
            if which == 0:
                default = ImageFont.load_default(size=px)
                # Given a size, Pillow (FreeType built in, as wheels have it) loads its bundled Aileron.
                assert isinstance(default, ImageFont.FreeTypeFont)
                font = default
            else:
                font = ImageFont.truetype(self._paths[which - 1], px)
            self._fonts[key] = font
        return font

    def _has(self, which: int, ch: str) -> bool:
        key = (which, ch)
        hit = self._covers.get(key)
        if hit is None:
            font = self.get(32, which)
            # A missing glyph renders as the font's .notdef box; compare with a sure miss.
            notdef, mask = font.getmask("\U0010fffd"), font.getmask(ch)
            hit = mask.size != notdef.size or bytes(mask) != bytes(notdef)
            self._covers[key] = hit
        return hit

    def _which(self, ch: str) -> int:
        if ch.isascii() or ch.isspace():
            return 0
        found = next((i for i in range(len(self._paths) + 1) if self._has(i, ch)), None)
        if found is None and is_cjk(ch) and not self._warned:
            self._warned = True
            logging.getLogger(__name__).warning(MISSING_CJK_FONT)
        return found or 0

    def runs(self, text: str, px: int) -> list[tuple[ImageFont.FreeTypeFont, str]]:
        if text.isascii():
            return [(self.get(px), text)]
        out: list[tuple[int, str]] = []
        for ch in text:
            w = self._which(ch)
            if out and out[-1][0] == w:
                out[-1] = (w, out[-1][1] + ch)
            else:
                out.append((w, ch))
        return [(self.get(px, w), seg) for w, seg in out]

    def length(self, text: str, px: int) -> float:
        return sum(font.getlength(seg) for font, seg in self.runs(text, px))

    def layout(self, text: str, px: int, width: int, max_lines: int, ellipsize: str = "end") -> tuple[str, ...]:
        """The lines to draw: wrapped when there is room for more than one, else ellipsized.
        `ellipsize` is android:ellipsize: "end", "middle" (one line: its start and its end
        around "…"), or "" (none: the lines that fit are drawn, cut where they wrap)."""
        key = (px, text, width, max_lines, ellipsize)
        lines = self._layouts.get(key)
        if lines is None:

            def measure(t: str) -> float:
                return self.length(t, px)

            if not ellipsize:
                lines = tuple(wrap(measure, text, width, max_lines, ellipsis=False))
            elif "\n" in text or (max_lines > 1 and measure(text) > width):
                lines = tuple(wrap(measure, text, width, max_lines))
            elif ellipsize == "middle":
                lines = (fit_middle(measure, text, width),)
            else:
                lines = (fit(measure, text, width),)
            if len(self._layouts) >= self.LIMIT:
                self._layouts.clear()
            self._layouts[key] = lines
        return lines

    def line(self, text: str, px: int, stroke: int) -> tuple[list[Piece], int]:
        """A line's masks, placed relative to its left end on the vertical middle, and its advance."""
        key = (px, text, stroke)
        hit = self._lines.get(key)
        if hit is not None:
            return hit
        ascent, descent = self.get(px).getmetrics()
        base = (ascent - descent) // 2  # the baseline, below the middle, shared by every run
        pieces: list[Piece] = []
        x = 0.0
        for font, seg in self.runs(text, px):
            if seg.strip():
                # Whole pixels for a whole stroke width (Pillow types the box float for fractional ones).
                x0, y0, x1, y1 = map(int, font.getbbox(seg, anchor="ls", stroke_width=stroke))
                mask = Image.new("L", (max(1, x1 - x0), max(1, y1 - y0)), 0)
                ImageDraw.Draw(mask).text(
                    (-x0, -y0), seg, font=font, fill=255, anchor="ls", stroke_width=stroke, stroke_fill=255
                )
                pieces.append((mask, round(x) + x0, base + y0))
            x += font.getlength(seg)
        if len(self._lines) >= self.LIMIT:
            self._lines.clear()
        self._lines[key] = hit = (pieces, round(x))
        return hit


def _cjk_pieces(word: str) -> list[str]:
    """A word split where a line may break without a space: before and after each CJK character."""
    pieces: list[str] = []
    for ch in word:
        if pieces and not is_cjk(ch) and not is_cjk(pieces[-1][-1]):
            pieces[-1] += ch
        else:
            pieces.append(ch)
    return pieces or [""]


def _fit_prefix(measure: Callable[[str], float], text: str, width: float) -> str:
    """The longest prefix of `text` that fits in `width` px."""
    lo, hi = 0, len(text)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if measure(text[:mid]) <= width:
            lo = mid
        else:
            hi = mid - 1
    return text[:lo]


def fit(measure: Callable[[str], float], text: str, width: float) -> str:
    """The text, cut with an ellipsis to fit `width` px."""
    if width <= 0:
        return ""
    if measure(text) <= width:
        return text
    lo, hi = 0, len(text)
    while lo < hi:  # the longest prefix that fits with its ellipsis
        mid = (lo + hi + 1) // 2
        if measure(text[:mid].rstrip() + "…") <= width:
            lo = mid
        else:
            hi = mid - 1
    return text[:lo].rstrip() + "…" if lo else ""


def fit_middle(measure: Callable[[str], float], text: str, width: float) -> str:
    """The text, its middle replaced by an ellipsis to fit `width` px (TextUtils.ellipsize
    MIDDLE: as much of its start as of its end is kept)."""
    if width <= 0:
        return ""
    if measure(text) <= width:
        return text
    lo, hi = 0, len(text)
    while lo < hi:  # the most characters kept, split between the start and the end
        mid = (lo + hi + 1) // 2
        if measure(_middle(text, mid)) <= width:
            lo = mid
        else:
            hi = mid - 1
    return _middle(text, lo) if lo else fit(measure, text, width)


def _middle(text: str, keep: int) -> str:
    head = (keep + 1) // 2
    return text[:head] + "…" + text[len(text) - (keep - head) :]


def wrap(
    measure: Callable[[str], float], text: str, width: float, max_lines: int, *, ellipsis: bool = True
) -> list[str]:
    """Greedy wrap into at most max_lines lines, the last one ellipsized if cut (without
    `ellipsis`: only cut). As Android's line breaker does, it breaks between words, between
    any two CJK characters (which have no spaces between them), and inside a word too long
    for a line."""
    lines: list[str] = []
    for para in text.split("\n"):
        line = ""
        for word in para.split(" "):
            for i, piece in enumerate(_cjk_pieces(word)):
                trial = line + (" " if line and i == 0 else "") + piece
                if line and measure(trial) > width:
                    lines.append(line)
                    line = piece
                else:
                    line = trial
                while len(line) > 1 and measure(line) > width:  # a word wider than the line
                    cut = max(1, len(_fit_prefix(measure, line, width)))
                    lines.append(line[:cut])
                    line = line[cut:]
        lines.append(line)
    if len(lines) > max_lines:
        lines = lines[:max_lines]
        if ellipsis:
            lines[-1] = fit(measure, lines[-1] + "…", width)
    return [fit(measure, line, width) for line in lines]
