"""How xdist hands out tasks: the longest first, from the first worker ready, then stealing.

Episodes differ in length a hundredfold, and a session can end no sooner than its longest
episode after that episode starts: started last, it alone sets the wall time. So under xdist
(unless `--dist` was chosen) every worker orders its collection heaviest first (a task weighs
its golden steps, as for sharding; ties keep the collection order, so every worker's list is
the same), and the controller starts handing out tasks as soon as the first worker has
collected, not once the last one has: a worker that is ready gets the heaviest task left
and, with its first, the lightest too (an xdist worker starts a task only once it knows the
next one, or is told there is none). A worker whose collection differs from the
first one's gets nothing and is reported. Once every task is handed out, xdist's work
stealing and shutdown take over.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest
from xdist.report import report_collection_diff
from xdist.scheduler import WorkStealingScheduling
from xdist.scheduler.worksteal import MIN_PENDING
from xdist.workermanage import WorkerController

from .sharding import weight


def steals_work(config: pytest.Config, agent: str | None) -> bool:
    """Whether a task session under xdist uses this scheduler: the user chose no --dist."""
    known = config.known_args_namespace
    return bool(agent) and known.dist == "no" and not getattr(known, "distload", False)


class HeaviestFirst:
    """Registered in each xdist worker of a task session: orders its collection heaviest first."""

    @pytest.hookimpl(trylast=True)  # after -m, -k and --mobile-shard: order what will run
    def pytest_collection_modifyitems(self, items: list[pytest.Item]) -> None:
        items.sort(key=lambda item: -weight(item))  # stable: ties keep the collection order


class LongestFirstScheduling(WorkStealingScheduling):
    """Work stealing that starts with the first worker ready and hands out the longest first."""

    def __init__(self, config: pytest.Config, log: Any = None) -> None:
        super().__init__(config, log)
        self.served: set[WorkerController] = set()  # workers that got their first task

    @property
    def collection_is_completed(self) -> bool:
        return bool(self.node2collection)

    def add_node_collection(self, node: WorkerController, collection: Sequence[str]) -> None:
        if self.collection is not None and list(collection) != self.collection:
            first = next(iter(self.node2collection))
            message = report_collection_diff(self.collection, collection, first.gateway.id, node.gateway.id)
            self.log(message)
            report = pytest.CollectReport(nodeid=node.gateway.id, outcome="failed", longrepr=message, result=[])
            self.config.hook.pytest_collectreport(report=report)
            node.shutdown()
            return
        self.node2collection[node] = list(collection)

    def schedule(self) -> None:
        if self.collection is None:
            self.collection = next(iter(self.node2collection.values()))
            self.pending[:] = range(len(self.collection))  # heaviest first: the workers sorted it
        self.check_schedule()

    def check_schedule(self) -> None:
        if self.collection is None:  # no worker has collected yet
            return
        for node, queue in self.node2pending.items():
            if node not in self.node2collection or node.shutting_down or len(queue) >= MIN_PENDING:
                continue
            if not self.pending:
                break
            alone = False
            given = [self.pending.pop(0)]
            if not queue:  # its first task
                unserved = self.numnodes - len(self.served)  # workers still to get theirs, this one included
                alone = len(self.pending) < unserved  # a worker for every task left: no need to pair
                if self.pending and not alone:
                    given.append(self.pending.pop())
                self.served.add(node)
            queue.extend(given)
            node.send_runtest_some(given)
            if alone:
                node.shutdown()  # nothing more for it: it runs its one task now
        if not self.pending:
            super().check_schedule()  # all handed out: steal from the longest queue, or shut down

