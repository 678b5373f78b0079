"""File commands of the device (toybox's, as `adb shell` shows them): reading (cat, md5sum and the
other digests, tee) and changing files (rm, rmdir, mkdir, touch, chmod, cp, mv).

Every path goes through `ctx.device.fs`, so nothing can reach outside the device root.
Messages and exit statuses follow toybox: `cmd: PATH: strerror` and status 1."""

from __future__ import annotations

import hashlib
import os
import posixpath
import re
import shutil
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

from pytest_mobile_agent.virtual.core.fs import DEV_NULL, SHARED_STORAGE
from pytest_mobile_agent.virtual.shell.api import CommandContext, strerror
from pytest_mobile_agent.virtual.shell.commands.common import (
    UsageError,
    cmd,
    device_now,
    err,
    host,
    inputs,
    lines,
    norm,
    opts,
    out,
)


@cmd("cat")
def cat(ctx: CommandContext) -> int:
    o, ops = opts(ctx.argv, "uvtesAn")
    status, number = 0, 0
    for _, data in inputs(ctx, ops):
        if data is None:
            status = 1
        elif "n" in o:
            for line in lines(data):
                number += 1
                ctx.stdout.write(b"%6d\t" % number + line)
        else:
            ctx.stdout.write(data)
    return status


def _digest(algorithm: str) -> Callable[[CommandContext], int]:
    def run(ctx: CommandContext) -> int:
        _, ops = opts(ctx.argv, "bcs")
        status = 0
        for path, data in inputs(ctx, ops):
            if data is None:
                status = 1
            else:
                out(ctx, f"{hashlib.new(algorithm, data).hexdigest()}  {path}\n")
        return status

    return run


for _algorithm in ("md5", "sha1", "sha224", "sha256", "sha384", "sha512"):
    cmd(f"{_algorithm}sum")(_digest(_algorithm))


@cmd("tee")
def tee(ctx: CommandContext) -> int:
    o, ops = opts(ctx.argv, "ai")
    data = ctx.stdin.read()
    ctx.stdout.write(data)
    status = 0
    for path in ops:
        try:
            with open(host(ctx, path), "ab" if "a" in o else "wb") as f:
                f.write(data)
        except OSError as e:
            err(ctx, f"tee: {path}: {strerror(e)}")
            status = 1
    return status


# --- changing files --------------------------------------------------------------------------

# Removing these would break the device itself; a phone refuses too (read-only or no permission).
_PROTECTED = frozenset(("/", "/data", "/system", "/storage", "/storage/emulated", SHARED_STORAGE, "/dev"))


@cmd("rm")
def rm(ctx: CommandContext) -> int:
    o, ops = opts(ctx.argv, "frRdiv")
    if not ops and "f" not in o:
        raise UsageError("Needs 1 argument")
    status = 0
    for path in ops:
        h = host(ctx, path)
        if norm(ctx, path) in _PROTECTED:
            err(ctx, f"rm: {path}: Permission denied")
            status = 1
        elif not os.path.lexists(h):
            if "f" not in o:
                err(ctx, f"rm: {path}: No such file or directory")
                status = 1
        elif h.is_dir() and not h.is_symlink():
            if "r" in o or "R" in o:
                shutil.rmtree(h, ignore_errors=True)
            elif "d" in o and not any(h.iterdir()):
                h.rmdir()
            else:
                err(ctx, f"rm: {path}: Is a directory")
                status = 1
        else:
            h.unlink()
    return status


@cmd("rmdir")
def rmdir(ctx: CommandContext) -> int:
    _, ops = opts(ctx.argv, "p")
    status = 0
    for path in ops:
        try:
            if norm(ctx, path) in _PROTECTED:
                raise PermissionError(13, "Permission denied")
            host(ctx, path).rmdir()
        except OSError as e:
            err(ctx, f"rmdir: {path}: {strerror(e)}")
            status = 1
    return status


@cmd("mkdir")
def mkdir(ctx: CommandContext) -> int:
    o, ops = opts(ctx.argv, "pv", "m")
    if not ops:
        raise UsageError("Needs 1 argument")
    status = 0
    for path in ops:
        try:
            host(ctx, path).mkdir(parents="p" in o, exist_ok="p" in o)
        except OSError as e:
            err(ctx, f"mkdir: {path}: {strerror(e)}")
            status = 1
    return status


def _touch_time(ctx: CommandContext, o: dict[str, list]) -> float | None:
    """The time -r, -d or -t names, in seconds since the epoch; None means now."""
    now = device_now(ctx)
    zone = now.tzinfo
    if "r" in o:
        return host(ctx, o["r"][-1]).stat().st_mtime  # a missing reference raises OSError
    if "d" in o:  # @EPOCH or YYYY-MM-DD[T ]hh:mm[:ss[.frac]][Z]
        raw = o["d"][-1]
        if raw.startswith("@"):
            return float(raw[1:])
        when = datetime.fromisoformat(raw[:-1] + "+00:00" if raw.endswith("Z") else raw)
        return (when if when.tzinfo else when.replace(tzinfo=zone)).timestamp()
    if "t" in o:  # [[CC]YY]MMDDhhmm[.ss]
        m = re.fullmatch(r"((?:\d{2}){0,2})(\d{2})(\d{2})(\d{2})(\d{2})(?:\.(\d{2}))?", o["t"][-1])
        if not m:
            raise ValueError(o["t"][-1])
        year_digits, mo, dd, hh, mi, ss = m.groups()
        year = now.year
        if len(year_digits) == 4:
            year = int(year_digits)
        elif year_digits:  # POSIX: 69-99 are 19xx, 00-68 are 20xx
            year = int(year_digits) + (1900 if int(year_digits) >= 69 else 2000)
        return datetime(year, int(mo), int(dd), int(hh), int(mi), int(ss or 0), tzinfo=zone).timestamp()
    return None


