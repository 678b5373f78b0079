"""How xdist hands out tasks: the longest first, from the first worker ready, then stealing.

Episodes differ in length a hundredfold, and a session can end no sooner than its longest
episode after that episode starts: started last, it alone sets the wall time. So under xdist
(unless `--dist` was chosen) every worker orders its collection heaviest first (a task weighs
its golden steps, as for sharding; ties keep the collection order, so every worker's list is
the same), and the controller starts handing out tasks as soon as the first worker has
collected, not once the last one has: a worker that is ready gets the heaviest task left
and, with its first, the lightest too (an xdist worker starts a task only once it knows the
next one, or is told there is none). Workers come up one after another, so these first pairs
are planned together and handed out the heaviest first: one that comes up later ends later
by as much, and gets a lighter pair. A worker whose collection differs from the
first one's gets nothing and is reported. Once every task is handed out, xdist's work
stealing and shutdown take over.

Four more things keep -n 16 and -n 32 close to the bound on a small machine:
- xdist tells the controller only node ids, so each worker leaves the weights of its
  collection in a folder the controller named (`CollectionWeights`). With them, a worker whose
  first task is so heavy that even the lightest task after it would end past the bound (the
  larger of the heaviest task and an even share of all) runs it alone, where the other workers
  can run the rest within the bound.
- xdist creates every worker, one after another, before it hands out the first task: about
  0.1 s each, so at -n 32 the heaviest task waited 3 s. `StaggeredWorkers` lets xdist create
  the first one, then creates the others in a thread while the first already runs, and stops
  once every task is handed out (a worker with nothing to do only costs a start-up).
- A worker's start-up (pytest, plugins, collection) is CPU work: with more workers than CPUs,
  those starting together share the CPUs and all come up late, the first ones (which carry
  the heaviest tasks) included. So the thread starts a local worker only while fewer are
  starting than there are CPUs: one counts as starting until it has collected, or is gone, or
  has taken longer than `SLOW_START` (then it waits on something other than the CPUs). At
  -n 16 on 2 CPUs the session ends 0.1 to 0.3 s sooner (two runs of 8 interleaved pairs).
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from xdist.report import report_collection_diff
from xdist.scheduler import WorkStealingScheduling
from xdist.scheduler.worksteal import MIN_PENDING
from xdist.workermanage import WorkerController

from pytest_mobile_agent.parallel.shards import weight

if TYPE_CHECKING:
    from pytest_mobile_agent.options import Options


def steals_work(config: pytest.Config, options: Options) -> bool:
    """Whether a task session under xdist uses this scheduler: the user chose no --dist."""
    known = config.known_args_namespace
    return options.runs_tasks and known.dist == "no" and not getattr(known, "distload", False)


WEIGHTS_INPUT = "mobile_agent_weights"  # in each worker's workerinput: the folder for its weights


class CollectionWeights:
    """A folder where each worker leaves its collection's weights, in its collection's order."""

    def __init__(self, folder: str | None = None) -> None:
        self.folder = folder or tempfile.mkdtemp(prefix="pma-weights-")

    def _path(self, workerid: str) -> Path:
        return Path(self.folder) / f"{workerid}.json"

    def write(self, workerid: str, weights: list[int]) -> None:
        path = self._path(workerid)
        path.with_suffix(".tmp").write_text(json.dumps(weights))
        os.replace(path.with_suffix(".tmp"), path)  # whole or absent for the reader

    def read(self, workerid: str) -> list[int] | None:
        try:
            weights = json.loads(self._path(workerid).read_text())
        except (OSError, ValueError):
            return None
        return weights if isinstance(weights, list) and all(isinstance(w, int) for w in weights) else None

    def remove(self) -> None:
        shutil.rmtree(self.folder, ignore_errors=True)


class HeaviestFirst:
    """Registered in each xdist worker of a task session: orders its collection heaviest first,
    and leaves the weights where the controller's scheduler reads them."""

    def __init__(self, workerinput: dict[str, Any] | None = None) -> None:
        workerinput = workerinput or {}
        folder = workerinput.get(WEIGHTS_INPUT)
        self.weights = CollectionWeights(folder) if folder else None
        self.workerid = str(workerinput.get("workerid", ""))

    @pytest.hookimpl(trylast=True)  # after -m, -k and --mobile-shard: order what will run
    def pytest_collection_modifyitems(self, items: list[pytest.Item]) -> None:
        weights = {id(item): weight(item) for item in items}
        items.sort(key=lambda item: -weights[id(item)])  # stable: ties keep the collection order
        if self.weights is not None:
            try:
                self.weights.write(self.workerid, [weights[id(item)] for item in items])
            except OSError:  # the scheduler then pairs tasks as it does without weights
                pass


