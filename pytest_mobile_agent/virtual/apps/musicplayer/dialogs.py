"""Simple Music Player's sorting and new/rename playlist dialogs (dialog_change_sorting.xml,
dialog_new_playlist.xml and their Kotlin)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pytest_mobile_agent.virtual.apps.musicplayer import library as lib
from pytest_mobile_agent.virtual.apps.musicplayer.store import MusicPlayerStore
from pytest_mobile_agent.virtual.ui import widgets as w
from pytest_mobile_agent.virtual.ui.app import Activity
from pytest_mobile_agent.virtual.ui.view import IMAGE, LINEAR, RADIO_GROUP, SCROLL, View

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
