"""Simple Music Player's track screens: the tracks of a playlist, folder, album or genre, an
artist's albums, and the player (activity_tracks.xml, activity_albums.xml, activity_track.xml,
menu_playlist.xml and their Kotlin)."""

from __future__ import annotations

from functools import partial

from pytest_mobile_agent.virtual.apps.commons.formats import duration_text
from pytest_mobile_agent.virtual.apps.musicplayer import library as lib
from pytest_mobile_agent.virtual.apps.musicplayer.dialogs import (
    playlist_dialog,
    sorting_dialog,
    speed_sheet,
    speed_text,
)
from pytest_mobile_agent.virtual.apps.musicplayer.lists import (
    MEDIUM_ALPHA,
    SERVICE_DISABLED,
    cover,
    item_row,
    list_page,
    track_bar,
    track_rows,
)
from pytest_mobile_agent.virtual.apps.musicplayer.store import PLAYBACK_SETTINGS, MusicPlayerStore
from pytest_mobile_agent.virtual.ui import widgets as w
from pytest_mobile_agent.virtual.ui.app import Activity, App
from pytest_mobile_agent.virtual.ui.view import IMAGE, LINEAR, RELATIVE, SCROLL, TEXT, VIEW_GROUP, View

SEEK_INTERVAL_S = 10  # a tap on the current or total time seeks back or forward this much


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
        rows = track_rows(self, self.app, tracks, lambda: self.start(TrackActivity))
        page = list_page(self, "tracks_holder", "tracks", rows, extra)
        return w.screen(
            bar, [page, *track_bar(self.app, lambda: self.start(TrackActivity))], id=a.rid("tracks_coordinator")
        )

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
                art=a.group_cover(r["tracks"]),
            )
            for r in lib.sort_rows(albums, *a.sorting("albums"))
        ]
        bar = w.toolbar(self, "albums_toolbar", artist, back=True)
        return w.screen(
            bar,
            [list_page(self, "albums_holder", "albums", rows), *track_bar(self.app, lambda: self.start(TrackActivity))],
            id=a.rid("albums_coordinator"),
        )


