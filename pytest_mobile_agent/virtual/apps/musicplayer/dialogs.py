"""Simple Music Player's sorting and new/rename playlist dialogs and the playback speed sheet
(dialog_change_sorting.xml, dialog_new_playlist.xml, fragment_playback_speed.xml and their Kotlin)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pytest_mobile_agent.virtual.apps.musicplayer import library as lib
from pytest_mobile_agent.virtual.apps.musicplayer.store import MusicPlayerStore
from pytest_mobile_agent.virtual.ui import widgets as w
from pytest_mobile_agent.virtual.ui.app import Activity, Overlay
from pytest_mobile_agent.virtual.ui.view import IMAGE, LINEAR, RADIO_GROUP, RELATIVE, SCROLL, VIEW_GROUP, View

TITLE_FIELD = "new_playlist_title"


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


def playlist_dialog(
    activity: Activity, app: MusicPlayerStore, playlist: dict | None = None, tracks: list[str] | None = None
) -> None:
    """NewPlaylistDialog ("Create new playlist" / "Rename playlist"), keyboard on the title."""
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


# PlaybackSpeedFragment: a seekbar of 0..MAX_PROGRESS; its middle is 1x, 0.25x to 3x in 0.05 steps.
MIN_SPEED, MAX_SPEED, SPEED_STEP = 0.25, 3.0, 0.05
MAX_PROGRESS = int(MAX_SPEED * 100 + MIN_SPEED * 100)
HALF_PROGRESS = MAX_PROGRESS // 2


def speed_of(progress: int) -> float:
    """getPlaybackSpeed: the two halves of the bar map linearly to 0.25..1 and 1..3."""
    if progress < HALF_PROGRESS:
        speed = (1 - MIN_SPEED) * (progress / HALF_PROGRESS) + MIN_SPEED
    elif progress > HALF_PROGRESS:
        speed = (MAX_SPEED - 1) * (progress / HALF_PROGRESS - 1) + 1
    else:
        speed = 1.0
    speed = min(max(speed, MIN_SPEED), MAX_SPEED)
    return round(speed / SPEED_STEP) * SPEED_STEP


def speed_text(speed: float) -> str:
    """DecimalFormat("#.##"): "1", "1.05", "0.5"."""
    return f"{speed:.2f}".rstrip("0").rstrip(".")


def speed_sheet(activity: Activity, app: MusicPlayerStore) -> Overlay:
    """PlaybackSpeedFragment (fragment_playback_speed.xml), a bottom sheet: "Playback speed",
    slower and faster buttons around "1.00x", and the seekbar; every change applies at once."""
    rid = app.rid

    def progress() -> int:
        stored = int(app.pref("playback_speed_progress", -1))
        return HALF_PROGRESS if stored == -1 else stored

    def set_progress(value: int) -> None:
        value = min(max(value, 0), MAX_PROGRESS)
        app.set_speed(round(speed_of(value), 2), value)

    def step(direction: int) -> None:
        """reduceSpeed / increaseSpeed: the nearest progress that changes the speed."""
        value, current = progress(), app.speed
        while 0 <= value + direction <= MAX_PROGRESS:
            value += direction
            if round(speed_of(value), 2) != current:
                set_progress(value)
                return

    def build() -> View:
        buttons = View(
            VIEW_GROUP,
            orientation="h",
            height=36,
            children=[
                w.image(
                    rid("playback_speed_slow"),
                    "",
                    "directions_walk",
                    width=36,
                    height=36,
                    clickable=True,
                    on_click=lambda: step(-1),
                ),
                w.text(rid("playback_speed_label"), f"{app.speed:.2f}x", size=18, weight=1, gravity="center"),
                w.image(
                    rid("playback_speed_fast"),
                    "",
                    "directions_run",
                    width=36,
                    height=36,
                    clickable=True,
                    on_click=lambda: step(1),
                ),
            ],
            padding=0,
        )
        seekbar = View(
            "android.widget.SeekBar",
            id=rid("playback_speed_seekbar"),
            clickable=True,
            focusable=True,
            height=48,
            padding=16,
            kind="seekbar",
            canvas=(progress(), MAX_PROGRESS),
            on_touch=lambda f, _: set_progress(round(f * MAX_PROGRESS)),
        )
        title = w.text(rid("playback_speed_title"), "Playback speed", size=21, padding=8)
        return View(RELATIVE, id=rid("playback_speed_holder"), padding=16, children=[title, buttons, seekbar])

    return Overlay(build, title="Playback speed", kind="sheet")
