"""What is on screen: a frame's windows, bottom to top, each a laid-out view tree.

The window manager builds frames; the renderer draws them and uiautomator's dump reads them.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pytest_mobile_agent.virtual.ui.app import Activity, Overlay
from pytest_mobile_agent.virtual.ui.view import View


@dataclass
class Window:
    kind: str  # activity, dialog, menu, keyboard, toast, statusbar, navbar
    package: str
    title: str
    root: View
    owner: Activity | None = None
    overlay: Overlay | None = None


@dataclass
class Frame:
    version: int
    windows: list[Window] = field(default_factory=list)  # bottom to top

    def active(self) -> Window:
        """The window uiautomator dumps: the topmost app window (dialog, menu or activity)."""
        return next(w for w in reversed(self.windows) if w.kind in ("activity", "dialog", "menu", "sheet"))

    def app_windows(self) -> list[Window]:
        return [w for w in self.windows if w.kind in ("activity", "dialog", "menu", "sheet")]
