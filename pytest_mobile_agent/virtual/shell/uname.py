"""toybox `uname`: what an Android 13 emulator image (x86_64) reports."""

from __future__ import annotations

from .api import CommandContext
from .files import cmd, opts, out

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
