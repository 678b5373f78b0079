"""Whole-device snapshots: the device root's files and the in-memory state, saved and restored.

What a snapshot holds, and what a restore puts back:
- every file under the root (shared storage with hidden files, app data and prefs, the provider
  databases, /data/system with settings and package records), byte for byte, with the files'
  and folders' modification times;
- the clock, the settings, the properties, the package records and their grants;
- a fresh window system (only HOME), no live app objects (each reloads from its restored data
  dir on first use), no clipboard, the accessibility event history emptied.
The event stream's connected clients stay connected and its sequence numbers keep counting:
those belong to the harness watching the device, not to the device state.

A restore is fast because it rewrites only what changed: each file's (size, mtime, ctime,
inode, mode) is compared with what the snapshot last saw, and only differing files are
rewritten, missing ones written and extra ones deleted. A file whose mtime is within the
filesystem's timestamp granularity of the moment its signature was taken is "racily clean"
(as git calls it): a write in the same tick would not move its mtime, so its bytes are compared.
"""

from __future__ import annotations

import copy
import os
import shutil
import stat
import time
from dataclasses import dataclass, field
from datetime import datetime

from pytest_mobile_agent.virtual.system.device import Device
from pytest_mobile_agent.virtual.system.window import WindowManager

# Kernel file timestamps come from a coarse clock (one jiffy, up to 10 ms); twice that is safe.
RACY_NS = 20_000_000


@dataclass
class _File:
    data: bytes
    mode: int
    mtime_ns: int
    signature: tuple[int, int, int, int, int] = (0, 0, 0, 0, 0)  # size, mtime, ctime, inode, mode
    seen_ns: int = 0  # when the signature was taken

    def matches(self, st: os.stat_result, path: str) -> bool:
        if (st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino, st.st_mode) != self.signature:
            return False
        if max(st.st_mtime_ns, st.st_ctime_ns) + RACY_NS < self.seen_ns:
            return True
        with open(path, "rb") as f:  # racily clean: only the bytes can tell
            same = f.read() == self.data
        if same:
            self.note(st)  # seen again, later: once its tick has passed it is clean by signature
        return same

    def note(self, st: os.stat_result) -> None:
        self.signature = (st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino, st.st_mode)
        self.seen_ns = time.time_ns()


@dataclass
class RestoreStats:
    rewritten: int = 0
    deleted: int = 0
    checked: int = 0


@dataclass
class DeviceSnapshot:
    name: str
    taken: datetime  # the device clock when it was taken
    files: dict[str, _File] = field(default_factory=dict)  # relative path -> file
    links: dict[str, str] = field(default_factory=dict)  # relative path -> symlink target
    dirs: set[str] = field(default_factory=set)
    dir_mtimes: dict[str, int] = field(default_factory=dict)  # relative path ("" the root) -> mtime_ns
    settings: dict[str, dict[str, str]] = field(default_factory=dict)
    props: dict[str, str] = field(default_factory=dict)
    records: dict = field(default_factory=dict)

    @property
    def size(self) -> int:
        return sum(len(f.data) for f in self.files.values())


def _walk(root: str) -> tuple[dict[str, os.stat_result], dict[str, str], set[str]]:
    """Every file (with its lstat), symlink and directory under root, by relative path."""
    files: dict[str, os.stat_result] = {}
    links: dict[str, str] = {}
    dirs: set[str] = set()
    stack = [""]
    while stack:
        rel = stack.pop()
        with os.scandir(os.path.join(root, rel) if rel else root) as it:
            for entry in it:
                path = f"{rel}/{entry.name}" if rel else entry.name
                if entry.is_symlink():
                    links[path] = os.readlink(entry.path)
                elif entry.is_dir(follow_symlinks=False):
                    dirs.add(path)
                    stack.append(path)
                else:
                    files[path] = entry.stat(follow_symlinks=False)
    return files, links, dirs


class Snapshots:
    """A device's snapshots by name (the emulator console's `avd snapshot ...`), kept in memory:
    they end with the device."""

    def __init__(self, device: Device) -> None:
        self.device = device
        self.saved: dict[str, DeviceSnapshot] = {}

    def save(self, name: str) -> DeviceSnapshot:
        with self.device.lock:
            self.saved[name] = take(self.device, name)
            return self.saved[name]

    def load(self, name: str) -> RestoreStats:
        """Restore snapshot `name`; KeyError when there is none of that name."""
        with self.device.lock:
            return restore(self.device, self.saved[name])


