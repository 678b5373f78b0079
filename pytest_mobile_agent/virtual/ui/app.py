"""The app framework: apps and activities as the window system drives them, and the device
as an app sees it.

An app is a package with activities, a launcher label and icon, and state kept in its data dir
(`/data/data/PKG`), so a restart keeps it and `pm clear` wipes it. An activity turns the app's
state into a view tree on demand; overlays (dialogs, menus) sit on top of it as windows.

An app reaches its device through a `Context`: the files, clock, settings and log of the model
core, and the window and package managers as the `Navigator` and `Packages` it calls. The
system model (system/) implements them; apps and the toolkit depend on these alone.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, ClassVar, Protocol

from pytest_mobile_agent.virtual.core.clock import Clock
from pytest_mobile_agent.virtual.core.fs import FileSystem
from pytest_mobile_agent.virtual.core.logs import LogBuffer
from pytest_mobile_agent.virtual.core.settings import Settings
from pytest_mobile_agent.virtual.resources.strings import localize
from pytest_mobile_agent.virtual.ui.view import View


class Navigator(Protocol):
    """The window manager, as apps drive it: activities started and finished, dialogs, toasts."""

    tasks: list[list[Activity]]  # least recent first, each a back stack
    ime_shown: bool
    width: int  # the display, px
    scale: float  # px per dp

    def start_activity(
        self, app: App, cls: type[Activity], extras: dict[str, str] | None = None, *, launcher: bool = False
    ) -> Activity: ...
    def finish(self, activity: Activity) -> None: ...
    def home(self) -> None: ...
    def overlay_opened(self, activity: Activity, overlay: Overlay) -> None: ...
    def overlay_closed(self, activity: Activity) -> None: ...
    def toast(self, text: str, package: str) -> None: ...
    def changed(self) -> None: ...


class Packages(Protocol):
    """The package manager, as apps ask it: which apps are there, their grants, stopping one."""

    models: dict[str, type[App]]  # the modelled apps by package

    def is_installed(self, name: str) -> bool: ...
    def app(self, name: str) -> App: ...
    def launchable(self) -> list[App]: ...
    def home_app(self) -> App: ...
    def stop(self, name: str) -> None: ...
    def granted(self, name: str, permission: str) -> bool: ...
    def grant(self, name: str, permission: str, granted: bool = True) -> None: ...


class Context(Protocol):
    """The device, as an app sees it."""

    fs: FileSystem
    clock: Clock
    settings: Settings
    logd: LogBuffer

    @property
    def locale(self) -> str: ...  # the locale the apps draw in
    @property
    def wm(self) -> Navigator: ...
    @property
    def packages(self) -> Packages: ...

    def changed(self) -> None: ...  # something may have changed what is on screen


class App:
    package: ClassVar[str] = ""
    label: ClassVar[str] = ""
    icon: ClassVar[str] = ""  # drawn by the renderer: a glyph or short name
    icon_color: ClassVar[str] = "#5c6bc0"
    main_activity: ClassVar[type[Activity]]
    activities: ClassVar[tuple[type[Activity], ...]] = ()
    system: ClassVar[bool] = False  # preinstalled, not removable
    home: ClassVar[bool] = False  # the home screen's app (a HOME activity): what HOME brings up
    version_code: ClassVar[int] = 1
    version_name: ClassVar[str] = "1.0"

    def __init__(self, device: Context) -> None:
        self.device = device
        self.data_dir = f"/data/data/{self.package}"
        self.prefs: dict[str, Any] = self.load("prefs", {})

    # State lives in JSON files in the data dir, read when the app object is made.
    def load(self, name: str, default: Any) -> Any:
        path = self.device.fs.host(f"{self.data_dir}/files/{name}.json")
        if path.exists():
            return json.loads(path.read_text())
        return json.loads(json.dumps(default))

    def save(self, name: str, value: Any) -> None:
        self.device.fs.write(f"{self.data_dir}/files/{name}.json", json.dumps(value).encode())

    def set_pref(self, key: str, value: Any) -> None:
        self.prefs[key] = value
        self.save("prefs", self.prefs)

    def pref(self, key: str, default: Any = None) -> Any:
        return self.prefs.get(key, default)

    def tr(self, text: str) -> str:
        """An English string of the app in the device's locale: what the real app saves with
        getString() (a default note's title, the "All tracks" playlist)."""
        return localize(text, self.package, self.device.locale)

    @property
    def shown_label(self) -> str:
        """The launcher label in the device's locale (the real app's `app_launcher_name`)."""
        return localize(self.label, self.package, self.device.locale)

    def rid(self, name: str) -> str:
        """Full resource id as uiautomator reports it."""
        return name if ":" in name else f"{self.package}:id/{name}"

    def show_recents(self, launcher: Activity) -> None:
        """The home app's: the recent tasks over its `launcher` activity (APP_SWITCH)."""
        raise NotImplementedError

    def activity_class(self, name: str) -> type[Activity] | None:
        for cls in (self.main_activity, *self.activities):
            if name in (cls.name, self.package + cls.name, cls.__name__):
                return cls
        return None


class Activity:
    name: ClassVar[str] = ".activities.MainActivity"  # relative to the package, as dumpsys shows

    def __init__(self, app: App, extras: dict[str, str] | None = None) -> None:
        self.app = app
        self.extras = extras or {}
        self.overlays: list[Overlay] = []
        self.texts: dict[str, str] = {}  # EditText contents by key
        self.scroll: dict[str, int] = {}  # scroll offsets by key
        self.focus: str | None = None  # key of the focused EditText

    @property
    def wm(self) -> Navigator:
        return self.app.device.wm

    @property
    def component(self) -> str:
        return f"{self.app.package}/{self.name}"

    def content(self) -> View:
        raise NotImplementedError

    def on_back(self) -> bool:
        """Handle BACK inside the activity (close search, leave a sub-view); False = finish."""
        return False

    def keeps_changing(self) -> bool:
        """Whether the screen redraws on its own every second (a running timer), so that it is
        never idle for `uiautomator dump`."""
        return False

    def on_resume(self) -> None:
        """Called when the activity comes back to the top (re-read state written elsewhere)."""

    def on_intent(self, extras: dict[str, str]) -> None:
        """Called once the activity is on screen for an intent another app sent, with what the
        intent carried: what it does beyond showing itself (Notes asks which note shared text goes to)."""

    # Navigation and windows.
    def start(self, cls: type[Activity], **extras: str) -> None:
        self.wm.start_activity(self.app, cls, extras)

    def finish(self) -> None:
        self.wm.finish(self)

    @property
    def title(self) -> str:
        """The window title Android reports for the activity: its label, else the app's."""
        return getattr(self, "label", None) or self.app.label

    def show(self, overlay: Overlay) -> None:
        self.overlays.append(overlay)
        self.wm.overlay_opened(self, overlay)

    def dismiss(self, overlay: Overlay | None = None) -> None:
        if overlay is None and self.overlays:
            overlay = self.overlays[-1]
        if overlay in self.overlays:
            self.overlays.remove(overlay)
            self.wm.overlay_closed(self)

    def toast(self, text: str) -> None:
        self.wm.toast(text, self.app.package)


class Overlay:
    """A dialog or popup menu shown above an activity."""

    kind: str = "dialog"

    def __init__(
        self,
        build: Callable[[], View],
        *,
        title: str = "",
        kind: str = "dialog",
        cancelable: bool = True,
        on_cancel: Callable[[], None] | None = None,
        package: str = "",
    ) -> None:
        self.build = build
        self.title = title
        self.kind = kind
        self.cancelable = cancelable
        self.on_cancel = on_cancel
        # A system dialog over the app (e.g. MediaProvider's "Allow"): its window's package.
        self.package = package
