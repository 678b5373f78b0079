"""ADB Keyboard (com.android.adbkeyboard): the input method agents use to type any Unicode text.

Agents (AppAgent, Mobile-Agent, SPA-Bench's) install it, `ime enable` and `ime set` it, then
broadcast `ADB_INPUT_TEXT --es msg '你好'` (or base64 in `ADB_INPUT_B64`), which it commits to the
focused field: `input text` cannot type what the virtual keyboard's key map lacks. It has no
launcher activity; while it is the current input method its keyboard is a small bar that says
so (ui/keyboard.py). The broadcasts are handled by `am broadcast` (shell/commands/activities.py), as its
receiver does.
"""

from __future__ import annotations

from pytest_mobile_agent.virtual.ui.app import Activity, App
from pytest_mobile_agent.virtual.ui.keyboard import ADB_KEYBOARD
from pytest_mobile_agent.virtual.ui.view import FRAME, View


class NoActivity(Activity):
    """The package declares no activity; `am start` of this name fails as on a phone."""

    name = ".NoActivity"

    def content(self) -> View:
        return View(FRAME)


class AdbKeyboard(App):
    package = ADB_KEYBOARD
    label = ""  # no launcher entry
    version_code = 20
    version_name = "2.0"
    main_activity = NoActivity


APPS = (AdbKeyboard,)
