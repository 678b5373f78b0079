"""Android's own commands: getprop, settings, wm, dumpsys, input, screencap, uiautomator, am,
monkey, pm, ime, content, ps/pidof and uiautomator2's app_process launch.

Output formats follow what the real commands print, since clients parse them with regexes
(adbutils: `Physical size:`, `mCurrentFocus=Window{...}`, `versionCode=`; AndroidViewClient:
`DisplayViewport{valid=true, ... deviceWidth=..., deviceHeight=...}`, `mPredictedRotation=`).
"""

from __future__ import annotations

import base64
import hashlib

from ..apps.adbkeyboard import IME_ID, INPUT_METHODS, LATIN_IME_ID, PACKAGE
from ..apps.base import App
from ..packages import PackageError
from ..ui.window import KEYCODES
from .api import CommandContext, command
from .logcat import log
from .package_service import package_verb

ADB_KEYBOARD = PACKAGE
ADB_KEYBOARD_IME = IME_ID


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
                    f"  ACTIVITY {top.component} 4a1b2c3 pid={_pid(top.app.package)}\n"
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
                    f"Packages:\n  Package [{record.name}] (3c4d5e6):\n    userId={10000 + _pid(record.name) % 900}\n"
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
            f"\n** MEMINFO in pid {_pid(pkg)} [{pkg}] **\n"
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


def _pid(package: str) -> int:
    return 1000 + int(hashlib.md5(package.encode()).hexdigest()[:4], 16) % 30000


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


def _parse_intent(args: list[str]) -> tuple[dict[str, str], dict[str, str], list[str]]:
    """am-style intent arguments -> (fields, extras, leftover)."""
    fields: dict[str, str] = {}
    extras: dict[str, str] = {}
    rest: list[str] = []
    i = 0
    while i < len(args):
        a = args[i]
        if a in ("-n", "-a", "-c", "-d", "-t", "-f", "-p", "--user") and i + 1 < len(args):
            fields[a] = args[i + 1]
            i += 2
        elif a in (
            "--es",
            "--ei",
            "--ez",
            "--el",
            "--ef",
            "--eu",
            "--esa",
        ) and i + 2 < len(args):
            extras[args[i + 1]] = args[i + 2]
            i += 3
        elif a in (
            "-W",
            "-S",
            "-R",
            "--activity-clear-task",
            "--activity-new-task",
            "-D",
            "--receiver-foreground",
        ):
            i += 1
        else:
            rest.append(a)
            i += 1
    return fields, extras, rest


def _resolve(ctx: CommandContext, fields: dict[str, str]) -> tuple[App, type] | str:
    packages = ctx.device.packages
    if "-n" in fields:
        pkg, _, cls = fields["-n"].partition("/")
        if not packages.is_installed(pkg) or pkg not in packages.models:
            return f"Error: Activity class {{{fields['-n']}}} does not exist."
        app = packages.app(pkg)
        name = pkg + cls if cls.startswith(".") else cls
        activity = app.activity_class(name.removeprefix(pkg) if name.startswith(pkg + ".") else name)
        if activity is None and cls.startswith("."):
            activity = app.activity_class(cls)
        if activity is None:
            return f"Error: Activity class {{{fields['-n']}}} does not exist."
        return app, activity
    action = fields.get("-a", "")
    if action == "android.intent.action.MAIN" and fields.get("-c") == "android.intent.category.HOME":
        home = packages.home_app()
        return home, home.main_activity
    target = fields.get("-p") or (_VIEWER.get(_data_key(fields.get("-d", ""))) if action.endswith(".VIEW") else None)
    if target and packages.is_installed(target) and target in packages.models:
        app = packages.app(target)
        return app, app.main_activity
    return "Error: Activity not started, unable to resolve Intent"


# ACTION_VIEW of these data: the installed app whose manifest takes it (AndroidWorld opens apps so).
_VIEWER = {
    "http": "com.android.chrome",
    "https": "com.android.chrome",
    "content://contacts": "com.simplemobiletools.contacts.pro",
    "content://com.android.contacts": "com.simplemobiletools.contacts.pro",
    "content://com.android.calendar": "com.simplemobiletools.calendar.pro",
    "content://media": "com.simplemobiletools.gallery.pro",
}


