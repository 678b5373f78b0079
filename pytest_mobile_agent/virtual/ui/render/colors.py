"""Colours: the Material palette the screens are drawn in, and colour names as apps write them.

Apps name colours as Android resources do (#rrggbb, #aarrggbb) or by a plain name; the
helpers mix colours and pick a readable foreground for a background.
"""

from __future__ import annotations

import colorsys
import zlib
from dataclasses import dataclass, field
from functools import lru_cache

from PIL import ImageColor

RGB = tuple[int, int, int]

WHITE: RGB = (255, 255, 255)
TEXT: RGB = (33, 33, 33)
TEXT_2: RGB = (95, 99, 104)  # secondary text on light backgrounds
HINT: RGB = (158, 158, 158)
DIVIDER: RGB = (224, 224, 224)
PRIMARY: RGB = (245, 124, 0)  # Simple Mobile Tools' default, as the widgets use
ACCENT: RGB = PRIMARY
SELECTED_ROW: RGB = (254, 236, 216)
DISABLED: RGB = (189, 189, 189)
KEYBOARD_BG: RGB = (232, 234, 237)
KEY_BG: RGB = (255, 255, 255)
KEY_SPECIAL: RGB = (205, 209, 214)
TOAST_BG: RGB = (50, 50, 50)
NAV_BG: RGB = (0, 0, 0)
NAV_FG: RGB = (224, 224, 224)

# Material 500 shades for plain colour names (CSS "green" and friends look dated).
NAMED: dict[str, RGB] = {
    "primary": PRIMARY,
    "accent": ACCENT,
    "red": (244, 67, 54),
    "pink": (233, 30, 99),
    "purple": (156, 39, 176),
    "deep_purple": (103, 58, 183),
    "indigo": (63, 81, 181),
    "blue": (33, 150, 243),
    "light_blue": (3, 169, 244),
    "cyan": (0, 188, 212),
    "teal": (0, 150, 136),
    "green": (76, 175, 80),
    "light_green": (139, 195, 74),
    "lime": (205, 220, 57),
    "yellow": (255, 235, 59),
    "amber": (255, 193, 7),
    "orange": (255, 152, 0),
    "deep_orange": (255, 87, 34),
    "brown": (121, 85, 72),
    "grey": (158, 158, 158),
    "gray": (158, 158, 158),
    "blue_grey": (96, 125, 139),
    "black": (0, 0, 0),
    "white": WHITE,
    "dark": (48, 48, 48),
    "light": (245, 245, 245),
}
NO_COLOR = {"", "none", "transparent"}


@lru_cache(maxsize=256)
def parse_color(name: str) -> RGB | None:
    """A colour name, #rgb, #rrggbb or Android #aarrggbb; None for no background."""
    key = name.strip().lower().replace(" ", "_").replace("-", "_")
    if key in NO_COLOR:
        return None
    if key in NAMED:
        return NAMED[key]
    if key.startswith("#") and len(key) == 9:
        # Android order: alpha first; composite over white as a window background would.
        try:
            a, r, g, b = (int(key[i : i + 2], 16) for i in (1, 3, 5, 7))
        except ValueError:
            return None
        return mix((r, g, b), WHITE, a / 255)
    try:
        c = ImageColor.getrgb(key.replace("_", ""))
    except ValueError:
        return None
    return c[0], c[1], c[2]


def lum(c: RGB) -> float:
    return (0.299 * c[0] + 0.587 * c[1] + 0.114 * c[2]) / 255


def mix(a: RGB, b: RGB, t: float) -> RGB:
    """t of a over 1-t of b."""
    return (
        round(a[0] * t + b[0] * (1 - t)),
        round(a[1] * t + b[1] * (1 - t)),
        round(a[2] * t + b[2] * (1 - t)),
    )


def ink_on(bg: RGB) -> RGB:
    """Readable foreground on a background."""
    return TEXT if lum(bg) > 0.6 else WHITE


def is_dark(bg: RGB) -> bool:
    return lum(bg) <= 0.6


def hsv(h: float, s: float, v: float) -> RGB:
    r, g, b = colorsys.hsv_to_rgb(h, s, v)
    return round(r * 255), round(g * 255), round(b * 255)


def seeded(name: str) -> RGB:
    """A stable, pleasant colour for a name."""
    return hsv((zlib.crc32(name.encode()) % 360) / 360, 0.6, 0.8)


@dataclass(frozen=True)
class Theme:
    """The colours a screen is drawn in where views leave them to the theme: the window and
    dialog backgrounds, text on them, a selected row, the keyboard. `named` maps colour names
    the apps give their backgrounds ("white": the window's) to this theme's."""

    name: str
    background: RGB
    dialog: RGB
    text: RGB  # ink on the theme's backgrounds
    selected_row: RGB
    keyboard: RGB
    key: RGB
    key_special: RGB
    key_text: RGB
    named: dict[str, RGB] = field(default_factory=dict)

    def color(self, name: str) -> RGB | None:
        """A background colour the app named, as this theme draws it (None: no background)."""
        key = name.strip().lower()
        return self.named[key] if key in self.named else parse_color(name)


# Simple-Commons' light and dark themes (res/values/colors.xml theme_light_* / theme_dark_*): what
# its "Auto light / dark" theme switches between on the system's night mode, with the default
# orange primary colour. The keyboard is LatinIME's light and dark one.
DAY = Theme(
    name="day",
    background=WHITE,
    dialog=WHITE,
    text=TEXT,
    selected_row=SELECTED_ROW,
    keyboard=KEYBOARD_BG,
    key=KEY_BG,
    key_special=KEY_SPECIAL,
    key_text=TEXT,
)
NIGHT_BACKGROUND: RGB = (45, 45, 45)  # md_grey_800_dark #2D2D2D, theme_dark_background_color
NIGHT = Theme(
    name="night",
    background=NIGHT_BACKGROUND,
    dialog=NIGHT_BACKGROUND,  # Simple's dialogs take the background colour
    text=(238, 238, 238),  # md_grey_200 #EEEEEE, theme_dark_text_color
    selected_row=mix(PRIMARY, NIGHT_BACKGROUND, 0.2),
    keyboard=(32, 33, 36),
    key=(60, 64, 67),
    key_special=(95, 99, 104),
    key_text=(232, 234, 237),
    named={"white": NIGHT_BACKGROUND, "light": (56, 56, 56)},
)


def theme_for(night: bool) -> Theme:
    return NIGHT if night else DAY
