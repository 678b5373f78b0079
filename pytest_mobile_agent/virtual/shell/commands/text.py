"""Text tools over files or stdin, toybox's: wc, head, tail, sort, uniq, cut, tr and base64
(grep and sed, which take regular expressions, have modules of their own)."""

from __future__ import annotations

import base64
import binascii
import re
from collections.abc import Callable

from pytest_mobile_agent.virtual.shell.api import CommandContext, dec
from pytest_mobile_agent.virtual.shell.commands.common import UsageError, cmd, err, inputs, lines, opts, out, unescape


@cmd("wc")
def wc(ctx: CommandContext) -> int:
    o, ops = opts(ctx.argv, "lwcm")
    keys = [k for k in "lwc" if k in o or (k == "c" and "m" in o)] or ["l", "w", "c"]
    status = 0
    totals = [0, 0, 0]
    for path, data in inputs(ctx, ops):
        if data is None:
            status = 1
            continue
        counts = [
            data.count(b"\n"),
            len(data.split()),
            len(data) if "m" not in o else len(dec(data)),
        ]
        totals = [a + b for a, b in zip(totals, counts, strict=True)]
        row = " ".join(str(counts["lwc".index(k)]) for k in keys)
        out(ctx, row + (f" {path}" if ops else "") + "\n")
    if len(ops) > 1:
        out(ctx, " ".join(str(totals["lwc".index(k)]) for k in keys) + " total\n")
    return status


def _count_args(argv: list[str]) -> list[str]:
    """`head -5` means `head -n 5`."""
    return [f"-n{a[1:]}" if len(a) > 1 and a[0] == "-" and a[1:].isdigit() else a for a in argv]


@cmd("head", "tail")
def head_tail(ctx: CommandContext) -> int:
    o, ops = opts(_count_args(ctx.argv), "qvfF", "nc")
    is_tail = ctx.argv[0] == "tail"
    status = 0
    for k, (path, data) in enumerate(inputs(ctx, ops)):
        if data is None:
            status = 1
            continue
        if len(ops) > 1 and "q" not in o or "v" in o:
            out(ctx, ("\n" if k else "") + f"==> {path} <==\n")
        spec = str(o["c"][-1] if "c" in o else o["n"][-1] if "n" in o else "10")
        if not spec.lstrip("+-").isdigit():
            raise UsageError(f"Bad -{'c' if 'c' in o else 'n'} '{spec}'")
        n = int(spec.lstrip("+-"))
        items: list[bytes] | bytes = data if "c" in o else lines(data)
        if not is_tail:
            chosen = items[:n]
        elif spec.startswith("+"):
            chosen = items[max(n - 1, 0) :]
        else:
            chosen = items[len(items) - n :] if n else items[:0]
        ctx.stdout.write(chosen if isinstance(chosen, bytes) else b"".join(chosen))
    return status


@cmd("base64")
def base64_(ctx: CommandContext) -> int:
    o, ops = opts(ctx.argv, "di", "w")
    _, data = next(iter(inputs(ctx, ops[:1])))
    if data is None:
        return 1
    if "d" in o:
        cleaned = re.sub(rb"[^A-Za-z0-9+/=]" if "i" in o else rb"\s", b"", data).rstrip(b"=")
        try:
            ctx.stdout.write(base64.b64decode(cleaned + b"=" * (-len(cleaned) % 4)))
        except (binascii.Error, ValueError):
            err(ctx, "base64: bad input")
            return 1
        return 0
    text = base64.b64encode(data)
    width = int(o["w"][-1]) if "w" in o and str(o["w"][-1]).isdigit() else 76
    if width:
        text = b"\n".join(text[k : k + width] for k in range(0, len(text), width))
    ctx.stdout.write(text + b"\n" if text else b"")
    return 0


