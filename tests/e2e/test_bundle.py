"""--mobile-bundle writes one archive of a run; `python -m pytest_mobile_agent verify` replays it on
fresh devices: every task reproduced, and a bundle tampered with does not verify."""

from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path
from typing import Any

import pytest
from calc_tasks import calc_tasks

from tests.model_server import ModelServer
from tests.models.golden_model import GoldenModel
from tests.models.suite_run import ROOT, SUITE, run_suite

SUMS = (("3 + 5", "3+5=", "8"), ("12 - 4", "12-4=", "8"))


def pytest_run(folder: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-p", "no:randomly", "-q", *args],
        cwd=folder,
        capture_output=True,
        text=True,
        timeout=600,
    )


def verify(bundle: Path, *args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "pytest_mobile_agent", "verify", str(bundle), *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=600,
    )


def members(bundle: Path) -> dict[str, bytes]:
    with zipfile.ZipFile(bundle) as archive:
        return {name: archive.read(name) for name in archive.namelist()}


def rewrite(bundle: Path, contents: dict[str, bytes]) -> None:
    with zipfile.ZipFile(bundle, "w") as archive:
        for name, data in contents.items():
            archive.writestr(name, data)


@pytest.fixture(scope="module")
def oracle_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, subprocess.CompletedProcess[str]]:
    """Two calculator tasks under the oracle, with --mobile-bundle and neither --mobile-artifacts
    nor --mobile-results (the bundle implies both)."""
    folder = tmp_path_factory.mktemp("bundle-run")
    (folder / "test_calc.py").write_text(calc_tasks(SUMS))
    proc = pytest_run(folder, "--agent=oracle", "--mobile-bundle=out/run.zip", "-n", "0")
    return folder, proc


def test_the_bundle_holds_the_run(oracle_run: tuple[Path, subprocess.CompletedProcess[str]]) -> None:
    folder, proc = oracle_run
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-2000:]
    assert "bundle: out/run.zip (2 episodes)" in proc.stdout
    files = members(folder / "out" / "run.zip")
    manifest = json.loads(files.pop("manifest.json"))
    # Every other file, with its digest.
    assert set(manifest["files"]) == set(files)
    assert all(hashlib.sha256(files[n]).hexdigest() == d for n, d in manifest["files"].items())
    lines = [json.loads(line) for line in files["results.jsonl"].splitlines()]
    assert [r["type"] for r in lines] == ["episode", "episode", "aggregate"]
    # The command line as the controller saw it, relative to where it ran.
    command = manifest["command"]
    assert "--mobile-bundle=out/run.zip" in command["args"] and command["cwd"] == "."
    assert command["python"] == ".".join(map(str, sys.version_info[:3]))
    assert manifest["options"]["--agent"] == "oracle" and manifest["model_cache"] is None
    # The folders the bundle chose for itself are not the run's options.
    assert not {"--mobile-artifacts", "--mobile-results"} & set(manifest["options"])
    episodes = manifest["episodes"]
    assert sorted(e["nodeid"] for e in episodes) == sorted(r["nodeid"] for r in lines[:2])
    for episode, record in zip(episodes, lines[:2], strict=True):
        assert (episode["success"], episode["steps"]) == (True, record["steps"])
        assert "fingerprint_id" in episode
        folder_name = episode["trajectory"]
        written = [json.loads(line) for line in files[f"{folder_name}/actions.jsonl"].splitlines()]
        assert [{"step": w["step"], "action": w["action"], "screen": w["screen"]} for w in written] == episode[
            "actions"
        ]
        assert len(episode["actions"]) == record["steps"] == len(written)
        # One screen per step, each a different one (every key press changes the display)...
        screens = [a["screen"] for a in episode["actions"]]
        assert all(len(s) == 64 for s in screens) and len(set(screens)) == len(screens)
        # ...and the report's screenshots of every step.
        assert {f"{folder_name}/step-{i:03d}.png" for i in range(record["steps"] + 1)} <= set(files)
    # Both tasks start from the same reset screen.
    assert episodes[0]["actions"][0]["screen"] == episodes[1]["actions"][0]["screen"]


def test_verify_reproduces_every_task(oracle_run: tuple[Path, subprocess.CompletedProcess[str]], tmp_path) -> None:
    folder, _ = oracle_run
    proc = verify(folder / "out" / "run.zip", "--keep", str(tmp_path / "kept"), cwd=folder)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-2000:]
    assert proc.stdout.count("reproduced  test_calc.py::test_arithmetic") == 2
    assert "2 of 2 tasks reproduced" in proc.stdout
    # The replay wrote its own results and trajectories into the kept folder.
    assert len([r for r in map(json.loads, (tmp_path / "kept/replay/results.jsonl").read_text().splitlines())]) == 3