class TrackActivity(Activity):
    """The player screen (activity_track.xml, TrackActivity.kt): the cover, the seekbar with the
    current and total times and the speed, title and artist, shuffle, previous, play/pause,
    next and the repeat setting, and the "Next:" row. A VIEW of an audio file from another app
    lands here and plays it alone (initThirdPartyIntent: no queue controls, no "Next:" row); a
    file outside the library still plays, by its name."""

    name = ".activities.TrackActivity"
    app: MusicPlayerStore

    def __init__(self, app: App, extras: dict[str, str] | None = None) -> None:
        super().__init__(app, extras)
        self.third_party = bool(self.extras.get("path"))
        if self.third_party:
            path = self.extras["path"]
            host = self.app.device.fs.host(path)
            if host.is_file():  # getTrackFromUri reads the file itself, whatever the last scan found
                self.app.outside[path] = lib.read_track(host, path)
            self.app.play(path)

    def content(self) -> View:
        a, rid = self.app, self.app.rid
        position = int(a.position())  # first: the player may have moved on to another track
        track = a.track(a.current_track)
        title = a.display_title(track) if track else a.current_track.rsplit("/", 1)[-1]
        artist = track["artist"] if track else ""
        duration = a.duration()
        # getCoverArtHeight: top_art_height, at most half the screen
        screen_dp = getattr(self.wm, "height", 0) / max(getattr(self.wm, "scale", 1.0), 0.1)
        art_height = min(400.0, screen_dp / 2) if screen_dp else 400.0
        back = w.icon_button("", "Back", "back", self.finish)
        bar = View(VIEW_GROUP, id=rid("activity_track_toolbar"), orientation="h", height=56, children=[back])
        top = View(
            VIEW_GROUP,
            orientation="stack",
            height=art_height,
            children=[
                cover(rid("activity_track_image"), a.cover(a.current_track), 0, height=art_height, desc="Album"),
                View(IMAGE, id=rid("activity_track_top_shadow"), height=48),
                View(LINEAR, id=rid("activity_track_appbar"), children=[bar], height=56),
            ],
        )
        seekbar = View(
            "android.widget.SeekBar",
            id=rid("activity_track_progressbar"),
            clickable=True,
            focusable=True,
            height=40,
            padding=16,
            kind="seekbar",
            canvas=(position, duration),
            on_touch=lambda f, _: a.seek(round(f * a.duration())),
        )
        speed_icon = "directions_walk" if a.speed < 1 else "directions_run"
        speed = View(
            VIEW_GROUP,
            orientation="h",
            gravity="center",
            width=80,
            children=[
                w.image(rid("activity_track_speed_icon"), "", speed_icon, width=24, height=48),
                w.text(rid("activity_track_speed"), f"{speed_text(a.speed)}x", size=16, padding=12),
            ],
        )
        times = View(
            VIEW_GROUP,
            orientation="stack",
            height=48,
            children=[
                self._time("activity_track_progress_current", duration_text(position), "start", -SEEK_INTERVAL_S),
                speed,
                w.image(
                    rid("activity_track_speed_click_area"),
                    width=50,
                    height=50,
                    gravity="center",
                    clickable=True,
                    kind="",
                    on_click=self.show_speed,
                ),
                self._time("activity_track_progress_max", duration_text(duration), "end", SEEK_INTERVAL_S),
            ],
        )
        labels = [
            w.text(rid("activity_track_title"), title, size=22, padding=16, gravity="center"),
            View(
                TEXT,
                id=rid("activity_track_artist"),
                text=artist,
                text_size=21,
                padding=8,
                gravity="center",
                alpha=0.8,
                kind="text",
            ),
        ]
        body = [top, seekbar, times, *labels, self._controls(), View(weight=1), *self._next_row()]
        # fillViewport: the holder fills the screen, the "Next:" row at its bottom
        holder = View(VIEW_GROUP, id=rid("activity_track_holder"), children=body, weight=1)
        return View(SCROLL, id=rid("activity_track_Scrollview"), children=[holder], weight=1)

    def _time(self, name: str, value: str, side: str, step: int) -> View:
        a = self.app
        return w.text(
            a.rid(name),
            value,
            size=14,
            padding=12,
            width=72,
            gravity=side,
            clickable=True,
            on_click=lambda: a.seek(a.position() + step),
        )

    def _controls(self) -> View:
        a, rid = self.app, self.app.rid
        setting, icon, _ = PLAYBACK_SETTINGS[a.playback_setting]

        def control(name: str, desc: str, glyph: str, action, **kw) -> View:
            if self.third_party and name != "activity_track_play_pause":
                return View(weight=1, height=36)  # beInvisible: its room kept, nothing shown
            return w.image(
                rid(name), desc, glyph, weight=1, height=36, clickable=True, focusable=True, on_click=action, **kw
            )

        def shuffle() -> None:
            self.toast("Shuffle enabled" if a.toggle_shuffle() else "Shuffle disabled")

        return View(
            LINEAR,
            orientation="h",
            children=[
                control(
                    "activity_track_toggle_shuffle",
                    "Disable shuffle" if a.shuffle else "Enable shuffle",
                    "shuffle",
                    shuffle,
                    tint=w.PRIMARY if a.shuffle else "",
                    alpha=1.0 if a.shuffle else MEDIUM_ALPHA,
                ),
                control("activity_track_previous", "Previous", "skip_previous", lambda: a.skip(-1)),
                control("activity_track_play_pause", "Play / Pause", "pause" if a.playing else "play", a.toggle_play),
                control("activity_track_next", "Next", "skip_next", lambda: a.skip(1)),
                control(
                    "activity_track_playback_setting",
                    # contentDescriptionStringRes: what a tap switches to
                    PLAYBACK_SETTINGS[(a.playback_setting + 1) % len(PLAYBACK_SETTINGS)][2],
                    icon,
                    lambda: self.toast(a.cycle_playback_setting()),
                    tint="" if setting == "repeat_off" else w.PRIMARY,
                    alpha=MEDIUM_ALPHA if setting == "repeat_off" else 1.0,
                ),
            ],
        )

    def _next_row(self) -> list[View]:
        """setupNextTrackInfo: "Next: title • artist" with its cover; gone without a next track."""
        a, rid = self.app, self.app.rid
        path = None if self.third_party else a.next_track()
        track = a.track(path) if path else None
        if track is None:
            return []
        artist = track["artist"]
        by = f" • {artist}" if artist.strip() and artist != lib.UNKNOWN else ""
        label = f"{a.tr('Next:')} {a.display_title(track)}{by}"  # next_track, in the device's locale
        return [
            View(
                RELATIVE,
                id=rid("next_track_holder"),
                orientation="h",
                padding=12,
                clickable=True,
                on_click=lambda: self.start(QueueActivity),
                children=[
                    cover(rid("next_track_image"), a.cover(track["path"]), 4, width=40, height=40),
                    w.text(rid("next_track_label"), label, size=16, weight=1, padding=12),
                ],
            )
        ]

    def show_speed(self) -> None:
        self.show(speed_sheet(self, self.app))


class QueueActivity(Activity):
    """The queue (activity_queue.xml, item_track_queue.xml, menu_queue.xml), opened from the
    track screen's "Next:" row: the queue in playing order, each row a cover, the title and
    the duration; a tap plays that track. Overflow: "Create playlist from queue"."""

    name = ".activities.QueueActivity"
    label = "Track queue"
    app: MusicPlayerStore

    def content(self) -> View:
        a, rid = self.app, self.app.rid
        overflow = [("create_playlist_from_queue", "Create playlist from queue", self.playlist_from_queue)]
        bar = w.toolbar(self, "queue_toolbar", "Track queue", overflow=overflow, back=True)
        rows = []
        for path in a.order():
            track = a.track(path)
            if track is None:
                continue
            rows.append(
                View(
                    LINEAR,
                    id=rid("track_queue_frame"),
                    orientation="h",
                    padding=12,
                    clickable=True,
                    long_clickable=True,
                    focusable=True,
                    kind="row",
                    on_click=partial(a.jump, path),
                    on_long_click=lambda: None,
                    children=[
                        cover(rid("track_queue_image"), a.cover(path), 4, width=40, height=40),
                        w.text(rid("track_queue_title"), a.display_title(track), weight=1, padding=12),
                        w.text(rid("track_queue_duration"), duration_text(track["duration"]), padding=12),
                    ],
                )
            )
        page = list_page(self, "queue_holder", "queue", rows)
        return w.screen(bar, [page], id=rid("queue_coordinator"))

    def playlist_from_queue(self) -> None:
        playlist_dialog(self, self.app, None, self.app.order())
