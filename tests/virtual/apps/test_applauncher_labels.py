"""Simple App Launcher's labels wrap to two lines (item_launcher.xml: maxLines 2) instead of
being cut to one ("File Mana…")."""

from __future__ import annotations

import tempfile
from pathlib import Path

from pytest_mobile_agent.virtual.boot import boot
from pytest_mobile_agent.virtual.core.config import DeviceConfig
from pytest_mobile_agent.virtual.ui import layout
from pytest_mobile_agent.virtual.ui.render.renderer import ScreenRenderer
from pytest_mobile_agent.virtual.ui.screen import Frame, Window
from pytest_mobile_agent.virtual.ui.view import LINEAR, View

PKG = "com.simplemobiletools.applauncher"


def test_a_long_label_wraps_to_two_lines() -> None:
    device = boot(Path(tempfile.mkdtemp()), DeviceConfig(serial="labels"))
    app = device.packages.app(PKG)
    items = [{"package": "com.simplemobiletools.filemanager.pro", "title": "File Manager"}]
    root = View(LINEAR, children=[app.main_activity(app, {}).grid(items)])
    r = ScreenRenderer(1080, 2340, 420 / 160)
    layout.layout(root, (0, r.status_h, 1080, 2340 - r.nav_h), r.scale)
    label = next(v for v in root.walk() if v.id == f"{PKG}:id/launcher_label")
    assert label.max_lines == 2
    img = r.image(Frame(1, [Window("activity", PKG, ".activities.MainActivity", root)]), "9:00").convert("L")
    x0, y0, x1, y1 = label.bounds
    rows = [y for y in range(y0, y1) if any(img.getpixel((x, y)) < 140 for x in range(x0, x1))]
    line = 13 * r.scale * 1.32  # one line of 13 sp text
    assert rows and rows[-1] - rows[0] > 1.5 * line  # two lines of ink, not one
