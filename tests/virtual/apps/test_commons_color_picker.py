"""Simple-Commons' colour pickers in-process, opened from Customize colors: ColorPickerDialog's
hue bar, hex field, recent colours and OK; LineColorPickerDialog's stripes and shades."""

from __future__ import annotations

import pytest

from pytest_mobile_agent.virtual.apps.commons.customization import CustomizationActivity
from pytest_mobile_agent.virtual.boot import boot
from pytest_mobile_agent.virtual.core.config import DeviceConfig
from pytest_mobile_agent.virtual.ui.render.renderer import ScreenRenderer

PKG = "com.simplemobiletools.calendar.pro"


def rid(name: str) -> str:
    return f"{PKG}:id/{name}"


@pytest.fixture
def device(tmp_path):
    """Customize colors of a fresh Calendar, on the "Light" theme (all four colour rows shown)."""
    dev = boot(tmp_path, DeviceConfig(serial="colors"))
    app = dev.packages.app(PKG)
    app.set_pref("theme", "Light")
    app.set_pref("was_app_icon_customization_warning_shown", True)
    dev.wm.start_activity(app, CustomizationActivity)
    yield dev
    dev.shutdown()


def find(dev, name: str, text: str | None = None):
    return next(
        v
        for w in reversed(dev.wm.frame().windows)
        for v in w.root.walk()
        if v.shown and (v.id == rid(name) or v.id == name) and (text is None or v.text == text)
    )


def tap(dev, v, fx: float = 0.5, fy: float = 0.5) -> None:
    l, t, r, b = v.visible_bounds
    dev.wm.tap(round(l + (r - l) * fx), round(t + (b - t) * fy))


def test_the_colour_picker_dialog_picks_by_hue_hex_and_recent_colours(device):
    tap(device, find(device, "customization_text_color_holder"))
    assert find(device, "color_picker_old_hex").text == "#2D2D2D"  # Light's text colour
    assert find(device, "color_picker_new_hex").text == "2D2D2D"
    recent = [v.color for v in find(device, "recent_colors").children]
    assert recent == ["#D32F2F", "#1976D2", "#388E3C", "#FBC02D", "#F57C00"]  # the defaults
    tap(device, find(device, "color_picker_square"), 0.99, 0.01)  # saturation ~1, value ~1 (hue 0)
    red, green, blue = (int(find(device, "color_picker_new_hex").text[i : i + 2], 16) for i in (0, 2, 4))
    assert red >= 0xF8 and green <= 8 and blue <= 8
    find(device, "color_picker_new_hex").on_text("FF0000")  # typed: six digits move the pickers
    tap(device, find(device, "color_picker_hue"), 0.5, 0.5)  # the bar's middle: hue 180
    assert find(device, "color_picker_new_hex").text == "00FFFF"
    img = ScreenRenderer(1080, 2340, device.wm.scale).image(device.wm.frame(), "9:00").convert("RGB")
    new = find(device, "color_picker_new_color")
    assert img.getpixel(((new.bounds[0] + new.bounds[2]) // 2, (new.bounds[1] + new.bounds[3]) // 2)) == (0, 255, 255)
    square = find(device, "color_picker_square").bounds  # the square in hue 180: cyan at its top right
    assert img.getpixel((square[2] - 2, square[1] + 1))[0] < 10
    tap(device, find(device, "recent_colors").children[2])  # green 700 into the hex field
    assert find(device, "color_picker_new_hex").text == "388E3C"
    tap(device, find(device, "android:id/button1"))  # OK
    assert find(device, "customization_theme").text == "Custom"
    assert find(device, "customization_text_color").color == "#388E3C"
    assert device.packages.app(PKG).pref("color_picker_recent_colors")[0] == "#388E3C"
    tap(device, find(device, "save"))
    assert device.packages.app(PKG).pref("text_color") == "#388E3C"


def test_cancel_keeps_the_colour(device):
    tap(device, find(device, "customization_background_color_holder"))
    tap(device, find(device, "color_picker_hue"), 0.5, 0.9)
    tap(device, find(device, "android:id/button2"))  # Cancel
    assert find(device, "customization_theme").text == "Light"
    assert find(device, "customization_background_color").color == "#FFFFFF"


def test_the_line_colour_picker_picks_a_colour_then_a_shade(device):
    tap(device, find(device, "customization_primary_color_holder"))
    line = find(device, "primary_line_color_picker")
    assert line.canvas[1] == 14 and find(device, "hex_code").text == "#F57C00"  # orange 700
    tap(device, line, (5 + 0.5) / 19)  # the sixth stripe: blue, its shades below
    assert find(device, "secondary_line_color_picker").canvas[0][4] == "#2196F3"
    assert find(device, "hex_code").text == "#1976D2"  # the same shade (700) of blue
    tap(device, find(device, "secondary_line_color_picker"), (8 + 0.5) / 9)  # 900
    assert find(device, "hex_code").text == "#0D47A1"
    img = ScreenRenderer(1080, 2340, device.wm.scale).image(device.wm.frame(), "9:00").convert("RGB")
    second = find(device, "secondary_line_color_picker")
    l, t, r, b = second.bounds
    assert img.getpixel((r - 5, (t + b) // 2)) == (0x0D, 0x47, 0xA1)
    assert img.getpixel((r - 5, t + 2)) == (0x0D, 0x47, 0xA1)  # the chosen stripe: full height
    assert img.getpixel((l + 5, t + 2)) != (0xBB, 0xDE, 0xFB)  # the others: 10 dp shorter
    tap(device, find(device, "android:id/button1"))
    assert find(device, "customization_primary_color").color == "#0D47A1"
    assert find(device, "customization_theme").text == "Custom"
