"""Secrets are redacted everywhere: when the endpoint echoes the API key in its errors, the key
reaches no file the run wrote (results, trajectories, episode.json, Allure results) and not the
terminal. An answer without `usage` is estimated and marked so, never 0 tokens and $0."""

from __future__ import annotations

import json

from calc_tasks import SUMS, calc_tasks

from tests.model_server import Answer, ModelServer

KEY = "sk-echoed-secret-4b1d9e77c2"
DONE = '{"action_type": "status", "goal_status": "complete"}'


def test_a_key_echoed_by_the_endpoint_is_written_nowhere(run_tasks, pytester, monkeypatch):
    monkeypatch.setenv("FAULTS_TEST_KEY", KEY)

    def echo(request):  # a 400 that quotes the key back, as some endpoints do
        message = f"Incorrect API key provided: {KEY}. You can find your API key at ..."
        return Answer(status=400, body=json.dumps({"error": {"message": message, "type": "invalid_request_error"}}))

    with ModelServer(echo) as server:
        run = run_tasks(
            {"test_calc.py": calc_tasks(SUMS[:2])},
            "--agent=t3a",
            "--mobile-model=test-model",
            f"--mobile-model-url={server.url}",
            "--mobile-model-key-env=FAULTS_TEST_KEY",
            f"--mobile-artifacts={pytester.path / 'artifacts'}",
            f"--alluredir={pytester.path / 'allure'}",
            "-n",
            "2",
        )
    assert set(server.authorizations) == {f"Bearer {KEY}"}  # the key was used...
    out = run.result.stdout.str() + run.result.stderr.str()
    assert KEY not in out and "[REDACTED]" in out, out  # ...the terminal shows where it was
    # ...and no file the run wrote holds it, though the errors quoted it.
    written = [p for p in pytester.path.rglob("*") if p.is_file()]
    assert any(p.name == "episode.json" for p in written) and any("allure" in p.parts for p in written)
    assert not [str(p) for p in written if KEY.encode() in p.read_bytes()]
    for e in run.episodes:
        assert "Incorrect API key provided: [REDACTED]" in e["error"], e


def test_an_answer_without_usage_is_estimated_and_marked(run_tasks):
    body = {"id": "x", "object": "chat.completion", "model": "test-model"}
    body["choices"] = [{"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": DONE}}]
    with ModelServer(lambda request: Answer(body=json.dumps(body))) as server:
        run = run_tasks(
            {"test_calc.py": calc_tasks(SUMS[:1])},
            "--agent=t3a",
            "--mobile-model=gpt-4o",
            f"--mobile-model-url={server.url}",
            "-p",
            "no:xdist",
        )
    (e,) = run.episodes
    assert e["model_calls"] >= 1 and e["model_estimated"] == e["model_calls"], e
    assert e["tokens_estimated"] is True and e["tokens_in"] > 100 and e["tokens_out"] > 0, e
    assert e["cost_usd"] is not None and e["cost_usd"] > 0, e  # priced from the estimate, not $0
