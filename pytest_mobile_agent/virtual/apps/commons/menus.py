"""Screens every Simple Mobile Tools app shares through Simple-Commons: About and FAQ.

Both are Jetpack Compose screens in the real apps, so a dump shows texts and no resource ids.
Learned from Simple-Commons compose/screens/AboutScreen.kt and activities/AboutActivity.kt.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import ClassVar

from pytest_mobile_agent.virtual.resources import dates as locale_dates
from pytest_mobile_agent.virtual.resources.strings import LANGUAGE_NAMES
from pytest_mobile_agent.virtual.ui import widgets as w
from pytest_mobile_agent.virtual.ui.app import Activity
from pytest_mobile_agent.virtual.ui.localize import drawing_locale
from pytest_mobile_agent.virtual.ui.view import IMAGE, LINEAR, RELATIVE, TEXT, VIEW, VIEW_GROUP, View

COMMONS = "com.simplemobiletools.commons.activities"


def compose_row(label: str, action=None, value: str = "") -> View:
    """A clickable Compose list item: an android.view.View holding its texts."""
    children = [View(TEXT, text=label, text_size=16)]
    if value:
        children.append(View(TEXT, text=value, text_size=14))
    return View(VIEW, clickable=action is not None, on_click=action, children=children, padding=12, kind="row")


def compose_top_bar(activity: Activity, title: str) -> View:
    back = View(
        VIEW, desc="Back", clickable=True, on_click=activity.finish, icon="back", kind="icon", width=48, height=48
    )
    return View(
        VIEW,
        orientation="h",
        height=56,
        kind="toolbar",
        color=w.PRIMARY,
        children=[back, View(TEXT, text=title, text_size=20, bold=True, weight=1, padding=12)],
    )


class AboutActivity(Activity):
    name = f"{COMMONS}.AboutActivity"
    label = "About"  # the manifest label: the window title Android reports
    # Per app: FAQ entries (title, text), whether Google relations show (core flavour).
    contributors: ClassVar[tuple[str, ...]] = ("Tibor Kaputa", "Ensar Sarajčić", "Naveen Singh", "Agnieszka C")

    def content(self) -> View:
        app = self.app
        rows: list[View] = [w.section(self, "", "Support")]
        if getattr(app, "faq", ()):
            rows.append(compose_row("Frequently asked questions", lambda: self.start(FAQActivity)))
        rows.append(compose_row("E-mail", lambda: self.toast("No email client found")))
        rows.append(w.section(self, "", "Help us"))
        rows.append(compose_row("Contributors", lambda: self.start(ContributorsActivity)))
        rows.append(compose_row("Donate", lambda: self.toast("No browser found")))
        rows.append(w.section(self, "", "Social"))
        for site in ("Facebook", "GitHub", "Reddit", "Telegram"):
            rows.append(compose_row(site, lambda: self.toast("No browser found")))
        rows.append(w.section(self, "", "Other"))
        for item in ("Website", "Privacy policy", "Third party licences"):
            rows.append(compose_row(item, lambda: self.toast("No browser found")))
        rows.append(compose_row(f"Version {app.version_name}", lambda: None))
        rows.append(View(TEXT, text="Made with ❤️ in Slovakia", text_size=14, padding=12))
        return View(VIEW, children=[compose_top_bar(self, "About"), w.scroll("", rows, cls=VIEW)])


class FAQActivity(Activity):
    name = f"{COMMONS}.FAQActivity"
    label = "Frequently asked questions"  # the manifest label: the window title Android reports

    def content(self) -> View:
        rows = []
        for title, body in getattr(self.app, "faq", ()):
            rows.append(View(TEXT, text=title, text_size=18, bold=True, padding=8))
            rows.append(View(TEXT, text=body, text_size=14, padding=8))
        return View(VIEW, children=[compose_top_bar(self, "Frequently asked questions"), w.scroll("", rows, cls=VIEW)])


class ContributorsActivity(Activity):
    name = f"{COMMONS}.ContributorsActivity"
    label = "Contributors"  # the manifest label: the window title Android reports

    def content(self) -> View:
        rows = [w.section(self, "", "Development")]
        rows += [compose_row(name) for name in AboutActivity.contributors[:2]]
        rows.append(w.section(self, "", "Translation"))
        rows += [compose_row(name) for name in AboutActivity.contributors[2:]]
        return View(VIEW, children=[compose_top_bar(self, "Contributors"), w.scroll("", rows, cls=VIEW)])


SHARED_ACTIVITIES = (AboutActivity, FAQActivity, ContributorsActivity)


# -- Simple-Commons views of the list apps: the search menu, action mode and bottom tabs -----
# Learned from commons views/MySearchMenu.kt + res/layout/menu_search.xml,
# adapters/MyRecyclerViewAdapter.kt + res/layout/actionbar_title.xml (appcompat's action mode
# bar with its "Done" close button) and res/layout/bottom_tablayout_item.xml.
SEARCH_KEY = "top_toolbar_search"
APPBAR = "android.widget.LinearLayout"  # AppBarLayout reports its LinearLayout base class
MenuAction = tuple[str, str, str, Callable[[], None]]  # (id name, title, icon, action)


def menu_views(activity: Activity, actions: Sequence[MenuAction], overflow: Sequence[w.MenuItem]) -> list[View]:
    """A toolbar's action icons (Buttons whose content-desc is the title) and its overflow."""
    app = activity.app
    views = [w.icon_button(app.rid(rid), title, icon, action, cls=w.BUTTON) for rid, title, icon, action in actions]
    if overflow:
        views.append(
            w.icon_button(
                "", "More options", "more", lambda: activity.show(w.popup_menu(activity, overflow)), cls=IMAGE
            )
        )
    return views


