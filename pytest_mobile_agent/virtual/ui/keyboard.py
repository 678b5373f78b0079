"""The on-screen keyboard shown while a text field has focus (its own window, never dumped)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from pytest_mobile_agent.virtual.apps.adbkeyboard import PACKAGE as ADB_KEYBOARD
from pytest_mobile_agent.virtual.apps.adbkeyboard import keyboard_bar
from pytest_mobile_agent.virtual.ui.view import FRAME, LINEAR, View

if TYPE_CHECKING:
    from pytest_mobile_agent.virtual.system.window import WindowManager

PACKAGE = "com.android.inputmethod.latin"
ROWS = ("qwertyuiop", "asdfghjkl", "zxcvbnm")
DIGITS = ("1234567890", "@#$_&-+()/", "*\"':;!?")
KEY_HEIGHT = 52  # dp


def current(wm: WindowManager) -> str:
    """The package of the current input method (`ime set` changes it)."""
    ime = wm.device.settings.get("secure", "default_input_method") or ""
    return ime.split("/")[0] if ime.startswith(ADB_KEYBOARD) else PACKAGE


def build(wm: WindowManager, ime: str = PACKAGE) -> View:
    """The keyboard of the input method `ime` (a package, see current())."""
    if ime == ADB_KEYBOARD:
        return keyboard_bar()
    symbols = getattr(wm, "ime_symbols", False)
    rows = DIGITS if symbols else ROWS

    def typer(ch: str):
        return lambda: wm.type_text(ch)

    def key(label: str, action, weight: float = 1.0, desc: str = "") -> View:
        return View(
            FRAME,
            text=label,
            desc=desc or label,
            clickable=True,
            on_click=action,
            weight=weight,
            kind="key",
            text_size=20,
        )

    def toggle_symbols() -> None:
        wm.ime_symbols = not symbols
        wm.changed()

    children = []
    for i, row in enumerate(rows):
        keys = [key(ch, typer(ch)) for ch in row]
        if i == 2:
            keys.append(key("⌫", lambda: wm.key(67), 1.5, "Delete"))
        children.append(View(LINEAR, orientation="h", height=KEY_HEIGHT, children=keys, padding=2))
    bottom = [
        key("abc" if symbols else "?123", toggle_symbols, 1.5, "Symbols"),
        key(",", typer(",")),
        key(" ", typer(" "), 5, "Space"),
        key(".", typer(".")),
        key("⏎", lambda: wm.key(66), 1.5, "Enter"),
    ]
    children.append(View(LINEAR, orientation="h", height=KEY_HEIGHT, children=bottom, padding=2))
    return View(LINEAR, children=children, kind="keyboard", padding=4)
