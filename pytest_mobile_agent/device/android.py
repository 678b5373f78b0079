"""One Android device as the harness drives it: adb through adbutils, plus uiautomator2 and
AndroidViewClient on demand. The same code runs against a phone, an emulator, a device farm
behind a remote adb server and the virtual device; there is no virtual-only branch.

The step loop's hot path (a shell command, a screenshot, a dump) opens one adb stream per
call on adbutils' connection objects, through a client that skips two costs of adbutils as
shipped: the `host:version` round trip before every transport (the answer is cached) and the
10 ms sleep in `AdbConnection.close` after the half-close (the adb server ends the stream on a
close alone, so the sleep only adds latency to every pull, install and listener check).
"""

from __future__ import annotations

import base64
import contextlib
import logging
import re
import socket
import struct
import time
from collections.abc import Iterable, Iterator
from typing import Any

import adbutils
from adbutils._adb import AdbConnection

from pytest_mobile_agent.actions import KEYS, Action, InvalidAction
from pytest_mobile_agent.device.ui_tree import UiTree, scroll_path
from pytest_mobile_agent.errors import DeviceLost, ObservationFailed, ShellCommandError, TaskError
from pytest_mobile_agent.events.schema import LISTENER_LOCALE_ACTION, LISTENER_PACKAGE
from pytest_mobile_agent.locales import DEFAULT_LOCALE

log = logging.getLogger(__name__)
LAUNCHER_CATEGORY = "android.intent.category.LAUNCHER"
ADB_KEYBOARD = "com.android.adbkeyboard"
ADB_KEYBOARD_IME = "com.android.adbkeyboard/.AdbIME"
LONG_PRESS_MS = 800
# `input motionevent` exists since Android 11, but only since Android 12, where `input` is
# `cmd input`, does one start fast enough that a finger put down stays short of the long-press
# timeout before the next event moves it.
MOTIONEVENT_SDK = 31
# `uiautomator dump` to a file, printed and removed in the same round trip (see dump()).
DUMP_FILE = "/data/local/tmp/pytest_mobile_agent_window.xml"
DUMP_COMMAND = f"rm -f {DUMP_FILE}; uiautomator dump {DUMP_FILE} 2>&1; cat {DUMP_FILE} 2>/dev/null; rm -f {DUMP_FILE}"
DUMP_ATTEMPTS = 3
# What DumpCommand prints when the screen did not idle (1 s without events) within 10 s, and
# what a second UiAutomation client gets while uiautomator2's server holds the connection.
IDLE_FAILURE = "could not get idle state"
# The focused window: `mCurrentFocus=Window{1f2e3d4 u0 PACKAGE/ACTIVITY}`.
# What `am broadcast` prints once a receiver set a result: its code and data.
BROADCAST_RESULT = re.compile(r'Broadcast completed: result=(-?\d+)(?:, data="([^"]*)")?')
CHANGE_CONFIGURATION = "android.permission.CHANGE_CONFIGURATION"
ANIMATION_SCALES = ("window_animation_scale", "transition_animation_scale", "animator_duration_scale")
FOCUSED = re.compile(r"mCurrentFocus=Window\{\S+ \S+ ([^\s/}]+)/([^\s}]+)\}")
UIAUTOMATION_TAKEN = "already registered"


def close_promptly(conn: AdbConnection) -> None:
    """`AdbConnection.close` without its 10 ms sleep between the half-close and the close."""
    if conn.closed:
        return
    with contextlib.suppress(OSError):
        conn.conn.shutdown(socket.SHUT_WR)
    conn.conn.close()
    conn._AdbConnection__conn = None  # what adbutils' own close leaves: `closed` is then true


class _PromptConnection(AdbConnection):
    close = close_promptly


