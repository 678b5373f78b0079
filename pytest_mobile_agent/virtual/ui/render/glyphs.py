"""Icons: the Material Icons font (Apache-2.0, shipped by the tkinter-icons-gmi wheel) drawn by
name, plus the three system navigation-bar shapes, which are not Material icons.

`glyph_name` resolves what apps write (Material names, ic_ prefixes, the apps' drawable names
and a few synonyms) to a drawable glyph; `glyph_mask` rasterizes one at a pixel size, cached.
"""

from __future__ import annotations

import importlib.util
import json
from collections.abc import Callable
from functools import cache, lru_cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from pytest_mobile_agent.virtual.ui.render.masks import SS, Pen

GLYPHS: dict[str, Callable[[Pen], None]] = {}  # shapes drawn by hand: the system bar's only
# What the apps and the renderer write -> the Material icon their drawable is (the Simple
# Mobile Tools drawables ic_*_vector.xml are Google's Material paths).
ALIASES = {
    "back": "arrow_back",
    "more": "more_vert",
    "overflow": "more_vert",
    "forward": "arrow_forward",
    "next": "arrow_forward",
    "plus": "add",
    "new": "add",
    "x": "close",
    "cancel": "close",
    "trash": "delete",
    "remove": "delete",
    "pencil": "edit",
    "rename": "edit",
    "gear": "settings",
    "heart": "favorite",
    "star_outline": "star_border",
    "done": "check",
    "ok": "check",
    "hamburger": "menu",
    "drawer": "menu",
    "about": "info",
    "photo": "image",
    "gallery": "image",
    "picture": "image",
    "file": "insert_drive_file",
    "document": "insert_drive_file",
    "files": "folder",
    "file_manager": "folder",
    "music": "music_note",
    "audio": "music_note",
    "song": "music_note",
    "play": "play_arrow",
    "video": "play_arrow",
    "previous": "skip_previous",
    "record": "mic",
    "recorder": "mic",
    "calendar": "calendar_today",
    "event": "calendar_today",
    "call": "phone",
    "dialer": "phone",
    "sms": "message",
    "chat": "message",
    "messages": "message",
    "mail": "email",
    "contact": "person",
    "contacts": "person",
    "account": "person",
    "password": "lock",
    "notes": "sticky_note_2",
    "text": "notes",
    "camera": "camera_alt",
    "filter": "filter_list",
    "clock": "access_time",
    "alarm": "access_time",
    "time": "access_time",
    "stopwatch": "timer",
    "calculator": "calculate",
    "flashlight": "flashlight_on",
    "torch": "flashlight_on",
    "globe": "language",
    "browser": "language",
    "web": "language",
    "copy": "content_copy",
    "chevron_down": "expand_more",
    "expand": "expand_more",
    "chevron_up": "expand_less",
    "collapse": "expand_less",
    "open": "chevron_right",
    "sync": "refresh",
    "reload": "refresh",
    "save": "save",
    "draw": "edit",
    "paint": "brush",
    "launcher": "apps",
    "keyboard_backspace": "backspace",
    "⌫": "backspace",
    "enter": "keyboard_return",
    "return": "keyboard_return",
    "⏎": "keyboard_return",
    "recent": "history",
    "ruler": "straighten",
    "unit_converter": "straighten",
    "swap": "swap_vert",
    "convert": "swap_vert",
    "eye": "visibility",
    "view": "visibility",
    "show": "visibility",
    "grid": "grid_view",
    "list_view": "list",
    "wifi": "signal_wifi_4_bar",
    "signal": "signal_cellular_4_bar",
    "battery": "battery_full",
}


@cache
def _font_dir() -> Path:
    # Located without importing the wrapper package (its __init__ pulls in tkinter).
    spec = importlib.util.find_spec("tkinter_icons_gmi")
    if spec is None or not spec.submodule_search_locations:
        raise RuntimeError("the Material Icons font is missing: install the tkinter-icons-gmi package")
    return Path(next(iter(spec.submodule_search_locations)))


@cache
def material_codepoints() -> dict[str, int]:
    """Material icon name -> its codepoint in MaterialIcons-Regular.ttf."""
    raw = json.loads((_font_dir() / "glyphmap.json").read_text(encoding="utf-8"))
    return {name: int(cp, 16) for name, cp in raw.items()}


@lru_cache(maxsize=64)
def _font(px: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(_font_dir() / "fonts" / "MaterialIcons-Regular.ttf"), px)


def glyph(name: str) -> Callable[[Callable[[Pen], None]], Callable[[Pen], None]]:
    def register(fn: Callable[[Pen], None]) -> Callable[[Pen], None]:
        GLYPHS[name] = fn
        return fn

    return register


def glyph_name(name: str) -> str | None:
    """The glyph drawn for what an app wrote, or None when neither the font nor GLYPHS has it."""
    key = name.strip().lower().replace("-", "_").replace(" ", "_")
    codes = material_codepoints()
    for k in (key, key.removeprefix("ic_"), key.removeprefix("ic_").removesuffix("_vector"), key.removesuffix("_24")):
        k = ALIASES.get(k, k)
        if k in GLYPHS or k in codes:
            return k
    return None


@lru_cache(maxsize=512)
def glyph_mask(name: str, px: int) -> Image.Image:
    """Antialiased px x px mask of a glyph: the Material font's (a 24 unit em) or a hand-drawn one."""
    if name in GLYPHS:
        big = Image.new("L", (px * SS, px * SS), 0)
        GLYPHS[name](Pen(ImageDraw.Draw(big), px * SS / 24))
        return big.reduce(SS)
    mask = Image.new("L", (px, px), 0)
    ImageDraw.Draw(mask).text((px / 2, px / 2), chr(material_codepoints()[name]), fill=255, font=_font(px), anchor="mm")
    return mask


@glyph("nav_back")
def _nav_back(g: Pen) -> None:
    g.line([(17, 4.5), (17, 19.5), (5, 12), (17, 4.5)], 2, caps=False)


@glyph("nav_home")
def _nav_home(g: Pen) -> None:
    g.ring(12, 12, 8.5, 2)


@glyph("nav_recents")
def _nav_recents(g: Pen) -> None:
    g.frame(5, 5, 19, 19, 1.2, 2)
