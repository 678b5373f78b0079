"""Small media files the suites seed, made here with Pillow's shapes (nothing downloaded or
copied): recognisable scenes (a beach, dunes, a cat, a mountain, a sunset...) as real JPEGs and
PNGs of a few kB, chosen by the file's name, so a vision agent sees a photo of what the name says.

`media_bytes(name, token)` picks by extension; the token goes into the file's comment (JPEG)
or text chunk (PNG), so two tasks' files differ in bytes while looking the same. Videos are not
real containers: an MP4 `ftyp` box with the token, which the virtual device draws with a poster
frame generated from the name.
"""

from __future__ import annotations

import colorsys
import io
import zlib
from collections.abc import Callable

from PIL import Image, ImageDraw
from PIL.PngImagePlugin import PngInfo

SIZE = (320, 240)  # 4:3 landscape, as a phone's photo
EXIF_ORIENTATION = 0x0112
ROTATED_90 = 6  # the stored pixels are turned a quarter left: viewers turn them right to show them
IMAGE_EXTENSIONS = {"jpg", "jpeg", "png"}
VIDEO_EXTENSIONS = {"mp4", "mov", "avi", "mkv", "webm", "3gp", "m4v"}

Scene = Callable[[ImageDraw.ImageDraw, int, int], None]


def _sky(d: ImageDraw.ImageDraw, w: int, h: int, top: tuple[int, int, int], low: tuple[int, int, int]) -> None:
    for y in range(h):
        t = y / max(1, h - 1)
        d.line((0, y, w, y), fill=tuple(round(a + (b - a) * t) for a, b in zip(top, low, strict=True)))


def beach(d: ImageDraw.ImageDraw, w: int, h: int) -> None:
    """Blue sky, a sun, the sea and a sand beach with a parasol."""
    _sky(d, w, h, (90, 160, 230), (190, 225, 250))
    d.ellipse((w * 0.72, h * 0.08, w * 0.86, h * 0.27), fill=(255, 236, 120))
    d.rectangle((0, h * 0.5, w, h * 0.68), fill=(30, 110, 190))
    d.polygon([(0, h * 0.66), (w, h * 0.6), (w, h), (0, h)], fill=(236, 214, 160))
    d.line((w * 0.3, h * 0.62, w * 0.33, h * 0.92), fill=(90, 60, 40), width=3)
    d.pieslice((w * 0.18, h * 0.52, w * 0.44, h * 0.76), 180, 360, fill=(220, 50, 60))


def dunes(d: ImageDraw.ImageDraw, w: int, h: int) -> None:
    """An orange desert sky over three curved sand dunes."""
    _sky(d, w, h, (250, 170, 90), (255, 225, 170))
    for i, (crest, colour) in enumerate(((0.45, (214, 150, 80)), (0.6, (196, 122, 58)), (0.75, (170, 98, 44)))):
        left = w * (0.1 + 0.3 * i)
        d.ellipse((left - w * 0.6, h * crest, left + w * 0.6, h * (crest + 0.9)), fill=colour)


def cat(d: ImageDraw.ImageDraw, w: int, h: int) -> None:
    """A grey cat's face on a pale green wall: ears, eyes, nose, whiskers."""
    d.rectangle((0, 0, w, h), fill=(200, 230, 200))
    cx, cy, r = w / 2, h * 0.56, h * 0.33
    for side in (-1, 1):
        ear = [(cx + side * r * k, cy - r * j) for k, j in ((1, 0.3), (0.8, 1.35), (0.2, 0.85))]
        d.polygon(ear, fill=(120, 120, 125))
    d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=(140, 140, 145))
    for side in (-1, 1):
        ex = cx + side * r * 0.42
        d.ellipse((ex - r * 0.17, cy - r * 0.35, ex + r * 0.17, cy - r * 0.02), fill=(120, 200, 80))
        d.ellipse((ex - r * 0.05, cy - r * 0.33, ex + r * 0.05, cy - r * 0.04), fill=(20, 20, 20))
        for dy in (0.2, 0.32):
            whisker = (cx + side * r * 0.2, cy + r * 0.25, cx + side * r * 1.1, cy + r * dy)
            d.line(whisker, fill=(240, 240, 240), width=2)
    d.polygon([(cx - r * 0.1, cy + r * 0.12), (cx + r * 0.1, cy + r * 0.12), (cx, cy + r * 0.25)], fill=(230, 130, 150))


def mountain(d: ImageDraw.ImageDraw, w: int, h: int) -> None:
    """Snow-capped grey peaks over a green valley under a blue sky."""
    _sky(d, w, h, (110, 170, 230), (220, 236, 250))
    for x0, peak, x1, shade in ((-0.1, (0.3, 0.18), 0.75, (110, 110, 125)), (0.35, (0.7, 0.3), 1.1, (90, 95, 110))):
        top = (w * peak[0], h * peak[1])
        d.polygon([(w * x0, h * 0.8), top, (w * x1, h * 0.8)], fill=shade)
        d.polygon(
            [top, (top[0] - w * 0.08, top[1] + h * 0.12), (top[0] + w * 0.08, top[1] + h * 0.12)], fill=(250, 250, 250)
        )
    d.rectangle((0, h * 0.78, w, h), fill=(80, 150, 70))


