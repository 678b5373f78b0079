"""The xdist controller's side: whether a session warm-starts, and the hook that points its
local workers at the launcher."""

from __future__ import annotations

import sys
from typing import Any

import pytest

from .process import WarmStart


def wanted(config: pytest.Config, choice: str) -> bool:
    """Warm start where it can help and work: an xdist controller (not a worker, not
    --collect-only) with local popen workers, on a system that forks (Linux)."""
    if choice == "off" or not sys.platform.startswith("linux") or hasattr(config, "workerinput"):
        return False
    option = config.option
    if getattr(option, "collectonly", False) or getattr(option, "dist", "no") == "no":
        return False
    return any(spec.split("*")[-1].startswith("popen") and "python=" not in spec and "via=" not in spec
               for spec in getattr(option, "tx", None) or ())


class WarmStartHooks:
    """Starts the warm process at configure time (it imports while the controller goes on),
    hands the launcher to each local popen worker, stops the warm process at the end."""

    def __init__(self, config: pytest.Config) -> None:
        params = config.invocation_params
        self.warm = WarmStart([str(arg) for arg in params.args], params.dir)
        config.add_cleanup(self.warm.stop)

    @pytest.hookimpl(optionalhook=True)
    def pytest_xdist_setupnodes(self, config: pytest.Config, specs: list[Any]) -> None:
        if not self.warm.ready():  # it did not come up: workers start as usual, only slower
            return
        for spec in specs:
            if spec.popen and not spec.python and not spec.via:
                spec.python = self.warm.python()
