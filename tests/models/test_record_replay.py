"""Record a run's model traffic, replay it with the server stopped: the same results. The key,
set in the environment, reaches the server and no file the run wrote."""

from __future__ import annotations

from pathlib import Path

from tests.model_server import ModelServer
from tests.models.golden_model import GoldenModel
from tests.models.suite_run import SUITE, run_suite

KEY = "sk-never-write-me-7f3a9c1e5b"
SAME = (
    "nodeid",
    "success",
    "steps",
    "success_step",
    "termination",
    "tokens_in",
    "tokens_out",
    "invalid_steps",
    "model_calls",
)


def test_record_then_replay_with_the_server_stopped(tmp_path: Path) -> None:
    cache, rec, rep = tmp_path / "cache", tmp_path / "record", tmp_path / "replay"
    rec.mkdir(), rep.mkdir()
    golden = GoldenModel(rec)
    files = [str(SUITE / "test_calculator.py"), str(SUITE / "test_contacts.py")]
    env = {"MOBILE_GOLDEN_DIR": str(rec), "MOBILE_TEST_KEY": KEY}
    with ModelServer(golden) as server:
        proc, recorded = run_suite(
            "m3a",
            server.url,
            rec,
            *files,
            "-n",
            "2",
            f"--mobile-model-cache={cache}",
            "--mobile-model-key-env=MOBILE_TEST_KEY",
            f"--mobile-artifacts={rec / 'artifacts'}",
            f"--alluredir={rec / 'allure'}",
            "-p",
            "tests.models.golden_export",
            env=env,
        )
        assert recorded and all(r["success"] for r in recorded), proc.stdout[-3000:] + proc.stderr[-2000:]
        assert set(server.authorizations) == {f"Bearer {KEY}"}  # the key was used...
    # ...and is in no file the run wrote: results, trajectories, Allure results, the model cache.
    written = [p for p in tmp_path.rglob("*") if p.is_file()]
    assert any(p.suffix == ".json" for p in cache.rglob("*"))
    leaks = [str(p) for p in written if KEY.encode() in p.read_bytes()]
    assert not leaks, leaks
    # The Allure steps carry the model's reasoning.
    assert any(b"of the way there" in p.read_bytes() for p in (rec / "allure").iterdir())

    proc, replayed = run_suite(
        "m3a",
        None,
        rep,
        *files,
        "-n",
        "2",
        f"--mobile-model-cache={cache}",
        "--mobile-model-replay",
        env={"OPENAI_BASE_URL": "http://127.0.0.1:9/v1"},
    )
    key = lambda r: r["nodeid"]  # noqa: E731
    assert [tuple(r[k] for k in SAME) for r in sorted(replayed, key=key)] == [
        tuple(r[k] for k in SAME) for r in sorted(recorded, key=key)
    ], proc.stdout[-3000:]
    assert all(r["model_cached"] == r["model_calls"] > 0 for r in replayed)
    assert [r["cost_usd"] for r in sorted(replayed, key=key)] == [r["cost_usd"] for r in sorted(recorded, key=key)]


def test_a_replay_miss_is_a_clear_error(tmp_path: Path) -> None:
    proc, records = run_suite(
        "t3a",
        None,
        tmp_path,
        str(SUITE / "test_calculator.py"),
        "-k",
        "mixed",
        f"--mobile-model-cache={tmp_path / 'empty'}",
        "--mobile-model-replay",
    )
    # A configuration error: the session stops at the first miss, never blaming the agent.
    assert proc.returncode == 6, proc.stdout[-3000:]
    assert len(records) == 1 and records[0]["termination"] == "infrastructure", records
    assert "no recorded answer" in records[0]["error"] and "--mobile-model-cache" in records[0]["error"]
