"""A drag through uiautomator2 that moves a list by its path and no further."""

from __future__ import annotations

import time
from typing import Any


def drag(d: Any, x1: int, y1: int, x2: int, y2: int) -> None:
    """The finger moves from (x1, y1) to (x2, y2) and stops before it lifts, so the list under
    it scrolls by the distance dragged and does not fling on (a quick `d.swipe` flings, as on a
    phone: VelocityTracker forgets a finger that was still 40 ms before the lift)."""
    d.touch.down(x1, y1)
    d.touch.move(x2, y2)
    time.sleep(0.05)
    d.touch.up(x2, y2)
