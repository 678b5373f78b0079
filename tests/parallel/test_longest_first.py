"""Under xdist, tasks are handed out the longest first, from the first worker that is ready."""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from typing import Any

import pytest

from pytest_mobile_agent.parallel.scheduler import (
    WEIGHTS_INPUT,
    CollectionWeights,
    HeaviestFirst,
    LongestFirstScheduling,
    StaggeredWorkers,
)


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


def scheduler(
    workers: int, weights: CollectionWeights | None = None
) -> tuple[LongestFirstScheduling, list[FakeNode], FakeConfig]:
    config = FakeConfig(workers)
    sched = LongestFirstScheduling(config, weights=weights)  # type: ignore[arg-type]
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


def task_item(name: str, golden: int | None) -> Any:
    from pytest_mobile_agent.tasks import TASK_KEY

    stash = pytest.Stash()
    if golden is not None:
        stash[TASK_KEY] = type("Task", (), {"golden_steps": golden})()
    return type("Item", (), {"name": name, "stash": stash})()


def test_workers_order_their_collection_heaviest_first_keeping_ties_in_order() -> None:
    items = [task_item("a", 2), task_item("plain", None), task_item("b", 9), task_item("c", 2), task_item("d", 9)]
    HeaviestFirst().pytest_collection_modifyitems(items)
    assert [i.name for i in items] == ["b", "d", "a", "c", "plain"]


def test_workers_leave_their_weights_where_the_controller_said(tmp_path) -> None:
    weights = CollectionWeights(str(tmp_path))
    items = [task_item("a", 2), task_item("plain", None), task_item("b", 9)]
    HeaviestFirst({WEIGHTS_INPUT: str(tmp_path), "workerid": "gw3"}).pytest_collection_modifyitems(items)
    assert weights.read("gw3") == [9, 2, 1]  # in the order it sent: heaviest first
    assert weights.read("gw0") is None
    (tmp_path / "gw4.json").write_text("[1, ")  # cut short: as if absent
    assert weights.read("gw4") is None


# Golden steps, heaviest first; a task costs its steps and the call that ends it: 11 4 4 3 3 2 2,
# 29 in all.
WEIGHTS = [10, 3, 3, 2, 2, 1, 1]


def weighed(tmp_path, workers: int) -> tuple[LongestFirstScheduling, list[FakeNode], FakeConfig]:
    weights = CollectionWeights(str(tmp_path))
    weights.write("gw0", WEIGHTS)
    return scheduler(workers, weights)


def test_a_task_too_heavy_to_pair_within_the_bound_runs_alone(tmp_path) -> None:
    sched, nodes, _ = weighed(tmp_path, 4)  # bound: the heaviest, 11 (an even share is 7.25)
    collected(sched, nodes[0])
    # Paired with even the lightest it would end at 13, past the bound; the three others can
    # run the 18 left within it: alone, and told at once that nothing follows.
    assert nodes[0].sent == [0] and nodes[0].shutting_down
    collected(sched, nodes[1])
    assert nodes[1].sent == [1, 6] and not nodes[1].shutting_down  # 4 + 2: within the bound, paired
    collected(sched, nodes[2])
    collected(sched, nodes[3])
    assert (nodes[2].sent, nodes[3].sent, sched.pending) == ([2, 5], [3, 4], [])


def test_a_heavy_task_is_paired_where_that_stays_within_the_bound_or_the_others_could_not_carry_the_rest(
    tmp_path,
) -> None:
    sched, nodes, _ = weighed(tmp_path, 2)  # bound: an even share, 14.5; 11 + 2 fits
    collected(sched, nodes[0])
    assert nodes[0].sent == [0, 6] and not nodes[0].shutting_down
    weights = CollectionWeights(str(tmp_path))
    weights.write("gw0", [10, 10, 10, 2])  # costs 11 11 11 3: bound 12, and 11 + 3 does not fit...
    sched, nodes, _ = scheduler(3, weights)
    collected(sched, nodes[0], COLLECTION[:4])
    assert nodes[0].sent == [0, 3] and not nodes[0].shutting_down  # ...but two others can't run 25 within 24


