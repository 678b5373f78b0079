"""What a device is made as: its screen, build and clock at boot, and the properties they give."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

from pytest_mobile_agent.virtual.resources.strings import DEFAULT_LOCALE

DEFAULT_TIME = datetime(2024, 5, 15, 9, 0, 0, tzinfo=UTC)


@dataclass
class DeviceConfig:
    serial: str = ""
    width: int = 1080
    height: int = 2340
    density: int = 440
    sdk: int = 33
    release: str = "13"
    model: str = "Virtual Pixel"
    time: datetime = DEFAULT_TIME
    read_only: bool = False  # as an emulator started with -read-only: no snapshot can be saved
    clock_runs: bool = False  # as an emulator's guest clock: it runs on from `time` (default: fixed)


def properties(c: DeviceConfig) -> dict[str, str]:
    """The system properties (`getprop`) of a freshly booted device made as `c`."""
    return {
        "ro.serialno": c.serial,
        "ro.build.version.sdk": str(c.sdk),
        "ro.build.version.release": c.release,
        "ro.build.version.codename": "REL",
        "ro.build.type": "userdebug",
        "ro.build.id": "PMA.240515",
        "ro.build.fingerprint": f"pytest_mobile_agent/virtual/vpixel:{c.release}/PMA.240515/1:userdebug/test-keys",
        "ro.product.name": "vpixel",
        "ro.product.model": c.model,
        "ro.product.device": "vpixel",
        "ro.product.brand": "pytest-mobile-agent",
        "ro.product.manufacturer": "pytest-mobile-agent",
        "ro.product.board": "virtual",
        "ro.product.cpu.abi": "x86_64",
        "ro.hardware": "virtual",
        "ro.sf.lcd_density": str(c.density),
        "ro.secure": "0",
        "ro.adb.secure": "0",
        "ro.debuggable": "1",
        "ro.kernel.qemu": "0",
        "persist.sys.timezone": "UTC",
        "ro.product.locale": DEFAULT_LOCALE,
        "sys.boot_completed": "1",
        "dev.bootcomplete": "1",
        "init.svc.adbd": "running",
    }
