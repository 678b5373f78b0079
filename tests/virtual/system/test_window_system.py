"""The window system in-process: hit testing, touch areas, scrolling, long press, keyboard,
dialogs, menus, toasts, BACK / HOME / recents, and the events they emit."""

from __future__ import annotations

import re

import pytest

from pytest_mobile_agent.virtual.boot import boot
from pytest_mobile_agent.virtual.core.config import DeviceConfig
from pytest_mobile_agent.virtual.system.device import Device
from pytest_mobile_agent.virtual.system.packages import PackageRecord
from pytest_mobile_agent.virtual.system.window import KEYCODES
from pytest_mobile_agent.virtual.ui import widgets as w
from pytest_mobile_agent.virtual.ui.app import Activity, App
from pytest_mobile_agent.virtual.ui.view import BUTTON, LINEAR, TEXT, View

PKG = "test.windows"


class Main(Activity):
    name = ".Main"

    def __init__(self, app, extras=None):
        super().__init__(app, extras)
        self.clicks: list[str] = []

    def hit(self, what: str):
        return lambda: self.clicks.append(what)

    def content(self) -> View:
        a = self.app
        bar = w.toolbar(
            self,
            "toolbar",
            "Windows",
            overflow=[("alpha", "Alpha", self.hit("alpha")), ("beta", "Beta", self.hit("beta"))],
        )
        buttons = w.row(
            [
                w.button(a.rid("left"), "Left", self.hit("left"), width=100),
                View(width=100),  # a gap: nothing to tap here
                w.button(a.rid("right"), "Right", self.hit("right"), width=100),
                View(width=40),
                # 16 dp wide, but its touch area reaches 24 dp further on every side.
                View(
                    BUTTON,
                    id=a.rid("tiny"),
                    text="t",
                    clickable=True,
                    width=16,
                    on_click=self.hit("tiny"),
                    touch_expand=24,
                ),
            ],
            height=48,
        )
        sure = lambda: w.alert(self, "Sure?", positive=("OK", self.hit("ok")), negative=("Cancel", self.hit("cancel")))
        actions = w.row(
            [
                w.button(a.rid("dialog"), "Dialog", lambda: self.show(sure())),
                w.button(a.rid("toast"), "Toast", lambda: self.toast("Saved")),
            ],
            height=48,
        )
        field = w.edit(self, "name", hint="Name")
        rows = [
            View(
                LINEAR,
                id=a.rid("row"),
                clickable=True,
                long_clickable=True,
                height=64,
                key=f"row{i}",
                on_click=self.hit(f"row{i}"),
                on_long_click=self.hit(f"long{i}"),
                children=[View(TEXT, text=f"Row {i}")],
            )
            for i in range(40)
        ]
        return w.screen(bar, [buttons, actions, field, w.scroll(a.rid("list"), rows, cls=w.SCROLL)])


class WindowsApp(App):
    package = PKG
    label = "Windows"
    main_activity = Main


@pytest.fixture
def device(tmp_path):
    dev = boot(tmp_path, DeviceConfig(serial="inproc"))
    dev.packages.models[PKG] = WindowsApp
    dev.packages.records[PKG] = PackageRecord(PKG)
    app = dev.packages.app(PKG)
    dev.wm.start_activity(app, Main, launcher=True)
    yield dev
    dev.shutdown()


def main(dev: Device) -> Main:
    top = dev.wm.top()
    assert isinstance(top, Main)
    return top


def node_bounds(dev: Device, **attrs: str) -> tuple[int, int, int, int]:
    xml = dev.dump()
    pattern = "".join(rf'(?=[^>]*{k}="{re.escape(v)}")' for k, v in attrs.items())
    m = re.search(rf"<node{pattern}[^>]*bounds=\"\[(\d+),(\d+)\]\[(\d+),(\d+)\]\"", xml)
    assert m, f"{attrs} not in the dump"
    return tuple(map(int, m.groups()))  # type: ignore[return-value]


def center(b: tuple[int, int, int, int]) -> tuple[int, int]:
    return (b[0] + b[2]) // 2, (b[1] + b[3]) // 2


