"""toybox `nc HOST PORT`: a device-side client for ports `adb reverse` carries to the host.

stdin goes to the connection; what comes back goes to stdout until the other end closes (or,
with `-q SECS`, that long after stdin ended). Only this device's own address is reachable: the
virtual device has no network beyond adb.
"""

from __future__ import annotations

import time

from pytest_mobile_agent.virtual.shell.api import CommandContext
from pytest_mobile_agent.virtual.shell.commands.common import UsageError, cmd, err, opts

LOCAL_HOSTS = ("localhost", "127.0.0.1", "::1", "0.0.0.0")


@cmd("nc", "netcat")
def netcat(ctx: CommandContext) -> int:
    found, operands = opts(ctx.argv, "46nuvz", "qwWp")
    if len(operands) != 2 or not operands[1].isdigit():
        raise UsageError("Need 2 arguments (HOST PORT)")
    host, port = operands[0], int(operands[1])
    if host not in LOCAL_HOSTS:
        err(ctx, f"nc: bad address '{host}'")  # no DNS and no network on the virtual device
        return 1
    channel = ctx.device.ports.connect(port)
    if channel is None:
        err(ctx, "nc: connect: Connection refused")
        return 1
    if "z" in found:  # scan only: the port is open
        channel.close()
        return 0
    channel.send(ctx.stdin.read())
    linger = float(found["q"][-1]) if "q" in found else None
    stdin_done = time.monotonic()
    sent = 0
    while True:
        with channel.cond:

            def arrived(n: int = sent) -> bool:
                return channel.closed or len(channel.received) > n

            channel.cond.wait_for(arrived, timeout=0.1)
            data, closed = bytes(channel.received[sent:]), channel.closed
        sent += len(data)
        if data:
            ctx.stdout.write(data)
        if closed or ctx.stdin.hangup.is_set():
            break
        if linger is not None and time.monotonic() - stdin_done >= linger:
            break
    channel.close()
    return 0
