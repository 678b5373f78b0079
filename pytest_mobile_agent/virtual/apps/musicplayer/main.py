"""Simple Music Player (com.simplemobiletools.musicplayer) 5.18.3, F-Droid flavour.

Tabs of playlists, folders, artists, albums and tracks built from a scan of /sdcard (see
musicplayer_library.py), the top search menu, per-tab sort dialogs, playlists (create, rename,
remove), the equalizer with the platform presets, sleep timer, settings, About/FAQ.
Ids, texts and flows follow docs/fidelity/musicplayer.md, learned from Simple-Music-Player's
activity_main.xml, fragment_*.xml, item_*.xml, dialog_change_sorting.xml, dialog_new_playlist.xml,
activity_equalizer.xml, activity_settings.xml, menu_main.xml, cab_playlists.xml and its Kotlin.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pytest_mobile_agent.virtual.apps.commons.about import COMMONS_FAQ, SHARED_ACTIVITIES, AboutActivity
from pytest_mobile_agent.virtual.apps.commons.action_mode import action_mode_bar, end_selection_or_search
from pytest_mobile_agent.virtual.apps.commons.customization import CustomizationActivity
from pytest_mobile_agent.virtual.apps.commons.formats import duration_text
from pytest_mobile_agent.virtual.apps.commons.menus import close_search, search_menu
from pytest_mobile_agent.virtual.apps.commons.tabs import bottom_tabs
from pytest_mobile_agent.virtual.apps.musicplayer import library as lib
from pytest_mobile_agent.virtual.apps.musicplayer.library import DEFAULT_TABS, TABS
from pytest_mobile_agent.virtual.apps.musicplayer.screens import (
    NO_ITEMS,
    SERVICE_DISABLED,
    AlbumsActivity,
    EqualizerActivity,
    ExcludedFoldersActivity,
    SettingsActivity,
    TrackActivity,
    TracksActivity,
    item_row,
    list_page,
    playlist_dialog,
    query,
    sorting_dialog,
    track_bar,
    track_rows,
)
from pytest_mobile_agent.virtual.ui import widgets as w
from pytest_mobile_agent.virtual.ui.app import Activity, App
from pytest_mobile_agent.virtual.ui.view import LINEAR, RELATIVE, VIEW_GROUP, View

PKG = "com.simplemobiletools.musicplayer"
SLEEP_CHOICES = ((300, "5 minutes"), (600, "10 minutes"), (1200, "20 minutes"), (1800, "30 minutes"), (3600, "1 hour"))


class MainActivity(Activity):
    name = ".activities.MainActivity"

    def __init__(self, app: App, extras: dict[str, str] | None = None) -> None:
        super().__init__(app, extras)
        self.player.rescan()  # initActivity scans before the fragments load
        self.page = min(int(app.pref("last_used_view_pager_page", 0)), len(self.player.shown_tabs()) - 1)
        self.selected: list[int] = []  # playlist ids in selection mode

    @property
    def player(self) -> MusicPlayer:
        return self.app  # type: ignore[return-value]

    @property
    def tab(self) -> str:
        tabs = self.player.shown_tabs()
        return tabs[min(self.page, len(tabs) - 1)]

    def on_back(self) -> bool:
        return end_selection_or_search(self)

    def on_resume(self) -> None:
        self.page = min(self.page, len(self.player.shown_tabs()) - 1)

    # -- screen ----------------------------------------------------------------------------
    def content(self) -> View:
        a = self.player
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
        holder = [View("androidx.viewpager.widget.ViewPager", id=a.rid("view_pager"), children=[page], weight=1)]
        holder += track_bar(self) + self._sleep_timer()
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
                ("create_new_playlist", "Create new playlist", lambda: playlist_dialog(self)),
                ("create_playlist_from_folder", "Create new playlist from folder", self.playlist_from_folder),
                ("import_playlist", "Import playlist", lambda: self.toast(SERVICE_DISABLED)),
            ]
        return items + [
            ("rescan_media", "Rescan media", self.player.rescan),
            ("sleep_timer", "Sleep timer", self.show_sleep_timer),
            ("settings", "Settings", lambda: self.start(SettingsActivity)),
            ("about", "About", lambda: self.start(AboutActivity)),
        ]

    def _rows(self, tab: str) -> list[dict]:
        a = self.player
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
        rows = [
            item_row(
                self,
                "playlist",
                [("title", r["title"]), ("tracks", lib.plural(r["count"], "Track"))],
                lambda r=r: self.tap_playlist(r["id"]),
                on_long=lambda r=r: self.tap_playlist(r["id"], True),
                selected=r["id"] in self.selected,
            )
            for r in self._rows("playlists")
        ]
        extra = None
        if not query(self):
            extra = w.text(
                self.app.rid("playlists_placeholder_2"),
                "Create new playlist",
                clickable=True,
                gravity="center",
                on_click=lambda: playlist_dialog(self),
            )
        return list_page(self, "playlists_fragment_holder", "playlists", rows, extra)

    def _simple_page(self, tab: str, prefix: str, subtitle: Callable[[dict], str], open_row, **kw) -> View:
        suffix = kw.pop("suffix", "tracks")
        rows = [
            item_row(self, prefix, [("title", r["title"]), (suffix, subtitle(r))], lambda r=r: open_row(r), **kw)
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
            image=True,
            holder=True,
            suffix="albums_tracks",
        )

    def _albums_page(self) -> View:
        return self._simple_page(
            "albums",
            "album",
            lambda r: lib.plural(r["count"], "Track"),
            lambda r: self.start(TracksActivity, kind="album", key=r["title"]),
            image=True,
            holder=True,
        )

    def _genres_page(self) -> View:
        return self._simple_page(
            "genres",
            "genre",
            lambda r: lib.plural(r["count"], "Track"),
            lambda r: self.start(TracksActivity, kind="genre", key=r["title"]),
            image=True,
            holder=True,
        )

    def _tracks_page(self) -> View:
        return list_page(self, "tracks_fragment_holder", "tracks", track_rows(self, self._rows("tracks")))

    def _sleep_timer(self) -> list[View]:
        seconds = self.player.sleep_seconds
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
            on_click=lambda: setattr(self.player, "sleep_seconds", 0),
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
    def select_tab(self, i: int) -> None:
        self.page = i
        self.selected = []
        close_search(self)
        self.app.set_pref("last_used_view_pager_page", i)

    def show_sort(self) -> None:
        tab = self.tab
        self.show(
            sorting_dialog(
                self, tab, self.player.sorting(tab), lambda by, desc, _: self.player.set_sorting(tab, by, desc)
            )
        )

    def tap_playlist(self, pid: int, long: bool = False) -> None:
        if self.selected or long:
            if pid in self.selected and not long:
                self.selected.remove(pid)
            elif pid not in self.selected:
                self.selected.append(pid)
        else:
            self.start(TracksActivity, kind="playlist", key=str(pid))

    def _action_mode(self) -> View:
        a = self.player
        total = len(a.library["playlists"])
        actions = [("cab_rename", "Rename", "edit", self.rename_selected)] if len(self.selected) == 1 else []
        actions += [
            ("cab_delete", "Delete", "delete", self.remove_selected),
            ("cab_select_all", "Select all", "check", self.select_all),
        ]
        return action_mode_bar(
            self, len(self.selected), total, actions=actions, on_close=self.on_back, on_select_all=self.select_all
        )

    def select_all(self) -> None:
        self.selected = [p["id"] for p in self.player.library["playlists"]]

    def rename_selected(self) -> None:
        playlist = self.player.playlist(self.selected[0])
        self.selected = []
        playlist_dialog(self, playlist)

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
            self.player.remove_playlists(list(self.selected), state["files"])
            self.selected = []

        self.show(w.alert(self, "Remove playlist", body, positive=("OK", ok), negative=("Cancel", lambda: None)))

    def playlist_from_folder(self) -> None:
        folders = sorted({t["path"].rsplit("/", 1)[0] for t in self.player.library["tracks"]})
        if not folders:
            self.toast(NO_ITEMS)
            return

        def picked(i: int) -> None:
            paths = [t["path"] for t in self.player.library["tracks"] if t["path"].rsplit("/", 1)[0] == folders[i]]
            playlist_dialog(self, None, paths)

        self.show(w.radio_dialog(self, [f.rsplit("/", 1)[-1] for f in folders], -1, picked, "Select a folder"))

    def show_sleep_timer(self) -> None:
        labels = [label for _, label in SLEEP_CHOICES] + ["Custom"]

        def picked(i: int) -> None:
            self.player.sleep_seconds = SLEEP_CHOICES[i][0] if i < len(SLEEP_CHOICES) else 0

        self.show(w.radio_dialog(self, labels, -1, picked))


class MusicPlayer(App):
    package = PKG
    label = "Music Player"
    icon = "music"
    icon_color = "#f57c00"
    version_code = 119
    version_name = "5.18.3"
    main_activity = MainActivity
    activities = (
        TrackActivity,
        TracksActivity,
        AlbumsActivity,
        EqualizerActivity,
        SettingsActivity,
        ExcludedFoldersActivity,
        CustomizationActivity,
        *SHARED_ACTIVITIES,
    )
    faq = (
        (
            "How can I fast-forward songs?",
            "You can click on the current or max duration texts near the seekbar, that will move the song either "
            "backward, or forward.",
        ),
        COMMONS_FAQ[1],
        COMMONS_FAQ[4],
        COMMONS_FAQ[9],
    )

    def __init__(self, device) -> None:
        super().__init__(device)
        self.library: dict[str, Any] = self.load("library", {"tracks": [], "playlists": []})
        self.current_track = ""
        self.playing = False
        self.sleep_seconds = 0

    def save_library(self) -> None:
        self.save("library", self.library)

    def rescan(self) -> None:
        """SimpleMediaScanner.scan: tracks from storage; "All tracks" is created once, then kept full."""
        tracks = lib.scan(self.device)
        paths = [t["path"] for t in tracks]
        playlists = self.library["playlists"]
        if not self.pref("was_all_tracks_playlist_created", False):
            playlists.insert(0, {"id": lib.ALL_TRACKS_ID, "title": self.tr(lib.ALL_TRACKS), "tracks": []})
            self.set_pref("was_all_tracks_playlist_created", True)
        for p in playlists:
            p["tracks"] = list(paths) if p["id"] == lib.ALL_TRACKS_ID else [x for x in p["tracks"] if x in paths]
        self.library["tracks"] = tracks
        self.save_library()

    def shown_tabs(self) -> list[str]:
        return list(self.pref("show_tabs", DEFAULT_TABS)) or DEFAULT_TABS

    def sorting(self, key: str) -> tuple[str, bool]:
        by, desc = self.pref(f"{key}_sorting") or ("title", False)
        return by, bool(desc)

    def set_sorting(self, key: str, by: str, desc: bool) -> None:
        self.set_pref(f"{key}_sorting", [by, desc])

    def playlist(self, pid: int) -> dict | None:
        return next((p for p in self.library["playlists"] if p["id"] == pid), None)

    def track(self, path: str) -> dict | None:
        return next((t for t in self.library["tracks"] if t["path"] == path), None)

    def display_title(self, track: dict) -> str:
        """Track.getProperTitle with the "Show filename as song title" setting."""
        name = track["path"].rsplit("/", 1)[-1]
        mode = int(self.pref("show_filename", 1))
        return name if mode == 2 or (mode == 1 and track["title"] == lib.UNKNOWN) else track["title"]

    def play(self, path: str) -> None:
        self.current_track, self.playing = path, True

    def toggle_play(self) -> None:
        self.playing = not self.playing

    def remove_playlists(self, ids: list[int], delete_files: bool) -> None:
        doomed = [p for p in self.library["playlists"] if p["id"] in ids]
        if delete_files:
            for path in {t for p in doomed for t in p["tracks"]}:
                self.device.fs.host(path).unlink(missing_ok=True)
        self.library["playlists"] = [p for p in self.library["playlists"] if p["id"] not in ids]
        self.save_library()
        if delete_files:
            self.rescan()


APPS = (MusicPlayer,)
