"""A virtual Android device that speaks the adb wire protocol (the embedded default).

Start devices with `start_devices(n)` / `virtual_devices(n)` or from a shell with
`python -m pytest_mobile_agent.virtual`; every adb client then sees them as ordinary devices.
"""

from pytest_mobile_agent.virtual.process import (
    VirtualDevice,
    VirtualDeviceError,
    start_device,
    start_devices,
    virtual_devices,
)

__all__ = ["VirtualDevice", "VirtualDeviceError", "start_device", "start_devices", "virtual_devices"]
