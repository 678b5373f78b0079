"""Customize colors (commons CustomizationActivity), its themes, and the settings rows that open it.

Learned from Simple-Commons activities/CustomizationActivity.kt, res/layout/activity_customization.xml,
res/menu/menu_customization.xml, values/strings.xml and colors.xml (commit 8e7dd4508e).
"""

from __future__ import annotations

from collections.abc import Callable

from pytest_mobile_agent.virtual.apps.commons.about import COMMONS
from pytest_mobile_agent.virtual.apps.commons.color_picker import color_picker_dialog, line_color_picker_dialog
from pytest_mobile_agent.virtual.apps.commons.palette import APP_ICON_COLORS
from pytest_mobile_agent.virtual.ui import widgets as w
from pytest_mobile_agent.virtual.ui.app import Activity
from pytest_mobile_agent.virtual.ui.view import RELATIVE, View

MATERIAL_YOU = "System default (Material You)"
# Theme label -> (text, background, primary, app icon colour), from commons' colors.xml.
THEMES: dict[str, tuple[str, str, str, str]] = {
    MATERIAL_YOU: ("#EEEEEE", "#2D2D2D", "#F57C00", "#F57C00"),
    "Auto light / dark": ("#2D2D2D", "#FFFFFF", "#F57C00", "#F57C00"),
    "Light": ("#2D2D2D", "#FFFFFF", "#F57C00", "#F57C00"),
    "Dark": ("#EEEEEE", "#2D2D2D", "#F57C00", "#F57C00"),
    "Dark red": ("#EEEEEE", "#2D2D2D", "#D32F2F", "#D32F2F"),
    "White": ("#333333", "#FFFFFF", "#FFFFFF", "#F57C00"),
    "Black & White": ("#FFFFFF", "#000000", "#000000", "#000000"),
    "Custom": ("", "", "", ""),
}
THEME_PREF = "theme"
NO_WIDGETS = "No widgets found"
COLOR_KEYS = ("text_color", "background_color", "primary_color", "app_icon_color")


def color_customization_rows(activity: Activity) -> list[View]:
    """The "Color customization" section every Simple app's settings start with."""
    app = activity.app

    def link(name: str, label: str, action) -> View:
        label_view = w.text(app.rid(f"settings_{name}_label"), label)
        return View(RELATIVE, id=app.rid(f"settings_{name}_holder"), clickable=True, focusable=True,
                    on_click=action, kind="row", padding=8, children=[label_view])  # fmt: skip

    return [
        w.section(activity, "settings_color_customization_section_label", "Color customization"),
        link("color_customization", "Customize colors", lambda: activity.start(CustomizationActivity)),
        link("widget_color_customization", "Customize widget colors", lambda: activity.toast(NO_WIDGETS)),
    ]


def current_theme(app) -> str:
    return app.pref(THEME_PREF, MATERIAL_YOU)


def theme_primary(app) -> str:
    """The saved primary colour, for an app's toolbars."""
    return app.pref("primary_color", THEMES[MATERIAL_YOU][2])


