"""The display from the shell: `wm size` / `wm density` (adbutils reads `Physical size:`) and
`screencap` (PNG with -p or a .png file, else the raw RGBA frame with its header)."""

from __future__ import annotations

import re

from pytest_mobile_agent.virtual.shell.api import CommandContext, command
from pytest_mobile_agent.virtual.shell.commands.common import usage
from pytest_mobile_agent.virtual.system.device import (
    DISPLAY_DENSITY_FORCED,
    DISPLAY_SIZE_FORCED,
    NIGHT_MODES,
    UI_NIGHT_MODE,
)


@command("cmd uimode")  # no binary of its own: reached as `cmd uimode` only
def uimode_command(ctx: CommandContext) -> int:
    """`cmd uimode night [yes|no|auto]`, as UiModeManagerService's shell command: setting a mode
    keeps it in Settings.Secure ui_night_mode (the apps draw their night theme), and both forms
    print the mode then in force."""
    dev, args = ctx.device, ctx.argv[1:]
    if args[:1] != ["night"]:
        ctx.out("UiModeManager service (uimode) commands:\n  help\n  night [yes|no|auto]\n")
        return 0 if args[:1] in ([], ["help"]) else 255
    if len(args) > 1:
        value = {mode: setting for setting, mode in NIGHT_MODES.items()}.get(args[1])
        if value is None:
            ctx.err("Error: mode must be 'yes', 'no', or 'auto', or 'custom_schedule', or 'custom_bedtime'\n")
            return 255
        with dev.lock:
            dev.settings.put("secure", UI_NIGHT_MODE, value)
    ctx.out(f"Night mode: {dev.night_mode()}\n")
    return 0


@command("wm")
def wm_command(ctx: CommandContext) -> int:
    """`wm size [WxH|reset]` and `wm density [DPI|reset]`, as WindowManagerShellCommand: the
    physical value, then the override where one is set; setting one lays the screen out again."""
    dev = ctx.device
    sub, args = (ctx.argv[1] if len(ctx.argv) > 1 else ""), ctx.argv[2:]
    if sub == "size":
        physical, current = f"{dev.config.width}x{dev.config.height}", "{}x{}".format(*dev.display()[:2])
        namespace, key = "global", DISPLAY_SIZE_FORCED
        match = re.fullmatch(r"(\d+)x(\d+)", args[0]) if args else None
        value = f"{match.group(1)},{match.group(2)}" if match and int(match.group(1)) and int(match.group(2)) else None
    elif sub == "density":
        physical, current = str(dev.config.density), str(dev.display()[2])
        namespace, key = "secure", DISPLAY_DENSITY_FORCED
        value = args[0] if args and args[0].isdigit() and 72 <= int(args[0]) <= 1200 else None
    else:
        return usage(ctx, "usage: wm [size|density] [VALUE|reset]")
    if not args:
        ctx.out(f"Physical {sub}: {physical}\n")
        if current != physical:
            ctx.out(f"Override {sub}: {current}\n")
        return 0
    if args[0] != "reset" and value is None:
        ctx.err(f"Error: bad {sub} {args[0]}\n")
        return 255
    with dev.lock:
        if value is None:
            dev.settings.delete(namespace, key)
        else:
            dev.settings.put(namespace, key, value)
        dev.apply_display()
    return 0


# What screencap prints (into the same stream as the image, under adb's shell) on a device with
# several displays when no `-d ID` names one. The virtual device has several when the property
# below says so (`setprop debug.virtual.displays 2`), to test the harness against it.
DISPLAYS_PROP = "debug.virtual.displays"
MANY_DISPLAYS_WARNING = (
    "[Warning] Multiple displays were found, but no display id was specified! Defaulting to the first "
    "display found, however this default is not guaranteed to be consistent across captures. A display id "
    "should be specified.\n"
)


@command("screencap")
def screencap(ctx: CommandContext) -> int:
    if "-d" not in ctx.argv and int(ctx.device.props.get(DISPLAYS_PROP, "1") or 1) > 1:
        ctx.err(MANY_DISPLAYS_WARNING)
    args = [a for a in ctx.argv[1:] if a not in ("-d",)]
    png = "-p" in args
    files = [a for a in args if not a.startswith("-") and not a.isdigit()]
    if files and files[0].endswith(".png"):
        png = True
    dev = ctx.device
    if png:
        data = dev.screen_png()
    else:
        # Raw: width, height, format (1 = RGBA_8888), dataspace, then the pixels.
        w, h = dev.wm.width, dev.wm.height
        data = w.to_bytes(4, "little") + h.to_bytes(4, "little") + (1).to_bytes(4, "little") + bytes(4)
        data += dev.screen_rgba()
    if files:
        dev.fs.write(files[0], data)
    else:
        ctx.stdout.write(data)
    return 0
