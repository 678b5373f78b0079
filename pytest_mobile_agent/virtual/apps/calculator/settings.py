"""Simple Calculator's settings screen (Jetpack Compose: texts and checkboxes, no resource ids)."""

from __future__ import annotations

from functools import partial

from pytest_mobile_agent.virtual.apps.commons.about import compose_row, compose_top_bar
from pytest_mobile_agent.virtual.apps.commons.settings import language_name
from pytest_mobile_agent.virtual.ui import widgets as w
from pytest_mobile_agent.virtual.ui.app import Activity
from pytest_mobile_agent.virtual.ui.view import CHECKBOX, TEXT, VIEW, View


class SettingsActivity(Activity):
    """A Compose screen: texts and checkboxes, no resource ids."""

    name = ".activities.SettingsActivity"
    OPTIONS = (
        ("Vibrate on button press", "vibrate_on_button_press", True),
        ("Prevent phone from sleeping while the app is in foreground", "prevent_phone_from_sleeping", False),
        ("Use comma as a decimal mark", "use_comma_as_decimal_mark", False),
    )

    def content(self) -> View:
        a = self.app
        rows = [
            View(TEXT, text="Color customization", text_size=14, bold=True, padding=12),
            compose_row("Customize colors", lambda: self.toast("Customize colors")),
            compose_row("Customize widget colors", lambda: self.toast("Customize widget colors")),
            View(TEXT, text="General", text_size=14, bold=True, padding=12),
            compose_row("Language", lambda: self.toast("Language"), language_name()),
        ]
        for label, pref, default in self.OPTIONS:
            checked = bool(a.pref(pref, default))
            rows.append(
                View(
                    VIEW,
                    clickable=True,
                    kind="row",
                    orientation="h",
                    padding=8,
                    on_click=partial(self.toggle, pref, default),
                    children=[
                        View(TEXT, text=label, weight=1),
                        View(CHECKBOX, checkable=True, checked=checked, kind="checkbox", width=48, height=48),
                    ],
                )
            )
        return View(VIEW, children=[compose_top_bar(self, "Settings"), w.scroll("", rows, cls=VIEW)])

    def toggle(self, pref: str, default: bool) -> None:
        self.app.set_pref(pref, not self.app.pref(pref, default))
