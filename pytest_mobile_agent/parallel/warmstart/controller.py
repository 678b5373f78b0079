"""The xdist controller's side: whether a session warm-starts, starting its warm process, and
the hook that points its local workers at the launcher."""

from __future__ import annotations

import sys
import threading
from typing import TYPE_CHECKING, Any

import pytest

from pytest_mobile_agent.parallel.warmstart.process import WarmStart
from pytest_mobile_agent.parallel.warmstart.server import at_the_end, import_all

if TYPE_CHECKING:
    from pytest_mobile_agent.options import Options


def wanted(config: pytest.Config, options: Options) -> bool:
    """Warm start where it can help and work: a session that runs tasks on an xdist controller
    (not a worker, not --collect-only) with local popen workers, on a system that forks (Linux)."""
    if not options.runs_tasks or options.warm_start == "off":
        return False
    if not sys.platform.startswith("linux") or hasattr(config, "workerinput"):
        return False
    option = config.option
    if any(getattr(option, name, False) for name in ("collectonly", "help", "version")):
        return False
    if getattr(option, "dist", "no") == "no":
        return False
    return any(
        spec.split("*")[-1].startswith("popen") and "python=" not in spec and "via=" not in spec
        for spec in getattr(option, "tx", None) or ()
    )


# Set once a session has configured in this process (pytester's in-process runs put one session
# inside another): a warm process forked from it would carry that session's configured state.
configured_here = False


def start(config: pytest.Config) -> None:
    """Start the session's warm process now, while pytest has loaded the plugins and configured
    nothing, and hand it to the workers when xdist sets them up."""
    warm = WarmStart.start(config, fork=not configured_here)
    config.add_cleanup(warm.stop)
    config.pluginmanager.register(WarmStartHooks(warm), "mobile-agent-warmstart")


class WarmStartHooks:
    """Hands the launcher to each local popen worker, and imports ahead in the controller too."""

    def __init__(self, warm: WarmStart) -> None:
        self.warm = warm
        self.importer: threading.Thread | None = None

    @pytest.hookimpl(optionalhook=True)
    def pytest_xdist_node_collection_finished(self, node: Any, ids: list[str]) -> None:
        """From the first worker's collection on, the controller mostly waits: it imports now,
        in a thread, what its plugins would import when the session ends (after the last
        episode, where it would add to the wall time) and it has not imported before forking
        the warm process (it started one instead)."""
        names = at_the_end()
        if self.importer is None and names:
            self.importer = threading.Thread(target=import_all, args=(names,), name="mobile-agent-import", daemon=True)
            self.importer.start()

    @pytest.hookimpl(optionalhook=True)
    def pytest_xdist_setupnodes(self, config: pytest.Config, specs: list[Any]) -> None:
        if not self.warm.ready():  # it did not come up: workers start as usual, only slower
            return
        for spec in specs:
            if spec.popen and not spec.python and not spec.via:
                spec.python = self.warm.python()
