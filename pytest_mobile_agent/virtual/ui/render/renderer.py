"""The screen renderer: draws a frame's windows into a picture and serves it as PNG, JPEG or raw RGBA.

The picture only has to look like a plausible Material phone screen to a multimodal agent; the
view trees (bounds, text, flags) stay the source of truth. Rendering is deterministic, so the
same screen state always gives the same bytes, and an unchanged screen is drawn once: a cheap
signature of everything drawn keys a small LRU of encodings, the most recent with their pictures.
"""

from __future__ import annotations

import io
import threading
from collections import OrderedDict
from typing import Any

from PIL import Image

from pytest_mobile_agent.virtual.ui.render.colors import DAY, Theme
from pytest_mobile_agent.virtual.ui.render.painter import Painter
from pytest_mobile_agent.virtual.ui.render.png import PngEncoder
from pytest_mobile_agent.virtual.ui.render.text import Fonts
from pytest_mobile_agent.virtual.ui.screen import Frame
from pytest_mobile_agent.virtual.ui.view import View


class ScreenRenderer:
    """Renders Frames to pictures, remembering the last few screens.

    The last `cache_size` screens keep their encodings (a PNG is about 100 kB), only the last
    `pictures` of them their picture too (10 MB at 1080x2340): an agent going back to a screen
    it saw a few steps earlier (a tap that did nothing, a dialog closed, Back) gets its PNG
    without a drawing or an encoding, and an idle device holds little memory.
    """

    def __init__(self, width: int, height: int, scale: float, cache_size: int = 4, pictures: int | None = None) -> None:
        self.width, self.height, self.scale = width, height, scale
        self.status_h = round(24 * scale)
        self.nav_h = round(48 * scale)
        self.theme: Theme = DAY  # the night mode's colours, or the day's
        self.font_scale = 1.0  # settings' system font_scale
        self.renders = 0  # how many times a picture was actually drawn
        self.last_icons: list[tuple[str, str]] = []  # the icons of the last picture drawn (Canvas.icons)
        self._cache: OrderedDict[tuple, dict[Any, Any]] = OrderedDict()
        self._cache_size = cache_size
        self._pictures = cache_size if pictures is None else max(1, min(pictures, cache_size))
        self._fonts = Fonts()
        self._png = PngEncoder()
        self._lock = threading.RLock()  # adb services may ask for the screen from several threads

    # public API
    def image(self, frame: Frame, status_text: str = "") -> Image.Image:
        """A copy of the screen picture (callers may draw on it)."""
        with self._lock:
            return self._picture(self._entry(frame, status_text), frame, status_text).copy()

    def png(self, frame: Frame, status_text: str = "") -> bytes:
        with self._lock:
            entry = self._entry(frame, status_text)
            if "png" not in entry:
                entry["png"] = self._png.encode(self._picture(entry, frame, status_text))
            return entry["png"]

    def jpeg(self, frame: Frame, status_text: str = "", quality: int = 80) -> bytes:
        with self._lock:
            entry = self._entry(frame, status_text)
            key = ("jpeg", quality)
            if key not in entry:
                buf = io.BytesIO()
                self._picture(entry, frame, status_text).save(buf, "JPEG", quality=quality)
                entry[key] = buf.getvalue()
            return entry[key]

    def rgba(self, frame: Frame, status_text: str = "") -> bytes:
        """Raw RGBA8888, row-major (screencap's raw format and the framebuffer service)."""
        with self._lock:
            entry = self._entry(frame, status_text)
            if "rgba" not in entry:
                entry["rgba"] = self._picture(entry, frame, status_text).convert("RGBA").tobytes()
            return entry["rgba"]

    # caching
    def signature(self, frame: Frame, status_text: str) -> tuple:
        """Everything that reaches the picture, as a hashable value."""
        out: list[Any] = [self.width, self.height, self.scale, self.theme.name, self.font_scale, status_text]
        for win in frame.windows:
            out.append(win.kind)
            _sig(win.root, 0, out)
        return tuple(out)

    def _entry(self, frame: Frame, status_text: str) -> dict[Any, Any]:
        """The cache entry of this screen, made the most recent; its picture may be drawn yet."""
        key = self.signature(frame, status_text)
        entry = self._cache.get(key)
        if entry is not None:
            self._cache.move_to_end(key)
        else:
            entry = self._cache[key] = {}
            while len(self._cache) > self._cache_size:
                self._cache.popitem(last=False)
        for i, older in enumerate(reversed(self._cache.values())):
            if i >= self._pictures:  # the big ones go, the encodings stay
                older.pop("image", None)
                older.pop("rgba", None)
        return entry

    def _picture(self, entry: dict[Any, Any], frame: Frame, status_text: str) -> Image.Image:
        if "image" not in entry:
            entry["image"] = self._draw(frame, status_text)
            self.renders += 1
        return entry["image"]

    def _draw(self, frame: Frame, status_text: str) -> Image.Image:
        p = Painter(self.width, self.height, self.scale, self._fonts, self.theme, self.font_scale)
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
        self.last_icons = p.icons
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
            v.strike,
            v.alpha,
            v.tint,
            v.gravity,
            v.padding,
            v.scrollable,
            v.id,
            v.key,
            len(v.children),
            v.canvas,
            v.cursor,
            v.media,
        )
    )
    for child in v.children:
        _sig(child, depth + 1, out)
