"""Simple Music Player's list rows, dialogs and secondary screens (tracks, albums, equalizer,
settings, excluded folders). Sources as in musicplayer.py: item_*.xml, dialog_change_sorting.xml,
dialog_new_playlist.xml, view_current_track_bar.xml, activity_tracks.xml, activity_albums.xml,
activity_equalizer.xml, activity_settings.xml, dialog_manage_visible_tabs.xml and their Kotlin.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from pytest_mobile_agent.virtual.apps.commons.customization import color_customization_rows
from pytest_mobile_agent.virtual.apps.commons.formats import duration_text
from pytest_mobile_agent.virtual.apps.commons.menus import SEARCH_KEY
from pytest_mobile_agent.virtual.apps.commons.settings import (
    language_name,
    settings_check,
    settings_link,
    settings_screen,
    settings_value,
)
from pytest_mobile_agent.virtual.apps.musicplayer import library as lib
from pytest_mobile_agent.virtual.ui import widgets as w
from pytest_mobile_agent.virtual.ui.app import Activity, App
from pytest_mobile_agent.virtual.ui.view import IMAGE, LINEAR, RADIO_GROUP, RECYCLER, RELATIVE, SCROLL, VIEW_GROUP, View

if TYPE_CHECKING:
    from pytest_mobile_agent.virtual.apps.musicplayer.main import MusicPlayer

TITLE_FIELD = "new_playlist_title"
NO_ITEMS = "No items found."
SERVICE_DISABLED = "System service for selecting files and folders is unavailable"
# AOSP EffectBundle presets (gains in dB for 60 Hz, 230 Hz, 910 Hz, 3.6 kHz, 14 kHz); "Custom" last.
EQ_PRESETS = (
    ("Normal", (3, 0, 0, 0, 3)),
    ("Classical", (5, 3, -2, 4, 4)),
    ("Dance", (6, 0, 2, 4, 1)),
    ("Flat", (0, 0, 0, 0, 0)),
    ("Folk", (3, 0, 0, 2, -1)),
    ("Heavy Metal", (4, 1, 9, 3, 0)),
    ("Hip Hop", (5, 3, 0, 1, 3)),
    ("Jazz", (4, 2, -2, 2, 5)),
    ("Pop", (-1, 2, 5, 1, -2)),
    ("Rock", (5, 3, -1, 3, 5)),
)
EQ_BANDS = ("60 Hz", "230 Hz", "910 Hz", "3.6 kHz", "14 kHz")
SHOW_FILENAME = ("Never", "If title is not available", "Always")


def item_row(
    activity: Activity,
    prefix: str,
    texts: list[tuple[str, str]],
    on_click,
    *,
    image: bool = False,
    holder: bool = False,
    on_long=None,
    selected: bool = False,
) -> View:
    """One list row: `PREFIX_frame` (> `PREFIX_holder`) > [`PREFIX_image`,] `PREFIX_<suffix>` texts."""
    rid = activity.app.rid
    kids = [w.image(rid(f"{prefix}_image"), "", "music", width=48, height=48)] if image else []
    kids += [
        w.text(rid(f"{prefix}_{suffix}"), value, size=16 if i == 0 else 14) for i, (suffix, value) in enumerate(texts)
    ]
    if holder:
        kids = [View(RELATIVE, id=rid(f"{prefix}_holder"), children=kids)]
    return View(
        VIEW_GROUP,
        id=rid(f"{prefix}_frame"),
        children=kids,
        clickable=True,
        long_clickable=True,
        focusable=True,
        selected=selected,
        on_click=on_click,
        on_long_click=on_long or (lambda: None),
        kind="row",
        padding=8,
    )


def query(activity: Activity) -> str:
    return activity.texts.get(SEARCH_KEY, "").lower()


def list_page(activity: Activity, holder: str, name: str, rows: list[View], extra: View | None = None) -> View:
    """A tab page or list screen: `NAME_fastscroller` > `NAME_list`, and `NAME_placeholder`(s) when empty."""
    rid = activity.app.rid
    # The list stays on screen when empty (the fragments only show the placeholder over it).
    scroller = View(
        RELATIVE, id=rid(f"{name}_fastscroller"), weight=1, children=[w.scroll(rid(f"{name}_list"), rows, cls=RECYCLER)]
    )
    kids = [scroller]
    if not rows:
        kids.insert(0, w.text(rid(f"{name}_placeholder"), NO_ITEMS, gravity="center", padding=24))
        if extra is not None:
            kids.insert(1, extra)
    return View(RELATIVE, id=rid(holder), children=kids, weight=1)


def sorting_dialog(
    activity: Activity,
    tab: str,
    current: tuple[str, bool],
    on_ok: Callable[[str, bool, bool], None],
    use_for_this: str = "",
    only: bool = False,
):
    """ChangeSortingDialog: option radios get runtime ids (none in a dump); applies on OK."""
    rid = activity.app.rid
    state: dict[str, Any] = {"by": current[0], "desc": current[1], "only": only}

    def radio(id: str, label: str, checked: bool, key: str, value: object) -> View:
        return w.radio(id, label, checked, lambda: state.__setitem__(key, value))

    def body() -> list[View]:
        options = [radio("", label, state["by"] == key, "by", key) for label, key in lib.SORTS[tab]]
        kids = [
            View(RADIO_GROUP, id=rid("sorting_dialog_radio_sorting"), children=options),
            w.image(rid("sorting_order_divider"), height=1),
            View(
                RADIO_GROUP,
                id=rid("sorting_dialog_radio_order"),
                children=[
                    radio(rid("sorting_dialog_radio_ascending"), "Ascending", not state["desc"], "desc", False),
                    radio(rid("sorting_dialog_radio_descending"), "Descending", state["desc"], "desc", True),
                ],
            ),
        ]
        if use_for_this:
            kids.append(View(IMAGE, id=rid("use_for_this_playlist_divider"), height=1))
            toggle = lambda: state.__setitem__("only", not state["only"])
            kids.append(
                w.checkbox(rid("sorting_dialog_use_for_this_only"), use_for_this, state["only"], toggle, padding=0)
            )
        return [
            View(
                SCROLL,
                id=rid("sorting_dialog_scrollview"),
                children=[View(LINEAR, id=rid("sorting_dialog_holder"), children=kids)],
            )
        ]

    ok = ("OK", lambda: on_ok(state["by"], state["desc"], state["only"]))
    return w.alert(activity, "Sort by", body, positive=ok, negative=("Cancel", lambda: None))


def playlist_dialog(activity: Activity, playlist: dict | None = None, tracks: list[str] | None = None) -> None:
    """NewPlaylistDialog ("Create new playlist" / "Rename playlist"), keyboard on the title."""
    app: MusicPlayer = activity.app  # type: ignore[assignment]
    rid = app.rid
    activity.texts[TITLE_FIELD] = playlist["title"] if playlist else ""
    holder: list = []

    def ok() -> None:
        title = activity.texts.get(TITLE_FIELD, "")
        clash = any(p["title"].lower() == title.lower() and p is not playlist for p in app.library["playlists"])
        if not title or clash:
            activity.toast("Please enter a name" if not title else "A playlist with that name already exists")
            activity.overlays.append(holder[0])  # the dialog stays open
            return
        if playlist:
            playlist["title"] = title
        else:
            ids = [p["id"] for p in app.library["playlists"]] or [lib.ALL_TRACKS_ID]
            app.library["playlists"].append({"id": max(ids) + 1, "title": title, "tracks": list(tracks or [])})
        app.save_library()
        activity.wm.ime_shown = False
        activity.focus = None

    def body() -> list[View]:
        field = w.edit(activity, TITLE_FIELD, hint="Title")
        hint = View(LINEAR, id=rid("new_playlist_hint"), children=[field])
        return [View(LINEAR, id=rid("new_playlist_dialog_holder"), children=[hint], padding=8)]

    title = "Rename playlist" if playlist else "Create new playlist"
    holder.append(w.alert(activity, title, body, positive=("OK", ok), negative=("Cancel", lambda: None)))
    activity.show(holder[0])
    w.focus(activity, TITLE_FIELD)


def track_bar(activity: Activity) -> list[View]:
    """CurrentTrackBar: shown once a track is loaded, "title • artist"."""
    app: MusicPlayer = activity.app  # type: ignore[assignment]
    track = app.track(app.current_track)
    if track is None:
        return []
    rid = app.rid
    artist = f" • {track['artist']}" if track["artist"].strip() and track["artist"] != lib.UNKNOWN else ""
    return [
        View(
            RELATIVE,
            id=rid("current_track_bar"),
            orientation="h",
            height=64,
            clickable=True,
            children=[
                w.image(rid("current_track_image"), "", "music", width=48, height=48),
                w.text(rid("current_track_label"), app.display_title(track) + artist, weight=1, padding=8),
                w.image(
                    rid("current_track_play_pause"),
                    "",
                    "pause",
                    width=48,
                    height=48,
                    clickable=True,
                    on_click=app.toggle_play,
                ),
            ],
        )
    ]


def track_rows(activity: Activity, tracks: list[dict]) -> list[View]:
    app: MusicPlayer = activity.app  # type: ignore[assignment]
    return [
        item_row(
            activity,
            "track",
            [
                ("title", app.display_title(t)),
                ("info", f"{t['artist']} • {t['album']}"),
                ("duration", duration_text(t["duration"])),
            ],
            lambda t=t: app.play(t["path"]),
            image=True,
        )
        for t in tracks
    ]


class TracksActivity(Activity):
    """The tracks of a playlist, folder, album or genre (activity_tracks.xml, menu_playlist.xml)."""

    name = ".activities.TracksActivity"

    @property
    def player(self) -> MusicPlayer:
        return self.app  # type: ignore[return-value]

    def _tracks(self) -> tuple[str, list[dict]]:
        a, kind, key = self.player, self.extras.get("kind", ""), self.extras.get("key", "")
        if kind == "playlist":
            playlist = a.playlist(int(key)) or {"title": "", "tracks": []}
            tracks = [t for p in playlist["tracks"] if (t := a.track(p))]
            return playlist["title"], tracks
        field = {"folder": "folder", "album": "album", "genre": "genre"}.get(kind, "folder")
        return key, [t for t in a.library["tracks"] if t.get(field) == key]

    def content(self) -> View:
        a = self.player
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
        page = list_page(self, "tracks_holder", "tracks", track_rows(self, tracks), extra)
        return w.screen(bar, [page, *track_bar(self)], id=a.rid("tracks_coordinator"))

    def _sort_key(self) -> str:
        custom = f"tracks_{self.extras.get('kind')}_{self.extras.get('key')}"
        return custom if self.player.pref(f"{custom}_sorting") else "tracks"

    def show_sort(self) -> None:
        kind = self.extras.get("kind")
        label = "Use for this playlist only" if kind == "playlist" else "Use for this folder only"
        custom = f"tracks_{kind}_{self.extras.get('key')}"

        def ok(by: str, desc: bool, only: bool) -> None:
            self.player.set_sorting(custom if only else "tracks", by, desc)
            if not only:
                self.player.set_pref(f"{custom}_sorting", None)

        only = self._sort_key() != "tracks"
        dialog = sorting_dialog(
            self,
            "tracks",
            self.player.sorting(self._sort_key()),
            ok,
            label if kind in ("playlist", "folder") else "",
            only,
        )
        self.show(dialog)


class AlbumsActivity(Activity):
    """An artist's albums (activity_albums.xml); an album opens its tracks."""

    name = ".activities.AlbumsActivity"

    def content(self) -> View:
        a: MusicPlayer = self.app  # type: ignore[assignment]
        artist = self.extras.get("key", "")
        albums = lib.group([t for t in a.library["tracks"] if t["artist"] == artist], "album")
        rows = [
            item_row(
                self,
                "album",
                [("title", r["title"]), ("tracks", lib.plural(r["count"], "Track"))],
                lambda r=r: self.start(TracksActivity, kind="album", key=r["title"]),
                image=True,
                holder=True,
            )
            for r in lib.sort_rows(albums, *a.sorting("albums"))
        ]
        bar = w.toolbar(self, "albums_toolbar", artist, back=True)
        return w.screen(
            bar, [list_page(self, "albums_holder", "albums", rows), *track_bar(self)], id=a.rid("albums_coordinator")
        )


