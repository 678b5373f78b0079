"""Settings, properties and content providers: getprop/setprop, `settings get|put|delete|list`,
`svc` (wifi, data, bluetooth, power stay-on, stored as the settings they are on a phone) and
`content` (the providers' queries and changes)."""

from __future__ import annotations

from pytest_mobile_agent.virtual.shell.api import CommandContext, command
from pytest_mobile_agent.virtual.shell.commands.common import usage
from pytest_mobile_agent.virtual.system.providers import ProviderError, run_content


@command("getprop")
def getprop(ctx: CommandContext) -> int:
    props = ctx.device.props
    if len(ctx.argv) > 1:
        ctx.out(props.get(ctx.argv[1], ctx.argv[2] if len(ctx.argv) > 2 else "") + "\n")
    else:
        ctx.out("".join(f"[{k}]: [{v}]\n" for k, v in sorted(props.items())))
    return 0


@command("setprop")
def setprop(ctx: CommandContext) -> int:
    if len(ctx.argv) != 3:
        return usage(ctx, "usage: setprop NAME VALUE")
    name, value = ctx.argv[1], ctx.argv[2]
    if name.startswith(("persist.", "ro.", "sys.")):
        # init's property service lets the shell user set only its own (debug., log.tag.,
        # service.adb.) ones; persist.* needs root, ro.* is set once at boot.
        ctx.err(f"Failed to set property '{name}' to '{value}'.\nSee dmesg for error reason.\n")
        return 1
    with ctx.device.lock:
        ctx.device.props[ctx.argv[1]] = ctx.argv[2]
        if ctx.argv[1] == "persist.sys.locale":
            ctx.device.changed()  # a configuration change: the apps draw again in the new locale
    return 0


@command("settings")
def settings(ctx: CommandContext) -> int:
    args = [a for a in ctx.argv[1:] if not a.startswith("--user")]
    if args and args[0] == "--user":
        args = args[2:]
    if len(args) < 2 or args[1] not in ("system", "secure", "global"):
        return usage(
            ctx,
            "usage:  settings [--user <USER_ID>] get|put|delete|list NAMESPACE [KEY [VALUE]]",
        )
    verb, ns, rest = args[0], args[1], args[2:]
    with ctx.device.lock:
        s = ctx.device.settings
        if verb == "get" and rest:
            value = s.get(ns, rest[0])
            ctx.out(("null" if value is None else value) + "\n")
        elif verb == "put" and len(rest) >= 2:
            s.put(ns, rest[0], rest[1])
            if rest[0] == "system_locales":
                ctx.device.changed()
        elif verb == "delete" and rest:
            ctx.out(f"Deleted {int(s.delete(ns, rest[0]))} rows\n")
        elif verb == "list":
            ctx.out("".join(f"{k}={v}\n" for k, v in sorted(s.data[ns].items())))
        else:
            return usage(ctx, f"settings: invalid command: {' '.join(args)}")
    return 0


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


@command("content")
def content(ctx: CommandContext) -> int:
    try:
        with ctx.device.lock:
            ctx.out(run_content(ctx.device, ctx.argv[1:]))
    except ProviderError as exc:
        return usage(ctx, f"Error while accessing provider:{exc}")
    return 0
