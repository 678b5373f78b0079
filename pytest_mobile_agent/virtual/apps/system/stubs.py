"""Stub apps that benchmark tasks expect on the device: Chrome and Camera.

App Launcher tasks add them to its grid, so they must be installed and launchable with the
labels a phone shows. Each opens one trivial screen. Online apps (Maps, Photos, ...) stay
absent on purpose: tasks that need them skip.
"""

from __future__ import annotations

from pytest_mobile_agent.virtual.ui import widgets as w
from pytest_mobile_agent.virtual.ui.app import Activity, App
from pytest_mobile_agent.virtual.ui.view import FRAME, View


class ChromeMain(Activity):
    name = "com.google.android.apps.chrome.Main"

    def content(self) -> View:
        pkg = self.app.package
        url = w.text(f"{pkg}:id/search_box_text", "Search or type web address", padding=12, clickable=True)
        bar = View(FRAME, id=f"{pkg}:id/toolbar", children=[url], height=56, kind="toolbar", color="light")
        page = w.text(f"{pkg}:id/offline_text", "You're offline", padding=24, gravity="center")
        return View(FRAME, id=f"{pkg}:id/control_container", children=[w.column([bar, page])])


class CameraMain(Activity):
    name = "com.android.camera.CameraLauncher"

    def content(self) -> View:
        pkg = self.app.package
        preview = View(FRAME, id=f"{pkg}:id/preview_content", weight=1, color="black")
        shutter = w.icon_button(f"{pkg}:id/shutter_button", "Shutter", "camera", lambda: None)
        return View(FRAME, id=f"{pkg}:id/activity_root_view", children=[w.column([preview, shutter])])


class Chrome(App):
    package = "com.android.chrome"
    label = "Chrome"
    icon = "globe"
    icon_color = "#4285f4"
    version_name = "124.0.6367.82"
    main_activity = ChromeMain


class Camera(App):
    package = "com.android.camera2"
    label = "Camera"
    icon = "camera"
    icon_color = "#607d8b"
    version_name = "2.0.002"
    main_activity = CameraMain


APPS = (Chrome, Camera)
