"""toybox `uname` (what an Android 13 emulator image, x86_64, reports), `pkill` / `pgrep` over the
app processes `ps` lists, and `svc` (wifi, data, power) as settings."""

from __future__ import annotations

import re

from pytest_mobile_agent.virtual.shell.api import CommandContext, app_pid, command
from pytest_mobile_agent.virtual.shell.files import _Usage, cmd, opts, out

KERNEL_RELEASE = "5.15.41-android13-8-00055-g4f5025129fe8-ab8949913"
KERNEL_VERSION = "#1 SMP PREEMPT Mon Aug 15 18:33:14 UTC 2022"


@cmd("uname")
def uname(ctx: CommandContext) -> int:
    found, _ = opts(ctx.argv, "asnrvmpo")
    machine = ctx.device.props.get("ro.product.cpu.abi", "x86_64").replace("arm64-v8a", "aarch64")
    fields = (
        ("s", "Linux"),
        ("n", "localhost"),
        ("r", KERNEL_RELEASE),
        ("v", KERNEL_VERSION),
        ("m", machine),
        ("p", machine),
        ("o", "Toybox"),
    )
    every = "a" in found
    chosen = [value for flag, value in fields if flag in found or (every and flag != "p")]
    out(ctx, " ".join(chosen or ["Linux"]) + "\n")
    return 0


def _matching(ctx: CommandContext, pattern: str) -> list[str]:
    with ctx.device.lock:
        running = [t[0].app.package for t in ctx.device.wm.tasks]
    try:
        return [p for p in running if re.search(pattern, p)]
    except re.error as exc:
        raise _Usage(f"bad regex '{pattern}': {exc}") from exc


@cmd("pkill", "pgrep")
def pkill(ctx: CommandContext) -> int:
    """Signals end an app process as a force-stop would; nothing matching is status 1, silently."""
    args = [a for a in ctx.argv[1:] if not (a.startswith("-") and (a[1:].isdigit() or a[1:].isupper()))]
    found, names = opts([ctx.argv[0], *args], "fxlnoc")
    if not names:
        raise _Usage("Need 1 argument")
    hits = _matching(ctx, names[0])
    if ctx.argv[0] == "pgrep":
        out(ctx, "".join(f"{app_pid(p)}{' ' + p if 'l' in found else ''}\n" for p in hits))
    else:
        with ctx.device.lock:
            for package in hits:
                ctx.device.packages.stop(package)
    return 0 if hits else 1


SVC_SETTINGS = {
    "wifi": ("global", "wifi_on"),
    "data": ("global", "mobile_data"),
    "bluetooth": ("global", "bluetooth_on"),
}


@command("svc")
def svc(ctx: CommandContext) -> int:
    """`svc wifi|data|bluetooth enable|disable`, `svc power stayon true|false|usb|ac|wireless`."""
    args = ctx.argv[1:]
    if len(args) == 2 and args[0] in SVC_SETTINGS and args[1] in ("enable", "disable"):
        namespace, key = SVC_SETTINGS[args[0]]
        with ctx.device.lock:
            ctx.device.settings.put(namespace, key, "1" if args[1] == "enable" else "0")
        return 0
    if len(args) == 3 and args[:2] == ["power", "stayon"] and args[2] in ("true", "false", "usb", "ac", "wireless"):
        with ctx.device.lock:
            ctx.device.settings.put("global", "stay_on_while_plugged_in", "0" if args[2] == "false" else "7")
        return 0
    services = "    power\n    data\n    wifi\n    usb\n    nfc\n    bluetooth\n    system-server\n"
    if args and args[0] not in ("help", *SVC_SETTINGS, "power"):
        ctx.out(f"svc: unknown command '{args[0]}'\n")
    ctx.out("Available commands:\n    help     Show information about the subcommands\n" + services)
    return 0 if not args or args[0] == "help" else 1
