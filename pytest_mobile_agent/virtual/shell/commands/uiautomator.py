"""UI Automator from the shell: `uiautomator dump` (the view tree as XML, to a file or /dev/tty)
and `app_process`, as uiautomator2 launches its server: JSON-RPC on a device port until the
launching shell stream closes."""

from __future__ import annotations

from pytest_mobile_agent.virtual.servers.uiautomator2 import U2Server
from pytest_mobile_agent.virtual.shell.api import CommandContext, command
from pytest_mobile_agent.virtual.shell.commands.common import usage


@command("uiautomator")
def uiautomator(ctx: CommandContext) -> int:
    args = ctx.argv[1:]
    if not args or args[0] != "dump":
        return usage(
            ctx,
            "Usage: uiautomator <subcommand> [options]\n  dump [--compressed] [file]",
        )
    compressed = "--compressed" in args
    files = [a for a in args[1:] if not a.startswith("--")]
    target = files[0] if files else "/sdcard/window_dump.xml"
    device = ctx.device
    if device.ui_automation is not None:
        # One UiAutomation connection at a time: the runtime's uncaught-exception handler kills
        # the process, which the shell reports as "Killed" (status 137).
        ctx.err(
            'Exception in thread "main" java.lang.IllegalStateException: UiAutomationService '
            "android.accessibilityservice.IAccessibilityServiceClient$Stub$Proxy@5deffd5already registered!\n"
            "Killed\n"
        )
        return 137
    if device.wm.top().keeps_changing():
        # waitForIdle(1000, 10000) times out on a screen that never rests for a second; the
        # real command waits the 10 s first, this one answers at once. Status 0, no file.
        ctx.err("ERROR: could not get idle state.\n")
        return 0
    xml = device.dump(compressed=compressed)
    if target == "/dev/tty":
        if ctx.tty is not None:
            ctx.tty.write(xml.encode())
        # Without a terminal, opening /dev/tty fails (ENXIO); the dumper only logs the
        # IOException, and the command still says where it dumped.
    else:
        device.fs.write(target, xml.encode())
    ctx.out(f"UI hierchary dumped to: {target}\n")
    return 0


@command("app_process")
def app_process(ctx: CommandContext) -> int:
    """uiautomator2's server launch: serve JSON-RPC on the port until the client hangs up
    (the launching shell stream closes)."""
    args = ctx.argv[1:]
    jar = ctx.env.get("CLASSPATH", "")
    if "com.wetest.uia2.Main" not in args or not ctx.device.fs.exists(jar):
        return usage(ctx, f"Error: Could not find class '{' '.join(args[1:2])}'")
    port = int(args[args.index("-p") + 1]) if "-p" in args else 9008
    device = ctx.device
    ctx.out("[server] INFO: [UiAutomator2Server] Starting Server\n")
    if device.ui_automation is not None or port in device.ports.listeners:
        ctx.err(
            "java.lang.IllegalStateException: UiAutomationService "
            "android.accessibilityservice.IAccessibilityServiceClient$Stub$Proxy@5deffd5already registered!\n"
        )
        return 1
    device.ports.listeners[port] = U2Server(device).connect
    device.ui_automation = "uiautomator2"
    try:
        ctx.stdin.hangup.wait()
    finally:
        device.ports.listeners.pop(port, None)
        device.ui_automation = None
    return 0
