"""The results file (`--mobile-results PATH`): one JSON line per episode, appended as each
episode finishes (by whichever process ran it), then the aggregate when the session ends.

Lines are appended under an exclusive lock, so xdist workers never interleave; a crash loses
nothing that had finished.
"""

from __future__ import annotations

import fcntl
import json
from pathlib import Path
from typing import Any

from pytest_mobile_agent.redaction import redact


def append(path: str | Path, record: dict[str, Any]) -> None:
    line = (redact(json.dumps(record, default=str, ensure_ascii=False)) + "\n").encode()
    with open(path, "ab") as f:
        fcntl.flock(f, fcntl.LOCK_EX)
        try:
            f.write(line)
            f.flush()
        finally:
            fcntl.flock(f, fcntl.LOCK_UN)


def read(path: str | Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in Path(path).read_text().splitlines() if line.strip()]


def episodes(path: str | Path) -> list[dict[str, Any]]:
    """The episode lines of a results file that may still be open: a last line a killed
    process left half-written is skipped."""
    out = []
    for line in Path(path).read_text().splitlines():
        try:
            record = json.loads(line)
        except ValueError:
            continue
        if isinstance(record, dict) and record.get("type") == "episode":
            out.append(record)
    return out


def identity(record: dict[str, Any]) -> str:
    """What tells two copies of one episode's record apart from two episodes: its fields as
    written (the trajectory folder left out: a merged or moved run names it elsewhere)."""
    return json.dumps({k: v for k, v in record.items() if k != "artifacts"}, default=str, sort_keys=True)
