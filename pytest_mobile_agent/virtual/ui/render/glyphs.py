"""Icons: vector glyphs drawn by name on a 24 x 24 grid, after the Material icon shapes.

`glyph_name` resolves what apps write (Material names, ic_ prefixes, common synonyms) to a
registered glyph; `glyph_mask` rasterizes one at a pixel size, antialiased and cached.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import lru_cache

from PIL import Image, ImageDraw

from pytest_mobile_agent.virtual.ui.render.masks import SS, Pen

GLYPHS: dict[str, Callable[[Pen], None]] = {}
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


def glyph(name: str) -> Callable[[Callable[[Pen], None]], Callable[[Pen], None]]:
    def register(fn: Callable[[Pen], None]) -> Callable[[Pen], None]:
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
    GLYPHS[name](Pen(ImageDraw.Draw(big), px * SS / 24))
    return big.reduce(SS)


@glyph("search")
def _search(g: Pen) -> None:
    g.ring(10, 10, 6.2, 2.2)
    g.line([(14.6, 14.6), (20, 20)], 2.6)


@glyph("more")
def _more(g: Pen) -> None:
    for y in (5, 12, 19):
        g.circle(12, y, 2.1)


@glyph("back")
def _back(g: Pen) -> None:
    g.line([(19.5, 12), (5, 12)], 2.2)
    g.line([(11.5, 5.5), (5, 12), (11.5, 18.5)], 2.2)


@glyph("arrow_forward")
def _forward(g: Pen) -> None:
    g.line([(4.5, 12), (19, 12)], 2.2)
    g.line([(12.5, 5.5), (19, 12), (12.5, 18.5)], 2.2)


@glyph("add")
def _add(g: Pen) -> None:
    g.line([(12, 5), (12, 19)], 2.2)
    g.line([(5, 12), (19, 12)], 2.2)


@glyph("close")
def _close(g: Pen) -> None:
    g.line([(6, 6), (18, 18)], 2.2)
    g.line([(18, 6), (6, 18)], 2.2)


@glyph("delete")
def _delete(g: Pen) -> None:
    g.line([(5, 6.5), (19, 6.5)], 2)
    g.rect(9.5, 3.5, 14.5, 6.5, 1)
    g.poly([(6.5, 8.5), (17.5, 8.5), (16.6, 20.5), (7.4, 20.5)])
    for x in (10, 14):
        g.line([(x, 11.5), (x, 17.5)], 1.1, ink=0)


@glyph("edit")
def _edit(g: Pen) -> None:
    g.poly([(3.5, 20.5), (3.5, 16.8), (14.6, 5.7), (18.3, 9.4), (7.2, 20.5)])
    g.poly([(15.9, 4.4), (17.4, 2.9), (21.1, 6.6), (19.6, 8.1)])


@glyph("settings")
def _settings(g: Pen) -> None:
    for i in range(8):
        a = i * math.pi / 4
        ca, sa = math.cos(a), math.sin(a)
        pts = [(12 + ca * r - sa * t, 12 + sa * r + ca * t) for r, t in ((6, -2.2), (10, -1.7), (10, 1.7), (6, 2.2))]
        g.poly(pts)
    g.circle(12, 12, 7.2)
    g.circle(12, 12, 3, ink=0)


@glyph("sort")
def _sort(g: Pen) -> None:
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
def _star(g: Pen) -> None:
    g.poly(_star_points(12, 12.6, 10, 4.2))


@glyph("star_outline")
def _star_outline(g: Pen) -> None:
    pts = _star_points(12, 12.6, 9.2, 3.9)
    g.line([*pts, pts[0]], 1.8, caps=False)


@glyph("heart")
def _heart(g: Pen) -> None:
    g.circle(8.2, 9, 4.6)
    g.circle(15.8, 9, 4.6)
    g.poly([(3.8, 10.6), (20.2, 10.6), (12, 20.5)])


@glyph("check")
def _check(g: Pen) -> None:
    g.line([(4.8, 12.6), (9.6, 17.4), (19.4, 7.2)], 2.5)


@glyph("menu")
def _menu(g: Pen) -> None:
    for y in (6.5, 12, 17.5):
        g.line([(4, y), (20, y)], 2)


@glyph("share")
def _share(g: Pen) -> None:
    g.line([(17.5, 5.5), (6.5, 12), (17.5, 18.5)], 1.6)
    for x, y in ((17.5, 5.5), (6.5, 12), (17.5, 18.5)):
        g.circle(x, y, 2.9)


@glyph("info")
def _info(g: Pen) -> None:
    g.circle(12, 12, 10)
    g.circle(12, 7.6, 1.4, ink=0)
    g.line([(12, 11), (12, 17)], 2.2, ink=0)


@glyph("play")
def _play(g: Pen) -> None:
    g.poly([(8, 5), (19.5, 12), (8, 19)])


@glyph("equalizer")
def _equalizer(g: Pen) -> None:
    # Material's equalizer: three bars standing on one line, the middle one tallest.
    g.rect(4, 12, 8, 20, 0)
    g.rect(10, 4, 14, 20, 0)
    g.rect(16, 9, 20, 20, 0)


@glyph("pause")
def _pause(g: Pen) -> None:
    g.rect(6, 5, 10, 19, 0.6)
    g.rect(14, 5, 18, 19, 0.6)


@glyph("folder")
def _folder(g: Pen) -> None:
    g.rect(2.5, 5, 11, 10, 1.4)
    g.poly([(9, 5), (11, 5), (13, 7), (9, 7)])
    g.rect(2.5, 7, 21.5, 19.5, 1.6)


@glyph("file")
def _file(g: Pen) -> None:
    g.poly([(5.5, 2.5), (14, 2.5), (19, 7.5), (19, 21.5), (5.5, 21.5)])
    g.poly([(13.2, 2.5), (19.5, 8.8), (13.2, 8.8)], ink=0)
    g.poly([(14.2, 3.8), (18, 7.6), (14.2, 7.6)])


@glyph("image")
def _image(g: Pen) -> None:
    g.frame(3, 3.5, 21, 20.5, 2, 2)
    g.poly([(5.5, 18), (10, 11.5), (13.2, 15.2), (15.2, 12.8), (18.6, 18)])
    g.circle(16, 8.4, 1.8)


@glyph("music")
def _music(g: Pen) -> None:
    g.circle(8, 17, 3.4)
    g.line([(10.4, 17), (10.4, 4)], 2, caps=False)
    g.poly([(9.4, 3), (18.5, 3), (18.5, 7.2), (9.4, 7.2)])


@glyph("mic")
def _mic(g: Pen) -> None:
    g.rect(8.8, 2.5, 15.2, 14.5, 3.2)
    g.arc((5.2, 5.5, 18.8, 17.2), 0, 180, 1.8)
    g.line([(12, 17.2), (12, 21)], 1.8, caps=False)
    g.line([(8.5, 21), (15.5, 21)], 1.8)


@glyph("calendar")
def _calendar(g: Pen) -> None:
    g.frame(3.5, 5, 20.5, 21, 1.6, 2)
    g.rect(3.5, 5, 20.5, 9.8, 1.2)
    g.line([(8, 2.8), (8, 6)], 2)
    g.line([(16, 2.8), (16, 6)], 2)
    for x in (7, 11, 15):
        g.rect(x, 12.5, x + 2.4, 14.9)
        g.rect(x, 16.5, x + 2.4, 18.9)


@glyph("phone")
def _phone(g: Pen) -> None:
    g.arc((3.5, -10, 33.5, 20), 90, 180, 4.2)
    g.poly([(2.6, 3.6), (7.2, 2.2), (9.4, 7.4), (5.6, 9.4)])
    g.poly([(20.4, 21.4), (21.8, 16.8), (16.6, 14.6), (14.6, 18.4)])


@glyph("message")
def _message(g: Pen) -> None:
    g.rect(3, 3.5, 21, 17, 2.4)
    g.poly([(5.5, 16), (5.5, 21.5), (11, 16)])
    g.line([(7, 8.2), (17, 8.2)], 1.4, ink=0)
    g.line([(7, 12.2), (14, 12.2)], 1.4, ink=0)


@glyph("email")
def _email(g: Pen) -> None:
    g.rect(2.5, 5, 21.5, 19, 1.8)
    g.line([(4.5, 7.5), (12, 12.5), (19.5, 7.5)], 1.6, ink=0)


@glyph("person")
def _person(g: Pen) -> None:
    g.circle(12, 8, 4.2)
    g.rect(4, 14, 20, 20.5, 4.5)


@glyph("lock")
def _lock(g: Pen) -> None:
    g.arc((7.5, 2.8, 16.5, 12.8), 180, 360, 2)
    g.line([(7.5, 8), (7.5, 10.5)], 2, caps=False)
    g.line([(16.5, 8), (16.5, 10.5)], 2, caps=False)
    g.rect(4.5, 10, 19.5, 21.5, 2)
    g.circle(12, 15.8, 1.8, ink=0)


@glyph("filter")
def _filter(g: Pen) -> None:
    g.poly([(3, 4.5), (21, 4.5), (14, 12.8), (14, 20), (10, 17.6), (10, 12.8)])


@glyph("camera")
def _camera(g: Pen) -> None:
    g.rect(2.5, 6.5, 21.5, 20, 2)
    g.poly([(8, 7), (9.6, 4), (14.4, 4), (16, 7)])
    g.circle(12, 13.2, 4.4, ink=0)
    g.circle(12, 13.2, 2.8)


@glyph("home")
def _home(g: Pen) -> None:
    g.poly([(12, 3), (21.5, 11.5), (19, 11.5), (19, 20.5), (5, 20.5), (5, 11.5), (2.5, 11.5)])
    g.rect(10, 14, 14, 20.6, ink=0)


@glyph("refresh")
def _refresh(g: Pen) -> None:
    g.arc((4.5, 4.5, 19.5, 19.5), 20, 320, 2.2)
    g.poly([(14.5, 2.5), (21, 3), (20, 9.5)])


@glyph("download")
def _download(g: Pen) -> None:
    g.line([(12, 3.5), (12, 15)], 2.2)
    g.line([(6.5, 10), (12, 15.5), (17.5, 10)], 2.2)
    g.line([(5, 20), (19, 20)], 2.2)


@glyph("clock")
def _clock(g: Pen) -> None:
    g.ring(12, 12, 9.2, 2)
    g.line([(12, 6.5), (12, 12), (15.8, 14.4)], 2)


@glyph("note")
def _note(g: Pen) -> None:
    g.frame(4, 3, 20, 21, 2, 2)
    for y, x1 in ((8, 16), (12, 16), (16, 13)):
        g.line([(8, y), (x1, y)], 1.6)


@glyph("calculator")
def _calculator(g: Pen) -> None:
    g.rect(4.5, 2.5, 19.5, 21.5, 2)
    g.rect(7, 5, 17, 9, ink=0)
    for row in range(3):
        for col in range(3):
            x, y = 7.6 + col * 3.6, 11.2 + row * 3.4
            g.rect(x, y, x + 2, y + 2, ink=0)


@glyph("flashlight")
def _flashlight(g: Pen) -> None:
    g.poly([(6, 2.5), (18, 2.5), (18, 6.5), (15, 10.5), (15, 21.5), (9, 21.5), (9, 10.5), (6, 6.5)])
    g.circle(12, 14, 1.4, ink=0)


@glyph("globe")
def _globe(g: Pen) -> None:
    g.ring(12, 12, 9.2, 1.8)
    g.d.ellipse(tuple(v * g.k for v in (8, 2.8, 16, 21.2)), outline=255, width=max(1, round(1.6 * g.k)))
    g.line([(3, 12), (21, 12)], 1.6, caps=False)


@glyph("copy")
def _copy(g: Pen) -> None:
    g.frame(3.5, 6.5, 15.5, 21, 1.5, 1.9)
    g.frame(8, 2.5, 20.5, 17, 1.5, 1.9)


@glyph("chevron_right")
def _chevron_right(g: Pen) -> None:
    g.line([(9, 5.5), (15.5, 12), (9, 18.5)], 2.2)


@glyph("chevron_down")
def _chevron_down(g: Pen) -> None:
    g.line([(5.5, 9), (12, 15.5), (18.5, 9)], 2.2)


@glyph("chevron_up")
def _chevron_up(g: Pen) -> None:
    g.line([(5.5, 15), (12, 8.5), (18.5, 15)], 2.2)


@glyph("backspace")
def _backspace(g: Pen) -> None:
    g.poly([(2, 12), (7.5, 5), (21.5, 5), (21.5, 19), (7.5, 19)])
    g.line([(11, 9), (17, 15)], 1.6, ink=0)
    g.line([(17, 9), (11, 15)], 1.6, ink=0)


@glyph("enter")
def _enter(g: Pen) -> None:
    g.line([(19, 5), (19, 14), (5.5, 14)], 2.2)
    g.line([(10, 9.5), (5.5, 14), (10, 18.5)], 2.2)


@glyph("history")
def _history(g: Pen) -> None:
    g.arc((3.5, 3.5, 20.5, 20.5), 200, 160, 2)
    g.poly([(1, 11), (7.5, 11), (4.2, 15.5)])
    g.line([(12, 7.5), (12, 12.2), (15.2, 14.2)], 1.8)


@glyph("ruler")
def _ruler(g: Pen) -> None:
    g.rect(2, 7.5, 22, 16.5, 1.2)
    for x, tick in ((5.5, 4.5), (9, 2.8), (12.5, 4.5), (16, 2.8), (19.5, 4.5)):
        g.line([(x, 7.5), (x, 7.5 + tick)], 1.2, ink=0, caps=False)


@glyph("swap")
def _swap(g: Pen) -> None:
    g.line([(8, 19.5), (8, 5)], 2)
    g.poly([(3.5, 8.5), (8, 3), (12.5, 8.5)])
    g.line([(16, 4.5), (16, 19)], 2)
    g.poly([(11.5, 15.5), (16, 21), (20.5, 15.5)])


@glyph("undo")
def _undo(g: Pen) -> None:
    g.arc((6, 7.5, 21, 21), 180, 30, 2.2)
    g.poly([(2.5, 9), (9.5, 7.5), (5.5, 15)])


@glyph("redo")
def _redo(g: Pen) -> None:
    g.arc((3, 7.5, 18, 21), 150, 0, 2.2)
    g.poly([(21.5, 9), (14.5, 7.5), (18.5, 15)])


@glyph("eye")
def _eye(g: Pen) -> None:
    g.d.ellipse(tuple(v * g.k for v in (1.5, 5, 22.5, 19)), fill=255)
    g.circle(12, 12, 4.6, ink=0)
    g.circle(12, 12, 2.6)


@glyph("grid")
def _grid(g: Pen) -> None:
    for x in (3.5, 13):
        for y in (3.5, 13):
            g.rect(x, y, x + 7.5, y + 7.5, 1)


@glyph("list")
def _list(g: Pen) -> None:
    for y in (6, 12, 18):
        g.circle(5, y, 1.6)
        g.line([(9, y), (20.5, y)], 2)


@glyph("nav_back")
def _nav_back(g: Pen) -> None:
    g.line([(17, 4.5), (17, 19.5), (5, 12), (17, 4.5)], 2, caps=False)


@glyph("nav_home")
def _nav_home(g: Pen) -> None:
    g.ring(12, 12, 8.5, 2)


@glyph("nav_recents")
def _nav_recents(g: Pen) -> None:
    g.frame(5, 5, 19, 19, 1.2, 2)


@glyph("wifi")
def _wifi(g: Pen) -> None:
    g.pie((0.5, 3, 23.5, 26), 225, 315)


@glyph("signal")
def _signal(g: Pen) -> None:
    g.poly([(2.5, 21.5), (21.5, 2.5), (21.5, 21.5)])


@glyph("battery")
def _battery(g: Pen) -> None:
    g.rect(9.5, 2, 14.5, 4.5, 0.6)
    g.rect(7, 3.8, 17, 22.5, 1.4)