def sunset(d: ImageDraw.ImageDraw, w: int, h: int) -> None:
    """A purple-to-orange sky, a red sun half under the horizon, a dark sea."""
    _sky(d, w, h, (90, 50, 130), (250, 140, 60))
    d.ellipse((w * 0.35, h * 0.45, w * 0.65, h * 0.85), fill=(240, 70, 40))
    d.rectangle((0, h * 0.65, w, h), fill=(40, 30, 70))
    for i in range(4):
        y = h * (0.7 + 0.07 * i)
        d.line((w * (0.42 - 0.03 * i), y, w * (0.58 + 0.03 * i), y), fill=(240, 120, 70), width=2)


def forest(d: ImageDraw.ImageDraw, w: int, h: int) -> None:
    """A row of green fir trees on a meadow."""
    _sky(d, w, h, (150, 200, 240), (230, 245, 250))
    d.rectangle((0, h * 0.75, w, h), fill=(110, 170, 80))
    for i in range(6):
        x = w * (0.08 + 0.17 * i)
        d.rectangle((x - 3, h * 0.7, x + 3, h * 0.8), fill=(100, 70, 40))
        top = h * (0.25 + 0.05 * (i % 2))
        d.polygon([(x - w * 0.08, h * 0.72), (x, top), (x + w * 0.08, h * 0.72)], fill=(30, 110, 50))


def document(d: ImageDraw.ImageDraw, w: int, h: int) -> None:
    """A scanned page: grey background, a white sheet with lines of text."""
    d.rectangle((0, 0, w, h), fill=(120, 120, 120))
    d.rectangle((w * 0.2, h * 0.05, w * 0.8, h * 0.95), fill=(250, 250, 245))
    for i in range(9):
        y = h * (0.15 + 0.08 * i)
        d.line((w * 0.27, y, w * (0.73 - 0.1 * (i % 3)), y), fill=(60, 60, 60), width=3)


SCENES: dict[str, Scene] = {
    "beach": beach,
    "dune": dunes,
    "cat": cat,
    "mountain": mountain,
    "sunset": sunset,
    "forest": forest,
    "scan": document,
    "doc": document,
}


def scene_of(name: str) -> Scene | None:
    """The scene a file's name asks for ("beach.jpg" a beach), if it names one."""
    lowered = name.lower()
    return next((scene for word, scene in SCENES.items() if word in lowered), None)


def picture(name: str) -> Image.Image:
    """The upright scene of a file name, SIZE pixels. A name that asks for none gets one picked
    by its hash, mirrored or not and tinted, so that no two names look alike."""
    img = Image.new("RGB", SIZE)
    scene = scene_of(name)
    if scene is not None:
        scene(ImageDraw.Draw(img), *SIZE)
        return img
    seed = zlib.crc32(name.lower().encode())
    pool = (beach, dunes, cat, mountain, sunset, forest)
    pool[seed % len(pool)](ImageDraw.Draw(img), *SIZE)
    if seed >> 8 & 1:
        img = img.transpose(Image.Transpose.FLIP_LEFT_RIGHT)
    tint = Image.new("RGB", SIZE, tuple(round(c * 255) for c in colorsys.hsv_to_rgb((seed >> 9) % 360 / 360, 0.8, 0.9)))
    return Image.blend(img, tint, 0.2)


def image_bytes(name: str, token: bytes = b"", rotated: bool = False) -> bytes:
    """A JPEG or PNG (by the name's extension) of the name's scene. `rotated` stores the pixels
    a quarter turn left with EXIF orientation 6, as a phone held upright writes them."""
    img = picture(name)
    buf = io.BytesIO()
    if name.lower().endswith(".png"):
        info = PngInfo()
        if token:
            info.add_text("Comment", token.decode("latin-1"))
        img.save(buf, "PNG", pnginfo=info, optimize=True)
        return buf.getvalue()
    exif = Image.Exif()
    if rotated:
        img = img.transpose(Image.Transpose.ROTATE_90)
        exif[EXIF_ORIENTATION] = ROTATED_90
    img.save(buf, "JPEG", quality=80, exif=exif.tobytes(), comment=token)
    return buf.getvalue()


def video_bytes(name: str, token: bytes = b"") -> bytes:
    """An MP4's leading `ftyp` box and the token: the right type to every app, not playable."""
    brand = b"ftypisom\x00\x00\x02\x00isomiso2mp41"
    return (4 + len(brand)).to_bytes(4, "big") + brand + name.encode() + token


def media_bytes(name: str, token: bytes = b"") -> bytes:
    """The file a suite pushes under this name: an image, a video, or the name as text."""
    ext = name.rsplit(".", 1)[-1].lower() if "." in name else ""
    if ext in IMAGE_EXTENSIONS:
        return image_bytes(name, token)
    if ext in VIDEO_EXTENSIONS:
        return video_bytes(name, token)
    return f"{name}\n".encode() + token
