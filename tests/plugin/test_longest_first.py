"""Under xdist, tasks are handed out the longest first, from the first worker that is ready."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pytest

from pytest_mobile_agent.scheduling import HeaviestFirst, LongestFirstScheduling


@dataclass(eq=False)
class FakeNode:
    """What the scheduler sees of an xdist worker: it records what it was sent."""

    name: str
    sent: list[int] = field(default_factory=list)
    shutting_down: bool = False

    @property
    def gateway(self) -> Any:
        return type("Gateway", (), {"id": self.name})()

    def send_runtest_some(self, indices: list[int]) -> None:
        self.sent.extend(indices)

    def send_steal(self, indices: list[int]) -> None:
        raise AssertionError("nothing to steal in these tests")

    def shutdown(self) -> None:
        self.shutting_down = True


class FakeConfig:
    def __init__(self, workers: int) -> None:
        self.collect_reports: list[pytest.CollectReport] = []
        hook = type("Hook", (), {"pytest_collectreport": lambda _, report: self.collect_reports.append(report)})
        self.hook = hook()
        self.workers = workers

    def getvalue(self, name: str) -> list[str]:
        assert name == "tx"
        return [f"{self.workers}*popen"]


COLLECTION = [f"t{i}" for i in range(7)]  # as the workers sent it: heaviest first


def scheduler(workers: int) -> tuple[LongestFirstScheduling, list[FakeNode], FakeConfig]:
    config = FakeConfig(workers)
    sched = LongestFirstScheduling(config)  # type: ignore[arg-type]
    nodes = [FakeNode(f"gw{i}") for i in range(workers)]
    for node in nodes:
        sched.add_node(node)  # type: ignore[arg-type]
    return sched, nodes, config


def collected(sched: LongestFirstScheduling, node: FakeNode, collection: list[str] = COLLECTION) -> None:
    """What xdist's controller does when a worker reports its collection."""
    sched.add_node_collection(node, collection)  # type: ignore[arg-type]
    if sched.collection_is_completed:
        sched.schedule()


def test_the_first_worker_ready_starts_on_the_longest_task_at_once() -> None:
    sched, (first, second, third), _ = scheduler(3)
    collected(sched, first)
    # It runs the heaviest task now (it knows its next one: the lightest), before the others collected.
    assert first.sent == [0, 6]
    assert second.sent == third.sent == []
    collected(sched, second)
    assert second.sent == [1, 5]
    collected(sched, third)
    assert third.sent == [2, 4]
    assert sched.pending == [3]
    assert not sched.tests_finished


def test_a_worker_done_with_a_task_gets_the_heaviest_left() -> None:
    sched, (first, second), _ = scheduler(2)
    collected(sched, first)
    collected(sched, second)
    assert (first.sent, second.sent, sched.pending) == ([0, 6], [1, 5], [2, 3, 4])
    sched.mark_test_complete(first, 0)  # type: ignore[arg-type]
    assert first.sent == [0, 6, 2]  # its queue: 6 (running next), then 2
    sched.mark_test_complete(second, 1)  # type: ignore[arg-type]
    assert second.sent == [1, 5, 3]
    for node, index in ((first, 6), (second, 5), (first, 2)):
        sched.mark_test_complete(node, index)  # type: ignore[arg-type]
    assert first.sent == [0, 6, 2, 4] and sched.pending == []
    assert sorted(first.sent + second.sent) == list(range(7))  # each task once


def test_with_a_worker_for_every_task_each_runs_one_alone() -> None:
    sched, nodes, _ = scheduler(4)
    collected(sched, nodes[0], COLLECTION[:3])
    # Three tasks, four workers: no need to pair; told at once that nothing follows, it runs it now.
    assert nodes[0].sent == [0] and nodes[0].shutting_down
    collected(sched, nodes[1], COLLECTION[:3])
    assert nodes[1].sent == [1] and nodes[1].shutting_down
    collected(sched, nodes[2], COLLECTION[:3])
    assert nodes[2].sent == [2] and sched.pending == []
    assert nodes[3].shutting_down and nodes[3].sent == []  # not collected yet, and nothing left for it


def test_once_all_is_handed_out_idle_workers_are_shut_down() -> None:
    sched, nodes, _ = scheduler(3)
    collected(sched, nodes[0], COLLECTION[:5])
    assert nodes[0].sent == [0, 4]  # five tasks, three workers: paired
    collected(sched, nodes[1], COLLECTION[:5])
    assert nodes[1].sent == [1, 3]  # three left for two workers: still paired
    collected(sched, nodes[2], COLLECTION[:5])
    assert nodes[2].sent == [2] and nodes[2].shutting_down  # the last one, alone
    assert sched.pending == []
    assert not nodes[0].shutting_down and not nodes[1].shutting_down  # two queued: each runs its first
    sched.mark_test_complete(nodes[0], 0)  # type: ignore[arg-type]
    assert nodes[0].shutting_down  # one left and nothing to hand out: it runs it once shut down
    assert sorted(nodes[0].sent + nodes[1].sent + nodes[2].sent) == list(range(5))


def test_a_worker_that_collected_other_tests_gets_none_and_is_reported() -> None:
    sched, (first, second), config = scheduler(2)
    collected(sched, first)
    collected(sched, second, [*COLLECTION[:-1], "elsewhere"])
    assert second.sent == [] and second.shutting_down
    assert [r.outcome for r in config.collect_reports] == ["failed"]
    assert "elsewhere" in str(config.collect_reports[0].longrepr)


def test_workers_order_their_collection_heaviest_first_keeping_ties_in_order() -> None:
    from pytest_mobile_agent.session import TASK_KEY

    def item(name: str, golden: int | None) -> Any:
        stash = pytest.Stash()
        if golden is not None:
            stash[TASK_KEY] = type("Task", (), {"golden_steps": golden})()
        return type("Item", (), {"name": name, "stash": stash})()

    items = [item("a", 2), item("plain", None), item("b", 9), item("c", 2), item("d", 9)]
    HeaviestFirst().pytest_collection_modifyitems(items)
    assert [i.name for i in items] == ["b", "d", "a", "c", "plain"]
