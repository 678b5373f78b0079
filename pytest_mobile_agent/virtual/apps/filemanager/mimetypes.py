"""The Storage tab's category list (MimeTypesActivity, activity_mimetypes.xml, menu_mimetypes.xml):
every non-empty file of one category on the volume, with search, sorting and the view type
kept under the category's name as if it were a folder."""

from __future__ import annotations

from pytest_mobile_agent.virtual.apps.commons.menus import split_menu
from pytest_mobile_agent.virtual.apps.filemanager.dialogs import (
    column_count_dialog,
    sort_dialog,
    toggle_filenames,
    view_type_dialog,
)
from pytest_mobile_agent.virtual.apps.filemanager.editor import open_file
from pytest_mobile_agent.virtual.apps.filemanager.items import ItemViews, SelectsItems
from pytest_mobile_agent.virtual.apps.filemanager.store import (
    ROOT,
    Item,
    category,
    item,
    sort_items,
    sorting,
    view_type,
)
from pytest_mobile_agent.virtual.ui import widgets as w
from pytest_mobile_agent.virtual.ui.app import App
from pytest_mobile_agent.virtual.ui.view import RELATIVE, VIEW_GROUP, View

TITLES = {
    "images": "Images",
    "videos": "Videos",
    "audio": "Audio",
    "documents": "Documents",
    "archives": "Archives",
    "others": "Others",
}
SEARCH_KEY = "search_src_text"
RECYCLER = "androidx.recyclerview.widget.RecyclerView"


class MimeTypesActivity(SelectsItems):
    name = ".activities.MimeTypesActivity"

    def __init__(self, app: App, extras: dict[str, str] | None = None) -> None:
        super().__init__(app, extras)
        self.mimetype = self.extras.get("show_mimetype", "")
        self.searching = False
        self.temp_hidden = False
        self.selected: set[str] = set()
        if self.mimetype not in TITLES:
            self.toast("An unknown error occurred")
            self.finish()

    def on_back(self) -> bool:
        if self.selected:
            self.selected.clear()
            return True
        if self.searching:
            self.close_search()
            return True
        return False

    @property
    def show_hidden(self) -> bool:
        return bool(self.app.pref("show_hidden", False)) or self.temp_hidden

    def files(self) -> list[Item]:
        """getProperFileDirItems: the category's files of a size above 0, hidden ones only when shown."""
        fs = self.app.device.fs
        root = fs.host(ROOT)
        found = []
        for p in root.rglob("*"):
            if not p.is_file() or p.stat().st_size == 0 or category(p.name) != self.mimetype:
                continue
            if p.name.startswith(".") and not self.show_hidden:
                continue
            found.append(item(fs, fs.device_path(p), True))
        return sort_items(found, sorting(self.app, self.mimetype))

    def open_search(self) -> None:
        self.searching = True
        w.focus(self, SEARCH_KEY)

    def close_search(self) -> None:
        self.searching = False
        self.texts[SEARCH_KEY] = ""
        self.focus = ""

    def toolbar(self) -> View:
        a, grid = self.app, view_type(self.app, self.mimetype) == "grid"
        if self.searching:
            field = w.edit(self, SEARCH_KEY, hint="Search", weight=1)
            return View(
                VIEW_GROUP,
                id=a.rid("mimetypes_toolbar"),
                orientation="h",
                height=56,
                kind="toolbar",
                color="primary",
                children=[w.icon_button("", "Collapse", "back", self.close_search), field],
            )
        items = [
            ("search", "Search", "search", self.open_search, "always", True),
            (
                "sort",
                "Sort by",
                "sort",
                lambda: self.show(sort_dialog(self, self.mimetype, self.refresh)),
                "ifRoom",
                True,
            ),
            ("toggle_filename", "Toggle filename visibility", "label", lambda: toggle_filenames(a), "ifRoom", grid),
            (
                "change_view_type",
                "Change view type",
                "grid_view",
                lambda: self.show(view_type_dialog(self, self.mimetype, True, self.refresh)),
                "ifRoom",
                True,
            ),
            (
                "temporarily_show_hidden",
                "Temporarily show hidden",
                "",
                lambda: setattr(self, "temp_hidden", True),
                "never",
                not self.show_hidden,
            ),
            (
                "stop_showing_hidden",
                "Stop showing hidden media",
                "",
                lambda: setattr(self, "temp_hidden", False),
                "never",
                self.temp_hidden,
            ),
            ("column_count", "Column count", "", lambda: self.show(column_count_dialog(self)), "never", grid),
        ]
        actions, overflow = split_menu([i[:5] for i in items if i[5]])
        title = TITLES.get(self.mimetype, "")
        return w.toolbar(self, "mimetypes_toolbar", title, actions=actions, overflow=overflow, back=True)

    def query(self) -> str:
        return self.texts.get(SEARCH_KEY, "").strip() if self.searching else ""

    def listed(self) -> list[Item]:
        query = self.query()
        return [] if len(query) == 1 else [f for f in self.files() if query.lower() in f.name.lower()]

    def content(self) -> View:
        a = self.app
        query = self.query()
        children: list[View] = []
        if len(query) == 1:
            shown: list[Item] = []
            children += [
                w.text(a.rid("mimetypes_placeholder"), "No items found.", gravity="center", padding=16),
                w.text(
                    a.rid("mimetypes_placeholder_2"),
                    "Type in at least 2 characters to start the search.",
                    gravity="center",
                    padding=8,
                ),
            ]
        else:
            shown = self.listed()
            if not shown:
                children.append(w.text(a.rid("mimetypes_placeholder"), "No items found.", gravity="center", padding=16))
        if shown:
            views = ItemViews(self, view_type(a, self.mimetype) == "grid", self.selected, self.open, self.select)
            listing = w.scroll(a.rid("mimetypes_list"), views.views(shown), cls=RECYCLER)
            children.append(View(RELATIVE, id=a.rid("mimetypes_fastscroller"), weight=1, children=[listing]))
        holder = View(RELATIVE, id=a.rid("mimetypes_holder"), weight=1, children=children)
        top = self.toolbar()
        if self.selected:
            top = View(VIEW_GROUP, orientation="stack", height=64, children=[top, self.selection_bar()])
        return w.screen(top, [holder], id=a.rid("mimetypes_coordinator"))

    def show_sorting(self) -> None:
        self.show(sort_dialog(self, self.mimetype, self.refresh))

    def refresh(self) -> None:
        """Lists are built from the files and settings on every draw: nothing is cached."""

    def open(self, it: Item) -> None:
        if self.selected:
            self.select(it)
        else:
            open_file(self, it)

    def select(self, it: Item) -> None:
        self.selected ^= {it.path}
