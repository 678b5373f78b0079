"""Chat messages in the OpenAI format, with screenshots as downscaled JPEG data URLs."""

from __future__ import annotations

import base64
import io
from typing import TYPE_CHECKING, Any

from pytest_mobile_agent.extras import require

if TYPE_CHECKING:
    from PIL import Image

DEFAULT_IMAGE_SIDE = 1024  # the longest side a screenshot is sent at, in pixels
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def decode(data: bytes) -> Image.Image:
    """An image file's pixels. A PNG (every screencap) goes through libspng (pyspng): a 1080x2340
    screen in about 2/3 of the time Pillow's decoder takes, the copy into a Pillow image included,
    to the same pixels (alpha dropped, as `fit` would); anything else through Pillow."""
    from PIL import Image

    if data.startswith(PNG_SIGNATURE):
        pyspng = require("pyspng", "decoding screenshots for a model")
        return Image.fromarray(pyspng.load(data, "RGB"))
    return Image.open(io.BytesIO(data))


def fit(img: Image.Image, max_side: int) -> tuple[Image.Image, int]:
    """The image reduced by the smallest whole factor that fits its longest side in max_side (a box
    filter: several times faster than a resampling resize, and as sharp at these factors);
    and that factor."""
    factor = -(-max(img.size) // max_side)
    img = img if img.mode == "RGB" else img.convert("RGB")
    return (img.reduce(factor) if factor > 1 else img), factor


def image_part(image: bytes | Image.Image, max_side: int = DEFAULT_IMAGE_SIDE) -> dict[str, Any]:
    """An `image_url` content part: the image fitted into max_side (see `fit`), as a JPEG data URL.
    JPEG because it encodes several times faster than PNG at screenshot sizes."""
    img = decode(bytes(image)) if isinstance(image, bytes | bytearray) else image
    img, _ = fit(img, max_side)
    return {"type": "image_url", "image_url": {"url": "data:image/jpeg;base64," + jpeg_base64(img)}}


def jpeg_base64(img: Image.Image) -> str:
    """The image as a JPEG (quality 85), base64: how every agent sends a screenshot."""
    buf = io.BytesIO()
    img.save(buf, "JPEG", quality=85)
    return base64.b64encode(buf.getvalue()).decode()


def system(text: str) -> dict[str, Any]:
    return {"role": "system", "content": text}


def assistant(text: str) -> dict[str, Any]:
    return {"role": "assistant", "content": text}


def user(text: str, images: list[bytes | Image.Image] | None = None, max_side: int = DEFAULT_IMAGE_SIDE) -> dict:
    """A user message; with images, the text first and then each image."""
    if not images:
        return {"role": "user", "content": text}
    parts: list[dict[str, Any]] = [{"type": "text", "text": text}]
    parts.extend(image_part(i, max_side) for i in images)
    return {"role": "user", "content": parts}


def text_of(message: dict[str, Any]) -> str:
    """The text of a message, whatever its content shape (test servers and caches read it)."""
    content = message.get("content")
    if isinstance(content, str):
        return content
    return "\n".join(p.get("text", "") for p in content or [] if p.get("type") == "text")
