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
from pytest_mobile_agent.virtual.ui.view import RECYCLER, RELATIVE, VIEW_GROUP, View

NO_ITEMS = "No items found."
# item_track/item_artist (maxLines 2) and item_album/item_genre (3): a row's title wraps, then "…".
TITLE_LINES = {"track": 2, "artist": 2, "album": 3, "genre": 3}
SERVICE_DISABLED = "System service for selecting files and folders is unavailable"


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
    for i, (suffix, value) in enumerate(texts):
        lines = TITLE_LINES.get(prefix, 1) if i == 0 else 1
        kids.append(w.text(rid(f"{prefix}_{suffix}"), value, size=16 if i == 0 else 14, max_lines=lines))
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


def track_bar(app: MusicPlayerStore) -> list[View]:
    """CurrentTrackBar: shown once a track is loaded, "title • artist"."""
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
                    "pause" if app.playing else "play",  # updateTrackState: the icon follows playback
                    width=48,
                    height=48,
                    clickable=True,
                    on_click=app.toggle_play,
                ),
            ],
        )
    ]


def track_rows(activity: Activity, app: MusicPlayerStore, tracks: list[dict]) -> list[View]:
    return [
        item_row(
            activity,
            "track",
            [
                ("title", app.display_title(t)),
                ("info", f"{t['artist']} • {t['album']}"),
                ("duration", duration_text(t["duration"])),
            ],
            partial(app.play, t["path"]),
            image=True,
        )
        for t in tracks
    ]
