"""Android's activity manager from the shell: `am` (start, force-stop, broadcast, services) and
`monkey -p PKG` (how scripts open an app's launcher activity).

`am start` resolves intents by the apps' intent filters and, where several apps match, brings up
the system's resolver; ADB Keyboard's broadcasts (ADB_INPUT_TEXT, ADB_INPUT_B64, ADB_CLEAR_TEXT)
type when it is the selected input method. Output follows ActivityManagerShellCommand (Android 13)."""

from __future__ import annotations

import base64
import time

from pytest_mobile_agent.virtual.apps.system.resolver import preferred, show_resolver
from pytest_mobile_agent.virtual.resources.strings import LocaleError, normalize
from pytest_mobile_agent.virtual.shell.api import CommandContext, command
from pytest_mobile_agent.virtual.shell.commands.common import app_pid, exception, usage
from pytest_mobile_agent.virtual.system.device import Device
from pytest_mobile_agent.virtual.system.event_lines import LISTENER_LOCALE_ACTION, LISTENER_PACKAGE
from pytest_mobile_agent.virtual.system.intents import FLAG_ACTIVITY_NEW_TASK, Intent, IntentError, Match, parse_intent
from pytest_mobile_agent.virtual.system.manifests import deliver, resolve
from pytest_mobile_agent.virtual.ui.keyboard import ADB_KEYBOARD, ADB_KEYBOARD_IME_ID

CHANGE_CONFIGURATION = "android.permission.CHANGE_CONFIGURATION"


def _start(ctx: CommandContext, args: list[str]) -> int:
    """ActivityManagerShellCommand.runStartActivity: errors go to stderr and the exit status
    stays 0, as on Android 13 (`am` reports, it does not fail)."""
    d = ctx.device
    try:
        intent, options = parse_intent(args)
    except IntentError as exc:
        return exception(ctx, "start", str(exc))
    began = time.monotonic()
    if options.get("-S"):
        target = intent.component[0] if intent.component else _single_package(d, intent)
        if target:
            ctx.out(f"Stopping: {target}\n")
            if d.packages.is_installed(target):
                d.packages.stop(target)
    ctx.out(f"Starting: {intent.describe()}\n")
    intent.flags |= FLAG_ACTIVITY_NEW_TASK
    if intent.component:
        pkg, cls = intent.component
        app = d.packages.app(pkg) if d.packages.is_installed(pkg) and pkg in d.packages.models else None
        activity = app.activity_class(cls.removeprefix(pkg) if cls.startswith(pkg + ".") else cls) if app else None
        if app is None or activity is None:
            ctx.err(f"Error type 3\nError: Activity class {{{pkg}/{cls}}} does not exist.\n")
            return 0
        d.logd.log("I", "ActivityTaskManager", f"START u0 {intent.describe()[7:]} from uid 2000")
        if intent.data or intent.extras:  # an explicit intent carries its data and extras too
            deliver(d, Match(pkg, "." + cls.removeprefix(pkg + ".") if cls.startswith(pkg + ".") else cls), intent)
        else:
            d.wm.start_activity(app, activity, launcher=activity is app.main_activity)
        shown = f"{pkg}/{activity.name}"
    else:
        matches = resolve(d.packages, intent)
        if not matches:
            ctx.err(f"Error: Activity not started, unable to resolve {intent.describe()}\n")
            return 0
        d.logd.log("I", "ActivityTaskManager", f"START u0 {intent.describe()[7:]} from uid 2000")
        chosen = [m for m in matches if m.component == preferred(d, intent)] if len(matches) > 1 else matches
        if chosen:
            deliver(d, chosen[0], intent)
        else:
            show_resolver(d, intent, matches)
        shown = d.wm.top().component
    if options.get("-W"):
        took = round((time.monotonic() - began) * 1000)
        ctx.out(f"Status: ok\nLaunchState: COLD\nActivity: {shown}\nTotalTime: {took}\nWaitTime: {took}\nComplete\n")
    return 0


def _single_package(device: Device, intent: Intent) -> str | None:
    packages = {m.package for m in resolve(device.packages, intent)}
    return packages.pop() if len(packages) == 1 else None


