"""What the SMS Messenger screens share: SelectingActivity, the base of those with an action
mode over a selection, and the ConstraintLayout their roots report."""

from __future__ import annotations

from pytest_mobile_agent.virtual.apps.smsmessenger.store import SmsStore
from pytest_mobile_agent.virtual.ui.app import Activity, App

CONSTRAINT = "androidx.constraintlayout.widget.ConstraintLayout"


class SelectingActivity(Activity):
    """A Messenger screen with an action mode over `selected` (conversations, messages or
    blocked numbers): BACK first ends the selection."""

    app: SmsStore

    def __init__(self, app: App, extras: dict[str, str] | None = None) -> None:
        super().__init__(app, extras)
        self.selected: list = []

    def on_back(self) -> bool:
        if self.selected:
            self.selected = []
            return True
        return False