def test_a_changed_action_is_a_divergence_at_its_step(oracle_run, tmp_path) -> None:
    """An action changed in actions.jsonl and in the manifest, digests updated: the bundle is
    consistent, and the replay shows that step was not what the agent did."""
    folder, _ = oracle_run
    bundle = tmp_path / "run.zip"
    shutil.copy(folder / "out" / "run.zip", bundle)
    files = members(bundle)
    manifest = json.loads(files["manifest.json"])
    episode = next(e for e in manifest["episodes"] if "3+5" in e["nodeid"])
    name = f"{episode['trajectory']}/actions.jsonl"
    lines = [json.loads(line) for line in files[name].splitlines()]
    assert lines[2]["action"] == {"action": "tap", "selector": {"text": "5"}}
    lines[2]["action"] = episode["actions"][2]["action"] = {"action": "tap", "selector": {"text": "6"}}
    files[name] = ("\n".join(json.dumps(line) for line in lines) + "\n").encode()
    manifest["files"][name] = hashlib.sha256(files[name]).hexdigest()
    files["manifest.json"] = json.dumps(manifest).encode()
    rewrite(bundle, files)
    proc = verify(bundle, cwd=folder)
    assert proc.returncode == 1, proc.stdout[-3000:] + proc.stderr[-2000:]
    diverged = [line for line in proc.stdout.splitlines() if line.startswith("diverged")]
    assert len(diverged) == 1 and "3 + 5" in diverged[0], proc.stdout
    assert 'step 3: action differs: recorded {"action": "tap", "selector": {"text": "6"}}' in diverged[0]
    assert 'replayed {"action": "tap", "selector": {"text": "5"}}' in diverged[0]
    assert "1 of 2 tasks reproduced" in proc.stdout


def test_a_file_changed_behind_the_manifest_is_tampering(oracle_run, tmp_path) -> None:
    folder, _ = oracle_run
    bundle = tmp_path / "run.zip"
    files = members(folder / "out" / "run.zip")
    name = next(n for n in files if n.endswith("step-002.png"))
    files[name] = files[name][:-1] + bytes([files[name][-1] ^ 1])
    rewrite(bundle, files)
    proc = verify(bundle, cwd=folder)
    assert proc.returncode == 2
    assert f"{name} was changed after the bundle was written (tampered)" in proc.stderr
    assert "reproduced" not in proc.stdout  # nothing was replayed


def test_a_bundle_under_xdist(tmp_path: Path) -> None:
    """Workers write the trajectories into the folder the controller chose; the controller
    bundles them all."""
    (tmp_path / "test_calc.py").write_text(calc_tasks())
    proc = pytest_run(tmp_path, "--agent=random", "--mobile-seed=7", "--mobile-bundle=run.zip", "-n", "2")
    assert proc.returncode in (0, 1), proc.stdout[-3000:] + proc.stderr[-2000:]
    manifest: dict[str, Any] = json.loads(members(tmp_path / "run.zip")["manifest.json"])
    assert len(manifest["episodes"]) == 4 and all(e["trajectory"] and e["actions"] for e in manifest["episodes"])
    proc = verify(tmp_path / "run.zip", "-n", "2", cwd=tmp_path)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-2000:]
    assert "4 of 4 tasks reproduced" in proc.stdout


def test_a_model_run_verifies_from_its_cache(tmp_path: Path) -> None:
    """A t3a run against a scripted model, bundled with its model cache, replays with the
    model server stopped."""
    rec = tmp_path / "record"
    rec.mkdir()
    bundle, cache = tmp_path / "run.zip", tmp_path / "cache"
    with ModelServer(GoldenModel(rec)) as server:
        proc, recorded = run_suite(
            "t3a",
            server.url,
            rec,
            f"{SUITE / 'test_calculator.py'}::test_calculator_mixed",
            f"--mobile-model-cache={cache}",
            f"--mobile-bundle={bundle}",
            "-p",
            "tests.models.golden_export",
            env={"MOBILE_GOLDEN_DIR": str(rec)},
        )
    assert recorded and all(r["success"] for r in recorded), proc.stdout[-3000:] + proc.stderr[-2000:]
    manifest = json.loads(members(bundle)["manifest.json"])
    assert manifest["model_cache"] == "model-cache"
    cached = {n for n in manifest["files"] if n.startswith("model-cache/")}
    assert len(cached) == len([p for p in cache.rglob("*.json")]) > 0
    proc = verify(bundle, cwd=ROOT)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-2000:]
    assert f"{len(recorded)} of {len(recorded)} tasks reproduced" in proc.stdout
