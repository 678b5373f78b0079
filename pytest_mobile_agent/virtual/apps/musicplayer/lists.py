"""The rows and pages of Simple Music Player's lists (item_*.xml, view_current_track_bar.xml),
shared by its tabs and list screens."""

from __future__ import annotations

from functools import partial

from pytest_mobile_agent.virtual.apps.commons.formats import duration_text
from pytest_mobile_agent.virtual.apps.commons.menus import SEARCH_KEY
from pytest_mobile_agent.virtual.apps.musicplayer import library as lib
from pytest_mobile_agent.virtual.apps.musicplayer.store import MusicPlayerStore
from pytest_mobile_agent.virtual.ui import widgets as w
from pytest_mobile_agent.virtual.ui.app import Activity
from pytest_mobile_agent.virtual.ui.view import IMAGE, LINEAR, RECYCLER, RELATIVE, VIEW_GROUP, Action, View

NO_ITEMS = "No items found."
# item_track/item_artist (maxLines 2) and item_album/item_genre (3): a row's title wraps, then "…".
TITLE_LINES = {"track": 2, "artist": 2, "album": 3, "genre": 3}
SERVICE_DISABLED = "System service for selecting files and folders is unavailable"
MEDIUM_ALPHA = 0.5  # commons' MEDIUM_ALPHA: a control that is off


def cover(id: str, art: bytes, radius: float, **kw) -> View:
    """An ImageView Glide fills with a cover (centre-cropped, `radius` dp corners), or with the
    app's headset placeholder in the text colour when there is none."""
    return View(IMAGE, id=id, icon="headset", kind="cover", canvas=(art, radius), **kw)


def item_row(
    activity: Activity,
    prefix: str,
    texts: list[tuple[str, str]],
    on_click,
    *,
    art: bytes | None = None,
    on_long=None,
    selected: bool = False,
) -> View:
    """One list row as item_*.xml lays it out. Without `art` (item_playlist, item_folder): the
    title over its count. With it (item_album, item_artist, item_genre): `PREFIX_frame` >
    `PREFIX_holder` > the 80 dp cover at the start, the title and the count beside it."""
    rid = activity.app.rid
    lines = [
        w.text(
            rid(f"{prefix}_{suffix}"),
            value,
            size=(18 if prefix == "artist" else 16) if i == 0 else 14,
            alpha=1.0 if i == 0 else 0.8,
            padding=4 if art is None else 0,
            max_lines=TITLE_LINES.get(prefix, 1) if i == 0 else 1,
        )
        for i, (suffix, value) in enumerate(texts)
    ]
    if art is None:
        kids, padding = lines, 12
    else:
        # artists' placeholder is the padded headset (getSmallPlaceholder), albums' the full one
        image = cover(rid(f"{prefix}_image"), art, 4, width=80, height=80, padding=14 if prefix == "artist" else 0)
        beside = View(LINEAR, children=lines, weight=1, padding=8, content_gravity="center")
        kids, padding = (
            [View(RELATIVE, id=rid(f"{prefix}_holder"), orientation="h", padding=12, children=[image, beside])],
            0,
        )
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
        padding=padding,
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


def track_bar(app: MusicPlayerStore, open_track: Action) -> list[View]:
    """CurrentTrackBar: shown once a track is loaded, its cover, "title • artist" and
    play/pause; a tap on it opens the track screen."""
    app.position()  # the player may have moved on to another track since
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
            padding=12,
            clickable=True,
            on_click=open_track,
            children=[
                cover(rid("current_track_image"), app.cover(track["path"]), 4, width=40, height=40),
                w.text(rid("current_track_label"), app.display_title(track) + artist, weight=1, padding=12),
                w.image(
                    rid("current_track_play_pause"),
                    "",
                    "pause" if app.playing else "play",  # updateTrackState: the icon follows playback
                    width=36,
                    height=40,
                    clickable=True,
                    on_click=app.toggle_play,
                ),
            ],
        )
    ]


def track_rows(activity: Activity, app: MusicPlayerStore, tracks: list[dict], open_track: Action) -> list[View]:
    """item_track.xml: cover, title over "artist • album", duration at the end. A tap plays the
    list from that track (prepareAndPlay) and opens the track screen (`open_track`)."""
    rid = app.rid
    paths = [t["path"] for t in tracks]

    def start(path: str) -> None:
        app.play(path, paths)
        open_track()

    return [
        View(
            LINEAR,
            id=rid("track_frame"),
            orientation="h",
            padding=16,
            clickable=True,
            long_clickable=True,
            focusable=True,
            on_click=partial(start, t["path"]),
            on_long_click=lambda: None,
            kind="row",
            children=[
                cover(rid("track_image"), app.cover(t["path"]), 4, width=40, height=40),
                View(
                    LINEAR,
                    weight=1,
                    padding=4,
                    content_gravity="center",
                    children=[
                        w.text(rid("track_title"), app.display_title(t), size=16, max_lines=TITLE_LINES["track"]),
                        w.text(rid("track_info"), f"{t['artist']} • {t['album']}", size=14, alpha=0.6),
                    ],
                ),
                w.text(rid("track_duration"), duration_text(t["duration"]), size=16, padding=4, gravity="center"),
            ],
        )
        for t in tracks
    ]
