"""Input from the shell: `input` (tap, swipe, draganddrop, motionevent, text, keyevent;
InputShellCommand's behaviour, Android 13) and `ime` (list, enable, disable and set the input method)."""

from __future__ import annotations

from pytest_mobile_agent.virtual.shell.api import CommandContext, command
from pytest_mobile_agent.virtual.shell.commands.common import usage
from pytest_mobile_agent.virtual.system.gestures import LONG_PRESS_MS, POINTER_STOPPED_MS
from pytest_mobile_agent.virtual.system.window import KEYCODES
from pytest_mobile_agent.virtual.ui.keyboard import INPUT_METHODS, LATIN_IME_ID


@command("input")
def input_command(ctx: CommandContext) -> int:
    args = ctx.argv[1:]
    if args and args[0] in (
        "touchscreen",
        "touchpad",
        "keyboard",
        "mouse",
        "trackball",
        "dpad",
        "gamepad",
    ):
        args = args[1:]
    if args and args[0] == "-d":
        args = args[2:]
    if not args:
        return usage(ctx, "Usage: input [<source>] <command> [<arg>...]")
    verb, rest = args[0], args[1:]
    wm = ctx.device.wm
    try:
        with ctx.device.lock:
            if verb == "tap" and len(rest) == 2:
                # The session's output marks the taps of one command line, its background jobs'
                # included (a double tap: `input tap X Y & sleep 0.1; input tap X Y`).
                wm.tap(round(float(rest[0])), round(float(rest[1])), burst=ctx.stdout)
            elif verb in ("swipe", "draganddrop") and len(rest) in (4, 5):
                x1, y1, x2, y2 = (round(float(v)) for v in rest[:4])
                # draganddrop holds still for the long-press timeout before it moves.
                hold = LONG_PRESS_MS if verb == "draganddrop" else 0
                duration = int(rest[4]) if len(rest) == 5 else -1
                wm.swipe(x1, y1, x2, y2, duration if duration >= 0 else 300, hold_ms=hold)  # sendSwipe's default
            elif verb == "motionevent":
                if len(rest) != 3 or rest[0].upper() not in _MOTIONS:
                    raise ValueError(rest)
                # Each `input` is a process: on a phone its events come 40 ms or more after the
                # last command's, so VelocityTracker sees the finger as stopped in between.
                x, y = round(float(rest[1])), round(float(rest[2]))
                wm.motion(rest[0].upper(), x, y, spacing_ms=POINTER_STOPPED_MS)
            elif verb == "text" and rest:
                text = _input_text(rest[0])  # InputShellCommand types its first argument only
                if not all(ch in _KEY_MAP_CHARS for ch in text):
                    # KeyCharacterMap.getEvents() returns null for a character the virtual
                    # keyboard's key map lacks (any non-ASCII one): nothing is typed.
                    ctx.err(_TEXT_EXCEPTION)
                    return 255
                wm.type_text(text)
            elif verb == "keyevent" and rest:
                long = rest[0] == "--longpress"
                for name in rest[1:] if long else rest:
                    code = _keycode(name)
                    if code is None:
                        return usage(ctx, f"Error: Unknown keycode: {name}")
                    wm.key(code)
            elif verb == "press":
                wm.key(KEYCODES["DPAD_CENTER"])
            else:
                return usage(ctx, f"Error: Unknown command: {verb}")
    except ValueError:
        return usage(ctx, f"Error: Invalid arguments for command: {verb}")
    return 0


_MOTIONS = ("DOWN", "UP", "MOVE", "CANCEL")


def _input_text(raw: str) -> str:
    """InputShellCommand.sendText: "%s" is a space; every other character is typed as it is
    (a backslash too: quoting is the shell's business)."""
    return raw.replace("%s", " ")


# What Virtual.kcm has keys for: printable ASCII, newline and tab.
_KEY_MAP_CHARS = frozenset(map(chr, range(0x20, 0x7F))) | {"\n", "\t"}
_TEXT_EXCEPTION = (
    "\nException occurred while executing 'text':\n"
    "java.lang.NullPointerException: Attempt to get length of null array\n"
    "\tat com.android.server.input.InputShellCommand.sendText(InputShellCommand.java:451)\n"
    "\tat com.android.server.input.InputShellCommand.runText(InputShellCommand.java:412)\n"
    "\tat com.android.server.input.InputShellCommand.onCommand(InputShellCommand.java:138)\n"
)


def _keycode(name: str) -> int | None:
    if name.isdigit():
        return int(name)
    return KEYCODES.get(name.upper().removeprefix("KEYCODE_"))


@command("ime")
def ime(ctx: CommandContext) -> int:
    """InputMethodManagerService's shell commands: list (-a all, -s ids only), enable, disable
    and set (only an enabled IME can be set, as on Android)."""
    args = ctx.argv[1:]
    d = ctx.device
    verb, rest = (args[0], args[1:]) if args else ("", [])
    with d.lock:
        # LatinIME is part of the system image; ADB Keyboard is there while its package is.
        installed = [i for i in INPUT_METHODS if i == LATIN_IME_ID or d.packages.is_installed(i.split("/")[0])]
        enabled = [i for i in _enabled_imes(ctx) if i in installed]
        if verb == "list":
            for ime_id in installed if "-a" in rest else enabled:
                ctx.out(f"{ime_id}\n" if "-s" in rest else f"{ime_id}:\n  mId={ime_id} mSettingsActivityName=null\n")
            return 0
        if verb in ("enable", "disable") and rest:
            ime_id = rest[-1]
            if ime_id not in installed:
                ctx.err(f"Unknown input method {ime_id} cannot be {verb}d for user #0\n")
                return 255
            was = ime_id in enabled
            now = verb == "enable"
            if was != now:
                enabled = [i for i in enabled if i != ime_id] + ([ime_id] if now else [])
                d.settings.put("secure", "enabled_input_methods", ":".join(enabled))
            ctx.out(f"Input method {ime_id}: {'already' if was == now else 'now'} {verb}d for user #0\n")
            return 0
        if verb == "set" and rest:
            ime_id = rest[-1]
            if ime_id not in enabled:  # InputMethodManagerService: "IME is not found or not enabled"
                ctx.err(f"Unknown input method {ime_id} cannot be selected for user #0\n")
                return 255
            d.settings.put("secure", "default_input_method", ime_id)
            d.changed()
            ctx.out(f"Input method {ime_id} selected for user #0\n")
            return 0
    return usage(ctx, "usage: ime list [-a] [-s] | enable ID | disable ID | set ID")


def _enabled_imes(ctx: CommandContext) -> list[str]:
    raw = ctx.device.settings.get("secure", "enabled_input_methods")
    return [i for i in (raw if raw is not None else LATIN_IME_ID).split(":") if i]
