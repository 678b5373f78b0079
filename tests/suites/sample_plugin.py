"""A test-only pytest plugin and agent: a stratified sample of the suites, each task run by the
oracle and then by noop, in one session.

Loaded with `-p sample_plugin --agent=sample_plugin:OracleThenNoop --mobile-repeat=2` by
test_other_configurations.py. Collection keeps one task of each (suite, app) pair (the one
with the fewest apps, then golden steps), both of its runs; the run r1 is played by the
oracle, r2 by noop (the agent reads which run an item is from the plugin, both in the worker
that runs the item).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from pytest_mobile_agent.actions import Action
from pytest_mobile_agent.agents import Observation
from pytest_mobile_agent.agents.builtin import NoopAgent, OracleAgent
from pytest_mobile_agent.tasks import TASK_KEY, without_repeat

RUN = {"repeat": 1}  # the --mobile-repeat run of the item being run


def stratum(item: pytest.Item) -> tuple[str, str]:
    """(suite, app): the suite's folder under task_suites/ and the task's first app."""
    suite = Path(str(item.path)).parts[Path(str(item.path)).parts.index("task_suites") + 1]
    return suite, item.stash[TASK_KEY].apps[0]


@pytest.hookimpl(trylast=True)  # after the plugin has bound each item's task
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    # Per stratum the cheapest task: the fewest apps, then the fewest golden steps, then the first.
    best: dict[tuple[str, str], tuple[int, int, int, str]] = {}
    for order, item in enumerate(items):
        if TASK_KEY in item.stash:
            task = item.stash[TASK_KEY]
            rank = (len(task.apps), task.golden_steps, order, without_repeat(item.nodeid))
            best[stratum(item)] = min(best.get(stratum(item), rank), rank)
    keep = {rank[-1] for rank in best.values()}
    kept = [i for i in items if TASK_KEY in i.stash and without_repeat(i.nodeid) in keep]
    config.hook.pytest_deselected(items=[i for i in items if i not in kept])
    items[:] = kept


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> None:
    RUN["repeat"] = (item.stash[TASK_KEY].repeat or 1) if TASK_KEY in item.stash else 1


class OracleThenNoop:
    """The oracle on a task's first run, noop on its second."""

    name = "oracle-then-noop"
    model = None

    def __init__(self) -> None:
        self.oracle, self.noop = OracleAgent(), NoopAgent()

    def step(self, observation: Observation) -> Action:
        return (self.oracle if RUN["repeat"] == 1 else self.noop).step(observation)
