"""Simple Calculator (com.simplemobiletools.calculator) 5.12.0.

Ids, texts and the engine's behaviour follow docs/fidelity/calculator.md, learned from
Simple-Calculator's activity_main.xml, view_calculator.xml, menu.xml, CalculatorImpl.kt,
the unit converter layouts and converters, and Simple-Commons' dialogs.
The engine executes immediately, one pending operator, no precedence and no parentheses.
"""

from __future__ import annotations

import math
from decimal import ROUND_HALF_EVEN, Decimal, InvalidOperation

from pytest_mobile_agent.virtual.apps.commons.about import (
    SHARED_ACTIVITIES,
    AboutActivity,
    compose_row,
    compose_top_bar,
)
from pytest_mobile_agent.virtual.apps.commons.settings import language_name
from pytest_mobile_agent.virtual.ui import widgets as w
from pytest_mobile_agent.virtual.ui.app import Activity, App
from pytest_mobile_agent.virtual.ui.view import CHECKBOX, IMAGE, LINEAR, TEXT, VIEW, View

PKG = "com.simplemobiletools.calculator"
OPERATORS = "+-×÷^%√"
KEYPAD = (
    (("btn_percent", "%"), ("btn_power", "^"), ("btn_root", "√"), ("btn_divide", "÷")),
    (("btn_7", "7"), ("btn_8", "8"), ("btn_9", "9"), ("btn_multiply", "×")),
    (("btn_4", "4"), ("btn_5", "5"), ("btn_6", "6"), ("btn_minus", "-")),
    (("btn_1", "1"), ("btn_2", "2"), ("btn_3", "3"), ("btn_plus", "+")),
    (("btn_0", "0"), ("btn_decimal", "."), ("btn_clear", "C"), ("btn_equals", "=")),
)


def format_number(value: Decimal | float) -> str:
    """DecimalFormat with Locale.US symbols: grouping ",", at most 12 fraction digits."""
    d = Decimal(str(value)) if not isinstance(value, Decimal) else value
    d = d.quantize(Decimal("1e-12"), rounding=ROUND_HALF_EVEN).normalize()
    if d == 0:
        return "0"
    sign = "-" if d < 0 else ""
    whole, _, frac = f"{abs(d):f}".partition(".")
    return f"{sign}{int(whole):,}" + (f".{frac}" if frac else "")


class CalcError(Exception):
    pass


def split_expression(expr: str) -> tuple[str, str, str] | None:
    """'a op b' -> (a, op, b); a leading minus belongs to the first number."""
    for i, ch in enumerate(expr):
        if i > 0 and ch in OPERATORS:
            return expr[:i], ch, expr[i + 1 :]
    return None


def evaluate(a: str, op: str, b: str) -> Decimal:
    try:
        x, y = Decimal(a.replace(",", "")), Decimal(b.replace(",", ""))
    except InvalidOperation as exc:
        raise CalcError("An unknown error occurred") from exc
    if op == "+":
        return x + y
    if op == "-":
        return x - y
    if op == "×":
        return x * y
    if op == "÷":
        if y == 0:
            raise CalcError("Error: division by zero")
        return Decimal(repr(float(x) / float(y)))
    if op == "^":
        return Decimal(repr(math.pow(float(x), float(y))))
    if op == "√":
        return Decimal(repr(float(x) * math.sqrt(float(y))))
    if op == "%":
        return x * y / 100
    raise CalcError("An unknown error occurred")


class Engine:
    """CalculatorImpl: `display` is what the result view shows, `formula` the last evaluation."""

    def __init__(self) -> None:
        self.display = "0"
        self.formula = ""
        self.last_key = ""
        self.last_op: tuple[str, str] | None = None
        self.history: list[tuple[str, str]] = []
        self.error = ""

    def press(self, key: str) -> None:
        self.error = ""
        if key.isdigit():
            self._digit(key)
        elif key == ".":
            self._decimal()
        elif key == "C":
            self.display = self.display[:-1] or "0"
        elif key == "=":
            self._equals()
        elif key == "√" and self.display == "0" and not self.last_key.isdigit():
            self.display = "1√"
        elif key in OPERATORS:
            self._operator(key)
        self.last_key = key

    def reset(self) -> None:
        self.display, self.formula, self.last_key, self.last_op = "0", "", "", None

    def _digit(self, d: str) -> None:
        self.display = d if self.display == "0" else self.display + d

    def _decimal(self) -> None:
        parts = split_expression(self.display)
        current = parts[2] if parts else self.display
        if "." in current:
            return
        self.display += "0." if current == "" else "."

    def _operator(self, op: str) -> None:
        if self.display[-1] in OPERATORS:
            self.display = self.display[:-1] + op
            return
        parts = split_expression(self.display)
        if parts and parts[2] and not self._evaluate(parts):
            return
        self.display += op

    def _equals(self) -> None:
        parts = split_expression(self.display)
        if parts and parts[2] and (self.last_key.isdigit() or self.last_key == "."):
            self._evaluate(parts)
        elif self.last_key == "=" and self.last_op and split_expression(self.display) is None:
            op, b = self.last_op
            self._evaluate((self.display, op, b))

    def _evaluate(self, parts: tuple[str, str, str]) -> bool:
        a, op, b = parts
        try:
            value = format_number(evaluate(a, op, b))
        except CalcError as exc:
            self.error = str(exc)
            return False
        self.formula = f"{a}{op}{b}"
        self.display = value
        self.last_op = (op, b)
        self.history.append((self.formula, value))
        return True


