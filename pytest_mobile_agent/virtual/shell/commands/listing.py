"""Looking at files: toybox `ls`, `stat` and `find` (with `-exec`), as `adb shell` shows them.

Owners are what a phone shows for its shared storage and /data/local/tmp; every path goes
through `ctx.device.fs`."""

from __future__ import annotations

import fnmatch
import os
import posixpath
import re
import stat
from collections.abc import Callable, Iterable
from datetime import UTC, datetime
from pathlib import Path

from pytest_mobile_agent.virtual.core.fs import SHARED_STORAGE
from pytest_mobile_agent.virtual.shell.api import COMMANDS, CommandContext, strerror
from pytest_mobile_agent.virtual.shell.commands.common import UsageError, cmd, err, host, norm, opts, out


def _owner(path: str) -> tuple[str, str]:
    if path == SHARED_STORAGE or path.startswith(SHARED_STORAGE + "/"):
        return "root", "sdcard_rw"
    if path.startswith("/data/local/tmp"):
        return "shell", "shell"
    return "root", "root"


def _mtime(st: os.stat_result) -> datetime:
    return datetime.fromtimestamp(st.st_mtime, UTC)


@cmd("ls")
def ls(ctx: CommandContext) -> int:
    o, ops = opts(ctx.argv, "laA1RdhtrSsFpcunigoZC")
    status = 0
    files: list[str] = []
    dirs: list[str] = []
    for path in ops or ["."]:
        try:
            st = host(ctx, path).stat()
        except OSError as e:
            err(ctx, f"ls: {path}: {strerror(e)}")
            status = 1
            continue
        (dirs if stat.S_ISDIR(st.st_mode) and "d" not in o else files).append(path)
    printed = False
    if files:
        _ls_entries(ctx, o, [(f, f) for f in _ls_sort(ctx, o, files, None)], total=False)
        printed = True
    headers = len(ops) > 1 or "R" in o
    queue = list(dirs)
    while queue:
        path = queue.pop(0)
        h = host(ctx, path)
        try:
            names = os.listdir(h)
        except OSError as e:
            err(ctx, f"ls: {path}: {strerror(e)}")
            status = 1
            continue
        if headers:
            out(ctx, ("\n" if printed else "") + f"{path}:\n")
        printed = True
        if "a" not in o and "A" not in o:
            names = [x for x in names if not x.startswith(".")]
        names = _ls_sort(ctx, o, names, h)
        if "a" in o:
            names = [".", "..", *names]
        _ls_entries(ctx, o, [(posixpath.join(path, x), x) for x in names], total=True)
        if "R" in o:
            sub = [posixpath.join(path, x) for x in names if x not in (".", "..")]
            queue[:0] = [p for p in sub if host(ctx, p).is_dir() and not host(ctx, p).is_symlink()]
    return status


def _ls_sort(ctx: CommandContext, o: dict, names: list[str], base: Path | None) -> list[str]:
    def st(name: str) -> os.stat_result:
        return (base / name if base else host(ctx, name)).lstat()

    if "t" in o:
        names = sorted(names, key=lambda x: (-st(x).st_mtime, x))
    elif "S" in o:
        names = sorted(names, key=lambda x: (-st(x).st_size, x))
    else:
        names = sorted(names)
    return names[::-1] if "r" in o else names


def _ls_entries(ctx: CommandContext, o: dict, entries: list[tuple[str, str]], total: bool) -> None:
    long = "l" in o or "n" in o or "g" in o or "o" in o
    rows: list[list[str]] = []
    blocks = 0
    for path, name in entries:
        try:
            st = host(ctx, path).lstat()
        except OSError:
            continue
        shown = name + ("/" if ("p" in o or "F" in o) and stat.S_ISDIR(st.st_mode) else "")
        if not long:
            rows.append([shown])
            continue
        blocks += st.st_blocks // 2
        user, group = _owner(norm(ctx, path))
        mtime = _mtime(st).strftime("%Y-%m-%d %H:%M")
        rows.append(
            [
                stat.filemode(st.st_mode),
                str(st.st_nlink),
                user,
                group,
                str(st.st_size),
                mtime,
                shown,
            ]
        )
    if not long:
        out(ctx, "".join(r[0] + "\n" for r in rows))
        return
    widths = [max((len(r[k]) for r in rows), default=0) for k in range(5)]
    text = "".join(
        f"{r[0]} {r[1]:>{widths[1]}} {r[2]:<{widths[2]}} {r[3]:<{widths[3]}} {r[4]:>{widths[4]}} {r[5]} {r[6]}\n"
        for r in rows
    )
    out(ctx, (f"total {blocks}\n" if total else "") + text)


@cmd("stat")
def stat_(ctx: CommandContext) -> int:
    o, ops = opts(ctx.argv, "Lft", "c")
    if not ops:
        raise UsageError("Needs 1 argument")
    status = 0
    for path in ops:
        try:
            h = host(ctx, path)
            st = h.stat() if "L" in o else h.lstat()
        except OSError as e:
            err(ctx, f"stat: {path}: {strerror(e)}")
            status = 1
            continue
        fmt = str(o["c"][-1]) if "c" in o else _STAT_DEFAULT
        text = _stat_format(ctx, fmt, path, st)
        out(ctx, text + "\n")
    return status


_STAT_DEFAULT = (
    "  File: %N\n  Size: %s\t Blocks: %b\t IO Blocks: %o\t%F\nDevice: fd00h/64768d\t Inode: %i\t "
    "Links: %h\nAccess: (0%a/%A)\tUid: (%u/%U)\tGid: (%g/%G)\nAccess: %x\nModify: %y\nChange: %z"
)


