"""Actions drawn on screenshots: where each kind lands, on the screen it was taken on."""

from __future__ import annotations

import io

import pytest
from PIL import Image, ImageChops, ImageDraw

from pytest_mobile_agent import drawing

W, H = 1080, 2340
# A status bar first (also anchored at 0,0), then the app: the screen is the largest such view.
HIERARCHY = f"""<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation="0">
<node index="0" text="" resource-id="com.android.systemui:id/status_bar" class="android.widget.FrameLayout"
 package="com.android.systemui" content-desc="" scrollable="false" bounds="[0,0][{W},63]"/>
<node index="0" text="" resource-id="" class="android.widget.FrameLayout" package="app" content-desc=""
 scrollable="false" bounds="[0,0][{W},{H}]">
  <node index="0" text="=" resource-id="app:id/btn_equals" class="android.widget.Button" package="app"
   content-desc="" scrollable="false" bounds="[800,2000][1080,2200]"/>
  <node index="1" text="" resource-id="app:id/list" class="android.widget.ListView" package="app"
   content-desc="" scrollable="true" bounds="[0,200][1080,1200]"/>
</node></hierarchy>"""


def png(color: tuple[int, int, int] = (255, 255, 255)) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (W, H), color).save(out, format="PNG")
    return out.getvalue()


def test_screen_size_is_the_largest_view_at_the_origin() -> None:
    assert drawing.screen_size(HIERARCHY, (1, 1)) == (W, H)
    assert drawing.screen_size(None, (720, 1600)) == (720, 1600)


@pytest.mark.parametrize(
    "action, point, path",
    [
        ({"action": "tap", "selector": {"text": "="}}, (940, 2100), None),
        ({"action": "tap", "x": 10, "y": 20}, (10, 20), None),
        ({"action": "long_press", "selector": {"resourceId": "app:id/btn_equals"}}, (940, 2100), None),
        ({"action": "swipe", "x": 500, "y": 1800, "x2": 500, "y2": 600}, None, (500, 1800, 500, 600)),
        # "down" shows what is below: the finger moves up, over the largest scrollable view.
        ({"action": "scroll", "direction": "down"}, None, (540, 1000, 540, 400)),
        ({"action": "type", "text": "hi", "selector": {"text": "="}}, (940, 2100), None),
        ({"action": "key", "key": "back"}, None, None),
    ],
)
def test_gesture_resolves_selectors_on_the_screen_it_was_taken_on(action, point, path) -> None:
    g = drawing.gesture(action, HIERARCHY, (W, H))
    assert g.point == point and g.path == path


@pytest.mark.parametrize(
    "action, text",
    [
        ({"action": "tap", "selector": {"text": "="}}, "tap text='='"),
        ({"action": "type", "text": "hello"}, "type 'hello'"),
        ({"action": "key", "key": "back"}, "key back"),
        ({"action": "scroll", "direction": "up"}, "scroll up"),
        ({"action": "swipe", "x": 1, "y": 2, "x2": 3, "y2": 4}, "swipe (1, 2) -> (3, 4)"),
        ({"raw": "'fly me'"}, "unparsable: 'fly me'"),
        ({"action": "tap", "x": 5, "y": 6, "count": 2}, "double tap (5, 6)"),
        ({"action": "tap", "x": 5, "y": 6, "count": 3}, "triple tap (5, 6)"),
    ],
)
def test_describe(action, text) -> None:
    assert drawing.describe(action) == text


def test_a_tap_is_a_dot_where_the_finger_went_at_half_size() -> None:
    image = drawing.annotate(png(), {"action": "tap", "selector": {"text": "="}}, HIERARCHY)
    assert image.size == (W // 2, H // 2)
    r, g, b = image.getpixel((940 // 2, 2100 // 2))
    assert b > 200 and r < 150  # the blue dot
    assert image.getpixel((100, 600)) == (255, 255, 255)  # elsewhere the screen is untouched


def test_a_double_tap_has_a_ring_a_single_tap_lacks() -> None:
    """Each further tap of a double or triple tap draws a ring close around the dot."""

    def rings(count: int) -> int:
        image = drawing.annotate(png(), {"action": "tap", "x": 540, "y": 1200, "count": count}, HIERARCHY)
        # Along the row right of the dot, past its halo: the blue runs of the rings.
        row = [image.getpixel((x, 600)) == drawing.ACCENT for x in range(270 + 33, 270 + 80)]
        return sum(1 for i, blue in enumerate(row) if blue and (i == 0 or not row[i - 1]))

    assert [rings(1), rings(2), rings(3)] == [0, 1, 2]


def test_a_swipe_is_an_arrow_along_its_path() -> None:
    image = drawing.annotate(png(), {"action": "swipe", "x": 540, "y": 1800, "x2": 540, "y2": 600}, HIERARCHY)
    for y in (1600, 1200, 800):
        assert image.getpixel((270, y // 2)) != (255, 255, 255)
    assert image.getpixel((100, 600)) == (255, 255, 255)


def test_typed_text_and_keys_get_a_label() -> None:
    plain = drawing.annotate(png(), {"action": "wait", "seconds": 0}, HIERARCHY)
    typed = drawing.annotate(png(), {"action": "type", "text": "hello"}, HIERARCHY)
    bottom = (0, H // 2 - 60, W // 2, H // 2)
    assert typed.crop(bottom).getcolors(10_000) != plain.crop(bottom).getcolors(10_000)


def test_contact_sheet_holds_every_frame() -> None:
    frames = [drawing.annotate(png(), {"action": "key", "key": "back"}, HIERARCHY) for _ in range(8)]
    sheet = drawing.contact_sheet(frames, columns=6, thumb_width=100)
    assert sheet.width == 6 * 108 + 8 and sheet.height == 2 * (round(1170 * 100 / 540) + 8) + 8


def test_quantized_keeps_every_colour_of_a_screen_with_few() -> None:
    image = Image.new("RGB", (540, 1170), (255, 255, 255))
    draw = ImageDraw.Draw(image)
    colours = [(r, g, 90) for r in range(0, 250, 25) for g in range(0, 250, 25)]  # 100 colours
    for i, colour in enumerate(colours):
        x, y = (i % 10) * 54, (i // 10) * 117
        draw.rectangle((x, y, x + 7, y + 7), fill=colour)  # 8 px squares, no larger
    quantized = drawing.quantized(image)
    assert quantized.mode == "P"
    # Each colour kept to within the octree's rounding (255 may come back as 254), none lost.
    worst = max(ImageChops.difference(quantized.convert("RGB"), image).getextrema(), key=lambda e: e[1])
    assert worst[1] <= 1
