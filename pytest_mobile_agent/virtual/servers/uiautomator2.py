"""The uiautomator2 server (what `com.wetest.uia2.Main` serves on device port 9008).

uiautomator2 starts it with `app_process` over a shell stream that stays open, then sends
one HTTP/1.1 request per `tcp:9008` stream: `GET /ping` or `POST /jsonrpc/0`. Selectors are
matched against every app window, as the real server does; a selector that matches nothing
raises `UiObjectNotFoundException`, which the client turns into UiObjectNotFoundError.
"""

from __future__ import annotations

import base64
import json
import logging
import re
import time
from collections.abc import Callable, Iterator
from typing import Any

from pytest_mobile_agent.virtual.core.net import Socket
from pytest_mobile_agent.virtual.system.device import Device
from pytest_mobile_agent.virtual.system.gestures import LONG_PRESS_MS
from pytest_mobile_agent.virtual.system.window import KEYCODES
from pytest_mobile_agent.virtual.ui.hierarchy import dump
from pytest_mobile_agent.virtual.ui.view import View

log = logging.getLogger(__name__)
MAX_REQUEST = 16 * 1024 * 1024
NOT_FOUND = "uiautomator.UiObjectNotFoundException"
MOTION_ACTIONS = {0: "DOWN", 1: "UP", 2: "MOVE", 3: "CANCEL"}  # MotionEvent.ACTION_*
PRESS_KEYS = {
    "home": "HOME",
    "back": "BACK",
    "menu": "MENU",
    "enter": "ENTER",
    "delete": "DEL",
    "del": "DEL",
    "recent": "APP_SWITCH",
    "search": "SEARCH",
    "power": "POWER",
    "volume_up": "VOLUME_UP",
    "volume_down": "VOLUME_DOWN",
    "camera": "CAMERA",
    "up": "DPAD_UP",
    "down": "DPAD_DOWN",
    "left": "DPAD_LEFT",
    "right": "DPAD_RIGHT",
    "center": "DPAD_CENTER",
}


class RpcError(Exception):
    def __init__(self, message: str, code: int = -32001) -> None:
        super().__init__(message)
        self.code = code


class _HttpConnection:
    def __init__(self, server: U2Server, stream: Socket) -> None:
        self.server = server
        self.stream = stream
        self.buf = bytearray()
        self.busy = False

    def on_data(self, data: bytes) -> None:
        if self.busy:
            return
        self.buf += data
        if len(self.buf) > MAX_REQUEST:
            self._respond(413, b"request too large")
            return
        head_end = self.buf.find(b"\r\n\r\n")
        if head_end < 0:
            return
        head = self.buf[:head_end].decode("latin-1")
        match = re.search(r"(?im)^content-length:\s*(\d+)", head)
        length = int(match.group(1)) if match else 0
        if len(self.buf) < head_end + 4 + length:
            return
        body = bytes(self.buf[head_end + 4 : head_end + 4 + length])
        self.busy = True
        request_line = head.split("\r\n", 1)[0].split()
        method, path = (request_line + ["", ""])[:2]
        self.server.device.executor.submit(self._handle, method, path, body)

    def _handle(self, method: str, path: str, body: bytes) -> None:
        try:
            if path.startswith("/ping"):
                self._respond(200, b"pong", "text/plain")
            elif path.startswith("/jsonrpc/0") and method == "POST":
                self._respond(200, self.server.rpc(body))
            else:
                self._respond(404, b"not found", "text/plain")
        except Exception as exc:  # never let a request take the server down
            log.exception("u2 request failed")
            self._respond(500, str(exc).encode(), "text/plain")

    def _respond(self, status: int, payload: bytes, ctype: str = "application/json") -> None:
        reason = {200: "OK", 404: "Not Found", 413: "Payload Too Large", 500: "Internal Server Error"}[status]
        head = (
            f"HTTP/1.1 {status} {reason}\r\nContent-Type: {ctype}\r\nContent-Length: {len(payload)}\r\n"
            "Connection: close\r\n\r\n"
        ).encode()
        self.stream.send_threadsafe(head + payload)
        self.stream.close_threadsafe()

    def on_close(self) -> None:
        pass


