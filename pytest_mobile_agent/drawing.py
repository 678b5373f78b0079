"""Screenshots with the agent's action drawn on them, and a contact sheet of a whole trajectory.

Each action is drawn on the screen the agent saw when it chose it (the screenshot before the
action): a dot for a tap (with a thin ring for each further tap of a double or triple tap), a
ring for a long press, an arrow for a swipe or scroll, a banner for
typed text, keys, launches, API calls and waits. Selector actions are resolved against the
hierarchy of that same screen, the way the harness resolved them when it acted.

The reports draw trajectories with it (reporting/screens.py, off the step loop's path); the
MLLM judge shows a model the same annotated screens, and the built-in agents draw their marks
with its font.
"""

from __future__ import annotations

import io
import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from PIL import Image, ImageDraw, ImageFont

from pytest_mobile_agent.actions import InvalidAction, Selector
from pytest_mobile_agent.device.ui_tree import UiTree, scroll_path

# Electric blue with a white rim and a dark halo: visible on light, dark and coloured screens.
ACCENT = (41, 121, 255)
OUTLINE = (255, 255, 255)
HALO = (0, 0, 0, 110)
BOUNDS = (41, 121, 255)  # the element a selector resolved to
BANNER_BG = (33, 33, 33, 215)
REPORT_WIDTH = 540  # half a 1080-px phone: readable, and a quarter of the pixels to encode
THUMB_WIDTH = 200
_ROOT_BOUNDS = re.compile(r'bounds="\[0,0\]\[(\d+),(\d+)\]"')


@dataclass(frozen=True)
class Gesture:
    """Where an action touched, in device pixels, and what to write beside it."""

    point: tuple[int, int] | None = None
    path: tuple[int, int, int, int] | None = None  # swipe from (x, y) to (x2, y2)
    bounds: tuple[int, int, int, int] | None = None
    long: bool = False
    taps: int = 1  # a double tap draws one more ring, a triple tap two
    label: str = ""


@cache
def font(size: int) -> ImageFont.ImageFont | ImageFont.FreeTypeFont:
    try:
        return ImageFont.load_default(size=size)
    except (TypeError, OSError):  # Pillow without FreeType: the fixed bitmap font
        return ImageFont.load_default()


def _select(action: dict[str, Any], tree: UiTree | None) -> Any:
    raw = action.get("selector")
    if not raw or tree is None:
        return None
    try:
        selector = Selector.of(**raw)
    except (InvalidAction, TypeError):
        return None
    return tree.select(selector) if selector is not None else None


def _short(text: Any, limit: int = 60) -> str:
    s = str(text)
    return s if len(s) <= limit else s[: limit - 3] + "..."


def gesture(action: dict[str, Any], hierarchy: str | None, size: tuple[int, int]) -> Gesture:
    """Resolve a recorded action (`Step.action`, JSON form) on the screen it was taken on."""
    kind = action.get("action")
    tree: UiTree | None = None
    if hierarchy and (action.get("selector") or kind == "scroll"):
        try:
            tree = UiTree(hierarchy)
        except Exception:  # a truncated dump: draw what needs no tree
            tree = None
    node = _select(action, tree)
    bounds = node.bounds if node is not None else None
    if kind in ("tap", "long_press"):
        point = node.center if node is not None else _xy(action)
        count = action.get("count")
        taps = count if isinstance(count, int) else 1
        return Gesture(point=point, bounds=bounds, long=kind == "long_press", taps=taps, label=describe(action))
    if kind == "swipe":
        start, end = _xy(action), _xy(action, "x2", "y2")
        path = (*start, *end) if start is not None and end is not None else None
        return Gesture(path=path, label=describe(action))
    if kind == "scroll":
        return Gesture(
            path=scroll_path(_select(action, tree), tree, size, action.get("direction")),
            bounds=bounds,
            label=describe(action),
        )
    if kind == "type":
        return Gesture(point=node.center if node is not None else None, bounds=bounds, label=describe(action))
    return Gesture(label=describe(action))


def describe(action: dict[str, Any]) -> str:
    """One line for a recorded action: `tap text='='`, `type 'hello'`, `key back`..."""
    kind = action.get("action")
    if kind is None:
        return f"unparsable: {_short(action.get('raw', action))}"
    if kind == "tap" and action.get("count") in (2, 3):
        kind = {2: "double_tap", 3: "triple_tap"}[action["count"]]
    selector = ", ".join(f"{k}={v!r}" for k, v in (action.get("selector") or {}).items())
    xy = _xy(action)
    target = selector or (f"({xy[0]}, {xy[1]})" if xy else "")
    detail = {
        "type": repr(action.get("text")),
        "key": action.get("key"),
        "launch": action.get("package"),
        "api": action.get("command"),
        "scroll": action.get("direction"),
        "wait": f"{action.get('seconds')} s",
    }.get(kind)
    if kind == "swipe":
        target = f"({action.get('x')}, {action.get('y')}) -> ({action.get('x2')}, {action.get('y2')})"
    return " ".join(str(p) for p in (kind.replace("_", " "), detail, target) if p)


