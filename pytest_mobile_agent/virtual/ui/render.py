"""Draws the device screen from the window system's laid-out view trees with Pillow.

The picture only has to look like a plausible Material phone screen to a multimodal agent; the
view trees (bounds, text, flags) stay the source of truth. Rendering is deterministic, so the
same screen state always gives the same bytes, and an unchanged screen is drawn once: a cheap
signature of everything drawn keys a small LRU of images and their encodings.

Shapes with curves (icons, circles, rounded corners) come from small supersampled masks that
are cached, so they are antialiased without per-pixel work in Python.
"""

from __future__ import annotations

import colorsys
import io
import logging
import math
import struct
import threading
import zlib
from collections import OrderedDict
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path
from typing import Any

from PIL import Image, ImageColor, ImageDraw, ImageFont

from pytest_mobile_agent.virtual.ui.screen import Frame, Window
from pytest_mobile_agent.virtual.ui.view import View

RGB = tuple[int, int, int]
Box = tuple[int, int, int, int]

WHITE: RGB = (255, 255, 255)
TEXT: RGB = (33, 33, 33)
TEXT_2: RGB = (95, 99, 104)  # secondary text on light backgrounds
HINT: RGB = (158, 158, 158)
DIVIDER: RGB = (224, 224, 224)
PRIMARY: RGB = (245, 124, 0)  # Simple Mobile Tools' default, as the widgets use
ACCENT: RGB = PRIMARY
SELECTED_ROW: RGB = (254, 236, 216)
DISABLED: RGB = (189, 189, 189)
KEYBOARD_BG: RGB = (232, 234, 237)
KEY_BG: RGB = (255, 255, 255)
KEY_SPECIAL: RGB = (205, 209, 214)
TOAST_BG: RGB = (50, 50, 50)
NAV_BG: RGB = (0, 0, 0)
NAV_FG: RGB = (224, 224, 224)
DIM = 0.42  # brightness left under a dialog's scrim

# Material 500 shades for plain colour names (CSS "green" and friends look dated).
NAMED: dict[str, RGB] = {
    "primary": PRIMARY,
    "accent": ACCENT,
    "red": (244, 67, 54),
    "pink": (233, 30, 99),
    "purple": (156, 39, 176),
    "deep_purple": (103, 58, 183),
    "indigo": (63, 81, 181),
    "blue": (33, 150, 243),
    "light_blue": (3, 169, 244),
    "cyan": (0, 188, 212),
    "teal": (0, 150, 136),
    "green": (76, 175, 80),
    "light_green": (139, 195, 74),
    "lime": (205, 220, 57),
    "yellow": (255, 235, 59),
    "amber": (255, 193, 7),
    "orange": (255, 152, 0),
    "deep_orange": (255, 87, 34),
    "brown": (121, 85, 72),
    "grey": (158, 158, 158),
    "gray": (158, 158, 158),
    "blue_grey": (96, 125, 139),
    "black": (0, 0, 0),
    "white": WHITE,
    "dark": (48, 48, 48),
    "light": (245, 245, 245),
}
NO_COLOR = {"", "none", "transparent"}
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
SS = 4  # supersampling factor of cached masks
KEY_GLYPHS = {"⌫": "backspace", "⏎": "enter"}  # key caps the bundled font cannot draw


# -- colours ---------------------------------------------------------------------------------
@lru_cache(maxsize=256)
def parse_color(name: str) -> RGB | None:
    """A colour name, #rgb, #rrggbb or Android #aarrggbb; None for no background."""
    key = name.strip().lower().replace(" ", "_").replace("-", "_")
    if key in NO_COLOR:
        return None
    if key in NAMED:
        return NAMED[key]
    if key.startswith("#") and len(key) == 9:
        # Android order: alpha first; composite over white as a window background would.
        try:
            a, r, g, b = (int(key[i : i + 2], 16) for i in (1, 3, 5, 7))
        except ValueError:
            return None
        return _mix((r, g, b), WHITE, a / 255)
    try:
        c = ImageColor.getrgb(key.replace("_", ""))
    except ValueError:
        return None
    return c[0], c[1], c[2]


def _lum(c: RGB) -> float:
    return (0.299 * c[0] + 0.587 * c[1] + 0.114 * c[2]) / 255


def _mix(a: RGB, b: RGB, t: float) -> RGB:
    """t of a over 1-t of b."""
    return (
        round(a[0] * t + b[0] * (1 - t)),
        round(a[1] * t + b[1] * (1 - t)),
        round(a[2] * t + b[2] * (1 - t)),
    )


def _on(bg: RGB) -> RGB:
    """Readable foreground on a background."""
    return TEXT if _lum(bg) > 0.6 else WHITE


def _dark(bg: RGB) -> bool:
    return _lum(bg) <= 0.6


# -- masks -----------------------------------------------------------------------------------
class _Pen:
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


GLYPHS: dict[str, Callable[[_Pen], None]] = {}
ALIASES = {
    "arrow_back": "back",
    "more_vert": "more",
    "overflow": "more",
    "plus": "add",
    "new": "add",
    "x": "close",
    "clear": "close",
    "cancel": "close",
    "trash": "delete",
    "remove": "delete",
    "pencil": "edit",
    "rename": "edit",
    "gear": "settings",
    "favorite": "heart",
    "done": "check",
    "ok": "check",
    "hamburger": "menu",
    "drawer": "menu",
    "about": "info",
    "photo": "image",
    "gallery": "image",
    "picture": "image",
    "audio": "music",
    "song": "music",
    "record": "mic",
    "recorder": "mic",
    "event": "calendar",
    "call": "phone",
    "dialer": "phone",
    "sms": "message",
    "chat": "message",
    "messages": "message",
    "contact": "person",
    "contacts": "person",
    "account": "person",
    "password": "lock",
    "files": "folder",
    "file_manager": "folder",
    "document": "file",
    "notes": "note",
    "text": "note",
    "video": "play",
    "alarm": "clock",
    "time": "clock",
    "stopwatch": "clock",
    "timer": "clock",
    "torch": "flashlight",
    "forward": "arrow_forward",
    "next": "arrow_forward",
    "expand": "chevron_down",
    "collapse": "chevron_up",
    "open": "chevron_right",
    "sync": "refresh",
    "reload": "refresh",
    "save": "download",
    "draw": "edit",
    "paint": "edit",
    "launcher": "home",
    "browser": "globe",
    "web": "globe",
    "mail": "email",
    "keyboard_backspace": "backspace",
    "⌫": "backspace",
    "⏎": "enter",
    "return": "enter",
    "unit_converter": "ruler",
    "convert": "swap",
    "visibility": "eye",
    "view": "eye",
    "show": "eye",
    "grid_view": "grid",
    "list_view": "list",
    "recent": "history",
}


