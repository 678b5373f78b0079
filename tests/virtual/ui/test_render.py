"""The screen renderer: hand-built frames, no device needed."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from pytest_mobile_agent.virtual.ui import keyboard, layout, widgets
from pytest_mobile_agent.virtual.ui.layout import _intrinsic
from pytest_mobile_agent.virtual.ui.render.colors import parse_color
from pytest_mobile_agent.virtual.ui.render.glyphs import glyph_name
from pytest_mobile_agent.virtual.ui.render.png import PngEncoder, encode_png
from pytest_mobile_agent.virtual.ui.render.renderer import ScreenRenderer
from pytest_mobile_agent.virtual.ui.render.text import is_cjk, wrap
from pytest_mobile_agent.virtual.ui.screen import Frame, Window
from pytest_mobile_agent.virtual.ui.view import EDIT, FRAME, LINEAR, View

W, H, SCALE = 360, 640, 1.0
STATUS_H, NAV_H = round(24 * SCALE), round(48 * SCALE)
CONTENT = (0, STATUS_H, W, H - NAV_H)


class FakeWM:
    """Just what keyboard.build needs."""

    ime_symbols = False

    def type_text(self, text: str) -> bool:
        return True

    def key(self, code: int) -> None:
        pass

    def changed(self) -> None:
        pass


def screen(title: str = "Notes", *, rows: int = 6, edit_focused: bool = False) -> View:
    bar = View(
        LINEAR,
        orientation="h",
        height=56,
        kind="toolbar",
        color="#f57c00",
        children=[
            View(kind="icon", icon="back", width=48, height=48),
            View(kind="text", text=title, text_size=20, bold=True, weight=1, padding=12),
            View(kind="icon", icon="search", width=48, height=48),
            View(kind="icon", icon="no-such-icon", width=48, height=48),
        ],
    )
    field = View(EDIT, kind="edit", hint="Title", focused=edit_focused, height=56, padding=8)
    items = [
        View(
            LINEAR,
            orientation="h",
            kind="row",
            height=56,
            padding=8,
            children=[
                View(kind="thumb", id=f"t{i}", width=40, height=40),
                View(kind="text", text=f"Item {i}", weight=1, padding=8),
                View(kind="switch", checked=i % 2 == 0, width=56, height=40),
            ],
        )
        for i in range(rows)
    ]
    listing = View(LINEAR, scrollable=True, weight=1, children=items)
    return View(LINEAR, children=[bar, field, listing])


def activity(root: View) -> Window:
    layout.layout(root, CONTENT, SCALE)
    return Window("activity", "com.example", ".Main", root)


def frame(*windows: Window, version: int = 1) -> Frame:
    return Frame(version, list(windows))


def dialog_window() -> Window:
    content = View(
        LINEAR,
        padding=8,
        children=[
            View(kind="text", text="Delete note?", text_size=20, bold=True, padding=12),
            View(kind="checkbox", text="Also from trash", checked=True, height=48),
            View(
                LINEAR,
                orientation="h",
                height=48,
                children=[
                    View(weight=1),
                    View(kind="button", text="Cancel", width=96),
                    View(kind="button", text="OK", width=96),
                ],
            ),
        ],
    )
    root = View(FRAME, children=[content], kind="dialog")
    h = round(_intrinsic(content, "v", SCALE))
    layout.layout(root, (32, 200, W - 32, 200 + h), SCALE)
    return Window("dialog", "com.example", "AlertDialog", root)


def keyboard_window() -> Window:
    root = keyboard.build(FakeWM())  # type: ignore[arg-type]
    h = round(_intrinsic(root, "v", SCALE))
    layout.layout(root, (0, H - NAV_H - h, W, H - NAV_H), SCALE)
    return Window("keyboard", keyboard.PACKAGE, "InputMethod", root)


def toast_window(text: str) -> Window:
    root = View(kind="toast", text=text, padding=12, text_size=14)
    layout.layout(root, (60, 480, W - 60, 520), SCALE)
    return Window("toast", "com.example", "Toast", root)


def decode(data: bytes) -> Image.Image:
    img = Image.open(io.BytesIO(data))
    img.load()
    return img


@pytest.fixture
def renderer() -> ScreenRenderer:
    return ScreenRenderer(W, H, SCALE)


def test_same_screen_is_drawn_once_and_gives_the_same_bytes(renderer: ScreenRenderer) -> None:
    f = frame(activity(screen()))
    first = renderer.png(f, "9:00")
    assert renderer.png(f, "9:00") == first
    # A rebuilt but identical tree (what the window system makes after a no-op change) hits too.
    assert renderer.png(frame(activity(screen()), version=2), "9:00") == first
    assert renderer.renders == 1
    # Every format comes from the one drawing.
    renderer.rgba(f, "9:00")
    renderer.jpeg(f, "9:00")
    renderer.image(f, "9:00")
    assert renderer.renders == 1


def test_a_fresh_renderer_gives_identical_bytes() -> None:
    a = ScreenRenderer(W, H, SCALE).png(frame(activity(screen())), "9:00")
    b = ScreenRenderer(W, H, SCALE).png(frame(activity(screen())), "9:00")
    assert a == b


def test_changes_show(renderer: ScreenRenderer) -> None:
    base = renderer.png(frame(activity(screen())), "9:00")
    assert renderer.png(frame(activity(screen("Other"))), "9:00") != base
    assert renderer.png(frame(activity(screen())), "9:01") != base
    assert renderer.png(frame(activity(screen(edit_focused=True))), "9:00") != base
    assert renderer.renders == 4


def test_png_decodes_at_screen_size_without_metadata(renderer: ScreenRenderer) -> None:
    img = decode(renderer.png(frame(activity(screen())), "9:00"))
    assert img.format == "PNG"
    assert img.size == (W, H)
    assert img.mode == "RGB"
    assert not {k for k in img.info if k not in ("dpi",)}
    assert img.tobytes() == renderer.image(frame(activity(screen())), "9:00").tobytes()


def test_raw_and_jpeg(renderer: ScreenRenderer) -> None:
    f = frame(activity(screen()))
    raw = renderer.rgba(f, "9:00")
    assert len(raw) == W * H * 4
    assert set(raw[3::4]) == {255}
    rgb = renderer.image(f, "9:00").tobytes()
    assert raw[:4][:3] == rgb[:3]
    jpeg = decode(renderer.jpeg(f, "9:00", quality=70))
    assert jpeg.format == "JPEG" and jpeg.size == (W, H)
    assert renderer.jpeg(f, "9:00", quality=70) != renderer.jpeg(f, "9:00", quality=30)


def test_image_is_a_copy(renderer: ScreenRenderer) -> None:
    f = frame(activity(screen()))
    img = renderer.image(f, "9:00")
    img.paste((255, 0, 0), (0, 0, W, H))
    assert renderer.image(f, "9:00").getpixel((W // 2, H // 2)) != (255, 0, 0)


def test_lru_is_small(renderer: ScreenRenderer) -> None:
    for i in range(6):
        renderer.png(frame(activity(screen(f"T{i}"))), "9:00")
    assert renderer.renders == 6
    renderer.png(frame(activity(screen("T5"))), "9:00")
    assert renderer.renders == 6
    renderer.png(frame(activity(screen("T0"))), "9:00")  # evicted long ago
    assert renderer.renders == 7


def test_screens_seen_again_keep_their_png_not_their_picture() -> None:
    """The device's cache: the last 16 screens' PNGs, the last screen's picture only."""
    renderer = ScreenRenderer(W, H, SCALE, cache_size=16, pictures=1)
    first = [renderer.png(frame(activity(screen(f"T{i}"))), "9:00") for i in range(6)]
    assert renderer.renders == 6
    assert renderer.png(frame(activity(screen("T0"))), "9:00") == first[0]  # neither drawn nor encoded
    assert renderer.renders == 6
    # Its picture went with the next screen: asking for it draws it again, the same pixels.
    assert renderer.image(frame(activity(screen("T0"))), "9:00").tobytes() == decode(first[0]).tobytes()
    assert renderer.renders == 7
    renderer.rgba(frame(activity(screen("T0"))), "9:00")
    assert renderer.renders == 7
    renderer.image(frame(activity(screen("T5"))), "9:00")  # T0 is now the one picture kept
    assert renderer.renders == 8
    for i in range(6, 22):  # 16 newer screens push T0 out
        renderer.png(frame(activity(screen(f"T{i}"))), "9:00")
    assert renderer.png(frame(activity(screen("T0"))), "9:00") == first[0]
    assert renderer.renders == 8 + 16 + 1