@cmd("sort")
def sort(ctx: CommandContext) -> int:
    o, ops = opts(ctx.argv, "rnufb")
    status = 0
    collected: list[bytes] = []
    for _, data in inputs(ctx, ops):
        if data is None:
            status = 2
        else:
            collected.extend(line.rstrip(b"\n") for line in lines(data))

    def key(line: bytes) -> tuple[float, bytes] | bytes:
        if "n" in o:
            m = re.match(rb"\s*(-?\d+(?:\.\d*)?)", line)
            return (float(m.group(1)) if m else 0.0, line)
        return line.lower() if "f" in o else line

    result = sorted(collected, key=key, reverse="r" in o)
    if "u" in o:
        result = [x for k, x in enumerate(result) if not k or key(x) != key(result[k - 1])]
    ctx.stdout.write(b"".join(x + b"\n" for x in result))
    return status


@cmd("uniq")
def uniq(ctx: CommandContext) -> int:
    o, ops = opts(ctx.argv, "cdui")
    _, data = next(iter(inputs(ctx, ops[:1])))
    if data is None:
        return 1
    groups: list[list[bytes]] = []
    for line in (x.rstrip(b"\n") for x in lines(data)):
        same = groups and (groups[-1][0].lower() == line.lower() if "i" in o else groups[-1][0] == line)
        if same:
            groups[-1].append(line)
        else:
            groups.append([line])
    for g in groups:
        if ("d" in o and len(g) < 2) or ("u" in o and len(g) > 1):
            continue
        ctx.stdout.write((b"%7d " % len(g) if "c" in o else b"") + g[0] + b"\n")
    return 0


@cmd("cut")
def cut(ctx: CommandContext) -> int:
    o, ops = opts(ctx.argv, "s", "dfc")
    spec = str((o.get("f") or o.get("c") or [""])[-1])
    if not spec:
        raise UsageError("Needs -f or -c")
    picks = _ranges(spec)
    delim = str(o["d"][-1])[:1] if "d" in o else "\t"
    status = 0
    for _, data in inputs(ctx, ops):
        if data is None:
            status = 1
            continue
        for raw in lines(data):
            line = dec(raw.rstrip(b"\n"))
            if "c" in o:
                res = "".join(ch for k, ch in enumerate(line, 1) if picks(k))
            elif delim not in line:
                if "s" in o:
                    continue
                res = line
            else:
                res = delim.join(f for k, f in enumerate(line.split(delim), 1) if picks(k))
            out(ctx, res + "\n")
    return status


def _ranges(spec: str) -> Callable[[int], bool]:
    spans: list[tuple[int, int]] = []
    for item in spec.split(","):
        lo, dash, hi = item.partition("-")
        if not (lo or hi) or not (lo or "1").isdigit() or not (hi or "1").isdigit():
            raise UsageError(f"bad list '{spec}'")
        first = int(lo or 1)
        spans.append((first, int(hi) if hi else (1 << 30 if dash else first)))
    return lambda k: any(a <= k <= b for a, b in spans)


@cmd("tr")
def tr(ctx: CommandContext) -> int:
    o, ops = opts(ctx.argv, "dscC")
    if not ops or ("d" not in o and "s" not in o and len(ops) < 2):
        raise UsageError("Needs 2 arguments")
    src = _charset(ops[0])
    dst = _charset(ops[1]) if len(ops) > 1 else ""
    text = dec(ctx.stdin.read())
    if "d" in o:
        text = "".join(c for c in text if c not in src)
    elif dst:
        dst = dst + dst[-1] * max(len(src) - len(dst), 0)
        text = text.translate(str.maketrans(src, dst[: len(src)]))
    if "s" in o:
        squeeze = dst or src
        text = re.sub("([" + re.escape(squeeze) + r"])\1+", r"\1", text) if squeeze else text
    out(ctx, text)
    return 0


def _charset(spec: str) -> str:
    spec = unescape(spec)[0]
    for name, chars in (
        ("upper", "A-Z"),
        ("lower", "a-z"),
        ("digit", "0-9"),
        ("space", " \t\n\r\f\v"),
    ):
        spec = spec.replace(f"[:{name}:]", chars)
    res: list[str] = []
    i = 0
    while i < len(spec):
        if i + 2 < len(spec) and spec[i + 1] == "-" and spec[i] <= spec[i + 2]:
            res.extend(chr(c) for c in range(ord(spec[i]), ord(spec[i + 2]) + 1))
            i += 3
        else:
            res.append(spec[i])
            i += 1
    return "".join(res)
