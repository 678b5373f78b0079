"""Simple Music Player's track screens: the tracks of a playlist, folder, album or genre, an
artist's albums, and the player (activity_tracks.xml, activity_albums.xml, activity_track.xml,
menu_playlist.xml and their Kotlin)."""

from __future__ import annotations

from functools import partial

from pytest_mobile_agent.virtual.apps.musicplayer import library as lib
from pytest_mobile_agent.virtual.apps.musicplayer.dialogs import sorting_dialog
from pytest_mobile_agent.virtual.apps.musicplayer.lists import (
    SERVICE_DISABLED,
    item_row,
    list_page,
    track_bar,
    track_rows,
)
from pytest_mobile_agent.virtual.apps.musicplayer.store import MusicPlayerStore
from pytest_mobile_agent.virtual.ui import widgets as w
from pytest_mobile_agent.virtual.ui.app import Activity, App
from pytest_mobile_agent.virtual.ui.view import View


class TracksActivity(Activity):
    """The tracks of a playlist, folder, album or genre (activity_tracks.xml, menu_playlist.xml)."""

    name = ".activities.TracksActivity"
    app: MusicPlayerStore

    def _tracks(self) -> tuple[str, list[dict]]:
        a, kind, key = self.app, self.extras.get("kind", ""), self.extras.get("key", "")
        if kind == "playlist":
            playlist = a.playlist(int(key)) or {"title": "", "tracks": []}
            tracks = [t for p in playlist["tracks"] if (t := a.track(p))]
            return playlist["title"], tracks
        field = {"folder": "folder", "album": "album", "genre": "genre"}.get(kind, "folder")
        return key, [t for t in a.library["tracks"] if t.get(field) == key]

    def content(self) -> View:
        a = self.app
        title, tracks = self._tracks()
        by, desc = a.sorting(self._sort_key())
        tracks = lib.sort_rows(tracks, by, desc)
        overflow: list[w.MenuItem] = []
        if self.extras.get("kind") == "playlist":
            overflow = [
                ("add_file_to_playlist", "Add file to playlist", lambda: self.toast(SERVICE_DISABLED)),
                ("add_folder_to_playlist", "Add folder to playlist", lambda: self.toast(SERVICE_DISABLED)),
                ("export_playlist", "Export playlist", lambda: self.toast(SERVICE_DISABLED)),
            ]
        bar = w.toolbar(
            self,
            "tracks_toolbar",
            title,
            actions=[("sort", "Sort by", "sort", self.show_sort)],
            overflow=overflow,
            back=True,
        )
        extra = None
        if self.extras.get("kind") == "playlist":
            extra = w.text(
                a.rid("tracks_placeholder_2"),
                "Add folder to playlist",
                clickable=True,
                gravity="center",
                on_click=lambda: self.toast(SERVICE_DISABLED),
            )
        page = list_page(self, "tracks_holder", "tracks", track_rows(self, self.app, tracks), extra)
        return w.screen(bar, [page, *track_bar(self.app)], id=a.rid("tracks_coordinator"))

    def _sort_key(self) -> str:
        custom = f"tracks_{self.extras.get('kind')}_{self.extras.get('key')}"
        return custom if self.app.pref(f"{custom}_sorting") else "tracks"

    def show_sort(self) -> None:
        kind = self.extras.get("kind")
        label = "Use for this playlist only" if kind == "playlist" else "Use for this folder only"
        custom = f"tracks_{kind}_{self.extras.get('key')}"

        def ok(by: str, desc: bool, only: bool) -> None:
            self.app.set_sorting(custom if only else "tracks", by, desc)
            if not only:
                self.app.set_pref(f"{custom}_sorting", None)

        only = self._sort_key() != "tracks"
        dialog = sorting_dialog(
            self,
            "tracks",
            self.app.sorting(self._sort_key()),
            ok,
            label if kind in ("playlist", "folder") else "",
            only,
        )
        self.show(dialog)


class AlbumsActivity(Activity):
    """An artist's albums (activity_albums.xml); an album opens its tracks."""

    name = ".activities.AlbumsActivity"
    app: MusicPlayerStore

    def content(self) -> View:
        a = self.app
        artist = self.extras.get("key", "")
        albums = lib.group([t for t in a.library["tracks"] if t["artist"] == artist], "album")
        rows = [
            item_row(
                self,
                "album",
                [("title", r["title"]), ("tracks", lib.plural(r["count"], "Track"))],
                partial(self.start, TracksActivity, kind="album", key=r["title"]),
                image=True,
                holder=True,
            )
            for r in lib.sort_rows(albums, *a.sorting("albums"))
        ]
        bar = w.toolbar(self, "albums_toolbar", artist, back=True)
        return w.screen(
            bar,
            [list_page(self, "albums_holder", "albums", rows), *track_bar(self.app)],
            id=a.rid("albums_coordinator"),
        )


class TrackActivity(Activity):
    """The player screen (activity_track.xml). A VIEW of an audio file from another app lands
    here and plays it (initFromIntent); a file outside the library still plays, by its name."""

    name = ".activities.TrackActivity"
    app: MusicPlayerStore

    def __init__(self, app: App, extras: dict[str, str] | None = None) -> None:
        super().__init__(app, extras)
        if self.extras.get("path"):
            self.app.play(self.extras["path"])

    def content(self) -> View:
        a = self.app
        track = a.track(a.current_track)
        host = a.device.fs.host(a.current_track)
        if track is None and host.is_file():  # not scanned yet: read as MediaStore would
            track = lib.read_track(host, a.current_track)
        title = a.display_title(track) if track else a.current_track.rsplit("/", 1)[-1]
        artist = track["artist"] if track and track["artist"] != lib.UNKNOWN else ""
        rid = a.rid
        bar = w.toolbar(self, "activity_track_toolbar", "", back=True)
        controls = w.row(
            [
                w.icon_button(rid("activity_track_previous"), "Previous", "skip_previous", lambda: None, weight=1),
                w.icon_button(
                    rid("activity_track_play_pause"),
                    "Pause" if a.playing else "Play",
                    "pause" if a.playing else "play",
                    a.toggle_play,
                    weight=1,
                ),
                w.icon_button(rid("activity_track_next"), "Next", "skip_next", lambda: None, weight=1),
            ]
        )
        body = [
            w.image(rid("activity_track_image"), "", "music", height=240),
            w.text(rid("activity_track_title"), title, size=20, padding=12, gravity="center"),
            w.text(rid("activity_track_artist"), artist, size=16, padding=4, gravity="center"),
            controls,
        ]
        return w.screen(bar, [w.column(body, id=rid("activity_track_holder"))])
