"""The device model: one device's services, wired together, and what clients ask of it whole.

It holds the model core (files, clock, settings, properties, log, ports), the system services
(packages, windows, accessibility events) and the screen's renderer; the apps it runs are handed
in (boot.py installs the built-in ones). All model state is touched under `device.lock`: shell
commands run on worker threads while the protocol runs on the event loop.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from pytest_mobile_agent.virtual.core.clock import Clock
from pytest_mobile_agent.virtual.core.config import DeviceConfig, properties
from pytest_mobile_agent.virtual.core.fs import FileSystem
from pytest_mobile_agent.virtual.core.logs import LogBuffer
from pytest_mobile_agent.virtual.core.net import Ports
from pytest_mobile_agent.virtual.core.settings import Settings
from pytest_mobile_agent.virtual.resources.strings import DEFAULT_LOCALE, LocaleError, normalize
from pytest_mobile_agent.virtual.system.accessibility import Accessibility
from pytest_mobile_agent.virtual.system.packages import PackageManager
from pytest_mobile_agent.virtual.system.window import WindowManager
from pytest_mobile_agent.virtual.ui import hierarchy
from pytest_mobile_agent.virtual.ui.app import App
from pytest_mobile_agent.virtual.ui.render.colors import theme_for
from pytest_mobile_agent.virtual.ui.render.renderer import ScreenRenderer

DISPLAY_SIZE_FORCED, DISPLAY_DENSITY_FORCED = "display_size_forced", "display_density_forced"
FONT_SCALE, UI_NIGHT_MODE = "font_scale", "ui_night_mode"  # Settings.System, Settings.Secure
NIGHT_MODES = {"0": "auto", "1": "no", "2": "yes"}  # UiModeManager.MODE_NIGHT_*: the setting's values
SHELL_POOL = 64  # pooled worker threads for shell sessions and uiautomator2 requests


class Device:
    def __init__(self, root: Path, config: DeviceConfig, apps: Sequence[type[App]]) -> None:
        """A device booted from `root` (its files), made as `config`, with `apps` in its system image."""
        self.root = root
        self.config = config
        self.lock = threading.RLock()
        self.executor = ThreadPoolExecutor(max_workers=SHELL_POOL, thread_name_prefix="vdev-shell")
        self._sessions = 0  # shell sessions running on the pool
        self.ui_automation: str | None = None  # who holds the one UiAutomation connection Android allows
        self._sessions_lock = threading.Lock()
        self.fs = FileSystem(root)
        self.clock = Clock(config.time, config.clock_runs)
        self.settings = Settings(self.fs)
        self.props = properties(config)
        self.ports = Ports()
        self.logd = LogBuffer(self.clock)  # what `logcat` reads
        self.clipboard = ""  # the primary clip's text (uiautomator2's setClipboard and getClipboard)
        self.accessibility = Accessibility(self)
        self.packages = PackageManager(self)
        self.wm = WindowManager(self, config.width, config.height, config.density)
        # The PNGs of the last 16 screens (about 100 kB each; an agent often comes back to a
        # screen), the 10 MB picture of the last one only (an idle device went from 90 to 70 MB).
        self.renderer = ScreenRenderer(config.width, config.height, self.wm.scale, cache_size=16, pictures=1)
        self.packages.install_builtin(apps)
        self.apply_display()
        self.settings.on_change.append(self._setting_changed)

    def display(self) -> tuple[int, int, int]:
        """(width, height, density) the screen has: `wm size` / `wm density` overrides (kept where
        Android keeps them, Settings.Global display_size_forced "W,H" and Settings.Secure
        display_density_forced), else the physical ones."""
        width, height, density = self.config.width, self.config.height, self.config.density
        forced = (self.settings.get("global", DISPLAY_SIZE_FORCED) or "").split(",")
        if len(forced) == 2 and all(v.isdigit() and int(v) > 0 for v in forced):
            width, height = int(forced[0]), int(forced[1])
        dpi = self.settings.get("secure", DISPLAY_DENSITY_FORCED) or ""
        return width, height, int(dpi) if dpi.isdigit() and int(dpi) > 0 else density

    def apply_display(self) -> None:
        """Lay the screen out at the display `display()` says, where it differs from the current
        one (as a configuration change does: every window is laid out and drawn again)."""
        width, height, density = self.display()
        if (width, height, density) != (self.wm.width, self.wm.height, self.wm.density):
            self.wm.resize(width, height, density)
            self.renderer = ScreenRenderer(width, height, self.wm.scale, cache_size=16, pictures=1)
        self.apply_configuration()

    def font_scale(self) -> float:
        """The font size setting (Settings.System font_scale), 1.0 where unset or unreadable."""
        try:
            scale = float(self.settings.get("system", FONT_SCALE) or "1.0")
        except ValueError:
            return 1.0
        return scale if 0.1 <= scale <= 10 else 1.0

    def night_mode(self) -> str:
        """`cmd uimode night`'s mode from Settings.Secure ui_night_mode: yes, no or auto (unset: no,
        config_defaultNightMode)."""
        return NIGHT_MODES.get(self.settings.get("secure", UI_NIGHT_MODE) or "1", "no")

    def apply_configuration(self) -> None:
        """Font scale and night mode from the settings, where they changed: the screen is laid
        out and drawn again, as after a configuration change. Night mode "auto" draws the day
        theme (the twilight computation is not modelled)."""
        scale, night = self.font_scale(), self.night_mode() == "yes"
        theme = theme_for(night)
        if (scale, theme) == (self.wm.font_scale, self.renderer.theme) and scale == self.renderer.font_scale:
            return
        self.wm.font_scale = self.renderer.font_scale = scale
        self.renderer.theme = theme
        self.wm.changed()

    def _setting_changed(self, namespace: str, key: str) -> None:
        if (namespace, key) in (("system", FONT_SCALE), ("secure", UI_NIGHT_MODE)):
            self.apply_configuration()

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
        with self.lock:
            return hierarchy.dump(self.wm.frame(), compressed, all_windows)

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

    def shutdown(self) -> None:
        self.executor.shutdown(wait=False, cancel_futures=True)
