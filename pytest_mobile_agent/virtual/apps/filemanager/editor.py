"""Simple File Manager's text editor (ReadTextActivity, activity_read_text.xml)."""

from __future__ import annotations

from pytest_mobile_agent.virtual.apps.commons.menus import split_menu
from pytest_mobile_agent.virtual.apps.filemanager.dialogs import NO_APP
from pytest_mobile_agent.virtual.apps.filemanager.store import Item, extension
from pytest_mobile_agent.virtual.ui import widgets as w
from pytest_mobile_agent.virtual.ui.app import Activity, App
from pytest_mobile_agent.virtual.ui.view import EDIT, LINEAR, View

TEXT_EXTENSIONS = {"txt", "md", "json", "xml", "csv", "log", "html", "htm", "ini", "conf", "yml", "yaml", "kt", "py"}


def open_file(activity: Activity, it: Item) -> None:
    """tryOpenPathIntent: text files (and files without an extension) open in the app's own
    editor; nothing else on the device handles the others."""
    if extension(it.name) in TEXT_EXTENSIONS or not extension(it.name):
        activity.start(ReadTextActivity, path=it.path)
    else:
        activity.toast(NO_APP)


class ReadTextActivity(Activity):
    """The "File editor": text files open here, as the app handles text/* views itself."""

    name = ".activities.ReadTextActivity"

    def __init__(self, app: App, extras: dict[str, str] | None = None) -> None:
        super().__init__(app, extras)
        self.path = self.extras.get("path", "")
        host = app.device.fs.host(self.path)
        self.texts["read_text_view"] = host.read_text(errors="replace") if host.is_file() else ""

    def save(self) -> None:
        self.app.device.fs.write(self.path, self.texts.get("read_text_view", "").encode())
        self.toast("File saved successfully")

    def content(self) -> View:
        a = self.app
        actions, overflow = split_menu(
            [
                ("menu_search", "Search", "search", lambda: None, "always"),
                ("menu_save", "Save as", "check", self.save, "always"),
                ("menu_print", "Print", "file", lambda: None, "always"),
                ("menu_open_with", "Open with", "", lambda: self.toast(NO_APP), "never"),
            ]
        )
        bar = w.toolbar(
            self, "read_text_toolbar", self.path.rsplit("/", 1)[-1], actions=actions, overflow=overflow, back=True
        )
        text = View(
            EDIT,
            id=a.rid("read_text_view"),
            key="read_text_view",
            text=self.texts["read_text_view"],
            kind="edit",
            focusable=True,
            clickable=True,
            long_clickable=True,
            gravity="start",
        )
        holder = w.scroll(a.rid("read_text_holder"), [text], cls="androidx.core.widget.NestedScrollView")
        wrapper = View(LINEAR, id=a.rid("read_text_wrapper"), weight=1, children=[holder])
        return w.screen(bar, [wrapper], id=a.rid("read_text_coordinator"))
