"""Simple Voice Recorder's main screen: the Recorder, Player and Recycle Bin pages.

The Player lists the recordings folder's audio newest first. Deleting on Android 11+ goes
through MediaStore, so the system's "Allow" dialog of the media provider appears. Ids, texts
and flows follow docs/fidelity/voicerecorder.md, learned from Simple-Voice-Recorder's
activity_main.xml, fragment_recorder.xml, fragment_player.xml, fragment_trash.xml,
item_recording.xml, cab_recordings.xml, cab_trash.xml and its Kotlin.
"""

from __future__ import annotations

import time
from datetime import UTC, datetime
from typing import Any

from pytest_mobile_agent.virtual.apps.commons.about import AboutActivity
from pytest_mobile_agent.virtual.apps.commons.action_mode import (
    SelectionActivity,
    action_mode_bar,
)
from pytest_mobile_agent.virtual.apps.commons.dates import date_format, java_date, time_format
from pytest_mobile_agent.virtual.apps.commons.formats import duration_text, format_size
from pytest_mobile_agent.virtual.apps.commons.menus import SEARCH_KEY, search_is_open, search_menu
from pytest_mobile_agent.virtual.apps.commons.tabs import bottom_tabs
from pytest_mobile_agent.virtual.apps.voicerecorder.dialogs import delete_dialog, rename_dialog, system_dialog
from pytest_mobile_agent.virtual.apps.voicerecorder.settings import SettingsActivity
from pytest_mobile_agent.virtual.apps.voicerecorder.store import VoiceRecorderStore
from pytest_mobile_agent.virtual.ui import widgets as w
from pytest_mobile_agent.virtual.ui.app import App
from pytest_mobile_agent.virtual.ui.view import IMAGE, RECYCLER, RELATIVE, VIEW, VIEW_GROUP, View


