"""Android's package manager from the shell: `pm` (list, path, install, uninstall, clear, grant,
revoke, resolve-activity, query-activities, enable/disable, list users|features...) and
`cmd SERVICE ...`, the binder shell commands that `pm`, `am`, `wm`... are front ends of.

Output follows PackageManagerShellCommand (Android 13): AndroidViewClient's
`startActivity(package=)` reads the second line of `cmd package resolve-activity --brief PKG`.
"""

from __future__ import annotations

from pytest_mobile_agent.virtual.shell.api import COMMANDS, CommandContext, command
from pytest_mobile_agent.virtual.shell.commands.common import exception, usage
from pytest_mobile_agent.virtual.system.intents import Intent, IntentError, parse_intent
from pytest_mobile_agent.virtual.system.manifests import resolve
from pytest_mobile_agent.virtual.system.packages import PackageError

# Services `cmd -l` lists and the shell command each one is the back end of.
SERVICES = {
    "activity": "am",
    "input": "input",
    "input_method": "ime",
    "package": "pm",
    "settings": "settings",
    "uimode": "cmd uimode",
    "window": "wm",
}
LAUNCHER_MATCH = "priority=0 preferredOrder=0 match=0x108000 specificIndex=-1 isDefault=false"
RESOLVER = "android/com.android.internal.app.ResolverActivity"


@command("cmd")
def cmd_command(ctx: CommandContext) -> int:
    args = ctx.argv[1:]
    if args[:1] == ["-l"]:
        ctx.out("Currently running services:\n" + "".join(f"  {name}\n" for name in sorted(SERVICES)))
        return 0
    if not args:
        ctx.err(
            "cmd: No service specified; use -l to list all running services. Use -w to start and wait for a service.\n"
        )
        return 20
    front_end = SERVICES.get(args[0])
    if front_end is None:
        ctx.err(f"cmd: Can't find service: {args[0]}\n")
        return 20
    ctx.argv = [front_end, *args[1:]]
    return COMMANDS[front_end](ctx)


@command("pm")
def pm(ctx: CommandContext) -> int:
    args = ctx.argv[1:]
    verb = args[0] if args else ""
    d = ctx.device
    packages = d.packages
    try:
        with d.lock:
            if verb == "list" and args[1:2] == ["packages"]:
                opts = [a for a in args[2:] if a.startswith("-")]
                needle = next((a for a in args[2:] if not a.startswith("-")), "")
                for name, rec in sorted(packages.records.items()):
                    if ("-3" in opts and rec.system) or ("-s" in opts and not rec.system) or needle not in name:
                        continue
                    prefix = f"package:{rec.apk}=" if "-f" in opts else "package:"
                    ctx.out(f"{prefix}{name}\n")
                return 0
            if verb == "clear" and len(args) > 1:
                packages.clear(args[-1])
                ctx.out("Success\n")
                return 0
            if verb == "install" and len(args) > 1:
                path = args[-1]
                record = packages.install(path, replace=True)
                if "-g" in args:
                    record.granted.append("*")
                ctx.out("Success\n")
                return 0
            if verb == "uninstall" and len(args) > 1:
                packages.uninstall(args[-1])
                ctx.out("Success\n")
                return 0
            if verb in ("grant", "revoke") and len(args) > 2:
                packages.grant(args[1], args[2], verb == "grant")
                return 0
            if verb == "path" and len(args) > 1:
                found = packages.records.get(args[1])
                if found is None:
                    return 1
                ctx.out(f"package:{found.apk}\n")
                return 0
    except PackageError as exc:
        return usage(ctx, str(exc))
    with d.lock:
        status = _package_verb(ctx, verb, args[1:])
    if status is not None:
        return status
    return usage(
        ctx,
        f"Unknown command: {verb}" if verb else "usage: pm [list|path|install|uninstall|clear|grant|revoke]",
    )


def _package_verb(ctx: CommandContext, verb: str, args: list[str]) -> int | None:
    """`pm`'s resolving, listing and enabling verbs; None for a verb that is none of them."""
    if verb in ("resolve-activity", "query-activities"):
        return _resolve(ctx, verb, args)
    if verb == "list" and args:
        return _list(ctx, args[0])
    if verb in ("enable", "disable", "disable-user", "default-state"):
        names = [a for i, a in enumerate(args) if not a.startswith("-") and (i == 0 or args[i - 1] != "--user")]
        if not names:
            return exception(ctx, verb, "java.lang.IllegalArgumentException: Unknown package: null")
        name = names[0].split("/")[0]
        if not ctx.device.packages.is_installed(name):
            return exception(ctx, verb, f"java.lang.IllegalArgumentException: Unknown package: {name}")
        state = {"enable": "enabled", "disable": "disabled", "disable-user": "disabled-user"}.get(verb, "default")
        ctx.out(f"Package {name} new state: {state}\n")
        return 0
    return None