class LongestFirstScheduling(WorkStealingScheduling):
    """Work stealing that starts with the first worker ready and hands out the longest first."""

    def __init__(self, config: pytest.Config, log: Any = None, weights: CollectionWeights | None = None) -> None:
        super().__init__(config, log)
        self.collection: list[str] | None = None  # the base class's, typed: the first worker's collection
        self.served: set[WorkerController] = set()  # workers that got their first task
        self.weights = weights
        self.cost: list[int] | None = None  # per task of the collection: agent calls, about
        self.load: dict[WorkerController, int] = {}  # the cost handed to each worker so far
        self.plan: list[tuple[list[int], bool]] = []  # the first tasks of the workers still to come

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
            first, collection = next(iter(self.node2collection.items()))
            self.collection = collection
            self.pending[:] = range(len(collection))  # heaviest first: the workers sorted it
            weights = self.weights.read(first.gateway.id) if self.weights is not None else None
            if weights is not None and len(weights) == len(collection):
                self.cost = [w + 1 for w in weights]  # its golden steps and the call that ends it
                self.plan = self._plan()
        self.check_schedule()

    def _plan(self) -> list[tuple[list[int], bool]]:
        """Every worker's first tasks as they would be handed out if all came up before any
        finished, the heaviest loads first: workers come up one after another, and one that
        comes up later ends later by as much, so it gets a lighter load."""
        assert self.cost is not None
        pending = list(self.pending)
        loads: list[int] = []
        plan: list[tuple[list[int], bool]] = []
        for served in range(self.numnodes):
            if not pending:
                break
            given, alone = self._first_tasks(pending, loads, self.numnodes - served)
            if not alone:
                loads.append(sum(self.cost[i] for i in given))
            plan.append((given, alone))
        cost = self.cost
        plan.sort(key=lambda entry: -sum(cost[i] for i in entry[0]))  # stable: ties keep their order
        return plan

    def _planned(self) -> tuple[list[int], bool] | None:
        """The next planned first tasks that are all still to hand out (taken off `pending`)."""
        while self.plan:
            given, alone = self.plan.pop(0)
            if all(i in self.pending for i in given):
                self.pending[:] = [i for i in self.pending if i not in given]
                return given, alone
        return None

    def _first_tasks(self, pending: list[int], loads: list[int], unserved: int) -> tuple[list[int], bool]:
        """A worker's first tasks, taken off `pending`: the heaviest and, so that the worker
        starts at once (an xdist worker starts a task only once it knows the next, or that none
        follows), the lightest; or the heaviest alone where no pairing is needed or it is better
        alone. `loads`: what the other workers that take more tasks were handed; `unserved`:
        the workers still to get their first tasks, this one included."""
        given = [pending.pop(0)]
        alone = len(pending) < unserved or self._better_alone(given[0], pending, loads, unserved - 1)
        if pending and not alone:
            given.append(pending.pop())
        return given, alone

    def _better_alone(self, task: int, pending: list[int], loads: list[int], unseen: int) -> bool:
        """Whether to run `task` alone: paired with the lightest task left it would end past the
        bound (the heaviest task, or an even share of all, whichever is larger), and the other
        workers (with `loads`, and `unseen` still to come) can run every task left within it."""
        if self.cost is None or not pending:
            return False
        bound = max(max(self.cost), sum(self.cost) / self.numnodes)
        if self.cost[task] + self.cost[pending[-1]] <= bound:
            return False
        room = sum(bound - load for load in loads) + unseen * bound
        return sum(self.cost[i] for i in pending) <= room

    def check_schedule(self) -> None:
        if self.collection is None:  # no worker has collected yet
            return
        for node, queue in self.node2pending.items():
            if node not in self.node2collection or node.shutting_down or len(queue) >= MIN_PENDING:
                continue
            if not self.pending:
                break
            alone = False
            if not queue:  # its first tasks
                loads = [self.load.get(n, 0) for n in self.served if not n.shutting_down]
                unserved = self.numnodes - len(self.served)
                given, alone = self._planned() or self._first_tasks(self.pending, loads, unserved)
                self.served.add(node)
            else:
                given = [self.pending.pop(0)]
            queue.extend(given)
            if self.cost is not None:
                self.load[node] = self.load.get(node, 0) + sum(self.cost[i] for i in given)
            node.send_runtest_some(given)
            if alone:
                node.shutdown()  # nothing more for it: it runs its one task now
        if not self.pending:
            super().check_schedule()  # all handed out: steal from the longest queue, or shut down


