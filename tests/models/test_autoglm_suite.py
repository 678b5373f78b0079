"""`--agent=autoglm` on the calculator tasks against a local server whose golden model answers in
AutoGLM's grammar on its 0-999 grid: the figures equal to the server's usage, and a recorded run
replayed with the server stopped."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.model_server import ModelServer
from tests.models.golden_model import GoldenModel
from tests.models.suite_run import SUITE, run_suite

CALCULATOR = str(SUITE / "test_calculator.py")
GOLDEN = ("-p", "tests.models.golden_export", "-p", "tests.models.golden_screens")
SAME = ("nodeid", "success", "steps", "termination", "tokens_in", "tokens_out", "model_calls", "answer")
MODEL = "zai-org/AutoGLM-Phone-9B"


def test_the_calculator_tasks_pass_with_the_servers_own_figures(tmp_path: Path) -> None:
    prices = tmp_path / "prices.json"
    prices.write_text(json.dumps({MODEL: {"input": 0.2, "output": 0.8}}))
    golden = GoldenModel(tmp_path)
    with ModelServer(golden) as server:
        proc, records = run_suite(
            "autoglm",
            server.url,
            tmp_path,
            CALCULATOR,
            "-n",
            "2",
            f"--mobile-prices={prices}",
            *GOLDEN,
            model=MODEL,
            env={"MOBILE_GOLDEN_DIR": str(tmp_path)},
        )
    assert not golden.misses, golden.misses[0]
    assert len(records) == 10 and all(r["success"] for r in records), proc.stdout[-3000:] + proc.stderr[-2000:]
    assert {r["agent_settings"]["coordinates"] for r in records} == {"relative"}
    assert all(r["answer"] == "done" and r["invalid_steps"] == 0 for r in records)
    sent_in, sent_out = server.totals()
    assert (sum(r["tokens_in"] for r in records), sum(r["tokens_out"] for r in records)) == (sent_in, sent_out)
    assert sum(r["model_calls"] for r in records) == len(server.requests)
    assert sum(r["cost_usd"] for r in records) == pytest.approx((sent_in * 0.2 + sent_out * 0.8) / 1e6, rel=1e-12)


def test_a_recorded_run_replays_with_the_server_stopped(tmp_path: Path) -> None:
    cache, rec, rep = tmp_path / "cache", tmp_path / "record", tmp_path / "replay"
    rec.mkdir(), rep.mkdir()
    golden = GoldenModel(rec)
    with ModelServer(golden) as server:
        proc, recorded = run_suite(
            "autoglm",
            server.url,
            rec,
            CALCULATOR,
            "-n",
            "2",
            f"--mobile-model-cache={cache}",
            *GOLDEN,
            model=MODEL,
            env={"MOBILE_GOLDEN_DIR": str(rec)},
        )
    assert len(recorded) == 10 and all(r["success"] for r in recorded), proc.stdout[-3000:]
    proc, replayed = run_suite(
        "autoglm",
        None,
        rep,
        CALCULATOR,
        "-n",
        "2",
        f"--mobile-model-cache={cache}",
        "--mobile-model-replay",
        model=MODEL,
        env={"OPENAI_BASE_URL": "http://127.0.0.1:9/v1"},
    )
    key = lambda r: r["nodeid"]  # noqa: E731
    assert [tuple(r[k] for k in SAME) for r in sorted(replayed, key=key)] == [
        tuple(r[k] for k in SAME) for r in sorted(recorded, key=key)
    ], proc.stdout[-3000:]
    assert all(r["model_cached"] == r["model_calls"] > 0 for r in replayed)
