"""The image space of the Qwen-VL family's vision encoder (UI-TARS and Qwen2.5/3-VL share it):
the size its processor resizes a screenshot to, and how a model's numbers in that image (or on a
relative 0-1000 grid) map back to the device's pixels."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

FACTOR = 28  # the vision encoder's patch (14) times its merge (2): image sides are multiples of it
MIN_PIXELS = 100 * FACTOR * FACTOR  # UI-TARS's processor; Qwen2.5-VL's own allows 4 * 28 * 28
MAX_PIXELS = 16384 * FACTOR * FACTOR
ABSOLUTE, RELATIVE = "absolute", "relative"  # pixels of the resized image; a 0-1000 grid
CONVENTIONS = (ABSOLUTE, RELATIVE)


def overridden(override: str | None) -> tuple[str, str] | None:
    """--mobile-model-coordinates, checked, with the reason it is the one used; None when unset."""
    if not override:
        return None
    if override not in CONVENTIONS:
        raise ValueError(f"--mobile-model-coordinates must be one of {', '.join(CONVENTIONS)}, not {override!r}")
    return override, "set by --mobile-model-coordinates"


def smart_resize(
    height: int, width: int, min_pixels: int = MIN_PIXELS, max_pixels: int = MAX_PIXELS
) -> tuple[int, int]:
    """The (height, width) the model's processor gives an image: each side the nearest multiple
    of 28, then, when the pixel count falls outside [min_pixels, max_pixels], both scaled by one
    factor into it (rounded down when shrinking, up when growing)."""
    if min(height, width) <= 0 or max(height, width) / min(height, width) > 200:
        raise ValueError(f"an image of {width}x{height} has no smart_resize size")
    h = max(FACTOR, round(height / FACTOR) * FACTOR)
    w = max(FACTOR, round(width / FACTOR) * FACTOR)
    if h * w > max_pixels:
        beta = math.sqrt(height * width / max_pixels)
        h, w = math.floor(height / beta / FACTOR) * FACTOR, math.floor(width / beta / FACTOR) * FACTOR
    elif h * w < min_pixels:
        beta = math.sqrt(min_pixels / (height * width))
        h, w = math.ceil(height * beta / FACTOR) * FACTOR, math.ceil(width * beta / FACTOR) * FACTOR
    return h, w


@dataclass(frozen=True)
class Space:
    """Where the model's numbers live and how they map to the device's pixels."""

    convention: str
    image: tuple[int, int]  # (width, height) of the image the model saw (smart-resized)
    screen: tuple[int, int]  # (width, height) of the device
    sent: tuple[int, int] = (0, 0)  # (width, height) of the image sent
    grid: int = 1000  # what a relative number is divided by (GUI-Owl-1.5 divides by 999)

    def to_device(self, x: float, y: float) -> tuple[int, int]:
        grid_w, grid_h = (self.grid, self.grid) if self.convention == RELATIVE else self.image
        sw, sh = self.screen
        px = min(max(round(x * sw / grid_w), 0), sw - 1)
        py = min(max(round(y * sh / grid_h), 0), sh - 1)
        return px, py


def convention_record(agent: object) -> dict[str, Any]:
    """What a GUI model's agent chose, for its episode record's `agent_settings`: the coordinate
    convention, why, and the size of the image it sent (before its first step: None)."""
    space = getattr(agent, "space", None)
    return {
        "coordinates": getattr(agent, "convention", None),
        "coordinates_why": getattr(agent, "why", None),
        "image_sent": list(space.sent) if space is not None else None,
    }