class MainActivity(Activity):
    name = ".activities.MainActivity"

    def __init__(self, app: App, extras: dict[str, str] | None = None) -> None:
        super().__init__(app, extras)
        self.engine: Engine = app.engine  # type: ignore[attr-defined]

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
                    on_click=lambda v=value: load(v),
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


# Unit converter: (name, symbol, factor to the base unit) per type; Temperature is affine.
LENGTH = (
    ("Kilometer", "km", 1000),
    ("Meter", "m", 1),
    ("Centimeter", "cm", 0.01),
    ("Millimeter", "mm", 0.001),
    ("Micrometer", "μm", 1e-6),
    ("Nanometer", "nm", 1e-9),
    ("Angstrom", "Å", 1e-10),
    ("Mile", "mi", 1609.344),
    ("Yard", "yd", 0.9144),
    ("Foot", "ft", 0.3048),
    ("Inch", "in", 0.0254),
    ("Fathom", "fathom", 1.8288),
    ("Nautical Mile", "NM", 1852),
    ("Astronomical Unit", "au", 149597870700),
    ("Parsec", "pc", 3.0856775814913673e16),
    ("Light Year", "ly", 9460730472580800),
)
AREA = (
    ("Square kilometer", "km²", 1e6),
    ("Square meter", "m²", 1),
    ("Square centimeter", "cm²", 1e-4),
    ("Hectare", "ha", 1e4),
    ("Acre", "ac", 4046.8564224),
    ("Square mile", "mi²", 2589988.110336),
    ("Square foot", "ft²", 0.09290304),
    ("Square inch", "in²", 0.00064516),
)
VOLUME = (
    ("Cubic meter", "m³", 1),
    ("Liter", "l", 0.001),
    ("Milliliter", "ml", 1e-6),
    ("US gallon", "gal", 0.003785411784),
    ("US quart", "qt", 0.000946352946),
    ("US cup", "cup", 0.0002365882365),
    ("Cubic foot", "ft³", 0.028316846592),
)
MASS = (
    ("Kilogram", "kg", 1),
    ("Gram", "g", 0.001),
    ("Milligram", "mg", 1e-6),
    ("Tonne", "t", 1000),
    ("Pound", "lb", 0.45359237),
    ("Ounce", "oz", 0.028349523125),
    ("Stone", "st", 6.35029318),
)
TEMPERATURE = (("Celsius", "°C", 1), ("Fahrenheit", "°F", 1), ("Kelvin", "K", 1))
TIME = (
    ("Year", "y", 31557600),
    ("Month", "mo", 2629800),
    ("Week", "wk", 604800),
    ("Day", "d", 86400),
    ("Hour", "h", 3600),
    ("Minute", "min", 60),
    ("Second", "s", 1),
    ("Millisecond", "ms", 0.001),
)
CONVERTERS = (
    ("Length", LENGTH, (0, 1)),
    ("Area", AREA, (0, 1)),
    ("Volume", VOLUME, (0, 1)),
    ("Mass", MASS, (0, 1)),
    ("Temperature", TEMPERATURE, (0, 1)),
    ("Time", TIME, (3, 4)),
)


def convert(value: float, units: tuple, src: int, dst: int, kind: str) -> float:
    if kind == "Temperature":
        celsius = {0: value, 1: (value - 32) * 5 / 9, 2: value - 273.15}[src]
        return {0: celsius, 1: celsius * 9 / 5 + 32, 2: celsius + 273.15}[dst]
    return value * units[src][2] / units[dst][2]


class UnitConverterPickerActivity(Activity):
    name = ".activities.UnitConverterPickerActivity"

    def content(self) -> View:
        a = self.app
        tiles = [
            View(
                LINEAR,
                id=a.rid("unit_background"),
                clickable=True,
                focusable=True,
                kind="row",
                weight=1,
                on_click=lambda i=i: self.start(UnitConverterActivity, converter_id=str(i)),
                padding=8,
                children=[
                    View(IMAGE, id=a.rid("unit_image"), icon="ruler", kind="icon", height=48),
                    w.text(a.rid("unit_label"), label, gravity="center"),
                ],
            )
            for i, (label, _, _) in enumerate(CONVERTERS)
        ]
        grid = [w.row(tiles[i : i + 2], height=120) for i in range(0, len(tiles), 2)]
        bar = w.toolbar(self, "unit_converter_picker_toolbar", "Unit converter", back=True)
        body = w.scroll(a.rid("unit_types_grid"), grid, cls="androidx.recyclerview.widget.RecyclerView")
        return w.screen(bar, [body], id=a.rid("unit_converter_picker_coordinator"))


