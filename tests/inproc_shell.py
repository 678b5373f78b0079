"""A shell script run on an in-process virtual device (no adb in between), for the tests that
drive its window manager directly: what `adb shell SCRIPT` would print, stdout and stderr as one."""

from __future__ import annotations

from typing import Any

from pytest_mobile_agent.virtual.shell import run_script
from pytest_mobile_agent.virtual.shell.api import BufferOutput, Input


def sh(dev: Any, script: str) -> str:
    both = BufferOutput()
    run_script(dev, script, Input(b"", closed=True), both, both)
    return both.data.decode()
