"""Simple Calculator's unit converter: the unit tables, the type picker and the converter screen
(learned from the unit converter layouts and converters of Simple-Calculator)."""

from __future__ import annotations

from functools import partial

from pytest_mobile_agent.virtual.apps.calculator.engine import format_number
from pytest_mobile_agent.virtual.ui import widgets as w
from pytest_mobile_agent.virtual.ui.app import Activity, App
from pytest_mobile_agent.virtual.ui.view import IMAGE, LINEAR, TEXT, View

# (name, symbol, factor to the base unit) per type; Temperature is affine.
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
Unit = tuple[str, str, float]  # name, symbol, factor to the base unit
CONVERTERS: tuple[tuple[str, tuple[Unit, ...], tuple[int, int]], ...] = (
    ("Length", LENGTH, (0, 1)),
    ("Area", AREA, (0, 1)),
    ("Volume", VOLUME, (0, 1)),
    ("Mass", MASS, (0, 1)),
    ("Temperature", TEMPERATURE, (0, 1)),
    ("Time", TIME, (3, 4)),
)


def convert(value: float, units: tuple[Unit, ...], src: int, dst: int, kind: str) -> float:
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
                on_click=partial(self.start, UnitConverterActivity, converter_id=str(i)),
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
                        on_click=partial(self.press, label),
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
