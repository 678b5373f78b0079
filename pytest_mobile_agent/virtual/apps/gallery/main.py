"""Simple Gallery Pro's main screens: the folders and a folder's media grid.

The folders screen and a folder's media grid over the image/video files under /sdcard, with the
toolbar menus and their dialogs (sort, filter media, change view type, group by, column count,
create folder), folder selection, favourites and the Recycle Bin.
Ids, texts and flows follow docs/fidelity/gallery.md, learned from Simple-Gallery's
activity_main.xml, activity_media.xml, directory_item_*.xml, photo_item_*.xml, menu_main.xml,
menu_media.xml, cab_directories.xml, dialog_change_sorting.xml, dialog_filter_media.xml,
dialog_change_view_type.xml, dialog_change_grouping.xml and its Kotlin sources.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from pytest_mobile_agent.virtual.apps.commons.about import ProAboutActivity
from pytest_mobile_agent.virtual.apps.commons.action_mode import action_mode_bar, drag_select
from pytest_mobile_agent.virtual.apps.commons.dialogs import properties_dialog
from pytest_mobile_agent.virtual.apps.commons.formats import format_size
from pytest_mobile_agent.virtual.apps.commons.menus import SEARCH_KEY, search_is_open, search_menu
from pytest_mobile_agent.virtual.apps.gallery.dialogs import GalleryScreen, thumbnail
from pytest_mobile_agent.virtual.apps.gallery.settings import SettingsActivity
from pytest_mobile_agent.virtual.apps.gallery.store import DEFAULT_FILTER, FAVORITES, RECYCLE_BIN, media_type
from pytest_mobile_agent.virtual.apps.gallery.viewer import ViewPagerActivity
from pytest_mobile_agent.virtual.ui import widgets as w
from pytest_mobile_agent.virtual.ui.app import App
from pytest_mobile_agent.virtual.ui.view import IMAGE, LINEAR, RECYCLER, RELATIVE, View


class FolderScreen(GalleryScreen):
    def open_folder(self, path: str) -> None:
        self.start(MediaActivity, directory=path)


class MainActivity(FolderScreen):
    name = ".activities.MainActivity"

    def content(self) -> View:
        a = self.app
        query = self.texts.get(SEARCH_KEY, "").lower()
        dirs = [d for d in a.directories() if query in d["name"].lower()]
        top = self.selection_bar(dirs) if self.selected else self.menu()
        body: list[View] = []
        if query:
            body.append(
                w.text(
                    a.rid("directories_switch_searching"),
                    "Switch to file search across all visible folders",
                    size=14,
                    padding=8,
                    clickable=True,
                    on_click=lambda: self.toast("Search all files"),
                )
            )
        if not dirs:
            body += self.placeholders()
        else:
            body.append(
                View(
                    RELATIVE,
                    id=a.rid("directories_refresh_layout"),
                    weight=1,
                    children=[View(RELATIVE, id=a.rid("directories_fastscroller"), children=[self.grid(dirs)])],
                )
            )
        holder = View(RELATIVE, id=a.rid("directories_holder"), weight=1, children=[w.column(body)])
        return w.screen(top, [holder], id=a.rid("directories_coordinator"))

    def menu(self) -> View:
        a = self.app
        overflow: list[w.MenuItem] = [
            ("sort", "Sort by", self.sort_dialog),
            ("filter", "Filter media", self.filter_dialog),
            ("change_view_type", "Change view type", self.view_type_dialog),
            *self.hidden_items(),
            ("stop_showing_excluded", "Stop showing excluded", lambda: a.set_temp("temp_show_excluded", False))
            if a.temp_show_excluded
            else (
                "temporarily_show_excluded",
                "Temporarily show excluded",
                lambda: a.set_temp("temp_show_excluded", True),
            ),
            ("create_new_folder", "Create new folder", self.create_folder_dialog),
        ]
        if not a.pref("show_recycle_bin", True):
            overflow.append(("open_recycle_bin", "Open the Recycle Bin", lambda: self.open_folder(RECYCLE_BIN)))
        if self.view_type() == "grid":
            overflow.append(("column_count", "Column count", self.column_count_dialog))
        overflow += [
            ("settings", "Settings", partial(self.start, SettingsActivity)),
            ("about", "About", lambda: self.start(ProAboutActivity)),
        ]
        return search_menu(
            self,
            hint="Search folders",
            actions=(
                ("open_camera", "Open camera", "camera", self.open_camera),
                ("show_all", "Show all folders content", "image", self.show_all),
            ),
            overflow=tuple(overflow),
        )

    def placeholders(self) -> list[View]:
        a = self.app
        if search_is_open(self) and self.texts.get(SEARCH_KEY):
            return [w.text(a.rid("directories_empty_placeholder"), "No items found.", padding=24, gravity="center")]
        if int(a.pref("filter_media", DEFAULT_FILTER)) == DEFAULT_FILTER:
            text, link = (
                (
                    "No media files have been found. You can solve it by adding the folders containing media "
                    "files manually."
                ),
                ("Add folder", lambda: self.toast("Add folder")),
            )
        else:
            text, link = (
                "No media files have been found with the selected filters.",
                ("Change filters", self.filter_dialog),
            )
        return [
            w.text(a.rid("directories_empty_placeholder"), text, padding=24, gravity="center"),
            w.text(
                a.rid("directories_empty_placeholder_2"),
                link[0],
                padding=8,
                gravity="center",
                clickable=True,
                on_click=link[1],
            ),
        ]

    def grid(self, dirs: list[dict[str, Any]]) -> View:
        a = self.app
        pinned = set(a.pref("pinned_folders", []))
        if self.view_type() == "list":
            rows = [self.dir_row(d, d["path"] in pinned or d.get("pinned", False)) for d in dirs]
            drag_select(rows, self.select_range)
        else:
            columns = int(a.pref("dir_column_count", 2))
            cells = [self.dir_cell(d, d["path"] in pinned or d.get("pinned", False)) for d in dirs]
            drag_select(cells, self.select_range)
            cells += [View(weight=1) for _ in range(-len(cells) % columns)]
            rows = [w.row(cells[i : i + columns], height=round(392 / columns)) for i in range(0, len(cells), columns)]
        return w.scroll(a.rid("directories_grid"), rows, cls=RECYCLER)

    def _dir_holder(self, d: dict[str, Any], children: list[View], **kw: Any) -> View:
        path = d["path"]
        return View(
            RELATIVE,
            id=self.app.rid("dir_holder"),
            clickable=True,
            long_clickable=True,
            focusable=True,
            selected=path in self.selected,
            children=children,
            kind="row",
            on_click=lambda: self.tap(path),
            on_long_click=lambda: self.toggle(path),
            key=path,
            **kw,
        )

    def select_range(self, paths: list[str]) -> None:
        self.selected += [p for p in paths if p not in self.selected]

    def _marks(self, d: dict[str, Any], pinned: bool) -> list[View]:
        a = self.app
        marks = []
        if d["path"] in self.selected:
            marks.append(w.image(a.rid("dir_check"), "", "check", width=24, height=24))
        if pinned:
            marks.append(w.image(a.rid("dir_pin"), "PIN", "star", width=24, height=24))
        return marks

    def dir_cell(self, d: dict[str, Any], pinned: bool) -> View:
        a = self.app
        rounded = int(a.pref("folder_thumbnail_style", 0)) == 1  # ROUNDED_CORNERS_BIG
        thumb = thumbnail(a, "dir_thumbnail", d.get("cover", ""), corners=10 if rounded else 0, key=d["name"])
        # directory_item_grid_square.xml: the name and count lie over the cover's bottom, white
        # on the 70dp shadow; the check at the top end, the pin at the top start.
        shadow = View(IMAGE, id=a.rid("dir_shadow_holder"), kind="scrim", height=70, vgravity="end")
        bottom = View(
            LINEAR,
            id=a.rid("dir_bottom_holder"),
            kind="caption",
            padding=4,
            height=48,
            vgravity="end",
            children=[
                w.text(a.rid("dir_name"), d["name"], size=14, bold=True),
                w.text(a.rid("photo_cnt"), str(d["count"]), size=12),
            ],
        )
        marks = self._marks(d, pinned)
        for mark in marks:
            if mark.id == a.rid("dir_check"):
                mark.gravity, mark.color = "end", "primary"
        children = [thumb, shadow, bottom, *marks]
        return self._dir_holder(d, children, weight=1, padding=2, orientation="stack")

    def dir_row(self, d: dict[str, Any], pinned: bool) -> View:
        a = self.app
        parent = d["path"].rsplit("/", 1)[0] + "/" if "/" in d["path"] else ""
        texts = w.column([w.text(a.rid("dir_name"), d["name"]), w.text(a.rid("dir_path"), parent, size=12)], weight=1)
        return self._dir_holder(
            d,
            [
                thumbnail(a, "dir_thumbnail", d.get("cover", ""), corners=4, key=d["name"], width=64, height=64),
                texts,
                w.text(a.rid("photo_cnt"), str(d["count"]), size=14),
                *self._marks(d, pinned),
            ],
            orientation="h",
            height=80,
            padding=8,
        )

    def tap(self, path: str) -> None:
        if self.selected:
            self.toggle(path)
        else:
            self.start(MediaActivity, directory=path)

    def selection_bar(self, dirs: list[dict[str, Any]]) -> View:
        a = self.app
        real = [p for p in self.selected if p not in (FAVORITES, RECYCLE_BIN)]
        pinned = set(a.pref("pinned_folders", []))
        unpin = [("cab_unpin", "Unpin folder", lambda: self.pin(False))] if pinned & set(real) else []
        rename = [("cab_rename", "Rename", lambda: self.toast("Rename folder"))] if len(real) == 1 else []
        later = lambda: self.end_selection()  # folder operations that need a picker
        overflow: list[w.MenuItem] = [
            *unpin,
            *rename,
            ("cab_hide", "Hide folder", later),
            ("cab_copy_to", "Copy to", later),
            ("cab_move_to", "Move to", later),
            ("cab_create_shortcut", "Create shortcut", later),
            ("cab_exclude", "Exclude", later),
            ("cab_lock", "Lock folder", later),
            ("cab_select_all", "Select all", lambda: self.select_all(dirs)),
        ]
        actions = (
            ("cab_delete", "Delete", "delete", lambda: self.delete(real)),
            ("cab_properties", "Properties", "info", lambda: self.properties(real)),
            ("cab_pin", "Pin to the top", "star", lambda: self.pin(True)),
        )
        return action_mode_bar(
            self,
            len(self.selected),
            len(dirs),
            actions=actions,
            overflow=tuple(overflow),
            on_close=self.end_selection,
            on_select_all=lambda: self.select_all(dirs),
        )

    def select_all(self, dirs: list[dict[str, Any]]) -> None:
        self.selected = [d["path"] for d in dirs]

    def pin(self, pinned: bool) -> None:
        current = [p for p in self.app.pref("pinned_folders", []) if p not in self.selected]
        self.app.set_pref("pinned_folders", current + (list(self.selected) if pinned else []))
        self.end_selection()

    def delete(self, folders: list[str]) -> None:
        a = self.app
        media = [m for m in a.all_media() if m["dir"] in folders]
        items = f"{len(media)} item" if len(media) == 1 else f"{len(media)} items"
        verb = "move {} into the Recycle Bin" if a.pref("use_recycle_bin", True) else "delete {}"

        def yes() -> None:
            for m in media:
                a.delete(m["path"])
            self.end_selection()

        self.show(w.confirm_dialog(self, f"Are you sure you want to {verb.format(items)}?", yes))

    def properties(self, folders: list[str]) -> None:
        a = self.app
        media = [m for m in a.all_media() if m["dir"] in folders]
        rows = [("Size", format_size(sum(m["size"] for m in media))), ("Total files count", str(len(media)))]
        if len(folders) == 1:
            rows = [("Name", a.folder_name(folders[0])), ("Path", folders[0]), *rows]
            rows.insert(3, ("Direct children count", str(len(media))))
        self.show(properties_dialog(self, rows))
        self.end_selection()

    def open_camera(self) -> None:
        packages = self.app.device.packages
        if packages.is_installed("com.android.camera2") and "com.android.camera2" in packages.models:
            camera = packages.app("com.android.camera2")
            self.wm.start_activity(camera, camera.main_activity, launcher=True)
        else:
            self.toast("No valid app found")

    def show_all(self) -> None:
        """Show all folders content: the media screen without a folder replaces this one."""
        self.app.set_pref("show_all", True)
        self.finish()
        self.wm.start_activity(self.app, MediaActivity, {"directory": ""})


class MediaActivity(FolderScreen):
    name = ".activities.MediaActivity"
    directory: str  # the folder shown: a path, FAVORITES or RECYCLE_BIN, "" for "show all"

    def __init__(self, app: App, extras: dict[str, str] | None = None) -> None:
        super().__init__(app, extras)
        self.directory = self.extras.get("directory", "")

    def media(self) -> list[dict[str, Any]]:
        a = self.app
        media = a.sort_items(a.media_in(self.directory), a.sorting(self.directory))
        query = self.texts.get(SEARCH_KEY, "").lower()
        return [m for m in media if query in m["name"].lower()]

    def content(self) -> View:
        a = self.app
        media = self.media()
        top = self.selection_bar(media) if self.selected else self.menu()
        if media:
            body = View(
                RELATIVE,
                id=a.rid("media_refresh_layout"),
                weight=1,
                children=[View(RELATIVE, id=a.rid("media_fastscroller"), children=[self.grid(media)])],
            )
        else:
            body = w.column(
                [
                    w.text(
                        a.rid("media_empty_text_placeholder"),
                        "No media files have been found with the selected filters.",
                        padding=24,
                        gravity="center",
                    ),
                    w.text(
                        a.rid("media_empty_text_placeholder_2"),
                        "Change filters",
                        padding=8,
                        gravity="center",
                        clickable=True,
                        on_click=self.filter_dialog,
                    ),
                ],
                weight=1,
            )
        holder = View(RELATIVE, id=a.rid("media_holder"), weight=1, children=[body])
        return w.screen(top, [holder], id=a.rid("media_coordinator"))

    def menu(self) -> View:
        a, d = self.app, self.directory
        show_all = d == ""
        grid = self.view_type() == "grid"
        actions = [("toggle_filename", "Toggle filename visibility", "file", self.toggle_names)] if grid else []
        actions.append(("sort", "Sort by", "sort", self.sort_dialog))
        overflow: list[w.MenuItem] = []
        if show_all:
            overflow.append(("folder_view", "Switch to folder view", self.folder_view))
        overflow += [
            ("filter", "Filter media", self.filter_dialog),
            ("change_view_type", "Change view type", self.view_type_dialog),
            *self.hidden_items(),
        ]
        if d == RECYCLE_BIN:
            overflow += [
                ("restore_all_files", "Restore all files", a.restore_all),
                ("empty_recycle_bin", "Empty the Recycle Bin", a.empty_trash),
                ("empty_disable_recycle_bin", "Empty and disable the Recycle Bin", self.disable_bin),
            ]
        elif not a.pref("show_recycle_bin", True) or show_all:
            overflow.append(("open_recycle_bin", "Open the Recycle Bin", lambda: self.open_folder(RECYCLE_BIN)))
        overflow.append(("group", "Group by", self.group_dialog))
        if not show_all and d not in (FAVORITES, RECYCLE_BIN):
            overflow += [
                self.default_folder_item(),
                ("create_new_folder", "Create new folder", self.create_folder_dialog),
            ]
        if grid:
            overflow.append(("column_count", "Column count", self.column_count_dialog))
        overflow += [
            ("slideshow", "Slideshow", lambda: self.toast("Slideshow")),
            ("settings", "Settings", partial(self.start, SettingsActivity)),
        ]
        if show_all:
            overflow.append(("about", "About", lambda: self.start(ProAboutActivity)))
        hint = "Search files" if show_all else f"Search in {a.folder_name(d)}"
        bar = search_menu(self, id="media_menu", hint=hint, actions=tuple(actions), overflow=tuple(overflow))
        if not show_all and not search_is_open(self):
            # Inside a folder the search icon is a back arrow (MySearchMenu useArrowIcon).
            for v in bar.walk():
                if v.id == a.rid("top_toolbar_search_icon"):
                    v.desc, v.icon, v.on_click = "Back", "back", self.finish
        return bar

    def default_folder_item(self) -> w.MenuItem:
        a = self.app
        if a.pref("default_folder", "") == self.directory:
            return ("unset_as_default_folder", "Unset as default folder", lambda: a.set_pref("default_folder", ""))
        return ("set_as_default_folder", "Set as default folder", lambda: a.set_pref("default_folder", self.directory))

    def grid(self, media: list[dict[str, Any]]) -> View:
        a = self.app
        grouping = a.grouping(self.directory)
        columns = int(a.pref("media_column_count", 3))
        rows: list[View] = []
        holders: list[View] = []
        for title, items in a.grouped(media, grouping):
            if title:
                rows.append(w.text(a.rid("thumbnail_section"), title, size=14, bold=True, padding=8))
            if self.view_type() == "list":
                rows += [self.item(m, list_view=True) for m in items]
                holders += rows[-len(items) :]
                continue
            cells = [self.item(m) for m in items]
            holders += cells
            cells += [View(weight=1) for _ in range(-len(cells) % columns)]
            rows += [w.row(cells[i : i + columns], height=round(392 / columns)) for i in range(0, len(cells), columns)]
        drag_select(holders, self.select_range)
        return w.scroll(a.rid("media_grid"), rows, cls=RECYCLER)

    def item(self, m: dict[str, Any], list_view: bool = False) -> View:
        """A medium: photo_item_* / video_item_* (a RelativeLayout whose marks lie over the
        thumbnail in the grid): the thumbnail from the file's pixels, the play mark on videos."""
        a = self.app
        if list_view:
            thumb = thumbnail(a, "medium_thumbnail", m["path"], corners=4, key=m["name"], width=64, height=64)
        else:
            thumb = thumbnail(a, "medium_thumbnail", m["path"], key=m["name"])
        children = [thumb]
        if media_type(m["name"]) == 2 and not list_view:
            children.append(View(IMAGE, id=a.rid("play_portrait_outline"), kind="play", width=26, height=26))
        if m["type"] == 4:
            children.append(w.text(a.rid("file_type"), "GIF", size=12, height=20, gravity="end", vgravity="end"))
        if a.is_favorite(m["path"]):
            star = w.image(a.rid("favorite"), "", "star", width=26, height=26, gravity="end", color="black")
            children.append(star)
        if m["path"] in self.selected:
            # circle_background in the primary colour under a white check
            check = w.image(a.rid("medium_check"), "", "check", width=26, height=26, gravity="end", color="primary")
            children.append(check)
        if list_view or a.pref("display_file_names", False):
            # photo_item_grid / video_item_*: up to 3 lines, photo_item_list: 2, ellipsized at the end.
            lines = 2 if list_view and m["type"] != 2 else 3
            name = {"weight": 1} if list_view else {"vgravity": "end", "color": "dark"}
            children.append(w.text(a.rid("medium_name"), m["name"], size=12, max_lines=lines, **name))
        path = m["path"]
        return View(
            RELATIVE,
            id=a.rid("media_item_holder"),
            clickable=True,
            long_clickable=True,
            focusable=True,
            selected=path in self.selected,
            kind="row",
            padding=2,
            children=children,
            orientation="h" if list_view else "stack",
            height=72 if list_view else None,
            weight=0 if list_view else 1,
            on_click=lambda: self.tap(path),
            on_long_click=lambda: self.toggle(path),
            key=path,
        )

    def select_range(self, paths: list[str]) -> None:
        self.selected += [p for p in paths if p not in self.selected]

    def tap(self, path: str) -> None:
        if self.selected:
            self.toggle(path)
        else:
            self.start(ViewPagerActivity, path=path, directory=self.directory)

    def selection_bar(self, media: list[dict[str, Any]]) -> View:
        a = self.app
        chosen = list(self.selected)
        fav = all(a.is_favorite(p) for p in chosen)

        def favorites() -> None:
            for p in chosen:
                if a.is_favorite(p) == fav:
                    a.toggle_favorite(p)
            self.end_selection()

        def delete() -> None:
            for p in chosen:
                a.delete(p)
            self.end_selection()

        later = self.end_selection
        overflow: list[w.MenuItem] = [
            ("cab_properties", "Properties", lambda: self.toast("Properties")),
            ("cab_remove_from_favorites", "Remove from favorites", favorites)
            if fav
            else ("cab_add_to_favorites", "Add to favorites", favorites),
            ("cab_copy_to", "Copy to", later),
            ("cab_move_to", "Move to", later),
            ("cab_select_all", "Select all", lambda: setattr(self, "selected", [m["path"] for m in media])),
        ]
        actions = (
            ("cab_confirm_selection", "Confirm selection", "check", later),
            ("cab_delete", "Delete", "delete", delete),
            ("cab_share", "Share", "share", later),
        )
        return action_mode_bar(
            self,
            len(chosen),
            len(media),
            actions=actions,
            overflow=tuple(overflow),
            on_close=self.end_selection,
            on_select_all=lambda: setattr(self, "selected", [m["path"] for m in media]),
        )

    def toggle_names(self) -> None:
        self.app.set_pref("display_file_names", not self.app.pref("display_file_names", False))

    def disable_bin(self) -> None:
        self.app.empty_trash()
        self.app.set_pref("use_recycle_bin", False)
        self.finish()

    def folder_view(self) -> None:
        self.app.set_pref("show_all", False)
        self.finish()
        self.wm.start_activity(self.app, MainActivity)
