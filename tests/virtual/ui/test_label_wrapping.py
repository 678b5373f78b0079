"""Labels are cut as the real views cut them: bottom tab labels (maxLines 1, no ellipsize)
where they wrap, without "…"; File Manager's names (ellipsize middle) keep their extension;
Gallery's file names (maxLines 3) wrap."""

from __future__ import annotations

from PIL import Image

from pytest_mobile_agent.virtual.ui import layout
from pytest_mobile_agent.virtual.ui import widgets as w
from pytest_mobile_agent.virtual.ui.render.renderer import ScreenRenderer
from pytest_mobile_agent.virtual.ui.render.text import Fonts
from pytest_mobile_agent.virtual.ui.screen import Frame, Window
from pytest_mobile_agent.virtual.ui.view import LINEAR, View

SCALE = 440 / 160


def render(*children: View) -> tuple[Image.Image, View]:
    root = View(LINEAR, children=list(children), color="#ffffff")
    r = ScreenRenderer(1080, 2340, SCALE)
    layout.layout(root, (0, r.status_h, 1080, 2340 - r.nav_h), r.scale)
    return r.image(Frame(1, [Window("activity", "test", ".Main", root)]), "9:00").convert("L"), root


def crop(img: Image.Image, v: View) -> bytes:
    return img.crop(v.bounds).tobytes()


def test_the_three_ways_a_line_is_cut():
    fonts = Fonts()
    px = 40

    def width(t: str) -> int:
        return round(fonts.length(t, px))

    assert fonts.layout("Recycle Bin", px, width("Recycle B"), 1, "") == ("Recycle",)
    assert fonts.layout("Recycle Bin", px, width("Recycle B"), 1, "end")[0].endswith("…")
    middle = fonts.layout("holiday_photos_2024_backup.txt", px, width("holiday_photos.txt"), 1, "middle")[0]
    assert middle.startswith("holiday") and middle.endswith(".txt") and "…" in middle
    assert width(middle) <= width("holiday_photos.txt")


def test_a_tab_label_too_wide_is_cut_where_it_wraps_without_an_ellipsis():
    def tab(label: str) -> View:
        # As bottom_tablayout_item lays it out: the label's own height, one line.
        return w.row([w.text("", label, size=14, gravity="center", ellipsize="", width=70)])

    img, root = render(tab("Recycle Bin"), tab("Recycle"))
    cut, word = (v.children[0] for v in root.children)
    assert cut.text == "Recycle Bin"  # the dump keeps the whole text
    shifted = img.crop(word.bounds).tobytes()
    assert crop(img, cut) == shifted  # drawn as the first word alone, no "…"


def test_a_file_managers_long_name_keeps_its_extension():
    name = "holiday_photos_from_the_mountains_2024_backup_copy.txt"
    shown = Fonts().layout(name, round(16 * SCALE), 1080, 1, "middle")[0]
    img, root = render(
        w.text("", name, size=16, ellipsize="middle", height=24),
        w.text("", name, size=16, height=24),
        w.text("", shown, size=16, height=24),
    )
    middle, end, expected = root.children
    assert crop(img, middle) == crop(img, expected) != crop(img, end)


def test_a_gallery_file_name_wraps_onto_three_lines():
    name = "a_rather_long_file_name_of_a_picture_from_the_holidays.jpg"
    img, root = render(w.column([w.text("", name, size=12, max_lines=3)], width=130))
    label = root.children[0].children[0]
    x0, y0, x1, y1 = label.bounds
    rows = [y for y in range(y0, y1) if any(img.getpixel((x, y)) < 140 for x in range(x0, x1))]
    line = 12 * SCALE * 1.32
    assert rows and rows[-1] - rows[0] > 2.2 * line  # three lines of ink
