"""Password protection: commons' SecurityDialog, which sets up or checks a pattern or PIN
(dialog_security.xml, tab_pattern.xml, tab_pin.xml)."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial

from pytest_mobile_agent.virtual.ui import widgets as w
from pytest_mobile_agent.virtual.ui.app import Activity, Overlay
from pytest_mobile_agent.virtual.ui.view import IMAGE, LINEAR, RELATIVE, TEXT, VIEW, View

PROTECTION_PATTERN, PROTECTION_PIN = 0, 1
SHOW_ALL_TABS = -1


def hash_pin(pin: str) -> str:
    """PinTab's hash: SHA-1 of the digits, lower-case hex."""
    return hashlib.sha1(pin.encode()).hexdigest()


@dataclass
class _Entry:
    """What the dialog shows: its tab, the PIN typed so far, the hash to match and the title."""

    tab: int
    hash: str
    pin: str = ""
    title: str = ""


def security_dialog(
    activity: Activity,
    on_success: Callable[[str, int], None],
    *,
    required_hash: str = "",
    protection: int = SHOW_ALL_TABS,
    on_fail: Callable[[], None] | None = None,
) -> Overlay:
    """Set up (all tabs, PIN asked twice) or check (one fixed tab) a pattern or PIN.

    `on_success(hash, protection_type)` runs after the dialog closed; Cancel or outside runs `on_fail`.
    """
    app = activity.app
    state = _Entry(PROTECTION_PATTERN if protection == SHOW_ALL_TABS else protection, required_hash)
    holder: list = []

    def press(key: str) -> None:
        if key == "ok":
            confirm()
        elif key == "C":
            state.pin = state.pin[:-1]
        elif len(state.pin) < 10:
            state.pin += key
            if state.title == "Wrong PIN":  # the real tab restores its title after a second
                state.title = ""

    def confirm() -> None:
        pin = state.pin
        if not pin:
            activity.toast("Please enter a PIN")
        elif not state.hash and len(pin) < 4:
            state.pin = ""
            activity.toast("PIN must be at least 4 digits long")
        elif not state.hash:
            state.hash, state.pin, state.title = hash_pin(pin), "", "Repeat PIN"
        elif state.hash == hash_pin(pin):
            activity.dismiss(holder[0])
            on_success(state.hash, PROTECTION_PIN)
        else:
            state.pin, state.title = "", "Wrong PIN"
            if not required_hash:
                state.hash = ""

    def key(name: str, label: str) -> View:
        return View(
            TEXT,
            id=app.rid(f"pin_{name}"),
            text=label,
            clickable=True,
            focusable=True,
            weight=1,
            gravity="center",
            text_size=24,
            kind="button",
            on_click=lambda: press(label),
        )

    def pin_page() -> View:
        rows = [w.row([key(d, d) for d in digits], height=56) for digits in ("123", "456", "789")]
        ok = View(
            IMAGE,
            id=app.rid("pin_ok"),
            clickable=True,
            focusable=True,
            weight=1,
            icon="check",
            kind="icon",
            on_click=lambda: press("ok"),
        )
        rows.append(w.row([key("c", "C"), key("0", "0"), ok], height=56))
        return View(
            RELATIVE,
            id=app.rid("pin_lock_holder"),
            children=[
                w.image(app.rid("pin_lock_icon"), "", "lock", height=48),
                w.text(app.rid("pin_lock_title"), state.title or "Enter PIN", gravity="center"),
                w.text(app.rid("pin_lock_current_pin"), "*" * len(state.pin), size=24, gravity="center", height=40),
                *rows,
            ],
        )

    def pattern_page() -> View:
        return View(
            RELATIVE,
            id=app.rid("pattern_lock_holder"),
            children=[
                w.image(app.rid("pattern_lock_icon"), "", "lock", height=48),
                w.text(app.rid("pattern_lock_title"), "Insert pattern", gravity="center"),
                View(VIEW, id=app.rid("pattern_lock_view"), height=240, kind="pattern"),
            ],
        )

    def select(tab: int) -> None:
        state.tab, state.pin, state.title = tab, "", ""
        if not required_hash:
            state.hash = ""

    def body() -> list[View]:
        kids: list[View] = []
        if protection == SHOW_ALL_TABS:
            tabs = []
            for i, label in enumerate(("Pattern", "PIN")):
                sel = state.tab == i
                tabs.append(
                    View(
                        LINEAR,
                        clickable=not sel,
                        focusable=True,
                        selected=sel,
                        weight=1,
                        kind="tab",
                        on_click=None if sel else partial(select, i),
                        children=[w.text("", label, gravity="center", selected=sel)],
                    )
                )
            strip = View(LINEAR, orientation="h", children=tabs, height=48)
            kids.append(View("android.widget.HorizontalScrollView", id=app.rid("dialog_tab_layout"), children=[strip]))
        page = pin_page() if state.tab == PROTECTION_PIN else pattern_page()
        kids.append(View("androidx.viewpager.widget.ViewPager", id=app.rid("dialog_tab_view_pager"), children=[page]))
        inner = View(LINEAR, id=app.rid("dialog_holder"), children=kids)
        return [View(w.SCROLL, id=app.rid("dialog_scrollview"), children=[inner])]

    def failed() -> None:
        if on_fail:
            on_fail()

    dialog = w.alert(activity, "", body, negative=("Cancel", failed))
    dialog.on_cancel = failed
    holder.append(dialog)
    return dialog