def glyph(name: str) -> Callable[[Callable[[_Pen], None]], Callable[[_Pen], None]]:
    def register(fn: Callable[[_Pen], None]) -> Callable[[_Pen], None]:
        GLYPHS[name] = fn
        return fn

    return register


def glyph_name(name: str) -> str | None:
    key = name.strip().lower().replace("-", "_").replace(" ", "_")
    for k in (key, key.removeprefix("ic_"), key.removesuffix("_24")):
        k = ALIASES.get(k, k)
        if k in GLYPHS:
            return k
    return None


@lru_cache(maxsize=512)
def glyph_mask(name: str, px: int) -> Image.Image:
    """Antialiased px x px mask of a registered glyph drawn on a 24 unit grid."""
    big = Image.new("L", (px * SS, px * SS), 0)
    GLYPHS[name](_Pen(ImageDraw.Draw(big), px * SS / 24))
    return big.reduce(SS)


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


# -- glyphs on a 24 x 24 grid, after the Material icon shapes ---------------------------------
@glyph("search")
def _search(g: _Pen) -> None:
    g.ring(10, 10, 6.2, 2.2)
    g.line([(14.6, 14.6), (20, 20)], 2.6)


@glyph("more")
def _more(g: _Pen) -> None:
    for y in (5, 12, 19):
        g.circle(12, y, 2.1)


@glyph("back")
def _back(g: _Pen) -> None:
    g.line([(19.5, 12), (5, 12)], 2.2)
    g.line([(11.5, 5.5), (5, 12), (11.5, 18.5)], 2.2)


@glyph("arrow_forward")
def _forward(g: _Pen) -> None:
    g.line([(4.5, 12), (19, 12)], 2.2)
    g.line([(12.5, 5.5), (19, 12), (12.5, 18.5)], 2.2)


@glyph("add")
def _add(g: _Pen) -> None:
    g.line([(12, 5), (12, 19)], 2.2)
    g.line([(5, 12), (19, 12)], 2.2)


@glyph("close")
def _close(g: _Pen) -> None:
    g.line([(6, 6), (18, 18)], 2.2)
    g.line([(18, 6), (6, 18)], 2.2)


@glyph("delete")
def _delete(g: _Pen) -> None:
    g.line([(5, 6.5), (19, 6.5)], 2)
    g.rect(9.5, 3.5, 14.5, 6.5, 1)
    g.poly([(6.5, 8.5), (17.5, 8.5), (16.6, 20.5), (7.4, 20.5)])
    for x in (10, 14):
        g.line([(x, 11.5), (x, 17.5)], 1.1, ink=0)


@glyph("edit")
def _edit(g: _Pen) -> None:
    g.poly([(3.5, 20.5), (3.5, 16.8), (14.6, 5.7), (18.3, 9.4), (7.2, 20.5)])
    g.poly([(15.9, 4.4), (17.4, 2.9), (21.1, 6.6), (19.6, 8.1)])


@glyph("settings")
def _settings(g: _Pen) -> None:
    for i in range(8):
        a = i * math.pi / 4
        ca, sa = math.cos(a), math.sin(a)
        pts = [(12 + ca * r - sa * t, 12 + sa * r + ca * t) for r, t in ((6, -2.2), (10, -1.7), (10, 1.7), (6, 2.2))]
        g.poly(pts)
    g.circle(12, 12, 7.2)
    g.circle(12, 12, 3, ink=0)


@glyph("sort")
def _sort(g: _Pen) -> None:
    for y, x1 in ((6.5, 20), (12, 15), (17.5, 10)):
        g.line([(4, y), (x1, y)], 2)


def _star_points(cx: float, cy: float, outer: float, inner: float) -> list[tuple[float, float]]:
    pts = []
    for i in range(10):
        r = outer if i % 2 == 0 else inner
        a = -math.pi / 2 + i * math.pi / 5
        pts.append((cx + r * math.cos(a), cy + r * math.sin(a)))
    return pts


@glyph("star")
def _star(g: _Pen) -> None:
    g.poly(_star_points(12, 12.6, 10, 4.2))


@glyph("star_outline")
def _star_outline(g: _Pen) -> None:
    pts = _star_points(12, 12.6, 9.2, 3.9)
    g.line([*pts, pts[0]], 1.8, caps=False)


@glyph("heart")
def _heart(g: _Pen) -> None:
    g.circle(8.2, 9, 4.6)
    g.circle(15.8, 9, 4.6)
    g.poly([(3.8, 10.6), (20.2, 10.6), (12, 20.5)])


@glyph("check")
def _check(g: _Pen) -> None:
    g.line([(4.8, 12.6), (9.6, 17.4), (19.4, 7.2)], 2.5)


@glyph("menu")
def _menu(g: _Pen) -> None:
    for y in (6.5, 12, 17.5):
        g.line([(4, y), (20, y)], 2)


@glyph("share")
def _share(g: _Pen) -> None:
    g.line([(17.5, 5.5), (6.5, 12), (17.5, 18.5)], 1.6)
    for x, y in ((17.5, 5.5), (6.5, 12), (17.5, 18.5)):
        g.circle(x, y, 2.9)


@glyph("info")
def _info(g: _Pen) -> None:
    g.circle(12, 12, 10)
    g.circle(12, 7.6, 1.4, ink=0)
    g.line([(12, 11), (12, 17)], 2.2, ink=0)


@glyph("play")
def _play(g: _Pen) -> None:
    g.poly([(8, 5), (19.5, 12), (8, 19)])