class U2Server:
    def __init__(self, device: Device) -> None:
        self.device = device

    def connect(self, stream: Socket) -> _HttpConnection:
        return _HttpConnection(self, stream)

    def rpc(self, body: bytes) -> bytes:
        try:
            request = json.loads(body)
            method, params, rid = request["method"], request.get("params") or [], request.get("id", 1)
        except (ValueError, KeyError, TypeError):
            return json.dumps(
                {"jsonrpc": "2.0", "id": None, "error": {"code": -32700, "message": "Parse error"}}
            ).encode()
        handler: Callable[..., Any] | None = getattr(self, f"m_{method}", None)
        if handler is None:
            error = {"code": -32601, "message": f"Method not found: {method}"}
            return json.dumps({"jsonrpc": "2.0", "id": rid, "error": error}).encode()
        try:
            args = params if isinstance(params, list) else [params]
            result = handler(*args)
        except RpcError as exc:
            return json.dumps({"jsonrpc": "2.0", "id": rid, "error": {"code": exc.code, "message": str(exc)}}).encode()
        except TypeError as exc:
            return json.dumps(
                {"jsonrpc": "2.0", "id": rid, "error": {"code": -32602, "message": f"Invalid params: {exc}"}}
            ).encode()
        return json.dumps({"jsonrpc": "2.0", "id": rid, "result": result}).encode()

    # -- selectors ---------------------------------------------------------------------------
    def _nodes(self) -> Iterator[tuple[View, str, int]]:
        """(view, package, index among siblings) for every shown view of every app window."""
        frame = self.device.wm.frame()
        for win in frame.app_windows():
            stack: list[tuple[View, int]] = [(win.root, 0)]
            while stack:
                view, index = stack.pop()
                if not view.shown:
                    continue
                yield view, win.package, index
                stack.extend(reversed([(c, i) for i, c in enumerate(view.children)]))

    @staticmethod
    def _match(sel: dict[str, Any], view: View, package: str, index: int) -> bool:
        for key, want in sel.items():
            if key in ("mask", "childOrSibling", "childOrSiblingSelector", "instance"):
                continue
            if not _MATCHERS.get(key, lambda v, p, i, w: True)(view, package, index, want):
                return False
        return True

    def _find_all(self, sel: dict[str, Any]) -> list[tuple[View, str]]:
        with self.device.lock:
            found = [(v, p) for v, p, i in self._nodes() if self._match(sel, v, p, i)]
            if sel.get("mask", 0) & 0x01000000 and sel.get("childOrSibling"):
                instance = sel.get("instance", 0)  # the outer instance picks the parent
                found = found[instance : instance + 1]
            for relation, sub in zip(sel.get("childOrSibling") or [], sel.get("childOrSiblingSelector") or []):
                found = self._related(found, relation, sub)
        return found

    def _related(self, found: list[tuple[View, str]], relation: str, sub: dict[str, Any]) -> list[tuple[View, str]]:
        out = []
        for view, pkg in found[:1]:
            pool = list(view.walk())[1:] if relation == "child" else self._siblings(view)
            for i, v in enumerate(pool):
                if v.shown and self._match(sub, v, pkg, i):
                    out.append((v, pkg))
        return out

    def _siblings(self, view: View) -> list[View]:
        for v, _, _ in self._nodes():
            if view in v.children:
                return [c for c in v.children if c is not view]
        return []

    def _find(self, sel: dict[str, Any]) -> tuple[View, str] | None:
        found = self._find_all(sel)
        # With child/sibling selectors, uiautomator2 puts the instance on the last one.
        last = (sel.get("childOrSiblingSelector") or [sel])[-1]
        instance = last.get("instance", 0) if last.get("mask", 0) & 0x01000000 else 0
        return found[instance] if instance < len(found) else None

    def _must(self, sel: dict[str, Any]) -> tuple[View, str]:
        hit = self._find(sel)
        if hit is None:
            raise RpcError(f"{NOT_FOUND}: UiSelector[{_describe(sel)}]", -32002)
        return hit

    def _wait(self, sel: dict[str, Any], timeout_ms: int, present: bool) -> bool:
        deadline = time.monotonic() + timeout_ms / 1000
        while True:
            if (self._find(sel) is not None) == present:
                return True
            if time.monotonic() >= deadline:
                return False
            time.sleep(0.02)

    # -- methods -----------------------------------------------------------------------------
    def m_deviceInfo(self) -> dict[str, Any]:
        wm = self.device.wm
        with self.device.lock:
            package = wm.top().app.package
        return {
            "currentPackageName": package,
            "displayHeight": wm.height,
            "displayWidth": wm.width,
            "displayRotation": 0,
            "displaySizeDpX": round(wm.width / wm.scale),
            "displaySizeDpY": round(wm.height / wm.scale),
            "naturalOrientation": True,
            "productName": self.device.props["ro.product.name"],
            "screenOn": True,
            "sdkInt": int(self.device.props["ro.build.version.sdk"]),
        }

    def m_dumpWindowHierarchy(
        self, compressed: bool = False, max_depth: int | None = None, root_in_active: bool | None = None
    ) -> str:
        with self.device.lock:
            return dump(self.device.wm.frame(), bool(compressed), all_windows=not root_in_active)

    def m_takeScreenshot(self, scale: float = 1, quality: int = 80) -> str:
        return base64.b64encode(self.device.screen_jpeg(int(quality))).decode()

    def m_click(self, x: Any, y: Any = None, duration_ms: int | None = None) -> bool:
        if isinstance(x, dict):  # click(selector): the centre of its visible bounds
            view, _ = self._must(x)
            l, t, r, b = view.visible_bounds
            x, y = (l + r) // 2, (t + b) // 2
        with self.device.lock:
            self.device.wm.tap(int(x), int(y), long=bool(duration_ms and duration_ms >= LONG_PRESS_MS))
        return True

    def m_longClick(self, sel: dict[str, Any], timeout: int = 0) -> bool:
        view, _ = self._must(sel)
        l, t, r, b = view.visible_bounds
        with self.device.lock:
            self.device.wm.tap((l + r) // 2, (t + b) // 2, long=True)
        return True

    def m_swipe(self, fx: int, fy: int, tx: int, ty: int, steps: int = 10) -> bool:
        with self.device.lock:
            self.device.wm.swipe(int(fx), int(fy), int(tx), int(ty), int(steps) * 5)
        return True

    def m_swipePoints(self, points: list[int], steps: int = 10) -> bool:
        return self.m_swipe(points[0], points[1], points[-2], points[-1], steps)

    def m_drag(self, sx: int, sy: int, ex: int, ey: int, steps: int = 10) -> bool:
        # UiDevice.drag: a swipe that first holds still for the long-press timeout.
        with self.device.lock:
            self.device.wm.swipe(int(sx), int(sy), int(ex), int(ey), int(steps) * 5, hold_ms=LONG_PRESS_MS)
        return True

    def m_injectInputEvent(self, action: int, x: float, y: float, meta: int = 0) -> bool:
        name = MOTION_ACTIONS.get(int(action))  # touch.down / move / up
        if name is not None:
            with self.device.lock:
                self.device.wm.motion(name, int(x), int(y))
        return True

    def m_pressKey(self, key: str) -> bool:
        name = PRESS_KEYS.get(key.lower())
        if name is None:
            raise RpcError(f"java.lang.IllegalArgumentException: unknown key {key}")
        return self.m_pressKeyCode(KEYCODES[name])

    def m_pressKeyCode(self, code: int, meta: int = 0) -> bool:
        with self.device.lock:
            self.device.wm.key(int(code))
        return True

    def m_waitForExists(self, sel: dict[str, Any], timeout: int = 0) -> bool:
        return self._wait(sel, int(timeout), True)

    def m_waitUntilGone(self, sel: dict[str, Any], timeout: int = 0) -> bool:
        return self._wait(sel, int(timeout), False)

    def m_exist(self, sel: dict[str, Any]) -> bool:
        return self._find(sel) is not None

    def m_count(self, sel: dict[str, Any]) -> int:
        return len(self._find_all(sel))

    def m_objInfo(self, sel: dict[str, Any]) -> dict[str, Any]:
        return _info(*self._must(sel))

    def m_objInfoOfAllInstances(self, sel: dict[str, Any]) -> list[dict[str, Any]]:
        return [_info(v, p) for v, p in self._find_all(sel)]

    def m_getText(self, sel: dict[str, Any]) -> str:
        return self._must(sel)[0].text

    def m_setText(self, sel: dict[str, Any], text: str) -> bool:
        view, _ = self._must(sel)
        with self.device.lock:
            frame = self.device.wm.frame()
            win = next(w for w in frame.app_windows() if any(v is view for v in w.root.walk()))
            self.device.wm._set_text(win, view, text)
        return True

    def m_clearTextField(self, sel: dict[str, Any]) -> bool:
        return self.m_setText(sel, "")

    def m_clearInputText(self) -> bool:
        with self.device.lock:
            focused = self.device.wm._focused_edit(self.device.wm.frame().windows)
            if focused:
                self.device.wm._set_text(*focused, "")
        return True

    def m_getLastToast(self) -> str | None:
        return self.device.wm.last_toast

    def m_clearLastToast(self) -> bool:
        self.device.wm.last_toast = None
        return True

    def m_makeToast(self, text: str, duration: int = 1000) -> bool:
        with self.device.lock:
            self.device.wm.toast(text, "com.github.uiautomator")
        return True

    def m_getClipboard(self) -> str:
        return self.device.clipboard

    def m_setClipboard(self, label: str, text: str) -> bool:
        self.device.clipboard = text
        return True

    def m_wakeUp(self) -> bool:
        return True

    def m_sleep(self) -> bool:
        return True

    def m_setOrientation(self, orientation: str) -> bool:
        return True

    def m_freezeRotation(self, freeze: bool = True) -> bool:
        return True

    def m_openNotification(self) -> bool:
        return True

    def m_openQuickSettings(self) -> bool:
        return True

    def m_getLastTraversedText(self) -> str:
        return ""

    def m_clearLastTraversedText(self) -> bool:
        return True


def _info(view: View, package: str) -> dict[str, Any]:
    def rect(b: tuple[int, int, int, int]) -> dict[str, int]:
        return {"left": b[0], "top": b[1], "right": b[2], "bottom": b[3]}

    return {
        "bounds": rect(view.visible_bounds),
        "visibleBounds": rect(view.visible_bounds),
        "checkable": view.checkable,
        "checked": view.checked,
        "childCount": len(view.children),
        "className": view.cls,
        "clickable": view.clickable,
        "contentDescription": view.desc or None,
        "enabled": view.enabled,
        "focusable": view.focusable,
        "focused": view.focused,
        "longClickable": view.long_clickable,
        "packageName": package,
        "resourceName": view.id or None,
        "scrollable": view.reports_scrollable,
        "selected": view.selected,
        "text": view.text,
    }


def _describe(sel: dict[str, Any]) -> str:
    return ", ".join(
        f"{k}={v}" for k, v in sel.items() if k not in ("mask", "childOrSibling", "childOrSiblingSelector")
    )


def _regex(pattern: str, value: str) -> bool:
    try:
        return re.fullmatch(pattern, value, re.S) is not None
    except re.error:
        return False


_MATCHERS: dict[str, Callable[[View, str, int, Any], bool]] = {
    "text": lambda v, p, i, w: v.text == w,
    "textContains": lambda v, p, i, w: w in v.text,
    "textMatches": lambda v, p, i, w: _regex(w, v.text),
    "textStartsWith": lambda v, p, i, w: v.text.startswith(w),
    "className": lambda v, p, i, w: v.cls == w,
    "classNameMatches": lambda v, p, i, w: _regex(w, v.cls),
    "description": lambda v, p, i, w: v.desc == w,
    "descriptionContains": lambda v, p, i, w: w in v.desc,
    "descriptionMatches": lambda v, p, i, w: _regex(w, v.desc),
    "descriptionStartsWith": lambda v, p, i, w: v.desc.startswith(w),
    "checkable": lambda v, p, i, w: v.checkable == w,
    "checked": lambda v, p, i, w: v.checked == w,
    "clickable": lambda v, p, i, w: v.clickable == w,
    "longClickable": lambda v, p, i, w: v.long_clickable == w,
    "scrollable": lambda v, p, i, w: v.reports_scrollable == w,
    "enabled": lambda v, p, i, w: v.enabled == w,
    "focusable": lambda v, p, i, w: v.focusable == w,
    "focused": lambda v, p, i, w: v.focused == w,
    "selected": lambda v, p, i, w: v.selected == w,
    "packageName": lambda v, p, i, w: p == w,
    "packageNameMatches": lambda v, p, i, w: _regex(w, p),
    "resourceId": lambda v, p, i, w: v.id == w,
    "resourceIdMatches": lambda v, p, i, w: _regex(w, v.id),
    "index": lambda v, p, i, w: i == w,
}
