"""Each native GUI model agent on the calculator tasks against a local server whose golden model
answers in that agent's grammar, for each coordinate convention its releases use besides the one
the whole-suite run covers (tests/models/conventions.py): every task passes and the figures equal
the server's usage."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.model_server import ModelServer
from tests.models.conventions import ANSWERS, OTHERS
from tests.models.golden_model import GoldenModel
from tests.models.suite_run import SUITE, run_suite

CALCULATOR = str(SUITE / "test_calculator.py")
GOLDEN = ("-p", "tests.models.golden_export", "-p", "tests.models.golden_screens")


@pytest.mark.parametrize("agent, model, convention", OTHERS)
def test_the_calculator_tasks_pass_with_the_servers_own_figures(
    agent: str, model: str, convention: str, tmp_path: Path
) -> None:
    prices = tmp_path / "prices.json"
    prices.write_text(json.dumps({model: {"input": 0.2, "output": 0.8}}))
    golden = GoldenModel(tmp_path)
    with ModelServer(golden) as server:
        proc, records = run_suite(
            agent,
            server.url,
            tmp_path,
            CALCULATOR,
            "-n",
            "2",
            f"--mobile-prices={prices}",
            *GOLDEN,
            model=model,
            env={"MOBILE_GOLDEN_DIR": str(tmp_path)},
        )
    assert not golden.misses, golden.misses[0]
    assert len(records) == 10 and all(r["success"] for r in records), proc.stdout[-3000:] + proc.stderr[-2000:]
    assert {r["agent_settings"]["coordinates"] for r in records} == {convention}
    assert all(r["answer"] == ANSWERS.get(agent, "done") and r["invalid_steps"] == 0 for r in records)
    sent_in, sent_out = server.totals()
    assert (sum(r["tokens_in"] for r in records), sum(r["tokens_out"] for r in records)) == (sent_in, sent_out)
    assert sum(r["model_calls"] for r in records) == len(server.requests)
    assert sum(r["cost_usd"] for r in records) == pytest.approx((sent_in * 0.2 + sent_out * 0.8) / 1e6, rel=1e-12)
