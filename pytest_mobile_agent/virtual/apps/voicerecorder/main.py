"""Simple Voice Recorder (com.simplemobiletools.voicerecorder) 5.12.3, F-Droid flavour.

Recorder, Player and Recycle Bin pages over the recordings folder in shared storage
(/sdcard/Music/Recordings): recording writes `yyyy_MM_dd_HH_mm_ss.<ext>` files, the Player lists
the folder's audio newest first, rename / delete / restore go through the same files. Deleting
on Android 11+ goes through MediaStore, so the system's "Allow" dialog of the media provider
appears, and a trashed file is renamed `.trashed-<expiry>-<name>` as the media provider does.
Ids, texts and flows follow docs/fidelity/voicerecorder.md, learned from Simple-Voice-Recorder's
activity_main.xml, fragment_recorder.xml, fragment_player.xml, fragment_trash.xml,
item_recording.xml, cab_recordings.xml, cab_trash.xml, dialog_rename_recording.xml,
dialog_delete_confirmation.xml, activity_settings.xml and its Kotlin.
"""

from __future__ import annotations

import os
import re
import time
from datetime import UTC, datetime
from typing import Any

from pytest_mobile_agent.virtual.apps.commons.about import COMMONS_FAQ, SHARED_ACTIVITIES, AboutActivity
from pytest_mobile_agent.virtual.apps.commons.action_mode import action_mode_bar, end_selection_or_search
from pytest_mobile_agent.virtual.apps.commons.customization import CustomizationActivity
from pytest_mobile_agent.virtual.apps.commons.dates import date_format, java_date, time_format
from pytest_mobile_agent.virtual.apps.commons.menus import SEARCH_KEY, search_is_open, search_menu
from pytest_mobile_agent.virtual.apps.commons.tabs import bottom_tabs
from pytest_mobile_agent.virtual.apps.voicerecorder.dialogs import (
    SettingsActivity,
    delete_dialog,
    duration_text,
    format_size,
    rename_dialog,
    system_dialog,
)
from pytest_mobile_agent.virtual.ui import widgets as w
from pytest_mobile_agent.virtual.ui.app import Activity, App
from pytest_mobile_agent.virtual.ui.view import IMAGE, RECYCLER, RELATIVE, VIEW, VIEW_GROUP, View

PKG = "com.simplemobiletools.voicerecorder"
FOLDER = "/storage/emulated/0/Music/Recordings"
AUDIO = ("m4a", "mp3", "ogg", "opus", "aac", "wav", "amr", "3gp", "flac")
TRASHED = re.compile(r"^\.trashed-(\d+)-(.+)$")
TRASH_SECONDS = 30 * 24 * 3600  # MediaProvider keeps trashed files 30 days
# A few header bytes so a pulled file is recognisable; the rest is silence-sized padding.
HEADERS = {
    "m4a": b"\x00\x00\x00\x18ftypM4A \x00\x00\x00\x00M4A isom",
    "mp3": b"ID3\x04\x00\x00\x00\x00\x00\x00",
    "ogg": b"OggS\x00\x02",
}


