"""Each native GUI model agent on the calculator tasks against a local server whose golden model
answers in that agent's grammar, for each coordinate convention its releases use: every task
passes, the figures equal the server's usage, and a recorded run replays with the server stopped."""

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

# (agent, model name, the coordinate convention that name tells); the first row of an agent is
# the one its replay test records.
CONVENTIONS = [
    ("ui-tars", "UI-TARS-1.5-7B", "absolute"),
    ("ui-tars", "bytedance-research/UI-TARS-7B-SFT", "relative"),
    ("qwen-vl", "Qwen2.5-VL-7B-Instruct", "absolute"),
    ("qwen-vl", "Qwen/Qwen3-VL-8B-Instruct", "relative"),
    ("autoglm", "zai-org/AutoGLM-Phone-9B", "relative"),
    ("gui-owl", "mPLUG/GUI-Owl-1.5-8B-Instruct", "relative"),
    ("gui-owl", "mPLUG/GUI-Owl-7B", "absolute"),
    ("agentcpm-gui", "openbmb/AgentCPM-GUI", "relative"),
    ("openai-computer-use", "computer-use-preview", "absolute"),
    ("openai-computer-use", "gpt-5.4", "absolute"),
    ("anthropic-computer-use", "claude-haiku-4-5-20251001", "absolute"),  # computer_20250124
    ("anthropic-computer-use", "claude-sonnet-4-6", "absolute"),  # computer_20251124
    ("gemini-computer-use", "gemini-2.5-computer-use-preview-10-2025", "relative"),  # the 0-999 grid
]
ANSWERS = {"agentcpm-gui": None}  # the answer each agent's golden run records (AgentCPM-GUI's schema has none)
FIRST: dict[str, str] = {}
for _agent, _model, _ in CONVENTIONS:
    FIRST.setdefault(_agent, _model)


@pytest.mark.parametrize("agent, model, convention", CONVENTIONS)
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


@pytest.mark.parametrize("agent, model", FIRST.items())
def test_a_recorded_run_replays_with_the_server_stopped(agent: str, model: str, tmp_path: Path) -> None:
    cache, rec, rep = tmp_path / "cache", tmp_path / "record", tmp_path / "replay"
    rec.mkdir(), rep.mkdir()
    golden = GoldenModel(rec)
    with ModelServer(golden) as server:
        proc, recorded = run_suite(
            agent,
            server.url,
            rec,
            CALCULATOR,
            "-n",
            "2",
            f"--mobile-model-cache={cache}",
            *GOLDEN,
            model=model,
            env={"MOBILE_GOLDEN_DIR": str(rec)},
        )
    assert len(recorded) == 10 and all(r["success"] for r in recorded), proc.stdout[-3000:]
    proc, replayed = run_suite(
        agent,
        None,
        rep,
        CALCULATOR,
        "-n",
        "2",
        f"--mobile-model-cache={cache}",
        "--mobile-model-replay",
        model=model,
        env={"OPENAI_BASE_URL": "http://127.0.0.1:9/v1"},
    )
    key = lambda r: r["nodeid"]  # noqa: E731
    assert [tuple(r[k] for k in SAME) for r in sorted(replayed, key=key)] == [
        tuple(r[k] for k in SAME) for r in sorted(recorded, key=key)
    ], proc.stdout[-3000:]
    assert all(r["model_cached"] == r["model_calls"] > 0 for r in replayed)
