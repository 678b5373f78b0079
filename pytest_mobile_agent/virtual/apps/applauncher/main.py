"""Simple App Launcher's main screen: a grid of app icons with its dialogs.

Add / remove / rename launchers, sorting, column count and hiding names. Ids, texts and flows
follow docs/fidelity/applauncher.md, learned from Simple-App-Launcher's activity_main.xml,
item_launcher_label.xml, dialog_add_launchers.xml, dialog_edit_launcher.xml,
dialog_change_sorting.xml, menu.xml, cab.xml and its Kotlin sources.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from pytest_mobile_agent.virtual.apps.applauncher.settings import SettingsActivity
from pytest_mobile_agent.virtual.apps.applauncher.store import (
    SORT_BY_CUSTOM,
    SORT_BY_TITLE,
    SORT_DESCENDING,
    AppLauncherStore,
)
from pytest_mobile_agent.virtual.apps.commons.about import AboutActivity
from pytest_mobile_agent.virtual.apps.commons.action_mode import action_mode_bar, drag_select
from pytest_mobile_agent.virtual.apps.commons.menus import SEARCH_KEY, close_search, search_is_open, search_menu
from pytest_mobile_agent.virtual.ui import widgets as w
from pytest_mobile_agent.virtual.ui.app import Activity, App
from pytest_mobile_agent.virtual.ui.view import CHECKBOX, FRAME, IMAGE, LINEAR, RECYCLER, RELATIVE, VIEW_GROUP, View

MAX_COLUMN_COUNT = 15
RENAME_FIELD = "edit_launcher_edittext"


def _column_label(n: int) -> str:
    return f"{n} column" if n == 1 else f"{n} columns"  # commons plurals column_counts


class MainActivity(Activity):
    name = ".activities.MainActivity"
    app: AppLauncherStore

    def __init__(self, app: App, extras: dict[str, str] | None = None) -> None:
        super().__init__(app, extras)
        self.selected: list[str] = []  # packages selected in the action mode
        self.changing_order = False

    def on_back(self) -> bool:
        if self.selected:
            self.end_selection()
            return True
        if search_is_open(self):
            close_search(self)
            return True
        return False

    # -- the grid --------------------------------------------------------------------------
    def shown(self) -> list[dict[str, Any]]:
        query = self.texts.get(SEARCH_KEY, "").lower()
        return [item for item in self.app.sorted_launchers() if query in item["title"].lower()]

    def content(self) -> View:
        a = self.app
        items = self.shown()
        if self.selected:
            rename = (("cab_edit", "Rename", "edit", self.rename),) if len(self.selected) == 1 else ()
            top = action_mode_bar(
                self,
                len(self.selected),
                len(items),
                actions=(
                    ("cab_change_order", "Change order", "sort", self.change_order),
                    *rename,
                    ("cab_remove", "Remove", "delete", self.remove),
                ),
                overflow=(("cab_select_all", "Select all", self.select_all),),
                on_close=self.end_selection,
                on_select_all=self.select_all,
            )
        else:
            top = search_menu(
                self,
                actions=(
                    ("sort", "Sort by", "sort", self.sort),
                    ("toggle_app_name", "Toggle app name visibility", "eye", self.toggle_names),
                ),
                overflow=(
                    ("column_count", "Column count", self.column_count),
                    ("settings", "Settings", lambda: self.start(SettingsActivity)),
                    ("about", "About", lambda: self.start(AboutActivity)),
                ),
            )
        holder_children: list[View] = []
        if not items:
            holder_children.append(w.text(a.rid("no_items_placeholder"), "No items found.", padding=24))
            if not search_is_open(self):
                holder_children.append(
                    w.text(
                        a.rid("no_items_placeholder_2"),
                        "Manage visible app icons",
                        padding=8,
                        clickable=True,
                        on_click=self.add_apps,
                    )
                )
        else:
            holder_children.append(
                View(RELATIVE, id=a.rid("launchers_fastscroller"), weight=1, children=[self.grid(items)])
            )
        holder = View(RELATIVE, id=a.rid("launchers_holder"), children=holder_children, weight=1)
        fab = w.fab(a.rid("fab"), "", "add", self.add_apps)
        coordinator = View(
            VIEW_GROUP,
            id=a.rid("coordinator_layout"),
            orientation="stack",
            weight=1,
            children=[View(LINEAR, children=[holder]), fab],
        )
        body = View(RELATIVE, id=a.rid("main_relative_layout"), weight=1, children=[coordinator])
        return View(VIEW_GROUP, id=a.rid("main_coordinator"), children=[View(LINEAR, children=[top, body])])

    def grid(self, items: list[dict[str, Any]]) -> View:
        columns = int(self.app.pref("column_count", 5))
        cells = [self.cell(item) for item in items]
        drag_select(cells, self.select_range)
        while len(cells) % columns:
            cells.append(View(weight=1, height=96))
        rows = [w.row(cells[i : i + columns], height=96) for i in range(0, len(cells), columns)]
        return w.scroll(self.app.rid("launchers_grid"), rows, cls=RECYCLER)

    def cell(self, item: dict[str, Any]) -> View:
        a = self.app
        pkg = item["package"]
        target = self.app.installed(pkg)
        children = [
            View(
                IMAGE,
                id=a.rid("launcher_icon"),
                kind="appicon",
                icon=target.icon if target else "",
                color=target.icon_color if target else "",
                height=56,
            )
        ]
        if a.pref("show_app_name", True):
            # item_launcher.xml: maxLines="2", ellipsize="end"
            children.append(w.text(a.rid("launcher_label"), item["title"], size=13, gravity="center", max_lines=2))
        if pkg in self.selected:
            children.append(w.image(a.rid("launcher_check"), "", "check", width=24, height=24))
        if self.changing_order:
            handle = w.image(a.rid("launcher_drag_handle"), "", "drag_handle", width=24, height=24)
            handle.drag_handle, handle.on_drag = True, partial(self.move, pkg)
            children.append(handle)
        return View(
            RELATIVE,
            id=a.rid("launcher_holder"),
            clickable=True,
            long_clickable=True,
            focusable=True,
            selected=pkg in self.selected,
            weight=1,
            height=96,
            padding=4,
            kind="row",
            children=children,
            on_click=lambda: self.tap(pkg),
            on_long_click=lambda: self.toggle(pkg),
            key=pkg,
        )

    def tap(self, pkg: str) -> None:
        if self.selected:
            self.toggle(pkg)
            return
        target = self.app.installed(pkg)
        if target is None:
            self.toast("No app found")
            return
        if self.app.pref("close_app", True):
            self.finish()
        self.wm.start_activity(target, target.main_activity, launcher=True)

    # -- action mode -----------------------------------------------------------------------
    def toggle(self, pkg: str) -> None:
        if pkg in self.selected:
            self.selected.remove(pkg)
        else:
            self.selected.append(pkg)
        if not self.selected:
            self.end_selection()

    def select_range(self, packages: list[str]) -> None:
        self.selected += [p for p in packages if p not in self.selected]

    def select_all(self) -> None:
        self.selected = [item["package"] for item in self.shown()]

    def end_selection(self) -> None:
        self.selected = []
        self.changing_order = False

    def change_order(self) -> None:
        self.changing_order = True  # drag handles show

    def move(self, pkg: str, to: str) -> None:
        """LaunchersAdapter.onRowMoved: the dragged launcher takes the place of the one it was
        dragged to, the sorting turns custom, and the grid's order is saved at once (the real
        adapter saves it when the selection ends)."""
        order = [i["package"] for i in self.shown()]
        if pkg not in order or to not in order or pkg == to:
            return
        at = order.index(to)
        order.insert(at, order.pop(order.index(pkg)))
        self.app.reorder(order)
        self.app.set_pref("sorting", SORT_BY_CUSTOM)

    def remove(self) -> None:
        def confirmed() -> None:
            self.app.set_pref("was_remove_info_shown", True)
            self.app.remove(self.selected)
            self.end_selection()

        if self.app.pref("was_remove_info_shown", False):
            confirmed()
            return
        message = "This will just remove the launcher icon from this grid, not uninstall the actual app."
        self.show(w.confirm_dialog(self, message, confirmed, yes="OK", no="Cancel"))

    def rename(self) -> None:
        pkg = self.selected[0]
        item = next(i for i in self.app.launchers if i["package"] == pkg)
        self.texts[RENAME_FIELD] = item["title"]
        a = self.app

        def save() -> None:
            self.focus = None
            title = self.texts.get(RENAME_FIELD, "").strip()
            if not title:
                self.toast("Please enter a launcher name")
                self.show(dialog)
                w.focus(self, RENAME_FIELD)
                return
            self.app.rename(pkg, title)
            self.end_selection()

        def body() -> list[View]:
            # A long press selects the title and typing replaces it (the window system's EditText).
            field = w.edit(self, RENAME_FIELD, hint="Label")
            hint = View(LINEAR, id=a.rid("edit_launcher_hint"), children=[field])
            return [View(FRAME, id=a.rid("edit_launcher_holder"), padding=8, children=[hint])]

        dialog = w.alert(self, "Rename", body, positive=("OK", save), negative=("Cancel", self.unfocus))
        self.show(dialog)
        w.focus(self, RENAME_FIELD)

    def unfocus(self) -> None:
        self.focus = None

    # -- toolbar actions -------------------------------------------------------------------
    def toggle_names(self) -> None:
        self.app.set_pref("show_app_name", not self.app.pref("show_app_name", True))

    def sort(self) -> None:
        sorting = int(self.app.pref("sorting", SORT_BY_TITLE))
        current = "custom" if sorting & SORT_BY_CUSTOM else "title"

        def apply(by: str, descending: bool) -> None:
            value = SORT_BY_CUSTOM if by == "custom" else SORT_BY_TITLE | (SORT_DESCENDING if descending else 0)
            self.app.set_pref("sorting", value)

        options = (("title", "Title"), ("custom", "Custom"))
        self.show(w.sort_dialog(self, options, current, bool(sorting & SORT_DESCENDING), apply, no_order=("custom",)))

    def column_count(self) -> None:
        current = int(self.app.pref("column_count", 5))
        labels = [_column_label(n) for n in range(1, MAX_COLUMN_COUNT + 1)]
        self.show(w.radio_dialog(self, labels, current - 1, lambda i: self.app.set_pref("column_count", i + 1)))

    def add_apps(self) -> None:
        """AddLaunchersDialog: every launchable app but this one, checked when in the grid."""
        a = self.app
        candidates = sorted(
            (p for p in a.device.packages.launchable() if p.package != a.package), key=lambda p: p.shown_label.lower()
        )
        checked = {i["package"] for i in self.app.launchers}

        def flip(pkg: str) -> None:
            checked.symmetric_difference_update({pkg})

        def rows() -> list[View]:
            items = [
                View(
                    RELATIVE,
                    id=a.rid("add_launchers_holder"),
                    clickable=True,
                    focusable=True,
                    orientation="h",
                    height=56,
                    padding=4,
                    kind="row",
                    on_click=partial(flip, p.package),
                    children=[
                        View(
                            IMAGE,
                            id=a.rid("launcher_icon"),
                            kind="appicon",
                            icon=p.icon,
                            color=p.icon_color,
                            width=48,
                            height=48,
                        ),
                        View(
                            CHECKBOX,
                            id=a.rid("launcher_checkbox"),
                            text=p.shown_label,
                            checkable=True,
                            checked=p.package in checked,
                            focusable=True,
                            kind="checkbox",
                            weight=1,
                            padding=8,
                        ),
                    ],
                )
                for p in candidates
            ]
            # The list scrolls inside the dialog: on a short screen OK and Cancel stay below it.
            return [w.scroll(a.rid("add_launchers_holder"), items, cls=RECYCLER)]

        def ok() -> None:
            self.app.set_apps([p for p in candidates if p.package in checked])

        self.show(w.alert(self, "", rows, positive=("OK", ok), negative=("Cancel", lambda: None)))