def usable_cpus() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


class StaggeredWorkers:
    """Registered in the xdist controller of a task session: hands the workers the weights
    folder, and creates every worker but the first in a thread while the first already runs,
    no more starting at once than there are CPUs."""

    NAME = "mobile-agent-staggered-workers"
    UP = "mobile_agent_workers_up"  # the event that wakes xdist's loop once the thread is done
    SLOW_START = 2.0  # s: a worker starting for longer no longer holds back the next one

    def __init__(self, at_once: int | None = None) -> None:
        self.weights = CollectionWeights()
        self.rest: list[Any] = []  # the specs of the workers still to create
        self.thread: threading.Thread | None = None
        self.stop = threading.Event()
        self.at_once = at_once or usable_cpus()
        self.starting: dict[Any, float] = {}  # worker -> when it was created (monotonic)
        self.changed = threading.Condition()  # a worker came up or went down, or the session ends

    @pytest.hookimpl(optionalhook=True)
    def pytest_configure_node(self, node: WorkerController) -> None:
        node.workerinput[WEIGHTS_INPUT] = self.weights.folder
        if getattr(node.gateway.spec, "popen", False):  # a remote worker starts on its host's CPUs
            with self.changed:
                self.starting[node] = time.monotonic()

    @pytest.hookimpl(optionalhook=True)
    def pytest_xdist_node_collection_finished(self, node: WorkerController, ids: Sequence[str]) -> None:
        self._started(node)

    @pytest.hookimpl(optionalhook=True)
    def pytest_testnodedown(self, node: WorkerController, error: Any) -> None:
        self._started(node)

    def _started(self, node: WorkerController) -> None:
        with self.changed:
            self.starting.pop(node, None)
            self.changed.notify_all()

    def _wait_for_a_cpu(self, dsession: Any) -> None:
        """Until fewer workers are starting than there are CPUs, or the session ends."""
        with self.changed:
            while not (self.stop.is_set() or dsession.shuttingdown):
                now = time.monotonic()
                since = [t for t in self.starting.values() if now - t < self.SLOW_START]
                if len(since) < self.at_once:
                    return
                self.changed.wait(timeout=self.SLOW_START - (now - min(since)))

    @pytest.hookimpl(optionalhook=True, trylast=True)  # after xdist's status line and warm start saw them all
    def pytest_xdist_setupnodes(self, config: pytest.Config, specs: list[Any]) -> None:
        self.rest = list(specs[1:])
        del specs[1:]  # the list xdist is about to create workers from

    @pytest.hookimpl(wrapper=True)
    def pytest_sessionstart(self, session: pytest.Session) -> Any:
        result = yield  # xdist has created the first worker (its hook runs last)
        dsession = session.config.pluginmanager.get_plugin("dsession")
        if self.rest and dsession is not None and getattr(dsession, "nodemanager", None) is not None:
            # While the thread runs, xdist must not take "no worker left" for the session's end.
            dsession._active_nodes.add(self.NAME)
            setattr(dsession, f"worker_{self.UP}", _raise_if_failed)
            self.thread = threading.Thread(target=self._create_rest, args=(dsession,), name=self.NAME, daemon=True)
            self.thread.start()
        return result

    def _create_rest(self, dsession: Any) -> None:
        error = None
        try:
            for spec in self.rest:
                self._wait_for_a_cpu(dsession)
                sched = getattr(dsession, "sched", None)
                handed_out = sched is not None and sched.collection is not None and not sched.pending
                if self.stop.is_set() or dsession.shuttingdown or handed_out:
                    break
                node = dsession.nodemanager.setup_node(spec, dsession.queue.put)
                dsession._active_nodes.add(node)
        except Exception as exc:  # noqa: BLE001  (raised in xdist's loop, as xdist's own start would)
            error = exc
        finally:
            dsession._active_nodes.discard(self.NAME)
            dsession.queue.put((self.UP, {"error": error}))

    @pytest.hookimpl(tryfirst=True)  # before xdist tears the workers down
    def pytest_sessionfinish(self) -> None:
        with self.changed:
            self.stop.set()
            self.changed.notify_all()
        if self.thread is not None:
            self.thread.join()

    def pytest_unconfigure(self) -> None:
        self.weights.remove()


def _raise_if_failed(error: Exception | None = None) -> None:
    if error is not None:
        raise error