FEATURES = (
    "android.hardware.audio.output",
    "android.hardware.screen.portrait",
    "android.hardware.touchscreen",
    "android.hardware.touchscreen.multitouch",
    "android.software.app_widgets",
    "android.software.home_screen",
    "android.software.input_methods",
)


def _list(ctx: CommandContext, what: str) -> int:
    """`pm list users|features|instrumentation|permission-groups` (packages is pm's own)."""
    if what == "users":
        ctx.out("Users:\n\tUserInfo{0:Owner:c13} running\n")
    elif what == "features":
        ctx.out("".join(f"feature:{f}\n" for f in FEATURES) + "feature:reqGlEsVersion=0x30002\n")
    elif what in ("instrumentation", "permission-groups", "libraries", "staged-sessions"):
        pass  # none on this device
    else:
        ctx.err(f"Error: unknown list type '{what}'\n")
        return 255
    return 0


def _resolve(ctx: CommandContext, verb: str, args: list[str]) -> int:
    try:
        intent, options = parse_intent(args)
    except IntentError as exc:
        return exception(ctx, verb, str(exc))
    brief, components = bool(options.get("--brief")), bool(options.get("--components"))
    found = _activities(ctx, intent)
    if verb == "resolve-activity":
        if not found:
            ctx.out("No activity found\n")
            return 0
        _print_resolved(ctx, found[0] if len(found) == 1 else RESOLVER, "", brief, components)
        return 0
    if not found:
        ctx.out("No activities found\n")
        return 0
    if not components:
        ctx.out(f"{len(found)} activities found:\n")
    for i, component in enumerate(found):
        if not components:
            ctx.out(f"  Activity #{i}:\n")
        _print_resolved(ctx, component, "" if components else "    ", brief, components)
    return 0


def _activities(ctx: CommandContext, intent: Intent) -> list[str]:
    """Components (package/.Class) the intent resolves to, by the apps' intent filters; the
    shell's query asks without MATCH_DEFAULT_ONLY, so launcher entries count."""
    packages = ctx.device.packages
    if intent.component:
        pkg, cls = intent.component
        if pkg in packages.models and packages.is_installed(pkg):
            activity = packages.app(pkg).activity_class(cls.removeprefix(pkg) if cls.startswith(pkg + ".") else cls)
            return [f"{pkg}/{activity.name}"] if activity else []
        return []
    return [m.component for m in resolve(packages, intent, default_only=False)]


def _print_resolved(ctx: CommandContext, component: str, prefix: str, brief: bool, components: bool) -> None:
    if brief or components:
        if not components:
            ctx.out(f"{prefix}{LAUNCHER_MATCH}\n")
        ctx.out(f"{prefix}{component}\n")
        return
    pkg, _, cls = component.partition("/")
    name = pkg + cls if cls.startswith(".") else cls
    ctx.out(
        f"{prefix}{LAUNCHER_MATCH}\n"
        f"{prefix}ActivityInfo:\n"
        f"{prefix}  name={name}\n"
        f"{prefix}  packageName={pkg}\n"
        f"{prefix}  enabled=true exported=true directBootAware=false\n"
        f"{prefix}  taskAffinity={pkg} targetActivity=null persistableMode=PERSIST_ROOT_ONLY\n"
        f"{prefix}  launchMode=0 flags=0x3 privateFlags=0x0 theme=0x0\n"
        f"{prefix}  screenOrientation=-1 configChanges=0xfb3 softInputMode=0x0\n"
        f"{prefix}  lockTaskLaunchMode=LOCK_TASK_LAUNCH_MODE_DEFAULT\n"
        f"{prefix}  resizeMode=RESIZE_MODE_RESIZEABLE_VIA_SDK_VERSION\n"
        f"{prefix}  ApplicationInfo:\n"
        f"{prefix}    packageName={pkg}\n"
        f"{prefix}    processName={pkg}\n"
        f"{prefix}    enabled=true minSdkVersion=23 targetSdkVersion=33\n"
    )