def test_a_worker_that_comes_up_later_gets_no_heavier_a_load(tmp_path) -> None:
    """Workers come up one after another, and each ends later by as much as it started: the
    first tasks are planned as before (the heaviest with the lightest) but handed out the
    heaviest loads first. Costs 9 8 6 5 4 2 (bound 11.3): 9+2, 8+4 and 6+5 in that order would
    give the second worker the heaviest load."""
    weights = CollectionWeights(str(tmp_path))
    weights.write("gw0", [8, 7, 5, 4, 3, 1])
    sched, nodes, _ = scheduler(3, weights)
    for node in nodes:
        collected(sched, node, COLLECTION[:6])
    assert [node.sent for node in nodes] == [[1, 4], [0, 5], [2, 3]]  # 12, 11, 11
    assert sched.pending == []


def test_the_plan_gives_way_to_a_worker_that_finished_before_the_others_came_up(tmp_path) -> None:
    weights = CollectionWeights(str(tmp_path))
    weights.write("gw0", [8, 7, 5, 4, 3, 1])
    sched, nodes, _ = scheduler(3, weights)
    collected(sched, nodes[0], COLLECTION[:6])
    sched.mark_test_complete(nodes[0], 1)  # done with its first before the others collected: it takes the heaviest left
    assert nodes[0].sent == [1, 4, 0]
    collected(sched, nodes[1], COLLECTION[:6])  # its planned 9+2 is broken: the next plan, 6+5
    collected(sched, nodes[2], COLLECTION[:6])  # no plan left: what is left, alone
    assert (nodes[1].sent, nodes[2].sent, nodes[2].shutting_down) == ([2, 3], [5], True)
    assert sorted(nodes[0].sent + nodes[1].sent + nodes[2].sent) == list(range(6))


def test_weights_of_another_collection_are_not_used(tmp_path) -> None:
    weights = CollectionWeights(str(tmp_path))
    weights.write("gw0", WEIGHTS[:-1])  # one task short: not this collection's
    sched, nodes, _ = scheduler(4, weights)
    collected(sched, nodes[0])
    assert nodes[0].sent == [0, 6] and not nodes[0].shutting_down  # paired, as without weights


class FakeDSession:
    """What StaggeredWorkers sees of xdist's controller session."""

    def __init__(self, pending: list[int], fail_at: int | None = None) -> None:
        import queue

        self.queue: queue.Queue = queue.Queue()
        self._active_nodes: set[Any] = {"gw0"}
        self.shuttingdown = False
        self.sched = type("Sched", (), {"collection": ["t0", "t1", "t2"], "pending": pending})()
        self.created: list[str] = []
        self.fail_at = fail_at
        manager = type("NodeManager", (), {})()
        manager.setup_node = self.setup_node
        self.nodemanager = manager

    def setup_node(self, spec: str, putevent: Any) -> str:
        if len(self.created) == self.fail_at:
            raise OSError(f"cannot start {spec}")
        self.created.append(spec)
        self.sched.pending[:1] = []  # each new worker takes a task
        return spec


def staggered(dsession: FakeDSession, specs: list[str]) -> StaggeredWorkers:
    workers = StaggeredWorkers()
    workers.pytest_xdist_setupnodes(None, specs)  # type: ignore[arg-type]
    assert specs == ["gw0"]  # xdist creates only the first
    workers.thread = None
    dsession._active_nodes.add(workers.NAME)
    workers._create_rest(dsession)
    workers.weights.remove()
    return workers


def test_the_other_workers_come_up_until_every_task_is_handed_out() -> None:
    dsession = FakeDSession(pending=[1, 2])
    staggered(dsession, ["gw0", "gw1", "gw2", "gw3", "gw4"])
    assert dsession.created == ["gw1", "gw2"]  # two tasks left: two more workers, not four
    assert dsession._active_nodes == {"gw0", "gw1", "gw2"}  # the placeholder is gone...
    assert dsession.queue.get_nowait() == (StaggeredWorkers.UP, {"error": None})  # ...and xdist's loop woken


def test_a_worker_that_cannot_start_fails_the_session_in_xdists_loop() -> None:
    from pytest_mobile_agent.parallel.scheduler import _raise_if_failed

    dsession = FakeDSession(pending=[1, 2], fail_at=1)
    staggered(dsession, ["gw0", "gw1", "gw2", "gw3"])
    assert dsession.created == ["gw1"] and StaggeredWorkers.NAME not in dsession._active_nodes
    name, kwargs = dsession.queue.get_nowait()
    with pytest.raises(OSError, match="cannot start gw2"):
        _raise_if_failed(**kwargs)


