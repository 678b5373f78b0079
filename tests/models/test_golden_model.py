"""Every built-in model agent, driven by the golden model through a real local server, clears the
MobileAgentBench suite: observation, prompt, HTTP, answer parsing and grounding, end to end.
The run's token counts and costs equal what the server's `usage` said, to the token."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.model_server import ModelServer
from tests.models.golden_model import GoldenModel
from tests.models.suite_run import SUITE, run_suite

PRICE_IN, PRICE_OUT = 3.0, 12.0  # USD per million tokens for "test-model"


@pytest.mark.parametrize(
    "agent", ["t3a", "m3a", "appagent", "mobile-bench", "ui-tars", "qwen-vl", "autoglm", "anthropic-computer-use"]
)
def test_golden_model_drives_every_agent_through_the_suite(agent: str, tmp_path: Path) -> None:
    prices = tmp_path / "prices.json"
    prices.write_text(json.dumps({"test-model": {"input": PRICE_IN, "output": PRICE_OUT}}))
    golden = GoldenModel(tmp_path)
    with ModelServer(golden) as server:
        proc, records = run_suite(
            agent,
            server.url,
            tmp_path,
            str(SUITE),
            "-n",
            "2",
            f"--mobile-prices={prices}",
            "-p",
            "tests.models.golden_export",
            "-p",
            "tests.models.golden_screens",  # where the golden model sees what a screenshot shows
            env={"MOBILE_GOLDEN_DIR": str(tmp_path)},
        )
    assert records, proc.stdout[-3000:] + proc.stderr[-3000:]
    assert not golden.misses, golden.misses[0]
    assert len(records) == 100, proc.stdout[-2000:]
    passed = sum(r["success"] for r in records)
    failed = [f"{r['task']}: {r['failure_message'] or r['error']}" for r in records if not r["success"]]
    assert passed >= 95, f"{agent}: {passed}/100; failed: {failed}"
    assert all(r["agent"] == agent and r["model"] == "test-model" for r in records)
    assert all(r["model_retries"] == 0 and r["invalid_steps"] == 0 for r in records)
    # The figures are the endpoint's own, exactly: every answer the server sent is counted once.
    sent_in, sent_out = server.totals()
    assert sum(r["tokens_in"] for r in records) == sent_in
    assert sum(r["tokens_out"] for r in records) == sent_out
    assert sum(r["model_calls"] for r in records) == len(server.usage_sent) == len(server.requests)
    assert not any(r["tokens_estimated"] for r in records)
    cost = sum(r["cost_usd"] for r in records)
    assert cost == pytest.approx((sent_in * PRICE_IN + sent_out * PRICE_OUT) / 1e6, rel=1e-12)