def search_is_open(activity: Activity) -> bool:
    """MySearchMenu opens when its field takes the focus and stays open until closed."""
    return activity.focus == SEARCH_KEY or bool(activity.texts.get(SEARCH_KEY))


def close_search(activity: Activity) -> None:
    activity.texts[SEARCH_KEY] = ""
    if activity.focus == SEARCH_KEY:
        activity.focus = None
    activity.wm.ime_shown = False


def end_selection_or_search(activity: Activity) -> bool:
    """BACK on a list screen with an action mode over `activity.selected` (a list) and a search:
    it ends the selection first, else closes the search; False when neither was open."""
    if activity.selected:  # type: ignore[attr-defined]
        activity.selected = []  # type: ignore[attr-defined]
        return True
    if search_is_open(activity):
        close_search(activity)
        return True
    return False


def search_menu(
    activity: Activity,
    *,
    actions: Sequence[MenuAction] = (),
    overflow: Sequence[w.MenuItem] = (),
    hint: str = "Search",
    id: str = "main_menu",
) -> View:
    """MySearchMenu: search icon ("Search", "Back" while open), the query field, the toolbar."""
    app = activity.app
    opened = search_is_open(activity)

    def icon_tap() -> None:
        if search_is_open(activity):
            close_search(activity)
        else:
            w.focus(activity, SEARCH_KEY)

    icon = w.icon_button(
        app.rid("top_toolbar_search_icon"),
        "Back" if opened else "Search",
        "back" if opened else "search",
        icon_tap,
        cls=IMAGE,
    )
    field = w.edit(activity, SEARCH_KEY, hint=hint, weight=1, height=48)
    bar = View(VIEW_GROUP, id=app.rid("top_toolbar"), orientation="h", children=menu_views(activity, actions, overflow))
    bar.width = 48.0 * len(bar.children)
    holder = View(
        RELATIVE,
        id=app.rid("top_toolbar_holder"),
        orientation="h",
        height=48,
        children=[icon, field, bar],
        kind="search",
        padding=0,
    )
    layout = View(APPBAR, id=app.rid("top_app_bar_layout"), children=[holder], height=64, padding=8)
    return View(APPBAR, id=app.rid(id), children=[layout])


def action_mode_bar(
    activity: Activity,
    selected: int,
    total: int,
    *,
    actions: Sequence[MenuAction],
    overflow: Sequence[w.MenuItem] = (),
    on_close: Callable[[], None],
    on_select_all: Callable[[], None],
) -> View:
    """appcompat's action mode bar as commons' adapters set it up: "Done", "N / M", the cab menu.
    Tapping the title selects all, or ends the mode when all are selected already."""
    app = activity.app
    close = w.icon_button(app.rid("action_mode_close_button"), "Done", "back", on_close, cls=IMAGE)
    title = w.text(
        app.rid("actionbar_title"),
        f"{selected} / {total}",
        size=20,
        clickable=True,
        weight=1,
        padding=12,
        on_click=on_close if selected >= total else on_select_all,
    )
    return View(
        VIEW_GROUP,
        id=app.rid("action_mode_bar"),
        orientation="h",
        height=64,
        kind="toolbar",
        color="dark",
        children=[close, title, *menu_views(activity, actions, overflow)],
    )


