"""Simple Calculator's data: the engine's history, stored as the real app keeps it in a database
(app data); the display starts at 0 each time."""

from __future__ import annotations

from pytest_mobile_agent.virtual.apps.calculator.engine import Engine
from pytest_mobile_agent.virtual.ui.app import App, Context

PKG = "com.simplemobiletools.calculator"


class CalculatorStore(App):
    """The app object as the screens use it: its prefs and the engine, whose history it keeps."""

    package = PKG

    def __init__(self, device: Context) -> None:
        super().__init__(device)
        self.engine = Engine()
        # Only the history is stored (a database in the real app); the display starts at 0.
        self.engine.history = [tuple(h) for h in self.load("history", [])]
        self._saved = len(self.engine.history)

    def save_engine(self) -> None:
        if len(self.engine.history) != self._saved:
            self.save("history", self.engine.history)
            self._saved = len(self.engine.history)
