"""What drawing the apps in zh-CN costs: a screen's tree built, translated and dumped (the step
every observation pays), en-US and zh-CN side by side on the same in-process device.

Run: python benchmarks/locale_overhead.py [rounds]
The figures are wall-clock medians on a shared machine: compare the ratio, not the absolutes.
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from pathlib import Path

from pytest_mobile_agent.virtual.boot import boot
from pytest_mobile_agent.virtual.core.config import DeviceConfig
from pytest_mobile_agent.virtual.system.device import Device

APPS = (
    "com.simplemobiletools.calendar.pro",
    "com.simplemobiletools.contacts.pro",
    "com.simplemobiletools.filemanager.pro",
    "com.simplemobiletools.gallery.pro",
    "com.simplemobiletools.musicplayer",
    "com.simplemobiletools.notes.pro",
    "com.simplemobiletools.smsmessenger",
)


LOCALES = ("en-US", "zh-CN")


def dump_ms(device: Device, rounds: int) -> list[float]:
    """Median ms per dump in each locale, the locales interleaved round by round (a busy machine
    slows both alike)."""
    times: dict[str, list[float]] = {locale: [] for locale in LOCALES}
    for _ in range(rounds):
        for locale in LOCALES:
            device.props["persist.sys.locale"] = locale
            device.changed()  # a new frame: the tree is built (and translated) again
            t = time.perf_counter()
            device.dump()
            times[locale].append((time.perf_counter() - t) * 1000)
    return [statistics.median(times[locale]) for locale in LOCALES]


def main(rounds: int = 50) -> None:
    device = boot(Path(tempfile.mkdtemp()), DeviceConfig(serial="bench"))
    print(f"{'app':<40} {'en-US ms':>9} {'zh-CN ms':>9} {'ratio':>6}")
    ratios = []
    for package in APPS:
        app = device.packages.app(package)
        device.wm.start_activity(app, app.main_activity, launcher=True)
        dump_ms(device, 3)  # warm the caches (string tables, text layouts)
        figures = dump_ms(device, rounds)
        ratios.append(figures[1] / figures[0])
        print(f"{package:<40} {figures[0]:>9.2f} {figures[1]:>9.2f} {ratios[-1]:>6.2f}")
        device.packages.stop(package)
    print(f"median ratio zh-CN / en-US: {statistics.median(ratios):.2f}")
    device.shutdown()


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 50)