class StartingWorkers(FakeDSession):
    """xdist's controller creating workers for StaggeredWorkers, in its thread, as xdist does:
    each new worker goes through pytest_configure_node; the test says when it has collected."""

    def __init__(self, specs: list[str], at_once: int) -> None:
        super().__init__(pending=list(range(len(specs))))
        self.workers = StaggeredWorkers(at_once=at_once)
        self.workers.pytest_xdist_setupnodes(None, specs)  # type: ignore[arg-type]
        self.nodes: dict[str, Any] = {}
        self.made = threading.Condition()
        self.nodes["gw0"] = self._configure("gw0")  # xdist created the first one itself
        self.workers.thread = threading.Thread(target=self.workers._create_rest, args=(self,), daemon=True)

    def _configure(self, spec: str) -> Any:
        gateway = type("Gateway", (), {"spec": type("Spec", (), {"popen": not spec.startswith("ssh")})()})()
        node = type("Worker", (), {"workerinput": {}, "name": spec, "gateway": gateway})()
        self.workers.pytest_configure_node(node)
        return node

    def setup_node(self, spec: str, putevent: Any) -> str:
        super().setup_node(spec, putevent)
        with self.made:
            self.nodes[spec] = self._configure(spec)
            self.made.notify_all()
        return spec

    def wait_created(self, spec: str) -> None:
        with self.made:
            assert self.made.wait_for(lambda: spec in self.nodes, timeout=10), f"{spec} was never created"

    def collected(self, spec: str) -> None:
        self.workers.pytest_xdist_node_collection_finished(self.nodes[spec], [])


def test_no_more_workers_start_at_once_than_there_are_cpus() -> None:
    dsession = StartingWorkers(["gw0", "gw1", "gw2", "gw3"], at_once=2)
    dsession.workers.thread.start()
    dsession.wait_created("gw1")
    time.sleep(0.3)  # time enough to create gw2, were it not held back
    assert dsession.created == ["gw1"]  # gw0 and gw1 are starting, on two CPUs
    dsession.collected("gw0")
    dsession.wait_created("gw2")
    dsession.workers.pytest_testnodedown(dsession.nodes["gw1"], None)  # gone before collecting: its CPU is free too
    dsession.wait_created("gw3")
    dsession.workers.thread.join(10)
    assert dsession.created == ["gw1", "gw2", "gw3"]
    assert dsession.queue.get_nowait() == (StaggeredWorkers.UP, {"error": None})
    dsession.workers.weights.remove()


def test_a_worker_slow_to_collect_holds_the_next_back_only_so_long() -> None:
    dsession = StartingWorkers(["gw0", "gw1", "gw2"], at_once=1)
    dsession.workers.SLOW_START = 0.3  # type: ignore[misc]
    started = time.monotonic()
    dsession.workers.thread.start()  # gw0 never reports its collection, nor gw1
    dsession.workers.thread.join(10)
    assert dsession.created == ["gw1", "gw2"]
    assert time.monotonic() - started >= 2 * 0.3  # each waited for the one before it
    dsession.workers.weights.remove()


def test_workers_on_other_hosts_start_without_waiting_for_this_ones_cpus() -> None:
    dsession = StartingWorkers(["gw0", "ssh1", "ssh2", "gw3"], at_once=2)
    dsession.workers.SLOW_START = 3600  # type: ignore[misc]
    dsession.workers.thread.start()  # gw0 never collects; the remote workers never count
    dsession.workers.thread.join(10)
    assert dsession.created == ["ssh1", "ssh2", "gw3"]
    dsession.workers.weights.remove()


def test_the_session_ending_stops_the_waiting_at_once() -> None:
    dsession = StartingWorkers(["gw0", "gw1", "gw2"], at_once=1)
    dsession.workers.SLOW_START = 3600  # type: ignore[misc]
    dsession.workers.thread.start()  # held back by gw0, which never collects
    finishing = threading.Thread(target=dsession.workers.pytest_sessionfinish)
    finishing.start()
    finishing.join(10)
    assert not finishing.is_alive() and not dsession.workers.thread.is_alive()
    assert dsession.created == []
    assert dsession.queue.get_nowait() == (StaggeredWorkers.UP, {"error": None})
    dsession.workers.weights.remove()