class UnitConverterActivity(Activity):
    name = ".activities.UnitConverterActivity"

    def __init__(self, app: App, extras: dict[str, str] | None = None) -> None:
        super().__init__(app, extras)
        self.kind_index = int(self.extras.get("converter_id", "0"))
        self.kind, self.units, defaults = CONVERTERS[self.kind_index]
        saved = app.pref(f"converter_{self.kind}", list(defaults))
        self.top, self.bottom = saved
        self.value = "0"

    def _bottom_value(self) -> str:
        try:
            number = float(self.value)
        except ValueError:
            return "0"
        return format_number(convert(number, self.units, self.top, self.bottom, self.kind))

    def _save(self) -> None:
        self.app.set_pref(f"converter_{self.kind}", [self.top, self.bottom])

    def press(self, key: str) -> None:
        if key == "C":
            self.value = self.value[:-1] or "0"
        elif key == ".":
            if "." not in self.value:
                self.value += "."
        else:
            self.value = key if self.value == "0" else self.value + key

    def pick(self, side: str) -> None:
        current = self.top if side == "top" else self.bottom

        def chosen(i: int) -> None:
            other = self.bottom if side == "top" else self.top
            if i == other:  # picking the other side's unit swaps the two sides
                self.top, self.bottom = self.bottom, self.top
            elif side == "top":
                self.top = i
            else:
                self.bottom = i
            self._save()

        labels = [f"{n} ({s})" for n, s, _ in self.units]
        self.show(w.radio_dialog(self, labels, current, chosen))

    def swap(self) -> None:
        self.top, self.bottom = self.bottom, self.top
        self._save()

    def _holder(self, side: str, unit: int, value: str) -> View:
        a = self.app
        name, symbol, _ = self.units[unit]
        return View(
            "androidx.constraintlayout.widget.ConstraintLayout",
            id=a.rid(f"{side}_unit_holder"),
            clickable=True,
            long_clickable=True,
            on_click=lambda: self.pick(side),
            kind="row",
            orientation="h",
            height=88,
            padding=8,
            children=[
                w.text(a.rid(f"{side}_unit_name"), name, weight=1),
                w.text(a.rid(f"{side}_unit_text"), value, size=28, weight=1, gravity="end"),
                w.text(a.rid(f"{side}_unit_symbol"), symbol, width=64),
            ],
        )

    def content(self) -> View:
        a = self.app
        pad = (
            (("btn_7", "7"), ("btn_8", "8"), ("btn_9", "9")),
            (("btn_4", "4"), ("btn_5", "5"), ("btn_6", "6")),
            (("btn_1", "1"), ("btn_2", "2"), ("btn_3", "3")),
            (("btn_0", "0"), ("btn_decimal", "."), ("btn_clear", "C")),
        )
        keys = [
            w.row(
                [
                    View(
                        TEXT,
                        id=a.rid(rid),
                        text=label,
                        clickable=True,
                        weight=1,
                        kind="button",
                        text_size=28,
                        gravity="center",
                        on_click=lambda k=label: self.press(k),
                    )
                    for rid, label in row
                ],
                weight=1,
            )
            for row in pad
        ]
        converter = w.column(
            [
                self._holder("top", self.top, self.value),
                View(
                    IMAGE,
                    id=a.rid("swap_button"),
                    clickable=True,
                    on_click=self.swap,
                    icon="swap",
                    kind="icon",
                    height=48,
                ),
                self._holder("bottom", self.bottom, self._bottom_value()),
            ]
        )
        holder = w.column([converter, *keys], id=a.rid("converter_holder"), weight=1)
        bar = w.toolbar(self, "unit_converter_toolbar", self.kind, back=True)
        body = View("androidx.core.widget.NestedScrollView", id=a.rid("nested_scrollview"), children=[holder], weight=1)
        return w.screen(bar, [body], id=a.rid("unit_converter_coordinator"))


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
                    on_click=lambda p=pref, d=default: a.set_pref(p, not a.pref(p, d)),
                    children=[
                        View(TEXT, text=label, weight=1),
                        View(CHECKBOX, checkable=True, checked=checked, kind="checkbox", width=48, height=48),
                    ],
                )
            )
        return View(VIEW, children=[compose_top_bar(self, "Settings"), w.scroll("", rows, cls=VIEW)])


class Calculator(App):
    package = PKG
    label = "Calculator"
    icon = "calculator"
    icon_color = "#f57c00"
    version_code = 77
    version_name = "5.12.0"
    main_activity = MainActivity
    activities = (UnitConverterPickerActivity, UnitConverterActivity, SettingsActivity, *SHARED_ACTIVITIES)
    faq = (
        (
            "How does the C (Clear) button work?",
            "Tapping on it will remove one character at a time. Long pressing it will reset all fields at once.",
        ),
    )

    def __init__(self, device) -> None:  # noqa: ANN001
        super().__init__(device)
        self.engine = Engine()
        # Only the history is stored (a database in the real app); the display starts at 0.
        self.engine.history = [tuple(h) for h in self.load("history", [])]
        self._saved = len(self.engine.history)

    def save_engine(self) -> None:
        if len(self.engine.history) != self._saved:
            self.save("history", self.engine.history)
            self._saved = len(self.engine.history)


APPS = (Calculator,)
