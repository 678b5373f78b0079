"""Which benchmark a file on pytest's path belongs to, and the collector that reads it."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from pytest_mobile_agent.formats import mobileagentbench, mobilebench, spabench


@dataclass(frozen=True)
class TaskFileFormat:
    benchmark: str
    claims: Callable[[Path, bool], bool]  # (path, named on the command line) -> a file of this format
    collector: type[pytest.File]


def _mobileagentbench_file(path: Path, explicit: bool) -> bool:
    # One named on the command line is a module to pytest: pytest_pycollect_makemodule takes it.
    return not explicit and mobileagentbench.is_task_file(path)


FORMATS = (
    TaskFileFormat("MobileAgentBench", _mobileagentbench_file, mobileagentbench.MobileAgentBenchFile),
    TaskFileFormat("SPA-Bench", spabench.is_task_file, spabench.SpaBenchFile),
    TaskFileFormat("Mobile-Bench", mobilebench.is_task_file, mobilebench.MobileBenchFile),
)


def collect_file(file_path: Path, parent: pytest.Collector) -> pytest.Collector | None:
    """The collector of the first format that claims the file, else None (pytest's own)."""
    explicit = parent.session.isinitpath(file_path)
    for fmt in FORMATS:
        if fmt.claims(file_path, explicit):
            return fmt.collector.from_parent(parent, path=file_path)
    return None
