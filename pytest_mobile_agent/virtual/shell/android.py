"""Android's own commands: getprop, settings, wm, dumpsys, input, screencap, uiautomator, am,
monkey, pm, ime, content, ps/pidof and uiautomator2's app_process launch.

Output formats follow what the real commands print, since clients parse them with regexes
(adbutils: `Physical size:`, `mCurrentFocus=Window{...}`, `versionCode=`; AndroidViewClient:
`DisplayViewport{valid=true, ... deviceWidth=..., deviceHeight=...}`, `mPredictedRotation=`).
"""

from __future__ import annotations

import base64
import time

from pytest_mobile_agent.virtual.apps.system.resolver import preferred, show_resolver
from pytest_mobile_agent.virtual.servers.uiautomator2 import U2Server
from pytest_mobile_agent.virtual.shell.api import CommandContext, app_pid, command
from pytest_mobile_agent.virtual.shell.package_service import package_verb
from pytest_mobile_agent.virtual.system.device import Device
from pytest_mobile_agent.virtual.system.intents import FLAG_ACTIVITY_NEW_TASK, Intent, IntentError, parse_intent
from pytest_mobile_agent.virtual.system.manifests import deliver, resolve
from pytest_mobile_agent.virtual.system.packages import PackageError
from pytest_mobile_agent.virtual.system.providers import ProviderError, run_content
from pytest_mobile_agent.virtual.system.window import KEYCODES
from pytest_mobile_agent.virtual.ui.keyboard import ADB_KEYBOARD, ADB_KEYBOARD_IME_ID, INPUT_METHODS, LATIN_IME_ID


