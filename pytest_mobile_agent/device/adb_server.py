"""The ordinary adb server: found, started and asked to connect devices, through adbutils.

The adb binary inside the adbutils wheel is enough; a system adb is used only when
`ADBUTILS_ADB_PATH` points at it (adbutils' own setting).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import time

import adbutils


class AdbServerError(RuntimeError):
    pass


def adb_path() -> str:
    return adbutils.adb_path()


def server_port() -> int:
    return int(os.environ.get("ANDROID_ADB_SERVER_PORT", "5037"))


def client(host: str = "127.0.0.1", port: int | None = None) -> adbutils.AdbClient:
    return adbutils.AdbClient(host=host, port=port or server_port(), socket_timeout=30)


def ensure_server() -> None:
    """Start the adb server unless one answers already."""
    try:
        client().server_version()
        return
    except Exception:
        pass
    result = subprocess.run([adb_path(), "start-server"], capture_output=True, text=True, timeout=60)
    if result.returncode != 0:
        raise AdbServerError(f"`adb start-server` failed: {result.stderr.strip() or result.stdout.strip()}")


def connect(address: str, timeout: float = 10.0) -> str:
    """`adb connect ADDRESS`, then wait until the server lists it as an online device."""
    ensure_server()
    adb = client()
    deadline = time.monotonic() + timeout
    while True:
        message = adb.connect(address, timeout=timeout)
        if state(address) == "device":
            return address
        if time.monotonic() > deadline:
            raise AdbServerError(f"adb could not connect to {address}: {message} (state {state(address)!r})")
        time.sleep(0.05)


def disconnect(address: str) -> None:
    try:
        client().disconnect(address)
    except Exception:  # already gone, or the server is down: nothing left to undo
        pass


def state(serial: str) -> str | None:
    for info in client().list():
        if info.serial == serial:
            return info.state
    return None


def expose_adb_on_path() -> None:
    """AndroidViewClient looks for `adb` on PATH; give it the one adbutils ships if none is there."""
    import shutil

    if shutil.which("adb") is None:
        os.environ["PATH"] = os.path.dirname(adb_path()) + os.pathsep + os.environ.get("PATH", "")


ADB_VERSION = re.compile(r"Android Debug Bridge version 1\.0\.(\d+)")


def _client_version(adb: str) -> int | None:
    """The protocol version `adb version` prints (1.0.41 -> 41), None where it says none."""
    try:
        out = subprocess.run([adb, "version"], capture_output=True, text=True, timeout=10).stdout
    except (OSError, subprocess.SubprocessError):
        return None
    found = ADB_VERSION.search(out)
    return int(found.group(1)) if found else None


def path_adb_mismatch() -> str | None:
    """What is wrong where the `adb` on PATH is another version than the adb server's (the
    running one, else the one the plugin would start): any `adb` command run from PATH (by an
    agent, AndroidViewClient, a tool) then kills the server and starts its own, and every device
    drops mid-run (adb's client does so on "adb server version (X) doesn't match this client
    (Y); killing..."). None where they agree or there is no other adb."""
    found = shutil.which("adb")
    if found is None:
        return None
    try:
        server: int | None = client().server_version()
    except Exception:  # no server yet: the one the plugin starts (adbutils' choice, maybe this one)
        if os.path.realpath(found) == os.path.realpath(adb_path()):
            return None
        server = _client_version(adb_path())
    theirs = _client_version(found)
    if theirs is None or server is None or theirs == server:
        return None
    return (
        f"the adb on PATH ({found}, 1.0.{theirs}) is another version than the adb server's (1.0.{server}): "
        "an `adb` command run from PATH would kill the server and start its own mid-run, dropping every "
        "device. Put an adb of the server's version first on PATH, or set ADBUTILS_ADB_PATH to the PATH "
        "one and restart the server with it (`adb kill-server`)"
    )
