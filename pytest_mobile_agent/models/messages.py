"""Chat messages in the OpenAI format, with screenshots as downscaled JPEG data URLs."""

from __future__ import annotations

import base64
import io
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from PIL import Image

DEFAULT_IMAGE_SIDE = 1024  # the longest side a screenshot is sent at, in pixels


def image_part(image: bytes | Image.Image, max_side: int = DEFAULT_IMAGE_SIDE) -> dict[str, Any]:
    """An `image_url` content part: the image scaled to fit `max_side`, as a JPEG data URL.
    JPEG because it encodes several times faster than PNG at screenshot sizes."""
    from PIL import Image  # here: the plugin loads without PIL until an image is sent
    img = Image.open(io.BytesIO(image)) if isinstance(image, bytes | bytearray) else image
    img = img.convert("RGB")
    scale = max_side / max(img.size)
    if scale < 1:
        img = img.resize((max(1, round(img.width * scale)), max(1, round(img.height * scale))), Image.BILINEAR)
    buf = io.BytesIO()
    img.save(buf, "JPEG", quality=85)
    url = "data:image/jpeg;base64," + base64.b64encode(buf.getvalue()).decode()
    return {"type": "image_url", "image_url": {"url": url}}


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