@glyph("pause")
def _pause(g: _Pen) -> None:
    g.rect(6, 5, 10, 19, 0.6)
    g.rect(14, 5, 18, 19, 0.6)


@glyph("folder")
def _folder(g: _Pen) -> None:
    g.rect(2.5, 5, 11, 10, 1.4)
    g.poly([(9, 5), (11, 5), (13, 7), (9, 7)])
    g.rect(2.5, 7, 21.5, 19.5, 1.6)


@glyph("file")
def _file(g: _Pen) -> None:
    g.poly([(5.5, 2.5), (14, 2.5), (19, 7.5), (19, 21.5), (5.5, 21.5)])
    g.poly([(13.2, 2.5), (19.5, 8.8), (13.2, 8.8)], ink=0)
    g.poly([(14.2, 3.8), (18, 7.6), (14.2, 7.6)])


@glyph("image")
def _image(g: _Pen) -> None:
    g.frame(3, 3.5, 21, 20.5, 2, 2)
    g.poly([(5.5, 18), (10, 11.5), (13.2, 15.2), (15.2, 12.8), (18.6, 18)])
    g.circle(16, 8.4, 1.8)


@glyph("music")
def _music(g: _Pen) -> None:
    g.circle(8, 17, 3.4)
    g.line([(10.4, 17), (10.4, 4)], 2, caps=False)
    g.poly([(9.4, 3), (18.5, 3), (18.5, 7.2), (9.4, 7.2)])


@glyph("mic")
def _mic(g: _Pen) -> None:
    g.rect(8.8, 2.5, 15.2, 14.5, 3.2)
    g.arc((5.2, 5.5, 18.8, 17.2), 0, 180, 1.8)
    g.line([(12, 17.2), (12, 21)], 1.8, caps=False)
    g.line([(8.5, 21), (15.5, 21)], 1.8)


@glyph("calendar")
def _calendar(g: _Pen) -> None:
    g.frame(3.5, 5, 20.5, 21, 1.6, 2)
    g.rect(3.5, 5, 20.5, 9.8, 1.2)
    g.line([(8, 2.8), (8, 6)], 2)
    g.line([(16, 2.8), (16, 6)], 2)
    for x in (7, 11, 15):
        g.rect(x, 12.5, x + 2.4, 14.9)
        g.rect(x, 16.5, x + 2.4, 18.9)


@glyph("phone")
def _phone(g: _Pen) -> None:
    g.arc((3.5, -10, 33.5, 20), 90, 180, 4.2)
    g.poly([(2.6, 3.6), (7.2, 2.2), (9.4, 7.4), (5.6, 9.4)])
    g.poly([(20.4, 21.4), (21.8, 16.8), (16.6, 14.6), (14.6, 18.4)])


@glyph("message")
def _message(g: _Pen) -> None:
    g.rect(3, 3.5, 21, 17, 2.4)
    g.poly([(5.5, 16), (5.5, 21.5), (11, 16)])
    g.line([(7, 8.2), (17, 8.2)], 1.4, ink=0)
    g.line([(7, 12.2), (14, 12.2)], 1.4, ink=0)


@glyph("email")
def _email(g: _Pen) -> None:
    g.rect(2.5, 5, 21.5, 19, 1.8)
    g.line([(4.5, 7.5), (12, 12.5), (19.5, 7.5)], 1.6, ink=0)


@glyph("person")
def _person(g: _Pen) -> None:
    g.circle(12, 8, 4.2)
    g.rect(4, 14, 20, 20.5, 4.5)


@glyph("lock")
def _lock(g: _Pen) -> None:
    g.arc((7.5, 2.8, 16.5, 12.8), 180, 360, 2)
    g.line([(7.5, 8), (7.5, 10.5)], 2, caps=False)
    g.line([(16.5, 8), (16.5, 10.5)], 2, caps=False)
    g.rect(4.5, 10, 19.5, 21.5, 2)
    g.circle(12, 15.8, 1.8, ink=0)


@glyph("filter")
def _filter(g: _Pen) -> None:
    g.poly([(3, 4.5), (21, 4.5), (14, 12.8), (14, 20), (10, 17.6), (10, 12.8)])


@glyph("camera")
def _camera(g: _Pen) -> None:
    g.rect(2.5, 6.5, 21.5, 20, 2)
    g.poly([(8, 7), (9.6, 4), (14.4, 4), (16, 7)])
    g.circle(12, 13.2, 4.4, ink=0)
    g.circle(12, 13.2, 2.8)


@glyph("home")
def _home(g: _Pen) -> None:
    g.poly([(12, 3), (21.5, 11.5), (19, 11.5), (19, 20.5), (5, 20.5), (5, 11.5), (2.5, 11.5)])
    g.rect(10, 14, 14, 20.6, ink=0)


@glyph("refresh")
def _refresh(g: _Pen) -> None:
    g.arc((4.5, 4.5, 19.5, 19.5), 20, 320, 2.2)
    g.poly([(14.5, 2.5), (21, 3), (20, 9.5)])


@glyph("download")
def _download(g: _Pen) -> None:
    g.line([(12, 3.5), (12, 15)], 2.2)
    g.line([(6.5, 10), (12, 15.5), (17.5, 10)], 2.2)
    g.line([(5, 20), (19, 20)], 2.2)


@glyph("clock")
def _clock(g: _Pen) -> None:
    g.ring(12, 12, 9.2, 2)
    g.line([(12, 6.5), (12, 12), (15.8, 14.4)], 2)


@glyph("note")
def _note(g: _Pen) -> None:
    g.frame(4, 3, 20, 21, 2, 2)
    for y, x1 in ((8, 16), (12, 16), (16, 13)):
        g.line([(8, y), (x1, y)], 1.6)


@glyph("calculator")
def _calculator(g: _Pen) -> None:
    g.rect(4.5, 2.5, 19.5, 21.5, 2)
    g.rect(7, 5, 17, 9, ink=0)
    for row in range(3):
        for col in range(3):
            x, y = 7.6 + col * 3.6, 11.2 + row * 3.4
            g.rect(x, y, x + 2, y + 2, ink=0)


