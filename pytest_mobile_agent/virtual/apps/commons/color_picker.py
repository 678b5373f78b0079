"""Simple-Commons' colour pickers: ColorPickerDialog (a saturation/value square, a hue bar, the old
and new hex codes, the recent colours) and LineColorPickerDialog (a line of stripes to tap).

Learned from Simple-Commons dialogs/ColorPickerDialog.kt, dialogs/LineColorPickerDialog.kt,
views/LineColorPicker.kt, res/layout/dialog_color_picker.xml and dialog_line_color_picker.xml
(commit b7dd6ad4): the square's x is the saturation and its y the value (top = 1); the hue bar's
top is 360 and its bottom 0; typing six hex digits moves both; OK takes the hex field when it
holds six digits (else the square's colour) and puts it first among the recent colours (five
kept); "Default color" (where the caller asks for it) answers 0. A line picker's tap picks the
stripe under the finger; as the primary colour picker it shows the shades of the tapped colour
on a second line and answers the shade.

Colours are "#RRGGBB" strings; `on_done(True, colour)` on OK, `on_done(True, "")` on Default
color, `on_done(False, "")` on Cancel or BACK.
"""

from __future__ import annotations

import colorsys
from collections.abc import Callable
from functools import partial

from pytest_mobile_agent.virtual.apps.commons.palette import (
    DEFAULT_INDEXES,
    PRIMARY_COLORS,
    RECENT_COUNT,
    RECENT_DEFAULT,
    SHADES,
)
from pytest_mobile_agent.virtual.ui import widgets as w
from pytest_mobile_agent.virtual.ui.app import Activity
from pytest_mobile_agent.virtual.ui.view import IMAGE, LINEAR, RELATIVE, SCROLL, View

Done = Callable[[bool, str], None]
HEX_KEY = "color_picker_new_hex"
SQUARE_DP, HUE_DP, ITEMS_DP = 240, 30, 30  # colorpicker_size, colorpicker_hue_width, colorpicker_items_height
LINE_DP = 80  # line_color_picker_height
DIGITS = set("0123456789abcdefABCDEF")


def to_hsv(color: str) -> list[float]:
    r, g, b = (int(color.lstrip("#")[i : i + 2], 16) / 255 for i in (0, 2, 4))
    h, s, v = colorsys.rgb_to_hsv(r, g, b)
    return [h * 360, s, v]


def from_hsv(hsv: list[float]) -> str:
    r, g, b = colorsys.hsv_to_rgb(hsv[0] / 360 % 1.0, hsv[1], hsv[2])
    return "#{:02X}{:02X}{:02X}".format(*(round(c * 255) for c in (r, g, b)))


def recent_colors(activity: Activity) -> list[str]:
    return list(activity.app.pref("color_picker_recent_colors", list(RECENT_DEFAULT)))


def add_recent_color(activity: Activity, color: str) -> None:
    """addRecentColor: the colour first, once, five kept."""
    kept = [c for c in recent_colors(activity) if c != color][: RECENT_COUNT - 1]
    activity.app.set_pref("color_picker_recent_colors", [color, *kept])


