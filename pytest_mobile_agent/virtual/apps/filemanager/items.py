"""The item views ItemsAdapter binds, shared by the Files, Recents and category lists: list rows
(item_file_dir_list.xml), grid cells (item_dir_grid.xml, item_file_grid.xml), the grid itself
(MyGridLayoutManager with the column count as its span), and the action mode over selected
items (cab.xml)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from pytest_mobile_agent.virtual.apps.commons.action_mode import drag_select, selection_mode_bar
from pytest_mobile_agent.virtual.apps.commons.formats import format_size
from pytest_mobile_agent.virtual.apps.filemanager.dialogs import NO_APP, modified_text, properties_dialog, rename_dialog
from pytest_mobile_agent.virtual.apps.filemanager.store import Item, column_count, delete_paths, extension, item
from pytest_mobile_agent.virtual.ui import widgets as w
from pytest_mobile_agent.virtual.ui.app import Activity
from pytest_mobile_agent.virtual.ui.view import FRAME, RELATIVE, VIEW_GROUP, View


@dataclass
class ItemViews:
    """How one list shows its items: grid or list, which are selected, what taps do."""

    activity: Activity
    grid: bool
    selected: set[str]
    on_click: Callable[[Item], None]
    on_long_click: Callable[[Item], None]

    def icon(self, it: Item, size: float | None) -> View:
        """item_icon: the folder icon, or what Glide makes of the file (an image's own pixels,
        centre-cropped with rounded corners) with its type's sheet as the error drawable
        (getFilePlaceholderDrawables); `size` None = a grid cell's square (MySquareImageView)."""
        rid = self.activity.app.rid
        if it.is_dir:
            return w.image(rid("item_icon"), "", "folder", width=size or 50, height=size or 50, alpha=0.7)
        # RoundedCorners(10): 10 px, about 4 dp at 420 dpi.
        return w.media(rid("item_icon"), it.host, "crop", 4, "file_type", width=size, height=size or 96, padding=4)

    def frame(self, it: Item, holder: View, kind: str = "row") -> View:
        return View(
            FRAME,
            id=self.activity.app.rid("item_frame"),
            clickable=True,
            long_clickable=True,
            focusable=True,
            selected=it.path in self.selected,
            kind=kind,
            key=it.path,
            on_click=lambda: self.on_click(it),
            on_long_click=lambda: self.on_long_click(it),
            children=[holder],
        )

    def row(self, it: Item) -> View:
        a = self.activity.app
        details = f"{it.children} item{'' if it.children == 1 else 's'}" if it.is_dir else format_size(it.size)
        # item_file_dir_list.xml: the name is one line ellipsized in the middle, so its extension shows.
        name = w.text(a.rid("item_name"), it.name, size=16, ellipsize="middle")
        texts = [name, w.text(a.rid("item_details"), details, size=14)]
        children = [self.icon(it, 48), w.column(texts, weight=1, padding=4)]
        if not it.is_dir:
            children.append(w.text(a.rid("item_date"), modified_text(a, it.mtime), size=12, padding=4))
        holder = View(VIEW_GROUP, id=a.rid("item_holder"), orientation="h", children=children, padding=8)
        return self.frame(it, holder)

    def cell(self, it: Item) -> View:
        """A grid cell: the icon (a folder's 50dp, a file's the cell's width) over its one-line
        name, which "Toggle filename visibility" hides for files; a check while selected."""
        a = self.activity.app
        icon = self.icon(it, None if not it.is_dir else 50)
        icon.gravity = "center"
        children = [icon]
        if it.is_dir or a.pref("display_filenames", True):
            children.append(w.text(a.rid("item_name"), it.name, size=14, gravity="center", padding=2))
        if it.path in self.selected:
            check = w.image(a.rid("item_check"), "", "check", width=24, height=24, color="primary", gravity="end")
            children = [View(VIEW_GROUP, orientation="stack", children=[children[0], check]), *children[1:]]
        holder = View(RELATIVE, id=a.rid("item_holder"), children=children, padding=4)
        return self.frame(it, holder, kind="")  # no list divider under a cell

    def views(self, items: list[Item]) -> list[View]:
        """The list's children: rows, or grid lines of `column_count` cells, with folders and
        files on separate lines (ItemsFragment's grid type divider). A long press that drags
        selects the items between (MyRecyclerView's drag-select)."""
        if not self.grid:
            rows = [self.row(i) for i in items]
            drag_select(rows, self.selected.update)
            return rows
        span = column_count(self.activity.app)
        lines: list[View] = []
        cells_in_order: list[View] = []
        for group in ([i for i in items if i.is_dir], [i for i in items if not i.is_dir]):
            for start in range(0, len(group), span):
                cells = [self.cell(i) for i in group[start : start + span]]
                cells_in_order += cells
                cells += [View(VIEW_GROUP) for _ in range(span - len(cells))]
                for c in cells:
                    c.weight, c.width = 1, None
                lines.append(View(VIEW_GROUP, orientation="h", children=cells))
        drag_select(cells_in_order, self.selected.update)
        return lines


