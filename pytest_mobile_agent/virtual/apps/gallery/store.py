"""Gallery's data: the media files under shared storage, folders, sorting, grouping, favourites,
the Recycle Bin and the wallpaper, on the app object the screens share.

Media are found the way Simple Gallery's MediaFetcher sees them: image/video/GIF/RAW/SVG files by
extension anywhere under /sdcard (not Android/), a folder named `.x` or holding `.nomedia` is
hidden with everything below it. Folder names are the last path segment ("Internal" for the
storage root). Learned from Simple-Gallery helpers/MediaFetcher.kt, helpers/Constants.kt
(TYPE_*, default filter), helpers/Config.kt (defaults) and extensions/Context.kt.
"""

from __future__ import annotations

import os
import random
import re
import shutil
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from pytest_mobile_agent.virtual.apps.commons.dates import date_format, java_date
from pytest_mobile_agent.virtual.ui.app import App, Context

PKG = "com.simplemobiletools.gallery.pro"
SHARED = "/storage/emulated/0"
FAVORITES = "favorites"
RECYCLE_BIN = "recycle_bin"
# (filter checkbox id suffix, label / section header, TYPE_* bit, extensions)
TYPES: tuple[tuple[str, str, int, set[str]], ...] = (
    ("images", "Images", 1, {"jpg", "jpeg", "png", "webp", "bmp", "heic", "heif", "jxl", "avif"}),
    ("videos", "Videos", 2, {"mp4", "mkv", "webm", "avi", "3gp", "mov", "m4v", "mpg", "mpeg", "wmv"}),
    ("gifs", "GIFs", 4, {"gif"}),
    ("raws", "RAW images", 8, {"dng", "orf", "nef", "arw", "rw2", "cr2", "cr3"}),
    ("svgs", "SVGs", 16, {"svg"}),
    ("portraits", "Portraits", 32, set()),
)
DEFAULT_FILTER = 31  # every type but portraits (getDefaultFileFilter)
SORT_KEYS = ("name", "path", "size", "last_modified", "date_taken", "random", "custom")
GROUPINGS = (  # (radio id suffix, label)
    ("none", "Do not group files"),
    ("last_modified_daily", "Last modified (daily)"),
    ("last_modified_monthly", "Last modified (monthly)"),
    ("date_taken_daily", "Date taken (daily)"),
    ("date_taken_monthly", "Date taken (monthly)"),
    ("file_type", "File type"),
    ("extension", "Extension"),
    ("folder", "Folder"),
)


def media_type(name: str) -> int:
    ext = name.rsplit(".", 1)[-1].lower() if "." in name else ""
    return next((bit for _, _, bit, exts in TYPES if ext in exts), 0)


def type_label(bit: int) -> str:
    return next(label for _, label, b, _ in TYPES if b == bit)


def _natural(text: str) -> list[Any]:
    """ "Sort numeric parts by actual value": img2 before img10."""
    return [int(p) if p.isdigit() else p.lower() for p in re.split(r"(\d+)", text)]


