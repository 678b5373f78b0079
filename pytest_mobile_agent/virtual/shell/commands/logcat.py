"""The device log's commands: `logcat` (Android 13's options, filters and formats) and `log`.

The system writes a line where Android's would (an activity start: `ActivityTaskManager: START
u0 {...}`); `log -t TAG message` adds any line, as on a phone. The log itself is logd
(core/logs.py).
"""

from __future__ import annotations

import re

from pytest_mobile_agent.virtual.core.logs import Entry
from pytest_mobile_agent.virtual.shell.api import CommandContext, command

BUFFERS = ("main", "radio", "events", "system", "crash", "stats", "security", "kernel")
DEFAULT_BUFFERS = ("main", "system", "crash", "kernel")
PRIORITIES = "VDIWEFS"  # verbose ... fatal, silent
FORMATS = ("brief", "process", "tag", "thread", "raw", "time", "threadtime", "long")
SHELL_PID = 4321


# -- filters: "TAG:P" rules, "*" the default; the first rule naming the tag wins -------------------
def _parse_filters(specs: list[str]) -> dict[str, str] | str:
    rules: dict[str, str] = {}
    for spec in specs:
        for rule in spec.split():
            tag, _, prio = rule.partition(":")
            prio = (prio or "V").upper()
            if not tag or len(prio) != 1 or prio not in PRIORITIES + "*":
                return spec
            rules.setdefault(tag, "V" if prio == "*" else prio)  # an earlier rule for the tag wins
    return rules


def _shown(entry: Entry, rules: dict[str, str]) -> bool:
    least = rules.get(entry.tag, rules.get("*", "V"))
    return least != "S" and PRIORITIES.index(entry.priority) >= PRIORITIES.index(least)


def _format(entry: Entry, fmt: str) -> str:
    stamp = entry.when.strftime("%m-%d %H:%M:%S.") + f"{entry.when.microsecond // 1000:03d}"
    p, tag, msg = entry.priority, entry.tag, entry.message
    if fmt == "raw":
        return msg + "\n"
    if fmt == "long":
        return f"[ {stamp} {entry.pid:5d}:{entry.tid:5d} {p}/{tag:<8} ]\n{msg}\n\n"
    prefix = {
        "brief": f"{p}/{tag:<8}({entry.pid:5d}): ",
        "process": f"{p}({entry.pid:5d}) ",
        "tag": f"{p}/{tag:<8}: ",
        "thread": f"{p}({entry.pid:5d}:{entry.tid:5d}) ",
        "time": f"{stamp} {p}/{tag:<8}({entry.pid:5d}): ",
        "threadtime": f"{stamp} {entry.pid:5d} {entry.tid:5d} {p} {tag:<8}: ",
    }[fmt]
    suffix = f"  ({tag})" if fmt == "process" else ""
    return "".join(f"{prefix}{line}{suffix}\n" for line in msg.split("\n"))


class _Usage(Exception):
    pass


def _options(argv: list[str]) -> dict:
    """logcat's getopt: -c -d -s -D -g, -t/-T N, -b B, -v F, -m N, -e RE, --pid=N; the rest are filters."""
    opts: dict = {
        "buffers": set(),
        "format": "threadtime",
        "tail": 0,
        "dump": False,
        "clear": False,
        "dividers": False,
        "size": False,
        "max": 0,
        "regex": None,
        "pid": 0,
        "filters": [],
    }
    with_arg = {
        "-t",
        "-T",
        "-b",
        "-v",
        "-m",
        "-e",
        "-f",
        "-r",
        "-n",
        "-G",
        "-P",
        "--buffer",
        "--format",
        "--max-count",
        "--regex",
        "--tail",
        "--pid",
        "--file",
    }
    i = 0
    while i < len(argv):
        a = argv[i]
        if a == "--":
            opts["filters"] += argv[i + 1 :]
            break
        if not a.startswith("-") or a == "-":
            opts["filters"].append(a)
            i += 1
            continue
        name, eq, value = a.partition("=")
        if name in with_arg or (len(a) > 2 and a[:2] in with_arg and not a.startswith("--")):
            if eq:
                pass
            elif len(a) > 2 and not a.startswith("--"):
                name, value = a[:2], a[2:]
            elif i + 1 < len(argv):
                i += 1
                value = argv[i]
            else:
                raise _Usage(f"Option '{a}' needs an argument.")
            _take(opts, name, value)
        else:
            for flag in [name] if name.startswith("--") else [f"-{c}" for c in name[1:]]:
                _flag(opts, flag)
        i += 1
    return opts


def _flag(opts: dict, flag: str) -> None:
    if flag in ("-c", "--clear"):
        opts["clear"] = True
    elif flag == "-d":
        opts["dump"] = True
    elif flag == "-s":
        opts["filters"].insert(0, "*:S")
    elif flag in ("-D", "--dividers"):
        opts["dividers"] = True
    elif flag in ("-g", "--buffer-size"):
        opts["size"] = True
    elif flag in ("-B", "-L", "-S", "-p", "--binary", "--last", "--statistics", "--prune", "-Q"):
        raise _Usage(f"'{flag}' is not supported on this device.")
    else:
        raise _Usage(f"Unknown option '{flag}'.")


