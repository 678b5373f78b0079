"""Simple Calculator's main screen: the formula, the result and the keypad, and the history.

Ids and texts follow docs/fidelity/calculator.md, learned from Simple-Calculator's
activity_main.xml, view_calculator.xml, menu.xml and Simple-Commons' dialogs.
"""

from __future__ import annotations

from functools import partial

from pytest_mobile_agent.virtual.apps.calculator.converter import UnitConverterPickerActivity
from pytest_mobile_agent.virtual.apps.calculator.settings import SettingsActivity
from pytest_mobile_agent.virtual.apps.calculator.store import CalculatorStore
from pytest_mobile_agent.virtual.apps.commons.about import (
    AboutActivity,
)
from pytest_mobile_agent.virtual.ui import widgets as w
from pytest_mobile_agent.virtual.ui.app import Activity, App
from pytest_mobile_agent.virtual.ui.view import LINEAR, TEXT, View

KEYPAD = (
    (("btn_percent", "%"), ("btn_power", "^"), ("btn_root", "√"), ("btn_divide", "÷")),
    (("btn_7", "7"), ("btn_8", "8"), ("btn_9", "9"), ("btn_multiply", "×")),
    (("btn_4", "4"), ("btn_5", "5"), ("btn_6", "6"), ("btn_minus", "-")),
    (("btn_1", "1"), ("btn_2", "2"), ("btn_3", "3"), ("btn_plus", "+")),
    (("btn_0", "0"), ("btn_decimal", "."), ("btn_clear", "C"), ("btn_equals", "=")),
)


class MainActivity(Activity):
    name = ".activities.MainActivity"
    app: CalculatorStore

    def __init__(self, app: App, extras: dict[str, str] | None = None) -> None:
        super().__init__(app, extras)
        self.engine = self.app.engine

    def press(self, key: str) -> None:
        self.engine.press(key)
        if self.engine.error:
            self.toast(self.engine.error)
        self.app.save_engine()

    def content(self) -> View:
        a = self.app
        bar = w.toolbar(
            self,
            "main_toolbar",
            "",
            actions=(
                ("history", "History", "history", self.show_history),
                ("unit_converter", "Unit converter", "ruler", lambda: self.start(UnitConverterPickerActivity)),
                ("settings", "Settings", "settings", lambda: self.start(SettingsActivity)),
                ("about", "About", "info", lambda: self.start(AboutActivity)),
            ),
        )
        formula = w.text(
            a.rid("formula"), self.engine.formula, size=24, gravity="end", long_clickable=True, height=56, padding=8
        )
        result = w.text(
            a.rid("result"),
            self.engine.display,
            size=44,
            gravity="end",
            long_clickable=True,
            height=88,
            padding=8,
            on_long_click=lambda: self.toast("Value copied to clipboard"),
        )
        formula.on_long_click = result.on_long_click
        rows = [w.row([self._key(rid, label) for rid, label in keys], weight=1) for keys in KEYPAD]
        holder = w.column([formula, result, *rows], id=a.rid("calculator_holder"), weight=1)
        body = View(
            "androidx.core.widget.NestedScrollView", id=a.rid("main_nested_scrollview"), children=[holder], weight=1
        )
        return w.screen(bar, [body], id=a.rid("main_coordinator"))

    def _key(self, rid: str, label: str) -> View:
        key = View(
            TEXT,
            id=self.app.rid(rid),
            text=label,
            clickable=True,
            focusable=True,
            weight=1,
            on_click=lambda: self.press(label),
            kind="button",
            text_size=28,
            gravity="center",
        )
        if label == "C":
            key.long_clickable = True
            key.on_long_click = self._reset
        return key

    def _reset(self) -> None:
        self.engine.reset()
        self.app.save_engine()

    def show_history(self) -> None:
        history = self.engine.history
        if not history:
            self.toast("History is empty")
            return

        def clear() -> None:
            history.clear()
            self.app.save_engine()
            self.toast("History has been cleared")

        def load(value: str) -> None:
            self.engine.display = value
            self.dismiss()
            self.app.save_engine()

        def rows() -> list[View]:
            items = [
                View(
                    LINEAR,
                    clickable=True,
                    on_click=partial(load, value),
                    kind="row",
                    padding=8,
                    children=[
                        w.text(self.app.rid("item_formula"), formula, size=14),
                        w.text(self.app.rid("item_result"), value, size=20),
                    ],
                )
                for formula, value in reversed(history)
            ]
            return [w.scroll(self.app.rid("history_list"), items, cls="androidx.recyclerview.widget.RecyclerView")]

        self.show(w.alert(self, "History", rows, positive=("OK", lambda: None), neutral=("Clear", clear)))