class GalleryStore(App):
    """The app object as the screens use it: its prefs, the media and what the toolbar shows for
    this run ("Temporarily show hidden" lasts until the app is stopped)."""

    package = PKG

    def __init__(self, device: Context) -> None:
        super().__init__(device)
        self.temp_show_hidden = False
        self.temp_show_excluded = False

    def set_temp(self, name: str, value: bool) -> None:
        setattr(self, name, value)

    # -- files -----------------------------------------------------------------------------
    def trash_dir(self) -> Path:
        return self.device.fs.host(f"{self.data_dir}/files/.trash")

    def shows_hidden(self) -> bool:
        return bool(self.pref("show_hidden_media", False) or self.temp_show_hidden)

    def all_media(self) -> list[dict[str, Any]]:
        """Every media file under shared storage that the filter and the hidden setting let through."""
        fs = self.device.fs
        show_hidden, mask = self.shows_hidden(), int(self.pref("filter_media", DEFAULT_FILTER))
        found: list[dict[str, Any]] = []

        def walk(folder: Path, hidden: bool) -> None:
            try:
                entries = list(os.scandir(folder))
            except OSError:
                return
            hidden = hidden or folder.name.startswith(".") or any(e.name == ".nomedia" for e in entries)
            if hidden and not show_hidden:
                return
            for entry in entries:
                if entry.is_dir(follow_symlinks=False):
                    if not (folder == root and entry.name == "Android"):
                        walk(Path(entry.path), hidden)
                    continue
                bit = media_type(entry.name)
                if bit & mask and (show_hidden or not entry.name.startswith(".")):
                    st = entry.stat()
                    found.append(
                        {
                            "path": fs.device_path(Path(entry.path)),
                            "name": entry.name,
                            "type": bit,
                            "dir": fs.device_path(folder),
                            "size": st.st_size,
                            "mtime": int(st.st_mtime * 1000),
                        }
                    )

        root = fs.host(SHARED)
        walk(root, False)
        return found

    def trashed(self) -> list[dict[str, Any]]:
        trash, found = self.trash_dir(), []
        if trash.is_dir():
            for path in sorted(p for p in trash.rglob("*") if p.is_file()):
                st = path.stat()
                found.append(
                    {
                        "path": self.device.fs.device_path(path),
                        "name": path.name,
                        "type": media_type(path.name),
                        "dir": RECYCLE_BIN,
                        "size": st.st_size,
                        "mtime": int(st.st_mtime * 1000),
                    }
                )
        return found

    def favorites(self) -> list[str]:
        return self.load("favorites", [])

    def is_favorite(self, path: str) -> bool:
        return path in self.favorites()

    def toggle_favorite(self, path: str) -> None:
        favs = self.favorites()
        self.save("favorites", [p for p in favs if p != path] if path in favs else [*favs, path])

    def media_in(self, directory: str) -> list[dict[str, Any]]:
        if directory == RECYCLE_BIN:
            return self.trashed()
        media = self.all_media()
        if directory == FAVORITES:
            favs = set(self.favorites())
            return [m for m in media if m["path"] in favs]
        return [m for m in media if not directory or m["dir"] == directory]

    def folder_name(self, directory: str) -> str:
        if directory == FAVORITES:
            return "Favorites"
        if directory == RECYCLE_BIN:
            return "Recycle Bin"
        return "Internal" if directory == SHARED else directory.rsplit("/", 1)[-1]

    def directories(self) -> list[dict[str, Any]]:
        """Folders with media, sorted; Favorites pinned first, the Recycle Bin last."""
        media = self.all_media()
        dirs: dict[str, dict[str, Any]] = {}
        for m in media:
            d = dirs.setdefault(
                m["dir"], {"path": m["dir"], "name": self.folder_name(m["dir"]), "count": 0, "size": 0, "mtime": 0}
            )
            d["count"] += 1
            d["size"] += m["size"]
            d["mtime"] = max(d["mtime"], m["mtime"])
        for d in dirs.values():
            d["cover"] = self.cover(d["path"], [m for m in media if m["dir"] == d["path"]])
        ordered = self.sort_items(list(dirs.values()), self.sorting(None))
        favs = set(self.favorites())
        fav_media = [m for m in media if m["path"] in favs]
        if fav_media:
            ordered.insert(
                0,
                {
                    "path": FAVORITES,
                    "name": "Favorites",
                    "count": len(fav_media),
                    "size": 0,
                    "mtime": 0,
                    "pinned": True,
                    "cover": self.cover(FAVORITES, fav_media),
                },
            )
        trash = self.trashed()
        if trash and self.pref("show_recycle_bin", True):
            ordered.append(
                {
                    "path": RECYCLE_BIN,
                    "name": "Recycle Bin",
                    "count": len(trash),
                    "size": 0,
                    "mtime": 0,
                    "cover": self.cover(RECYCLE_BIN, trash),
                }
            )
        return ordered

    def cover(self, directory: str, media: list[dict[str, Any]]) -> str:
        """The folder's thumbnail: its first medium in the folder's own sorting, the newest by
        default (createDirectoryFromMedia; album covers chosen by hand are not modelled)."""
        ordered = self.sort_items(media, self.sorting(directory))
        return ordered[0]["path"] if ordered else ""

    def delete(self, path: str) -> None:
        """Into the Recycle Bin (the default), or gone for good."""
        host = self.device.fs.host(path)
        if self.pref("use_recycle_bin", True) and not path.startswith(self.data_dir):
            target = self.trash_dir() / path.lstrip("/")
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.move(host, target)
        else:
            host.unlink(missing_ok=True)
        self.save("favorites", [p for p in self.favorites() if p != path])

    def restore_all(self) -> None:
        trash = self.trash_dir()
        for path in [p for p in trash.rglob("*") if p.is_file()]:
            original = self.device.fs.host("/" + path.relative_to(trash).as_posix())
            original.parent.mkdir(parents=True, exist_ok=True)
            shutil.move(path, original)

    def empty_trash(self) -> None:
        shutil.rmtree(self.trash_dir(), ignore_errors=True)

    def set_wallpaper(self, path: str, which: int) -> None:
        """WallpaperManager.setBitmap: 0 home, 1 lock, 2 both; stored where Android keeps them."""
        data = self.device.fs.read(path)
        targets = {0: ("wallpaper",), 1: ("wallpaper_lock",), 2: ("wallpaper", "wallpaper_lock")}[which]
        for name in targets:
            self.device.fs.write(f"/data/system/users/0/{name}", data)

    # -- sorting and grouping (per folder overrides with "Use for this folder only") ------------
    def sorting(self, directory: str | None) -> dict[str, Any]:
        """None = the folders screen; else the file sorting, a folder's own if it has one."""
        if directory is None:
            return self.pref("directory_sorting", {"by": "last_modified", "desc": True, "numeric": True})
        own = self.pref("folder_sorting", {}).get(directory)
        return own or self.pref("file_sorting", {"by": "last_modified", "desc": True, "numeric": True})

    def set_sorting(self, directory: str | None, value: dict[str, Any], this_folder: bool) -> None:
        if directory is None:
            self.set_pref("directory_sorting", value)
            return
        own = dict(self.pref("folder_sorting", {}))
        own.pop(directory, None)
        if this_folder:
            own[directory] = value
        else:
            self.set_pref("file_sorting", value)
        self.set_pref("folder_sorting", own)

    def sort_items(self, items: list[dict[str, Any]], sorting: dict[str, Any]) -> list[dict[str, Any]]:
        by = sorting["by"]
        if by == "random":
            shuffled = list(items)
            random.Random(len(items)).shuffle(shuffled)
            return shuffled
        if by == "custom":
            order = self.pref("custom_folder_order", [])
            return sorted(
                items, key=lambda i: (order.index(i["path"]) if i["path"] in order else len(order), i["name"].lower())
            )
        name_key = _natural if sorting.get("numeric", True) else str.lower
        keys = {
            "name": lambda i: name_key(i["name"]),
            "path": lambda i: name_key(i["path"]),
            "size": lambda i: i["size"],
            "last_modified": lambda i: i["mtime"],
            "date_taken": lambda i: i["mtime"],  # no EXIF here: date taken falls back to the file date
        }
        return sorted(items, key=keys[by], reverse=bool(sorting.get("desc")))

    def grouping(self, directory: str) -> dict[str, Any]:
        own = self.pref("folder_grouping", {}).get(directory)
        return own or self.pref("grouping", {"by": "none", "desc": False, "show_count": False})

    def set_grouping(self, directory: str, value: dict[str, Any], this_folder: bool) -> None:
        own = dict(self.pref("folder_grouping", {}))
        own.pop(directory, None)
        if this_folder:
            own[directory] = value
        else:
            self.set_pref("grouping", value)
        self.set_pref("folder_grouping", own)

    def group_key(self, m: dict[str, Any], by: str) -> tuple[Any, str]:
        """(sort key, section title) of a medium under a grouping."""
        moment = datetime.fromtimestamp(m["mtime"] / 1000, UTC)
        if by.endswith("_daily"):
            return moment.date().isoformat(), java_date(date_format(self), moment)
        if by.endswith("_monthly"):
            return moment.strftime("%Y-%m"), java_date("MMMM yyyy", moment)
        if by == "file_type":
            return m["type"], type_label(m["type"])
        if by == "extension":
            ext = m["name"].rsplit(".", 1)[-1].lower()
            return ext, ext.upper()
        return m["dir"], m["dir"]

    def grouped(self, media: list[dict[str, Any]], grouping: dict[str, Any]) -> list[tuple[str, list[dict]]]:
        """Sections in order; one untitled section when not grouping."""
        by = grouping["by"]
        if by == "none":
            return [("", media)]
        sections: dict[Any, tuple[str, list[dict]]] = {}
        for m in media:
            key, title = self.group_key(m, by)
            sections.setdefault(key, (title, []))[1].append(m)
        keys = sorted(sections, reverse=bool(grouping.get("desc")))
        out = []
        for key in keys:
            title, items = sections[key]
            out.append((f"{title} ({len(items)})" if grouping.get("show_count") else title, items))
        return out