class EqualizerActivity(Activity):
    name = ".activities.EqualizerActivity"

    def content(self) -> View:
        a = self.app
        rid = a.rid
        preset = int(a.pref("equalizer_preset", 0))
        labels = View(
            RELATIVE,
            id=rid("equalizer_db_labels_holder"),
            orientation="h",
            height=32,
            children=[
                View(IMAGE, id=rid("equalizer_label_margin"), width=16),
                w.text(rid("equalizer_label_left"), "-15", weight=1),
                w.text(rid("equalizer_label_0"), "0", weight=1, gravity="center"),
                w.text(rid("equalizer_label_right"), "+15", weight=1, gravity="end"),
            ],
        )
        bands = [
            View(
                RELATIVE,
                id=rid("equalizer_band_holder"),
                weight=1,
                children=[
                    View(
                        "android.widget.SeekBar",
                        id=rid("equalizer_band_seek_bar"),
                        height=200,
                        clickable=True,
                        focusable=True,
                        on_click=lambda: a.set_pref("equalizer_preset", -1),
                    ),
                    w.text(rid("equalizer_band_label"), band, size=12, gravity="center"),
                ],
            )
            for band in EQ_BANDS
        ]
        name = EQ_PRESETS[preset][0] if preset >= 0 else "Custom"
        button = w.text(
            rid("equalizer_preset"),
            name,
            clickable=True,
            focusable=True,
            gravity="center",
            padding=12,
            kind="button",
            on_click=self.pick_preset,
        )
        holder = View(
            VIEW_GROUP,
            id=rid("equalizer_holder"),
            children=[labels, View(LINEAR, id=rid("equalizer_bands_holder"), orientation="h", children=bands), button],
        )
        bar = w.toolbar(self, "equalizer_toolbar", "Equalizer", back=True)
        body = w.scroll(rid("equalizer_nested_scrollview"), [holder])
        return w.screen(bar, [body], id=rid("equalizer_coordinator"))

    def pick_preset(self) -> None:
        names = [name for name, _ in EQ_PRESETS] + ["Custom"]
        current = int(self.app.pref("equalizer_preset", 0))

        def picked(i: int) -> None:
            self.app.set_pref("equalizer_preset", i if i < len(EQ_PRESETS) else -1)

        self.show(w.radio_dialog(self, names, current if current >= 0 else len(EQ_PRESETS), picked))


