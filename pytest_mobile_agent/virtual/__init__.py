"""A virtual Android device that speaks the adb wire protocol (the embedded default).

Start devices with `start_devices(n)` / `virtual_devices(n)` or from a shell with
`python -m pytest_mobile_agent.virtual`; every adb client then sees them as ordinary devices.

The package imports nothing from the rest of pytest_mobile_agent. Its layers, top to bottom
(each imports only those below it; pyproject.toml's import-linter contracts say so):
process control (`__main__`, process.py), adb/, shell/, servers/, boot.py (the composition
root), apps/, system/, ui/, core/, resources/.
"""

from pytest_mobile_agent.virtual.process import (
    VirtualDevice,
    VirtualDeviceError,
    start_device,
    start_devices,
    virtual_devices,
)

__all__ = ["VirtualDevice", "VirtualDeviceError", "start_device", "start_devices", "virtual_devices"]