class MainActivity(Activity):
    name = ".activities.MainActivity"

    def __init__(self, app: App, extras: dict[str, str] | None = None) -> None:
        super().__init__(app, extras)
        self.page = int(app.pref("last_used_view_pager_page", 0))
        self.selected: list[str] = []  # file names in selection mode
        self.playing = ""  # the loaded recording's name
        if app.pref("record_after_launch", False):
            self.rec.toggle_recording()

    @property
    def rec(self) -> VoiceRecorder:
        return self.app  # type: ignore[return-value]

    def on_resume(self) -> None:
        self.page = min(self.page, len(self.rec.pages()) - 1)  # the Recycle Bin tab may be gone

    def on_back(self) -> bool:
        return end_selection_or_search(self)

    # -- screen ----------------------------------------------------------------------------
    def content(self) -> View:
        a = self.rec
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
        pager = View("androidx.viewpager.widget.ViewPager", id=a.rid("view_pager"), children=[page], weight=1)
        tabs = bottom_tabs(
            self, [(p, icon) for p, icon in zip(pages, ("mic", "play", "delete"))], self.page, self.select_page
        )
        holder = View(RELATIVE, id=a.rid("main_holder"), children=[pager, tabs], weight=1)
        return w.screen(bar, [holder], id=a.rid("main_coordinator"))

    def _recorder_page(self) -> View:
        a = self.rec
        rid = a.rid
        rec = a.recording
        elapsed = int(time.monotonic() - rec["t0"]) if rec else 0
        kids = [
            View(VIEW, id=rid("recorder_visualizer"), height=160),
            w.text(rid("recording_duration"), duration_text(elapsed), size=32, gravity="center"),
            w.image(
                rid("toggle_recording_button"),
                "",
                "close" if rec else "mic",
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
        items = self.rec.recordings(trashed)
        query = self.texts.get(SEARCH_KEY, "").lower()
        return [r for r in items if query in r["title"].lower()] if query else items

    def _row(self, rec: dict[str, Any], trashed: bool) -> View:
        a = self.rec
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
        texts = [
            w.text(rid("recording_title"), rec["title"], color="primary" if rec["name"] == self.playing else ""),
            w.text(rid("recording_date"), date, size=14),
            w.text(rid("recording_duration"), duration_text(rec["duration"]), size=14),
            w.text(rid("recording_size"), format_size(rec["size"]), size=14),
        ]
        item = View(
            VIEW_GROUP,
            id=rid("item_holder"),
            orientation="h",
            children=[w.column(texts, weight=1), menu, View(VIEW, id=rid("overflow_menu_anchor"), width=1, height=1)],
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
        rid = self.rec.rid
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
        rid = self.rec.rid
        kids = self._list("recordings", False, "No recordings created by this app\nhave been found")
        current = next((r for r in self.rec.recordings() if r["name"] == self.playing), None)
        controls = [
            w.image(rid(name), desc, icon, width=48, height=48, clickable=True, focusable=True, on_click=action)
            for name, desc, icon, action in (
                ("previous_btn", "Previous", "chevron_up", lambda: None),
                ("play_pause_btn", "Play / Pause", "play", lambda: None),
                ("next_btn", "Next", "chevron_down", lambda: None),
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
        return View(RELATIVE, id=self.rec.rid("trash_holder"), children=kids, weight=1)

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

    def end_selection(self) -> None:
        self.selected = []

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
        self.show(rename_dialog(self, name))

    def delete_selected(self) -> None:
        names = list(self.selected)
        self.selected = []
        self.show(delete_dialog(self, names, trashed=self.page == 2))

    def restore_selected(self) -> None:
        names = list(self.selected)
        self.selected = []
        self.show(system_dialog(self, "untrash", len(names), lambda: self.rec.restore(names)))


class VoiceRecorder(App):
    package = PKG
    label = "Voice Recorder"
    icon = "mic"
    icon_color = "#f57c00"
    version_code = 41
    version_name = "5.12.3"
    main_activity = MainActivity
    activities = (SettingsActivity, CustomizationActivity, *SHARED_ACTIVITIES)
    faq = (
        (
            "Can I hide the notification icon during recording?",
            "Well, it depends. While you use your device it is no longer possible to fully hide the notifications of "
            "apps like this. If you check the proper setting item, the app will do its best to hide it. You can hide "
            "it on the lockscreen though, if you disable the displaying of sensitive notifications in your device "
            "settings.",
        ),
        COMMONS_FAQ[9],
    )

    def __init__(self, device) -> None:
        super().__init__(device)
        self.recording: dict[str, Any] | None = None
        # MediaStore's DURATION of the files this app wrote (keyed by file name).
        self.durations: dict[str, int] = self.load("durations", {})

    def pages(self) -> list[str]:
        return ["Recorder", "Player"] + (["Recycle Bin"] if self.pref("use_recycle_bin", True) else [])

    def extension(self) -> str:
        return ("m4a", "mp3", "ogg")[int(self.pref("extension", 0))]

    def bitrate(self) -> int:
        return int(self.pref("bitrate", 128))

    # -- recording -------------------------------------------------------------------------
    def toggle_recording(self) -> None:
        if self.recording is None:
            self.recording = {"start": self.device.clock.now(), "t0": time.monotonic(), "paused": False}
            return
        rec, self.recording = self.recording, None
        # Whole seconds elapsed, as the running timer shows them (not rounded: a stop 1.6 s in
        # saves what the timer showed, 00:01).
        seconds = max(1, int(time.monotonic() - rec["t0"]))
        ext = self.extension()
        name = f"{rec['start'].strftime('%Y_%m_%d_%H_%M_%S')}.{ext}"
        header = HEADERS.get(ext, b"")
        data = header + bytes(max(0, self.bitrate() * 125 * seconds - len(header)))
        path = f"{FOLDER}/{name}"
        self.device.fs.write(path, data)
        self.device.clock.advance(seconds)  # the time spent recording has passed
        stamp = self.device.clock.now().timestamp()
        os.utime(self.device.fs.host(path), (stamp, stamp))
        self.durations[name] = seconds
        self.save("durations", self.durations)
        self.device.wm.toast("Recording saved successfully", PKG)

    def toggle_pause(self) -> None:
        if self.recording:
            self.recording["paused"] = not self.recording["paused"]

    # -- files -----------------------------------------------------------------------------
    def recordings(self, trashed: bool = False) -> list[dict[str, Any]]:
        """The folder's audio files (or its trashed ones), newest first, as the MediaStore query sorts."""
        folder = self.device.fs.host(FOLDER)
        found = []
        for entry in folder.iterdir() if folder.is_dir() else ():
            match = TRASHED.match(entry.name)
            title = match.group(2) if match else entry.name
            if not entry.is_file() or bool(match) != trashed or title.rsplit(".", 1)[-1].lower() not in AUDIO:
                continue
            if entry.name.startswith(".") and not match:
                continue
            stat = entry.stat()
            found.append(
                {
                    "name": entry.name,
                    "title": title,
                    "mtime": int(stat.st_mtime),
                    "size": stat.st_size,
                    "duration": self.durations.get(title, 0),
                }
            )
        return sorted(found, key=lambda r: (r["mtime"], r["name"]), reverse=True)

    def _host(self, name: str):
        return self.device.fs.host(f"{FOLDER}/{name}")

    def rename(self, name: str, new_title: str) -> None:
        self._host(name).rename(self._host(new_title))
        if name in self.durations:
            self.durations[new_title] = self.durations.pop(name)
            self.save("durations", self.durations)

    def trash(self, names: list[str]) -> None:
        expiry = int(self.device.clock.now().timestamp()) + TRASH_SECONDS
        for name in names:
            self._host(name).rename(self._host(f".trashed-{expiry}-{name}"))

    def restore(self, names: list[str]) -> None:
        for name in names:
            match = TRASHED.match(name)
            if match:
                self._host(name).rename(self._host(match.group(2)))

    def delete(self, names: list[str]) -> None:
        for name in names:
            self._host(name).unlink(missing_ok=True)
            title = TRASHED.match(name).group(2) if TRASHED.match(name) else name
            self.durations.pop(title, None)
        self.save("durations", self.durations)


APPS = (VoiceRecorder,)
