"""Touch gestures as Android 13 sees them: ViewConfiguration's thresholds, the finger paths that
`input swipe`, `input draganddrop` and `input motionevent` inject, the velocity a VelocityTracker
reads at the finger's lift, and the distance OverScroller's spline flings a list at that speed.

Sizes are in dp and speeds in dp/s, as ViewConfiguration states them; the window manager scales
them by the display's density.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

TOUCH_SLOP_DP = 8  # config_viewConfigurationTouchSlop
PAGING_TOUCH_SLOP_DP = 2 * TOUCH_SLOP_DP  # ViewConfiguration.getScaledPagingTouchSlop
MIN_FLING_DP, MAX_FLING_DP = 50, 8000  # getScaledMinimumFlingVelocity, getScaledMaximumFlingVelocity
LONG_PRESS_MS = 400  # ViewConfiguration.DEFAULT_LONG_PRESS_TIMEOUT since Android 12
DOUBLE_TAP_TIMEOUT_MS = 300
# ViewPager's own: MIN_DISTANCE_FOR_FLING and MIN_FLING_VELOCITY decide a fling that turns a page.
PAGER_FLING_DISTANCE_DP, PAGER_FLING_VELOCITY_DP = 25, 400
PAGE_TURN_FRACTION = 0.6  # ViewPager.determineTargetPage: a drag turns past 60% of the page
# VelocityTracker: samples older than its horizon before the lift do not count, and a finger
# still for ASSUME_POINTER_STOPPED_TIME before the lift has no velocity.
VELOCITY_HORIZON_MS, POINTER_STOPPED_MS = 100, 40
# OverScroller's spline: ViewConfiguration.getScrollFriction(), the deceleration rate and the
# inflexion of its curve, and the physical coefficient (gravity x inches per metre x 0.84).
SCROLL_FRICTION = 0.015
DECELERATION_RATE = math.log(0.78) / math.log(0.9)
INFLEXION = 0.35
GRAVITY_EARTH, INCHES_PER_METER = 9.80665, 39.37

MOVE_INTERVAL_MS = 4  # how often `input swipe` injects a move: as fast as injection goes
# Moves kept of a very long swipe (their interval grows past it): one of hours must not fill the
# device's memory, and past 200 s its moves are 40 ms apart, a finger too slow to fling anyway.
MAX_MOVES = 5000
Point = tuple[float, float, float]  # (ms since the finger went down, x, y)


@dataclass(frozen=True)
class Gesture:
    """One finger's touch: the down and each move as the views receive them, then the lift.
    A VelocityTracker samples the down and the moves only (Android 13 ignores the lift's
    position), so the lift is kept apart."""

    samples: tuple[Point, ...]  # the down first
    up: Point

    @classmethod
    def swipe(cls, x1: float, y1: float, x2: float, y2: float, duration_ms: float, hold_ms: float = 0) -> Gesture:
        """InputShellCommand.sendSwipe: down at (x1, y1); `input draganddrop` then sleeps for
        the long-press timeout (`hold_ms`); moves follow as fast as they can be injected, each
        where the line from (x1, y1) to (x2, y2) is at that moment of `duration_ms` (counted from
        the down, so a draganddrop's first move jumps to where the line has got to); the lift is
        at (x2, y2) once the duration is over."""
        samples: list[Point] = [(0, x1, y1)]
        t = float(hold_ms)
        interval = max(MOVE_INTERVAL_MS, duration_ms / MAX_MOVES)
        while t < duration_ms:
            f = t / duration_ms
            samples.append((t, x1 + (x2 - x1) * f, y1 + (y2 - y1) * f))
            t += interval
        return cls(tuple(samples), (max(float(duration_ms), float(hold_ms)), x2, y2))

    @property
    def start(self) -> Point:
        return self.samples[0]

    @property
    def end(self) -> Point:
        return self.up

    @property
    def dx(self) -> float:
        return self.up[1] - self.start[1]

    @property
    def dy(self) -> float:
        return self.up[2] - self.start[2]

    def slop_exit(self, slop: float) -> Point | None:
        """The first event at which the finger is further than `slop` from the down along
        either axis (where a view stops taking the touch for a tap), or None if none is."""
        x0, y0 = self.start[1], self.start[2]
        return next((p for p in (*self.samples, self.up) if max(abs(p[1] - x0), abs(p[2] - y0)) > slop), None)

    def velocity(self) -> tuple[float, float]:
        """(vx, vy) in px/s at the lift, as VelocityTracker reads it: a least-squares line
        through the samples of the last VELOCITY_HORIZON_MS, where a gap of POINTER_STOPPED_MS
        between two events forgets the samples before it (the finger had stopped), the lift's
        included."""
        if self.up[0] - self.samples[-1][0] > POINTER_STOPPED_MS:
            return 0.0, 0.0  # still before the lift: Android 13 clears the tracker at the up
        window: list[Point] = []
        for p in self.samples:
            if window and p[0] - window[-1][0] >= POINTER_STOPPED_MS:
                window = []
            window.append(p)
        last = window[-1][0]
        window = [p for p in window if last - p[0] <= VELOCITY_HORIZON_MS]
        if len(window) < 2:
            return 0.0, 0.0
        n = len(window)
        mean_t = sum(p[0] for p in window) / n
        var_t = sum((p[0] - mean_t) ** 2 for p in window)

        def slope(axis: int) -> float:
            mean = sum(p[axis] for p in window) / n
            return sum((p[0] - mean_t) * (p[axis] - mean) for p in window) / var_t * 1000

        return slope(1), slope(2)


def fling_distance(velocity: float, scale: float) -> float:
    """How far (px) OverScroller's spline carries a fling at `velocity` (px/s) on a display of
    `scale` px per dp: SplineOverScroller.getSplineFlingDistance. Under the minimum fling
    velocity a list does not fling (RecyclerView.fling, NestedScrollView.fling); above the
    maximum the velocity is clamped to it."""
    speed = min(abs(velocity), MAX_FLING_DP * scale)
    if speed < MIN_FLING_DP * scale:
        return 0.0
    physical_coeff = GRAVITY_EARTH * INCHES_PER_METER * scale * 160 * 0.84
    friction = SCROLL_FRICTION * physical_coeff
    deceleration = math.log(INFLEXION * int(speed) / friction)
    distance = friction * math.exp(DECELERATION_RATE / (DECELERATION_RATE - 1.0) * deceleration)
    return math.copysign(distance, velocity)