def bottom_tabs(
    activity: Activity, tabs: Sequence[tuple[str, str]], current: int, on_pick: Callable[[int], None]
) -> View:
    """The bottom TabLayout `main_tabs_holder`; each tab's custom view is bottom_tablayout_item."""
    app = activity.app
    views = [
        View(
            "androidx.appcompat.app.ActionBar$Tab",
            clickable=True,
            focusable=True,
            selected=i == current,
            weight=1,
            on_click=lambda i=i: on_pick(i),
            kind="tab",
            children=[
                View(
                    LINEAR,
                    id=app.rid("tab_item_holder"),
                    gravity="center",
                    children=[
                        w.image(app.rid("tab_item_icon"), "", icon, height=24),
                        w.text(app.rid("tab_item_label"), label, size=14, gravity="center", bold=i == current),
                    ],
                ),
            ],
        )
        for i, (label, icon) in enumerate(tabs)
    ]
    return View(
        "android.widget.HorizontalScrollView",
        id=app.rid("main_tabs_holder"),
        height=64,
        children=[View(LINEAR, orientation="h", children=views)],
    )


class ProAboutActivity(AboutActivity):
    """The About screen of a `.pro` app: commons appends " Pro" to the version line."""

    def content(self) -> View:
        root = super().content()
        for v in root.walk():
            if v.text == f"Version {self.app.version_name}":
                v.text += " Pro"
        return root


PRO_SHARED_ACTIVITIES = (ProAboutActivity, FAQActivity, ContributorsActivity)


# -- Settings rows and the date/time format dialog (Gallery, App Launcher, SMS Messenger) ----
# Learned from the apps' res/layout/activity_settings.xml (holder/checkbox/label/value id
# pattern) and commons dialogs/ChangeDateTimeFormatDialog.kt, dialog_change_date_time_format.xml,
# helpers/BaseConfig.kt (dateFormat, use24HourFormat).


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


def language_name() -> str:
    """The Language setting's value: the device language's own name."""
    return LANGUAGE_NAMES[drawing_locale()]


def java_date(pattern: str, when) -> str:
    """Format with a java.text / android DateFormat pattern ("dd.MM.yyyy", "hh:mm a"), in the
    locale the screen is being drawn in."""
    return locale_dates.java_date(pattern, when, drawing_locale())


DATE_FORMATS = (  # dialog order: (radio id suffix, pattern)
    ("one", "dd.MM.yyyy"),
    ("two", "dd/MM/yyyy"),
    ("three", "MM/dd/yyyy"),
    ("eight", "dd-MM-yyyy"),
    ("seven", "MM-dd-yyyy"),
    ("four", "yyyy-MM-dd"),
    ("five", "d MMMM yyyy"),
    ("six", "MMMM d yyyy"),
)


def date_format(app) -> str:
    """baseConfig.dateFormat: "dd.MM.yyyy" unless changed (en-US matches no other radio)."""
    return app.pref("date_format", DATE_FORMATS[0][1])


def use_24_hour(app) -> bool:
    """baseConfig.use24HourFormat: the system 12/24 setting until changed in the app."""
    return bool(app.pref("use_24_hour_format", app.device.settings.get("system", "time_12_24") == "24"))


def time_format(app) -> str:
    return "HH:mm" if use_24_hour(app) else "hh:mm a"


def date_time_format_dialog(activity: Activity, on_done: Callable[[], None] | None = None):
    """ChangeDateTimeFormatDialog: no title, date radios with a sample date, the 24-hour checkbox;
    applies on OK."""
    from datetime import datetime

    app = activity.app
    sample = datetime(2023, 2, 15, 15, 4)
    state = {"format": date_format(app), "h24": use_24_hour(app)}

    def pick(key: str, value: object) -> Callable[[], None]:
        return lambda: state.__setitem__(key, value)

    def body() -> list[View]:
        radios = [
            w.radio(
                app.rid(f"change_date_time_dialog_radio_{suffix}"),
                java_date(pattern, sample),
                state["format"] == pattern,
                pick("format", pattern),
            )
            for suffix, pattern in DATE_FORMATS
        ]
        group = View(w.RADIO_GROUP, id=app.rid("change_date_time_dialog_radio_group"), children=radios)
        box = w.checkbox(
            app.rid("change_date_time_dialog_24_hour"),
            "Use 24-hour time format",
            bool(state["h24"]),
            pick("h24", not state["h24"]),
        )
        holder = View(LINEAR, id=app.rid("change_date_time_dialog_holder"), children=[group, box])
        return [View(w.SCROLL, id=app.rid("change_date_time_dialog_scrollview"), children=[holder])]

    def ok() -> None:
        app.set_pref("date_format", state["format"])
        app.set_pref("use_24_hour_format", bool(state["h24"]))
        if on_done:
            on_done()

    return w.alert(activity, "", body, positive=("OK", ok), negative=("Cancel", lambda: None))