class CustomizationActivity(Activity):
    name = f"{COMMONS}.CustomizationActivity"

    def __init__(self, app, extras=None) -> None:
        super().__init__(app, extras)
        self.theme = current_theme(app)
        self.unsaved = False
        self.picked: tuple[str, str, str, str] | None = None  # colours picked, not saved yet

    def _colors(self) -> tuple[str, str, str, str]:
        if self.picked is not None:
            return self.picked
        colors = THEMES.get(self.theme) or THEMES[MATERIAL_YOU]
        if self.theme == "Custom":
            a = self.app
            colors = tuple(
                a.pref(k, d)
                for k, d in zip(
                    ("text_color", "background_color", "primary_color", "app_icon_color"), THEMES[MATERIAL_YOU]
                )
            )
        return colors

    def content(self) -> View:
        a = self.app
        text, background, primary, icon = self._colors()
        actions = [w.icon_button(a.rid("save"), "Save", "check", self.save, cls=w.BUTTON)] if self.unsaved else []
        bar = w.toolbar(self, "customization_toolbar", "Customize colors")
        bar.children = [w.icon_button("", "Close", "close", self.finish), *bar.children, *actions]
        bar.color = primary
        auto = self.theme in (MATERIAL_YOU, "Auto light / dark")
        rows = [self._row("theme", "Theme", self.theme, self.pick_theme)]
        if not auto:
            rows.append(self._color_row("text_color", "Text color", text))
            rows.append(self._color_row("background_color", "Background color", background))
        if self.theme != MATERIAL_YOU:
            rows.append(self._color_row("primary_color", "Primary color", primary))
        rows.append(self._color_row("app_icon_color", "App icon color", icon))
        holder = View(RELATIVE, id=a.rid("customization_holder"), children=rows)
        body = w.scroll(a.rid("customization_nested_scrollview"), [holder])
        return w.screen(bar, [body], id=a.rid("customization_coordinator"))

    def _row(self, name: str, label: str, value: str, action) -> View:
        a = self.app
        return View(
            RELATIVE,
            id=a.rid(f"customization_{name}_holder"),
            clickable=True,
            focusable=True,
            on_click=action,
            kind="row",
            padding=12,
            orientation="h",
            children=[
                w.text(a.rid(f"customization_{name}_label"), label, weight=1),
                w.text(a.rid(f"customization_{name}"), value),
            ],
        )

    def _color_row(self, name: str, label: str, color: str) -> View:
        row = self._row(name, label, "", lambda: self.pick_color(name))
        row.children[1] = w.image(self.app.rid(f"customization_{name}"), "", "", width=40, height=40, color=color)
        return row

    def pick_color(self, name: str) -> None:
        """pickTextColor / pickBackgroundColor (ColorPickerDialog), pickPrimaryColor and
        pickAppIconColor (LineColorPickerDialog; the app icon's after its warning)."""
        index = COLOR_KEYS.index(name)
        current = self._colors()[index]

        def done(ok: bool, color: str) -> None:
            if ok and color and color.upper() != current.upper():
                self._color_changed(index, color)

        if name in ("text_color", "background_color"):
            self.show(color_picker_dialog(self, current, done))
        elif name == "primary_color":
            self.show(line_color_picker_dialog(self, current, done, primary=True))
        elif self.app.pref("was_app_icon_customization_warning_shown", False):
            self.show(line_color_picker_dialog(self, current, done, primary=False, colors=APP_ICON_COLORS))
        else:
            self._icon_warning(lambda: self.pick_color(name))

    def _color_changed(self, index: int, color: str) -> None:
        """colorChanged, then updateColorTheme(getCurrentThemeId()): the predefined theme with
        these colours, else Custom."""
        colors = list(self._colors())
        colors[index] = color.upper()
        self.picked = (colors[0], colors[1], colors[2], colors[3])
        self.unsaved = True
        same = [
            name
            for name, values in THEMES.items()
            if name not in (MATERIAL_YOU, "Auto light / dark", "Custom")
            and tuple(v.upper() for v in values) == self.picked
        ]
        self.theme = same[0] if same else "Custom"

    def pick_theme(self) -> None:
        a = self.app
        if not a.pref("was_app_icon_customization_warning_shown", False):
            self._icon_warning(self.pick_theme)
            return
        labels = list(THEMES)
        self.show(w.radio_dialog(self, labels, labels.index(self.theme), lambda i: self._chose(labels[i])))

    def _icon_warning(self, then: Callable[[], None]) -> None:
        """The app icon customization warning, once (wasAppIconCustomizationWarningShown)."""
        a = self.app
        warning = (
            "WARNING: Some launchers do not handle app icon customization properly. In case the icon will "
            "disappear, try launching the app via Google Play or some widget, if available.\n        Once "
            "launched, just set back the default orange icon #F57C00. You might have to reinstall the app in "
            "the worst case."
        )

        def accepted() -> None:
            a.set_pref("was_app_icon_customization_warning_shown", True)
            then()

        body = [w.text(a.rid("message"), warning, padding=12)]
        self.show(w.alert(self, "", body, positive=("OK", accepted)))

    def _chose(self, theme: str) -> None:
        self.theme = theme
        self.picked = None
        self.unsaved = True
        if theme not in ("Custom", MATERIAL_YOU, "Auto light / dark") and not self.app.pref("custom_theme_hint", False):
            self.app.set_pref("custom_theme_hint", True)
            self.toast("Changing a color will make it switch to Custom theme")

    def save(self) -> None:
        a = self.app
        for key, value in zip(("text_color", "background_color", "primary_color", "app_icon_color"), self._colors()):
            a.set_pref(key, value)
        a.set_pref(THEME_PREF, self.theme)
        a.set_pref("is_using_system_theme", self.theme == MATERIAL_YOU)
        self.unsaved = False
        self.finish()

    def on_back(self) -> bool:
        if not self.unsaved:
            return False

        def discard() -> None:
            self.unsaved = False
            self.finish()

        message = [w.text(self.app.rid("message"), "You have unsaved changes. Save before exit?", padding=12)]
        self.show(w.alert(self, "", message, positive=("Save", self.save), negative=("Discard", discard)))
        return True
