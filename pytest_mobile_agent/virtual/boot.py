"""A device as it boots: the system model with the built-in apps (apps/) in its system image.

The composition root of the device model: adbd serves what this boots, and tests drive it in
process.
"""

from __future__ import annotations

from pathlib import Path

from pytest_mobile_agent.virtual.apps import BUILTIN_APPS
from pytest_mobile_agent.virtual.core.config import DeviceConfig
from pytest_mobile_agent.virtual.system.device import Device


def boot(root: Path, config: DeviceConfig) -> Device:
    """The device whose files are under `root`, made as `config`, with every modelled app."""
    return Device(root, config, BUILTIN_APPS)
