"""The home screen (Launcher3): a grid of the installed apps, and the recents view."""

from __future__ import annotations

from functools import partial

from pytest_mobile_agent.virtual.ui import widgets as w
from pytest_mobile_agent.virtual.ui.app import Activity, App
from pytest_mobile_agent.virtual.ui.view import FRAME, TEXT, View

HOME_PACKAGE = "com.android.launcher3"
COLUMNS = 4


class Launcher(Activity):
    name = ".uioverrides.QuickstepLauncher"

    def __init__(self, app: App, extras: dict[str, str] | None = None) -> None:
        super().__init__(app, extras)
        self.recents = False

    def on_back(self) -> bool:
        if self.recents:
            self.recents = False
        return True

    def on_resume(self) -> None:
        self.recents = False

    def _launch(self, target: App) -> None:
        self.app.device.wm.start_activity(target, target.main_activity, launcher=True)

    def content(self) -> View:
        return self._recents() if self.recents else self._home()

    def _home(self) -> View:
        apps = sorted(self.app.device.packages.launchable(), key=lambda a: a.shown_label.lower())
        icons = [
            View(
                TEXT,
                id=f"{HOME_PACKAGE}:id/icon",
                text=a.shown_label,
                desc=a.shown_label,
                clickable=True,
                long_clickable=True,
                focusable=True,
                on_click=partial(self._launch, a),
                kind="appicon",
                icon=a.icon,
                color=a.icon_color,
                weight=1,
                height=104,
                text_size=12,
            )
            for a in apps
        ]
        while len(icons) % COLUMNS:
            icons.append(View(weight=1, height=104))
        rows = [w.row(icons[i : i + COLUMNS], height=104) for i in range(0, len(icons), COLUMNS)]
        grid = View(
            "androidx.recyclerview.widget.RecyclerView",
            id=f"{HOME_PACKAGE}:id/apps_list_view",
            children=rows,
            scrollable=True,
            weight=1,
            padding=8,
        )
        workspace = View(FRAME, id=f"{HOME_PACKAGE}:id/workspace", children=[grid], weight=1)
        return View(FRAME, id=f"{HOME_PACKAGE}:id/launcher", children=[View(children=[workspace])])

    def _recents(self) -> View:
        wm = self.app.device.wm
        cards = []
        for task in reversed(wm.tasks):
            app = task[0].app
            if app is self.app:
                continue
            cards.append(
                View(
                    FRAME,
                    id=f"{HOME_PACKAGE}:id/snapshot",
                    text="",
                    desc=app.shown_label,
                    clickable=True,
                    on_click=partial(self._resume, task),
                    kind="row",
                    height=160,
                    padding=8,
                    children=[w.text(f"{HOME_PACKAGE}:id/title", app.shown_label, size=18)],
                )
            )
        if not cards:
            cards.append(w.text("", "No recent items", padding=24))
        clear = w.button(f"{HOME_PACKAGE}:id/clear_all", "Clear all", self._clear_all, height=56)
        return View(
            FRAME,
            id=f"{HOME_PACKAGE}:id/overview_panel",
            children=[View(children=[w.scroll(f"{HOME_PACKAGE}:id/overview_panel", cards), clear])],
        )

    def _resume(self, task: list[Activity]) -> None:
        self.recents = False
        self._launch(task[0].app)

    def _clear_all(self) -> None:
        wm = self.app.device.wm
        for task in list(wm.tasks):
            if task[0].app is not self.app:
                self.app.device.packages.stop(task[0].app.package)
        self.recents = False


class Home(App):
    package = HOME_PACKAGE
    label = "Pixel Launcher"
    system = True
    home = True
    main_activity = Launcher

    def show_recents(self, launcher: Activity) -> None:
        if isinstance(launcher, Launcher):
            launcher.recents = True


APPS = (Home,)
