"""Simple File Manager's files: shared storage as the app lists, sorts, sizes and deletes it
(commons' FileDirItem, the app's sorting settings per folder)."""

from __future__ import annotations

import os
import re
import shutil
from dataclasses import dataclass
from pathlib import Path

from pytest_mobile_agent.virtual.core.fs import FileSystem
from pytest_mobile_agent.virtual.ui.app import App

PKG = "com.simplemobiletools.filemanager.pro"
ROOT = "/storage/emulated/0"
# StorageFragment's categories, by what MediaStore would give the file's MIME type.
KINDS = {
    "images": {"jpg", "jpeg", "png", "gif", "bmp", "webp", "heic", "heif", "svg", "tif", "tiff", "dng"},
    "videos": {"mp4", "mkv", "webm", "avi", "mov", "3gp", "wmv", "flv", "m4v", "mpg", "mpeg", "ts"},
    "audio": {"mp3", "m4a", "wav", "ogg", "flac", "aac", "amr", "opus", "mid", "midi", "wma"},
    "documents": {
        "txt",
        "pdf",
        "doc",
        "docx",
        "xls",
        "xlsx",
        "ppt",
        "pptx",
        "odt",
        "ods",
        "odp",
        "rtf",
        "csv",
        "md",
        "epub",
        "json",
        "xml",
        "html",
    },
    "archives": {"zip", "rar", "7z", "tar", "gz", "bz2", "xz", "apk", "tgz"},
}


def extension(name: str) -> str:
    return name.rsplit(".", 1)[1].lower() if "." in name.strip(".") else ""


CATEGORIES = (*KINDS, "others")
MAX_COLUMN_COUNT = 15


def category(name: str) -> str:
    """The Storage tab's category of a file: images, videos, audio, documents, archives or others."""
    ext = extension(name)
    return next((k for k, exts in KINDS.items() if ext in exts), "others")


def view_type(app: App, path: str) -> str:
    """Config.getFolderViewType: the folder's own view type if "Use for this folder only" was
    set (keys are lower-cased paths), else the global one; "list" or "grid"."""
    return str(app.pref("folder_view_types", {}).get(path.lower()) or app.pref("view_type", "list"))


def column_count(app: App) -> int:
    """Config.fileColumnCnt in portrait: 3 until changed."""
    return int(app.pref("file_column_cnt", 3))


def natural_key(name: str) -> list[tuple[int, int, str]]:
    """AlphanumericComparator: digit runs compare by value."""
    return [(0, int(part), "") if part.isdigit() else (1, 0, part) for part in re.split(r"(\d+)", name.lower()) if part]


@dataclass
class Item:
    path: str  # device path
    host: Path
    is_dir: bool
    size: int
    mtime: float
    children: int

    @property
    def name(self) -> str:
        return self.path.rsplit("/", 1)[1]


def tree_size(host: Path, hidden: bool) -> tuple[int, int]:
    """(bytes, files) under a folder, as FileDirItem.getProperSize / getProperFileCount."""
    size = files = 0
    for p in host.rglob("*"):
        if not hidden and any(part.startswith(".") for part in p.relative_to(host).parts):
            continue
        if p.is_file():
            size += p.stat().st_size
            files += 1
    return size, files


def item(fs: FileSystem, path: str, hidden: bool, deep_size: bool = False) -> Item:
    host = fs.host(path)
    st = host.stat()
    if host.is_dir():
        kids = [c for c in host.iterdir() if hidden or not c.name.startswith(".")]
        size = tree_size(host, hidden)[0] if deep_size else 0
        return Item(path, host, True, size, st.st_mtime, len(kids))
    return Item(path, host, False, st.st_size, st.st_mtime, 0)


def list_dir(app: App, path: str, hidden: bool) -> list[Item]:
    fs = app.device.fs
    host = fs.host(path)
    if not host.is_dir():
        return []
    sort = sorting(app, path)
    names = [c.name for c in host.iterdir() if hidden or not c.name.startswith(".")]
    items = [item(fs, f"{path}/{n}", hidden, sort["by"] == "size") for n in names]
    return sort_items(items, sort)


def sorting(app: App, path: str) -> dict:
    """The folder's own sorting if "Use for this folder only" was set, else the global one."""
    return app.pref("folder_sorting", {}).get(path) or app.pref(
        "sorting", {"by": "name", "desc": False, "numeric": True}
    )


def sort_items(items: list[Item], sort: dict) -> list[Item]:
    """FileDirItem.compareTo: folders first, then by the chosen key (descending reverses it)."""
    by, desc = sort["by"], bool(sort["desc"])

    def ordered(group: list[Item]) -> list[Item]:
        if by == "size":
            return sorted(group, key=lambda i: i.size, reverse=desc)
        if by == "last_modified":
            return sorted(group, key=lambda i: i.mtime, reverse=desc)
        if by == "extension":
            return sorted(group, key=lambda i: (extension(i.name), i.name.lower()), reverse=desc)
        if sort.get("numeric", True):
            return sorted(group, key=lambda i: natural_key(i.name), reverse=desc)
        return sorted(group, key=lambda i: i.name.lower(), reverse=desc)

    return ordered([i for i in items if i.is_dir]) + ordered([i for i in items if not i.is_dir])


def touch_now(app: App, host: Path) -> None:
    """Files the app makes carry the device clock's time, so listings are deterministic."""
    now = app.device.clock.now().timestamp()
    os.utime(host, (now, now))


def delete_paths(app: App, items: list[Item]) -> None:
    for it in items:
        if it.is_dir:
            shutil.rmtree(it.host, ignore_errors=True)
        else:
            it.host.unlink(missing_ok=True)
    app.device.changed()
