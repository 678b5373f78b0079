"""Simple File Manager Pro (com.simplemobiletools.filemanager.pro) 6.16.1: the main screen.

Ids, texts and flows follow docs/fidelity/filemanager.md, learned from Simple-File-Manager's
activity_main.xml, items_fragment.xml, item_file_dir_list.xml, item_section.xml,
recents_fragment.xml, storage_fragment.xml, item_storage_volume.xml, menu.xml, cab.xml,
MainActivity.kt (menu visibility, BACK, the all-files-access prompt), ItemsFragment.kt,
ItemsAdapter.kt and StorageFragment.kt, and Simple-Commons' Breadcrumbs and MySearchMenu.
It reads and writes the real files under the device's shared storage (/sdcard).
"""

from __future__ import annotations

from functools import partial

from pytest_mobile_agent.virtual.apps.commons.about import ProAboutActivity
from pytest_mobile_agent.virtual.apps.commons.formats import format_size
from pytest_mobile_agent.virtual.apps.commons.menus import close_search, search_is_open, search_menu, split_menu
from pytest_mobile_agent.virtual.apps.commons.tabs import bottom_tabs
from pytest_mobile_agent.virtual.apps.filemanager.dialogs import (
    column_count_dialog,
    create_dialog,
    humanize,
    sort_dialog,
    toggle_filenames,
    view_type_dialog,
)
from pytest_mobile_agent.virtual.apps.filemanager.editor import open_file
from pytest_mobile_agent.virtual.apps.filemanager.items import ItemViews, SelectsItems
from pytest_mobile_agent.virtual.apps.filemanager.mimetypes import TITLES, MimeTypesActivity
from pytest_mobile_agent.virtual.apps.filemanager.settings import SettingsActivity
from pytest_mobile_agent.virtual.apps.filemanager.store import (
    CATEGORIES,
    PKG,
    ROOT,
    Item,
    category,
    item,
    list_dir,
    view_type,
)
from pytest_mobile_agent.virtual.system.packages import ALL_FILES_ACCESS, MANAGE_EXTERNAL_STORAGE, SETTINGS_PACKAGE
from pytest_mobile_agent.virtual.ui import widgets as w
from pytest_mobile_agent.virtual.ui.app import App, Overlay
from pytest_mobile_agent.virtual.ui.view import FRAME, LINEAR, RELATIVE, VIEW_GROUP, View

TABS = (("Files", "folder"), ("Recents", "clock"), ("Storage", "file"))
RECYCLER = "androidx.recyclerview.widget.RecyclerView"
MY_VIEW_PAGER = "com.simplemobiletools.commons.views.MyViewPager"
TOTAL_BYTES = 32 * 1024**3  # a fixed 32 GB volume with 8 GB of system files keeps the page stable
SYSTEM_BYTES = 8 * 1024**3
PROGRESS = "android.widget.ProgressBar"  # LinearProgressIndicator reports its ProgressBar base class
# StorageFragment.onResume: md_red_700, md_green_700, md_light_blue_700, md_yellow_700, md_teal_700, md_pink_700.
CATEGORY_COLORS = {
    "images": "#d32f2f",
    "videos": "#388e3c",
    "audio": "#0288d1",
    "documents": "#fbc02d",
    "archives": "#00796b",
    "others": "#c2185b",
}