def _listener_sets_locale(d: Device, tag: str) -> tuple[int, str]:
    """The listener app's LocaleReceiver: the activity manager's persistent configuration, which
    the system keeps as Settings does (the system_locales setting, persist.sys.locale written
    by the system server). Result code -1 and the locale, or 0 and the reason."""
    if not tag:
        return 0, "no locale extra: --es locale TAG"
    if not d.packages.granted(LISTENER_PACKAGE, CHANGE_CONFIGURATION):
        return 0, (
            "SecurityException: Permission Denial: updatePersistentConfiguration() from "
            f"pid={app_pid(LISTENER_PACKAGE)}, uid=10123 requires {CHANGE_CONFIGURATION}"
        )
    try:
        tag = normalize(tag)
    except LocaleError:
        pass  # Android takes any tag; the apps then show their default strings
    d.settings.put("system", "system_locales", tag)
    d.props["persist.sys.locale"] = tag
    d.changed()  # a configuration change: every app draws again in the new locale
    return -1, tag


@command("am")
def am(ctx: CommandContext) -> int:
    args = ctx.argv[1:]
    verb = args[0] if args else ""
    d = ctx.device
    with d.lock:
        if verb in ("start", "start-activity"):
            return _start(ctx, args[1:])
        if verb in ("force-stop", "kill") and len(args) > 1:
            if d.packages.is_installed(args[1]):
                d.packages.stop(args[1])
            return 0
        if verb == "broadcast":
            try:
                intent, _ = parse_intent(args[1:])
            except IntentError as exc:
                return exception(ctx, "broadcast", str(exc))
            intent.flags |= 0x400000  # FLAG_RECEIVER_FROM_SHELL
            ctx.out(f"Broadcasting: {intent.describe()}\n")
            action = intent.action or ""
            if action in ("ADB_INPUT_TEXT", "ADB_INPUT_B64") and _adb_keyboard_active(ctx):
                text = intent.string_extra("msg") or ""
                if action == "ADB_INPUT_B64":
                    text = base64.b64decode(text).decode("utf-8", "replace")
                d.wm.type_text(text)
            elif action == "ADB_CLEAR_TEXT" and _adb_keyboard_active(ctx):
                focused = d.wm._focused_edit(d.wm.frame().windows)
                if focused:
                    d.wm._set_text(focused[0], focused[1], "")
            elif action == LISTENER_LOCALE_ACTION and d.packages.is_installed(LISTENER_PACKAGE):
                code, data = _listener_sets_locale(d, intent.string_extra("locale") or "")
                ctx.out(f'Broadcast completed: result={code}, data="{data}"\n')
                return 0
            ctx.out("Broadcast completed: result=0\n")
            return 0
        if verb == "stack" or verb == "stop-app":
            return 0
        if verb == "get-current-user":
            ctx.out("0\n")
            return 0
        if verb in ("startservice", "start-service", "start-foreground-service"):
            try:
                intent, _ = parse_intent(args[1:])
            except IntentError as exc:
                return exception(ctx, verb, str(exc))
            ctx.out(f"Starting service: {intent.describe()}\n")
            ctx.err("Error: Not found; no service started.\n")  # no app here exports a service
            return 255
    return usage(
        ctx,
        f"Error: Unknown command: {verb}" if verb else "usage: am [subcommand] [options]",
    )


def _adb_keyboard_active(ctx: CommandContext) -> bool:
    d = ctx.device
    return (
        d.packages.is_installed(ADB_KEYBOARD)
        and d.settings.get("secure", "default_input_method") == ADB_KEYBOARD_IME_ID
    )


@command("monkey")
def monkey(ctx: CommandContext) -> int:
    argv = ctx.argv[1:]
    pkg = argv[argv.index("-p") + 1] if "-p" in argv[:-1] else ""
    d = ctx.device
    with d.lock:
        if not pkg or pkg not in d.packages.models or not d.packages.is_installed(pkg):
            ctx.err("** No activities found to run, monkey aborted.\n")
            return 252
        app = d.packages.app(pkg)
        d.wm.start_activity(app, app.main_activity, launcher=True)
    ctx.out("Events injected: 1\n## Network stats: elapsed time=4ms (0ms mobile, 0ms wifi, 4ms not connected)\n")
    return 0