class SettingsActivity(Activity):
    name = ".activities.SettingsActivity"

    def content(self) -> View:
        a = self.app
        show = int(a.pref("show_filename", 1))
        rows = [
            *color_customization_rows(self),
            w.section(self, "settings_general_settings_label", "General"),
            settings_value(self, "language", "Language", language_name(), lambda: self.toast("Language")),
            settings_link(
                self,
                "manage_excluded_folders",
                "Manage excluded folders",
                lambda: self.start(ExcludedFoldersActivity),
                "settings_manage_excluded_folders",
            ),
            settings_link(self, "manage_shown_tabs", "Manage shown tabs", self.manage_tabs),
            settings_check(self, "swap_prev_next", "Swap previous/next headphone buttons", "swap_prev_next", False),
            settings_value(
                self,
                "show_filename",
                "Show filename as song title",
                SHOW_FILENAME[show],
                lambda: self.show(w.radio_dialog(self, SHOW_FILENAME, show, lambda i: a.set_pref("show_filename", i))),
            ),
            w.section(self, "settings_playback_section_label", "Audio"),
            settings_check(self, "gapless_playback", "Gapless playback", "gapless_playback", False),
        ]
        return settings_screen(self, rows)

    def manage_tabs(self) -> None:
        a: MusicPlayer = self.app  # type: ignore[assignment]
        chosen = list(a.shown_tabs())

        def toggle(key: str) -> None:
            chosen.remove(key) if key in chosen else chosen.append(key)

        def body() -> list[View]:
            boxes = [
                w.checkbox(
                    a.rid(f"manage_visible_tabs_{key}"), label, key in chosen, lambda k=key: toggle(k), padding=0
                )
                for key, label, _ in lib.TABS
            ]
            holder = View(LINEAR, id=a.rid("manage_visible_tabs_holder"), children=boxes)
            return [View(SCROLL, id=a.rid("manage_visible_tabs_scroll_view"), children=[holder])]

        def ok() -> None:
            if chosen:  # the real dialog keeps at least one tab
                a.set_pref("show_tabs", [key for key, _, _ in lib.TABS if key in chosen])
                a.set_pref("last_used_view_pager_page", 0)

        self.show(w.alert(self, "", body, positive=("OK", ok), negative=("Cancel", lambda: None)))


