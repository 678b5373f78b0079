"""The virtual device: properties, settings, clock, packages, windows, events, in-device servers.

All model state is touched under `device.lock`: shell commands run on worker threads while the
protocol runs on the event loop.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING

from pytest_mobile_agent.virtual.adb.reverse import ReverseTable
from pytest_mobile_agent.virtual.core.fs import FileSystem
from pytest_mobile_agent.virtual.resources.strings import DEFAULT_LOCALE, LocaleError, normalize
from pytest_mobile_agent.virtual.shell import android as _android_commands  # noqa: F401  (registers the commands)
from pytest_mobile_agent.virtual.shell.logcat import LogBuffer
from pytest_mobile_agent.virtual.system.accessibility import Accessibility
from pytest_mobile_agent.virtual.system.packages import PackageManager
from pytest_mobile_agent.virtual.system.window import WindowManager

if TYPE_CHECKING:
    from pytest_mobile_agent.virtual.adb.transport import Stream, StreamHandler
    from pytest_mobile_agent.virtual.system.snapshot import DeviceSnapshot, RestoreStats

DEFAULT_TIME = datetime(2024, 5, 15, 9, 0, 0, tzinfo=UTC)
SHELL_POOL = 64  # pooled worker threads for shell sessions and uiautomator2 requests


@dataclass
class DeviceConfig:
    serial: str = ""
    width: int = 1080
    height: int = 2340
    density: int = 440
    sdk: int = 33
    release: str = "13"
    model: str = "Virtual Pixel"
    time: datetime = DEFAULT_TIME


class Clock:
    """A fixed device clock: it moves only when set, so dates in apps are deterministic."""

    def __init__(self, start: datetime) -> None:
        self._now = start

    def now(self) -> datetime:
        return self._now

    def set(self, when: datetime) -> None:
        self._now = when if when.tzinfo else when.replace(tzinfo=UTC)

    def advance(self, seconds: float) -> None:
        self._now += timedelta(seconds=seconds)

    def millis(self) -> int:
        return int(self._now.timestamp() * 1000)


class Settings:
    """`settings` namespaces (system, secure, global), persisted under /data/system."""

    NAMESPACES = ("system", "secure", "global")
    DEFAULTS = {
        "system": {
            "screen_brightness": "102",
            "font_scale": "1.0",
            "show_touches": "0",
            "pointer_location": "0",
            "time_12_24": "12",
        },
        "secure": {
            "accessibility_enabled": "0",
            "enabled_accessibility_services": "",
            "default_input_method": "com.android.inputmethod.latin/.LatinIME",
            "android_id": "9774d56d682e549c",
        },
        "global": {
            "adb_enabled": "1",
            "airplane_mode_on": "0",
            "auto_time": "1",
            "window_animation_scale": "1.0",
            "transition_animation_scale": "1.0",
            "animator_duration_scale": "1.0",
            "stay_on_while_plugged_in": "0",
        },
    }

    def __init__(self, fs: FileSystem) -> None:
        self.on_change: list[Callable[[str, str], None]] = []  # (namespace, key) observers
        self._path = fs.host("/data/system/settings.json")
        if self._path.exists():
            self.data: dict[str, dict[str, str]] = json.loads(self._path.read_text())
        else:
            self.data = {ns: dict(values) for ns, values in self.DEFAULTS.items()}

    def get(self, namespace: str, key: str) -> str | None:
        return self.data[namespace].get(key)

    def put(self, namespace: str, key: str, value: str) -> None:
        self.data[namespace][key] = value
        self._save()
        self._notify(namespace, key)

    def delete(self, namespace: str, key: str) -> bool:
        found = self.data[namespace].pop(key, None) is not None
        self._save()
        self._notify(namespace, key)
        return found

    def _notify(self, namespace: str, key: str) -> None:
        for observer in self.on_change:
            observer(namespace, key)

    def _save(self) -> None:
        self._path.write_text(json.dumps(self.data))


class Device:
    def __init__(self, root: Path, config: DeviceConfig) -> None:
        self.root = root
        self.config = config
        self.lock = threading.RLock()
        self.executor = ThreadPoolExecutor(max_workers=SHELL_POOL, thread_name_prefix="vdev-shell")
        self._sessions = 0  # shell sessions running on the pool
        self._sessions_lock = threading.Lock()
        self.fs = FileSystem(root)
        self.clock = Clock(config.time)
        self.settings = Settings(self.fs)
        self.props = self._props(config)
        self.tcp_servers: dict[int, Callable[[Stream], StreamHandler | None]] = {}
        self.logd = LogBuffer()  # what `logcat` reads
        self.reverses = ReverseTable()  # `adb reverse` rules
        self.accessibility = Accessibility(self)
        self.packages = PackageManager(self)
        self.wm = WindowManager(self, config.width, config.height, config.density)
        from pytest_mobile_agent.virtual.ui.render import ScreenRenderer

        # One cached screen, not four: an unchanged screen is still drawn only once, and each
        # cached screen holds a 10 MB picture (an idle device went from 90 to 70 MB).
        self.renderer = ScreenRenderer(config.width, config.height, self.wm.scale, cache_size=1)
        self.packages.install_builtin()
        self.snapshots: dict[str, DeviceSnapshot] = {}  # in memory: they end with the device

    @staticmethod
    def _props(c: DeviceConfig) -> dict[str, str]:
        return {
            "ro.serialno": c.serial,
            "ro.build.version.sdk": str(c.sdk),
            "ro.build.version.release": c.release,
            "ro.build.version.codename": "REL",
            "ro.build.type": "userdebug",
            "ro.build.id": "PMA.240515",
            "ro.build.fingerprint": f"pytest_mobile_agent/virtual/vpixel:{c.release}/PMA.240515/1:userdebug/test-keys",
            "ro.product.name": "vpixel",
            "ro.product.model": c.model,
            "ro.product.device": "vpixel",
            "ro.product.brand": "pytest-mobile-agent",
            "ro.product.manufacturer": "pytest-mobile-agent",
            "ro.product.board": "virtual",
            "ro.product.cpu.abi": "x86_64",
            "ro.hardware": "virtual",
            "ro.sf.lcd_density": str(c.density),
            "ro.secure": "0",
            "ro.adb.secure": "0",
            "ro.debuggable": "1",
            "ro.kernel.qemu": "0",
            "persist.sys.timezone": "UTC",
            "ro.product.locale": DEFAULT_LOCALE,
            "sys.boot_completed": "1",
            "dev.bootcomplete": "1",
            "init.svc.adbd": "running",
        }

    def banner(self) -> bytes:
        p = self.props
        # No abb/cmd: `adb install` then falls back to push + `pm install`. No sendrecv_v2 or
        # delayed_ack: push/pull stay on SEND/RECV with simple flow control.
        features = "shell_v2,stat_v2,ls_v2,fixed_push_mkdir,fixed_push_symlink_timestamp"
        return (
            f"device::ro.product.name={p['ro.product.name']};ro.product.model={p['ro.product.model']};"
            f"ro.product.device={p['ro.product.device']};features={features}"
        ).encode()

    @property
    def locale(self) -> str:
        """The locale the apps draw in, as Android resolves it: the `system_locales` setting,
        else `persist.sys.locale`, else `ro.product.locale`. One the apps have no strings for
        shows English, as an app without that values-XX folder does."""
        raw = (self.settings.get("system", "system_locales") or "").split(",")[0]
        raw = raw or self.props.get("persist.sys.locale") or self.props.get("ro.product.locale", "")
        try:
            return normalize(raw) if raw else DEFAULT_LOCALE
        except LocaleError:
            return DEFAULT_LOCALE

    def changed(self) -> None:
        """Something may have changed what is on screen."""
        with self.lock:
            self.wm.changed()

    # -- screen ------------------------------------------------------------------------------
    def status_time(self) -> str:
        return self.clock.now().strftime("%-H:%M")

    def screen_png(self) -> bytes:
        with self.lock:
            return self.renderer.png(self.wm.frame(), self.status_time())

    def screen_rgba(self) -> bytes:
        with self.lock:
            return self.renderer.rgba(self.wm.frame(), self.status_time())

    def screen_jpeg(self, quality: int = 80) -> bytes:
        with self.lock:
            return self.renderer.jpeg(self.wm.frame(), self.status_time(), quality)

    def dump(self, compressed: bool = False, all_windows: bool = False) -> str:
        from pytest_mobile_agent.virtual.ui.hierarchy import dump

        with self.lock:
            return dump(self.wm.frame(), compressed, all_windows)

    def run_session(self, fn: Callable[[], None]) -> None:
        """Run a shell session on a worker thread.

        Most commands are short and reuse pooled threads. A session can also last for ever (an
        interactive shell, `cat` waiting on stdin, uiautomator2's server); once half the pool is
        taken by sessions, new ones get threads of their own, so long sessions never starve short
        ones or the uiautomator2 server's requests, which share the pool.
        """
        with self._sessions_lock:
            pooled = self._sessions < SHELL_POOL // 2
            if pooled:
                self._sessions += 1
        if not pooled:
            threading.Thread(target=fn, name="vdev-shell-extra", daemon=True).start()
            return

        def run() -> None:
            try:
                fn()
            finally:
                with self._sessions_lock:
                    self._sessions -= 1

        self.executor.submit(run)

    # -- snapshots (the emulator console's `avd snapshot ...`) ----------------------------------
    def save_snapshot(self, name: str) -> DeviceSnapshot:
        from pytest_mobile_agent.virtual.system import snapshot

        with self.lock:
            self.snapshots[name] = snapshot.take(self, name)
            return self.snapshots[name]

    def load_snapshot(self, name: str) -> RestoreStats:
        """Restore snapshot `name`; KeyError when there is none of that name."""
        from pytest_mobile_agent.virtual.system import snapshot

        with self.lock:
            return snapshot.restore(self, self.snapshots[name])

    def shutdown(self) -> None:
        self.executor.shutdown(wait=False, cancel_futures=True)
