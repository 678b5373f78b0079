"""An in-process virtual device for the app tests that drive its window manager directly."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from pytest_mobile_agent.virtual.boot import boot
from pytest_mobile_agent.virtual.core.config import DeviceConfig
from pytest_mobile_agent.virtual.system.device import Device


@pytest.fixture
def device(tmp_path: Path) -> Iterator[Device]:
    dev = boot(tmp_path, DeviceConfig(serial="inproc"))
    yield dev
    dev.shutdown()
