"""Simple Music Player's data: the media library of the last scan with its playlists, the sort
orders, and the player: its queue, the track being played and where in it (kept while the app
runs), with shuffle, repeat and speed kept in the prefs as the real Config keeps them."""

from __future__ import annotations

import random
from typing import Any

from pytest_mobile_agent.virtual.apps.musicplayer import library as lib
from pytest_mobile_agent.virtual.apps.musicplayer.library import DEFAULT_TABS
from pytest_mobile_agent.virtual.ui.app import App, Context

PKG = "com.simplemobiletools.musicplayer"
# PlaybackSetting, in its order: (name, icon, its description, toasted when it is picked).
PLAYBACK_SETTINGS = (
    ("repeat_off", "repeat", "Repeat off"),
    ("repeat_playlist", "repeat", "Repeat all"),
    ("repeat_track", "repeat_one", "Repeat current song"),
    ("stop_after_current", "looks_one", "Stop playback after current song"),
)
MAX_TRANSITIONS = 1000  # tracks a long-running clock may play through between two looks
RESTART_PREVIOUS_S = 3  # Player.seekToPrevious: past this, "previous" restarts the track


class MusicPlayerStore(App):
    """The app object as the screens use it: its prefs, library and player state."""

    package = PKG

    def __init__(self, device: Context) -> None:
        super().__init__(device)
        self.library: dict[str, Any] = self.load("library", {"tracks": [], "playlists": []})
        self.queue: list[str] = []  # the list a track was started from, as shown
        self.current_track = ""
        self.playing = False
        self._position = 0.0  # seconds into the track at `_since` (device clock)
        self._since = self.device.clock.now()
        self.sleep_seconds = 0
        self._covers: dict[tuple[str, int], bytes] = {}
        self.outside: dict[str, dict] = {}  # files played by a VIEW, as read then (not from the last scan)

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
        self.outside = {p: t for p, t in self.outside.items() if p not in paths}  # the scan has them now
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
        if path in self.outside:
            return self.outside[path]
        return next((t for t in self.library["tracks"] if t["path"] == path), None)

    def display_title(self, track: dict) -> str:
        """Track.getProperTitle with the "Show filename as song title" setting."""
        name = track["path"].rsplit("/", 1)[-1]
        mode = int(self.pref("show_filename", 1))
        return name if mode == 2 or (mode == 1 and track["title"] == lib.UNKNOWN) else track["title"]

    # -- the player (PlaybackService's ExoPlayer, as the track screen drives it) ---------------
    def play(self, path: str, queue: list[str] | None = None) -> None:
        """prepareUsingTracks: `queue` (or the track alone) from `path`, playing from 0."""
        self.queue = list(queue) if queue else [path]
        self._load(path)
        self.playing = True

    def _load(self, path: str) -> None:
        self.current_track, self._position, self._since = path, 0.0, self.device.clock.now()

    def toggle_play(self) -> None:
        self._position, self._since = self.position(), self.device.clock.now()
        self.playing = not self.playing

    @property
    def shuffle(self) -> bool:
        return bool(self.pref("shuffle", True))  # Config.isShuffleEnabled defaults to true

    @property
    def playback_setting(self) -> int:
        return int(self.pref("playback_setting", 0))

    @property
    def speed(self) -> float:
        return float(self.pref("playback_speed", 1.0))

    def duration(self) -> int:
        track = self.track(self.current_track)
        return int(track["duration"]) if track else 0

    def position(self) -> float:
        """Seconds played: it moves on with the device clock at the playback speed while playing
        (a fixed clock holds it still); past a track's end the player goes on as its repeat
        setting says (`_track_ended`)."""
        for _ in range(MAX_TRANSITIONS):
            pos = self._position
            if self.playing:
                pos += (self.device.clock.now() - self._since).total_seconds() * self.speed
            end = self.duration()
            if not end:  # no length read from the file (not an MPEG stream): it stays at its start
                return 0.0
            if pos < end or not self.playing:
                return min(max(pos, 0.0), float(end))
            self._track_ended(pos - end)
        return self._position

    def _track_ended(self, over: float) -> None:
        """ExoPlayer at the end of a track, `over` seconds ago (in track time): Repeat current
        song plays it again; Stop playback after current song and the end of the queue without
        Repeat all stop there, paused at the end; otherwise the next track plays on."""
        now, setting = self.device.clock.now(), PLAYBACK_SETTINGS[self.playback_setting][0]
        following = self.next_track()
        if setting == "repeat_track":
            self._position, self._since = over % max(self.duration(), 1), now
        elif setting == "stop_after_current" or following is None:
            self._position, self._since, self.playing = float(self.duration()), now, False
        else:
            self._load(following)
            self._position = over

    def seek(self, seconds: float) -> None:
        end = self.duration()
        self._position = min(max(seconds, 0.0), float(end)) if end else max(seconds, 0.0)
        self._since = self.device.clock.now()

    def order(self) -> list[str]:
        """The queue in playing order: with shuffle on, one fixed shuffled order per queue
        (ExoPlayer's shuffle order is random; a seeded one keeps runs repeatable)."""
        if not self.shuffle:
            return list(self.queue)
        order = list(self.queue)
        random.Random("\n".join(self.queue)).shuffle(order)
        return order

    def next_track(self) -> str | None:
        """Player.nextMediaItem: the next in order; past the end only when repeating all."""
        order = self.order()
        if self.current_track not in order:
            return None
        i = order.index(self.current_track) + 1
        if i < len(order):
            return order[i]
        return order[0] if self.playback_setting == 1 and len(order) > 1 else None

    def skip(self, step: int) -> None:
        """forceSeekToNext / forceSeekToPrevious: past either end it wraps whatever the repeat
        mode; "previous" more than 3 s into a track restarts it."""
        order = self.order()
        if self.current_track not in order:
            return
        if step < 0 and self.position() > RESTART_PREVIOUS_S:
            self.seek(0)
            return
        self._load(order[(order.index(self.current_track) + step) % len(order)])

    def jump(self, path: str) -> None:
        """QueueAdapter's click: seekTo that track, from its start, playing."""
        self._load(path)
        self.playing = True

    def toggle_shuffle(self) -> bool:
        self.set_pref("shuffle", not self.shuffle)
        return self.shuffle

    def cycle_playback_setting(self) -> str:
        """PlaybackSetting.nextPlaybackOption; the new setting's description (the toast)."""
        self.set_pref("playback_setting", (self.playback_setting + 1) % len(PLAYBACK_SETTINGS))
        return PLAYBACK_SETTINGS[self.playback_setting][2]

    def set_speed(self, speed: float, progress: int) -> None:
        self._position, self._since = self.position(), self.device.clock.now()
        self.set_pref("playback_speed", speed)
        self.set_pref("playback_speed_progress", progress)

    def group_cover(self, tracks: list[dict]) -> bytes:
        """getAlbumCoverArt / getArtistCoverArt: the first of the group's tracks with a cover."""
        return next((art for t in tracks if (art := self.cover(t["path"]))), b"")

    def cover(self, path: str) -> bytes:
        """The embedded cover art of a track (getTrackCoverArt), or b"" for the placeholder."""
        track = self.track(path)
        art = track.get("art") if track else None
        if not art:
            return b""
        key = (path, track["date_added"] if track else 0)
        if key not in self._covers:
            try:
                with self.device.fs.host(path).open("rb") as f:
                    f.seek(art[0])
                    self._covers[key] = f.read(art[1])
            except OSError:
                self._covers[key] = b""
        return self._covers[key]

    def remove_playlists(self, ids: list[int], delete_files: bool) -> None:
        doomed = [p for p in self.library["playlists"] if p["id"] in ids]
        if delete_files:
            for path in {t for p in doomed for t in p["tracks"]}:
                self.device.fs.host(path).unlink(missing_ok=True)
        self.library["playlists"] = [p for p in self.library["playlists"] if p["id"] not in ids]
        self.save_library()
        if delete_files:
            self.rescan()
