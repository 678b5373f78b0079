"""Gestures with Android's thresholds: taps and long presses within the touch slop, drags that
scroll by the distance dragged, flings that carry a list on by OverScroller's distance, and the
paths `input swipe`, `input draganddrop` and `input motionevent` inject."""

from __future__ import annotations

import pytest
from inproc_shell import sh
from test_window_system import PKG, center, device, events, main, node_bounds  # noqa: F401 (fixture)

from pytest_mobile_agent.virtual.system.gestures import (
    LONG_PRESS_MS,
    MAX_FLING_DP,
    MIN_FLING_DP,
    TOUCH_SLOP_DP,
    Gesture,
    fling_distance,
)

SCALE = 440 / 160  # the test device's density


def scrolled(dev) -> int:
    return main(dev).scroll.get(f"{PKG}:id/list", 0)


def list_middle(dev) -> tuple[int, int, int]:
    """The list's middle x, its middle y and a y near its bottom."""
    lst = node_bounds(dev, **{"resource-id": f"{PKG}:id/list"})
    return center(lst)[0], (lst[1] + lst[3]) // 2, lst[3] - 20


def test_a_swipe_moves_at_one_pace_and_its_lift_has_that_velocity():
    g = Gesture.swipe(100, 1000, 100, 400, 300)
    assert g.velocity() == pytest.approx((0, -2000))
    exit_ = g.slop_exit(22)
    assert exit_ is not None and 1000 - 22 - 10 < exit_[2] < 1000 - 22
    assert exit_[0] == pytest.approx(300 * 22 / 600, abs=5)
    # draganddrop holds still for the long-press timeout, then jumps to where the line is.
    held = Gesture.swipe(100, 1000, 100, 400, 1000, hold_ms=LONG_PRESS_MS)
    assert held.slop_exit(22)[:2] == (LONG_PRESS_MS, 100)  # type: ignore[index]
    assert held.velocity() == pytest.approx((0, -600))
    assert Gesture.swipe(1, 1, 3, 3, 100).slop_exit(22) is None
    # A zero-length swipe has no moves: the lift jumps, and the tracker saw no movement.
    assert Gesture.swipe(100, 1000, 100, 400, 0).velocity() == (0.0, 0.0)
    # Events 40 ms apart or more: the finger had stopped in between (VelocityTracker's rule).
    spaced = Gesture(((0, 0, 0), (50, 0, -300), (100, 0, -600)), (100, 0, -600))
    assert spaced.velocity() == (0.0, 0.0)


def test_an_hours_long_swipe_keeps_a_bounded_path():
    g = Gesture.swipe(100, 1000, 100, 400, 3_600_000)
    assert len(g.samples) <= 5001 and g.velocity() == (0.0, 0.0)
    assert g.slop_exit(22) is not None


def test_the_fling_distance_grows_with_speed_and_stops_at_the_limits():
    slow, fast = fling_distance(2000, SCALE), fling_distance(6000, SCALE)
    assert 0 < slow < fast
    assert fling_distance(-6000, SCALE) == -fast
    assert fling_distance(MIN_FLING_DP * SCALE - 1, SCALE) == 0
    assert fling_distance(10 * MAX_FLING_DP * SCALE, SCALE) == fling_distance(MAX_FLING_DP * SCALE, SCALE)
    # Denser screens fling further in px for the same speed in dp/s.
    assert fling_distance(2000 * 2, 2 * SCALE) > fling_distance(2000, SCALE)


def test_a_fast_short_swipe_flings_the_list_on_past_the_finger(device):  # noqa: F811
    x, y, _ = list_middle(device)
    device.wm.swipe(x, y, x, y - 300, 100)  # 3000 px/s
    slop = TOUCH_SLOP_DP * SCALE
    expected = 300 - slop + fling_distance(3000, SCALE)
    assert scrolled(device) == pytest.approx(expected, abs=2)
    assert scrolled(device) > 600
    assert events(device, "TYPE_VIEW_SCROLLED")


def test_a_slow_drag_scrolls_by_the_distance_dragged_past_the_slop(device):  # noqa: F811
    x, y, _ = list_middle(device)
    device.wm.swipe(x, y, x, y - 300, 3000)  # 100 px/s: under the minimum fling velocity
    assert scrolled(device) == round(300 - TOUCH_SLOP_DP * SCALE)
    device.wm.swipe(x, y - 300, x, y, 3000)  # and back
    assert scrolled(device) == 0


def test_a_drag_that_stops_before_the_lift_does_not_fling(device):  # noqa: F811
    x, y, _ = list_middle(device)
    wm = device.wm
    for action, to in (("DOWN", y), ("MOVE", y - 150), ("MOVE", y - 300), ("UP", y - 300)):
        wm.motion(action, x, to, spacing_ms=50)  # as `input motionevent`, one command each
    assert scrolled(device) == round(300 - TOUCH_SLOP_DP * SCALE)
    # The same path injected a few ms apart (uiautomator2's touch.move) flings.
    for action, to in (("DOWN", y), ("MOVE", y - 150), ("MOVE", y - 300), ("UP", y - 300)):
        wm.motion(action, x, to, spacing_ms=5)
    assert scrolled(device) > 2 * round(300 - TOUCH_SLOP_DP * SCALE) + 100


def test_a_fling_stops_at_the_lists_ends(device):  # noqa: F811
    x, y, bottom = list_middle(device)
    device.wm.swipe(x, bottom, x, bottom - 600, 30)
    assert 'text="Row 39"' in device.dump()
    at_end = scrolled(device)
    device.wm.swipe(x, bottom, x, bottom - 600, 30)
    assert scrolled(device) == at_end
    device.wm.swipe(x, y, x, y + 600, 30)
    assert scrolled(device) == 0


def test_a_press_held_for_the_long_press_timeout_is_a_long_press(device):  # noqa: F811
    x, y = center(node_bounds(device, text="Row 1"))
    device.wm.swipe(x, y, x, y, LONG_PRESS_MS - 50)
    assert main(device).clicks == ["row1"]
    device.wm.swipe(x, y, x + 3, y, LONG_PRESS_MS)
    assert main(device).clicks == ["row1", "long1"]


def test_a_long_press_that_then_moves_over_nothing_draggable_only_long_presses(device):  # noqa: F811
    x, y = center(node_bounds(device, text="Row 1"))
    device.wm.swipe(x, y, x, y - 400, 1000, hold_ms=LONG_PRESS_MS)
    assert main(device).clicks == ["long1"] and scrolled(device) == 0
    # `input swipe` over the same line in one second leaves the slop long before the timeout.
    device.wm.swipe(x, y, x, y - 400, 1000)
    assert main(device).clicks == ["long1"] and scrolled(device) > 0


def test_input_motionevent_and_draganddrop_reach_the_window_manager(device):  # noqa: F811
    x, y = center(node_bounds(device, text="Row 1"))
    out = sh(device, f"input motionevent DOWN {x} {y}; input motionevent UP {x} {y}")
    assert main(device).clicks == ["row1"], out
    sh(device, f"input draganddrop {x} {y} {x} {y - 400} 300")  # held, then moved: a long press
    assert main(device).clicks == ["row1", "long1"] and scrolled(device) == 0
    assert "Invalid arguments for command: motionevent" in sh(device, "input motionevent PINCH 1 2")
