"""A confused model (malformed JSON, element numbers that do not exist, 429s, 500s, stalls): runs
complete, every episode is recorded, invalid steps and retries are counted; an endpoint that
stays down is an infrastructure error, retried under --mobile-retries."""

from __future__ import annotations

import itertools
import threading
from pathlib import Path
from typing import Any

import pytest

from tests.model_server import Answer, ModelServer
from tests.models.golden_model import GoldenModel
from tests.models.suite_run import SUITE, run_suite

CALCULATOR = str(SUITE / "test_calculator.py")
FOUR = "add or cube or divide or minus"  # four of its tasks

# Each agent's way of being wrong: unreadable, then a number no element has.
NONSENSE = {
    "t3a": [
        'Reason: hmm\nAction: {"action_type": "click", "index": ',
        'Action: {"action_type": "click", "index": 999}',
    ],
    "m3a": [
        'Reason: the boxes blur\nAction: {"action_type": "click", "index": 3',
        'Reason: box 999\nAction: {"action_type": "click", "index": 999}',
    ],
    "appagent": ["Observation: ?\nThought: ?\nAction: tap(\nSummary: -", "Action: tap(999)\nSummary: -"],
    "mobile-bench": ["Thought: lost\nAction: klick 3", "Thought: hm\nAction: click(999)"],
}
SOON = {"retry-after-ms": "10"}  # the server's own wait, so the test does not sit out the backoff
TROUBLE = [
    "bad",
    Answer(status=429, headers=SOON),
    "golden",
    "missing",
    Answer(status=500, headers=SOON),
    "golden",
    Answer(stall_s=1.0),
    "golden",
]


def confused(agent: str, golden: GoldenModel) -> Any:
    turn = itertools.cycle(TROUBLE)
    lock = threading.Lock()

    def script(request: dict[str, Any]) -> Answer | str:
        with lock:
            what = next(turn)
        if isinstance(what, Answer):
            return what
        if what == "golden":
            return golden(request)
        return NONSENSE[agent][0 if what == "bad" else 1]

    return script


@pytest.mark.parametrize("agent", ["t3a", "m3a", "appagent", "mobile-bench"])
def test_a_confused_model_is_survived_and_counted(agent: str, tmp_path: Path) -> None:
    golden = GoldenModel(tmp_path)
    with ModelServer() as server:
        server.script = confused(agent, golden)
        proc, records = run_suite(
            agent,
            server.url,
            tmp_path,
            CALCULATOR,
            "-k",
            FOUR,
            "-n",
            "2",
            "--mobile-model-timeout=0.4",
            "--mobile-max-invalid=50",
            "-p",
            "tests.models.golden_export",
            env={"MOBILE_GOLDEN_DIR": str(tmp_path)},
        )
    assert proc.returncode in (0, 1), proc.stdout[-3000:] + proc.stderr[-3000:]  # tests ran; no crash
    assert len(records) == 4, proc.stdout[-3000:]
    assert all(r["termination"] in ("completed", "max_steps") for r in records), [r["error"] for r in records]
    assert sum(r["invalid_steps"] for r in records) > 0
    errors = sum(s != 200 for s in server.statuses)
    assert sum(r["model_retries"] for r in records) == errors + server.stalls
    reasons: dict[str, int] = {}
    for r in records:
        for k, v in r["model_retry_reasons"].items():
            reasons[k] = reasons.get(k, 0) + v
    assert reasons == {"429": server.statuses.count(429), "5xx": server.statuses.count(500), "timeout": server.stalls}
    sent_in, sent_out = server.totals()
    assert (sum(r["tokens_in"] for r in records), sum(r["tokens_out"] for r in records)) == (sent_in, sent_out)


def test_an_endpoint_that_stays_down_is_infrastructure_and_retried(tmp_path: Path) -> None:
    with ModelServer(lambda request: Answer(status=503, headers={"retry-after-ms": "10"})) as server:
        proc, records = run_suite(
            "t3a",
            server.url,
            tmp_path,
            CALCULATOR,
            "-k",
            "add or cube",
            "--mobile-model-retries=1",
            "--mobile-retries=1",
        )
    assert proc.returncode == 1, proc.stdout[-3000:]
    assert records and all(r["termination"] == "infrastructure" for r in records)
    attempts = len(records)
    assert attempts == 2 * len({r["nodeid"] for r in records})  # each task ran twice: once retried
    assert all(r["model_retries"] == 1 and r["model_retry_reasons"] == {"5xx": 1} for r in records)
    assert len(server.requests) == 2 * attempts  # the first try and its one retry, per attempt
    assert "still failing after 1 retries" in proc.stdout