class HarnessAdbClient(adbutils.AdbClient):
    """An AdbClient that asks the server's version once, not before every transport, sends
    without Nagle's delay and closes its connections promptly."""

    _version: int | None = None

    def server_version(self) -> int:
        if self._version is None:
            self._version = super().server_version()
        return self._version

    def make_connection(self, timeout: float | None = None) -> AdbConnection:
        conn = super().make_connection(timeout)
        conn.__class__ = _PromptConnection  # same object and state, only close() differs
        # adbutils writes requests in pieces (sync's SEND, DATA, DONE): without this, each piece
        # after the first waits for the server's delayed ACK, 40 ms apiece.
        conn.conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        return conn


def shell_quote(text: str) -> str:
    """`text` as one word of a device shell command line, whatever quotes it holds."""
    return "'" + text.replace("'", "'\\''") + "'"


STATUS_MARK = "__PMA_RC="  # sh_status's marker before the exit status
# What Android's shells and commands print when a command line did not do its work, whatever
# the exit status says (mksh, toybox, `content`, `pm`, `am`).
SHELL_ERRORS = (
    "syntax error",
    "inaccessible or not found",
    ": not found",
    "Error while accessing provider",
    "Unknown package",
)


def shell_error_in(output: str) -> str | None:
    """The shell error message in a command's output, if it holds one."""
    return next((line for line in output.splitlines() if any(e in line for e in SHELL_ERRORS)), None)


