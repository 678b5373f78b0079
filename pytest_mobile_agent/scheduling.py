"""How xdist hands out tasks: the longest first, then work stealing.

Episodes differ in length a hundredfold, and a session can end no sooner than its longest
episode after that episode starts: started last, it alone sets the wall time. So under xdist
(unless `--dist` was chosen) every worker orders its collection heaviest first (a task weighs
its golden steps, as for sharding; ties keep the collection order, so every worker's list is
the same), and the controller deals that list out like cards, one to each worker in turn and
back again (1..N, N..1, ...): each worker starts on one of the N longest tasks and the totals
even out. From there xdist's work stealing corrects what the estimates got wrong.
"""

from __future__ import annotations

import pytest
from xdist.scheduler import WorkStealingScheduling

from .sharding import weight


def steals_work(config: pytest.Config, agent: str | None) -> bool:
    """Whether a task session under xdist uses this scheduler: the user chose no --dist."""
    known = config.known_args_namespace
    return bool(agent) and known.dist == "no" and not getattr(known, "distload", False)


class HeaviestFirst:
    """Registered in each xdist worker of a task session: orders its collection for the deal."""

    @pytest.hookimpl(trylast=True)  # after -m, -k and --mobile-shard: order what will run
    def pytest_collection_modifyitems(self, items: list[pytest.Item]) -> None:
        items.sort(key=lambda item: -weight(item))  # stable: ties keep the collection order


class LongestFirstScheduling(WorkStealingScheduling):
    """Work stealing whose first split deals the (heaviest-first) collection out in a snake."""

    def schedule(self) -> None:
        assert self.collection_is_completed
        if self.collection is not None:  # a node added later: xdist's own handling
            super().schedule()
            return
        if not self._check_nodes_have_same_collection():
            self.log("**Different tests collected, aborting run**")
            return
        self.collection = next(iter(self.node2collection.values()))
        nodes = [node for node in self.node2pending if not node.shutting_down]
        for node, indices in zip(nodes, deal(len(self.collection), len(nodes))):
            if indices:
                self.node2pending[node].extend(indices)
                node.send_runtest_some(indices)
        self.check_schedule()


def deal(count: int, nodes: int) -> list[list[int]]:
    """Indices 0..count-1 dealt to `nodes` hands: 0..N-1 forward, then back, and so on."""
    hands: list[list[int]] = [[] for _ in range(nodes)]
    for index in range(count):
        turn, seat = divmod(index, nodes)
        hands[seat if turn % 2 == 0 else nodes - 1 - seat].append(index)
    return hands

