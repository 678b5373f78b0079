"""The painter's cover (an image from its own bytes, as Glide loads it) and seekbar kinds."""

from __future__ import annotations

import io

from PIL import Image

from pytest_mobile_agent.virtual.ui import layout
from pytest_mobile_agent.virtual.ui.render.colors import PRIMARY
from pytest_mobile_agent.virtual.ui.render.renderer import ScreenRenderer
from pytest_mobile_agent.virtual.ui.screen import Frame, Window
from pytest_mobile_agent.virtual.ui.view import IMAGE, LINEAR, View

RED, BLUE = (220, 30, 30), (30, 30, 220)


def draw(view: View) -> Image.Image:
    """`view` alone on a white 360x640 px screen at 2 px a dp, cropped to its bounds."""
    r = ScreenRenderer(360, 640, 2.0)
    root = View(LINEAR, children=[view])
    layout.layout(root, (0, r.status_h, 360, 640 - r.nav_h), 2.0)
    x0, y0, x1, y1 = view.bounds
    return r.image(Frame(1, [Window("activity", "p", "a", root)]), "9:00").convert("RGB").crop((x0, y0, x1, y1))


def png(width: int, height: int) -> bytes:
    """Red on the left third, blue elsewhere: a wide picture a square view must crop."""
    img = Image.new("RGB", (width, height), BLUE)
    img.paste(RED, (0, 0, width // 3, height))
    out = io.BytesIO()
    img.save(out, "PNG")
    return out.getvalue()


def cover(data: bytes, radius: float = 0) -> View:
    return View(IMAGE, kind="cover", icon="headset", canvas=(data, radius), width=40, height=40)


def test_a_cover_is_centre_cropped_from_its_own_pixels_with_rounded_corners() -> None:
    img = draw(cover(png(300, 100), radius=4))
    # 300x100 into 80x80 px: the middle 100x100 is kept, so no red (the left third) is left.
    assert img.getpixel((40, 40)) == BLUE and img.getpixel((3, 40)) == BLUE
    assert img.getpixel((0, 0)) == (255, 255, 255), "the corner is not rounded off"
    square = draw(cover(png(300, 300)))
    assert square.getpixel((5, 40)) == RED and square.getpixel((0, 0)) == RED  # no radius: square corners


def test_no_picture_or_bytes_that_are_none_show_the_placeholder_icon() -> None:
    for data in (b"", b"not an image"):
        img = draw(cover(data))
        colours = {c for _, c in img.getcolors(1 << 16)}
        assert BLUE not in colours and (255, 255, 255) in colours
        assert min(sum(c) for c in colours) < 200, "no dark headset drawn"


def test_a_seekbar_draws_its_progress_and_thumb_inside_its_padding() -> None:
    bar = View("android.widget.SeekBar", kind="seekbar", canvas=(1, 4), height=24, padding=16)
    img = draw(bar)
    row = [img.getpixel((x, img.height // 2)) for x in range(img.width)]
    thumb = [x for x, c in enumerate(row) if c == PRIMARY]
    track = 360 - 2 * 32  # the 360 px screen less 16 dp of padding on both sides
    centre = 32 + track / 4
    assert thumb[0] == 32, "the progress starts at the padding"
    assert abs(max(thumb) - (centre + 16)) <= 2, "the 16 dp thumb is not a quarter along"
    assert row[5] == (255, 255, 255) and row[-5] == (255, 255, 255), "drawn into the padding"
    assert row[-40] != PRIMARY and row[-40] != (255, 255, 255), "the rest of the track is not drawn faint"
