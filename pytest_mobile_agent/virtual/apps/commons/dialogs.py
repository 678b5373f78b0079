"""Commons dialogs several apps show: PropertiesDialog, the keyboard closing with a dialog
that has a text field, and a text dialog whose OK checks before it closes."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from pytest_mobile_agent.virtual.ui import widgets as w
from pytest_mobile_agent.virtual.ui.app import Activity, Overlay
from pytest_mobile_agent.virtual.ui.view import LINEAR, View


def properties_dialog(activity: Activity, rows: Sequence[tuple[str, str]], title: str = "Properties"):
    """PropertiesDialog: label/value rows (`property_label`, `property_value`) in a ScrollView, OK only."""
    a = activity.app
    holder = View(
        LINEAR,
        id=a.rid("properties_holder"),
        padding=8,
        children=[
            View(
                LINEAR,
                id=a.rid("property_holder"),
                padding=4,
                children=[
                    w.text(a.rid("property_label"), label, size=14, bold=True),
                    w.text(a.rid("property_value"), value),
                ],
            )
            for label, value in rows
        ],
    )
    body = [View(w.SCROLL, id=a.rid("properties_scrollview"), children=[holder])]
    return w.alert(activity, title, body, positive=("OK", lambda: None))


def keyboard_dialog(activity: Activity, dialog: Overlay) -> Overlay:
    """A dialog with a text field: once it closes (a button, BACK, a tap outside) the keyboard
    goes too, as Android hides it with the window that had the focus."""

    def hide() -> None:
        activity.focus = None
        activity.wm.ime_shown = False

    build = dialog.build

    def wrapped() -> View:
        root = build()
        for v in root.walk():
            if v.id.startswith("android:id/button") and v.on_click:

                def click(run: Callable[[], None] = v.on_click) -> None:
                    run()
                    if dialog not in activity.overlays:  # a validating OK may keep it open
                        hide()

                v.on_click = click
        return root

    cancel = dialog.on_cancel

    def cancelled() -> None:
        hide()
        if cancel:
            cancel()

    dialog.build, dialog.on_cancel = wrapped, cancelled
    return dialog


def validating_dialog(activity: Activity, title: str, body: Callable[[], list[View]], ok: Callable[[], bool]):
    """An OK/Cancel dialog with a text field whose OK checks first: it closes only when `ok`
    returns True (the real dialogs toast the problem and stay)."""
    dialog = w.alert(activity, title, body, positive=("OK", lambda: None), negative=("Cancel", lambda: None))
    build = dialog.build

    def check() -> None:
        if ok():
            activity.dismiss(dialog)

    def checked() -> View:
        root = build()
        for v in root.walk():
            if v.id == "android:id/button1":
                v.on_click = check
        return root

    dialog.build = checked
    return keyboard_dialog(activity, dialog)
