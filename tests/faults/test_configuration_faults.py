"""Configuration errors stop the run early and say so: a key the endpoint refuses (401, 403), a
model it does not know (404) and a replay-cache miss end the session after the first
occurrence, with one message naming the option to fix and exit status 6, under xdist too; never
the agent's error. Answers that are no answers (an HTTP 200 error body, no choices, not JSON)
are retried as the endpoint's faults, then infrastructure. A real HTTP server plays the model."""

from __future__ import annotations

import json

import pytest
from calc_tasks import SUMS, calc_tasks

from tests.model_server import Answer, ModelServer

CONFIGURATION_EXIT = 6
MODEL_ARGS = ("--agent=t3a", "--mobile-model=test-model", "-p", "no:randomly")


def _run(run_tasks, server, *args, sums=SUMS):
    return run_tasks({"test_calc.py": calc_tasks(sums)}, *MODEL_ARGS, f"--mobile-model-url={server.url}", *args)


@pytest.mark.parametrize("xdist", [("-p", "no:xdist"), ("-n", "2")], ids=["alone", "xdist"])
@pytest.mark.parametrize(
    "status, names",
    [(401, "--mobile-model-key-env"), (403, "--mobile-model-key-env"), (404, "fix --mobile-model")],
)
def test_a_refused_key_or_unknown_model_stops_the_session(run_tasks, status, names, xdist):
    with ModelServer(lambda request: Answer(status=status)) as server:
        run = _run(run_tasks, server, *xdist)
    out = run.result.stdout.str()
    assert run.result.ret == CONFIGURATION_EXIT, out
    assert "INTERNALERROR" not in out and "Traceback" not in out, out
    # One request per worker at most: the session stops at the first answer.
    assert 1 <= len(server.requests) <= 2 and len(run.episodes) == len(server.requests) < len(SUMS), out
    for e in run.episodes:  # recorded, never as the agent's
        assert e["termination"] == "infrastructure" and not e["success"] and names in e["error"], e
    assert run.overall["episodes"] == 0 and run.overall["error_share"] is None
    message = run.episodes[0]["error"]
    assert f"ConfigurationError: {message}" in out and "stopped on a configuration error" in out
    assert "--mobile-retries spent" not in out


def test_a_replay_miss_stops_the_session(run_tasks, tmp_path):
    run = run_tasks(
        {"test_calc.py": calc_tasks()},
        *MODEL_ARGS,
        f"--mobile-model-cache={tmp_path / 'empty'}",
        "--mobile-model-replay",
        "-n",
        "2",
    )
    out = run.result.stdout.str()
    assert run.result.ret == CONFIGURATION_EXIT, out
    assert 1 <= len(run.episodes) <= 2 and all(e["termination"] == "infrastructure" for e in run.episodes)
    assert "no recorded answer" in run.episodes[0]["error"] and "--mobile-model-replay" in run.episodes[0]["error"]


MALFORMED = {
    "error-body": json.dumps({"error": {"message": "the model is overloaded", "type": "server_error"}}),
    "no-choices": json.dumps({"id": "x", "object": "chat.completion", "choices": []}),
    "not-json": "<html><body>502 Bad Gateway</body></html>",
}


@pytest.mark.parametrize("kind", sorted(MALFORMED))
def test_malformed_answers_are_retried_then_infrastructure(run_tasks, kind):
    with ModelServer(lambda request: Answer(body=MALFORMED[kind])) as server:
        args = ("-p", "no:xdist", "--mobile-model-retries=1", "--mobile-retries=0")
        run = _run(run_tasks, server, *args, sums=SUMS[:1])
    out = run.result.stdout.str()
    assert run.result.ret == 1, out  # the task failed as infrastructure; the session went on to its end
    (e,) = run.episodes
    assert e["termination"] == "infrastructure" and e["infrastructure"] and not e["success"], e
    assert "still failing after 1 retries (last: malformed" in e["error"], e
    assert len(server.requests) == 2  # asked, then retried once
    assert run.overall["episodes"] == 0 and run.overall["infrastructure_errors"] == 1
