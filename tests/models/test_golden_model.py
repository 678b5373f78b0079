"""Every built-in model agent, driven by the golden model through a real local server, clears its
share of the MobileAgentBench suite (a third of each app's tasks; the agents' shares rotate, so
every task runs under four agents): observation, prompt, HTTP, answer parsing and grounding, end
to end. `python -m tests.models.golden_run AGENT` runs one agent over the whole suite.
The run's token counts and costs equal what the server's `usage` said, to the token. A native GUI
agent runs as the model of its first row in tests/models/conventions.py, with that model's
coordinate convention, and its recorded calculator tasks replay with the server stopped."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pytest_mobile_agent.agents.loader import MODEL_AGENTS
from tests.model_server import ModelServer
from tests.models.conventions import ANSWERS, FIRST
from tests.models.golden_model import GoldenModel
from tests.models.suite_run import SUITE, run_suite

SHARES = 3  # each agent runs one share of each task file

PRICE_IN, PRICE_OUT = 3.0, 12.0  # USD per million tokens for the run's model
# What a replay must give back as the recorded run had it.
SAME = ("nodeid", "success", "steps", "termination", "tokens_in", "tokens_out", "model_calls", "answer")


@pytest.mark.parametrize("agent", MODEL_AGENTS)
def test_golden_model_drives_every_agent_through_the_suite(agent: str, tmp_path: Path) -> None:
    model, convention = FIRST.get(agent, ("test-model", None))
    prices, cache = tmp_path / "prices.json", tmp_path / "cache"
    prices.write_text(json.dumps({model: {"input": PRICE_IN, "output": PRICE_OUT}}))
    share = f"{MODEL_AGENTS.index(agent) % SHARES}/{SHARES}"
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
            f"--mobile-model-cache={cache}",
            "-p",
            "tests.models.golden_export",
            "-p",
            "tests.models.golden_screens",  # where the golden model sees what a screenshot shows
            model=model,
            env={"MOBILE_GOLDEN_DIR": str(tmp_path), "MOBILE_GOLDEN_SHARE": share},
        )
    assert records, proc.stdout[-3000:] + proc.stderr[-3000:]
    assert not golden.misses, golden.misses[0]
    selected = (tmp_path / "selected.txt").read_text().splitlines()
    assert 30 <= len(selected) <= 40 and sorted(r["nodeid"] for r in records) == selected, proc.stdout[-2000:]
    passed = sum(r["success"] for r in records)
    failed = [f"{r['task']}: {r['failure_message'] or r['error']}" for r in records if not r["success"]]
    assert passed >= 0.95 * len(records), f"{agent}: {passed}/{len(records)}; failed: {failed}"
    assert all(r["agent"] == agent and r["model"] == model for r in records)
    assert all(r["model_retries"] == 0 and r["invalid_steps"] == 0 for r in records)
    # The figures are the endpoint's own, exactly: every answer the server sent is counted once.
    sent_in, sent_out = server.totals()
    assert sum(r["tokens_in"] for r in records) == sent_in
    assert sum(r["tokens_out"] for r in records) == sent_out
    assert sum(r["model_calls"] for r in records) == len(server.usage_sent) == len(server.requests)
    assert not any(r["tokens_estimated"] for r in records)
    cost = sum(r["cost_usd"] for r in records)
    assert cost == pytest.approx((sent_in * PRICE_IN + sent_out * PRICE_OUT) / 1e6, rel=1e-12)
    if convention is None:
        return  # the prompt-based agents' replay: tests/models/test_record_replay.py
    assert {r["agent_settings"]["coordinates"] for r in records} == {convention}
    calculator = sorted((r for r in records if r["app"] == "calculator"), key=lambda r: r["nodeid"])
    assert len(calculator) >= 3 and all(r["answer"] == ANSWERS.get(agent, "done") for r in calculator)
    (tmp_path / "replay").mkdir()
    proc, replayed = run_suite(
        agent,
        None,
        tmp_path / "replay",
        str(SUITE / "test_calculator.py"),
        "-n",
        "2",
        f"--mobile-model-cache={cache}",
        "--mobile-model-replay",
        "-p",
        "tests.models.golden_export",
        model=model,
        env={
            "OPENAI_BASE_URL": "http://127.0.0.1:9/v1",
            "MOBILE_GOLDEN_DIR": str(tmp_path / "replay"),
            "MOBILE_GOLDEN_SHARE": share,
        },
    )
    assert [tuple(r[k] for k in SAME) for r in sorted(replayed, key=lambda r: r["nodeid"])] == [
        tuple(r[k] for k in SAME) for r in calculator
    ], proc.stdout[-3000:]
    assert all(r["model_cached"] == r["model_calls"] > 0 for r in replayed)
