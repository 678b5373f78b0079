"""Media drawn from their own pixels: an image file decoded with Pillow, turned upright by its
EXIF orientation and scaled as an ImageView's scaleType does; a video gets a poster frame
generated from its name (there is no video decoder here). Pictures are cached by the file's
path, modification time, size and the size drawn, so an unchanged thumbnail is decoded once.
"""

from __future__ import annotations

import threading
import zlib
from collections import OrderedDict
from functools import lru_cache
from pathlib import PurePosixPath

from PIL import Image, ImageDraw, ImageOps

from pytest_mobile_agent.virtual.ui.render.colors import hsv, mix
from pytest_mobile_agent.virtual.ui.view import Media

VIDEO_EXTENSIONS = frozenset(
    {"mp4", "mkv", "webm", "avi", "3gp", "mov", "m4v", "mpg", "mpeg", "wmv", "flv", "ts"}
)  # what Gallery and File Manager both treat as a video
CACHE_BYTES = 48 * 1024**2  # pictures kept, by their RGB bytes: a few screens of thumbnails and photos
POSTER = (320, 180)  # a poster frame's pixels: 16:9, as most phone videos

# Simple-Commons' file-type drawables (ic_file_<type>.xml): a sheet with the type's colour in a
# band across its bottom; the band's colour per extension (getFilePlaceholderDrawables).
FILE_BANDS: dict[str, str] = {
    "aep": "#3a3375",
    "ai": "#e57603",
    "avi": "#d75e72",
    "css": "#0096e6",
    "csv": "#f36fa0",
    "dbf": "#e96360",
    "doc": "#0096e6",
    "docx": "#0096e6",
    "dwg": "#8697cb",
    "exe": "#9777a8",
    "fla": "#ce3c3b",
    "flv": "#ce3c3b",
    "htm": "#ec6630",
    "html": "#ec6630",
    "ics": "#ff7f2a",
    "indd": "#6f2b41",
    "iso": "#71c285",
    "jpg": "#14a085",
    "jpeg": "#14a085",
    "js": "#eeaf4b",
    "json": "#9777a8",
    "m4a": "#64b5f6",
    "mp3": "#7d6599",
    "mp4": "#ff5364",
    "ogg": "#4fc3f7",
    "pdf": "#cc4b4c",
    "plproj": "#193772",
    "ppt": "#f6712e",
    "pptx": "#f6712e",
    "prproj": "#653e66",
    "psd": "#5889c4",
    "rtf": "#90bae1",
    "sesx": "#2f5074",
    "sql": "#e96360",
    "svg": "#e57e25",
    "txt": "#95a5a5",
    "vcf": "#ef5350",
    "wav": "#5c6bc0",
    "wmv": "#ff5364",
    "xls": "#91cda0",
    "xlsx": "#91cda0",
    "xml": "#f29c1f",
    "zip": "#556080",
}
GENERIC_BAND = "#c8bdb8"  # ic_file_generic: the band holds three dots instead of a name
# The drawables' label: the type's own name where it differs from the extension.
FILE_LABELS = {"docx": "DOC", "jpeg": "JPG", "htm": "HTML", "pptx": "PPT", "xlsx": "XLS"}

_cache: OrderedDict[tuple, Image.Image | None] = OrderedDict()
_cache_bytes = 0
_lock = threading.Lock()
decodes = 0  # pictures made rather than found in the cache (the benchmark reads it)


def extension(path: str) -> str:
    return PurePosixPath(path).suffix.lower().lstrip(".")


def is_video(path: str) -> bool:
    return extension(path) in VIDEO_EXTENSIONS


def picture(media: Media, width: int, height: int) -> Image.Image | None:
    """The file's picture for a width x height view, or None when it is not an image Pillow can
    decode (the apps then show their placeholder). "crop" fills the box exactly; "fit" keeps
    the whole picture, as large as fits, and may be smaller along one side."""
    global decodes, _cache_bytes
    if width <= 0 or height <= 0:
        return None
    key = (media.path, media.mtime_ns, media.size, media.fit, media.edits, width, height)
    with _lock:
        if key in _cache:
            _cache.move_to_end(key)
            return _cache[key]
    source = poster(PurePosixPath(media.path).name) if is_video(media.path) else decode(media.path, (width, height))
    if source is not None and media.edits:
        source = edited(source, media.edits)
    made = None if source is None else _scaled(source, media.fit, width, height)
    with _lock:
        decodes += 1
        if key not in _cache:
            _cache[key] = made
            _cache_bytes += _size(made)
        while _cache_bytes > CACHE_BYTES and len(_cache) > 1:
            _cache_bytes -= _size(_cache.popitem(last=False)[1])
    return made