def _stat_format(ctx: CommandContext, fmt: str, path: str, st: os.stat_result) -> str:
    return re.sub(r"%(.)", lambda m: _stat_field(ctx, m.group(1), path, st), fmt)


def _stat_field(ctx: CommandContext, c: str, path: str, st: os.stat_result) -> str:
    user, group = _owner(norm(ctx, path))
    ids = {"root": "0", "shell": "2000", "sdcard_rw": "1015"}
    kind = "directory" if stat.S_ISDIR(st.st_mode) else "symbolic link" if stat.S_ISLNK(st.st_mode) else None
    kind = kind or ("regular empty file" if st.st_size == 0 else "regular file")

    def stamp(t: float) -> str:
        return datetime.fromtimestamp(t, UTC).strftime("%Y-%m-%d %H:%M:%S.%f000 +0000")

    fields: dict[str, Callable[[], object]] = {
        "s": lambda: st.st_size,
        "n": lambda: path,
        "N": lambda: f"'{path}'" if c == "N" else path,
        "a": lambda: f"{stat.S_IMODE(st.st_mode):o}",
        "A": lambda: stat.filemode(st.st_mode),
        "F": lambda: kind,
        "b": lambda: st.st_blocks,
        "B": lambda: 512,
        "o": lambda: 4096,
        "h": lambda: st.st_nlink,
        "i": lambda: st.st_ino,
        "u": lambda: ids[user],
        "g": lambda: ids[group],
        "U": lambda: user,
        "G": lambda: group,
        "X": lambda: int(st.st_atime),
        "Y": lambda: int(st.st_mtime),
        "Z": lambda: int(st.st_ctime),
        "x": lambda: stamp(st.st_atime),
        "y": lambda: stamp(st.st_mtime),
        "z": lambda: stamp(st.st_ctime),
        "%": lambda: "%",
    }
    fn = fields.get(c)
    return str(fn()) if fn else "?"


@cmd("find")
def find(ctx: CommandContext) -> int:
    args = ctx.argv[1:]
    roots: list[str] = []
    while args and not args[0].startswith("-") and args[0] not in ("!", "("):
        roots.append(args.pop(0))
    preds: dict[str, str] = {}
    exec_argv: list[str] | None = None
    batch = False
    while args:
        key = args.pop(0)
        if key in ("-print", "-print0"):
            continue
        if key == "-exec":
            exec_argv, batch = _find_exec(args)
            continue
        if key not in ("-name", "-iname", "-type", "-maxdepth", "-mindepth", "-path") or not args:
            raise UsageError(f"Unknown option '{key}'" if args or key.startswith("-") else "bad arg")
        preds[key] = args.pop(0)
    status = 0
    found: list[str] = []
    for root in roots or ["."]:
        h = host(ctx, root)
        if not os.path.lexists(h):
            err(ctx, f"find: {root}: No such file or directory")
            status = 1
            continue
        for path, depth, is_dir in _find_walk(h, root, 0):
            if not _find_match(preds, path, depth, is_dir):
                continue
            if exec_argv is None:
                out(ctx, path + "\n")
            elif batch:
                found.append(path)
            else:
                _run_exec(ctx, [path if a == "{}" else a for a in exec_argv])
    if exec_argv is not None and batch and found:
        i = exec_argv.index("{}")
        status = _run_exec(ctx, [*exec_argv[:i], *found, *exec_argv[i + 1 :]]) or status
    return status


def _find_exec(args: list[str]) -> tuple[list[str], bool]:
    """`-exec CMD ARGS {} ;` runs CMD once a file, `-exec CMD ARGS {} +` once for all of them
    (toybox takes `{}` only as the last argument of the `+` form, as here)."""
    for i, a in enumerate(args):
        if a == ";" or (a == "+" and i > 0 and args[i - 1] == "{}"):
            argv = args[:i]
            del args[: i + 1]
            if not argv:
                break
            return argv, a == "+"
    raise UsageError("-exec needs ; or {} +")


def _run_exec(ctx: CommandContext, argv: list[str]) -> int:
    fn = COMMANDS.get(argv[0])
    if fn is None:
        err(ctx, f"find: {argv[0]}: No such file or directory")
        return 1
    sub = CommandContext(ctx.device, argv, ctx.stdin, ctx.stdout, ctx.stderr, ctx.env, ctx.cwd, ctx.tty)
    return 1 if fn(sub) else 0


def _find_walk(h: Path, path: str, depth: int) -> Iterable[tuple[str, int, bool]]:
    is_dir = h.is_dir() and not h.is_symlink()
    yield path, depth, is_dir
    if is_dir:
        try:
            names = sorted(os.listdir(h))
        except OSError:
            return
        for name in names:
            yield from _find_walk(h / name, posixpath.join(path, name), depth + 1)


def _find_match(preds: dict[str, str], path: str, depth: int, is_dir: bool) -> bool:
    name = posixpath.basename(path.rstrip("/")) or path
    checks = (
        ("-name", lambda v: fnmatch.fnmatchcase(name, v)),
        ("-iname", lambda v: fnmatch.fnmatchcase(name.lower(), v.lower())),
        ("-path", lambda v: fnmatch.fnmatchcase(path, v)),
        ("-type", lambda v: (v == "d") == is_dir and v in "fd"),
        ("-maxdepth", lambda v: v.isdigit() and depth <= int(v)),
        ("-mindepth", lambda v: v.isdigit() and depth >= int(v)),
    )
    return all(fn(preds[k]) for k, fn in checks if k in preds)
