"""What the system says about itself: toybox `id`, `whoami`, `date` (the device clock), `uname`
(what an Android 13 emulator image, x86_64, reports), and the app processes: `ps`, `pidof`,
`pkill` / `pgrep`."""

from __future__ import annotations

import re
from datetime import UTC, datetime

from pytest_mobile_agent.virtual.shell.api import CommandContext, command
from pytest_mobile_agent.virtual.shell.commands.common import UsageError, app_pid, cmd, device_now, err, opts, out

_GROUPS = "2000(shell),1004(input),1007(log),1011(adb),1015(sdcard_rw),1028(sdcard_r),"
_GROUPS += "1078(ext_data_rw),1079(ext_obb_rw),3001(net_bt_admin),3002(net_bt),3003(inet),"
_GROUPS += "3006(net_bw_stats),3009(readproc),3011(uhid),3012(readtracefs)"


@cmd("id")
def id_(ctx: CommandContext) -> int:
    o, _ = opts(ctx.argv, "ugGnrZ")
    if "u" in o or "g" in o:
        out(ctx, "shell\n" if "n" in o else "2000\n")
    elif "G" in o:
        groups = _GROUPS.split(",")
        names = [g[g.index("(") + 1 : -1] if "n" in o else g[: g.index("(")] for g in groups]
        out(ctx, " ".join(names) + "\n")
    else:
        out(
            ctx,
            f"uid=2000(shell) gid=2000(shell) groups={_GROUPS} context=u:r:shell:s0\n",
        )
    return 0


@command("whoami")
def whoami(ctx: CommandContext) -> int:
    out(ctx, "shell\n")
    return 0


@cmd("date")
def date(ctx: CommandContext) -> int:
    """toybox `date [-u] [+FORMAT]`. The virtual device also takes `date -s WHEN` and `date @EPOCH`
    to set its clock (tests do; a phone's shell user gets "Operation not permitted")."""
    clock = getattr(ctx.device, "clock", None)
    args = ctx.argv[1:]
    if args and (args[0] == "-s" or args[0].startswith("@")) and clock is not None:
        raw = args[0][1:] if args[0].startswith("@") else " ".join(args[1:])
        try:
            epoch = raw.replace(".", "").isdigit()
            when = datetime.fromtimestamp(float(raw), device_now(ctx).tzinfo) if epoch else datetime.fromisoformat(raw)
        except ValueError:
            err(ctx, f"date: bad date '{raw}'")
            return 1
        with ctx.device.lock:
            clock.set(when)
            ctx.device.changed()
        args = []
    o, ops = opts(["date", *args], "uR", "dDrs")
    now = device_now(ctx)
    if "s" in o or any(not a.startswith("+") for a in ops):
        err(ctx, "date: cannot set date: Operation not permitted")
        return 1
    fmt = next((a[1:] for a in ops), "%a %b %e %H:%M:%S %Z %Y")
    if "u" in o:
        now = now.astimezone(UTC)
    fmt = re.sub(
        r"%[%s]",
        lambda m: "%%" if m.group() == "%%" else str(int(now.timestamp())),
        fmt,
    )
    out(ctx, now.strftime(fmt) + "\n")
    return 0


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
        raise UsageError(f"bad regex '{pattern}': {exc}") from exc


@cmd("pkill", "pgrep")
def pkill(ctx: CommandContext) -> int:
    """Signals end an app process as a force-stop would; nothing matching is status 1, silently."""
    args = [a for a in ctx.argv[1:] if not (a.startswith("-") and (a[1:].isdigit() or a[1:].isupper()))]
    found, names = opts([ctx.argv[0], *args], "fxlnoc")
    if not names:
        raise UsageError("Need 1 argument")
    hits = _matching(ctx, names[0])
    if ctx.argv[0] == "pgrep":
        out(ctx, "".join(f"{app_pid(p)}{' ' + p if 'l' in found else ''}\n" for p in hits))
    else:
        with ctx.device.lock:
            for package in hits:
                ctx.device.packages.stop(package)
    return 0 if hits else 1


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
