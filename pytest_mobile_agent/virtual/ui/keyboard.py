"""The device's input methods and the keyboard each shows while a text field has focus (its own
window, never dumped): LatinIME's keys, and ADB Keyboard's bar (agents type any Unicode text
through its broadcasts, see apps/system/adbkeyboard.py)."""

from __future__ import annotations

from typing import Protocol

from pytest_mobile_agent.virtual.ui.view import FRAME, LINEAR, TEXT, View

PACKAGE = "com.android.inputmethod.latin"
LATIN_IME_ID = f"{PACKAGE}/.LatinIME"
ADB_KEYBOARD = "com.android.adbkeyboard"
ADB_KEYBOARD_IME_ID = f"{ADB_KEYBOARD}/.AdbIME"
INPUT_METHODS = (LATIN_IME_ID, ADB_KEYBOARD_IME_ID)  # every IME a fresh virtual device has
ROWS = ("qwertyuiop", "asdfghjkl", "zxcvbnm")
DIGITS = ("1234567890", "@#$_&-+()/", "*\"':;!?")
KEY_HEIGHT = 52  # dp


class Typist(Protocol):
    """What a keyboard's keys drive: the window manager's text input."""

    ime_symbols: bool  # the symbols page is shown

    def type_text(self, text: str) -> bool: ...
    def key(self, code: int) -> None: ...
    def changed(self) -> None: ...


def current(default_input_method: str | None) -> str:
    """The package of the current input method, from the `default_input_method` setting (`ime set`)."""
    ime = default_input_method or ""
    return ime.split("/")[0] if ime.startswith(ADB_KEYBOARD) else PACKAGE


def keyboard_bar() -> View:
    """What the ADB Keyboard IME draws while a field has focus."""
    return View(FRAME, children=[View(TEXT, text="ADB Keyboard {ON}", text_size=16, padding=12)], kind="keyboard")


def build(wm: Typist, ime: str = PACKAGE) -> View:
    """The keyboard of the input method `ime` (a package, see current())."""
    if ime == ADB_KEYBOARD:
        return keyboard_bar()
    symbols = wm.ime_symbols
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
