"""Settings screens as the Simple apps lay them out: sections and rows of checkboxes, values and
links, the Language row and a password-protection row.

Learned from the apps' res/layout/activity_settings.xml (holder/checkbox/label/value id pattern).
"""

from __future__ import annotations

from collections.abc import Callable

from pytest_mobile_agent.virtual.apps.commons.security import SHOW_ALL_TABS, security_dialog
from pytest_mobile_agent.virtual.resources.strings import LANGUAGE_NAMES
from pytest_mobile_agent.virtual.ui import widgets as w
from pytest_mobile_agent.virtual.ui.app import Activity
from pytest_mobile_agent.virtual.ui.localize import drawing_locale
from pytest_mobile_agent.virtual.ui.view import RELATIVE, View


def settings_section(activity: Activity, name: str, label: str) -> View:
    return w.section(activity, f"settings_{name}", label)


def settings_check(activity: Activity, name: str, label: str, pref: str, default: bool) -> View:
    """A checkbox row: holder `settings_NAME_holder`, checkbox `settings_NAME`."""
    return w.setting_checkbox(activity, f"settings_{name}_holder", f"settings_{name}", label, pref, default)


def settings_value(activity: Activity, name: str, label: str, value: str, action: Callable[[], None]) -> View:
    """A row with a value: holder, label `settings_NAME_label`, value `settings_NAME`."""
    return w.setting_choice(
        activity, f"settings_{name}_holder", f"settings_{name}_label", f"settings_{name}", label, value, action
    )


def settings_link(
    activity: Activity, name: str, label: str, action: Callable[[], None] | None, label_id: str = ""
) -> View:
    """A row that opens something: holder `settings_NAME_holder` with one label."""
    app = activity.app
    return View(
        RELATIVE,
        id=app.rid(f"settings_{name}_holder"),
        clickable=True,
        focusable=True,
        on_click=action,
        kind="row",
        padding=8,
        children=[w.text(app.rid(label_id or f"settings_{name}_label"), label)],
    )


def settings_screen(activity: Activity, rows: list[View]) -> View:
    """activity_settings.xml: toolbar, NestedScrollView > LinearLayout of rows."""
    app = activity.app
    holder = w.column(rows, id=app.rid("settings_holder"))
    body = w.scroll(app.rid("settings_nested_scrollview"), [holder], cls="androidx.core.widget.NestedScrollView")
    return w.screen(
        w.toolbar(activity, "settings_toolbar", "Settings", back=True), [body], id=app.rid("settings_coordinator")
    )


def language_name() -> str:
    """The Language setting's value: the device language's own name."""
    return LANGUAGE_NAMES[drawing_locale()]


def settings_protected(activity: Activity, name: str, label: str, pref: str) -> View:
    """A password-protection checkbox row (settings_NAME_holder / settings_NAME): switching it on
    sets up a pattern or PIN in the SecurityDialog, switching it off asks for it first."""
    app = activity.app
    row = settings_check(activity, name, label, pref, False)

    def toggle() -> None:
        def done(hash_: str = "", kind: int = 0, *_: object) -> None:
            on = not app.pref(pref, False)
            app.set_pref(pref, on)
            app.set_pref(f"{pref}_hash", hash_ if on else "")
            app.set_pref(f"{pref}_type", kind if on else SHOW_ALL_TABS)

        if app.pref(pref, False):
            required, kind = app.pref(f"{pref}_hash", ""), app.pref(f"{pref}_type", SHOW_ALL_TABS)
            activity.show(security_dialog(activity, done, required_hash=required, protection=kind))
        else:
            activity.show(security_dialog(activity, done))

    row.on_click = toggle
    return row
