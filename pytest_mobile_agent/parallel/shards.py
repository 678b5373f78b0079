"""`--mobile-shard=I/N`: run the I-th of N shards of the collected tests (a CI matrix, a farm).

Every host computes the same split from what it collected, whatever order it collected in, on
whichever host, with or without xdist: tests are weighed (a task by its golden steps, the best
estimate of its episode's length before it runs; any other test counts 1), taken heaviest first
with ties broken by node id, and each goes to the lightest shard so far (the classic greedy
split, within one task's weight of perfect balance). It runs after `-k` and `-m` have deselected
what they deselect, so shards balance what will actually run; tests outside this shard are
reported as deselected.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import pytest

from pytest_mobile_agent.tasks import TASK_KEY


@dataclass(frozen=True)
class Shard:
    index: int  # 1-based, as written on the command line
    count: int

    @classmethod
    def parse(cls, value: str) -> Shard:
        m = re.fullmatch(r"\s*(\d+)\s*/\s*(\d+)\s*", value)
        if not m:
            raise pytest.UsageError(f"--mobile-shard={value!r}: expected I/N, e.g. 2/4 (the second of four shards)")
        index, count = int(m.group(1)), int(m.group(2))
        if count < 1 or not 1 <= index <= count:
            raise pytest.UsageError(f"--mobile-shard={value!r}: I must be between 1 and N (N >= 1)")
        return cls(index, count)


def weight(item: pytest.Item) -> int:
    task = item.stash.get(TASK_KEY, None)
    return max(1, task.golden_steps) if task is not None else 1


def split(weighted: dict[str, int], count: int) -> list[list[str]]:
    """Node ids (with their weights) into `count` shards of nearly equal total weight."""
    shards: list[list[str]] = [[] for _ in range(count)]
    loads = [0] * count
    for nodeid in sorted(weighted, key=lambda n: (-weighted[n], n)):
        lightest = min(range(count), key=lambda i: (loads[i], i))
        shards[lightest].append(nodeid)
        loads[lightest] += weighted[nodeid]
    return shards


class ShardSelection:
    """Registered as a plugin when --mobile-shard is given; keeps only this shard's tests."""

    def __init__(self, shard: Shard) -> None:
        self.shard = shard
        self.emptied = False  # every collected test went to other shards
        self.summary = ""

    @pytest.hookimpl(trylast=True)  # after -k/-m: balance what will run
    def pytest_collection_modifyitems(self, config: pytest.Config, items: list[pytest.Item]) -> None:
        weights: dict[str, int] = {}
        for item in items:
            weights[item.nodeid] = weights.get(item.nodeid, 0) + weight(item)
        mine = set(split(weights, self.shard.count)[self.shard.index - 1])
        keep = [i for i in items if i.nodeid in mine]
        dropped = [i for i in items if i.nodeid not in mine]
        self.summary = (
            f"mobile shard {self.shard.index}/{self.shard.count}: {len(keep)} of {len(items)} tests, "
            f"weight {sum(weights[n] for n in mine)} of {sum(weights.values())} (golden steps)"
        )
        self.emptied = bool(dropped) and not keep
        if hasattr(config, "workeroutput"):  # an xdist worker: tell the controller
            config.workeroutput["mobile_shard_emptied"] = self.emptied
        if dropped:
            config.hook.pytest_deselected(items=dropped)
            items[:] = keep

    def pytest_report_collectionfinish(self) -> str:
        return self.summary

    @pytest.hookimpl(optionalhook=True)
    def pytest_testnodedown(self, node: Any, error: Any) -> None:
        self.emptied = self.emptied or getattr(node, "workeroutput", {}).get("mobile_shard_emptied", False)

    @pytest.hookimpl(trylast=True)
    def pytest_sessionfinish(self, session: pytest.Session, exitstatus: Any) -> None:
        # More shards than tests leaves some empty: that shard did its part, not a failure.
        if self.emptied and exitstatus == pytest.ExitCode.NO_TESTS_COLLECTED:
            session.exitstatus = pytest.ExitCode.OK
