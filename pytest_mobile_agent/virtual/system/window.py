"""The window system: tasks and back stacks, overlays, keyboard, toasts, bars and input.

Every input goes through a hit test over the windows on screen, top first, and over each
window's touchable areas (a view's touch area may be larger than its bounds). The screen is
built from app state on demand and cached until the next change (`version`).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Protocol

from pytest_mobile_agent.virtual.resources.strings import localize
from pytest_mobile_agent.virtual.system.accessibility import Accessibility
from pytest_mobile_agent.virtual.system.gestures import (
    DOUBLE_TAP_TIMEOUT_MS,
    LONG_PRESS_MS,
    PAGE_TURN_FRACTION,
    PAGER_FLING_DISTANCE_DP,
    PAGER_FLING_VELOCITY_DP,
    PAGING_TOUCH_SLOP_DP,
    TOUCH_SLOP_DP,
    Gesture,
    fling_distance,
)
from pytest_mobile_agent.virtual.ui import keyboard
from pytest_mobile_agent.virtual.ui.app import Activity, App, Context, Overlay
from pytest_mobile_agent.virtual.ui.layout import _intrinsic, layout, text_scale
from pytest_mobile_agent.virtual.ui.localize import drawing, localize_tree
from pytest_mobile_agent.virtual.ui.screen import Frame, Window
from pytest_mobile_agent.virtual.ui.view import EDIT, FRAME, IMAGE, IMAGE_BUTTON, LINEAR, Bounds, View

# Android key codes the window system acts on.
KEYCODES = {
    "HOME": 3,
    "BACK": 4,
    "CALL": 5,
    "ENDCALL": 6,
    "DPAD_UP": 19,
    "DPAD_DOWN": 20,
    "DPAD_LEFT": 21,
    "DPAD_RIGHT": 22,
    "DPAD_CENTER": 23,
    "VOLUME_UP": 24,
    "VOLUME_DOWN": 25,
    "POWER": 26,
    "CAMERA": 27,
    "CLEAR": 28,
    "COMMA": 55,
    "PERIOD": 56,
    "TAB": 61,
    "SPACE": 62,
    "ENTER": 66,
    "DEL": 67,
    "MENU": 82,
    "SEARCH": 84,
    "ESCAPE": 111,
    "FORWARD_DEL": 112,
    "MOVE_HOME": 122,
    "MOVE_END": 123,
    "APP_SWITCH": 187,
    "WAKEUP": 224,
    "SLEEP": 223,
}
KEYCODES.update({str(d): 7 + d for d in range(10)})
KEYCODES.update({chr(c): 29 + c - ord("A") for c in range(ord("A"), ord("Z") + 1)})
KEY_CHARS = {7 + d: str(d) for d in range(10)}
KEY_CHARS.update({29 + i: chr(ord("a") + i) for i in range(26)})
KEY_CHARS.update({62: " ", 55: ",", 56: "."})
DOUBLE_TAP_SLOP_DP = 100  # ViewConfiguration's
TOAST_SECONDS = 2.0


class Host(Context, Protocol):
    """What the window manager needs of its device: what apps see, and where events go."""

    accessibility: Accessibility


class WindowManager:
    def __init__(self, device: Host, width: int, height: int, density: int) -> None:
        self.device = device
        self.tasks: list[list[Activity]] = []  # least recent first
        self.ime_shown = False
        self.ime_symbols = False  # the keyboard shows its symbols page
        self._toast: tuple[str, str, float] | None = None
        self.last_toast: str | None = None  # what the last toast said (uiautomator2's getLastToast)
        self.version = 0
        self._frame: Frame | None = None
        # (activity, field key) whose whole text is selected: a long press selects, typing replaces.
        self.selection: tuple[object, str] | None = None
        self._last_tap: tuple[float, int, int, object] | None = None  # when, where, which burst
        self._touch: list[tuple[float, float, float]] = []  # a finger down by motion events: (ms, x, y)
        self.font_scale = 1.0  # settings' system font_scale: sp in layout are this many dp
        self.resize(width, height, density)

    def resize(self, width: int, height: int, density: int) -> None:
        """The display's size in px and density in dpi: bars and views are laid out in dp."""
        self.width, self.height, self.density = width, height, density
        self.scale = density / 160
        self.status_h = round(24 * self.scale)
        self.nav_h = round(48 * self.scale)
        self._frame = None
        self.changed()

    # -- state -------------------------------------------------------------------------------
    def changed(self) -> None:
        self.version += 1

    @property
    def content_bounds(self) -> Bounds:
        return (0, self.status_h, self.width, self.height - self.nav_h)

    def top(self) -> Activity:
        if not self.tasks:
            self._home_task()
        return self.tasks[-1][-1]

    def _home_task(self) -> None:
        launcher = self.device.packages.home_app()
        for task in self.tasks:
            if task[0].app is launcher:
                self.tasks.remove(task)
                self.tasks.append(task)
                return
        self.tasks.append([launcher.main_activity(launcher)])

    def focused_component(self) -> str:
        return self.top().component

    def task_of(self, package: str) -> list[Activity] | None:
        return next((t for t in self.tasks if t[0].app.package == package), None)

    # -- lifecycle ---------------------------------------------------------------------------
    def start_activity(
        self, app: App, cls: type[Activity], extras: dict[str, str] | None = None, *, launcher: bool = False
    ) -> Activity:
        task = self.task_of(app.package)
        if task and (launcher or cls is type(task[0])) and not extras:
            # A launcher intent brings the existing task to the front, as Android does.
            self.tasks.remove(task)
            self.tasks.append(task)
            activity = task[-1]
            activity.app = app
            activity.on_resume()
        else:
            activity = cls(app, extras)
            if task:
                self.tasks.remove(task)
                task.append(activity)
            else:
                task = [activity]
            self.tasks.append(task)
        self.ime_shown = False
        self.changed()
        self.activity_shown(activity)
        return activity

    def finish(self, activity: Activity) -> None:
        for task in self.tasks:
            if activity in task:
                task.remove(activity)
                if not task:
                    self.tasks.remove(task)
                break
        self.ime_shown = False
        self.changed()
        top = self.top()
        top.on_resume()
        self.activity_shown(top)

    def force_stop(self, package: str) -> None:
        self.tasks = [t for t in self.tasks if t[0].app.package != package]
        if self._toast and self._toast[1] == package:
            self._toast = None
        self.ime_shown = False
        self.changed()

    def home(self) -> None:
        self._home_task()
        self.top().on_resume()
        self.ime_shown = False
        self.changed()
        self.activity_shown(self.top())

    def recents(self) -> None:
        launcher = self.device.packages.home_app()
        self.home()
        launcher.show_recents(self.top())
        self.changed()

    def activity_shown(self, activity: Activity) -> None:
        """An activity came to the front: Android reports its class and its title as text."""
        self.changed()
        title = self.localized(activity.title, activity.app.package)
        self.device.accessibility.emit(
            "TYPE_WINDOW_STATE_CHANGED",
            package=activity.app.package,
            cls=activity.name,
            text=[title] if title else [],
            window_title=title or activity.name,
        )

    def overlay_opened(self, activity: Activity, overlay: Overlay) -> None:
        """A dialog or menu opened: the event carries the texts it shows, as Android's does."""
        self.changed()
        built = self._build(overlay.build, activity.app.package)
        texts = [v.text for v in built.walk() if v.text and v.shown]
        if not any(v.cls == EDIT for v in built.walk()):
            # A dialog without a text field takes the window focus: the field under it loses
            # input focus and the keyboard hides, so the dialog gets the next BACK.
            self.ime_shown = False
        cls = "android.widget.PopupWindow$PopupDecorView" if overlay.kind == "menu" else "android.app.AlertDialog"
        self.device.accessibility.emit(
            "TYPE_WINDOW_STATE_CHANGED",
            package=overlay.package or activity.app.package,
            cls=cls,
            text=texts,
            window_title=self.localized(overlay.title, activity.app.package) or overlay.kind,
        )

    def overlay_closed(self, activity: Activity) -> None:
        """The focus goes back to the activity's window, which reports itself again."""
        if self.tasks and activity is self.tasks[-1][-1] and not activity.overlays:
            self.activity_shown(activity)
        else:
            self.changed()

    def _build(self, build: Callable[[], View], package: str) -> View:
        """An app's tree in the device's locale: its dates formatted in it, its strings translated."""
        locale = self.device.locale
        with drawing(locale):
            return localize_tree(build(), package, locale)

    def localized(self, text: str, package: str) -> str:
        """An English text of the app in the device's locale (see localize.py)."""
        return localize(text, package, self.device.locale) if text else text

    def toast(self, text: str, package: str) -> None:
        text = self.localized(text, package)
        self._toast = (text, package, time.monotonic() + TOAST_SECONDS)
        self.last_toast = text
        self.changed()
        self.device.accessibility.emit(
            "TYPE_NOTIFICATION_STATE_CHANGED", package=package, cls="android.widget.Toast$TN", text=[text]
        )

    # -- the screen --------------------------------------------------------------------------
    def frame(self) -> Frame:
        if self._toast and time.monotonic() > self._toast[2]:
            self._toast = None
            self.changed()
        if self._frame and self._frame.version == self.version:
            return self._frame
        with text_scale(self.font_scale):
            self._frame = self._layout_frame()
        return self._frame

    def _layout_frame(self) -> Frame:
        top = self.top()
        pkg = top.app.package
        windows = [Window("activity", pkg, top.name, self._decor(top), owner=top)]
        for overlay in top.overlays:
            windows.append(self._overlay_window(top, overlay))
        focused = self._focused_edit(windows) if self.ime_shown else None
        if focused is not None:
            keyboard_window = self._keyboard_window()
            if focused[0] is windows[0]:
                self._adjust_resize(windows[0].root, keyboard_window.root.bounds[1])
                self._reveal_focused(windows[0], keyboard_window.root.bounds[1])
            elif focused[0].kind in ("dialog", "sheet"):
                self._lift_overlay(focused[0], keyboard_window.root.bounds[1])
            windows.append(keyboard_window)
        if self._toast:
            windows.append(self._toast_window(*self._toast[:2]))
        return Frame(self.version, windows)

    def _decor(self, activity: Activity) -> View:
        content = self._build(activity.content, activity.app.package)
        self._restore(activity, content)
        inner = View(FRAME, id="android:id/content", children=[content], orientation="stack")
        decor = View(FRAME, children=[View(LINEAR, children=[inner])], orientation="stack")
        layout(decor, (0, 0, self.width, self.height), self.scale)
        self._restore(activity, content)  # the first pass clamped scroll offsets to unbounded heights
        layout(inner, self.content_bounds, self.scale)
        return decor

    def _restore(self, activity: Activity, root: View) -> None:
        """Carry focus and scroll offsets over from the previous build."""
        for v in root.walk():
            if v.scrollable and v.key in activity.scroll:
                v.scroll_y = activity.scroll[v.key]
            if v.cls == EDIT:
                v.focused = v.key == activity.focus
                v.focusable = True
                v.clickable = True
                v.long_clickable = True

    def _overlay_window(self, activity: Activity, overlay: Overlay) -> Window:
        content = self._build(overlay.build, activity.app.package)
        self._restore(activity, content)
        margin = round(16 * self.scale)
        left, top, right, bottom = self.content_bounds
        if overlay.kind == "menu":
            w = round(self.width * 0.55)
            h = min(round(_intrinsic(content, "v", self.scale)), bottom - top)
            box = (right - w - round(4 * self.scale), top + round(4 * self.scale), right - round(4 * self.scale), 0)
            box = (box[0], box[1], box[2], box[1] + h)
        elif overlay.kind == "sheet":
            h = min(round(_intrinsic(content, "v", self.scale)), bottom - top)
            box = (left, bottom - h, right, bottom)
        else:
            across = right - left - margin * 4
            h = min(round(_intrinsic(content, "v", self.scale, across)), bottom - top - 2 * margin)
            y = top + (bottom - top - h) // 2
            box = (left + margin * 2, y, right - margin * 2, y + h)
        root = View(FRAME, children=[content], kind=overlay.kind)
        layout(root, box, self.scale)
        package = getattr(overlay, "package", "") or activity.app.package
        title = self.localized(overlay.title, activity.app.package) or overlay.kind
        return Window(overlay.kind, package, title, root, activity, overlay)

    def _adjust_resize(self, decor: View, keyboard_top: int) -> None:
        """adjustResize: while the keyboard serves a field of the activity, its content ends
        above the keyboard (a message composer stays visible and tappable)."""
        inner = decor.children[0].children[0]
        left, top, right, _ = self.content_bounds
        layout(inner, (left, top, right, keyboard_top), self.scale)

    def _lift_overlay(self, win: Window, keyboard_top: int) -> None:
        """adjustResize for a dialog or bottom sheet whose field has the keyboard: its window ends
        above the keyboard, so a dialog is centred in what is left (shrunk to fit, its list
        scrolling, its buttons kept) and a sheet sits on the keyboard; a tap on OK presses OK."""
        x0, y0, x1, y1 = win.root.bounds
        if y1 <= keyboard_top:
            return
        top = self.content_bounds[1]
        if win.kind == "sheet":
            box = (x0, max(top, keyboard_top - (y1 - y0)), x1, keyboard_top)
        else:
            margin = round(16 * self.scale)
            h = min(y1 - y0, keyboard_top - top - 2 * margin)
            y = top + (keyboard_top - top - h) // 2
            box = (x0, y, x1, y + h)
        layout(win.root, box, self.scale)

    def _reveal_focused(self, win: Window, keyboard_top: int) -> None:
        """ScrollView.requestChildFocus: a focused field that the resize hid scrolls back into view."""
        chain: list[View] = []

        def find(v: View) -> bool:
            chain.append(v)
            if (v.cls == EDIT and v.focused) or any(find(c) for c in v.children):
                return True
            chain.pop()
            return False

        if not find(win.root) or win.owner is None:
            return
        edit = chain[-1]
        scroller = next((v for v in reversed(chain[:-1]) if v.scrollable), None)
        if scroller is None:
            return
        top, bottom = scroller.bounds[1], min(scroller.bounds[3], keyboard_top)
        shift = max(0, edit.bounds[3] - bottom) or min(0, edit.bounds[1] - top)
        if shift:
            win.owner.scroll[scroller.key] = scroller.scroll_y + shift
            scroller.scroll_y += shift
            self._adjust_resize(win.root, keyboard_top)

    def _keyboard_window(self) -> Window:
        ime = keyboard.current(self.device.settings.get("secure", "default_input_method"))
        root = keyboard.build(self, ime)
        h = round(_intrinsic(root, "v", self.scale))
        layout(root, (0, self.height - self.nav_h - h, self.width, self.height - self.nav_h), self.scale)
        return Window("keyboard", ime, "InputMethod", root)

    def _toast_window(self, text: str, package: str) -> Window:
        root = View(kind="toast", text=text, padding=12, text_size=14)
        w = min(self.width - 64, round(_intrinsic(root, "h", self.scale)))
        h = round(_intrinsic(root, "v", self.scale))
        y = self.height - self.nav_h - round(72 * self.scale) - h
        x = (self.width - w) // 2
        layout(root, (x, y, x + w, y + h), self.scale)
        return Window("toast", package, "Toast", root)

    def _focused_edit(self, windows: list[Window]) -> tuple[Window, View] | None:
        for win in reversed(windows):
            if win.kind in ("keyboard", "toast"):
                continue
            for v in win.root.walk():
                if v.cls == EDIT and v.focused and v.shown:
                    return win, v
            if win.kind != "activity":
                # A dialog or menu has the input focus even without a text field.
                return None
        return None

    # -- input -------------------------------------------------------------------------------
    def _hit(self, root: View, x: int, y: int, want: str) -> View | None:
        """Deepest view under (x, y) that accepts `want` (click or long); later siblings first."""
        if not root.shown:
            return None
        for child in reversed(root.children):
            hit = self._hit(child, x, y, want)
            if hit is not None:
                return hit
        accepts = root.long_clickable if want == "long" else root.clickable or root.on_touch is not None
        if accepts and root.enabled:
            pad = round(root.touch_expand * self.scale)
            l, t, r, b = root.visible_bounds
            if l - pad <= x < r + pad and t - pad <= y < b + pad:
                return root
        return None

    def _inside(self, root: View, x: int, y: int) -> bool:
        l, t, r, b = root.bounds
        return l <= x < r and t <= y < b

    def tap(self, x: int, y: int, *, long: bool = False, burst: object = None) -> None:
        """A tap (`burst`: what injected it, e.g. one shell command's session, for double taps)."""
        frame = self.frame()
        self.changed()
        second = not long and self._second_tap(x, y, burst)
        if y >= self.height - self.nav_h:
            return self._nav_bar(x)
        if y < self.status_h:
            return None
        for win in reversed(frame.windows):
            if win.kind == "toast":
                continue
            if not self._inside(win.root, x, y):
                if win.kind in ("dialog", "menu", "sheet"):
                    # Modal: a touch outside cancels it and goes no further.
                    if win.overlay and win.overlay.cancelable and win.owner:
                        win.owner.dismiss(win.overlay)
                        if win.overlay.on_cancel:
                            win.overlay.on_cancel()
                    return None
                continue
            view = self._hit(win.root, x, y, "long" if long else "click")
            if view is None:
                return None
            if view.on_touch is not None and not long:  # a touch listener takes the spot, no click
                pad = round(view.padding * self.scale)
                l, t, r, b = view.bounds
                fx = min(max((x - l - pad) / max(r - l - 2 * pad, 1), 0.0), 1.0)
                fy = min(max((y - t - pad) / max(b - t - 2 * pad, 1), 0.0), 1.0)
                view.on_touch(fx, fy)
                self.changed()
                self.device.accessibility.emit("TYPE_WINDOW_CONTENT_CHANGED", package=win.package, cls=win.root.cls)
                return None
            with drawing(self.device.locale):  # what a click formats (a dialog's dates) is in the locale
                return self._perform(win, view, long, second)
        return None

    def _second_tap(self, x: int, y: int, burst: object) -> bool:
        """Whether a tap at (x, y) now is the second of a double tap, by GestureDetector's test:
        the previous tap less than DOUBLE_TAP_TIMEOUT before and within the double-tap slop; the
        tap is remembered for the next one. Only taps of one burst (one shell command) count: the
        virtual device's steps follow each other far faster than a phone's, and two steps' taps
        would select text no agent meant to. (DOUBLE_TAP_MIN_TIME, 40 ms, never decides here:
        on a phone the start of the next `input` process alone keeps taps further apart.)"""
        now, last = time.monotonic(), self._last_tap
        self._last_tap = (now, x, y, burst)
        if burst is None or last is None or last[3] is not burst or (now - last[0]) * 1000 > DOUBLE_TAP_TIMEOUT_MS:
            return False
        slop = DOUBLE_TAP_SLOP_DP * self.scale
        return abs(x - last[1]) <= slop and abs(y - last[2]) <= slop

    def _perform(self, win: Window, view: View, long: bool, second: bool = False) -> None:
        acc = self.device.accessibility
        # Android fills a container's click event with its descendants' texts; an ImageView adds
        # its content description (ImageView.onPopulateAccessibilityEventInternal).
        texts = [view.text] if view.text else [t for v in view.walk() if v.shown and (t := _event_text(v))]
        if long:
            acc.emit_view("TYPE_VIEW_LONG_CLICKED", view, win.package, text=texts)
            if view.on_long_click:
                view.on_long_click()
            elif view.cls == EDIT and win.owner is not None:
                # A long press on a field focuses it and selects its word (all of a one-word
                # text); what is typed next replaces the selection.
                win.owner.focus = view.key
                self.ime_shown = True
                self.selection = (win.owner, view.key) if view.text else None
                acc.emit_view("TYPE_VIEW_TEXT_SELECTION_CHANGED", view, win.package)
            return
        if view.cls == EDIT and win.owner is not None:
            if second and view.text and win.owner.focus == view.key:
                # The second tap of a double tap selects the word under the finger (Editor's
                # double-tap handling; all of a one-word text, as a long press here).
                self.selection = (win.owner, view.key)
                acc.emit_view("TYPE_VIEW_TEXT_SELECTION_CHANGED", view, win.package)
                return
            win.owner.focus = view.key
            self.ime_shown = True
            self.selection = None  # a tap only places the cursor
            acc.emit_view("TYPE_VIEW_FOCUSED", view, win.package)
        acc.emit_view("TYPE_VIEW_CLICKED", view, win.package, text=texts)
        if view.checkable:
            acc.emit_view("TYPE_VIEW_CLICKED", view, win.package, text=texts, checked=not view.checked)
        if view.on_click:
            view.on_click()
        self.changed()
        acc.emit("TYPE_WINDOW_CONTENT_CHANGED", package=win.package, cls=win.root.cls)

    def _nav_bar(self, x: int) -> None:
        third = self.width // 3
        key = "BACK" if x < third else "HOME" if x < 2 * third else "APP_SWITCH"
        self.key(KEYCODES[key])

    def swipe(self, x1: int, y1: int, x2: int, y2: int, duration_ms: int = 300, *, hold_ms: int = 0) -> None:
        """`input swipe` (`hold_ms`: `input draganddrop`, which holds still for the long-press
        timeout before it moves)."""
        self.gesture(Gesture.swipe(x1, y1, x2, y2, duration_ms, hold_ms))

    def gesture(self, g: Gesture) -> None:
        """One finger's touch from down to up, classified as Android's views do: a touch that
        stays within the touch slop is a tap, or a long press once held for the long-press
        timeout; a move from a drag handle drags its item (reordering); a long press that then
        moves drags what the pressed view drags (drag-select); a move before that scrolls the
        list under the finger, or turns the pager when mostly sideways (ViewPager takes it
        where |dx| / 2 > |dy|)."""
        _, x1, y1 = g.start
        exit_ = g.slop_exit(TOUCH_SLOP_DP * self.scale)
        held = (exit_[0] if exit_ else g.end[0]) >= LONG_PRESS_MS
        if exit_ is None:
            return self.tap(round(x1), round(y1), long=held)
        if self._handle_drag(g):
            return None
        if held:
            return self._long_drag(g)
        frame = self.frame()
        self.changed()
        for win in reversed(frame.app_windows()):
            if not self._inside(win.root, round(x1), round(y1)):
                continue
            if abs(exit_[1] - x1) / 2 > abs(exit_[2] - y1):
                return self._page(win, g)
            return self._scroll(win, g)
        return None

    def motion(self, action: str, x: int, y: int, *, spacing_ms: float = 0) -> None:
        """One motion event injected on its own (`input motionevent`, uiautomator2's
        injectInputEvent): DOWN starts a finger's path, MOVE adds to it, UP ends it and plays it
        as the gesture it was, with the times the events came at, `spacing_ms` at least apart
        (each `input` is a process of its own, which on a phone takes longer than that to start);
        CANCEL drops it."""
        now = time.monotonic() * 1000
        if self._touch:
            now = max(now, self._touch[-1][0] + spacing_ms)
        if action == "DOWN":
            self._touch = [(now, x, y)]
        elif action == "MOVE" and self._touch:
            self._touch.append((now, x, y))
        elif action == "UP" and self._touch:
            t0 = self._touch[0][0]
            samples = tuple((t - t0, px, py) for t, px, py in self._touch)
            self._touch = []
            self.gesture(Gesture(samples, (now - t0, x, y)))
        elif action == "CANCEL":
            self._touch = []

    def _scroll(self, win: Window, g: Gesture) -> None:
        """A vertical drag scrolls the list under the finger by the distance dragged past the
        touch slop (RecyclerView and NestedScrollView take the slop off the first move), then
        flings it by OverScroller's distance for the lift's velocity; both end at the list's ends."""
        target = self._scrollable_at(win.root, round(g.start[1]), round(g.start[2]))
        if target is None or win.owner is None:
            return None
        slop = TOUCH_SLOP_DP * self.scale
        dragged = max(abs(g.dy) - slop, 0) * (-1 if g.dy > 0 else 1)
        fling = fling_distance(-g.velocity()[1], self.scale)
        before = target.scroll_y
        max_scroll = max(0, target.content_height - (target.bounds[3] - target.bounds[1]))
        after = min(max(before + round(dragged + fling), 0), max_scroll)
        win.owner.scroll[target.key] = after
        if after != before:
            self.device.accessibility.emit_view("TYPE_VIEW_SCROLLED", target, win.package)
        return None

    def _page(self, win: Window, g: Gesture) -> None:
        """A sideways drag over a ViewPager turns it as ViewPager.determineTargetPage does: a
        fling (past MIN_DISTANCE_FOR_FLING at MIN_FLING_VELOCITY or faster) turns it the fling's
        way, a slower drag turns it once the page moved past 60% of its width (the drag moves it
        by the distance past the paging touch slop); finger to the left is the next page. At
        either end the pager stays put."""
        x, y = round(g.start[1]), round(g.start[2])
        pager, turn = None, None
        for v in win.root.walk():
            if v.on_page is not None and v.shown and self._inside(v, x, y):
                pager, turn = v, v.on_page  # the deepest one wins
        if pager is None or turn is None:
            return None
        width = pager.bounds[2] - pager.bounds[0]
        dx, vx = g.dx, g.velocity()[0]
        fling = abs(dx) > PAGER_FLING_DISTANCE_DP * self.scale and abs(vx) > PAGER_FLING_VELOCITY_DP * self.scale
        moved = abs(dx) - PAGING_TOUCH_SLOP_DP * self.scale
        if fling:
            step = -1 if vx > 0 else 1
        elif moved > width * PAGE_TURN_FRACTION:
            step = -1 if dx > 0 else 1
        else:
            return None
        turn(step)
        self.device.accessibility.emit_view("TYPE_VIEW_SCROLLED", pager, win.package)
        return None

    def _long_drag(self, g: Gesture) -> None:
        """A long press that moves on: the press fires where the finger went down; where the
        pressed view takes drags (View.on_drag: Simple-Commons' drag-select), the view under the
        finger at the lift that takes drags too is where it was dragged to. A drag that starts
        on nothing draggable only long-presses."""
        x1, y1 = round(g.start[1]), round(g.start[2])
        x2, y2 = round(g.end[1]), round(g.end[2])
        frame = self.frame()
        win = next((w for w in reversed(frame.app_windows()) if self._inside(w.root, x1, y1)), None)
        pressed = self._hit(win.root, x1, y1, "long") if win is not None else None
        drag = pressed.on_drag if pressed is not None else None
        self.tap(x1, y1, long=True)
        if drag is None or pressed is None:
            return None
        frame = self.frame()  # the long press rebuilt the screen (a selection started)
        win = next((w for w in reversed(frame.app_windows()) if self._inside(w.root, x1, y1)), None)
        target = self._drag_target(win.root, x2, y2) if win is not None else None
        if target is not None:
            drag(target.key)
            self.changed()
        return None

    def _handle_drag(self, g: Gesture) -> bool:
        """A move that starts on a drag handle (View.drag_handle) drags its item to the item
        under the finger at the lift, the deepest view there that holds a handle too: the
        handle's on_drag gets that item's key (reordering). Whether the touch was on a handle."""
        x1, y1 = round(g.start[1]), round(g.start[2])
        frame = self.frame()
        win = next((w for w in reversed(frame.app_windows()) if self._inside(w.root, x1, y1)), None)
        handle = next((v for v in reversed(self._chain_at(win.root, x1, y1)) if v.drag_handle), None) if win else None
        if win is None or handle is None:
            return False
        items = self._chain_at(win.root, round(g.end[1]), round(g.end[2]))
        target = next((v for v in reversed(items) if any(c.drag_handle for c in v.walk())), None)
        if handle.on_drag is not None and target is not None:
            handle.on_drag(target.key)
            self.changed()
        return True

    def _chain_at(self, root: View, x: int, y: int) -> list[View]:
        """The shown views under (x, y), outermost first, down the deepest path."""
        chain: list[View] = []
        v: View | None = root
        while v is not None and v.shown and self._inside(v, x, y):
            chain.append(v)
            v = next((c for c in reversed(v.children) if c.shown and self._inside(c, x, y)), None)
        return chain

    def _drag_target(self, root: View, x: int, y: int) -> View | None:
        """The deepest view under (x, y) that takes drags (a drag handle is not one)."""
        found = None
        for v in root.walk():
            if v.on_drag is not None and v.shown and not v.drag_handle:
                l, t, r, b = v.visible_bounds
                if l <= x < r and t <= y < b:
                    found = v
        return found

    def _scrollable_at(self, root: View, x: int, y: int) -> View | None:
        found = None
        for v in root.walk():
            if v.scrollable and v.shown and self._inside(v, x, y):
                found = v  # the deepest one wins: walk is depth first
        return found

    def key(self, code: int) -> None:
        self.changed()
        top = self.top()
        if code == KEYCODES["BACK"]:
            # The keyboard takes BACK only while it is on screen: a dialog without a text field
            # has the window focus (the field under it lost input focus), so BACK goes to it.
            if self.ime_shown and self._focused_edit(self.frame().windows) is not None:
                self.ime_shown = False
                self.changed()  # that frame was built with the keyboard
            elif top.overlays:
                overlay = top.overlays[-1]
                top.dismiss(overlay)
                if overlay.on_cancel:
                    overlay.on_cancel()
            elif not top.on_back():
                task = self.task_of(top.app.package)
                if task is not None and len(task) == 1 and top.app is self.device.packages.home_app():
                    return None  # BACK on the home screen does nothing
                self.finish(top)
            return None
        if code == KEYCODES["HOME"]:
            return self.home()
        if code == KEYCODES["APP_SWITCH"]:
            return self.recents()
        focused = self._focused_edit(self.frame().windows)
        if focused is None:
            return None
        win, view = focused
        if code == KEYCODES["ENTER"]:
            if view.on_submit:
                view.on_submit()
            else:
                self.type_text("\n")
        elif code == KEYCODES["DEL"]:
            if view.text:
                self._set_text(win, view, "" if self._take_selection(win, view) else view.text[:-1])
        elif code == KEYCODES["TAB"]:
            self._focus_next(win, view)
        elif code in KEY_CHARS:
            self.type_text(KEY_CHARS[code])
        return None

    def type_text(self, text: str) -> bool:
        """Insert text at the end of the focused field; False when no field has focus."""
        focused = self._focused_edit(self.frame().windows)
        self.changed()
        if focused is None:
            return False
        win, view = focused
        replace = self._take_selection(win, view)
        self._set_text(win, view, text if replace else view.text + text)
        return True

    def _take_selection(self, win: Window, view: View) -> bool:
        """Whether the field's text is selected (and so replaced by the next edit); clears it."""
        selected = self.selection == (win.owner, view.key)
        self.selection = None
        return selected

    def _set_text(self, win: Window, view: View, new: str) -> None:
        before = view.text
        if view.on_text:
            view.on_text(new)
        elif win.owner is not None:
            win.owner.texts[view.key] = new
        self.changed()
        self.device.accessibility.emit_view("TYPE_VIEW_TEXT_CHANGED", view, win.package, text=[new], before=before)

    def _focus_next(self, win: Window, view: View) -> None:
        edits = [v for v in win.root.walk() if v.cls == EDIT and v.shown]
        if win.owner is not None and len(edits) > 1:
            nxt = edits[(edits.index(view) + 1) % len(edits)]
            win.owner.focus = nxt.key
            self.changed()
            self.device.accessibility.emit_view("TYPE_VIEW_FOCUSED", nxt, win.package)


def _event_text(view: View) -> str:
    """What a view adds to the text of an accessibility event it is part of."""
    if view.text:
        return view.text
    return view.desc if view.cls in (IMAGE, IMAGE_BUTTON) and view.desc else ""