def _data_key(uri: str) -> str:
    scheme, _, rest = uri.partition(":")
    return f"content://{rest[2:].split('/')[0]}" if scheme == "content" else scheme


@command("am")
def am(ctx: CommandContext) -> int:
    args = ctx.argv[1:]
    verb = args[0] if args else ""
    d = ctx.device
    with d.lock:
        if verb in ("start", "start-activity"):
            fields, extras, rest = _parse_intent(args[1:])
            if rest and "-n" not in fields and "/" in rest[-1]:
                fields["-n"] = rest[-1]
            desc = " ".join(
                f"{k}={v}"
                for k, v in (
                    ("act", fields.get("-a")),
                    ("cat", fields.get("-c")),
                    ("dat", fields.get("-d")),
                    ("cmp", fields.get("-n")),
                )
                if v
            )
            ctx.out(f"Starting: Intent {{ {desc} }}\n")
            resolved = _resolve(ctx, fields)
            if isinstance(resolved, str):
                unresolved = f" {{ {desc} flg=0x10000000 }}" if resolved.endswith("resolve Intent") else ""
                ctx.err(f"Error type 3\n{resolved}{unresolved}\n")
                return 1
            app, activity = resolved
            log(d, "I", "ActivityTaskManager", f"START u0 {{{desc}}} from uid 2000")
            if app is d.packages.home_app():
                d.wm.home()
            else:
                d.wm.start_activity(
                    app,
                    activity,
                    extras,
                    launcher=activity is app.main_activity and not extras,
                )
            return 0
        if verb in ("force-stop", "kill") and len(args) > 1:
            if d.packages.is_installed(args[1]):
                d.packages.stop(args[1])
            return 0
        if verb == "broadcast":
            fields, extras, _ = _parse_intent(args[1:])
            action = fields.get("-a", "")
            has_extras = " (has extras)" if extras else ""
            ctx.out(f"Broadcasting: Intent {{ act={action} flg=0x400000{has_extras} }}\n")
            if action in ("ADB_INPUT_TEXT", "ADB_INPUT_B64") and _adb_keyboard_active(ctx):
                text = extras.get("msg", "")
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
            fields, _, rest = _parse_intent(args[1:])
            target = fields.get("-n") or (rest[-1] if rest else "")
            ctx.out(f"Starting service: Intent {{ cmp={target} }}\n")
            ctx.err("Error: Not found; no service started.\n")  # no app here exports a service
            return 1
    return _usage(
        ctx,
        f"Error: Unknown command: {verb}" if verb else "usage: am [subcommand] [options]",
    )


def _adb_keyboard_active(ctx: CommandContext) -> bool:
    d = ctx.device
    return (
        d.packages.is_installed(ADB_KEYBOARD) and d.settings.get("secure", "default_input_method") == ADB_KEYBOARD_IME
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
    fields, _, _ = _parse_intent(ctx.argv[1:])
    pkg = fields.get("-p", "")
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
    from ..providers import ProviderError, run_content

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
            ctx.out(f"u0_a100      {_pid(pkg):5d}   300 1000000  90000 0                   0 S {pkg}\n")
    return 0


@command("pidof")
def pidof(ctx: CommandContext) -> int:
    with ctx.device.lock:
        running = {t[0].app.package for t in ctx.device.wm.tasks}
    pids = [str(_pid(p)) for p in ctx.argv[1:] if p in running]
    if not pids:
        return 1
    ctx.out(" ".join(pids) + "\n")
    return 0


@command("app_process")
def app_process(ctx: CommandContext) -> int:
    """uiautomator2's server launch: serve JSON-RPC on the port until the client hangs up."""
    from ..u2server import serve_uiautomator

    args = ctx.argv[1:]
    jar = ctx.env.get("CLASSPATH", "")
    if "com.wetest.uia2.Main" not in args or not ctx.device.fs.exists(jar):
        return _usage(ctx, f"Error: Could not find class '{' '.join(args[1:2])}'")
    port = int(args[args.index("-p") + 1]) if "-p" in args else 9008
    return serve_uiautomator(ctx, port)
