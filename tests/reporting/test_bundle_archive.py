"""A bundle's archive as reporting/bundle.py writes it, and what reporting/verify.py makes of it
before any replay: a damaged or tampered archive is named, the replay command carries the run's
outcome options, and two trajectories are compared step by step."""

from __future__ import annotations

import hashlib
import json
import logging
import os
import zipfile
from pathlib import Path
from typing import Any

import pytest

from pytest_mobile_agent import redaction
from pytest_mobile_agent.reporting import bundle
from pytest_mobile_agent.reporting.verify import BadBundle, check, compare, replay_command

NODEID = "tests/test_calc.py::test_add[3 + 5]"
ACTIONS = [
    {"step": 1, "action": {"action": "tap", "selector": {"text": "3"}}, "screen": "a" * 64},
    {"step": 2, "action": {"action": "tap", "selector": {"text": "+"}}, "screen": "b" * 64},
]


def a_run(tmp_path: Path, *, secret: str = "") -> Path:
    """A results file, a trajectory folder and a model cache, as a run leaves them; the archive."""
    results = tmp_path / "results.jsonl"
    record = {"type": "episode", "nodeid": NODEID, "success": True, "termination": "completed", "steps": 2}
    record |= {"fingerprint_id": "0123456789abcdef", "error": secret or None}
    results.write_text(json.dumps(record) + "\n" + json.dumps({"type": "aggregate"}) + "\n")
    folder = tmp_path / "artifacts" / bundle.trajectory.slug(NODEID)
    folder.mkdir(parents=True)
    (folder / "actions.jsonl").write_text("".join(json.dumps({**a, "valid": True}) + "\n" for a in ACTIONS))
    (folder / "step-000.png").write_bytes(b"\x89PNG first")
    cache = tmp_path / "cache" / "ab"
    cache.mkdir(parents=True)
    (cache / "ab12.json").write_text('{"response": {}}')
    (cache / "cd34.json.tmp").write_text("half")  # a write under way: not part of the record
    target = tmp_path / "run.zip"
    bundle.write(
        target,
        results_file=results,
        artifacts=tmp_path / "artifacts",
        model_cache=tmp_path / "cache",
        command={"argv": ["pytest", f"--token={secret}"], "args": [], "cwd": ".", "rootdir": "."},
        options={"--agent": "oracle"},
    )
    return target


def members(path: Path) -> dict[str, bytes]:
    with zipfile.ZipFile(path) as archive:
        return {name: archive.read(name) for name in archive.namelist()}


def rewrite(path: Path, contents: dict[str, bytes]) -> Path:
    with zipfile.ZipFile(path, "w") as archive:
        for name, data in contents.items():
            archive.writestr(name, data)
    return path


def test_the_archive_and_its_manifest(tmp_path: Path) -> None:
    files = members(a_run(tmp_path))
    folder = f"trajectories/{bundle.trajectory.slug(NODEID)}"
    assert set(files) == {
        "manifest.json",
        "results.jsonl",
        f"{folder}/actions.jsonl",
        f"{folder}/step-000.png",
        "model-cache/ab/ab12.json",
    }
    manifest = json.loads(files["manifest.json"])
    assert manifest["episodes"] == [
        {
            "nodeid": NODEID,
            "fingerprint_id": "0123456789abcdef",
            "success": True,
            "termination": "completed",
            "infrastructure": False,
            "steps": 2,
            "trajectory": folder,
            "actions": ACTIONS,
        }
    ]
    assert manifest["files"]["results.jsonl"] == hashlib.sha256(files["results.jsonl"]).hexdigest()
    assert check(tmp_path / "run.zip") == manifest