def _xy(action: dict[str, Any], xkey: str = "x", ykey: str = "y") -> tuple[int, int] | None:
    x, y = action.get(xkey), action.get(ykey)
    return (int(x), int(y)) if isinstance(x, int | float) and isinstance(y, int | float) else None


def screen_size(hierarchy: str | None, fallback: tuple[int, int]) -> tuple[int, int]:
    """The device's screen in pixels: the largest view anchored at the top-left corner of the
    dump (a full-screen window; the first such view may be a status bar or a popup)."""
    sizes = [(int(w), int(h)) for w, h in _ROOT_BOUNDS.findall(hierarchy or "")]
    if not sizes:
        return fallback
    return max(w for w, _ in sizes), max(h for _, h in sizes)


def annotate(
    png: bytes,
    action: dict[str, Any],
    hierarchy: str | None,
    *,
    width: int = REPORT_WIDTH,
    caption: str = "",
    error: str | None = None,
) -> Image.Image:
    """The screenshot `png` scaled to `width` with `action` drawn on it."""
    image, full = scaled(png, width)
    return _draw_action(image, full, action, hierarchy, caption=caption, error=error)


def _draw_action(
    image: Image.Image,
    full: tuple[int, int],
    action: dict[str, Any],
    hierarchy: str | None,
    *,
    caption: str = "",
    error: str | None = None,
) -> Image.Image:
    size = screen_size(hierarchy, full)
    g = gesture(action, hierarchy, size)
    sx, sy = image.width / max(1, size[0]), image.height / max(1, size[1])
    draw = ImageDraw.Draw(image, "RGBA")
    unit = max(2, image.width // 90)

    def at(x: float, y: float) -> tuple[float, float]:
        return x * sx, y * sy

    if g.bounds is not None:
        l, t = at(*g.bounds[:2])
        r, b = at(*g.bounds[2:])
        draw.rectangle((l, t, r, b), outline=BOUNDS, width=max(1, unit // 2))
    if g.path is not None:
        _arrow(draw, at(*g.path[:2]), at(*g.path[2:]), unit)
    if g.point is not None:
        x, y = at(*g.point)
        r = unit * 4
        h = r + unit
        draw.ellipse((x - h, y - h, x + h, y + h), outline=HALO, width=unit)
        draw.ellipse((x - r, y - r, x + r, y + r), fill=ACCENT + (170,), outline=OUTLINE, width=max(2, unit * 2 // 3))
        if g.long:
            draw.ellipse((x - 2 * r, y - 2 * r, x + 2 * r, y + 2 * r), outline=ACCENT, width=unit)
        for ring in range(1, g.taps):  # close rings: one touch each, not the long press's wide one
            q = h + ring * 2 * unit
            draw.ellipse((x - q, y - q, x + q, y + q), outline=ACCENT, width=max(1, unit // 2))
    text = g.label if error is None else f"{g.label} - invalid: {_short(error, 80)}"
    if text:
        _banner(draw, image, _short(text, 90), top=False, unit=unit, color=(183, 28, 28, 225) if error else BANNER_BG)
    if caption:
        _banner(draw, image, caption, top=True, unit=unit, color=BANNER_BG)
    return image


def scaled(png: bytes, width: int) -> tuple[Image.Image, tuple[int, int]]:
    """Decode and shrink by a whole factor (box filter: several times faster than resize);
    returns the image and the screenshot's own size."""
    image: Image.Image = Image.open(io.BytesIO(png))
    if image.mode != "RGB":
        image = image.convert("RGB")
    factor = image.width // width if width else 1
    return (image.reduce(factor) if factor > 1 else image), image.size


def _arrow(draw: ImageDraw.ImageDraw, start: tuple[float, float], end: tuple[float, float], unit: int) -> None:
    (x1, y1), (x2, y2) = start, end
    draw.line((x1, y1, x2, y2), fill=ACCENT, width=unit)
    draw.ellipse((x1 - unit * 2, y1 - unit * 2, x1 + unit * 2, y1 + unit * 2), fill=ACCENT)
    dx, dy = x2 - x1, y2 - y1
    length = max(1.0, (dx * dx + dy * dy) ** 0.5)
    ux, uy = dx / length, dy / length
    head = unit * 6
    left = (x2 - ux * head - uy * head * 0.6, y2 - uy * head + ux * head * 0.6)
    right = (x2 - ux * head + uy * head * 0.6, y2 - uy * head - ux * head * 0.6)
    draw.polygon([(x2, y2), left, right], fill=ACCENT)


def _banner(
    draw: ImageDraw.ImageDraw, image: Image.Image, text: str, *, top: bool, unit: int, color: tuple[int, ...]
) -> None:
    f = font(max(10, unit * 5))
    _, _, tw, th = draw.textbbox((0, 0), text, font=f)
    pad = unit * 2
    y0 = 0 if top else image.height - th - 2 * pad
    draw.rectangle((0, y0, min(image.width, tw + 2 * pad), y0 + th + 2 * pad), fill=color)
    draw.text((pad, y0 + pad - 1), text, fill=OUTLINE, font=f)


def encode(image: Image.Image) -> bytes:
    out = io.BytesIO()
    image.save(out, format="PNG", compress_level=3)  # UI screens compress well even at a low level
    return out.getvalue()


def encode_palette(image: Image.Image) -> bytes:
    """A PNG of at most 256 colours: a report step's screen in a third of the bytes of `encode`,
    at the same speed (UI screens have few colours; photos keep their shapes). Deflate level 3:
    twice as fast as 6 on these images for a tenth more bytes. The final screen stays full size
    and full colour."""
    out = io.BytesIO()
    image.convert("RGB").quantize(256, method=Image.Quantize.FASTOCTREE).save(out, format="PNG", compress_level=3)
    return out.getvalue()


# The marks' colours, alone and blended at their opacity over white and black: a frame mapped
# onto the palette of its own screen (`quantized`, `encode_on`) keeps them.
MARK_COLOURS: tuple[tuple[int, int, int], ...] = (ACCENT, OUTLINE, (0, 0, 0), (33, 33, 33), (183, 28, 28))
MARK_COLOURS += ((112, 166, 255), (145, 145, 145), (68, 68, 68), (191, 55, 55), (28, 128, 255))


def quantized(image: Image.Image) -> Image.Image:
    """`image` in 256 colours: its own most frequent, then the marks' (`encode_on` maps the same
    screen with its action drawn onto this palette, a third of the time of quantizing it again).
    The colours are chosen on the image at half size, a quarter of the pixels (UI screens lose
    no colour that way), and the image is then mapped onto them: two thirds of the time of
    quantizing it whole, no larger error."""
    rgb = image.convert("RGB")
    sample = rgb.reduce(2) if rgb.width >= 4 and rgb.height >= 4 else rgb
    own = sample.quantize(256 - len(MARK_COLOURS), method=Image.Quantize.FASTOCTREE)
    palette = (own.getpalette() or [])[: 3 * (256 - len(MARK_COLOURS))]
    own.putpalette(palette + [c for colour in MARK_COLOURS for c in colour])
    return rgb.quantize(palette=own, dither=Image.Dither.NONE)


def encode_on(image: Image.Image, like: Image.Image) -> bytes:
    """`image` as a PNG in the palette of `like` (a `quantized` image of the same screen)."""
    out = io.BytesIO()
    image.convert("RGB").quantize(palette=like, dither=Image.Dither.NONE).save(out, format="PNG", compress_level=3)
    return out.getvalue()


def encode_quantized(image: Image.Image) -> bytes:
    out = io.BytesIO()
    image.save(out, format="PNG", compress_level=3)
    return out.getvalue()


def shrink(image: Image.Image, width: int) -> Image.Image:
    """`image` at `width` px wide: a box filter by the largest whole factor, then a small resize
    (a direct bilinear resize of a big image costs several times more)."""
    factor = image.width // width
    if factor > 1:
        image = image.reduce(factor)
    if image.width == width:
        return image
    return image.resize((width, max(1, round(image.height * width / image.width))), Image.Resampling.BILINEAR)


def thumbnail_jpeg(image: Image.Image, width: int, quality: int = 70) -> bytes:
    """A small JPEG (inline in report descriptions, where bytes count)."""
    out = io.BytesIO()
    shrink(image, width).save(out, format="JPEG", quality=quality)
    return out.getvalue()


def step_frame(
    image: Image.Image, full: tuple[int, int], step: Any, xml: str | None, success_step: int | None
) -> Image.Image:
    """Step `step`'s frame, drawn on `image`: the screen it acted on, already decoded and scaled
    (`full`: its size on the device, `xml`: its hierarchy), with its action and a caption."""
    caption = f"step {step.index}" + ("  (task done here)" if step.index == success_step else "")
    return _draw_action(image, full, step.action, xml, caption=caption, error=step.error)


def contact_sheet(images: Sequence[Image.Image], *, columns: int = 6, thumb_width: int = THUMB_WIDTH) -> Image.Image:
    """All frames of a trajectory in one image, left to right, top to bottom."""
    if not images:
        return Image.new("RGB", (thumb_width, thumb_width), (255, 255, 255))
    thumbs = [shrink(im, thumb_width) for im in images]
    gap = 8
    cols = min(columns, len(thumbs))
    rows = -(-len(thumbs) // cols)
    cell_h = max(t.height for t in thumbs)
    sheet = Image.new("RGB", (cols * (thumb_width + gap) + gap, rows * (cell_h + gap) + gap), (240, 240, 240))
    for i, thumb in enumerate(thumbs):
        r, c = divmod(i, cols)
        sheet.paste(thumb, (gap + c * (thumb_width + gap), gap + r * (cell_h + gap)))
    return sheet


def caption_on(image: Image.Image, caption: str) -> Image.Image:
    """`image` with `caption` in a banner at its top (drawn on it)."""
    draw = ImageDraw.Draw(image, "RGBA")
    _banner(draw, image, caption, top=True, unit=max(2, image.width // 90), color=BANNER_BG)
    return image
