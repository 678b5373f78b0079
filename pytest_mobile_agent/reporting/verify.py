"""`python -m pytest_mobile_agent verify run.zip [--keep DIR] [--cwd DIR] [-n N]`: replay a bundle
(reporting/bundle.py) on fresh devices and say, per task, whether it is reproduced.

The bundle is checked first: a zip archive with a manifest, every file the manifest names present
with the digest it gives, nothing it does not name, each trajectory's actions as the manifest
lists them; otherwise it was damaged or tampered with (exit 2, naming the file). Its episodes
then run again in a pytest sub-process, in the directory the run was started in (--cwd), with
the run's outcome-relevant options and, when it used a model, the model answers replayed from
the bundle's cache. A task is reproduced when every step shows the agent the same screen and
the agent takes the same action, and the verdict is the same; otherwise the first difference
is named. Exit 0 when every task is reproduced, 1 otherwise.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import zipfile
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any

from pytest_mobile_agent.reporting import results
from pytest_mobile_agent.reporting.bundle import (
    FORMAT,
    MANIFEST,
    MODEL_CACHE,
    RESULTS,
    folder_of,
    sha256,
    steps_in,
    steps_of,
)

BAD_BUNDLE = 2
# Options that say where a run writes, how it spreads over processes and devices, or how it
# reaches a live endpoint: a replay sets its own, and none of them decides an outcome.
NOT_REPLAYED = frozenset(
    {
        "--devices",
        "--mobile-artifacts",
        "--mobile-results",
        "--mobile-bundle",
        "--mobile-keep-screens",
        "--mobile-shard",
        "--mobile-cpu-pinning",
        "--mobile-warm-start",
        "--mobile-prices",
        "--mobile-retries",
        "--mobile-resume",
        "--mobile-model-cache",
        "--mobile-model-replay",
        "--mobile-model-url",
        "--mobile-model-key-env",
        "--mobile-model-timeout",
        "--mobile-model-retries",
        "--mobile-ocr-cache",
    }
)


class BadBundle(Exception):
    """The archive is not a bundle, or not the one that was written: what is wrong, and where."""


@dataclass
class Verdict:
    nodeid: str
    reproduced: bool
    detail: str


def check(path: Path) -> dict[str, Any]:
    """The bundle's manifest, once every file in the archive is what the manifest says."""
    if not path.is_file():
        raise BadBundle(f"{path}: no such file")
    if not zipfile.is_zipfile(path):
        raise BadBundle(f"{path}: not a zip archive")
    with zipfile.ZipFile(path) as archive:
        names = set(archive.namelist())
        for name in names:
            parts = PurePosixPath(name).parts
            if name.startswith("/") or ".." in parts:
                raise BadBundle(f"{path}: {name}: a path outside the bundle")
        if MANIFEST not in names:
            raise BadBundle(f"{path}: no {MANIFEST}: not a bundle written by --mobile-bundle")
        try:
            manifest = json.loads(archive.read(MANIFEST))
        except ValueError as exc:
            raise BadBundle(f"{path}: {MANIFEST} is not JSON: {exc}") from exc
        if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
            raise BadBundle(f"{path}: {MANIFEST}: not a bundle manifest of format {FORMAT}")
        files: dict[str, str] = manifest.get("files") or {}
        for name, digest in files.items():
            if name not in names:
                raise BadBundle(f"{path}: {name} is missing (the manifest names it)")
            actual = sha256(archive.read(name))
            if actual != digest:
                raise BadBundle(
                    f"{path}: {name} was changed after the bundle was written (tampered): its sha256 is "
                    f"{actual[:16]}…, the manifest says {digest[:16]}…"
                )
        extra = sorted(names - set(files) - {MANIFEST} - {n for n in names if n.endswith("/")})
        if extra:
            raise BadBundle(f"{path}: {extra[0]} is not in the manifest (added after the bundle was written)")
        _check_results(path, archive, manifest)
        for episode in manifest.get("episodes") or []:
            folder = episode.get("trajectory")
            if not folder:
                continue
            name = f"{folder}/actions.jsonl"
            if name not in names:
                raise BadBundle(f"{path}: {name} is missing (episode {episode['nodeid']})")
            try:
                written = steps_in(archive.read(name).decode())
            except ValueError as exc:
                raise BadBundle(f"{path}: {name}: not JSON lines: {exc}") from exc
            if _canonical(written) != _canonical(episode.get("actions") or []):
                step = _first_difference(written, episode.get("actions") or [])
                raise BadBundle(f"{path}: {name}: step {step} is not the one the manifest lists (tampered)")
    return manifest


