"""The system Settings screens apps send the user to. Only "All files access" is modelled: the
File Manager's first start opens it (ACTION_MANAGE_APP_ALL_FILES_ACCESS_PERMISSION), and
MobileAgentBench's setup taps its switch, "Allow access to manage all files", then "Navigate up".
"""

from __future__ import annotations

from pytest_mobile_agent.virtual.system.packages import ALL_FILES_ACCESS, MANAGE_EXTERNAL_STORAGE, SETTINGS_PACKAGE
from pytest_mobile_agent.virtual.ui import widgets as w
from pytest_mobile_agent.virtual.ui.app import Activity, App
from pytest_mobile_agent.virtual.ui.view import SWITCH, TEXT, VIEW_GROUP, View


class SettingsMain(Activity):
    name = ".Settings"

    def content(self) -> View:
        bar = w.toolbar(self, "action_bar", "Settings")
        return w.screen(bar, [w.text("android:id/title", "Network & internet", padding=16)])


class AllFilesAccess(Activity):
    """Settings$AppManageExternalStorageActivity for one package (extra `package`)."""

    name = ALL_FILES_ACCESS
    label = "All files access"

    def content(self) -> View:
        packages = self.app.device.packages
        target = self.extras.get("package", "")
        allowed = packages.granted(target, MANAGE_EXTERNAL_STORAGE)

        def toggle() -> None:
            packages.grant(target, MANAGE_EXTERNAL_STORAGE, not allowed)

        up = w.icon_button("", "Navigate up", "back", self.finish)
        title = w.text("", "All files access", size=20, weight=1, padding=12)
        bar_id = "com.android.settings:id/action_bar"
        bar = View(VIEW_GROUP, id=bar_id, orientation="h", height=56, children=[up, title], kind="toolbar")
        label = packages.app(target).shown_label if target in packages.models else target
        switch = View(SWITCH, id="android:id/switch_widget", checkable=True, checked=allowed, kind="switch")
        row = View(
            VIEW_GROUP,
            clickable=True,
            on_click=toggle,
            orientation="h",
            kind="row",
            height=72,
            padding=12,
            children=[View(TEXT, id="android:id/title", text="Allow access to manage all files", weight=1), switch],
        )
        note = (
            "Allow this app to read, modify and delete all files on this device or any connected storage volumes. "
            "If granted, app may access files without your explicit knowledge."
        )
        body = [w.text("", label, size=18, padding=16), row, w.text("android:id/summary", note, size=14, padding=16)]
        return w.screen(bar, body)


class Settings(App):
    package = SETTINGS_PACKAGE
    label = "Settings"
    icon = "settings"
    icon_color = "#5f6368"
    version_name = "13"
    system = True
    main_activity = SettingsMain
    activities = (AllFilesAccess,)


APPS = (Settings,)