class MainActivity(SelectsItems):
    name = ".activities.MainActivity"

    def __init__(self, app: App, extras: dict[str, str] | None = None) -> None:
        super().__init__(app, extras)
        self.tab = 0
        # A VIEW of a folder (resource/folder) opens at it; otherwise the home folder.
        self.path = self.extras.get("path") or str(app.pref("home_folder", ROOT))
        self.selected: set[str] = set()
        self.temp_hidden = False  # "Temporarily show hidden" lasts until the activity is destroyed
        self.back_pressed = False
        self.on_resume()

    # -- state ----------------------------------------------------------------------------
    @property
    def home(self) -> str:
        return str(self.app.pref("home_folder", ROOT))

    @property
    def show_hidden(self) -> bool:
        return bool(self.app.pref("show_hidden", False)) or self.temp_hidden

    def has_access(self) -> bool:
        return self.app.device.packages.granted(PKG, MANAGE_EXTERNAL_STORAGE)

    def on_resume(self) -> None:
        if not self.has_access() and not any(o.title == "access" for o in self.overlays):
            self.show(self.access_dialog())
        if not self.app.device.fs.host(self.path).is_dir():
            self.path = ROOT

    def access_dialog(self) -> Overlay:
        """ConfirmationAdvancedDialog asking for all-files access; OK stands for granting it in the
        system's "All files access" screen (apps/system/settings.py), BACK refuses and closes the app."""
        packages = self.app.device.packages

        def ok() -> None:
            installed = SETTINGS_PACKAGE in packages.models and packages.is_installed(SETTINGS_PACKAGE)
            settings = packages.app(SETTINGS_PACKAGE) if installed else None
            screen = settings.activity_class(ALL_FILES_ACCESS) if settings else None
            if settings and screen:
                self.wm.start_activity(settings, screen, {"package": PKG})
            else:  # a device image without the Settings model: the grant the screen would give
                packages.grant(PKG, MANAGE_EXTERNAL_STORAGE)

        body = [
            w.text(
                self.app.rid("message"),
                "Please grant our app access to all your files, it might not work well without it.",
                padding=12,
            )
        ]
        dialog = w.alert(self, "", body, positive=("OK", ok), cancelable=False)
        dialog.title = "access"
        dialog.on_cancel = self.finish
        return dialog

    def on_back(self) -> bool:
        if search_is_open(self):
            close_search(self)
        elif self.selected:
            self.selected.clear()
        elif self.tab != 0:
            return False
        elif self.path != ROOT and self.path.startswith(ROOT):
            self.path = self.path.rsplit("/", 1)[0]
        elif self.app.pref("press_back_twice", False) and not self.back_pressed:
            self.back_pressed = True
            self.toast("Press back again to exit")
        else:
            return False
        return True

    def items(self) -> list[Item]:
        return list_dir(self.app, self.path, self.show_hidden)

    def open_path(self, path: str) -> None:
        close_search(self)
        self.path, self.selected = path, set()

    def open_item(self, it: Item) -> None:
        if self.selected:
            self.selected ^= {it.path}
        elif it.is_dir:
            self.tab = 0
            self.open_path(it.path)
        else:
            open_file(self, it)

    def select(self, it: Item) -> None:
        self.selected ^= {it.path}

    def pick_tab(self, i: int) -> None:
        close_search(self)
        self.tab, self.selected = i, set()

    def toggle_favorite(self, add: bool) -> None:
        favorites = [f for f in self.app.pref("favorites", []) if f != self.path]
        self.app.set_pref("favorites", [*favorites, self.path] if add else favorites)

    def go_to_favorite(self) -> None:
        favorites = sorted(self.app.pref("favorites", []))
        self.show(w.radio_dialog(self, [humanize(f) for f in favorites], -1, lambda i: self.open_path(favorites[i])))

    def refresh(self) -> None:
        self.selected &= {p for p in self.selected if self.app.device.fs.host(p).exists()}

    # -- the screen -------------------------------------------------------------------------
    def menu(self) -> tuple[list, list]:
        a, files = self.app, self.tab == 0
        favorites = a.pref("favorites", [])
        storage = self.tab == 2
        grid = view_type(a, self.path if files else "") == "grid"
        items = [
            (
                "go_home",
                "Go to home folder",
                "home",
                lambda: self.open_path(self.home),
                "always",
                files and self.path != self.home,
            ),
            ("go_to_favorite", "Go to favorite", "star", self.go_to_favorite, "always", files and bool(favorites)),
            ("sort", "Sort by", "sort", lambda: self.show(sort_dialog(self, self.path, self.refresh)), "ifRoom", files),
            (
                "add_favorite",
                "Add to favorites",
                "star_outline",
                lambda: self.toggle_favorite(True),
                "ifRoom",
                files and self.path not in favorites,
            ),
            (
                "remove_favorite",
                "Remove from favorites",
                "star",
                lambda: self.toggle_favorite(False),
                "ifRoom",
                files and self.path in favorites,
            ),
            (
                "toggle_filename",
                "Toggle filename visibility",
                "label",
                lambda: toggle_filenames(a),
                "ifRoom",
                grid and not storage,
            ),
            (
                "change_view_type",
                "Change view type",
                "menu",
                lambda: self.show(view_type_dialog(self, self.path if files else "", files, self.refresh)),
                "ifRoom",
                not storage,
            ),
            (
                "set_as_home",
                "Set as home folder",
                "",
                lambda: a.set_pref("home_folder", self.path),
                "never",
                files and self.path != self.home,
            ),
            (
                "temporarily_show_hidden",
                "Temporarily show hidden",
                "",
                lambda: setattr(self, "temp_hidden", True),
                "never",
                not self.show_hidden and not storage,
            ),
            (
                "stop_showing_hidden",
                "Stop showing hidden media",
                "",
                lambda: setattr(self, "temp_hidden", False),
                "never",
                self.temp_hidden and not storage,
            ),
            (
                "column_count",
                "Column count",
                "",
                lambda: self.show(column_count_dialog(self)),
                "never",
                grid and not storage,
            ),
            ("settings", "Settings", "settings", lambda: self.start(SettingsActivity), "ifRoom", True),
            ("about", "About", "info", lambda: self.start(ProAboutActivity), "ifRoom", True),
        ]
        return split_menu([i[:5] for i in items if i[5]])

    def listed(self) -> list[Item]:
        return self.items() if self.tab == 0 else self.recents()

    def content(self) -> View:
        a = self.app
        self.back_pressed = False
        actions, overflow = self.menu()
        top = search_menu(self, actions=actions, overflow=overflow)
        if self.selected:
            top = View(VIEW_GROUP, orientation="stack", height=64, children=[top, self.selection_bar()])
        page = (self.files_page, self.recents_page, self.storage_page)[self.tab]()
        shown = a.pref("shown_tabs", [t for t, _ in TABS])
        tabs = [t for t in TABS if t[0] in shown]
        current = next((i for i, t in enumerate(tabs) if t == TABS[self.tab]), 0)
        pick = lambda i: self.pick_tab(TABS.index(tabs[i]))  # noqa: E731
        pager = w.pager(a.rid("main_view_pager"), [page], current, len(tabs), pick, cls=MY_VIEW_PAGER, weight=1)
        bar = bottom_tabs(self, tabs, current, pick)
        holder = View(RELATIVE, id=a.rid("main_holder"), weight=1, children=[pager, bar])
        return w.screen(top, [holder], id=a.rid("main_coordinator"))

    def item_views(self, path: str) -> ItemViews:
        grid = view_type(self.app, path) == "grid"
        return ItemViews(self, grid, self.selected, self.open_item, self.select)

    def row(self, it: Item) -> View:
        return self.item_views("").row(it)

    def section(self, path: str) -> View:
        a = self.app
        holder = View(
            RELATIVE,
            id=a.rid("item_holder"),
            orientation="h",
            padding=8,
            children=[
                w.image(a.rid("item_icon"), "", "folder", width=32, height=32),
                w.text(a.rid("item_section"), humanize(path), size=14, bold=True, weight=1),
            ],
        )
        return View(
            FRAME, id=a.rid("item_frame"), clickable=True, on_click=lambda: self.open_path(path), children=[holder]
        )

    def search_rows(self, base: str, query: str) -> list[View]:
        """ItemsFragment search: matches under `base`, grouped under their folder's section row."""
        fs, q = self.app.device.fs, query.lower()
        root = fs.host(base)
        found: dict[str, list[Item]] = {}
        for p in sorted(root.rglob("*")):
            rel = p.relative_to(root).parts
            if q in p.name.lower() and (self.show_hidden or not any(r.startswith(".") for r in rel)):
                path = f"{base}/{'/'.join(rel)}"
                found.setdefault(path.rsplit("/", 1)[0], []).append(item(fs, path, self.show_hidden))
        rows: list[View] = []
        for parent in sorted(found):
            rows.append(self.section(parent))
            rows += [self.row(i) for i in found[parent]]
        return rows

    def breadcrumbs(self) -> View:
        a = self.app
        crumbs = [(ROOT, "Internal")]
        if self.path.startswith(ROOT + "/"):
            parts = self.path[len(ROOT) + 1 :].split("/")
            crumbs += [(f"{ROOT}/{'/'.join(parts[: i + 1])}", f"> {p}") for i, p in enumerate(parts)]
        views = [
            w.text(
                a.rid("breadcrumb_text"),
                label,
                clickable=True,
                padding=6,
                bold=i == len(crumbs) - 1,
                on_click=partial(self.open_path, path),
            )
            for i, (path, label) in enumerate(crumbs)
        ]
        return View("android.widget.HorizontalScrollView", id=a.rid("breadcrumbs"), height=48, children=[w.row(views)])

    def placeholders(self, query: str, prefix: str) -> list[View]:
        a = self.app
        views = [w.text(a.rid(f"{prefix}_placeholder"), "No items found.", gravity="center", padding=16)]
        if len(query) == 1:
            views.append(
                w.text(
                    a.rid(f"{prefix}_placeholder_2"),
                    "Type in at least 2 characters to start the search.",
                    gravity="center",
                    padding=8,
                )
            )
        return views

    def files_page(self) -> View:
        a = self.app
        query = self.texts.get("top_toolbar_search", "")
        if query:
            rows = self.search_rows(self.path, query) if len(query) >= 2 else []
        else:
            rows = self.item_views(self.path).views(self.items())
        children = [self.breadcrumbs()]
        if not rows:
            children += self.placeholders(query, "items") if query or not self.items() else []
        listing = w.scroll(a.rid("items_list"), rows, cls=RECYCLER)
        scroller = View(FRAME, id=a.rid("items_fastscroller"), weight=1, children=[listing])
        children.append(View(VIEW_GROUP, id=a.rid("items_swipe_refresh"), weight=1, children=[scroller]))
        wrapper = View(RELATIVE, id=a.rid("items_wrapper"), children=children)
        fab = w.fab(a.rid("items_fab"), "", "add", lambda: self.show(create_dialog(self, self.path, self.refresh)))
        coordinator = View(
            VIEW_GROUP, id=a.rid("items_coordinator"), orientation="stack", weight=1, children=[wrapper, fab]
        )
        return View(FRAME, id=a.rid("items_fragment"), weight=1, children=[coordinator])

    def recents(self) -> list[Item]:
        fs = self.app.device.fs
        root = fs.host(ROOT)
        files = [
            p for p in root.rglob("*") if p.is_file() and not any(x.startswith(".") for x in p.relative_to(root).parts)
        ]
        files.sort(key=lambda p: p.stat().st_mtime, reverse=True)
        return [item(fs, fs.device_path(p), True) for p in files[:50]]

    def recents_page(self) -> View:
        a = self.app
        query = self.texts.get("top_toolbar_search", "").lower()
        recents = [i for i in self.recents() if query in i.name.lower()]
        children: list[View] = []
        if not recents:
            children.append(w.text(a.rid("recents_placeholder"), "No items found.", gravity="center", padding=16))
        listing = w.scroll(a.rid("recents_list"), self.item_views("").views(recents), cls=RECYCLER)
        children.append(View(VIEW_GROUP, id=a.rid("recents_swipe_refresh"), weight=1, children=[listing]))
        return View(RELATIVE, id=a.rid("recents_fragment"), weight=1, children=children)

    def storage_page(self) -> View:
        """StorageFragment: one volume, "Internal", its usage bar and its files' sizes by category;
        a category opens its list (MimeTypesActivity)."""
        a = self.app
        root = a.device.fs.host(ROOT)
        sizes = dict.fromkeys(CATEGORIES, 0)
        for p in root.rglob("*"):
            if p.is_file():
                sizes[category(p.name)] += p.stat().st_size
        used = SYSTEM_BYTES + sum(sizes.values())
        query = self.texts.get("top_toolbar_search", "")
        if query:
            rows = self.search_rows(ROOT, query) if len(query) >= 2 else []
            children = [] if rows else self.placeholders(query, "search")
            children.append(w.scroll(a.rid("search_results_list"), rows, cls=RECYCLER))
            return View(
                RELATIVE,
                id=a.rid("storage_fragment"),
                weight=1,
                children=[View(RELATIVE, id=a.rid("search_holder"), weight=1, children=children)],
            )

        def bar(name: str, share: float, color: str) -> View:
            return View(PROGRESS, id=a.rid(name), height=8, kind="progress", canvas=(share,), color=color)

        kinds = [
            View(
                RELATIVE,
                id=a.rid(f"{k}_holder"),
                padding=8,
                clickable=True,
                on_click=partial(self.start, MimeTypesActivity, show_mimetype=k),
                children=[
                    w.row(
                        [
                            w.text(a.rid(f"{k}_label"), TITLES[k], weight=1),
                            w.text(a.rid(f"{k}_size"), format_size(sizes[k]), size=14),
                        ]
                    ),
                    bar(f"{k}_progressbar", sizes[k] / TOTAL_BYTES, CATEGORY_COLORS[k]),
                ],
            )
            for k in sizes
        ]
        free = View(
            RELATIVE,
            id=a.rid("free_space_holder"),
            children=[
                w.text(a.rid("storage_name"), "Internal", size=18),
                w.row(
                    [
                        w.text(a.rid("free_space_value"), format_size(TOTAL_BYTES - used), size=46),
                        w.text(a.rid("free_space_label"), "free", size=18, padding=6),
                    ]
                ),
            ],
        )
        volume = View(
            VIEW_GROUP,
            id=a.rid("storage_holder"),
            padding=12,
            children=[
                free,
                bar("main_storage_usage_progressbar", used / TOTAL_BYTES, "primary"),
                w.text(a.rid("total_space"), f"Total storage: {format_size(TOTAL_BYTES)}", size=18, padding=4),
                *kinds,
            ],
        )
        holder = View(LINEAR, id=a.rid("storage_volumes_holder"), children=[volume])
        body = w.scroll(a.rid("storage_nested_scrollview"), [holder], cls="androidx.core.widget.NestedScrollView")
        return View(RELATIVE, id=a.rid("storage_fragment"), weight=1, children=[body])