class MainActivity(SelectionActivity):
    name = ".activities.MainActivity"
    app: VoiceRecorderStore

    def __init__(self, app: App, extras: dict[str, str] | None = None) -> None:
        super().__init__(app, extras)
        self.page = int(app.pref("last_used_view_pager_page", 0))
        self.selected: list[str] = []  # file names in selection mode
        self.playing = ""  # the loaded recording's name
        if app.pref("record_after_launch", False):
            self.app.toggle_recording()

    def on_resume(self) -> None:
        self.page = min(self.page, len(self.app.pages()) - 1)  # the Recycle Bin tab may be gone

    # -- screen ----------------------------------------------------------------------------
    def content(self) -> View:
        a = self.app
        pages = a.pages()
        self.page = min(self.page, len(pages) - 1)
        if search_is_open(self) and self.page == 0:
            self.page = 1  # focusing the search switches the Recorder page to the Player
        if self.selected:
            bar = self._action_mode()
        else:
            actions = [
                ("settings", "Settings", "settings", lambda: self.start(SettingsActivity)),
                ("about", "About", "info", lambda: self.start(AboutActivity)),
            ]
            bar = search_menu(self, actions=actions)
        page = (self._recorder_page, self._player_page, self._trash_page)[self.page]()
        pager = w.pager(a.rid("view_pager"), [page], self.page, len(pages), self.select_page, weight=1)
        tabs = bottom_tabs(
            self, [(p, icon) for p, icon in zip(pages, ("mic", "play", "delete"))], self.page, self.select_page
        )
        holder = View(RELATIVE, id=a.rid("main_holder"), children=[pager, tabs], weight=1)
        return w.screen(bar, [holder], id=a.rid("main_coordinator"))

    def keeps_changing(self) -> bool:
        rec = self.app.recording
        return self.page == 0 and rec is not None and not rec["paused"]

    def _recorder_page(self) -> View:
        a = self.app
        rid = a.rid
        rec = a.recording
        elapsed = int(time.monotonic() - rec["t0"]) if rec else 0
        kids = [
            View(VIEW, id=rid("recorder_visualizer"), height=160),
            w.text(rid("recording_duration"), duration_text(elapsed), size=32, gravity="center"),
            w.image(
                rid("toggle_recording_button"),
                "",
                "stop" if rec else "mic",
                width=72,
                height=72,
                clickable=True,
                focusable=True,
                gravity="center",
                on_click=a.toggle_recording,
            ),
        ]
        if rec:
            kids.append(
                w.image(
                    rid("toggle_pause_button"),
                    "",
                    "play" if rec["paused"] else "pause",
                    width=56,
                    height=56,
                    clickable=True,
                    gravity="center",
                    on_click=a.toggle_pause,
                )
            )
        return View(RELATIVE, id=rid("recorder_holder"), children=kids, weight=1)

    def _rows(self, trashed: bool) -> list[dict[str, Any]]:
        items = self.app.recordings(trashed)
        query = self.texts.get(SEARCH_KEY, "").lower()
        return [r for r in items if query in r["title"].lower()] if query else items

    def _row(self, rec: dict[str, Any], trashed: bool) -> View:
        a = self.app
        rid = a.rid
        when = datetime.fromtimestamp(rec["mtime"], UTC)
        date = java_date(f"{date_format(a)}, {time_format(a)}", when)
        menu = w.image(
            rid("overflow_menu_icon"),
            "",
            "more",
            width=40,
            height=40,
            clickable=True,
            focusable=True,
            on_click=lambda: self.row_menu(rec, trashed),
        )
        # item_recording.xml: title and duration on one line, date and size (alpha 0.6) below,
        # the overflow icon at the end across both.
        playing = rec["name"] == self.playing
        title = w.text(rid("recording_title"), rec["title"], size=18, weight=1, color="primary" if playing else "")
        lines = [
            w.row([title, w.text(rid("recording_duration"), duration_text(rec["duration"]), size=14, padding=2)]),
            w.row(
                [
                    w.text(rid("recording_date"), date, size=14, weight=1, alpha=0.6),
                    w.text(rid("recording_size"), format_size(rec["size"]), size=14, alpha=0.6, padding=2),
                ]
            ),
        ]
        item = View(
            VIEW_GROUP,
            id=rid("item_holder"),
            orientation="h",
            children=[
                w.column(lines, weight=1, content_gravity="center"),
                menu,
                View(VIEW, id=rid("overflow_menu_anchor"), width=1, height=1),
            ],
        )
        return View(
            "android.widget.FrameLayout",
            id=rid("recording_frame"),
            clickable=True,
            long_clickable=True,
            focusable=True,
            selected=rec["name"] in self.selected,
            kind="row",
            padding=8,
            children=[item],
            on_click=lambda: self.tap(rec, trashed),
            on_long_click=lambda: self.long_tap(rec),
        )

    def _list(self, prefix: str, trashed: bool, empty: str) -> list[View]:
        rid = self.app.rid
        rows = self._rows(trashed)
        if not rows:
            text = "No items found." if self.texts.get(SEARCH_KEY) else empty
            return [w.text(rid(f"{prefix}_placeholder"), text, gravity="center", padding=24, weight=1)]
        return [
            View(
                RELATIVE,
                id=rid(f"{prefix}_fastscroller"),
                weight=1,
                children=[w.scroll(rid(f"{prefix}_list"), [self._row(r, trashed) for r in rows], cls=RECYCLER)],
            )
        ]

    def _player_page(self) -> View:
        rid = self.app.rid
        kids = self._list("recordings", False, "No recordings created by this app\nhave been found")
        current = next((r for r in self.app.recordings() if r["name"] == self.playing), None)
        controls = [
            w.image(rid(name), desc, icon, width=48, height=48, clickable=True, focusable=True, on_click=action)
            for name, desc, icon, action in (
                ("previous_btn", "Previous", "skip_previous", lambda: None),
                ("play_pause_btn", "Play / Pause", "play", lambda: None),
                ("next_btn", "Next", "skip_next", lambda: None),
            )
        ]
        wrapper = View(
            RELATIVE,
            id=rid("player_controls_wrapper"),
            children=[
                View(IMAGE, id=rid("player_divider"), height=1),
                w.text(rid("player_title"), current["title"] if current else "", gravity="center"),
                w.row(
                    [
                        w.text(rid("player_progress_current"), "00:00", size=14),
                        View("android.widget.SeekBar", id=rid("player_progressbar"), weight=1, focusable=True),
                        w.text(
                            rid("player_progress_max"),
                            duration_text(current["duration"]) if current else "00:00",
                            size=14,
                        ),
                    ],
                    height=40,
                ),
                View(
                    "android.widget.LinearLayout",
                    id=rid("player_controls"),
                    orientation="h",
                    height=56,
                    gravity="center",
                    children=controls,
                ),
            ],
        )
        return View(RELATIVE, id=rid("player_holder"), children=[*kids, wrapper], weight=1)

    def _trash_page(self) -> View:
        kids = self._list("trash", True, "The Recycle Bin is empty")
        return View(RELATIVE, id=self.app.rid("trash_holder"), children=kids, weight=1)

    def _action_mode(self) -> View:
        trashed = self.page == 2
        total = len(self._rows(trashed))
        one = len(self.selected) == 1
        if trashed:
            actions = [("cab_delete", "Delete", "delete", self.delete_selected)]
            overflow = [
                ("cab_restore", "Restore this file" if one else "Restore selected files", self.restore_selected),
                ("cab_select_all", "Select all", self.select_all),
            ]
        else:
            actions = [("cab_rename", "Rename", "edit", self.rename_selected)] if one else []
            actions += [
                ("cab_share", "Share", "share", lambda: self.toast("No app found")),
                ("cab_delete", "Delete", "delete", self.delete_selected),
            ]
            overflow = [("cab_open_with", "Open with", lambda: self.toast("No app found"))] if one else []
            overflow.append(("cab_select_all", "Select all", self.select_all))
        return action_mode_bar(
            self,
            len(self.selected),
            total,
            actions=actions,
            overflow=overflow,
            on_close=self.end_selection,
            on_select_all=self.select_all,
        )

    # -- actions ---------------------------------------------------------------------------
    def select_page(self, i: int) -> None:
        self.page = i
        self.selected = []
        self.app.set_pref("last_used_view_pager_page", i)

    def select_all(self) -> None:
        self.selected = [r["name"] for r in self._rows(self.page == 2)]

    def tap(self, rec: dict[str, Any], trashed: bool) -> None:
        if self.selected:
            self.long_tap(rec, toggle=True)
        elif not trashed:
            self.playing = rec["name"]

    def long_tap(self, rec: dict[str, Any], toggle: bool = False) -> None:
        if rec["name"] in self.selected:
            if toggle:
                self.selected.remove(rec["name"])
        else:
            self.selected.append(rec["name"])

    def row_menu(self, rec: dict[str, Any], trashed: bool) -> None:
        def only(action):  # the row menu acts on its own row
            def run() -> None:
                self.selected = [rec["name"]]
                action()

            return run

        if trashed:
            items = [
                ("cab_restore", "Restore this file", only(self.restore_selected)),
                ("cab_delete", "Delete", only(self.delete_selected)),
            ]
        else:
            items = [
                ("cab_rename", "Rename", only(self.rename_selected)),
                ("cab_share", "Share", lambda: self.toast("No app found")),
                ("cab_delete", "Delete", only(self.delete_selected)),
                ("cab_open_with", "Open with", lambda: self.toast("No app found")),
            ]
        self.show(w.popup_menu(self, items, title_id="android:id/title"))

    def rename_selected(self) -> None:
        name = self.selected[0]
        self.selected = []
        self.show(rename_dialog(self, self.app, name))

    def delete_selected(self) -> None:
        names = list(self.selected)
        self.selected = []
        self.show(delete_dialog(self, self.app, names, trashed=self.page == 2))

    def restore_selected(self) -> None:
        names = list(self.selected)
        self.selected = []
        self.show(system_dialog(self, "untrash", len(names), lambda: self.app.restore(names)))