class ExcludedFoldersActivity(Activity):
    name = ".activities.ExcludedFoldersActivity"

    def content(self) -> View:
        rid = self.app.rid
        text = (
            "Excluding a folder will prevent the displaying of all audio files within. "
            "Files manually added to playlists will not be affected."
        )
        wrapper = View(
            RELATIVE,
            id=rid("excluded_folders_wrapper"),
            weight=1,
            children=[w.text(rid("excluded_folders_placeholder"), text, gravity="center", padding=24)],
        )
        bar = w.toolbar(self, "excluded_folders_toolbar", "Manage excluded folders", back=True)
        return w.screen(bar, [wrapper], id=rid("excluded_folders_coordinator"))


class TrackActivity(Activity):
    """The player screen (activity_track.xml). A VIEW of an audio file from another app lands
    here and plays it (initFromIntent); a file outside the library still plays, by its name."""

    name = ".activities.TrackActivity"

    def __init__(self, app: App, extras: dict[str, str] | None = None) -> None:
        super().__init__(app, extras)
        if self.extras.get("path"):
            self.player.play(self.extras["path"])

    @property
    def player(self) -> MusicPlayer:
        return self.app  # type: ignore[return-value]

    def content(self) -> View:
        a = self.player
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
                w.icon_button(rid("activity_track_previous"), "Previous", "back", lambda: None, weight=1),
                w.icon_button(
                    rid("activity_track_play_pause"),
                    "Pause" if a.playing else "Play",
                    "pause" if a.playing else "play",
                    a.toggle_play,
                    weight=1,
                ),
                w.icon_button(rid("activity_track_next"), "Next", "forward", lambda: None, weight=1),
            ]
        )
        body = [
            w.image(rid("activity_track_image"), "", "music", height=240),
            w.text(rid("activity_track_title"), title, size=20, padding=12, gravity="center"),
            w.text(rid("activity_track_artist"), artist, size=16, padding=4, gravity="center"),
            controls,
        ]
        return w.screen(bar, [w.column(body, id=rid("activity_track_holder"))])