# -- Customize colors (commons CustomizationActivity) and the settings rows that open it -------
# Learned from Simple-Commons activities/CustomizationActivity.kt, res/layout/activity_customization.xml,
# res/menu/menu_customization.xml, values/strings.xml and colors.xml (commit 8e7dd4508e).
NO_WIDGETS = "No widgets found"


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

    def _colors(self) -> tuple[str, str, str, str]:
        colors = THEMES.get(self.theme) or THEMES[MATERIAL_YOU]
        if self.theme == "Custom":
            a = self.app
            colors = tuple(
                a.pref(k, d)
                for k, d in zip(
                    ("text_color", "background_color", "primary_color", "app_icon_color"), THEMES[MATERIAL_YOU]
                )
            )
        return colors  # type: ignore[return-value]

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
        row = self._row(name, label, "", lambda: self.toast("Changing a color will make it switch to Custom theme"))
        row.children[1] = w.image(self.app.rid(f"customization_{name}"), "", "", width=40, height=40, color=color)
        return row

    def pick_theme(self) -> None:
        a = self.app
        if not a.pref("was_app_icon_customization_warning_shown", False):
            warning = (
                "WARNING: Some launchers do not handle app icon customization properly. In case the icon will "
                "disappear, try launching the app via Google Play or some widget, if available.\n        Once "
                "launched, just set back the default orange icon #F57C00. You might have to reinstall the app in "
                "the worst case."
            )

            def accepted() -> None:
                a.set_pref("was_app_icon_customization_warning_shown", True)
                self.pick_theme()

            body = [w.text(a.rid("message"), warning, padding=12)]
            self.show(w.alert(self, "", body, positive=("OK", accepted)))
            return
        labels = list(THEMES)
        self.show(w.radio_dialog(self, labels, labels.index(self.theme), lambda i: self._chose(labels[i])))

    def _chose(self, theme: str) -> None:
        self.theme = theme
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


# -- Password protection (commons SecurityDialog, dialog_security.xml, tab_pattern/tab_pin) ----
PROTECTION_PATTERN, PROTECTION_PIN = 0, 1
SHOW_ALL_TABS = -1


def hash_pin(pin: str) -> str:
    """PinTab's hash: SHA-1 of the digits, lower-case hex."""
    import hashlib

    return hashlib.sha1(pin.encode()).hexdigest()


