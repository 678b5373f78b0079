"""Simple Music Player's main screen: tabs of playlists, folders, artists, albums and tracks.

Built from a scan of /sdcard (library.py), with the top search menu, per-tab sort dialogs,
playlists (create, rename, remove) and the sleep timer. Ids, texts and flows follow
docs/fidelity/musicplayer.md, learned from Simple-Music-Player's activity_main.xml, fragment_*.xml,
menu_main.xml, cab_playlists.xml and its Kotlin.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from pytest_mobile_agent.virtual.apps.commons.about import AboutActivity
from pytest_mobile_agent.virtual.apps.commons.action_mode import (
    SelectionActivity,
    action_mode_bar,
    drag_select,
)
from pytest_mobile_agent.virtual.apps.commons.formats import duration_text
from pytest_mobile_agent.virtual.apps.commons.menus import close_search, search_menu
from pytest_mobile_agent.virtual.apps.commons.tabs import bottom_tabs
from pytest_mobile_agent.virtual.apps.musicplayer import library as lib
from pytest_mobile_agent.virtual.apps.musicplayer.dialogs import playlist_dialog, sorting_dialog
from pytest_mobile_agent.virtual.apps.musicplayer.equalizer import EqualizerActivity
from pytest_mobile_agent.virtual.apps.musicplayer.library import TABS
from pytest_mobile_agent.virtual.apps.musicplayer.lists import (
    NO_ITEMS,
    SERVICE_DISABLED,
    item_row,
    list_page,
    query,
    track_bar,
    track_rows,
)
from pytest_mobile_agent.virtual.apps.musicplayer.settings import SettingsActivity
from pytest_mobile_agent.virtual.apps.musicplayer.store import MusicPlayerStore
from pytest_mobile_agent.virtual.apps.musicplayer.tracks import AlbumsActivity, TrackActivity, TracksActivity
from pytest_mobile_agent.virtual.ui import widgets as w
from pytest_mobile_agent.virtual.ui.app import App
from pytest_mobile_agent.virtual.ui.view import LINEAR, RELATIVE, VIEW_GROUP, View

SLEEP_CHOICES = ((300, "5 minutes"), (600, "10 minutes"), (1200, "20 minutes"), (1800, "30 minutes"), (3600, "1 hour"))


class MainActivity(SelectionActivity):
    name = ".activities.MainActivity"
    app: MusicPlayerStore

    def __init__(self, app: App, extras: dict[str, str] | None = None) -> None:
        super().__init__(app, extras)
        self.app.rescan()  # initActivity scans before the fragments load
        self.page = min(int(app.pref("last_used_view_pager_page", 0)), len(self.app.shown_tabs()) - 1)
        self.selected: list[int] = []  # playlist ids in selection mode

    @property
    def tab(self) -> str:
        tabs = self.app.shown_tabs()
        return tabs[min(self.page, len(tabs) - 1)]

    def on_resume(self) -> None:
        self.page = min(self.page, len(self.app.shown_tabs()) - 1)

    # -- screen ----------------------------------------------------------------------------
    def content(self) -> View:
        a = self.app
        tabs = a.shown_tabs()
        if self.selected:
            bar = self._action_mode()
        else:
            actions = [
                ("sort", "Sort by", "sort", self.show_sort),
                ("equalizer", "Equalizer", "equalizer", lambda: self.start(EqualizerActivity)),
            ]
            bar = search_menu(self, actions=actions, overflow=self._overflow())
        page = getattr(self, f"_{self.tab}_page")()
        holder = [w.pager(a.rid("view_pager"), [page], self.page, len(tabs), self.select_tab, weight=1)]
        holder += track_bar(self.app, self.open_track) + self._sleep_timer()
        if len(tabs) > 1:
            labels = {key: (label, icon) for key, label, icon in TABS}
            holder.append(bottom_tabs(self, [labels[t] for t in tabs], self.page, self.select_tab))
        main = View(VIEW_GROUP, id=a.rid("main_holder"), children=holder, weight=1)
        body = View(RELATIVE, id=a.rid("main_nested_scrollview"), children=[main], weight=1)
        return w.screen(bar, [body], id=a.rid("main_coordinator"))

    def _overflow(self) -> list[w.MenuItem]:
        items: list[w.MenuItem] = []
        if self.tab == "playlists":
            items += [
                ("create_new_playlist", "Create new playlist", lambda: playlist_dialog(self, self.app)),
                ("create_playlist_from_folder", "Create new playlist from folder", self.playlist_from_folder),
                ("import_playlist", "Import playlist", lambda: self.toast(SERVICE_DISABLED)),
            ]
        return items + [
            ("rescan_media", "Rescan media", self.app.rescan),
            ("sleep_timer", "Sleep timer", self.show_sleep_timer),
            ("settings", "Settings", lambda: self.start(SettingsActivity)),
            ("about", "About", lambda: self.start(AboutActivity)),
        ]

    def _rows(self, tab: str) -> list[dict]:
        a = self.app
        tracks = a.library["tracks"]
        if tab == "playlists":
            rows = [{"id": p["id"], "title": p["title"], "count": len(p["tracks"])} for p in a.library["playlists"]]
        elif tab == "tracks":
            rows = [dict(t, title=a.display_title(t)) for t in tracks]
        else:
            field = {"folders": "folder", "artists": "artist", "albums": "album", "genres": "genre"}[tab]
            rows = lib.group([t for t in tracks if t.get(field)], field)
        text = query(self)
        if text:
            rows = [
                r
                for r in rows
                if text in f"{r['title']} {r.get('artist', '') if tab in ('albums', 'tracks') else ''}".lower()
            ]
        by, desc = a.sorting(tab)
        return lib.sort_rows(rows, by, desc)

    def _playlists_page(self) -> View:
        playlists = self._rows("playlists")
        rows = [
            item_row(
                self,
                "playlist",
                [("title", r["title"]), ("tracks", lib.plural(r["count"], "Track"))],
                partial(self.tap_playlist, r["id"]),
                on_long=partial(self.tap_playlist, r["id"], True),
                selected=r["id"] in self.selected,
            )
            for r in playlists
        ]
        for row, r in zip(rows, playlists):
            row.key = str(r["id"])
        drag_select(rows, self.select_range)
        extra = None
        if not query(self):
            extra = w.text(
                self.app.rid("playlists_placeholder_2"),
                "Create new playlist",
                clickable=True,
                gravity="center",
                on_click=lambda: playlist_dialog(self, self.app),
            )
        return list_page(self, "playlists_fragment_holder", "playlists", rows, extra)

    def _simple_page(
        self,
        tab: str,
        prefix: str,
        subtitle: Callable[[dict], str],
        open_row,
        suffix: str = "tracks",
        art: bool = False,
    ) -> View:
        rows = [
            item_row(
                self,
                prefix,
                [("title", r["title"]), (suffix, subtitle(r))],
                partial(open_row, r),
                art=self.app.group_cover(r["tracks"]) if art else None,
            )
            for r in self._rows(tab)
        ]
        return list_page(self, f"{tab}_fragment_holder", tab, rows)

    def _folders_page(self) -> View:
        return self._simple_page(
            "folders",
            "folder",
            lambda r: lib.plural(r["count"], "Track"),
            lambda r: self.start(TracksActivity, kind="folder", key=r["title"]),
        )

    def _artists_page(self) -> View:
        def subtitle(r: dict) -> str:
            return f"{lib.plural(r['albums'], 'Album')}, {lib.plural(r['count'], 'Track')}"

        return self._simple_page(
            "artists",
            "artist",
            subtitle,
            lambda r: self.start(AlbumsActivity, key=r["title"]),
            suffix="albums_tracks",
            art=True,
        )

    def _albums_page(self) -> View:
        return self._simple_page(
            "albums",
            "album",
            lambda r: lib.plural(r["count"], "Track"),
            lambda r: self.start(TracksActivity, kind="album", key=r["title"]),
            art=True,
        )

    def _genres_page(self) -> View:
        return self._simple_page(
            "genres",
            "genre",
            lambda r: lib.plural(r["count"], "Track"),
            lambda r: self.start(TracksActivity, kind="genre", key=r["title"]),
            art=True,
        )

    def _tracks_page(self) -> View:
        rows = track_rows(self, self.app, self._rows("tracks"), self.open_track)
        return list_page(self, "tracks_fragment_holder", "tracks", rows)

    def _sleep_timer(self) -> list[View]:
        seconds = self.app.sleep_seconds
        if not seconds:
            return []
        rid = self.app.rid
        stop = w.image(
            rid("sleep_timer_stop"),
            "",
            "close",
            width=48,
            height=48,
            clickable=True,
            on_click=lambda: setattr(self.app, "sleep_seconds", 0),
        )
        return [
            View(
                VIEW_GROUP,
                id=rid("sleep_timer_holder"),
                orientation="h",
                height=56,
                children=[
                    w.text(rid("sleep_timer_label"), "Sleep timer", weight=1, padding=8),
                    w.text(rid("sleep_timer_value"), duration_text(seconds), padding=8),
                    stop,
                ],
            )
        ]

    # -- actions ---------------------------------------------------------------------------
    def open_track(self) -> None:
        self.start(TrackActivity)

    def select_tab(self, i: int) -> None:
        self.page = i
        self.selected = []
        close_search(self)
        self.app.set_pref("last_used_view_pager_page", i)

    def show_sort(self) -> None:
        tab = self.tab
        self.show(
            sorting_dialog(self, tab, self.app.sorting(tab), lambda by, desc, _: self.app.set_sorting(tab, by, desc))
        )

    def select_range(self, keys: list[str]) -> None:
        self.selected += [int(k) for k in keys if int(k) not in self.selected]

    def tap_playlist(self, pid: int, long: bool = False) -> None:
        if self.selected or long:
            if pid in self.selected and not long:
                self.selected.remove(pid)
            elif pid not in self.selected:
                self.selected.append(pid)
        else:
            self.start(TracksActivity, kind="playlist", key=str(pid))

    def _action_mode(self) -> View:
        a = self.app
        total = len(a.library["playlists"])
        actions = [("cab_rename", "Rename", "edit", self.rename_selected)] if len(self.selected) == 1 else []
        actions += [
            ("cab_delete", "Delete", "delete", self.remove_selected),
            ("cab_select_all", "Select all", "check", self.select_all),
        ]
        return action_mode_bar(
            self, len(self.selected), total, actions=actions, on_close=self.end_selection, on_select_all=self.select_all
        )

    def select_all(self) -> None:
        self.selected = [p["id"] for p in self.app.library["playlists"]]

    def rename_selected(self) -> None:
        playlist = self.app.playlist(self.selected[0])
        self.selected = []
        playlist_dialog(self, self.app, playlist)

    def remove_selected(self) -> None:
        rid = self.app.rid
        state = {"files": False}

        def body() -> list[View]:
            toggle = lambda: state.__setitem__("files", not state["files"])
            box = w.checkbox(rid("remove_playlist_checkbox"), "Delete the files too", state["files"], toggle, padding=0)
            text = "This will only remove the selected playlists. The actual files will not be deleted."
            return [
                View(
                    LINEAR,
                    id=rid("remove_playlist_dialog_holder"),
                    padding=8,
                    children=[w.text(rid("remove_playlist_description"), text), box],
                )
            ]

        def ok() -> None:
            self.app.remove_playlists(list(self.selected), state["files"])
            self.selected = []

        self.show(w.alert(self, "Remove playlist", body, positive=("OK", ok), negative=("Cancel", lambda: None)))

    def playlist_from_folder(self) -> None:
        folders = sorted({t["path"].rsplit("/", 1)[0] for t in self.app.library["tracks"]})
        if not folders:
            self.toast(NO_ITEMS)
            return

        def picked(i: int) -> None:
            paths = [t["path"] for t in self.app.library["tracks"] if t["path"].rsplit("/", 1)[0] == folders[i]]
            playlist_dialog(self, self.app, None, paths)

        self.show(w.radio_dialog(self, [f.rsplit("/", 1)[-1] for f in folders], -1, picked, "Select a folder"))

    def show_sleep_timer(self) -> None:
        labels = [label for _, label in SLEEP_CHOICES] + ["Custom"]

        def picked(i: int) -> None:
            self.app.sleep_seconds = SLEEP_CHOICES[i][0] if i < len(SLEEP_CHOICES) else 0

        self.show(w.radio_dialog(self, labels, -1, picked))