@glyph("flashlight")
def _flashlight(g: _Pen) -> None:
    g.poly([(6, 2.5), (18, 2.5), (18, 6.5), (15, 10.5), (15, 21.5), (9, 21.5), (9, 10.5), (6, 6.5)])
    g.circle(12, 14, 1.4, ink=0)


@glyph("globe")
def _globe(g: _Pen) -> None:
    g.ring(12, 12, 9.2, 1.8)
    g.d.ellipse(tuple(v * g.k for v in (8, 2.8, 16, 21.2)), outline=255, width=max(1, round(1.6 * g.k)))
    g.line([(3, 12), (21, 12)], 1.6, caps=False)


@glyph("copy")
def _copy(g: _Pen) -> None:
    g.frame(3.5, 6.5, 15.5, 21, 1.5, 1.9)
    g.frame(8, 2.5, 20.5, 17, 1.5, 1.9)


@glyph("chevron_right")
def _chevron_right(g: _Pen) -> None:
    g.line([(9, 5.5), (15.5, 12), (9, 18.5)], 2.2)


@glyph("chevron_down")
def _chevron_down(g: _Pen) -> None:
    g.line([(5.5, 9), (12, 15.5), (18.5, 9)], 2.2)


@glyph("chevron_up")
def _chevron_up(g: _Pen) -> None:
    g.line([(5.5, 15), (12, 8.5), (18.5, 15)], 2.2)


@glyph("backspace")
def _backspace(g: _Pen) -> None:
    g.poly([(2, 12), (7.5, 5), (21.5, 5), (21.5, 19), (7.5, 19)])
    g.line([(11, 9), (17, 15)], 1.6, ink=0)
    g.line([(17, 9), (11, 15)], 1.6, ink=0)


@glyph("enter")
def _enter(g: _Pen) -> None:
    g.line([(19, 5), (19, 14), (5.5, 14)], 2.2)
    g.line([(10, 9.5), (5.5, 14), (10, 18.5)], 2.2)


@glyph("history")
def _history(g: _Pen) -> None:
    g.arc((3.5, 3.5, 20.5, 20.5), 200, 160, 2)
    g.poly([(1, 11), (7.5, 11), (4.2, 15.5)])
    g.line([(12, 7.5), (12, 12.2), (15.2, 14.2)], 1.8)


@glyph("ruler")
def _ruler(g: _Pen) -> None:
    g.rect(2, 7.5, 22, 16.5, 1.2)
    for x, tick in ((5.5, 4.5), (9, 2.8), (12.5, 4.5), (16, 2.8), (19.5, 4.5)):
        g.line([(x, 7.5), (x, 7.5 + tick)], 1.2, ink=0, caps=False)


@glyph("swap")
def _swap(g: _Pen) -> None:
    g.line([(8, 19.5), (8, 5)], 2)
    g.poly([(3.5, 8.5), (8, 3), (12.5, 8.5)])
    g.line([(16, 4.5), (16, 19)], 2)
    g.poly([(11.5, 15.5), (16, 21), (20.5, 15.5)])


@glyph("undo")
def _undo(g: _Pen) -> None:
    g.arc((6, 7.5, 21, 21), 180, 30, 2.2)
    g.poly([(2.5, 9), (9.5, 7.5), (5.5, 15)])


@glyph("redo")
def _redo(g: _Pen) -> None:
    g.arc((3, 7.5, 18, 21), 150, 0, 2.2)
    g.poly([(21.5, 9), (14.5, 7.5), (18.5, 15)])


@glyph("eye")
def _eye(g: _Pen) -> None:
    g.d.ellipse(tuple(v * g.k for v in (1.5, 5, 22.5, 19)), fill=255)
    g.circle(12, 12, 4.6, ink=0)
    g.circle(12, 12, 2.6)


@glyph("grid")
def _grid(g: _Pen) -> None:
    for x in (3.5, 13):
        for y in (3.5, 13):
            g.rect(x, y, x + 7.5, y + 7.5, 1)


@glyph("list")
def _list(g: _Pen) -> None:
    for y in (6, 12, 18):
        g.circle(5, y, 1.6)
        g.line([(9, y), (20.5, y)], 2)


@glyph("nav_back")
def _nav_back(g: _Pen) -> None:
    g.line([(17, 4.5), (17, 19.5), (5, 12), (17, 4.5)], 2, caps=False)


@glyph("nav_home")
def _nav_home(g: _Pen) -> None:
    g.ring(12, 12, 8.5, 2)


@glyph("nav_recents")
def _nav_recents(g: _Pen) -> None:
    g.frame(5, 5, 19, 19, 1.2, 2)


@glyph("wifi")
def _wifi(g: _Pen) -> None:
    g.pie((0.5, 3, 23.5, 26), 225, 315)


@glyph("signal")
def _signal(g: _Pen) -> None:
    g.poly([(2.5, 21.5), (21.5, 2.5), (21.5, 21.5)])


@glyph("battery")
def _battery(g: _Pen) -> None:
    g.rect(9.5, 2, 14.5, 4.5, 0.6)
    g.rect(7, 3.8, 17, 22.5, 1.4)


# -- text ------------------------------------------------------------------------------------
Piece = tuple[Image.Image, int, int]  # a rasterized run: mask and its offset from the line's start


def is_cjk(ch: str) -> bool:
    """CJK ideographs, kana, hangul and their punctuation and full-width forms."""
    code = ord(ch)
    return 0x2E80 <= code <= 0x9FFF or 0xAC00 <= code <= 0xD7AF or 0xF900 <= code <= 0xFAFF or 0xFF00 <= code <= 0xFFEF


