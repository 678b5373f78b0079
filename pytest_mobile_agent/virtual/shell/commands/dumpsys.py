"""`dumpsys SERVICE`: window, display, activity (activities, top, recents, services), package,
meminfo, battery, power, SurfaceFlinger, input and input_method.

Output formats follow what the real services print, since clients parse them with regexes
(adbutils: `mCurrentFocus=Window{...}`, `versionCode=`; AndroidViewClient:
`DisplayViewport{valid=true, ... deviceWidth=..., deviceHeight=...}`, `mPredictedRotation=`;
AndroidWorld and SPA-Bench: the recent tasks' ids and `topActivity`)."""

from __future__ import annotations

from pytest_mobile_agent.virtual.shell.api import CommandContext, command
from pytest_mobile_agent.virtual.shell.commands.common import app_pid, usage


def _dumpsys_window(ctx: CommandContext, section: str) -> None:
    """`dumpsys window [displays|windows]` as API 33 prints it: since API 29 the focus
    (mCurrentFocus, mFocusedApp) is part of each display's section, not of the windows list."""
    wm = ctx.device.wm
    top = wm.top()
    comp = top.component
    if section in ("", "displays"):
        ctx.out(
            "WINDOW MANAGER DISPLAY CONTENTS (dumpsys window displays)\n"
            f"  Display: mDisplayId=0 rootTasks={len(wm.tasks)}\n"
            f"    init={wm.width}x{wm.height} {wm.density}dpi cur={wm.width}x{wm.height} app={wm.width}x{wm.height}\n"
            "    mRotation=0 mPredictedRotation=0 mLastOrientation=-1\n"
            "    mCurrentRotation=ROTATION_0 mUserRotation=ROTATION_0\n"
            f"  mCurrentFocus=Window{{1f2e3d4 u0 {comp}}}\n"
            f"  mFocusedApp=ActivityRecord{{5a6b7c8 u0 {comp} t{_task_id(ctx, top)}}}\n"
        )
    if section in ("", "windows"):
        ctx.out(
            "WINDOW MANAGER WINDOWS (dumpsys window windows)\n"
            f"  Window #0 Window{{1f2e3d4 u0 {comp}}}:\n"
            "    mDisplayId=0 rootTaskId=1 mSession=Session{8c9d0e1 1234:u0a10100}\n"
            "    mViewVisibility=0x0 mHaveFrame=true mObscured=false\n"
            "\n"
            "  mHasPermanentDpad=false\n"
            "  mTopFocusedDisplayId=0\n"
            "  mInTouchMode=true\n"
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
            return usage(ctx, f"Error parsing timeout: {args[1]}")
        args = args[2:]
    service = args[0] if args else ""
    d = ctx.device
    with d.lock:
        wm = d.wm
        if service == "window":
            _dumpsys_window(ctx, args[1] if len(args) > 1 and args[1] in ("displays", "windows") else "")
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