@cmd("touch")
def touch(ctx: CommandContext) -> int:
    o, ops = opts(ctx.argv, "acmh", "dtr")
    try:
        when = _touch_time(ctx, o)
    except OSError as e:
        err(ctx, f"touch: {o['r'][-1]}: {strerror(e)}")
        return 1
    except ValueError:
        err(ctx, f"touch: bad date '{o['d'][-1] if 'd' in o else o['t'][-1]}'")
        return 1
    status = 0
    for path in ops:
        if norm(ctx, path) == DEV_NULL:
            continue
        h = host(ctx, path)
        try:
            if not h.exists():
                if "c" in o:
                    continue
                h.touch()
            if when is not None or "a" in o or "m" in o:
                st = h.stat()
                t = when if when is not None else datetime.now(UTC).timestamp()
                # -a or -m alone keeps the other time as it was
                atime = st.st_atime if "m" in o and "a" not in o else t
                mtime = st.st_mtime if "a" in o and "m" not in o else t
                os.utime(h, (atime, mtime))
            else:
                os.utime(h)
        except OSError as e:
            err(ctx, f"touch: {path}: {strerror(e)}")
            status = 1
    return status


@cmd("chmod", "chown", "chgrp")
def chmod(ctx: CommandContext) -> int:
    _, ops = opts(ctx.argv, "Rfvh")
    if len(ops) < 2:
        raise UsageError("Needs 2 arguments")
    status = 0
    for path in ops[1:]:  # permissions are not modelled: only check the file is there
        if norm(ctx, path) != DEV_NULL and not os.path.lexists(host(ctx, path)):
            err(ctx, f"{ctx.argv[0]}: {path}: No such file or directory")
            status = 1
    return status


def _destination(ctx: CommandContext, src: str, dest: str) -> Path:
    d = host(ctx, dest)
    return d / posixpath.basename(norm(ctx, src)) if d.is_dir() else d


def _inside(child: Path, parent: Path) -> bool:
    return child == parent or parent in child.parents


def _sources_and_dest(ctx: CommandContext, name: str, ops: list[str]) -> tuple[list[str], str] | None:
    """`cp`/`mv` operands: the sources and the destination, which must be a directory when there
    are several sources (else the error is printed and None returned)."""
    if len(ops) < 2:
        raise UsageError("Needs 2 arguments")
    *sources, dest = ops
    if len(sources) > 1 and not host(ctx, dest).is_dir():
        err(ctx, f"{name}: {dest}: Not a directory")
        return None
    return sources, dest


@cmd("cp")
def cp(ctx: CommandContext) -> int:
    o, ops = opts(ctx.argv, "rRfpaidnLPHvslTu")
    parsed = _sources_and_dest(ctx, "cp", ops)
    if parsed is None:
        return 1
    sources, dest = parsed
    status = 0
    for src in sources:
        target = _destination(ctx, src, dest)
        try:
            if norm(ctx, src) == DEV_NULL:
                target.write_bytes(b"")
                continue
            s = host(ctx, src)
            if not s.is_dir():
                if s.exists() and target.exists() and s.samefile(target):
                    raise OSError(0, f"'{src}' and '{dest}' are the same file")
                shutil.copyfile(s, target)
            elif not ("r" in o or "R" in o or "a" in o):
                err(ctx, f"cp: Skipped dir '{src}'")
                status = 1
            elif _inside(target, s):
                err(ctx, f"cp: {src}: Can't copy a directory into itself")
                status = 1
            else:
                shutil.copytree(s, target, dirs_exist_ok=True)
        except OSError as e:
            err(ctx, f"cp: {src}: {strerror(e)}")
            status = 1
    return status


@cmd("mv")
def mv(ctx: CommandContext) -> int:
    _, ops = opts(ctx.argv, "finvT")
    parsed = _sources_and_dest(ctx, "mv", ops)
    if parsed is None:
        return 1
    sources, dest = parsed
    status = 0
    for src in sources:
        s, target = host(ctx, src), _destination(ctx, src, dest)
        try:
            if norm(ctx, src) in _PROTECTED:
                raise PermissionError(13, "Permission denied")
            if not os.path.lexists(s):
                raise FileNotFoundError(2, "No such file or directory")
            if s.is_dir() and _inside(target, s) and target != s:
                raise OSError(22, "Can't move a directory into itself")
            if target != s:
                shutil.move(s, target)
        except OSError as e:
            err(ctx, f"mv: {src}: {strerror(e)}")
            status = 1
    return status