class _Fonts:
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
        self._layouts: dict[tuple[int, str, int, int], tuple[str, ...]] = {}
        self._lines: dict[tuple[int, str, int], tuple[list[Piece], int]] = {}

    def get(self, px: int, which: int = 0) -> ImageFont.FreeTypeFont:
        """which = 0: the bundled default (Aileron), n > 0: the n-th fallback font present."""
        key = (px, which)
        font = self._fonts.get(key)
        if font is None:
            if which == 0:
                font = ImageFont.load_default(size=px)  # type: ignore[assignment]
            else:
                font = ImageFont.truetype(self._paths[which - 1], px)
            self._fonts[key] = font  # type: ignore[assignment]
        return font  # type: ignore[return-value]

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

    def layout(self, text: str, px: int, width: int, max_lines: int) -> tuple[str, ...]:
        """The lines to draw: wrapped when there is room for more than one, else ellipsized."""
        key = (px, text, width, max_lines)
        lines = self._layouts.get(key)
        if lines is None:

            def measure(t: str) -> float:
                return self.length(t, px)

            if "\n" in text or (max_lines > 1 and measure(text) > width):
                lines = tuple(_wrap(measure, text, width, max_lines))
            else:
                lines = (_fit(measure, text, width),)
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
                x0, y0, x1, y1 = font.getbbox(seg, anchor="ls", stroke_width=stroke)
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


def _fit(measure: Callable[[str], float], text: str, width: float) -> str:
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


def _wrap(measure: Callable[[str], float], text: str, width: float, max_lines: int) -> list[str]:
    """Greedy wrap into at most max_lines lines, the last one ellipsized if cut. As Android's
    line breaker does, it breaks between words, between any two CJK characters (which have no
    spaces between them), and inside a word too long for a line."""
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
        lines[-1] = _fit(measure, lines[-1] + "…", width)
    return [_fit(measure, line, width) for line in lines]