def _take(opts: dict, name: str, value: str) -> None:
    if name in ("-b", "--buffer"):
        for b in re.split(r"[,:; \t\n\r\f]+", value):
            if b == "default":
                opts["buffers"].update(DEFAULT_BUFFERS[:3])
            elif b == "all":
                opts["buffers"].update(BUFFERS)
            elif b in BUFFERS:
                opts["buffers"].add(b)
            elif b:
                raise _Usage(f"Unknown buffer '{b}' listed for -b.")
    elif name in ("-v", "--format"):
        for f in re.split(r"[,:; \t\n\r\f]+", value):
            if f in FORMATS:
                opts["format"] = f
            elif f not in (
                "color",
                "descriptive",
                "epoch",
                "monotonic",
                "printable",
                "uid",
                "usec",
                "UTC",
                "year",
                "zone",
                "",
            ):
                raise _Usage(f"Invalid parameter '{f}' to -v.")
    elif name in ("-t", "-T", "--tail"):
        if not value.isdigit():
            raise _Usage(f"-{name.lstrip('-')[0]} '{value}' not in time format.")
        opts["tail"] = max(1, int(value))
        opts["dump"] = opts["dump"] or name != "-T"
    elif name in ("-m", "--max-count"):
        if not value.isdigit() or int(value) < 1:
            raise _Usage(f"-m '{value}' isn't an integer greater than zero.")
        opts["max"] = int(value)
    elif name in ("-e", "--regex"):
        try:
            opts["regex"] = re.compile(value)
        except re.error as exc:
            raise _Usage(f"Invalid regex '{value}': {exc}") from exc
    elif name == "--pid":
        if not value.isdigit() or int(value) < 1:
            raise _Usage(f"pid {value} out of range.")
        opts["pid"] = int(value)
    else:
        raise _Usage(f"'{name}' is not supported on this device.")


@command("logcat")
def logcat(ctx: CommandContext) -> int:
    try:
        opts = _options(ctx.argv[1:])
    except _Usage as exc:
        ctx.err(f"logcat: {exc}\n")
        return 1
    buffers = opts["buffers"] or set(DEFAULT_BUFFERS)
    rules = _parse_filters(opts["filters"] or ctx.env.get("ANDROID_LOG_TAGS", "").split())
    if isinstance(rules, str):
        ctx.err(f"logcat: Invalid filter expression '{rules}'.\n")
        return 1
    if opts["max"] and opts["tail"] and opts["dump"]:
        ctx.err("logcat: Cannot use -m (--max-count) and -t together.\n")
        return 1
    logd = ctx.device.logd
    if opts["size"]:
        for name in (b for b in BUFFERS if b in buffers):
            ctx.out(f"{name}: ring buffer is 256 KiB (0 B consumed), max entry is 5120 B, max payload is 4068 B\n")
    if opts["clear"]:
        logd.clear(buffers)
    if opts["size"] or opts["clear"]:
        return 0

    def wanted(e: Entry) -> bool:
        return (
            e.buffer in buffers
            and _shown(e, rules)
            and (not opts["pid"] or e.pid == opts["pid"])
            and (opts["regex"] is None or opts["regex"].search(e.message) is not None)
        )

    printed, last_buffer, started = 0, "", set()

    def emit(e: Entry) -> bool:
        """Print one entry (and its buffer's divider); False once -m entries are out."""
        nonlocal printed, last_buffer
        if e.buffer != last_buffer and (e.buffer not in started or opts["dividers"]):
            ctx.out(f"--------- {'switch to' if e.buffer in started else 'beginning of'} {e.buffer}\n")
            started.add(e.buffer)
        last_buffer = e.buffer
        ctx.out(_format(e, opts["format"]))
        printed += 1
        return not opts["max"] or printed < opts["max"]

    with logd.cond:
        seen = logd.dropped + len(logd.entries)
        backlog = [e for e in logd.entries if wanted(e)]
    for e in backlog[-opts["tail"] :] if opts["tail"] else backlog:
        if not emit(e):
            return 0
    if opts["dump"]:
        return 0
    # Follow the log until the client hangs up, as logcat without -d does.
    while not ctx.stdin.hangup.is_set():
        with logd.cond:

            def grown(n: int = seen) -> bool:
                return logd.dropped + len(logd.entries) > n

            logd.cond.wait_for(grown, timeout=0.2)
            start = max(0, seen - logd.dropped)
            fresh = logd.entries[start:]
            seen = logd.dropped + len(logd.entries)
        for e in fresh:
            if wanted(e) and not emit(e):
                return 0
    return 0


@command("log")
def log_command(ctx: CommandContext) -> int:
    """`log [-p PRIORITY] [-t TAG] MESSAGE`: Android's command-line writer to the main log."""
    args, prio, tag = ctx.argv[1:], "I", "log"
    while args and args[0] in ("-p", "-t") and len(args) > 1:
        if args[0] == "-p":
            prio = args[1][:1].upper()
            if prio not in "VDIWEF":
                ctx.err(f"log: invalid priority '{args[1]}'\n")
                return 1
        else:
            tag = args[1]
        args = args[2:]
    if not args:
        ctx.err("usage: log [-p PRIORITY] [-t TAG] MESSAGE\n")
        return 1
    ctx.device.logd.log(prio, tag, " ".join(args), pid=SHELL_PID)
    return 0
