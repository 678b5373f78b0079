"""`--mobile-resume`: finish an interrupted run in its own results file, nothing run twice.

- Start (pytest alone, or the xdist controller, before any worker starts): the file's episode
  lines are kept; its aggregate (written again at the end) and any line a killed process left
  half-written are dropped, so that what is appended stays valid JSON lines (`start`).
- Collection (every process that collects): an item is deselected when the file holds a
  counted record of its node id (not an infrastructure failure, not cut short by Ctrl-C) with
  the same fingerprint as far as it is known before a device is up: everything but the device
  facts (`fingerprint.run_part`). A task whose file, agent, model, seed or options changed
  runs again. This runs after -k, -m and --mobile-shard's split, so a shard resumes its own.
- End (`Resume.finish`): the earlier records of the tasks that ran again (cut short, lost to
  the infrastructure, or stale) move to `NAME.superseded.EXT`; the aggregate covers the earlier
  records kept and this run's, as one uninterrupted run's would. When the kept earlier records
  ran on a device whose facts differ from this run's device (another Android version, another
  app version), the terminal says which facts differ: such a resume mixes two conditions.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from pytest_mobile_agent.errors import INTERRUPTED
from pytest_mobile_agent.reporting import fingerprint, results
from pytest_mobile_agent.tasks import TASK_KEY

DONE_KEY = pytest.StashKey[tuple[int, int]]()  # (items deselected, items left) in this process


def counted(record: dict[str, Any]) -> bool:
    """A record that stands for its task's outcome: not lost to the infrastructure, not cut short."""
    return not record.get("infrastructure") and record.get("termination") != INTERRUPTED


def superseded_path(path: Path) -> Path:
    return path.with_name(f"{path.stem}.superseded{path.suffix or '.jsonl'}")


@dataclass
class Resume:
    """The controller's view of a resumed results file."""

    path: Path
    earlier: list[dict[str, Any]] = field(default_factory=list)  # the episode lines found at the start
    dropped_lines: int = 0  # half-written (or otherwise unreadable) lines dropped at the start
    message: str = ""  # "N episodes already in FILE, M to run", once known

    @classmethod
    def start(cls, path: Path) -> Resume:
        """Read the file and rewrite it with its episode lines only (atomically)."""
        resume = cls(path)
        if not path.exists():
            return resume
        lines: list[str] = []
        for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
            if not line.strip():
                continue
            try:
                record = json.loads(line)
            except ValueError:
                resume.dropped_lines += 1
                continue
            if isinstance(record, dict) and record.get("type") == "episode":
                resume.earlier.append(record)
                lines.append(line)
        temporary = path.with_name(path.name + ".resuming")
        temporary.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
        os.replace(temporary, path)
        return resume

    @property
    def done(self) -> set[str]:
        return {r["nodeid"] for r in self.earlier if counted(r)}

    def tell(self, already: int, left: int) -> None:
        self.message = f"{already} episodes already in {os.fspath(self.path)}, {left} to run"

    def collected(self, ids: list[str]) -> None:
        """Under xdist, the controller learns what its first worker will run (it collects nothing):
        what is done is what the file holds and the worker did not collect."""
        if not self.message:
            self.tell(len(self.done - set(ids)), len(ids))

    def finish(self, records: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """The earlier records kept (their tasks did not run again), then this run's; the file
        is rewritten so (superseded lines moved aside). `records`: this run's."""
        ran = {r["nodeid"] for r in records}
        kept = [r for r in self.earlier if r["nodeid"] not in ran]
        superseded = [r for r in self.earlier if r["nodeid"] in ran]
        if superseded and self.path.exists():
            identities = {results.identity(r) for r in superseded}
            lines = self.path.read_text(encoding="utf-8").splitlines(keepends=True)
            stays = [line for line in lines if not _line_in(line, identities)]
            with open(superseded_path(self.path), "a", encoding="utf-8") as aside:
                aside.writelines(line for line in lines if _line_in(line, identities))
            temporary = self.path.with_name(self.path.name + ".resuming")
            temporary.write_text("".join(stays), encoding="utf-8")
            os.replace(temporary, self.path)
        return kept + records

    def summary_lines(self, records: list[dict[str, Any]]) -> list[str]:
        ran = {r["nodeid"] for r in records}
        kept = [r for r in self.earlier if r["nodeid"] not in ran]
        superseded = len(self.earlier) - len(kept)
        lines = [f"resumed: {len(kept)} earlier episodes kept, {len(records)} run now"]
        if superseded:
            lines[0] += f"; {superseded} earlier records of tasks run again moved to {superseded_path(self.path)}"
        if self.dropped_lines:
            lines.append(f"resumed: dropped {self.dropped_lines} half-written line(s) from {self.path}")
        differs = device_differences(kept, records)
        if differs:
            lines.append(
                "resumed onto a device that differs from the earlier episodes' (" + ", ".join(differs) + "): "
                "the results mix two conditions"
            )
        return lines


def _line_in(line: str, identities: set[str]) -> bool:
    try:
        record = json.loads(line)
    except ValueError:
        return False
    return isinstance(record, dict) and results.identity(record) in identities


def device_differences(earlier: list[dict[str, Any]], now: list[dict[str, Any]]) -> list[str]:
    """The device facts (and app versions) that differ between two sets of records, as
    "device.android: 13 -> 14"; facts one side does not know are left out."""

    def facts(records: list[dict[str, Any]]) -> dict[str, set[str]]:
        out: dict[str, set[str]] = {}
        for record in records:
            print_ = record.get("fingerprint") or {}
            for part in fingerprint.DEVICE_PARTS:
                for key, value in (print_.get(part) or {}).items():
                    out.setdefault(f"{part}.{key}", set()).add(json.dumps(value, sort_keys=True))
        return out

    before, after = facts(earlier), facts(now)
    return [
        f"{key}: {', '.join(sorted(before[key]))} -> {', '.join(sorted(after[key]))}"
        for key in sorted(before.keys() & after.keys())
        if before[key] != after[key]
    ]


class Deselection:
    """Registered in every process that collects when --mobile-resume is given."""

    def __init__(self, path: Path) -> None:
        self.path = path

    @pytest.hookimpl(wrapper=True)  # after every other implementation: -k, -m, the shard split
    def pytest_collection_modifyitems(self, config: pytest.Config, items: list[pytest.Item]) -> Any:
        result = yield
        deselect(config, items, self.path)
        return result


def deselect(config: pytest.Config, items: list[pytest.Item], path: Path) -> None:
    """Deselect the items the file already holds a counted record of, with the same
    fingerprint but for the device facts (see the module docstring)."""
    done: dict[str, set[str]] = {}
    if path.exists():
        for record in results.episodes(path):
            if counted(record) and record.get("fingerprint"):
                done.setdefault(record["nodeid"], set()).add(fingerprint.run_part(record["fingerprint"]))
    keep, dropped = [], []
    for item in items:
        wanted = done.get(item.nodeid)
        if wanted and TASK_KEY in item.stash and fingerprint.run_part(fingerprint.of_item(item)) in wanted:
            dropped.append(item)
        else:
            keep.append(item)
    config.stash[DONE_KEY] = (len(dropped), len(keep))
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        items[:] = keep