# -- the painter -----------------------------------------------------------------------------
class _Painter:
    """Draws one screen; lives for a single render."""

    def __init__(self, r: ScreenRenderer) -> None:
        self.r, self.s, self.fonts = r, r.scale, r._fonts
        self.img = Image.new("RGB", (r.width, r.height), WHITE)
        self.d = ImageDraw.Draw(self.img)
        self._blend: ImageDraw.ImageDraw | None = None
        self.win_kind = "activity"

    def dp(self, v: float) -> int:
        return round(v * self.s)

    @property
    def blend(self) -> ImageDraw.ImageDraw:
        """A draw that composites translucent fills (shadows)."""
        if self._blend is None:
            self._blend = ImageDraw.Draw(self.img, "RGBA")
        return self._blend

    # primitives
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
            return False
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
    ) -> tuple[int, int]:
        """Text in a box, ellipsized or wrapped; returns where the last line ends (caret spot)."""
        x0, y0, x1, y1 = box
        px = max(6, self.dp(size))
        if not text or x1 <= x0:
            return x0, (y0 + y1) // 2
        line_h = round(px * 1.32)
        width = x1 - x0
        max_lines = max(1, (y1 - y0) // line_h) if wrap else 1
        lines = self.fonts.layout(text, px, width, max_lines)
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
        return len(_fit(lambda t: self.fonts.length(t, px), text, width))

    # the screen
    def window(self, win: Window) -> None:
        root = win.root
        self.win_kind = win.kind
        chrome = win.kind if win.kind in ("dialog", "menu", "sheet", "keyboard", "toast") else ""
        if chrome and root.kind != chrome:
            # A window whose root is not dressed as its kind still gets its frame.
            self.view(root, WHITE, True, chrome)
        else:
            self.view(root, WHITE, True)

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
        fg = _on(bg)
        if fg == TEXT and size <= 14 and not bold:
            fg = TEXT_2
        return fg if enabled else _mix(fg, bg, 0.45)

    def _align(self, v: View) -> str:
        return v.gravity if v.gravity in ("center", "end") else "start"

    def _fill(self, v: View, bg: RGB) -> RGB:
        """Fills a view's own background colour; the background its content sits on."""
        c = parse_color(v.color) if v.color else None
        if c is None:
            return bg
        self.rect(v.bounds, c)
        return c

    # kinds: each draws the view itself and returns the background its children sit on
    def k_text(self, v: View, bg: RGB, enabled: bool) -> RGB:
        bg = self._fill(v, bg)
        if v.text and not v.children:
            fg = self._fg(bg, enabled, v.text_size, v.bold)
            self.text(self._inner(v), v.text, v.text_size, fg, bold=v.bold, align=self._align(v))
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
            self.text(self._inner(v, 16), v.text, size, _on(c), bold=True)
        return c

    def k_button(self, v: View, bg: RGB, enabled: bool) -> RGB:
        x0, y0, x1, y1 = v.bounds
        inset = self.dp(4) if y1 - y0 >= self.dp(40) else self.dp(1)
        box = (x0 + self.dp(2), y0 + inset, x1 - self.dp(2), y1 - inset)
        named = v.color.strip().lower() in NO_COLOR if v.color else False
        c = parse_color(v.color) if v.color else PRIMARY
        if named or c is None or (not v.color and self.win_kind in ("dialog", "menu", "sheet")):
            # A text button (dialogs): coloured label, no container.
            fg = (PRIMARY if not _dark(bg) else WHITE) if enabled else _mix(_on(bg), bg, 0.45)
            size = _size(v, 15)
            self.text(box, v.text, size, fg, bold=True, align="center", wrap=False)
            return bg
        if not enabled:
            c = (224, 224, 224)
        # Ordinary buttons are pills; tall grid keys (a calculator's) are rounded squares.
        self.rrect(box, min((box[3] - box[1]) // 2, self.dp(20)), c)
        fg = _on(c) if enabled else (158, 158, 158)
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
        fg = (_on(bg) if _dark(bg) else (84, 88, 92)) if enabled else _mix(_on(bg), bg, 0.4)
        px = min(self.dp(24), round(side * (0.5 if c is not None else 0.62)))
        if v.icon and self.icon(v.icon, cx, cy, px, fg):
            return bg
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
        self.text(box, ch, d * 0.55 / self.s, _on(color), bold=True, align="center", wrap=False)

    def k_edit(self, v: View, bg: RGB, enabled: bool) -> RGB:
        x0, y0, x1, y1 = v.bounds
        c = parse_color(v.color) if v.color else None
        if c is not None:
            self.rrect((x0, y0, x1, y1), self.dp(6), c)
            bg = c
        dark = _dark(bg)
        accent = WHITE if dark else PRIMARY
        if c is None:
            line = accent if v.focused else ((200, 200, 200) if dark else (160, 160, 160))
            th = self.dp(2) if v.focused else max(1, self.dp(1))
            self.rect((x0 + self.dp(2), y1 - self.dp(5) - th, x1 - self.dp(2), y1 - self.dp(5)), line)
        box = self._inner(v, 4)
        box = (box[0], box[1], box[2], y1 - self.dp(6))
        size = v.text_size
        line_h = round(max(6, self.dp(size)) * 1.32)
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
                hint = _mix(_on(bg), bg, 0.55) if dark else HINT
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
        track = _mix(on, WHITE, 0.5) if v.checked else (189, 189, 189)
        self.rrect((cx - w // 2, cy - h // 2, cx + w // 2, cy - h // 2 + h), h // 2, track)
        tx = cx + w // 2 - thumb // 2 if v.checked else cx - w // 2 + thumb // 2
        self.disc(tx, cy + self.dp(1), thumb + self.dp(1), _mix((0, 0, 0), bg, 0.18))
        self.disc(tx, cy, thumb, on if v.checked else (250, 250, 250))
        self._control_text(v, label, bg, enabled)
        return bg

    def k_row(self, v: View, bg: RGB, enabled: bool) -> RGB:
        c = parse_color(v.color) if v.color else None
        if c is None and (v.selected or v.checked):
            c = SELECTED_ROW
        if c is not None:
            self.rect(v.bounds, c)
            bg = c
        x0, _, x1, y1 = v.bounds
        if self.win_kind == "activity":  # popup and dialog lists have no dividers
            self.rect((x0, y1 - 1, x1, y1), _mix(DIVIDER, bg, 0.9) if not _dark(bg) else _mix(WHITE, bg, 0.15))
        if v.text and not v.children:
            fg = self._fg(bg, enabled, max(v.text_size, 15), v.bold)
            self.text(self._inner(v, 16), v.text, v.text_size, fg, bold=v.bold, align=self._align(v))
        return bg

    def k_fab(self, v: View, bg: RGB, enabled: bool) -> RGB:
        x0, y0, x1, y1 = v.bounds
        d = min(x1 - x0, y1 - y0) - self.dp(4)
        cx, cy = (x0 + x1) // 2, (y0 + y1) // 2
        c = (parse_color(v.color) if v.color else None) or ACCENT
        if not enabled:
            c = DISABLED
        for i in range(self.dp(4), 0, -1):  # soft shadow below the button
            self.disc(cx, cy + self.dp(2), d + 2 * i, _mix((0, 0, 0), bg, 0.05 + 0.1 * (1 - i / self.dp(4))))
        self.disc(cx, cy, d, c)
        px = min(self.dp(24), round(d * 0.45))
        if not self.icon(v.icon or "add", cx, cy, px, _on(c)):
            ch = (v.icon or v.text or "+")[:1].upper()
            self.text(v.bounds, ch, px / self.s, _on(c), bold=True, align="center", wrap=False)
        return c

    def k_tab(self, v: View, bg: RGB, enabled: bool) -> RGB:
        bg = self._fill(v, bg)
        dark = _dark(bg)
        if v.selected:
            fg, bar = (WHITE, WHITE) if dark else (PRIMARY, PRIMARY)
        else:
            fg, bar = _mix(_on(bg), bg, 0.7), bg
        if v.text and not v.children:
            size = _size(v, 14)
            self.text(self._inner(v, 8), v.text.upper(), size, fg, bold=True, align="center", wrap=False)
        if v.selected:
            x0, _, x1, y1 = v.bounds
            self.rect((x0, y1 - self.dp(3), x1, y1), bar)
        return bg

    def k_appicon(self, v: View, bg: RGB, enabled: bool) -> RGB:
        x0, y0, x1, y1 = v.bounds
        label_h = self.dp(v.text_size * 1.5) if v.text else 0
        d = max(0, min(x1 - x0 - self.dp(12), y1 - y0 - label_h - self.dp(12), self.dp(56)))
        cx = (x0 + x1) // 2
        cy = y0 + (y1 - y0 - label_h - d) // 2 + d // 2
        c = (parse_color(v.color) if v.color else None) or _seeded(v.icon or v.text or v.id)
        self.disc(cx, cy + self.dp(1), d + self.dp(2), _mix((0, 0, 0), bg, 0.12))
        self.disc(cx, cy, d, c)
        px = round(d * 0.5)
        if not (v.icon and self.icon(v.icon, cx, cy, px, WHITE)):
            ch = v.icon if v.icon and len(v.icon) <= 2 else (v.text or v.icon or "?")[:1].upper()
            self.text((cx - d, cy - d, cx + d, cy + d), ch, px / self.s, WHITE, bold=True, align="center", wrap=False)
        if v.text:
            fg = _on(bg) if enabled else _mix(_on(bg), bg, 0.45)
            top = cy + d // 2 + self.dp(4)
            label = (x0 + self.dp(2), top, x1 - self.dp(2), top + label_h)
            self.text(label, v.text, v.text_size, fg, align="center", wrap=False)
        return bg

    def k_image(self, v: View, bg: RGB, enabled: bool) -> RGB:
        x0, y0, x1, y1 = v.bounds
        seed = zlib.crc32((v.text or v.id or v.key or v.desc).encode())
        h = (seed & 0xFFFF) / 0xFFFF
        sky = _hsv(h, 0.35, 0.95)
        ground = _hsv((h + 0.08) % 1, 0.55, 0.55 + 0.2 * ((seed >> 16) & 0xFF) / 255)
        far = _mix(ground, sky, 0.55)
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
        self.disc(x0 + round(w * (0.2 + 0.6 * (1 - peak))), y0 + round(hh * 0.24), sun, _hsv((h + 0.12) % 1, 0.5, 1.0))
        return bg

    k_thumb = k_image

    def k_divider(self, v: View, bg: RGB, enabled: bool) -> RGB:
        x0, y0, x1, y1 = v.bounds
        t = max(1, round(self.s * 0.75))
        y = (y0 + y1 - t) // 2
        c = parse_color(v.color) if v.color else None
        self.rect((x0, y, x1, y + t), c or (_mix(WHITE, bg, 0.2) if _dark(bg) else DIVIDER))
        return bg

    # window kinds
    def k_dialog(self, v: View, bg: RGB, enabled: bool) -> RGB:
        self.img = self.img.point(self.r._dim_lut)  # the scrim over everything below
        self.d = ImageDraw.Draw(self.img)
        self._blend = None
        c = (parse_color(v.color) if v.color else None) or WHITE
        r = self.dp(12)
        self.shadow(v.bounds, r, self.dp(6))
        self.rrect(v.bounds, r, c)
        if v.text and not v.children:
            self.text(self._inner(v, 24), v.text, v.text_size, _on(c))
        return c

    def k_menu(self, v: View, bg: RGB, enabled: bool) -> RGB:
        c = (parse_color(v.color) if v.color else None) or WHITE
        r = self.dp(4)
        self.shadow(v.bounds, r, self.dp(8))
        self.rrect(v.bounds, r, c)
        return c

    def k_sheet(self, v: View, bg: RGB, enabled: bool) -> RGB:
        c = (parse_color(v.color) if v.color else None) or WHITE
        r = self.dp(16)
        self.shadow(v.bounds, r, self.dp(10))
        self.rrect(v.bounds, r, c, (True, True, False, False))
        x0, y0, x1, _ = v.bounds
        cx = (x0 + x1) // 2  # the drag handle
        handle = (cx - self.dp(16), y0 + self.dp(8), cx + self.dp(16), y0 + self.dp(12))
        self.rrect(handle, self.dp(2), _mix(TEXT, c, 0.25))
        return c

    def k_keyboard(self, v: View, bg: RGB, enabled: bool) -> RGB:
        c = (parse_color(v.color) if v.color else None) or KEYBOARD_BG
        self.rect(v.bounds, c)
        return c

    def k_key(self, v: View, bg: RGB, enabled: bool) -> RGB:
        x0, y0, x1, y1 = v.bounds
        label = v.text
        drawn = KEY_GLYPHS.get(label)
        special = drawn is not None or len(label.strip()) > 1
        c = KEY_SPECIAL if special else KEY_BG
        box = (x0 + self.dp(3), y0 + self.dp(4), x1 - self.dp(3), y1 - self.dp(4))
        self.rrect((box[0], box[1] + self.dp(1), box[2], box[3] + self.dp(1)), self.dp(5), _mix((0, 0, 0), bg, 0.2))
        self.rrect(box, self.dp(5), c)
        cx, cy = (box[0] + box[2]) // 2, (box[1] + box[3]) // 2
        if drawn is not None:
            self.icon(drawn, cx, cy, self.dp(22), TEXT)
        elif label.strip():
            size = v.text_size if len(label) == 1 else 15
            self.text(box, label, size, TEXT, align="center", wrap=False)
        return c

    def k_month(self, v: View, bg: RGB, enabled: bool) -> RGB:
        from pytest_mobile_agent.virtual.ui.month_canvas import draw_month  # it draws with this module's helpers

        bg = self._fill(v, bg)
        if v.canvas:
            draw_month(self, v, _on(bg), PRIMARY, bg)
        return bg

    def k_toast(self, v: View, bg: RGB, enabled: bool) -> RGB:
        c = (parse_color(v.color) if v.color else None) or TOAST_BG
        self.rrect(v.bounds, (v.bounds[3] - v.bounds[1]) // 2, c)
        if v.text and not v.children:
            self.text(self._inner(v, 8), v.text, v.text_size, _on(c), align="center")
        return c

    # system bars
    def status_bar(self, clock: str, h: int) -> None:
        w = self.img.size[0]
        below = self.img.getpixel((self.dp(2), min(h + 1, self.img.size[1] - 1)))
        base: RGB = below[:3] if isinstance(below, tuple) else WHITE  # type: ignore[assignment]
        c = _mix(base, (0, 0, 0), 0.97) if _lum(base) > 0.85 else _mix(base, (0, 0, 0), 0.82)
        self.rect((0, 0, w, h), c)
        fg = TEXT if _lum(c) > 0.6 else WHITE
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


def _size(v: View, default: float) -> float:
    """The view's text size, or the kind's own when the app left the View default."""
    return default if v.text_size == 16.0 else v.text_size


def _hsv(h: float, s: float, v: float) -> RGB:
    r, g, b = colorsys.hsv_to_rgb(h, s, v)
    return round(r * 255), round(g * 255), round(b * 255)


def _seeded(name: str) -> RGB:
    """A stable, pleasant colour for a name."""
    return _hsv((zlib.crc32(name.encode()) % 360) / 360, 0.6, 0.8)


# -- encoding --------------------------------------------------------------------------------
def _chunk(tag: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + tag + data + struct.pack(">I", zlib.crc32(tag + data))


ADLER_MOD = 65521


def _adler_concat(a: int, b: int, len_b: int) -> int:
    """Adler-32 of X+Y from those of X and Y: A = Ax + Ay - 1, B = Bx + By + len(Y) * (Ax - 1)."""
    ax, bx, ay, by = a & 0xFFFF, a >> 16, b & 0xFFFF, b >> 16
    s1 = (ax + ay - 1) % ADLER_MOD
    s2 = (bx + by + len_b * (ax - 1)) % ADLER_MOD
    return s1 | (s2 << 16)


class PngEncoder:
    """RGB PNG writer that re-deflates only the bands of rows that changed since last time.

    Pillow's encoder tries every filter on every row; for flat UI pictures that costs more
    than it saves, so this writes filter 0 rows itself. Each band of rows is deflated alone
    and ends with a sync flush, so bands kept from the previous screen splice into the new
    stream as they are (with their Adler-32, combined arithmetically); changed bands are
    deflated on two threads, as zlib lets go of the GIL. No metadata: same pixels, same bytes.
    """

    BAND = 64  # rows

    def __init__(self, level: int = 1) -> None:
        self.level = level
        self._size: tuple[int, int] = (0, 0)
        self._bands: list[tuple[bytes, bytes, int]] = []  # raw rows, deflated, adler32 of filtered rows

    def _deflate(self, raw: bytes, stride: int) -> tuple[bytes, int]:
        view = memoryview(raw)
        rows: list[Any] = []
        for y in range(0, len(raw), stride):
            rows.append(b"\x00")
            rows.append(view[y : y + stride])
        data = b"".join(rows)
        c = zlib.compressobj(self.level, zlib.DEFLATED, -15)
        return c.compress(data) + c.flush(zlib.Z_SYNC_FLUSH), zlib.adler32(data)

    def encode(self, img: Image.Image) -> bytes:
        if img.mode != "RGB":
            img = img.convert("RGB")
        w, h = img.size
        raw = img.tobytes()
        stride = w * 3
        step = self.BAND * stride
        if self._size != (w, h):
            self._size, self._bands = (w, h), []
        old = self._bands
        bands: list[Any] = []
        todo: list[int] = []
        for i, at in enumerate(range(0, len(raw), step)):
            piece = raw[at : at + step]
            if i < len(old) and old[i][0] == piece:
                bands.append(old[i])
            else:
                bands.append(piece)
                todo.append(i)

        def work(indices: list[int]) -> None:
            for i in indices:
                bands[i] = (bands[i], *self._deflate(bands[i], stride))

        worker = threading.Thread(target=work, args=(todo[::2],))
        worker.start()
        work(todo[1::2])
        worker.join()
        self._bands = bands
        adler = 1
        for piece, _, band_adler in bands:
            adler = _adler_concat(adler, band_adler, len(piece) + len(piece) // stride)
        # A sync flush leaves no final block: end the stream with an empty fixed-Huffman one.
        stream = b"".join([b"\x78\x01", *(b[1] for b in bands), b"\x03\x00", struct.pack(">I", adler)])
        header = struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0)
        return b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", header) + _chunk(b"IDAT", stream) + _chunk(b"IEND", b"")


def encode_png(img: Image.Image, level: int = 1) -> bytes:
    """One picture as a metadata-free RGB PNG."""
    return PngEncoder(level).encode(img)


# -- the renderer ----------------------------------------------------------------------------
class ScreenRenderer:
    """Renders Frames to pictures, remembering the last few screens."""

    def __init__(self, width: int, height: int, scale: float, cache_size: int = 4) -> None:
        self.width, self.height, self.scale = width, height, scale
        self.status_h = round(24 * scale)
        self.nav_h = round(48 * scale)
        self.renders = 0  # how many times a picture was actually drawn
        self._cache: OrderedDict[tuple, dict[Any, Any]] = OrderedDict()
        self._cache_size = cache_size
        self._fonts = _Fonts()
        self._dim_lut = [round(v * DIM) for v in range(256)] * 3
        self._png = PngEncoder()
        self._lock = threading.RLock()  # adb services may ask for the screen from several threads

    # public API
    def image(self, frame: Frame, status_text: str = "") -> Image.Image:
        """A copy of the screen picture (callers may draw on it)."""
        with self._lock:
            return self._entry(frame, status_text)["image"].copy()

    def png(self, frame: Frame, status_text: str = "") -> bytes:
        with self._lock:
            entry = self._entry(frame, status_text)
            if "png" not in entry:
                entry["png"] = self._png.encode(entry["image"])
            return entry["png"]

    def jpeg(self, frame: Frame, status_text: str = "", quality: int = 80) -> bytes:
        with self._lock:
            entry = self._entry(frame, status_text)
            key = ("jpeg", quality)
            if key not in entry:
                buf = io.BytesIO()
                entry["image"].save(buf, "JPEG", quality=quality)
                entry[key] = buf.getvalue()
            return entry[key]

    def rgba(self, frame: Frame, status_text: str = "") -> bytes:
        """Raw RGBA8888, row-major (screencap's raw format and the framebuffer service)."""
        with self._lock:
            entry = self._entry(frame, status_text)
            if "rgba" not in entry:
                entry["rgba"] = entry["image"].convert("RGBA").tobytes()
            return entry["rgba"]

    # caching
    def signature(self, frame: Frame, status_text: str) -> tuple:
        """Everything that reaches the picture, as a hashable value."""
        out: list[Any] = [self.width, self.height, self.scale, status_text]
        for win in frame.windows:
            out.append(win.kind)
            _sig(win.root, 0, out)
        return tuple(out)

    def _entry(self, frame: Frame, status_text: str) -> dict[Any, Any]:
        key = self.signature(frame, status_text)
        entry = self._cache.get(key)
        if entry is not None:
            self._cache.move_to_end(key)
            return entry
        entry = {"image": self._draw(frame, status_text)}
        self.renders += 1
        self._cache[key] = entry
        while len(self._cache) > self._cache_size:
            self._cache.popitem(last=False)
        return entry

    def _draw(self, frame: Frame, status_text: str) -> Image.Image:
        p = _Painter(self)
        bars = False
        for win in frame.windows:
            if win.kind in ("statusbar", "navbar"):
                continue  # drawn here, the same for every app
            if win.kind != "activity" and not bars:
                # Bars go above the app but under dialogs' scrims, keyboards and toasts.
                p.status_bar(status_text, self.status_h)
                p.nav_bar(self.nav_h)
                bars = True
            p.window(win)
        if not bars:
            p.status_bar(status_text, self.status_h)
            p.nav_bar(self.nav_h)
        return p.img


def _sig(v: View, depth: int, out: list[Any]) -> None:
    if not v.shown:
        return
    out.append(
        (
            depth,
            v.kind,
            v.bounds,
            v.visible_bounds,
            v.text,
            v.hint,
            v.icon,
            v.color,
            v.desc,
            v.checked,
            v.focused,
            v.enabled,
            v.selected,
            v.password,
            v.text_size,
            v.bold,
            v.gravity,
            v.padding,
            v.scrollable,
            v.id,
            v.key,
            len(v.children),
            v.canvas,
            v.cursor,
        )
    )
    for child in v.children:
        _sig(child, depth + 1, out)