def _check_results(path: Path, archive: zipfile.ZipFile, manifest: dict[str, Any]) -> None:
    """The manifest's episodes are the results file's, field for field."""
    lines = archive.read(RESULTS).decode().splitlines() if RESULTS in archive.namelist() else []
    try:
        records = [r for r in map(json.loads, filter(None, lines)) if r.get("type") == "episode"]
    except (ValueError, AttributeError) as exc:
        raise BadBundle(f"{path}: {RESULTS}: not JSON lines of records: {exc}") from exc
    episodes = manifest.get("episodes") or []
    if len(records) != len(episodes):
        raise BadBundle(f"{path}: {RESULTS} holds {len(records)} episodes, the manifest {len(episodes)} (tampered)")
    for record, episode in zip(records, episodes, strict=True):
        for key in ("nodeid", "fingerprint_id", "success", "termination", "steps"):
            if record.get(key) != episode.get(key):
                raise BadBundle(
                    f"{path}: {RESULTS}: {record.get('nodeid')}: {key} is {record.get(key)!r}, "
                    f"the manifest says {episode.get(key)!r} (tampered)"
                )


def _canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False)


def _first_difference(a: list[dict[str, Any]], b: list[dict[str, Any]]) -> int:
    for i, (x, y) in enumerate(zip(a, b, strict=False)):
        if _canonical(x) != _canonical(y):
            return int(x.get("step") or i + 1)
    return min(len(a), len(b)) + 1