def test_the_key_is_in_no_file_of_the_archive(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(redaction, "_secrets", set())
    monkeypatch.setattr(logging, "_logRecordFactory", logging.getLogRecordFactory())  # restored after
    secret = "sk-bundle-0123456789abcdef"
    redaction.register(secret)
    path = a_run(tmp_path, secret=secret)
    assert not [name for name, data in members(path).items() if secret.encode() in data]
    assert b"--token=[REDACTED]" in members(path)["manifest.json"]
    check(path)  # the digests are those of the redacted files


@pytest.mark.parametrize(
    "damage, message",
    [
        (lambda files: {"x": b"not a zip"}, "not a zip archive"),
        (lambda files: {k: v for k, v in files.items() if k != "manifest.json"}, "no manifest.json"),
        (lambda files: {k: v for k, v in files.items() if k != "results.jsonl"}, "results.jsonl is missing"),
        (lambda files: {**files, "results.jsonl": files["results.jsonl"] + b"\n"}, "results.jsonl was changed"),
        (lambda files: {**files, "trajectories/extra.png": b"x"}, "trajectories/extra.png is not in the manifest"),
        (lambda files: {**files, "../evil": b"x"}, "../evil: a path outside the bundle"),
    ],
    ids=["not-a-zip", "no-manifest", "missing", "changed", "unlisted", "outside"],
)
def test_a_damaged_bundle_is_named(tmp_path: Path, damage: Any, message: str) -> None:
    path = a_run(tmp_path)
    changed = damage(members(path))
    if set(changed) == {"x"}:
        path.write_bytes(changed["x"])
    else:
        rewrite(path, changed)
    with pytest.raises(BadBundle, match=message.replace(".", r"\.").replace("(", r"\(")):
        check(path)


def test_actions_that_disagree_with_the_manifest_are_tampering(tmp_path: Path) -> None:
    """actions.jsonl changed and its digest updated, the manifest's steps left as they were."""
    path = a_run(tmp_path)
    files = members(path)
    manifest = json.loads(files["manifest.json"])
    name = f"trajectories/{bundle.trajectory.slug(NODEID)}/actions.jsonl"
    files[name] = files[name].replace(b'"+"', b'"-"')
    manifest["files"][name] = hashlib.sha256(files[name]).hexdigest()
    files["manifest.json"] = json.dumps(manifest).encode()
    with pytest.raises(BadBundle, match=r"actions\.jsonl: step 2 is not the one the manifest lists \(tampered\)"):
        check(rewrite(path, files))


def episode(actions: list[dict[str, Any]], success: bool = True, termination: str = "completed") -> dict[str, Any]:
    return {"nodeid": NODEID, "actions": actions, "success": success, "termination": termination}


def test_compare_names_the_first_difference() -> None:
    recorded = episode(ACTIONS)
    assert compare(recorded, episode(ACTIONS)).reproduced
    other_screen = [ACTIONS[0], {**ACTIONS[1], "screen": "c" * 64}]
    verdict = compare(recorded, episode(other_screen))
    assert not verdict.reproduced
    assert verdict.detail == f"step 2: screen differs: recorded {'b' * 16}…, replayed {'c' * 16}…"
    other_action = [{**ACTIONS[0], "action": {"action": "back"}}, ACTIONS[1]]
    assert compare(recorded, episode(other_action)).detail.startswith(
        'step 1: action differs: recorded {"action": "tap", "selector": {"text": "3"}}, replayed {"action": "back"}'
    )
    assert compare(recorded, episode(ACTIONS[:1])).detail == "step 2: replayed ended after 1 steps, recorded went on"
    assert compare(recorded, episode(ACTIONS, False, "max_steps")).detail == (
        "verdict differs: recorded passed (completed), replayed failed (max_steps)"
    )
    assert compare(recorded, None).detail.startswith("not replayed")


def test_the_replay_command(tmp_path: Path) -> None:
    manifest = {
        "command": {"args": ["-p", "my_plugin", "-pother", "-n", "4"], "rootdir": ".."},
        "options": {
            "--agent": "t3a",
            "--mobile-model": "gpt-4o",
            "--mobile-seed": 3,
            "--mobile-results": "/old/results.jsonl",
            "--mobile-model-url": "https://example.invalid/v1",
            "--some-flag": True,
        },
    }
    args = replay_command(manifest, [NODEID], tmp_path, tmp_path / "cache", None)[3:]
    assert args[:4] == ["../tests/test_calc.py::test_add[3 + 5]", "-p", "my_plugin", "-pother"]
    assert {"--agent=t3a", "--mobile-model=gpt-4o", "--mobile-seed=3", "--some-flag"} <= set(args)
    assert {f"--mobile-model-cache={tmp_path / 'cache'}", "--mobile-model-replay"} <= set(args)
    assert f"--mobile-results={tmp_path / 'results.jsonl'}" in args
    assert not [a for a in args if "/old/" in a or "example.invalid" in a or a == "4"]


def test_a_results_file_that_disagrees_with_the_manifest_is_tampering(tmp_path: Path) -> None:
    """A verdict changed in results.jsonl, its digest updated, the manifest's episode left."""
    path = a_run(tmp_path)
    files = members(path)
    manifest = json.loads(files["manifest.json"])
    files["results.jsonl"] = files["results.jsonl"].replace(b'"success": true', b'"success": false')
    manifest["files"]["results.jsonl"] = hashlib.sha256(files["results.jsonl"]).hexdigest()
    files["manifest.json"] = json.dumps(manifest).encode()
    with pytest.raises(BadBundle, match=r"results\.jsonl: .*: success is False, the manifest says True \(tampered\)"):
        check(rewrite(path, files))


def test_a_fingerprint_that_differs_is_said() -> None:
    recorded = {**episode(ACTIONS), "fingerprint_id": "0123456789abcdef"}
    verdict = compare(recorded, {**episode(ACTIONS), "fingerprint_id": "fedcba9876543210"})
    assert verdict.reproduced
    assert verdict.detail.endswith("; fingerprint differs: recorded 0123456789abcdef, replayed fedcba9876543210")
    assert "fingerprint" not in compare(recorded, {**episode(ACTIONS), "fingerprint_id": "0123456789abcdef"}).detail


def test_the_archive_is_made_as_any_file_the_user_writes(tmp_path: Path) -> None:
    umask = os.umask(0o022)
    os.umask(umask)
    path = a_run(tmp_path)
    assert path.stat().st_mode & 0o777 == 0o666 & ~umask
    assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")] == []
