"""The event editor's "All-day" CheckBox shows its label next to the box, as on Android."""

from __future__ import annotations

import tempfile
from pathlib import Path

from pytest_mobile_agent.virtual.apps.calendar.editors import EventActivity
from pytest_mobile_agent.virtual.boot import boot
from pytest_mobile_agent.virtual.core.config import DeviceConfig
from pytest_mobile_agent.virtual.ui import layout
from pytest_mobile_agent.virtual.ui.render.renderer import ScreenRenderer
from pytest_mobile_agent.virtual.ui.screen import Frame, Window

PKG = "com.simplemobiletools.calendar.pro"


def test_the_all_day_label_is_drawn_beside_its_box() -> None:
    device = boot(Path(tempfile.mkdtemp()), DeviceConfig(serial="allday"))
    root = EventActivity(device.packages.app(PKG), {}).content()
    r = ScreenRenderer(1080, 2340, 420 / 160)
    layout.layout(root, (0, r.status_h, 1080, 2340 - r.nav_h), r.scale)
    box = next(v for v in root.walk() if v.id == f"{PKG}:id/event_all_day")
    img = r.image(Frame(1, [Window("activity", PKG, ".activities.EventActivity", root)]), "9:00").convert("L")
    x0, y0, x1, y1 = box.bounds
    label_from = x0 + round((8 + 12 + 18 + 12) * r.scale)  # padding, margin, the box, margin
    dark = [x for x in range(label_from, x1) for y in range(y0, y1) if img.getpixel((x, y)) < 100]
    # The seven letters of "All-day" take far more than a box's width of dark columns.
    assert dark and max(dark) - min(dark) > 18 * r.scale