def color_picker_dialog(activity: Activity, color: str, on_done: Done, *, default_button: bool = False):
    """ColorPickerDialog: no title; OK / Cancel (and "Default color")."""
    a = activity.app
    old = color.upper()
    hsv = to_hsv(old)
    activity.texts[HEX_KEY] = old[1:]
    dialog_dp = activity.wm.width / activity.wm.scale - 64 - 16  # the dialog's margins and padding

    def typed(text: str) -> None:
        if len(text) == 6 and set(text) <= DIGITS:  # onTextChangeListener: six digits move the pickers
            hsv[:] = to_hsv("#" + text)

    def set_hsv(h: float | None, s: float | None, v: float | None) -> None:
        for i, value in enumerate((h, s, v)):
            if value is not None:
                hsv[i] = value
        activity.texts[HEX_KEY] = from_hsv(hsv)[1:]

    def square_touched(fx: float, fy: float) -> None:
        set_hsv(None, min(max(fx, 0.0), 1.0), 1 - min(max(fy, 0.0), 1.0))

    def hue_touched(fx: float, fy: float) -> None:
        hue = 360 - 360 * min(max(fy, 0.0), 0.99999)
        set_hsv(0.0 if hue >= 360 else hue, None, None)

    def recent_picked(recent: str) -> None:
        activity.texts[HEX_KEY] = recent[1:]
        typed(recent[1:])

    def body() -> list[View]:
        new = from_hsv(hsv)
        recents = [
            w.image(
                "", "", "", width=HUE_DP, height=HUE_DP, color=c, clickable=True, on_click=partial(recent_picked, c)
            )
            for c in recent_colors(activity)[:RECENT_COUNT]
        ]
        left = (dialog_dp - SQUARE_DP - 8 - HUE_DP) / 2
        top = View(
            RELATIVE,
            id=a.rid("color_picker_top_holder"),
            orientation="stack",
            height=SQUARE_DP + 32,
            children=[
                View(
                    IMAGE,
                    id=a.rid("color_picker_square"),
                    x=left,
                    y=16,
                    width=SQUARE_DP,
                    height=SQUARE_DP,
                    kind="color_square",
                    canvas=tuple(hsv),
                    on_touch=square_touched,
                ),
                View(
                    IMAGE,
                    id=a.rid("color_picker_hue"),
                    x=left + SQUARE_DP + 8,
                    y=16,
                    width=HUE_DP,
                    height=SQUARE_DP,
                    kind="hue_bar",
                    canvas=(hsv[0],),
                    on_touch=hue_touched,
                ),
                View(
                    IMAGE,
                    id=a.rid("color_picker_hue_cursor"),
                    x=left + SQUARE_DP,
                    width=8,
                    height=16,
                    y=16 + SQUARE_DP * (1 - hsv[0] / 360) - 8,
                    icon="chevron_right",
                    kind="icon",
                ),
                View(
                    IMAGE,
                    id=a.rid("color_picker_cursor"),
                    x=left + hsv[1] * SQUARE_DP - 8,
                    width=16,
                    height=16,
                    y=16 + (1 - hsv[2]) * SQUARE_DP - 8,
                    kind="color_cursor",
                ),
            ],
        )
        hex_edit = w.edit(activity, HEX_KEY, on_change=typed, width=80, cursor="hairline")
        hexes = w.row(
            [
                View(weight=1),
                w.text(a.rid("color_picker_old_hex"), old, size=14, width=70, gravity="center"),
                w.image(a.rid("color_picker_hex_arrow"), "", "arrow_forward", width=44, height=20, gravity="center"),
                w.text(a.rid("color_picker_new_hex_label"), "#", size=14, height=ITEMS_DP, gravity="center"),
                hex_edit,
                View(weight=1),
            ],
            id=a.rid("color_picker_hex_codes_holder"),
            height=56,
        )
        swatches = w.row(
            [
                View(weight=1),
                w.image(a.rid("color_picker_old_color"), "", "", width=ITEMS_DP, height=ITEMS_DP, color=old, kind=""),
                w.image(a.rid("color_picker_arrow"), "", "arrow_forward", width=44, height=20, gravity="center"),
                w.image(a.rid("color_picker_new_color"), "", "", width=ITEMS_DP, height=ITEMS_DP, color=new, kind=""),
                View(weight=1),
            ],
            id=a.rid("color_picker_bottom_holder"),
            height=ITEMS_DP + 16,
        )
        recent = View(
            "androidx.constraintlayout.widget.ConstraintLayout",
            id=a.rid("recent_colors"),
            orientation="h",
            height=HUE_DP + 16,
            padding=8,
            children=recents,
        )
        holder = View(RELATIVE, id=a.rid("color_picker_holder"), children=[recent, top, hexes, swatches])
        return [View(SCROLL, id=a.rid("color_picker_scrollview"), children=[holder])]

    def ok() -> None:
        text = activity.texts.pop(HEX_KEY, "")
        chosen = "#" + text.upper() if len(text) == 6 and set(text) <= DIGITS else from_hsv(hsv)
        add_recent_color(activity, chosen)
        on_done(True, chosen)

    def cancelled() -> None:
        activity.texts.pop(HEX_KEY, None)
        on_done(False, "")

    def default() -> None:
        activity.texts.pop(HEX_KEY, None)
        on_done(True, "")

    dialog = w.alert(
        activity,
        "",
        body,
        positive=("OK", ok),
        negative=("Cancel", cancelled),
        neutral=("Default color", default) if default_button else None,
    )
    dialog.on_cancel = cancelled
    return dialog


def line_color_picker_dialog(
    activity: Activity,
    color: str,
    on_done: Done,
    *,
    primary: bool,
    colors: tuple[str, ...] = PRIMARY_COLORS,
    on_change: Callable[[str], None] | None = None,
):
    """LineColorPickerDialog: the colours' line (and, as the primary colour picker, the shades of
    the chosen one under it), the hex code; OK / Cancel. `on_change`: the colour being tried
    (the primary picker recolours the toolbar behind it)."""
    a = activity.app
    state = dict(zip(("primary", "shade"), _indexes(color.upper(), colors)))

    def current() -> str:
        return SHADES[state["primary"]][state["shade"]] if primary else colors[state["primary"]]

    def pick(key: str, count: int, fx: float, fy: float) -> None:
        index = max(0, min(int(fx * count), count - 1))  # touchAt: the stripe under the finger
        if state[key] != index:
            state[key] = index
            if on_change is not None:
                on_change(current())

    def line(id: str, stripes: tuple[str, ...], selected: int, key: str) -> View:
        return View(
            "android.widget.LinearLayout",
            id=a.rid(id),
            height=LINE_DP,
            kind="color_line",
            canvas=(stripes, selected),
            on_touch=partial(pick, key, len(stripes)),
        )

    def body() -> list[View]:
        children = [line("primary_line_color_picker", colors, state["primary"], "primary")]
        if primary:
            children.append(View(height=24))
            children.append(line("secondary_line_color_picker", SHADES[state["primary"]], state["shade"], "shade"))
        children.append(w.text(a.rid("hex_code"), current(), size=16, gravity="center", padding=12))
        return [View(LINEAR, id=a.rid("line_color_picker_holder"), padding=16, children=children)]

    dialog = w.alert(
        activity,
        "",
        body,
        positive=("OK", lambda: on_done(True, current())),
        negative=("Cancel", lambda: on_done(False, "")),
    )
    dialog.on_cancel = lambda: on_done(False, "")
    return dialog


def _indexes(color: str, colors: tuple[str, ...]) -> tuple[int, int]:
    """getColorIndexes: where the colour is among the shades (or the line's own colours, for a
    line without shades), else orange 700."""
    for i, shades in enumerate(SHADES):
        if color in shades:
            return i, shades.index(color)
    if color in colors:
        return colors.index(color), DEFAULT_INDEXES[1]
    return DEFAULT_INDEXES