def take(device: Device, name: str) -> DeviceSnapshot:
    """Snapshot the device as it is now (call under device.lock)."""
    root = str(device.root)
    files, links, dirs = _walk(root)
    snap = DeviceSnapshot(name, device.clock.now(), links=links, dirs=dirs, dir_mtimes=_dir_mtimes(root, dirs))
    for rel, st in files.items():
        path = os.path.join(root, rel)
        with open(path, "rb") as f:
            entry = _File(f.read(), stat.S_IMODE(st.st_mode), st.st_mtime_ns)
        entry.note(os.lstat(path))  # after the read: the signature the file has now
        snap.files[rel] = entry
    snap.settings = copy.deepcopy(device.settings.data)
    snap.props = dict(device.props)
    snap.records = copy.deepcopy(device.packages.records)
    return snap


def _dir_mtimes(root: str, dirs: set[str]) -> dict[str, int]:
    return {rel: os.lstat(os.path.join(root, rel) if rel else root).st_mtime_ns for rel in ("", *dirs)}


def restore(device: Device, snap: DeviceSnapshot) -> RestoreStats:
    """Put the device back as it was when `snap` was taken (call under device.lock)."""
    stats = RestoreStats()
    _restore_files(str(device.root), snap, stats)
    _restore_memory(device, snap)
    return stats


def _restore_files(root: str, snap: DeviceSnapshot, stats: RestoreStats) -> None:
    files, links, dirs = _walk(root)
    # Extra directories go first, with everything in them (deepest first is not needed: rmtree).
    for rel in sorted(dirs - snap.dirs):
        if os.path.dirname(rel) in dirs - snap.dirs:
            continue  # its parent goes, and it with it
        shutil.rmtree(os.path.join(root, rel), ignore_errors=True)
    gone = tuple(d + "/" for d in dirs - snap.dirs)
    for rel in sorted(snap.dirs - dirs):  # parents first
        path = os.path.join(root, rel)
        if os.path.lexists(path) and not os.path.isdir(path):  # a file or link where the folder was
            os.unlink(path)
        os.makedirs(path, exist_ok=True)
    for rel, target in links.items():
        if rel.startswith(gone):
            continue
        if snap.links.get(rel) != target:
            os.unlink(os.path.join(root, rel))
            stats.deleted += 1
    for rel, target in snap.links.items():
        if links.get(rel) != target:
            path = os.path.join(root, rel)
            if os.path.isdir(path) and not os.path.islink(path):
                shutil.rmtree(path)
            elif os.path.lexists(path):
                os.unlink(path)
            os.symlink(target, path)
            stats.rewritten += 1
    for rel in files:
        if rel.startswith(gone):
            continue
        stats.checked += 1
        if rel not in snap.files and rel not in snap.dirs:  # (a folder is back in its place already)
            os.unlink(os.path.join(root, rel))
            stats.deleted += 1
    for rel, entry in snap.files.items():
        path = os.path.join(root, rel)
        st = files.get(rel)
        if st is not None and not rel.startswith(gone) and entry.matches(st, path):
            continue
        if st is None and os.path.isdir(path):  # a directory where the file was
            shutil.rmtree(path)
        if st is not None and not os.access(path, os.W_OK):  # made read-only by the task
            os.chmod(path, stat.S_IRUSR | stat.S_IWUSR)
        with open(path, "wb") as f:  # in place where it exists: the inode stays
            f.write(entry.data)
        os.chmod(path, entry.mode)
        os.utime(path, ns=(entry.mtime_ns, entry.mtime_ns))
        entry.note(os.lstat(path))
        stats.rewritten += 1
    # Folders' times last: an entry made or removed in a folder (by the task or just now) moved its
    # mtime, which File Manager shows and sorts by; an emulator's snapshot brings it back too.
    for rel, mtime in _dir_mtimes(root, snap.dirs).items():
        if mtime != snap.dir_mtimes.get(rel, mtime):
            os.utime(os.path.join(root, rel) if rel else root, ns=(snap.dir_mtimes[rel], snap.dir_mtimes[rel]))


def _restore_memory(device: Device, snap: DeviceSnapshot) -> None:
    device.clock.set(snap.taken)
    device.settings.data = copy.deepcopy(snap.settings)
    device.props.clear()
    device.props.update(snap.props)
    device.packages.records = copy.deepcopy(snap.records)
    device.packages._live.clear()  # app objects reload their state from the restored data dirs
    old = device.wm
    device.wm = WindowManager(device, old.width, old.height, old.density)
    device.wm.version = old.version + 1  # never reuse a frame version the old screen had
    device.accessibility.history.clear()
    device.clipboard = ""
    device.apply_display()  # the snapshot's `wm size` / `wm density`, kept in its settings
    device.changed()