def _usage(ctx: CommandContext, text: str, status: int = 1) -> int:
    ctx.err(text.rstrip("\n") + "\n")
    return status


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
        return _usage(ctx, "usage: setprop NAME VALUE")
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
        return _usage(
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
            return _usage(ctx, f"settings: invalid command: {' '.join(args)}")
    return 0


@command("wm")
def wm_command(ctx: CommandContext) -> int:
    wm = ctx.device.wm
    sub = ctx.argv[1] if len(ctx.argv) > 1 else ""
    if sub == "size":
        ctx.out(f"Physical size: {wm.width}x{wm.height}\n")
    elif sub == "density":
        ctx.out(f"Physical density: {wm.density}\n")
    else:
        return _usage(ctx, "usage: wm [size|density]")
    return 0


def _dumpsys_window(ctx: CommandContext, windows: bool) -> None:
    top = ctx.device.wm.top()
    comp = top.component
    ctx.out(
        "WINDOW MANAGER DISPLAY CONTENTS (dumpsys window displays)\n"
        f"  Display: mDisplayId=0 rootTasks={len(ctx.device.wm.tasks)}\n"
        f"    init={ctx.device.wm.width}x{ctx.device.wm.height} {ctx.device.wm.density}dpi "
        f"cur={ctx.device.wm.width}x{ctx.device.wm.height} app={ctx.device.wm.width}x{ctx.device.wm.height}\n"
        "    mRotation=0 mPredictedRotation=0 mLastOrientation=-1\n"
        "    mCurrentRotation=ROTATION_0 mUserRotation=ROTATION_0\n"
    )
    if windows:
        ctx.out("WINDOW MANAGER WINDOWS (dumpsys window windows)\n")
    ctx.out(
        f"  mCurrentFocus=Window{{1f2e3d4 u0 {comp}}}\n"
        f"  mFocusedApp=ActivityRecord{{5a6b7c8 u0 {comp} t{_task_id(ctx, top)}}}\n"
    )


def _task_id(ctx: CommandContext, activity) -> int:  # noqa: ANN001
    for i, task in enumerate(ctx.device.wm.tasks):
        if activity in task:
            return 100 + i
    return 1


@command("dumpsys")
def dumpsys(ctx: CommandContext) -> int:
    args = ctx.argv[1:]
    while args[:1] in (["-t"], ["-T"]) and len(args) > 1:  # a timeout for the service's dump: ours are instant
        if not args[1].isdigit():
            return _usage(ctx, f"Error parsing timeout: {args[1]}")
        args = args[2:]
    service = args[0] if args else ""
    d = ctx.device
    with d.lock:
        wm = d.wm
        if service == "window":
            _dumpsys_window(ctx, windows=len(args) < 2 or args[1] != "displays")
        elif service == "display":
            w, h = wm.width, wm.height
            ctx.out(
                "DISPLAY MANAGER (dumpsys display)\n"
                f"  mDefaultViewport=DisplayViewport{{type=INTERNAL, valid=true, isActive=true, displayId=0, "
                f"uniqueId='local:0', physicalPort=0, orientation=0, logicalFrame=Rect(0, 0 - {w}, {h}), "
                f"physicalFrame=Rect(0, 0 - {w}, {h}), deviceWidth={w}, deviceHeight={h}}}\n"
                f'  mBaseDisplayInfo=DisplayInfo{{"Built-in Screen", displayId 0, real {w} x {h}, '
                f"density {wm.density}, orientation=0}}\n"
            )
        elif service == "activity" and (len(args) == 1 or args[1] in ("recents", "r", "services", "s")):
            _dumpsys_activity(ctx, args[1] if len(args) > 1 else "")
        elif service == "activity" and args[1] not in ("activities", "a", "top"):
            ctx.out(f"Bad activity command, or no activities match: {args[1]}\nUse -h for help.\n")
        elif service == "activity":
            top = wm.top()
            if args[1] == "top":
                ctx.out(
                    f"TASK {top.app.package} id={_task_id(ctx, top)}\n"
                    f"  ACTIVITY {top.component} 4a1b2c3 pid={app_pid(top.app.package)}\n"
                )
            else:
                ctx.out("ACTIVITY MANAGER ACTIVITIES (dumpsys activity activities)\n")
                for task in reversed(wm.tasks):
                    ctx.out(
                        f"  * Task{{t{_task_id(ctx, task[0])} #{_task_id(ctx, task[0])} A={task[0].app.package}}}\n"
                    )
                    for act in reversed(task):
                        ctx.out(f"    * Hist #0: ActivityRecord{{7e8f9a0 u0 {act.component} t{_task_id(ctx, act)}}}\n")
                ctx.out(
                    f"  mResumedActivity: ActivityRecord{{7e8f9a0 u0 {top.component} "
                    f"t{_task_id(ctx, top)}}}\n  ResumedActivity: ActivityRecord{{7e8f9a0 u0 "
                    f"{top.component} t{_task_id(ctx, top)}}}\n"
                )
        elif service == "package" and len(args) > 1:
            record = d.packages.records.get(args[1])
            if record is None:
                ctx.out(f"Unable to find package: {args[1]}\n")
            else:
                flags = "SYSTEM HAS_CODE" if record.system else "HAS_CODE ALLOW_CLEAR_USER_DATA"
                ctx.out(
                    f"Packages:\n  Package [{record.name}] (3c4d5e6):\n"
                    f"    userId={10000 + app_pid(record.name) % 900}\n"
                    f"    codePath={record.apk.rsplit('/', 1)[0]}\n    versionCode={record.version_code} minSdk=21 "
                    f"targetSdk=33\n    versionName={record.version_name}\n    pkgFlags=[ {flags} ]\n"
                    "    firstInstallTime=2024-05-15 09:00:00\n    lastUpdateTime=2024-05-15 09:00:00\n"
                    "    signatures=PackageSignatures{7a8b9c0 version:2, signatures:[a1b2c3d4], past signatures:[]}\n"
                    "    runtime permissions:\n" + "".join(f"      {p}: granted=true\n" for p in record.granted)
                )
        elif service == "meminfo":
            _dumpsys_meminfo(ctx, args[1:])
        elif service in ("battery",):
            ctx.out("Current Battery Service state:\n  AC powered: true\n  level: 100\n  scale: 100\n")
        elif service == "power":
            ctx.out("POWER MANAGER (dumpsys power)\n  mWakefulness=Awake\n  mHoldingDisplaySuspendBlocker=true\n")
        elif service == "SurfaceFlinger":
            ctx.out('Display 4619827259835644672 (HWC display 0): port=0 pnpId=GGL displayName="Virtual"\n')
        elif service == "input":
            w, h = wm.width, wm.height
            ctx.out(
                "INPUT MANAGER (dumpsys input)\n\nInput Manager State:\n  Viewports:\n"
                f"    DisplayViewport{{type=INTERNAL, valid=true, isActive=true, displayId=0, uniqueId='local:0', "
                f"physicalPort=0, orientation=0, logicalFrame=[0, 0, {w}, {h}], physicalFrame=[0, 0, {w}, {h}], "
                f"deviceSize=[{w}, {h}]}}\n"
            )
        elif service == "input_method":
            ctx.out(
                f"  mCurMethodId={d.settings.get('secure', 'default_input_method')}\n"
                f"  mInputShown={str(d.wm.ime_shown).lower()}\n"
            )
        else:
            ctx.out(f"Can't find service: {service}\n" if service else "")
    return 0


def _dumpsys_meminfo(ctx: CommandContext, args: list[str]) -> None:
    """`dumpsys meminfo [PKG]`: app processes with fixed, plausible sizes (uiautomator2 reads TOTAL)."""
    running = [t[0].app.package for t in ctx.device.wm.tasks]
    wanted = [a for a in args if not a.startswith("-")]
    if wanted and wanted[0] not in running:
        ctx.out(f"No process found for: {wanted[0]}\n")
        return
    ctx.out("Applications Memory Usage (in Kilobytes):\nUptime: 3600000 Realtime: 3600000\n")
    for pkg in wanted or running:
        ctx.out(
            f"\n** MEMINFO in pid {app_pid(pkg)} [{pkg}] **\n"
            "                   Pss  Private  Private  SwapPss      Rss     Heap     Heap     Heap\n"
            "                 Total    Dirty    Clean    Dirty    Total     Size    Alloc     Free\n"
            "        TOTAL    42310    35120     4200        0   112340    24576    18432     6144\n"
        )


def _dumpsys_activity(ctx: CommandContext, section: str) -> None:
    """`dumpsys activity` [recents|services]: the recent tasks (AndroidWorld reads their ids, SPA-Bench
    their `topActivity`) and the running services (none are modelled)."""
    wm = ctx.device.wm
    if section in ("", "services", "s"):
        ctx.out("ACTIVITY MANAGER SERVICES (dumpsys activity services)\n  (nothing)\n")
    if section in ("", "recents", "r"):
        ctx.out("ACTIVITY MANAGER RECENT TASKS (dumpsys activity recents)\n  Recent tasks:\n")
        for i, task in enumerate(reversed(wm.tasks)):
            root, top, tid = task[0], task[-1], _task_id(ctx, task[0])
            pkg = root.app.package
            ctx.out(
                f"  * Recent #{i}: Task{{4f1b2a{i} #{tid} type=standard A=10135:{pkg} U=0 visible=true}}\n"
                f"    userId=0 effectiveUid=u0a135 mCallingUid=u0a135 mCallingPackage={pkg}\n"
                f"    affinity={pkg}\n    realActivity={root.component}\n"
                f"    taskId={tid} rootTaskId={tid}\n"
                f"    baseActivity=ComponentInfo{{{root.component}}}\n"
                f"    topActivity=ComponentInfo{{{top.component}}}\n"
            )


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
        return _usage(ctx, "Usage: input [<source>] <command> [<arg>...]")
    verb, rest = args[0], args[1:]
    wm = ctx.device.wm
    try:
        with ctx.device.lock:
            if verb == "tap" and len(rest) == 2:
                wm.tap(round(float(rest[0])), round(float(rest[1])))
            elif verb in ("swipe", "draganddrop") and len(rest) in (4, 5):
                x1, y1, x2, y2 = (round(float(v)) for v in rest[:4])
                wm.swipe(x1, y1, x2, y2, int(rest[4]) if len(rest) == 5 else 300)
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
                        return _usage(ctx, f"Error: Unknown keycode: {name}")
                    wm.key(code)
            elif verb == "press":
                wm.key(KEYCODES["DPAD_CENTER"])
            else:
                return _usage(ctx, f"Error: Unknown command: {verb}")
    except ValueError:
        return _usage(ctx, f"Error: Invalid arguments for command: {verb}")
    return 0


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


@command("screencap")
def screencap(ctx: CommandContext) -> int:
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


@command("uiautomator")
def uiautomator(ctx: CommandContext) -> int:
    args = ctx.argv[1:]
    if not args or args[0] != "dump":
        return _usage(
            ctx,
            "Usage: uiautomator <subcommand> [options]\n  dump [--compressed] [file]",
        )
    compressed = "--compressed" in args
    files = [a for a in args[1:] if not a.startswith("--")]
    target = files[0] if files else "/sdcard/window_dump.xml"
    xml = ctx.device.dump(compressed=compressed)
    if target == "/dev/tty":
        ctx.out(xml)
    else:
        ctx.device.fs.write(target, xml.encode())
    ctx.out(f"UI hierchary dumped to: {target}\n")
    return 0


def _exception(ctx: CommandContext, verb: str, message: str) -> int:
    """An exception thrown by the service: Android's shell prints it and exits 255."""
    ctx.err(f"Exception occurred while executing '{verb}':\n{message}\n")
    return 255


def _start(ctx: CommandContext, args: list[str]) -> int:
    """ActivityManagerShellCommand.runStartActivity: errors go to stderr and the exit status
    stays 0, as on Android 13 (`am` reports, it does not fail)."""
    d = ctx.device
    try:
        intent, options = parse_intent(args)
    except IntentError as exc:
        return _exception(ctx, "start", str(exc))
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
        if activity is None:
            ctx.err(f"Error type 3\nError: Activity class {{{pkg}/{cls}}} does not exist.\n")
            return 0
        d.logd.log("I", "ActivityTaskManager", f"START u0 {intent.describe()[7:]} from uid 2000")
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
                return _exception(ctx, "broadcast", str(exc))
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
                return _exception(ctx, verb, str(exc))
            ctx.out(f"Starting service: {intent.describe()}\n")
            ctx.err("Error: Not found; no service started.\n")  # no app here exports a service
            return 255
    return _usage(
        ctx,
        f"Error: Unknown command: {verb}" if verb else "usage: am [subcommand] [options]",
    )


def _adb_keyboard_active(ctx: CommandContext) -> bool:
    d = ctx.device
    return (
        d.packages.is_installed(ADB_KEYBOARD)
        and d.settings.get("secure", "default_input_method") == ADB_KEYBOARD_IME_ID
    )


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
    return _usage(ctx, "usage: ime list [-a] [-s] | enable ID | disable ID | set ID")


def _enabled_imes(ctx: CommandContext) -> list[str]:
    raw = ctx.device.settings.get("secure", "enabled_input_methods")
    return [i for i in (raw if raw is not None else LATIN_IME_ID).split(":") if i]


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
                rec = packages.records.get(args[1])
                if rec is None:
                    return 1
                ctx.out(f"package:{rec.apk}\n")
                return 0
    except PackageError as exc:
        return _usage(ctx, str(exc))
    with d.lock:
        status = package_verb(ctx, verb, args[1:])
    if status is not None:
        return status
    return _usage(
        ctx,
        f"Unknown command: {verb}" if verb else "usage: pm [list|path|install|uninstall|clear|grant|revoke]",
    )


@command("content")
def content(ctx: CommandContext) -> int:
    try:
        with ctx.device.lock:
            ctx.out(run_content(ctx.device, ctx.argv[1:]))
    except ProviderError as exc:
        return _usage(ctx, f"Error while accessing provider:{exc}")
    return 0


@command("ps")
def ps(ctx: CommandContext) -> int:
    ctx.out("USER           PID  PPID     VSZ    RSS WCHAN            ADDR S NAME\n")
    with ctx.device.lock:
        for task in ctx.device.wm.tasks:
            pkg = task[0].app.package
            ctx.out(f"u0_a100      {app_pid(pkg):5d}   300 1000000  90000 0                   0 S {pkg}\n")
    return 0


@command("pidof")
def pidof(ctx: CommandContext) -> int:
    with ctx.device.lock:
        running = {t[0].app.package for t in ctx.device.wm.tasks}
    pids = [str(app_pid(p)) for p in ctx.argv[1:] if p in running]
    if not pids:
        return 1
    ctx.out(" ".join(pids) + "\n")
    return 0


@command("app_process")
def app_process(ctx: CommandContext) -> int:
    """uiautomator2's server launch: serve JSON-RPC on the port until the client hangs up
    (the launching shell stream closes)."""
    args = ctx.argv[1:]
    jar = ctx.env.get("CLASSPATH", "")
    if "com.wetest.uia2.Main" not in args or not ctx.device.fs.exists(jar):
        return _usage(ctx, f"Error: Could not find class '{' '.join(args[1:2])}'")
    port = int(args[args.index("-p") + 1]) if "-p" in args else 9008
    device = ctx.device
    if port in device.ports.listeners:
        ctx.err("java.lang.IllegalStateException: UiAutomationService already registered!\n")
        return 1
    device.ports.listeners[port] = U2Server(device).connect
    ctx.out("[server] INFO: [UiAutomator2Server] Starting Server\n")
    try:
        ctx.stdin.hangup.wait()
    finally:
        device.ports.listeners.pop(port, None)
    return 0