def _size(img: Image.Image | None) -> int:
    return 64 if img is None else img.width * img.height * 3


def decode(path: str, box: tuple[int, int] | None = None) -> Image.Image | None:
    """The image upright (its EXIF orientation applied) in RGB, at least `box` large where a JPEG
    can be decoded at a reduced scale; None when it is not an image Pillow can decode."""
    try:
        with Image.open(path) as im:
            if box is not None:
                side = max(box)  # EXIF may turn it a quarter: ask for both sides
                im.draft("RGB", (side, side))  # a JPEG decodes straight at a reduced scale
            upright = ImageOps.exif_transpose(im)
            if upright.mode in ("RGBA", "LA", "PA") or "transparency" in upright.info:
                rgba = upright.convert("RGBA")
                flat = Image.new("RGB", rgba.size, (0, 0, 0))
                flat.paste(rgba, mask=rgba.getchannel("A"))
                return flat
            return upright.convert("RGB")
    except (OSError, ValueError, SyntaxError, Image.DecompressionBombError):
        return None  # not an image, a truncated one, or a format Pillow lacks


def dimensions(path: str) -> tuple[int, int] | None:
    """The image's stored width and height, read from its header (BitmapFactory's
    inJustDecodeBounds: EXIF orientation not applied); None when it is not an image."""
    try:
        with Image.open(path) as im:
            return im.size
    except (OSError, ValueError, SyntaxError, Image.DecompressionBombError):
        return None


def edited(img: Image.Image, edits: tuple[str, ...]) -> Image.Image:
    """An editor's operations in order: "rotate" (a quarter turn clockwise, CropImageView's
    rotateImage(90)), "flip_h", "flip_v", and "crop:W:H", the largest centred W:H rectangle (the
    crop window a fixed aspect ratio gives)."""
    for op in edits:
        if op == "rotate":
            img = img.transpose(Image.Transpose.ROTATE_270)
        elif op == "flip_h":
            img = img.transpose(Image.Transpose.FLIP_LEFT_RIGHT)
        elif op == "flip_v":
            img = img.transpose(Image.Transpose.FLIP_TOP_BOTTOM)
        elif op.startswith("crop:"):
            _, rw, rh = op.split(":")
            w, h = img.size
            cw, ch = min(w, round(h * float(rw) / float(rh))), min(h, round(w * float(rh) / float(rw)))
            left, top = (w - cw) // 2, (h - ch) // 2
            img = img.crop((left, top, left + cw, top + ch))
        else:
            raise ValueError(f"unknown edit {op!r}")
    return img


def _scaled(source: Image.Image, fit: str, width: int, height: int) -> Image.Image:
    if fit == "fit":
        return ImageOps.contain(source, (width, height), Image.Resampling.BILINEAR)
    return ImageOps.fit(source, (width, height), Image.Resampling.BILINEAR)


@lru_cache(maxsize=64)
def poster(name: str) -> Image.Image:
    """A video's generated poster frame, the same for the same name: a dusk scene of hills under
    a low sun, its colours from a hash of the name."""
    seed = zlib.crc32(name.encode())
    w, h = POSTER
    hue = (seed & 0xFF) / 255
    sky_top = hsv(hue, 0.55, 0.35)
    sky_low = hsv((hue + 0.08) % 1, 0.45, 0.85)
    img = Image.new("RGB", POSTER)
    d = ImageDraw.Draw(img)
    for y in range(h):
        d.line((0, y, w, y), fill=mix(sky_low, sky_top, y / (h - 1)))
    sun_x = 60 + (seed >> 8) % 200
    d.ellipse((sun_x - 18, 70, sun_x + 18, 106), fill=hsv((hue + 0.12) % 1, 0.35, 1.0))
    crest = 40 + (seed >> 16) % 240
    d.polygon([(0, h), (0, 120), (crest, 95), (w, 125), (w, h)], fill=hsv((hue + 0.5) % 1, 0.35, 0.3))
    d.polygon([(0, h), (0, 150), (w - crest, 128), (w, 145), (w, h)], fill=hsv((hue + 0.5) % 1, 0.3, 0.16))
    return img


@lru_cache(maxsize=64)
def rounded_mask(width: int, height: int, radius: int) -> Image.Image:
    """An antialiased mask of a width x height rectangle with rounded corners."""
    k = 4
    big = Image.new("L", (width * k, height * k), 0)
    ImageDraw.Draw(big).rounded_rectangle((0, 0, width * k - 1, height * k - 1), radius * k, fill=255)
    return big.resize((width, height), Image.Resampling.BOX)