def events(dev: Device, type_: str) -> list:
    return [e for e in dev.accessibility.history if e.type == type_]


def test_taps_go_through_a_hit_test_over_touch_areas(device):
    left = node_bounds(device, **{"resource-id": f"{PKG}:id/left"})
    right = node_bounds(device, **{"resource-id": f"{PKG}:id/right"})
    tiny = node_bounds(device, **{"resource-id": f"{PKG}:id/tiny"})
    y = center(left)[1]
    device.wm.tap((left[2] + right[0]) // 2, y)  # between the two buttons
    assert main(device).clicks == []
    device.wm.tap(*center(right))
    device.wm.tap(tiny[2] + 20, y)  # outside its bounds, inside its extended touch area
    assert main(device).clicks == ["right", "tiny"]
    device.wm.tap(tiny[2] + 80, y)  # beyond the extended area
    assert main(device).clicks == ["right", "tiny"]
    clicked = events(device, "TYPE_VIEW_CLICKED")
    assert [e.view_id for e in clicked] == [f"{PKG}:id/right", f"{PKG}:id/tiny"]


def test_swipes_scroll_lists_and_items_off_screen_are_not_in_the_dump(device):
    assert 'text="Row 0"' in device.dump() and 'text="Row 39"' not in device.dump()
    lst = node_bounds(device, **{"resource-id": f"{PKG}:id/list"})
    x, y = center(lst)
    for _ in range(10):
        device.wm.swipe(x, lst[3] - 10, x, lst[1] + 10, 300)
    xml = device.dump()
    assert 'text="Row 39"' in xml and 'text="Row 0"' not in xml
    assert events(device, "TYPE_VIEW_SCROLLED")
    device.wm.tap(*center(node_bounds(device, text="Row 39")))
    assert main(device).clicks == ["row39"]


def test_long_press_is_a_long_swipe_in_place(device):
    x, y = center(node_bounds(device, text="Row 1"))
    device.wm.swipe(x, y, x, y, 800)
    assert main(device).clicks == ["long1"]
    assert events(device, "TYPE_VIEW_LONG_CLICKED")
    device.wm.swipe(x, y, x + 2, y, 100)  # a short touch that barely moves is a tap
    assert main(device).clicks == ["long1", "row1"]


def test_keyboard_appears_while_a_field_has_focus(device):
    field = node_bounds(device, **{"resource-id": f"{PKG}:id/name"})
    device.wm.tap(*center(field))
    assert [w.kind for w in device.wm.frame().windows][-1] == "keyboard"
    assert device.wm.type_text("hello")
    device.wm.key(KEYCODES["DEL"])
    assert 'text="hell"' in device.dump() and 'focused="true"' in device.dump()
    assert [e.text for e in events(device, "TYPE_VIEW_TEXT_CHANGED")][-1] == ("hell",)
    device.wm.key(KEYCODES["BACK"])  # BACK first hides the keyboard
    assert "keyboard" not in [w.kind for w in device.wm.frame().windows]
    assert device.wm.top() is main(device)


def test_dialogs_are_the_active_window_and_cancel_on_outside_tap(device):
    device.wm.tap(*center(node_bounds(device, text="Dialog")))
    xml = device.dump()
    assert 'text="Sure?"' in xml and 'text="Row 0"' not in xml  # uiautomator dumps the active window
    assert xml.count('<node index="0"') >= 1 and xml.count("<hierarchy") == 1
    opened = events(device, "TYPE_WINDOW_STATE_CHANGED")[-1]
    assert opened.class_name == "android.app.AlertDialog" and opened.text == ("Sure?", "Cancel", "OK")
    device.wm.tap(5, device.wm.height // 2)  # outside the dialog
    assert 'text="Sure?"' not in device.dump() and main(device).clicks == []
    back = events(device, "TYPE_WINDOW_STATE_CHANGED")[-1]  # the activity has the focus again
    assert back.class_name == f"{PKG}.Main" and back.text == ("Windows",)
    device.wm.tap(*center(node_bounds(device, text="Dialog")))
    device.wm.tap(*center(node_bounds(device, text="OK")))
    assert main(device).clicks == ["ok"]


def test_overflow_menu_and_toast(device):
    device.wm.tap(*center(node_bounds(device, **{"content-desc": "More options"})))
    device.wm.tap(*center(node_bounds(device, text="Beta")))
    assert main(device).clicks == ["beta"]
    device.wm.tap(*center(node_bounds(device, text="Toast")))
    assert any(w.kind == "toast" and w.root.text == "Saved" for w in device.wm.frame().windows)
    assert 'text="Saved"' not in device.dump()  # toasts are not part of the app's window
    assert device.screen_png().startswith(b"\x89PNG")


def test_back_home_and_recents(device):
    device.wm.key(KEYCODES["HOME"])
    assert device.wm.focused_component().startswith("com.android.launcher3/")
    device.wm.key(KEYCODES["APP_SWITCH"])
    device.wm.tap(*center(node_bounds(device, text="Windows")))
    assert device.wm.focused_component() == f"{PKG}/.Main"
    device.wm.key(KEYCODES["BACK"])  # BACK on a task's root activity leaves the app
    assert device.wm.focused_component().startswith("com.android.launcher3/")
    device.wm.key(KEYCODES["BACK"])  # and does nothing on the home screen
    assert device.wm.focused_component().startswith("com.android.launcher3/")
    shown = [(e.class_name, e.text) for e in events(device, "TYPE_WINDOW_STATE_CHANGED")]
    assert (f"{PKG}.Main", ("Windows",)) in shown  # the activity's class, its title as text


def test_long_press_selects_a_fields_text_and_typing_replaces_it(device):
    field = center(node_bounds(device, **{"resource-id": f"{PKG}:id/name"}))
    device.wm.tap(*field)
    device.wm.type_text("Chrome")
    device.wm.tap(*field, long=True)
    device.wm.type_text("MyChrome")
    assert 'text="MyChrome"' in device.dump()
    device.wm.tap(*field)  # a tap drops the selection: typing appends again
    device.wm.type_text("!")
    assert 'text="MyChrome!"' in device.dump()
    device.wm.tap(*field, long=True)
    device.wm.key(KEYCODES["DEL"])  # a delete clears the selected text
    assert 'resource-id="test.windows:id/name"' in device.dump() and 'text="MyChrome!"' not in device.dump()


class Placed(Activity):
    """A RelativeLayout-like stack: one child placed with setX/setY, one with a touch listener."""

    name = ".Placed"

    def __init__(self, app, extras=None):
        super().__init__(app, extras)
        self.touches: list[tuple[float, float]] = []

    def content(self) -> View:
        a = self.app
        pad = View(id=a.rid("pad"), height=200, on_touch=lambda fx, fy: self.touches.append((fx, fy)))
        dot = View(id=a.rid("dot"), x=20, y=30, width=50, height=10)
        return View(LINEAR, children=[View(orientation="stack", height=100, children=[dot]), pad])


def test_views_placed_by_offset_and_touch_listeners_that_take_the_spot(device):
    app = device.packages.app(PKG)
    device.wm.start_activity(app, Placed)
    s = device.wm.scale
    top = device.wm.content_bounds[1]
    assert node_bounds(device, **{"resource-id": f"{PKG}:id/dot"}) == (
        round(20 * s),
        top + round(30 * s),
        round(20 * s) + round(50 * s),
        top + round(30 * s) + round(10 * s),
    )
    pad = node_bounds(device, **{"resource-id": f"{PKG}:id/pad"})
    assert re.search(rf'resource-id="{PKG}:id/pad"[^>]*clickable="false"', device.dump())
    before = len(events(device, "TYPE_VIEW_CLICKED"))
    device.wm.tap(pad[0] + (pad[2] - pad[0]) // 4, pad[1] + (pad[3] - pad[1]) // 2)
    ((fx, fy),) = device.wm.top().touches
    assert abs(fx - 0.25) < 0.01 and abs(fy - 0.5) < 0.01
    assert len(events(device, "TYPE_VIEW_CLICKED")) == before  # a touch listener is not a click
    device.wm.tap(pad[0] + 10, pad[1] + 10, long=True)  # a long press is not a tap for it
    assert len(device.wm.top().touches) == 1
