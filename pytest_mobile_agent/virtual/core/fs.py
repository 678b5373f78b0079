"""The device filesystem: Android paths mapped into one host directory (the device root).

Nothing is ever written outside the root: every path is resolved lexically, `..` cannot climb
above `/`, and the aliases of shared storage (`/sdcard`, `/storage/self/primary`,
`/mnt/sdcard`) all lead to `/storage/emulated/0`, as on a phone.
"""

from __future__ import annotations

import posixpath
from pathlib import Path

SHARED_STORAGE = "/storage/emulated/0"
_ALIASES = {
    "/sdcard": SHARED_STORAGE,
    "/storage/self/primary": SHARED_STORAGE,
    "/mnt/sdcard": SHARED_STORAGE,
    "/storage/emulated/legacy": SHARED_STORAGE,
}
# Directories a fresh device has; shared storage gets the folders apps expect.
_SKELETON = (
    "/data/local/tmp",
    "/data/data",
    "/data/app",
    "/data/system",
    "/system/bin",
    "/system/app",
    "/proc",
    "/dev",
    f"{SHARED_STORAGE}/Alarms",
    f"{SHARED_STORAGE}/DCIM/Camera",
    f"{SHARED_STORAGE}/Documents",
    f"{SHARED_STORAGE}/Download",
    f"{SHARED_STORAGE}/Movies",
    f"{SHARED_STORAGE}/Music",
    f"{SHARED_STORAGE}/Notifications",
    f"{SHARED_STORAGE}/Pictures",
    f"{SHARED_STORAGE}/Podcasts",
    f"{SHARED_STORAGE}/Recordings",
    f"{SHARED_STORAGE}/Ringtones",
)
# Paths that are devices, not files.
DEV_NULL = "/dev/null"
DEV_TTY = "/dev/tty"


class FileSystem:
    def __init__(self, root: Path) -> None:
        self.root = root
        for d in _SKELETON:
            self.host(d).mkdir(parents=True, exist_ok=True)

    def normalize(self, path: str, cwd: str = "/") -> str:
        """Absolute, `..`-free device path with shared-storage aliases resolved."""
        full = posixpath.normpath(posixpath.join(cwd, path or "."))
        if full.startswith("//"):
            full = full[1:]
        for alias, target in _ALIASES.items():
            if full == alias or full.startswith(alias + "/"):
                return target + full[len(alias) :]
        return full

    def host(self, path: str, cwd: str = "/") -> Path:
        """Host path of a device path; always inside the root."""
        rel = self.normalize(path, cwd).lstrip("/")
        return self.root / rel if rel else self.root

    def device_path(self, host_path: Path) -> str:
        return "/" + host_path.relative_to(self.root).as_posix()

    def read(self, path: str) -> bytes:
        return self.host(path).read_bytes()

    def write(self, path: str, data: bytes) -> None:
        target = self.host(path)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)

    def exists(self, path: str) -> bool:
        return self.host(path).exists()
