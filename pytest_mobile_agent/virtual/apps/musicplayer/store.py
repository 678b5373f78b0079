"""Simple Music Player's data: the media library of the last scan with its playlists, the sort
orders, and the track being played (kept while the app runs)."""

from __future__ import annotations

from typing import Any

from pytest_mobile_agent.virtual.apps.musicplayer import library as lib
from pytest_mobile_agent.virtual.apps.musicplayer.library import DEFAULT_TABS
from pytest_mobile_agent.virtual.ui.app import App, Context

PKG = "com.simplemobiletools.musicplayer"


class MusicPlayerStore(App):
    """The app object as the screens use it: its prefs, library and player state."""

    package = PKG

    def __init__(self, device: Context) -> None:
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
