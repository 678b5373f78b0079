"""What a session registers from parallel/: the halves of the xdist scheduler (unless `--dist`
was chosen), the scheduler itself, and the shard filter. scheduler.py imports xdist, so it is
imported only where xdist runs."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from pytest_mobile_agent.options import options_of
from pytest_mobile_agent.parallel import shards

if TYPE_CHECKING:
    from xdist.remote import Producer
    from xdist.scheduler.protocol import Scheduling


def register(config: pytest.Config) -> None:
    options = options_of(config)
    if hasattr(config, "workerinput"):  # an xdist worker, so xdist is there to import
        from pytest_mobile_agent.parallel.scheduler import HeaviestFirst, steals_work

        if steals_work(config, options):
            config.pluginmanager.register(HeaviestFirst(config.workerinput), "mobile-agent-heaviest-first")
    elif getattr(config.option, "numprocesses", None):  # the xdist controller (the option is xdist's)
        from pytest_mobile_agent.parallel.scheduler import StaggeredWorkers, steals_work

        if steals_work(config, options) and not config.option.collectonly:
            config.pluginmanager.register(StaggeredWorkers(), StaggeredWorkers.NAME)
    if options.shard:
        config.pluginmanager.register(shards.ShardSelection(shards.Shard.parse(options.shard)))


def make_scheduler(config: pytest.Config, log: Producer) -> Scheduling | None:
    """The longest tasks first, then work stealing (scheduler.py); None leaves it to xdist."""
    from pytest_mobile_agent.parallel.scheduler import LongestFirstScheduling, StaggeredWorkers, steals_work

    if not steals_work(config, options_of(config)):
        return None
    staggered = config.pluginmanager.get_plugin(StaggeredWorkers.NAME)
    return LongestFirstScheduling(config, log, staggered.weights if staggered is not None else None)
