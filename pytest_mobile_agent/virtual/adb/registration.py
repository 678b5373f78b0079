"""Which virtual devices are registered with an adb server, so that ended ones leave no trace.

A device registered by `adb connect` (serial HOST:PORT) stays in `adb devices` as `offline` when
its process dies without taking itself off: the server keeps trying to reconnect. So each device
writes a small file here once it is online and removes it after it has unregistered itself on a
clean exit. A device killed with SIGKILL cannot: its file stays, and `sweep()` (run before the pool
starts devices, so by the next session at the latest) takes every such dead device off its adb
server and removes its temporary root. Both serial styles need it: an `emulator-N` whose process
was killed also stays listed as offline. The files sit in the user's private state directory
(core/private_dirs.py): a sweep acts on no record another user could have written.

It also speaks to the adb server itself (smart-socket requests, starting a server where none
answers). Only the standard library at import: the device process imports this module.
"""

from __future__ import annotations

import json
import logging
import os
import re
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

from pytest_mobile_agent.virtual.core.private_dirs import UnsafeDirectory, open_own, owned_dir, state_dir

log = logging.getLogger(__name__)


def directory() -> Path:
    """The user's device records, created private where missing; UnsafeDirectory where it is
    not private."""
    return state_dir("virtual-devices")


def adb_server_port() -> int:
    return int(os.environ.get("ANDROID_ADB_SERVER_PORT", "5037"))


def _entry(serial: str, adb_port: int, folder: Path | None = None) -> Path:
    name = re.sub(r"[^\w.-]", "_", serial)
    return (folder or directory()) / f"{adb_port}-{name}.json"


def add(serial: str, pid: int, root: Path | None) -> None:
    """Called by the device once it is online. A device that cannot write its record still runs
    (it only loses the sweep after a SIGKILL)."""
    port = adb_server_port()
    record = {
        "serial": serial,
        "pid": pid,
        "started": started(pid),
        "adb_port": port,
        "root": str(root) if root else None,
    }
    try:
        path = _entry(serial, port)
        tmp = path.with_suffix(f".{pid}.tmp")
        tmp.write_text(json.dumps(record))
        tmp.replace(path)  # a sweep never reads half a file
    except (OSError, UnsafeDirectory) as exc:
        print(f"warning: cannot record the device: {exc}", file=sys.stderr)


def remove(serial: str, adb_port: int | None = None) -> None:
    """Called once the device is off the adb server."""
    try:
        _entry(serial, adb_port or adb_server_port()).unlink(missing_ok=True)
    except UnsafeDirectory:  # nothing of ours can be in it
        pass


def unregister(serial: str, adb_port: int | None = None) -> None:
    """Take a device off the adb server and forget it. An `emulator-N` whose process was killed
    stays listed as offline too, until it is disconnected."""
    if disconnect(serial, adb_port):
        # The server drops the transport on its own thread, a moment after it answers.
        await_gone(serial, adb_port, timeout=1.0)
    remove(serial, adb_port)


def disconnect(serial: str, adb_port: int | None = None) -> bool:
    """Ask the adb server to drop `serial`; False where it is already gone or no server answers
    (nothing left to undo)."""
    try:
        adb_request(f"host:disconnect:{serial}", adb_port or adb_server_port())
    except OSError:  # ConnectionError too: the server's FAIL
        return False
    return True


def await_gone(serial: str, adb_port: int | None = None, timeout: float = 5.0) -> None:
    """Wait until the adb server no longer lists `serial`, so that a device that has stopped is
    gone from `adb devices` (the server drops an emulator on its own schedule)."""
    deadline = time.monotonic() + timeout
    try:
        while any(
            line.split("\t")[0] == serial
            for line in adb_request("host:devices", adb_port or adb_server_port()).splitlines()
        ):
            if time.monotonic() > deadline:
                log.warning("adb still lists %s %.0fs after it stopped", serial, timeout)
                return
            time.sleep(0.01)
    except OSError:  # no server: nothing lists it
        pass


def started(pid: int) -> str | None:
    """When the process began (clock ticks since boot), which tells it from a later process
    given the same pid; None where there is no /proc (or no such process)."""
    try:
        return _stat(pid)[19]
    except OSError:
        return None


def _stat(pid: int) -> list[str]:
    """/proc/PID/stat's fields after the command name (which may hold spaces): state first."""
    return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()


def running(pid: int, since: str | None = None) -> bool:
    """Whether pid is a live process (not a zombie) and, given `since` (its `started()` when it
    was recorded), the same process, not a later one that reuses the pid."""
    try:
        fields = _stat(pid)
    except FileNotFoundError:
        return False
    except OSError:  # no /proc here: only ask whether the pid exists
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        except PermissionError:
            pass
        return True
    return fields[0] != "Z" and (since is None or fields[19] == since)


def sweep() -> list[str]:
    """Unregister every recorded device whose process is gone; returns their serials.

    Raises UnsafeDirectory, deleting nothing, where the records' directory is not the user's
    alone; a record file that is not the user's is skipped."""
    folder = directory()
    swept = []
    for path in sorted(folder.glob("*.json")):
        record = _read_record(path)
        if record is None or running(record["pid"], record.get("started")):
            continue
        unregister(record["serial"], record["adb_port"])
        root = record.get("root")
        if root and Path(root).name.startswith("pma-vdev-") and owned_dir(Path(root)):
            shutil.rmtree(root, ignore_errors=True)
        swept.append(record["serial"])
    return swept


def _read_record(path: Path) -> dict | None:
    """A record of this user's, parsed; None for someone else's file or a malformed one."""
    fd = open_own(path)
    if fd is None:
        log.warning("ignoring %s: not a file of this user's", path)
        return None
    try:
        with os.fdopen(fd) as f:
            record = json.load(f)
        if isinstance(record, dict) and {"serial", "pid", "adb_port"} <= record.keys():
            return record
    except (OSError, ValueError):
        pass
    return None


def adb_request(request: str, port: int) -> str:
    """One smart-socket request to the adb server; the reply's text."""
    data = request.encode()
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(b"%04x" % len(data) + data)
        status = sock.recv(4, socket.MSG_WAITALL)
        size = int(sock.recv(4, socket.MSG_WAITALL) or b"0", 16)
        text = sock.recv(size, socket.MSG_WAITALL).decode(errors="replace") if size else ""
    if status != b"OKAY":
        raise ConnectionError(f"adb server: {request}: {text or status!r}")
    return text


def ensure_server() -> None:
    """Start the adb server unless one answers already."""
    try:
        adb_request("host:version", adb_server_port())
        return
    except (OSError, ValueError):  # ConnectionError too: a server that answers FAIL is no server to use
        pass
    # Only now: adbutils (and requests, urllib3, ...) weighs about 9 MB in a device process.
    import adbutils

    result = subprocess.run([adbutils.adb_path(), "start-server"], capture_output=True, text=True, timeout=60)
    if result.returncode != 0:
        raise ConnectionError(f"`adb start-server` failed: {result.stderr.strip() or result.stdout.strip()}")