def security_dialog(
    activity: Activity, on_success, *, required_hash: str = "", protection: int = SHOW_ALL_TABS, on_fail=None
):
    """Set up (all tabs, PIN asked twice) or check (one fixed tab) a pattern or PIN.

    `on_success(hash, protection_type)` runs after the dialog closed; Cancel or outside runs `on_fail`.
    """
    app = activity.app
    state = {
        "tab": PROTECTION_PATTERN if protection == SHOW_ALL_TABS else protection,
        "pin": "",
        "hash": required_hash,
        "title": "",
    }
    holder: list = []

    def press(key: str) -> None:
        if key == "ok":
            confirm()
        elif key == "C":
            state["pin"] = state["pin"][:-1]
        elif len(state["pin"]) < 10:
            state["pin"] += key
            if state["title"] == "Wrong PIN":  # the real tab restores its title after a second
                state["title"] = ""

    def confirm() -> None:
        pin = state["pin"]
        if not pin:
            activity.toast("Please enter a PIN")
        elif not state["hash"] and len(pin) < 4:
            state["pin"] = ""
            activity.toast("PIN must be at least 4 digits long")
        elif not state["hash"]:
            state["hash"], state["pin"], state["title"] = hash_pin(pin), "", "Repeat PIN"
        elif state["hash"] == hash_pin(pin):
            activity.dismiss(holder[0])
            on_success(state["hash"], PROTECTION_PIN)
        else:
            state["pin"], state["title"] = "", "Wrong PIN"
            if not required_hash:
                state["hash"] = ""

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
                w.text(app.rid("pin_lock_title"), state["title"] or "Enter PIN", gravity="center"),
                w.text(app.rid("pin_lock_current_pin"), "*" * len(state["pin"]), size=24, gravity="center", height=40),
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
                View(VIEW, id=app.rid("pattern_lock_view"), height=240),
            ],
        )

    def select(tab: int) -> None:
        state["tab"], state["pin"], state["title"] = tab, "", ""
        if not required_hash:
            state["hash"] = ""

    def body() -> list[View]:
        kids: list[View] = []
        if protection == SHOW_ALL_TABS:
            tabs = []
            for i, label in enumerate(("Pattern", "PIN")):
                sel = state["tab"] == i
                tabs.append(
                    View(
                        LINEAR,
                        clickable=not sel,
                        focusable=True,
                        selected=sel,
                        weight=1,
                        kind="tab",
                        on_click=None if sel else (lambda i=i: select(i)),
                        children=[w.text("", label, gravity="center", selected=sel)],
                    )
                )
            strip = View(LINEAR, orientation="h", children=tabs, height=48)
            kids.append(View("android.widget.HorizontalScrollView", id=app.rid("dialog_tab_layout"), children=[strip]))
        page = pin_page() if state["tab"] == PROTECTION_PIN else pattern_page()
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


def split_menu(
    items: Sequence[tuple[str, str, str, Callable[[], None], str]], max_icons: int = 3
) -> tuple[list[MenuAction], list[w.MenuItem]]:
    """appcompat's ActionMenuPresenter on a phone: (id, title, icon, action, showAsAction) items,
    visible ones only, become toolbar icons or overflow rows. Up to `max_icons` slots; when some
    item overflows, one slot goes to "More options"; "always" items are icons regardless."""
    if len(items) <= max_icons and all(show != "never" for *_, show in items):
        return [i[:4] for i in items], []
    room = max_icons - 1 - sum(show == "always" for *_, show in items)
    icons, overflow = [], []
    for rid, title, icon, action, show in items:
        if show == "always" or (show == "ifRoom" and room > 0):
            room -= show == "ifRoom"
            icons.append((rid, title, icon, action))
        else:
            overflow.append((rid, title, action))
    return icons, overflow


def selection_mode_bar(
    activity: Activity,
    selected: set,
    total: int,
    items: Sequence[tuple[str, str, str, Callable[[], None], str, bool]],
    on_select_all: Callable[[], None],
) -> View:
    """The action mode bar over a set of selected items: `items` are the cab menu's (id, title,
    icon, action, showAsAction, shown) entries, the shown ones split by split_menu; "Done"
    clears the selection."""
    actions, overflow = split_menu([i[:5] for i in items if i[5]])
    return action_mode_bar(
        activity,
        len(selected),
        total,
        actions=actions,
        overflow=overflow,
        on_close=selected.clear,
        on_select_all=on_select_all,
    )


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


def keyboard_dialog(activity: Activity, dialog):  # noqa: ANN001, ANN201 - an Overlay in, the same out
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


# -- Commons FAQ entries the apps list in their About (strings faq_N_title/text_commons) -------
COMMONS_FAQ = {
    1: (
        "How come I don't see this apps widget on the list of widgets?",
        "It is most likely because you moved the app on an SD card. There is an Android system limitation which "
        "hides the given app widgets in that case. The only solution is to move the app back onto the Internal "
        "Storage via your device settings.",
    ),
    4: (
        "I don't like the widget colors, can I change them?",
        "Yep, as you drag a widget on your home screen a widget config screen appears. You will see colored squares "
        "at the bottom left corner, just press them to pick a new color. You can use the slider for adjusting the "
        "alpha too.",
    ),
    9: (
        "How can I select multiple items at once?",
        "There are multiple ways of doing that. The first one is starting the selection mode by long pressing one "
        "item, then short clicking on others to select them. The second way is similar to selecting items on PCs "
        "with a mouse, just start the selection mode by long pressing one item, then with your finger still down "
        "drag it across other items for selecting. The third way of selecting multiple items is long pressing one "
        "item, then long pressing another one and everything in between gets selected. If you want to select all "
        "items, just long press one item, then click at the selected item counter at the top left corner. That "
        "will select or unselect all everything.",
    ),
}
