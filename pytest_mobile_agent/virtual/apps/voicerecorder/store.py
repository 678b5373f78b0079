"""Simple Voice Recorder's recordings: audio files in the recordings folder of shared storage.

Recording writes `yyyy_MM_dd_HH_mm_ss.<ext>` files to /sdcard/Music/Recordings; rename, delete
and restore go through the same files, and a trashed file is renamed `.trashed-<expiry>-<name>`
as the media provider does on Android 11+. The durations the app wrote are app data.
"""

from __future__ import annotations

import os
import re
import time
from typing import Any

from pytest_mobile_agent.virtual.ui.app import App, Context

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


class VoiceRecorderStore(App):
    """The app object as the screens use it: its prefs, the recording under way and the files."""

    package = PKG

    def __init__(self, device: Context) -> None:
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
            match = TRASHED.match(name)
            title = match.group(2) if match else name
            self.durations.pop(title, None)
        self.save("durations", self.durations)