def to_replay(manifest: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Each task's episode to replay: its last attempt that the infrastructure did not lose."""
    out: dict[str, dict[str, Any]] = {}
    for episode in manifest.get("episodes") or []:
        if not episode.get("infrastructure"):
            out[episode["nodeid"]] = episode
    return out


def replay_command(
    manifest: dict[str, Any], nodeids: list[str], out: Path, cache: Path | None, workers: int | None
) -> list[str]:
    """The pytest command that runs the bundle's episodes again, from the run's working directory."""
    command = manifest.get("command") or {}
    rootdir = PurePosixPath(command.get("rootdir") or ".")
    args = [sys.executable, "-m", "pytest"]
    for nodeid in nodeids:
        path, sep, rest = nodeid.partition("::")
        args.append(os.path.normpath(rootdir / path) + sep + rest)
    given = list(command.get("args") or [])
    for i, arg in enumerate(given):  # the plugins the run loaded (an agent made by a plugin's hook)
        if arg == "-p" and i + 1 < len(given):
            args += ["-p", given[i + 1]]
        elif arg.startswith("-p") and len(arg) > 2:
            args.append(arg)
    for flag, value in (manifest.get("options") or {}).items():
        if flag in NOT_REPLAYED:
            continue
        args.append(flag if value is True else f"{flag}={value}")
    if cache is not None:
        args += [f"--mobile-model-cache={cache}", "--mobile-model-replay"]
    args += [f"--mobile-results={out / RESULTS}", f"--mobile-artifacts={out / 'artifacts'}", "--mobile-retries=1"]
    args += ["-p", "no:cacheprovider", "-q"]
    if workers:
        args += ["-n", str(workers)]
    return args


def replayed_episodes(out: Path) -> dict[str, dict[str, Any]]:
    """The replay's episodes by node id (the last attempt of each), with their steps."""
    found: dict[str, dict[str, Any]] = {}
    path = out / RESULTS
    if not path.exists():
        return found
    for record in results.episodes(path):
        if record.get("infrastructure"):
            continue
        record["actions"] = steps_of(folder_of(out / "artifacts", record) / "actions.jsonl")
        found[record["nodeid"]] = record
    return found


def _verdict_text(episode: dict[str, Any]) -> str:
    return f"{'passed' if episode.get('success') else 'failed'} ({episode.get('termination')})"


def _short(value: Any) -> str:
    if isinstance(value, str) and len(value) == 64:
        return value[:16] + "…"  # a digest
    return json.dumps(value, ensure_ascii=False, sort_keys=True)


def compare(recorded: dict[str, Any], replayed: dict[str, Any] | None) -> Verdict:
    """Reproduced, or the first step where the screen or the action differs, or the verdict;
    a fingerprint that differs (another version, device, agent...) is said beside either."""
    if replayed is None:
        missing = "not replayed: the replay has no episode of it (see its output above)"
        return Verdict(recorded["nodeid"], False, missing)
    verdict = _compare_steps(recorded, replayed)
    old, new = recorded.get("fingerprint_id"), replayed.get("fingerprint_id")
    if old and new and old != new:
        verdict.detail += f"; fingerprint differs: recorded {old}, replayed {new}"
    return verdict


def _compare_steps(recorded: dict[str, Any], replayed: dict[str, Any]) -> Verdict:
    nodeid = recorded["nodeid"]
    old, new = recorded.get("actions") or [], replayed.get("actions") or []
    for i in range(max(len(old), len(new))):
        if i >= len(old):
            return Verdict(
                nodeid, False, f"step {new[i]['step']}: recorded ended after {len(old)} steps, replayed went on"
            )
        if i >= len(new):
            return Verdict(
                nodeid, False, f"step {old[i]['step']}: replayed ended after {len(new)} steps, recorded went on"
            )
        a, b = old[i], new[i]
        if a.get("screen") and b.get("screen") and a["screen"] != b["screen"]:
            return Verdict(
                nodeid,
                False,
                f"step {a['step']}: screen differs: recorded {_short(a['screen'])}, replayed {_short(b['screen'])}",
            )
        if _canonical(a.get("action")) != _canonical(b.get("action")):
            return Verdict(
                nodeid,
                False,
                f"step {a['step']}: action differs: recorded {_short(a.get('action'))}, "
                f"replayed {_short(b.get('action'))}",
            )
    if (recorded.get("success"), recorded.get("termination")) != (replayed.get("success"), replayed.get("termination")):
        return Verdict(
            nodeid, False, f"verdict differs: recorded {_verdict_text(recorded)}, replayed {_verdict_text(replayed)}"
        )
    return Verdict(nodeid, True, f"{len(old)} steps, {_verdict_text(recorded)}")


def verify(bundle: Path, work: Path, cwd: Path, workers: int | None = None) -> tuple[list[Verdict], str]:
    """Check, unpack into `work`, replay; the verdict per task and the replay's output."""
    manifest = check(bundle)
    episodes = to_replay(manifest)
    options = manifest.get("options") or {}
    cache: Path | None = None
    if options.get("--mobile-model") or options.get("--mobile-judge-model"):
        if not manifest.get("model_cache"):
            raise BadBundle(f"{bundle}: the run used a model but has no model cache: its answers cannot be replayed")
        cache = work / "bundle" / MODEL_CACHE
    with zipfile.ZipFile(bundle) as archive:
        archive.extractall(work / "bundle")
    out = work / "replay"
    out.mkdir(parents=True, exist_ok=True)
    command = replay_command(manifest, list(episodes), out, cache, workers)
    proc = subprocess.run(command, cwd=cwd, capture_output=True, text=True, check=False)
    replayed = replayed_episodes(out)
    verdicts = [compare(episode, replayed.get(nodeid)) for nodeid, episode in episodes.items()]
    shown = " ".join(command[3:])
    output = f"replayed with: python -m pytest {shown}\n{proc.stdout[-4000:]}{proc.stderr[-2000:]}"
    return verdicts, output


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m pytest_mobile_agent verify",
        description="Replay a --mobile-bundle archive on fresh devices and say per task whether it is reproduced.",
    )
    parser.add_argument("bundle", type=Path, help="the zip archive --mobile-bundle wrote")
    keep_help = "unpack and replay into this folder and keep it (default: a temporary one)"
    parser.add_argument("--keep", type=Path, metavar="DIR", help=keep_help)
    cwd_help = "the directory the run was started in (default: the current one)"
    parser.add_argument("--cwd", type=Path, metavar="DIR", default=Path.cwd(), help=cwd_help)
    parser.add_argument("-n", dest="workers", type=int, metavar="N", help="replay on N devices at once (pytest-xdist)")
    args = parser.parse_args(argv)
    try:
        if args.keep is not None:
            args.keep.mkdir(parents=True, exist_ok=True)
            verdicts, output = verify(args.bundle, args.keep, args.cwd, args.workers)
        else:
            with tempfile.TemporaryDirectory(prefix="mobile-verify-") as tmp:
                verdicts, output = verify(args.bundle, Path(tmp), args.cwd, args.workers)
    except BadBundle as exc:
        print(f"bad bundle: {exc}", file=sys.stderr)
        return BAD_BUNDLE
    if not all(v.reproduced for v in verdicts):
        print(output)
    for v in verdicts:
        print(f"{'reproduced' if v.reproduced else 'diverged  '}  {v.nodeid}: {v.detail}")
    done = sum(v.reproduced for v in verdicts)
    print(f"{done} of {len(verdicts)} tasks reproduced")
    return 0 if verdicts and done == len(verdicts) else 1