class AndroidDevice:
    def __init__(self, serial: str, client: adbutils.AdbClient | None = None) -> None:
        from pytest_mobile_agent.device import adb_server

        self.serial = serial
        self.client = client or HarnessAdbClient(host="127.0.0.1", port=adb_server.server_port(), socket_timeout=60)
        self.adb = adbutils.AdbDevice(self.client, serial=serial)
        self._u2: Any = None
        self._size: tuple[int, int] | None = None
        self._adb_keyboard: bool | None = None
        self._sdk: int | None = None
        self._read_cache: dict[str, bytes] | None = None
        self.locale = DEFAULT_LOCALE  # the locale the harness last set (see set_locale)

    def __repr__(self) -> str:
        return f"AndroidDevice({self.serial!r})"

    # -- transport ---------------------------------------------------------------------------
    @contextlib.contextmanager
    def reading(self) -> Iterator[None]:
        """While judging, the device does not change: the same command gives the same output, so
        a task body evaluated once per event asks the device once per step."""
        self._read_cache = {}
        try:
            yield
        finally:
            self._read_cache = None

    def sh_bytes(self, command: str, timeout: float = 60.0) -> bytes:
        """Run a shell command, return its output (stdout and stderr interleaved)."""
        if self._read_cache is not None:
            if command not in self._read_cache:
                self._read_cache[command] = self._sh_bytes(command, timeout)
            return self._read_cache[command]
        return self._sh_bytes(command, timeout)

    def _sh_bytes(self, command: str, timeout: float) -> bytes:
        try:
            conn = self.adb.open_transport(timeout=timeout)
            conn.send_command("shell:" + command)
            conn.check_okay()
            data = conn.read_until_close(encoding=None)
            conn.close()
            return data
        except (adbutils.AdbError, OSError) as exc:
            raise DeviceLost(f"device {self.serial} lost during `{command[:60]}`: {exc}") from exc

    def push(self, data: bytes, path: str, mode: int = 0o644, mtime: int = 0) -> None:
        """Write a file on the device through `sync:` (SEND, DATA, DONE) in one write.

        The same conversation adbutils' sync.push has, but its small writes each wait for a
        delayed ACK (about 40 ms apiece); here the whole request goes out at once.
        """
        spec = f"{path},{0o100000 | mode}".encode()
        request = bytearray(b"SEND" + struct.pack("<I", len(spec)) + spec)
        for i in range(0, len(data), 64 * 1024):
            chunk = data[i : i + 64 * 1024]
            request += b"DATA" + struct.pack("<I", len(chunk)) + chunk
        request += b"DONE" + struct.pack("<I", mtime or int(time.time()))
        try:
            conn = self.adb.open_transport()
            conn.send_command("sync:")
            conn.check_okay()
            conn.conn.sendall(bytes(request))
            reply = conn.read(8)
            message = conn.read(struct.unpack("<I", reply[4:])[0]) if reply[:4] == b"FAIL" else b""
            conn.close()
        except (adbutils.AdbError, OSError) as exc:
            raise DeviceLost(f"device {self.serial} lost during a push to {path}: {exc}") from exc
        if reply[:4] != b"OKAY":
            raise OSError(f"push to {path} on {self.serial} failed: {message.decode(errors='replace') or reply!r}")

    def pull(self, path: str) -> bytes:
        """A file's bytes from the device (adbutils' sync, which reads without waiting on ACKs).
        Raises FileNotFoundError for a missing file, DeviceLost when the device is gone."""
        try:
            return self.adb.sync.read_bytes(path)
        except (adbutils.AdbError, OSError) as exc:
            if self.alive():
                raise FileNotFoundError(f"{path} on {self.serial}: {exc}") from exc
            raise DeviceLost(f"device {self.serial} lost during a pull of {path}: {exc}") from exc

    def sh(self, command: str, timeout: float = 60.0, *, check: bool = True) -> str:
        """A shell command's output. With `check` (the default) a command that fails raises
        ShellCommandError naming it and its output: a non-zero exit status, or the shell's own
        error message (a syntax error, a command not found, a provider's error), which commands
        joined with `;` leave behind whatever the last one's status. Pass `check=False` where a
        failure is an answer (a file not there yet, a grep that finds nothing)."""
        if not check:
            return self.sh_bytes(command, timeout).decode("utf-8", "replace")
        status, out = self.sh_status(command, timeout)
        if status != 0 or shell_error_in(out):
            raise ShellCommandError(self.serial, command, status, out)
        return out

    def sh_status(self, command: str, timeout: float = 60.0) -> tuple[int | None, str]:
        """Output and exit status (through the `; echo` trick, which every shell understands);
        the status is None when the shell ran nothing (a syntax error in the command line)."""
        out = self.sh(f"{command}; echo {STATUS_MARK}$?", timeout, check=False)
        body, mark, rc = out.rpartition(STATUS_MARK)
        if not mark:
            if not self.alive():
                raise DeviceLost(f"device {self.serial} lost during `{command[:60]}`")
            return None, out
        return int(rc.strip() or 1), body

    def connections_dropped(self) -> None:
        """The device dropped every adb connection (an emulator's snapshot load): the
        uiautomator2 session went with them and is made again when next needed."""
        self._u2 = None

    def alive(self) -> bool:
        try:
            return self.sh("echo ok", timeout=5, check=False).strip() == "ok"
        except DeviceLost:
            return False

    # -- observation -------------------------------------------------------------------------
    def screenshot(self) -> bytes:
        out = self.sh_bytes("screencap -p")
        # A device with several displays prints a warning before the image when no `-d` names
        # one (SurfaceFlinger's screencap, Android 10+); adb's shell carries both in one stream.
        start = out.find(b"\x89PNG\r\n\x1a\n")
        if start < 0:
            raise DeviceLost(f"device {self.serial}: screencap returned no PNG ({out[:80]!r})")
        return out[start:]

    def dump(self) -> str:
        """The window hierarchy as `uiautomator dump` writes it.

        To a file read back in the same round trip, not to /dev/tty: adbd runs `shell:CMD`
        without a terminal since Android 7 (adb/daemon/services.cpp), where a dump to /dev/tty
        prints only its "dumped to" line; AndroidViewClient (API >= 24), AndroidWorld and
        SPA-Bench dump to a file too. A dump that did not come (a screen that never idles, as a
        running timer's; a null root during a transition) is retried; while another UiAutomation
        client holds the connection, or once the screen has failed to idle, the uiautomator2
        server dumps instead (it does not wait for idle). Only a device that stops answering is
        lost: a dump that never comes is an ObservationFailed."""
        if self._u2 is not None:  # its server holds the UiAutomation connection: `uiautomator dump` would fail
            return self._u2_dump()
        problems = []
        for attempt in range(DUMP_ATTEMPTS):
            out = self.sh(DUMP_COMMAND, check=False)  # its own check: the hierarchy
            start = out.find("<?xml")
            start = out.find("<hierarchy") if start < 0 else start
            if start >= 0 and out.rstrip().endswith("</hierarchy>"):
                return out[start:]
            problems.append(out.strip()[:160] or "no output")
            if IDLE_FAILURE in out or UIAUTOMATION_TAKEN in out:
                return self._u2_dump(problems)
            if attempt + 1 < DUMP_ATTEMPTS:  # no wait after the last
                time.sleep(0.2 * (attempt + 1))
        raise ObservationFailed(f"device {self.serial}: uiautomator dump failed {len(problems)} times: {problems}")

    def _u2_dump(self, problems: list[str] | None = None) -> str:
        """A dump through the uiautomator2 server. One started only for this dump is stopped
        after it, so that `uiautomator dump` (the next step's, a task check's through
        AndroidViewClient) can connect again."""
        started_here = self._u2 is None
        try:
            xml = str(self.u2.dump_hierarchy())
        except Exception as exc:  # uiautomator2 raises its own families and requests' errors
            if not self.alive():
                raise DeviceLost(f"device {self.serial} lost during a uiautomator2 dump: {exc}") from exc
            raise ObservationFailed(
                f"device {self.serial}: no window dump ({'; '.join(problems or [])}), "
                f"and the uiautomator2 server failed: {exc}"
            ) from exc
        finally:
            if started_here:
                self._stop_u2()
        if "<hierarchy" not in xml:
            raise ObservationFailed(f"device {self.serial}: uiautomator2 returned no hierarchy ({xml[:120]!r})")
        return xml

    def _stop_u2(self) -> None:
        u2, self._u2 = self._u2, None
        if u2 is not None:
            with contextlib.suppress(Exception):  # a server already gone is what we want
                u2.stop_uiautomator()

    def ui(self) -> UiTree:
        return UiTree(self.dump())

    def window_size(self) -> tuple[int, int]:
        if self._size is None:
            w, h = self.adb.window_size()
            self._size = (w, h)
        return self._size

    def sdk(self) -> int:
        """The device's API level (read once)."""
        if self._sdk is None:
            level = self.sh("getprop ro.build.version.sdk", check=False).strip()
            self._sdk = int(level) if level.isdigit() else 0
        return self._sdk

    def focus(self) -> str:
        """The window manager's focus lines (mCurrentFocus, mFocusedApp). Since API 29 they are
        printed per display, under `dumpsys window displays`; before, under `windows` (appium-adb
        switches at 29 too)."""
        section = "displays" if self.sdk() >= 29 else "windows"
        return self.sh(f"dumpsys window {section} | grep -E 'mCurrentFocus|mFocusedApp'", check=False)

    def current_app(self) -> tuple[str, str]:
        found = FOCUSED.search(self.focus())
        if found:
            return found.group(1), found.group(2)
        info = self.adb.app_current()  # adbutils' own fallbacks (resumed activity, top activity)
        return info.package, info.activity

    # -- actions -----------------------------------------------------------------------------
    def execute(self, action: Action, ui: UiTree | None) -> str:
        """Carry out a validated action; returns output for `api`. Raises InvalidAction."""
        # The step loop's own commands go unchecked: what they did shows on the next screen, and
        # an agent's `api` command's output (an error message included) is its answer.
        k = action.kind
        if k in ("tap", "long_press"):
            x, y = self._point(action, ui)
            if k == "tap":
                # A double (triple) tap: one shell command starting each tap's `input` 100 ms after
                # the one before, in the background, so that the taps land about 100 ms apart
                # whatever an `input` takes to start (a JVM before Android 12, `cmd input` since):
                # past Android's DOUBLE_TAP_MIN_TIME (40 ms), inside its DOUBLE_TAP_TIMEOUT (300 ms).
                self.sh(" & sleep 0.1; ".join([f"input tap {x} {y}"] * (action.count or 1)), check=False)
            else:
                self.sh(f"input swipe {x} {y} {x} {y} {action.duration_ms or LONG_PRESS_MS}", check=False)
        elif k == "swipe":
            for px, py in ((action.x, action.y), (action.x2, action.y2)):
                self._check_on_screen(int(px), int(py))  # type: ignore[arg-type]
            if action.fling is False:
                self._drag(int(action.x), int(action.y), int(action.x2), int(action.y2))  # type: ignore[arg-type]
            else:
                self.sh(
                    f"input swipe {action.x} {action.y} {action.x2} {action.y2} {action.duration_ms or 300}",
                    check=False,
                )
        elif k == "scroll":
            self._scroll(action, ui)
        elif k == "type":
            field = None
            if action.selector is not None:
                x, y = self._point(action, ui)
                self.sh(f"input tap {x} {y}", check=False)
                field = ui.select(action.selector) if ui is not None else None
            elif ui is not None:
                field = next((n for n in ui.nodes() if n.focused), None)
            if action.clear and field is not None and field.text:
                # To the end of the field, then one DEL a character, in one `input` (an empty
                # field's dump shows its hint as text: the extra DELs delete nothing).
                self.sh("input keyevent MOVE_END" + " DEL" * len(field.text), check=False)
            self.type_text(action.text or "")
        elif k == "key":
            self.sh(f"input keyevent {KEYS[(action.key or '').lower()]}", check=False)
        elif k == "launch":
            self.launch(action.package or "")
        elif k == "api":
            return self.sh(action.command or "", check=False)
        elif k == "wait":
            time.sleep(action.seconds or 0)
        return ""

    def _point(self, action: Action, ui: UiTree | None) -> tuple[int, int]:
        if action.selector is not None:
            node = ui.select(action.selector) if ui is not None else None
            if node is None:
                raise InvalidAction(f"no element matches {action.selector.describe()}")
            return node.center
        x, y = int(action.x), int(action.y)  # type: ignore[arg-type]
        self._check_on_screen(x, y)
        return x, y

    def _check_on_screen(self, x: int, y: int) -> None:
        w, h = self.window_size()
        if not (0 <= x < w and 0 <= y < h):
            raise InvalidAction(f"({x}, {y}) is off the {w}x{h} screen")

    def _scroll(self, action: Action, ui: UiTree | None) -> None:
        node = None
        if action.selector is not None:
            node = ui.select(action.selector) if ui is not None else None
            if node is None:
                raise InvalidAction(f"no element matches {action.selector.describe()}")
        x1, y1, x2, y2 = scroll_path(node, ui, self.window_size(), action.direction)
        if y1 != y2:
            self._drag(x1, y1, x2, y2)  # up or down: the list moves by the path, no fling past it
        else:
            # Sideways: a swipe whose fling turns a pager's page.
            self.sh(f"input swipe {x1} {y1} {x2} {y2} 300", check=False)

    def _drag(self, x1: int, y1: int, x2: int, y2: int) -> None:
        """The finger drags from (x1, y1) to (x2, y2) and stops before it lifts, one `input` per
        event, so the content moves by the distance dragged and does not fling on (a 300 ms
        swipe flings a list on). Before Android 12, a slow swipe, which flings a little."""
        if self.sdk() >= MOTIONEVENT_SDK:
            self.sh(
                f"input motionevent DOWN {x1} {y1}; input motionevent MOVE {x2} {y2}; input motionevent UP {x2} {y2}",
                check=False,
            )
        else:
            self.sh(f"input swipe {x1} {y1} {x2} {y2} 1000", check=False)

    def type_text(self, text: str) -> None:
        """`input text` where it can type the text (printable ASCII: its spaces sent as %s, so a
        literal "%s" cannot be typed), else ADB Keyboard's ADB_INPUT_B64 broadcast, the way
        agents type Chinese: `input text` types nothing where a character is not ASCII."""
        if text.isascii() and text.isprintable() and "%s" not in text:
            self.sh("input text " + shell_quote(text.replace(" ", "%s")), check=False)
            return
        if not self.has_adb_keyboard():
            raise InvalidAction(
                f"typing {text!r} needs ADBKeyboard ({ADB_KEYBOARD}) on the device: `input text` is ASCII only"
            )
        msg = base64.b64encode(text.encode()).decode()
        rc, out = self.sh_status(
            f"ime enable {ADB_KEYBOARD_IME} >/dev/null && ime set {ADB_KEYBOARD_IME} >/dev/null && "
            f"am broadcast -a ADB_INPUT_B64 --es msg {msg}"
        )
        if rc != 0 or "Broadcast completed" not in out:
            raise InvalidAction(f"typing {text!r} through ADBKeyboard failed: {out.strip()[-200:]}")

    def has_adb_keyboard(self) -> bool:
        if self._adb_keyboard is None:
            self._adb_keyboard = ADB_KEYBOARD in self.sh(f"pm list packages {ADB_KEYBOARD}")
        return self._adb_keyboard

    def missing_packages(self, packages: Iterable[str]) -> list[str]:
        """The packages of `packages` this device does not have installed."""
        installed = set(self.sh("pm list packages").split())
        return [p for p in packages if f"package:{p}" not in installed]

    def set_display(self, display: tuple[int, int, int | None] | None) -> None:
        """The screen at `display` (width, height, dpi or None for the device's own density), set
        with `wm size` / `wm density` where it differs (a reset may have put it back) and read back:
        a display that did not take is a task error, not a run at another size. None: untouched."""
        if display is None:
            return
        width, height, dpi = display
        want = [f"{width}x{height}", "reset" if dpi is None else str(dpi)]
        now = self.sh("wm size; wm density", check=False)
        have = _display_now(now)
        if have[0] != want[0] or (dpi is not None and have[1] != want[1]) or (dpi is None and have[2]):
            self.sh(f"wm size {want[0]}; wm density {want[1]}", check=False)
            now = self.sh("wm size; wm density", check=False)
            have = _display_now(now)
        self._size = None  # window_size() reads it again
        if have[0] != want[0] or (dpi is not None and have[1] != want[1]):
            raise TaskError(
                f"device {self.serial}: --mobile-display={width}x{height}"
                + (f"@{dpi}" if dpi else "")
                + f" did not take: `wm size; wm density` says {' '.join(now.split())!r}"
            )

    def set_font_scale(self, scale: float | None) -> None:
        """The font size setting at `scale`, set with `settings put system font_scale` where it
        differs (a reset may have put it back) and read back: one that did not take is a task
        error. None: untouched."""
        if scale is None:
            return
        now = self.sh("settings get system font_scale", check=False).strip()
        if _number(now) != scale:
            now = self.sh(f"settings put system font_scale {scale:g}; settings get system font_scale", check=False)
            now = now.strip()
        if _number(now) != scale:
            raise TaskError(
                f"device {self.serial}: --mobile-font-scale={scale:g} did not take: "
                f"`settings get system font_scale` says {now!r}"
            )

    def set_night(self, night: str | None) -> None:
        """Dark theme on ("yes") or off ("no"), set with `cmd uimode night` where it differs
        and read back from what it prints ("Night mode: yes"): one that did not take is a task
        error. None: untouched."""
        if night is None:
            return
        now = self.sh("cmd uimode night", check=False)
        if f"Night mode: {night}" not in now:
            now = self.sh(f"cmd uimode night {night}", check=False)
        if f"Night mode: {night}" not in now:
            raise TaskError(
                f"device {self.serial}: --mobile-night={night} did not take: "
                f"`cmd uimode night {night}` says {' '.join(now.split())!r}"
            )

    def set_locale(self, locale: str) -> None:
        """The device's locale, set without root as Settings sets it: the listener app's
        LocaleReceiver updates the activity manager's persistent configuration (it holds
        CHANGE_CONFIGURATION, granted here over adb, as appium's settings app does), and answers
        with the locale the system reports afterwards, which must be the one asked for.
        `setprop persist.sys.locale` needs root and takes effect only after a restart. Nothing is
        sent while the device stays in the default locale, so a device without the listener
        runs English tasks as before."""
        if locale == self.locale == DEFAULT_LOCALE:
            return
        out = self.sh(
            f"pm grant {LISTENER_PACKAGE} {CHANGE_CONFIGURATION} 2>&1; "
            f"am broadcast -a {LISTENER_LOCALE_ACTION} -n {LISTENER_PACKAGE}/.LocaleReceiver "
            f"--es locale {shell_quote(locale)}",
            check=False,
        )
        answer = BROADCAST_RESULT.search(out)
        if answer is None or answer.group(1) != "-1" or answer.group(2) != locale:
            raise TaskError(
                f"device {self.serial}: could not set the locale to {locale} through the listener app "
                f"({LISTENER_PACKAGE}, installed by the plugin); it answered {out.strip()[-300:]!r}"
            )
        self.locale = locale

    def animations_off(self) -> None:
        """Window, transition and animator scales to 0, as AndroidWorld and Espresso set them: a
        screen is never captured mid-transition, and an action's effect is on screen at once."""
        self.sh("; ".join(f"settings put global {name} 0" for name in ANIMATION_SCALES))

    def launch(self, package: str) -> None:
        rc, out = self.sh_status(f"monkey -p {shell_quote(package)} -c {LAUNCHER_CATEGORY} 1")
        if rc != 0:
            raise InvalidAction(f"cannot launch {package!r}: {out.strip().splitlines()[-1] if out.strip() else rc}")

    # -- reset -------------------------------------------------------------------------------
    def reset_app(self, packages: list[str], grants: list[str] = (), launch: str | None = None) -> None:  # type: ignore[assignment]
        """Fresh-install state for the task's apps in one round trip, then launch the first one."""
        parts = ["input keyevent HOME"]
        for p in packages:
            parts += [f"am force-stop {p}", f"pm clear {p} >/dev/null"]
            parts += [f"pm grant {p} {perm} 2>/dev/null" for perm in grants]
        if launch:
            parts.append(f"monkey -p {launch} -c {LAUNCHER_CATEGORY} 1 >/dev/null 2>&1")
        # Unchecked: a package that is not installed is found (and named) when the task starts.
        self.sh("; ".join(parts), check=False)
        if launch:
            self._await_foreground(launch)

    def _await_foreground(self, package: str, timeout: float = 20.0) -> None:
        deadline = time.monotonic() + timeout
        delay = 0.0
        while True:
            if package in self.focus():
                return
            if time.monotonic() > deadline:
                raise DeviceLost(
                    f"device {self.serial}: {package} did not come to the foreground within {timeout:.0f}s"
                )
            delay = min(0.5, delay + 0.05)  # a phone may need a moment; the virtual device never does
            time.sleep(delay)

    # -- other clients -----------------------------------------------------------------------
    @property
    def u2(self) -> Any:
        if self._u2 is None:
            import uiautomator2

            self._u2 = uiautomator2.connect(self.serial)
        return self._u2

    def view_client(self) -> Any:
        """AndroidViewClient on this device (MobileAgentBench tasks expect one)."""
        from pytest_mobile_agent.device import adb_server

        adb_server.expose_adb_on_path()
        from com.dtmilano.android.viewclient import ViewClient

        device, serial = ViewClient.connectToDeviceOrExit(serialno=self.serial, verbose=False)
        return ViewClient(device, serial, autodump=False)


def _number(text: str) -> float | None:
    try:
        return float(text)
    except ValueError:
        return None


def _display_now(out: str) -> tuple[str, str, bool]:
    """(size, density, density overridden) from `wm size; wm density`: an override wins."""
    size = re.findall(r"(?:Physical|Override) size: (\d+x\d+)", out)
    dpi = re.findall(r"(?:Physical|Override) density: (\d+)", out)
    return (size[-1] if size else "", dpi[-1] if dpi else "", "Override density" in out)
