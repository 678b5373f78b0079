"""Per-user directories for the state a session trusts: device records, lease files.

What is in them decides which processes a session signals and which folders it deletes, so
they must be the user's alone: created 0700 in a folder named for the uid (or under
`$XDG_RUNTIME_DIR`, private by definition, when it is set and usable), and checked for owner
and mode before anything in them is read. A folder someone else owns, or one others may
write to, is refused with `UnsafeDirectory` rather than used; a file in it that is not the
user's is not read (`open_own`). Only the standard library: the device process imports this.
"""

from __future__ import annotations

import os
import stat
import tempfile
from pathlib import Path

NAME = "pytest-mobile-agent"


class UnsafeDirectory(Exception):
    """A state directory another user owns or may write to: the message names it and the fix."""


def base() -> Path:
    """The user's own state folder: `$XDG_RUNTIME_DIR/pytest-mobile-agent` where that runtime
    folder is theirs and private, else `$TMPDIR/pytest-mobile-agent-UID` (named for the uid,
    so that another user's folder never stands in the way)."""
    runtime = os.environ.get("XDG_RUNTIME_DIR")
    if runtime and _private(Path(runtime)):
        return Path(runtime) / NAME
    return Path(tempfile.gettempdir()) / f"{NAME}-{os.getuid()}"


def state_dir(*parts: str) -> Path:
    """`base()/parts...`, each level created 0700 where missing and checked (`check`)."""
    path = base()
    for level in (path, *(path.joinpath(*parts[: i + 1]) for i in range(len(parts)))):
        try:
            level.mkdir(mode=0o700)  # not parents=True: the folders above are not ours to make
        except FileExistsError:
            pass
        check(level)
    return path.joinpath(*parts)


def check(path: Path) -> None:
    """Raise UnsafeDirectory unless `path` is a real directory (not a link) that the current
    user owns and nobody else may enter or write to."""
    st = os.lstat(path)
    uid = os.getuid()
    if not stat.S_ISDIR(st.st_mode):
        problem = "is not a directory (a link or a file stands in its place)"
    elif st.st_uid != uid:
        problem = f"is owned by uid {st.st_uid}, not by you (uid {uid})"
    elif st.st_mode & 0o077:
        problem = f"is open to other users (mode {stat.S_IMODE(st.st_mode):04o}, expected 0700)"
    else:
        return
    raise UnsafeDirectory(
        f"pytest-mobile-agent will not use {path}: it {problem}, so records in it could have been "
        f"planted by someone else. Remove it if it is yours (or `chmod 700` it), or point TMPDIR "
        f"or XDG_RUNTIME_DIR at a directory of your own."
    )


def open_own(path: Path) -> int | None:
    """A read descriptor on `path` if it is a regular file of the current user; None otherwise
    (missing, a link, or someone else's: such a file is not read)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError:
        return None
    st = os.fstat(fd)
    if stat.S_ISREG(st.st_mode) and st.st_uid == os.getuid():
        return fd
    os.close(fd)
    return None


def owned_dir(path: Path) -> bool:
    """Whether `path` is a real directory (not a link) of the current user."""
    try:
        st = os.lstat(path)
    except OSError:
        return False
    return stat.S_ISDIR(st.st_mode) and st.st_uid == os.getuid()


def _private(path: Path) -> bool:
    try:
        check(path)
    except (OSError, UnsafeDirectory):
        return False
    return True