def test_overlays_render(renderer: ScreenRenderer) -> None:
    app = activity(screen(edit_focused=True))
    plain = renderer.image(frame(app), "9:00")
    full = frame(app, dialog_window(), keyboard_window(), toast_window("Saved"))
    img = decode(renderer.png(full, "9:00"))
    assert img.size == (W, H)
    # The scrim dims what lies under the dialog, outside its panel.
    spot = (W // 2, 150)
    assert sum(img.getpixel(spot)) < sum(plain.getpixel(spot)) * 0.6
    # The panel itself is white, the keyboard grey, the toast dark.
    assert img.getpixel((40, 205)) == (255, 255, 255)
    assert max(img.getpixel((3, H - NAV_H - 3))) < 250
    assert sum(img.getpixel((66, 500))) < 200


@pytest.mark.parametrize("kind", ["menu", "sheet"])
def test_menus_and_sheets(renderer: ScreenRenderer, kind: str) -> None:
    content = View(LINEAR, children=[View(kind="row", text=t, height=48) for t in ("Sort", "Share", "About")])
    root = View(FRAME, children=[content], kind=kind)
    layout.layout(root, (150, 40, W - 4, 40 + 144), SCALE)
    img = renderer.image(frame(activity(screen()), Window(kind, "com.example", kind, root)), "9:00")
    assert img.getpixel((W - 30, 100)) == (255, 255, 255)


def test_window_kind_dresses_a_plain_root(renderer: ScreenRenderer) -> None:
    content = View(kind="text", text="Plain", height=40)
    root = View(FRAME, children=[content])
    layout.layout(root, (40, 200, W - 40, 240), SCALE)
    img = renderer.image(frame(activity(screen()), Window("dialog", "p", "d", root)), "9:00")
    assert sum(img.getpixel((W // 2, 150))) < 3 * 160  # dimmed


def test_every_kind_draws(renderer: ScreenRenderer) -> None:
    kinds = [
        "",
        "text",
        "toolbar",
        "button",
        "icon",
        "edit",
        "checkbox",
        "radio",
        "switch",
        "row",
        "fab",
        "tab",
        "appicon",
        "image",
        "thumb",
        "divider",
        "key",
        "toast",
        "keyboard",
        "mystery",
    ]
    views = []
    for i, kind in enumerate(kinds):
        views.append(
            View(
                kind=kind,
                text=f"{kind} {i}",
                icon="star",
                height=24,
                checked=i % 2 == 0,
                selected=True,
                enabled=i % 3 != 0,
                color="" if i % 4 else "teal",
            )
        )
    views.append(View(EDIT, kind="edit", text="hunter2", password=True, focused=True, height=30))
    views.append(View(EDIT, kind="edit", text="line one\nline two\nline three", focused=True, height=80))
    views.append(View(kind="text", text="中文 ünïcödé • ✓", height=24))
    views.append(View(kind="text", text="x" * 500, height=24))
    views.append(View(kind="button", text="Text button", color="transparent", height=24))
    views.append(View(kind="text", text="Android colour", color="#80ff0000", height=24))
    views.append(View(kind="text", text="Bad colour", color="not-a-colour", height=24))
    img = decode(renderer.png(frame(activity(View(LINEAR, children=views))), "9:00"))
    assert img.size == (W, H)


def test_scrolled_content_is_clipped_to_its_container(renderer: ScreenRenderer) -> None:
    red = View(kind="text", text="red row", color="#ff0000", height=100)
    rest = [View(kind="text", text=f"row {i}", height=100) for i in range(10)]
    listing = View(LINEAR, scrollable=True, scroll_y=50, weight=1, children=[red, *rest])
    header = View(kind="text", text="Header", height=100)
    root = View(LINEAR, children=[header, listing])
    img = renderer.image(frame(activity(root)), "9:00")
    top = STATUS_H + 100
    assert img.getpixel((W - 5, top + 10)) == (255, 0, 0)  # the visible half of the red row
    assert img.getpixel((W - 5, top - 10)) == (255, 255, 255)  # its hidden half stays hidden


def test_bars(renderer: ScreenRenderer) -> None:
    img = renderer.image(frame(activity(screen())), "9:00")
    # Status bar: a darker shade of the toolbar under it; navigation bar: black with light glyphs.
    status = img.getpixel((W // 2, STATUS_H // 2))
    assert status != (255, 255, 255) and status[0] > status[2]
    nav = [img.getpixel((x, H - NAV_H // 2)) for x in range(W)]
    assert nav[2] == (0, 0, 0)
    for third in range(3):
        xs = range(third * W // 3, (third + 1) * W // 3)
        assert any(sum(nav[x]) > 300 for x in xs), "a button glyph in every third"
    empty = renderer.image(frame(), "9:00")
    assert empty.size == (W, H)


def test_full_size_screen() -> None:
    r = ScreenRenderer(1080, 2340, 420 / 160)
    root = screen(rows=30)
    layout.layout(root, (0, r.status_h, 1080, 2340 - r.nav_h), r.scale)
    data = r.png(frame(Window("activity", "p", "a", root)), "12:00")
    assert decode(data).size == (1080, 2340)


def test_helpers() -> None:
    assert parse_color("red") == (244, 67, 54)
    assert parse_color("#102030") == (16, 32, 48)
    assert parse_color("transparent") is None
    assert parse_color("#00ff0000") == (255, 255, 255)
    assert glyph_name("more") == "more_vert"
    assert glyph_name("ic_search") == "search"
    assert glyph_name("ic_stop_vector") == "stop"
    assert glyph_name("nonsense") is None
    img = Image.new("RGB", (7, 3), (1, 2, 3))
    assert decode(encode_png(img)).tobytes() == img.tobytes()


def test_png_encoder_reuses_unchanged_bands_without_changing_the_bytes() -> None:
    enc = PngEncoder()
    img = Image.new("RGB", (50, 300), (240, 240, 240))
    first = enc.encode(img)
    img.paste((200, 10, 10), (5, 200, 45, 230))  # only one band of rows changes
    second = enc.encode(img)
    assert second != first
    assert second == PngEncoder().encode(img)
    assert decode(second).tobytes() == img.tobytes()


def _field_image(renderer: ScreenRenderer, text: str, *, focused: bool, cursor: str = "") -> Image.Image:
    field = View(EDIT, kind="edit", text=text, focused=focused, cursor=cursor, color="#eeeeee", height=56, padding=8)
    return renderer.image(frame(activity(View(LINEAR, children=[field]))))


@pytest.mark.parametrize("cursor, width", [("", 2), ("hairline", 1)])
def test_the_cursor_sits_at_the_glyph_advance_and_spans_the_line(renderer: ScreenRenderer, cursor: str, width: int):
    """Android's cursor: from the line's top to its bottom, its left edge at the advance minus half a pixel;
    text_cursor_material's 2dp bar, or a 1px hairline where textCursorDrawable is @null."""
    plain = _field_image(renderer, "Chrome", focused=False, cursor=cursor)
    shown = _field_image(renderer, "Chrome", focused=True, cursor=cursor)
    diff = [
        (x, y)
        for y in range(plain.height)
        for x in range(plain.width)
        if plain.getpixel((x, y)) != shown.getpixel((x, y))
    ]
    xs, ys = {x for x, _ in diff}, {y for _, y in diff}
    assert len(xs) == width * round(SCALE)
    px = max(6, round(16 * SCALE))
    assert max(ys) - min(ys) + 1 == round(px * 1.32)  # the renderer's line height
    fill = (238, 238, 238)
    ink = [x for y in ys for x in range(min(xs)) if plain.getpixel((x, y)) != fill]
    assert 0 <= min(xs) - max(ink) <= 1  # touching the last glyph's ink, not a gap away
    colors = {shown.getpixel(p) for p in diff}
    assert (colors == {(245, 124, 0)}) == (cursor == "")  # the accent colour, else the text colour


def test_the_month_canvas_wraps_a_multi_day_event_and_says_when_a_day_is_full(renderer: ScreenRenderer):
    """MonthView.drawEvent: a chip that runs past Saturday goes on in the next week's row; a cell
    with no room left gets "..." instead of more chips."""
    days = tuple((i % 31 + 1, False, True) for i in range(42))
    wrapping = (6, 3, "trip", "#3f51b5", False, False)  # Saturday of week 1, three days
    crowded = tuple((15, 1, f"e{i}", "#3f51b5", False, False) for i in range(12))
    month = View(kind="month", weight=1, canvas=(tuple("SMTWTFS"), -1, days, (wrapping, *crowded), False))
    img = renderer.image(frame(activity(View(LINEAR, children=[month]))))
    x0, y0, x1, y1 = month.bounds
    letters, day_w = 28, (x1 - x0) / 7
    day_h = (y1 - y0 - letters) / 6

    def blue(col: int, row: int) -> int:
        box = (
            round(x0 + col * day_w),
            round(y0 + letters + row * day_h),
            round(x0 + (col + 1) * day_w),
            round(y0 + letters + (row + 1) * day_h),
        )
        return sum(
            1 for x in range(box[0], box[2]) for y in range(box[1], box[3]) if img.getpixel((x, y)) == (63, 81, 181)
        )

    assert blue(6, 0) > 0 and blue(0, 1) > 0 and blue(1, 1) > 0  # Saturday, then Sunday and Monday
    assert blue(2, 1) == 0 and blue(5, 0) == 0
    assert blue(1, 2) > 0  # the crowded day
    bottom = [
        y
        for y in range(y0, y1)
        for x in range(round(x0 + day_w), round(x0 + 2 * day_w))
        if img.getpixel((x, y)) == (63, 81, 181)
    ]
    assert max(bottom) < y0 + letters + 3 * day_h  # chips stop inside the cell: the rest is "..."


def ink_lines(img: Image.Image, box: tuple[int, int, int, int]) -> int:
    """Bands of pixel rows with dark ink inside `box`: the lines of text drawn there."""
    x0, y0, x1, y1 = box
    inked = [any(sum(img.getpixel((x, y))) < 300 for x in range(x0, x1)) for y in range(y0, y1)]
    return sum(1 for i, row in enumerate(inked) if row and (i == 0 or not inked[i - 1]))


def test_a_dialog_message_wraps_onto_the_lines_it_needs_and_a_one_line_text_does_not(renderer: ScreenRenderer):
    # commons' ConfirmationDialog message has no android:maxLines: it wraps, whole.
    message = 'Are you sure you want to delete "a-rather-long-file-name.txt"? It skips the recycle bin.'
    wrapped = View(kind="text", text=message, padding=12, max_lines=widgets.ANY_LINES)
    single = View(kind="text", text=message, padding=12)  # maxLines 1: one line, ellipsized
    content = View(LINEAR, padding=8, children=[wrapped, single])
    root = View(FRAME, children=[content], kind="dialog")
    box = (32, 100, W - 32, 0)
    h = round(_intrinsic(content, "v", SCALE, box[2] - box[0]))
    layout.layout(root, (*box[:3], box[1] + h), SCALE)
    line = 16 * SCALE * layout.LINE_HEIGHT
    assert single.bounds[3] - single.bounds[1] == round(line + 24)
    assert wrapped.bounds[3] - wrapped.bounds[1] >= round(3 * line + 24)
    img = renderer.image(frame(activity(screen()), Window("dialog", "p", "d", root)), "9:00")
    # Every line that the font's own word wrap needs is drawn (layout's estimate leaves room for
    # them all), none cut; the one-line text stays one line.
    x0, _, x1, _ = wrapped.bounds
    needed = renderer._fonts.layout(message, 16, x1 - x0 - 24, widgets.ANY_LINES)
    assert len(needed) >= 3 and not any("…" in part for part in needed)
    assert ink_lines(img, wrapped.bounds) == len(needed)
    assert ink_lines(img, single.bounds) == 1


def test_wrapping_counts_a_cjk_character_twice_as_wide():
    latin, chinese = ("x" * 30, "删" * 30)
    heights = [
        _intrinsic(View(kind="text", text=t, max_lines=widgets.ANY_LINES), "v", SCALE, 200) for t in (latin, chinese)
    ]
    assert heights[1] > heights[0] and heights[0] == pytest.approx(2 * 16 * SCALE * layout.LINE_HEIGHT)


def test_wrapping_breaks_between_cjk_characters_and_inside_a_word_too_long_for_a_line():
    def measure(text: str) -> float:  # one unit a character, two a CJK one
        return sum(2 if is_cjk(c) else 1 for c in text)

    assert wrap(measure, "删除启动器图标，而不会卸载", 10, 9) == ["删除启动器", "图标，而不", "会卸载"]
    assert wrap(measure, "delete 'a-long-file-name.txt'?", 10, 9) == ["delete", "'a-long-fi", "le-name.tx", "t'?"]
    assert wrap(measure, "Chrome 图标 app", 8, 9) == ["Chrome", "图标 app"]
    assert wrap(measure, "one two three", 8, 2) == ["one two", "three"]
    assert wrap(measure, "one two three four", 8, 2) == ["one two", "three…"]


def icon_pixels(renderer: ScreenRenderer, view: View) -> Image.Image:
    """The 48 x 48 box a lone icon view is drawn in, on a plain screen."""
    root = View(LINEAR, children=[view])
    img = decode(renderer.png(frame(activity(root)), "9:00")).convert("RGB")
    x0, y0, x1, y1 = view.bounds
    return img.crop((x0, y0, x1, y1))


def test_the_equalizer_icon_is_three_bars_not_a_letter(renderer: ScreenRenderer) -> None:
    """Music Player's Equalizer action shows Material's equalizer (three bars on one line), not an
    "E" in a disc."""
    assert glyph_name("equalizer") == "equalizer"
    box = icon_pixels(renderer, View(kind="icon", icon="equalizer", desc="Equalizer", width=48, height=48))
    ink = [[sum(box.getpixel((x, y))) < 500 for x in range(48)] for y in range(48)]
    columns = [x for x in range(48) if any(ink[y][x] for y in range(48))]
    runs = sum(1 for i, x in enumerate(columns) if i == 0 or columns[i - 1] != x - 1)
    assert runs == 3  # three bars side by side
    bottoms = {max(y for y in range(48) if ink[y][x]) for x in columns}
    assert max(bottoms) - min(bottoms) <= 1  # standing on one line
    tops = [min(y for y in range(48) if ink[y][x]) for x in columns]
    assert min(tops) == tops[len(tops) // 2]  # the middle one tallest


def test_a_swatch_or_divider_without_icon_or_label_draws_no_letter(renderer: ScreenRenderer) -> None:
    """A colour swatch (Calendar's event colour, the customization colours) is its disc alone, a
    divider image nothing at all: no "?" where the app shows no glyph."""
    swatch = icon_pixels(renderer, View(kind="icon", color="#e53935", width=48, height=48))
    assert swatch.crop((16, 16, 32, 32)).getcolors() == [(16 * 16, (229, 57, 53))]  # the disc, no mark on it
    divider = icon_pixels(renderer, View(kind="icon", width=48, height=48))
    assert divider.getcolors() == [(48 * 48, (255, 255, 255))]
