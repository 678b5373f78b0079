"""Where a report's screen costs its CPU: the device's capture and each step the reports take.

    python benchmarks/report_screen_cost.py [--screens 40]

One virtual device; each of its apps' launch screens is captured new (the clock moved a minute
before each, so the status bar changes and the device draws it anew), then once more unchanged.
Printed, in CPU milliseconds per screen (means: the device's CPU is read in 10 ms ticks):
- the device (its process's CPU time around the `screencap -p`: drawing and encoding a new
  screen, or sending one it still holds) and the harness reading the bytes;
- for reference, the raw `screencap` (RGBA with a header) of an unchanged screen, which the
  harness does not use: a 10 MB transfer costs the device more than a PNG encoding;
- the report thread's steps for one step screen, as reporting/screens.py takes them: decoding
  and halving, quantizing, the plain PNG, drawing the action, the frame's PNG, the thumbnails.
- the device's share split, on the device model booted in this process (its renderer's drawing,
  then its PNG encoder), beside what a half-size capture would cost (halving the picture on the
  device, encoding 540 px, and the report thread decoding that instead of decoding and halving).
A run of the MobileAgentBench suite with the random agent shows 946 screens, about 600 of them
new to the device and the report thread (the others were seen a few steps before).
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from pytest_mobile_agent import drawing
from pytest_mobile_agent.device.android import AndroidDevice
from pytest_mobile_agent.reporting import screens
from pytest_mobile_agent.virtual import virtual_devices
from pytest_mobile_agent.virtual.boot import boot
from pytest_mobile_agent.virtual.core.config import DeviceConfig
from pytest_mobile_agent.virtual.ui.render.png import PngEncoder

EPOCH = 1715763600  # the device clock's start: 2024-05-15 09:00 UTC
LAUNCHER_CATEGORY = "android.intent.category.LAUNCHER"


def device_cpu_ms(pid: int) -> float:
    """User and system CPU of a process, from /proc (Linux)."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) * 1000 / os.sysconf("SC_CLK_TCK")


def timed(fn: Callable[[], Any], pid: int) -> tuple[Any, float, float]:
    """fn's result, the device's CPU ms and this process's CPU ms while it ran."""
    d0, c0 = device_cpu_ms(pid), time.process_time()
    out = fn()
    return out, device_cpu_ms(pid) - d0, (time.process_time() - c0) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--screens", type=int, default=40, help="new screens to capture (apps are cycled)")
    args = parser.parse_args()
    rows: dict[str, list[float]] = {}

    def add(name: str, ms: float) -> None:
        rows.setdefault(name, []).append(ms)

    pngs: list[bytes] = []
    with virtual_devices(1) as (vdev,):
        device, pid = AndroidDevice(vdev.serial), vdev.process.pid
        listed = device.sh("pm list packages", check=False).splitlines()
        apps = sorted(line.split(":", 1)[1].strip() for line in listed if line.startswith("package:"))
        for i in range(args.screens):
            launch = f"monkey -p {apps[i % len(apps)]} -c {LAUNCHER_CATEGORY} 1 >/dev/null 2>&1"
            device.sh(f"{launch}; date @{EPOCH + 60 * (i + 1)} >/dev/null", check=False)
            png, dev_ms, own_ms = timed(device.screenshot, pid)
            add("device: draw and encode a new screen", dev_ms)
            add("harness: read the PNG", own_ms)
            _, dev_ms, _ = timed(device.screenshot, pid)
            add("device: send a screen it holds", dev_ms)
            pngs.append(png)
        for _ in range(3):
            raw, dev_ms, own_ms = timed(lambda: device.sh_bytes("screencap"), pid)
            add(f"raw screencap, {len(raw) / 1e6:.1f} MB, not used: device", dev_ms)
            add(f"raw screencap, {len(raw) / 1e6:.1f} MB, not used: harness", own_ms)

    step = SimpleNamespace(index=1, action={"action": "tap", "x": 540, "y": 1200}, error=None)

    @contextmanager
    def clock(name: str) -> Iterator[None]:
        t0 = time.process_time()
        yield
        add(name, (time.process_time() - t0) * 1000)

    for png in pngs:  # as reporting/screens.py's _frame takes them
        with clock("report: decode and halve"):
            image, full = drawing.scaled(png, drawing.REPORT_WIDTH)
        with clock("report: choose 256 colours"):
            palette = drawing.quantized(image)
        with clock("report: the plain screen's PNG"):
            drawing.encode_quantized(palette)
        with clock("report: draw the action (on a copy)"):
            drawn = drawing.step_frame(image.copy(), full, step, None, None)
        with clock("report: the frame's PNG"):
            drawing.encode_on(drawn, palette)
        with clock("report: thumbnails"):
            drawing.thumbnail_jpeg(drawing.shrink(drawn, drawing.THUMB_WIDTH), screens.FILMSTRIP_WIDTH)
    width = max(map(len, rows))
    print(f"{len(pngs)} new screens of {vdev.serial}; load {os.getloadavg()[0]:.2f}; CPU ms per screen, means")
    for name, values in rows.items():
        print(f"{name:{width}}  {statistics.mean(values):7.2f}")
    report = sum(statistics.mean(v) for k, v in rows.items() if k.startswith("report:"))
    capture = sum(statistics.mean(rows[k]) for k in ("device: draw and encode a new screen", "harness: read the PNG"))
    total = f"a new screen, in all: capture {capture:.1f} + report {report:.1f}"
    print(f"{total:{width}}  {capture + report:7.2f}")
    device_split(args.screens)


def device_split(count: int) -> None:
    """The device's drawing and encoding apart, and a half-size capture beside the full one."""
    rows: dict[str, list[float]] = {}
    with tempfile.TemporaryDirectory() as root:
        device = boot(Path(root), DeviceConfig(serial="split"))
        apps = device.packages.launchable()
        full, half = PngEncoder(), PngEncoder()  # each keeps its own previous screen's bands
        for i in range(count):
            app = apps[i % len(apps)]
            device.wm.start_activity(app, app.main_activity, launcher=True)
            frame, clock_text = device.wm.frame(), f"9:{i % 60:02d}"  # a new status bar: drawn anew
            with _clocked(rows, "device: draw"):
                picture = device.renderer._draw(frame, clock_text)
            with _clocked(rows, "device: encode 1080 px PNG"):
                png = full.encode(picture)
            with _clocked(rows, "half size: device halves"):
                small = picture.reduce(2)
            with _clocked(rows, "half size: device encodes 540 px PNG"):
                small_png = half.encode(small)
            with _clocked(rows, "report: decode 1080 px and halve"):
                drawing.scaled(png, drawing.REPORT_WIDTH)[0].load()
            with _clocked(rows, "half size: report decodes 540 px"):
                drawing.scaled(small_png, drawing.REPORT_WIDTH)[0].load()  # `scaled` leaves it undecoded
    width = max(map(len, rows))
    print(f"the device model in process, {count} new screens; CPU ms per screen, means")
    for name, values in rows.items():
        print(f"{name:{width}}  {statistics.mean(values):7.2f}")


@contextmanager
def _clocked(rows: dict[str, list[float]], name: str) -> Iterator[None]:
    t0 = time.process_time()
    yield
    rows.setdefault(name, []).append((time.process_time() - t0) * 1000)


if __name__ == "__main__":
    main()