class SelectsItems(Activity):
    """ItemsAdapter's action mode over a list's items (the Files and Recents tabs, a category's
    list): `selected` holds their paths; the list says what it shows in `listed`."""

    selected: set[str]

    @property
    def show_hidden(self) -> bool:
        raise NotImplementedError

    def listed(self) -> list[Item]:
        raise NotImplementedError

    def selected_items(self) -> list[Item]:
        fs = self.app.device.fs
        return [item(fs, p, True) for p in sorted(self.selected) if fs.host(p).exists()]

    def delete_selected(self) -> None:
        chosen = self.selected_items()

        def yes() -> None:
            delete_paths(self.app, chosen)
            self.selected.clear()

        if self.app.pref("skip_delete_confirmation", False):
            return yes()
        what = f'"{chosen[0].name}"' if len(chosen) == 1 else f"{len(chosen)} items"
        self.show(w.confirm_dialog(self, f"Are you sure you want to delete {what}?", yes))

    def rename_selected(self) -> None:
        chosen = self.selected_items()
        if len(chosen) == 1:
            self.show(rename_dialog(self, chosen[0], lambda new: self.selected.clear()))

    def set_hidden(self, hide: bool) -> None:
        fs = self.app.device.fs
        for it in self.selected_items():
            name = it.name
            new = f".{name}" if hide else name.lstrip(".")
            if new != name and not fs.host(f"{it.path.rsplit('/', 1)[0]}/{new}").exists():
                it.host.rename(it.host.with_name(new))
        self.selected.clear()

    def selection_bar(self) -> View:
        """cab.xml as ItemsAdapter.prepareActionMode shows it for the selected items."""
        chosen = self.selected_items()
        one, one_file = len(chosen) == 1, len(chosen) == 1 and not chosen[0].is_dir
        hidden = [i for i in chosen if i.name.startswith(".")]
        items = [
            ("cab_delete", "Delete", "delete", self.delete_selected, "always", True),
            (
                "cab_properties",
                "Properties",
                "info",
                lambda: self.show(properties_dialog(self, chosen, self.show_hidden)),
                "always",
                True,
            ),
            ("cab_rename", "Rename", "edit", self.rename_selected, "always", True),
            ("cab_share", "Share", "share", lambda: self.toast(NO_APP), "ifRoom", True),
            ("cab_hide", "Hide", "", lambda: self.set_hidden(True), "ifRoom", len(hidden) < len(chosen)),
            ("cab_unhide", "Unhide", "", lambda: self.set_hidden(False), "ifRoom", bool(hidden)),
            ("cab_create_shortcut", "Create shortcut", "", lambda: None, "never", one),
            (
                "cab_copy_path",
                "Copy path to clipboard",
                "",
                lambda: self.toast("Value copied to clipboard"),
                "never",
                one,
            ),
            ("cab_set_as", "Set as", "", lambda: self.toast(NO_APP), "never", one_file),
            ("cab_open_with", "Open with", "", lambda: self.toast(NO_APP), "never", one_file),
            ("cab_open_as", "Open as", "", lambda: None, "never", one_file),
            ("cab_copy_to", "Copy to", "", lambda: None, "never", True),
            ("cab_move_to", "Move to", "", lambda: None, "never", True),
            ("cab_compress", "Compress", "", lambda: None, "never", True),
            (
                "cab_decompress",
                "Decompress",
                "",
                lambda: None,
                "never",
                any(extension(i.name) == "zip" for i in chosen),
            ),
            ("cab_select_all", "Select all", "", self._select_all, "ifRoom", True),
        ]
        return selection_mode_bar(self, self.selected, len(self.listed()), items, self._select_all)

    def _select_all(self) -> None:
        self.selected.update(i.path for i in self.listed())
