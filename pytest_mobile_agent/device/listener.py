"""Installs and enables the listener app (listener_app/) on a device, then checks its stream.

Everything goes through adb shell commands a real phone understands (``dumpsys package``,
``pm install``, ``settings``), so the same code serves phones, emulators and virtual devices.
"""

from __future__ import annotations

import logging
import re
import socket
import time
from pathlib import Path
from typing import Any

from pytest_mobile_agent.events.client import LineDecoder, quick_ack
from pytest_mobile_agent.events.schema import (
    EVENT_STREAM_PORT,
    LISTENER_PACKAGE,
    LISTENER_SERVICE,
    LISTENER_VERSION_CODE,
    Hello,
)

log = logging.getLogger(__name__)

_REMOTE_APK = "/data/local/tmp/pytest-mobile-agent-listener.apk"
# Only the listener's own "Package [...]" section counts; dumpsys may mention other packages.
_VERSION_CODE = re.compile(rf"Package \[{re.escape(LISTENER_PACKAGE)}\][^\n]*\n(?:.*\n)*?\s*versionCode=(\d+)")
# Android may list the service with its class name in full rather than the ".Name" short form.
_SERVICE_FORMS = {LISTENER_SERVICE, f"{LISTENER_PACKAGE}/{LISTENER_PACKAGE}.EventStreamService"}


class ListenerUnavailable(RuntimeError):
    """The listener app could not be installed, enabled or reached on a device."""


class ListenerApkMissing(FileNotFoundError):
    """The APK was never built into the package."""


def shipped_apk_path() -> Path:
    """The listener APK shipped as package data; build it with ``listener_app/build.sh``."""
    path = Path(__file__).with_name("listener.apk")
    if not path.is_file():
        raise ListenerApkMissing(
            f"{path} is missing: build the listener app with `bash listener_app/build.sh` "
            "(first `sudo bash listener_app/install-build-deps.sh` on Debian bookworm)"
        )
    return path


def installed_version_code(device: Any) -> int | None:
    """versionCode of the installed listener package, None when it is not installed."""
    out = device.shell(["dumpsys", "package", LISTENER_PACKAGE])
    match = _VERSION_CODE.search(out)
    return int(match.group(1)) if match else None


def ensure_listener(device: Any, apk_path: str | Path | None = None, timeout: float = 10.0) -> Hello:
    """Makes the listener installed, current, enabled and answering; returns its hello.

    Raises ListenerUnavailable naming the device serial and the step that failed.
    """
    serial = getattr(device, "serial", "?")

    def fail(what: str) -> ListenerUnavailable:
        return ListenerUnavailable(f"listener app on {serial}: {what}")

    try:
        installed = installed_version_code(device)
        apk, shipped = _shipped(apk_path, installed)
        if apk is not None and (installed is None or installed < shipped):
            log.info("%s: installing listener %s (installed: %s)", serial, apk, installed)
            _install(device, apk, fail)
        _enable(device, fail)
    except ListenerUnavailable:
        raise
    except ListenerApkMissing as exc:
        raise fail(str(exc)) from exc
    except Exception as exc:  # adb errors from adbutils, timeouts
        raise fail(f"adb command failed: {exc}") from exc
    return _await_hello(device, timeout, fail)


def _shipped(apk_path: str | Path | None, installed: int | None) -> tuple[Path | None, int]:
    """The APK to install if needed and its versionCode.

    Without an APK an installed listener at the version this code speaks to is good enough,
    so a phone that already has it needs no build on the host.
    """
    from pytest_mobile_agent.virtual.system.apk import read_manifest

    if apk_path is None:
        try:
            apk_path = shipped_apk_path()
        except ListenerApkMissing:
            if installed is not None and installed >= LISTENER_VERSION_CODE:
                return None, LISTENER_VERSION_CODE
            raise
    path = Path(apk_path)
    info = read_manifest(path)
    if info.package != LISTENER_PACKAGE:
        raise ListenerUnavailable(f"{path} is {info.package}, not {LISTENER_PACKAGE}")
    return path, info.version_code


def _install(device: Any, apk: Path, fail: Any) -> None:
    device.sync.push(str(apk), _REMOTE_APK)
    out = device.shell(["pm", "install", "-r", "-t", _REMOTE_APK])
    device.shell(["rm", "-f", _REMOTE_APK])
    if "Success" not in out:
        raise fail(f"pm install {apk.name} failed: {out.strip() or 'no output'}")


def _enable(device: Any, fail: Any) -> None:
    current = device.shell(["settings", "get", "secure", "enabled_accessibility_services"])
    entries = [e for e in current.strip().split(":") if e and e != "null"]
    if not _SERVICE_FORMS & set(entries):
        # Append: clobbering the list would switch off the user's own services (TalkBack...).
        value = ":".join([*entries, LISTENER_SERVICE])
        device.shell(["settings", "put", "secure", "enabled_accessibility_services", value])
    device.shell(["settings", "put", "secure", "accessibility_enabled", "1"])
    now = device.shell(["settings", "get", "secure", "enabled_accessibility_services"])
    if not _SERVICE_FORMS & set(now.strip().split(":")):
        raise fail(f"enabling the service did not stick (enabled services: {now.strip()!r})")


def _await_hello(device: Any, timeout: float, fail: Any) -> Hello:
    """Connects until the service sends its hello line; the service starts asynchronously."""
    from adbutils import Network

    deadline = time.monotonic() + timeout
    last = "no attempt"
    delay = 0.05
    while True:
        try:
            hello = _read_hello(device.create_connection(Network.TCP, EVENT_STREAM_PORT), deadline)
            if hello is not None:
                return hello
            last = "the stream closed without a hello line"
        except (OSError, ValueError) as exc:
            last = str(exc)
        except Exception as exc:  # adbutils.AdbError when nothing listens yet
            last = f"{type(exc).__name__}: {exc}"
        if time.monotonic() + delay > deadline:
            raise fail(f"no hello on tcp:{EVENT_STREAM_PORT} within {timeout} s ({last})")
        time.sleep(delay)  # nothing to wait on: the service's start is invisible over adb
        delay = min(delay * 2, 1.0)


def _read_hello(sock: socket.socket, deadline: float) -> Hello | None:
    decoder = LineDecoder("listener check")
    quick_ack(sock)  # or the hello line waits behind the delayed ACK of the transport's OKAY
    try:
        while (remaining := deadline - time.monotonic()) > 0:
            sock.settimeout(remaining)
            data = sock.recv(4096)
            if not data:
                return None
            for item in decoder.feed(data):
                if isinstance(item, Hello):
                    return item
        raise TimeoutError("timed out waiting for the hello line")
    finally:
        sock.close()
