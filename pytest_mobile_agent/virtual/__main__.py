"""`python -m pytest_mobile_agent.virtual`: start one virtual Android device.

Prints one line when the device is online, naming the serial `adb devices` shows, and runs
until SIGTERM/SIGINT; then it disconnects from the adb server and removes its temporary root.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import shutil
import sys
from datetime import datetime
from pathlib import Path

from pytest_mobile_agent.virtual.adb import registration
from pytest_mobile_agent.virtual.adb.adbd import serve
from pytest_mobile_agent.virtual.core.config import DEFAULT_TIME, DeviceConfig
from pytest_mobile_agent.virtual.process import READY, new_root


def _size(text: str) -> tuple[int, int]:
    try:
        w, h = text.lower().split("x")
        return int(w), int(h)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(f"screen size must look like 1080x2340, not {text!r}") from exc


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m pytest_mobile_agent.virtual", description=__doc__.split("\n")[0])
    p.add_argument("--port", type=int, default=0, help="adbd port (odd); the console gets PORT-1 (0: any free pair)")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on")
    p.add_argument("--serial", default="", help="ro.serialno (default: the adb serial, emulator-CONSOLE_PORT)")
    p.add_argument("--size", type=_size, default=(1080, 2340), help="screen size WxH in px")
    p.add_argument("--density", type=int, default=440, help="screen density in dpi")
    p.add_argument("--sdk", type=int, default=33, help="ro.build.version.sdk")
    p.add_argument("--release", default="13", help="ro.build.version.release")
    p.add_argument("--model", default="Virtual Pixel", help="ro.product.model")
    p.add_argument("--time", type=datetime.fromisoformat, default=DEFAULT_TIME, help="device clock (ISO 8601)")
    p.add_argument("--root", type=Path, help="device root directory (default: a new temporary one, removed at exit)")
    p.add_argument("--read-only", action="store_true", help="as the emulator -read-only: no snapshot saved")
    p.add_argument("--running-clock", action="store_true", help="the clock runs from --time, as an emulator's")
    p.add_argument(
        "--load-drop",
        type=float,
        metavar="SECONDS",
        help="as an emulator: a console snapshot load drops adb (every connection) for SECONDS",
    )
    p.add_argument("--boot-delay", type=float, default=0.0, metavar="SECONDS", help="adbd down (offline) so long")
    p.add_argument("--unauthorized", action="store_true", help="let no adb host in: it stays unauthorized")
    p.add_argument("--no-register", action="store_true", help="do not register the device with the adb server")
    p.add_argument("--watch-parent", type=int, metavar="PID", help="stop when the process PID is gone")
    p.add_argument("-v", "--verbose", action="store_true")
    args = p.parse_args(argv)
    logging.basicConfig(level=logging.DEBUG if args.verbose else logging.WARNING, stream=sys.stderr)
    root = new_root() if args.root is None else args.root
    # Removed at exit when it is ours, or when a pool made it for this device (--watch-parent).
    owned = args.root is None or args.watch_parent is not None
    root.mkdir(parents=True, exist_ok=True)
    config = DeviceConfig(
        serial=args.serial,
        width=args.size[0],
        height=args.size[1],
        density=args.density,
        sdk=args.sdk,
        release=args.release,
        model=args.model,
        time=args.time,
        read_only=args.read_only,
        clock_runs=args.running_clock,
    )

    registered: list[str] = []

    def ready(serial: str, port: int) -> None:
        if not args.no_register:  # so that a sweep unregisters this device should it die by SIGKILL
            registration.add(serial, os.getpid(), root if owned else None)
            registered.append(serial)
        print(f"{READY}: serial={serial} port={port} root={root}", flush=True)

    try:
        asyncio.run(
            serve(
                root,
                config,
                args.port,
                args.host,
                register=not args.no_register,
                on_ready=ready,
                watch_parent=args.watch_parent,
                load_drop=args.load_drop,
                boot_delay=args.boot_delay,
                unauthorized=args.unauthorized,
            )
        )
    except OSError as exc:
        print(f"error: cannot start the virtual device: {exc}", file=sys.stderr)
        return 1
    finally:
        for serial in registered:  # serve() has taken it off the adb server
            registration.remove(serial)
        if owned:
            shutil.rmtree(root, ignore_errors=True)
    return 0


if __name__ == "__main__":
    code = main()
    # Everything that must outlive the device is done (disconnected, root removed): skip tearing
    # down the interpreter, which walks the whole heap and added ~40 ms to every session's end.
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)
