"""Who holds a worker's control, the harness or the agent: one byte per xdist worker in a
folder the controller names, so that when a worker dies the controller can tell the agent's
crash (its code was running: `os._exit`, a segfaulting library, memory exhausted) from the
infrastructure's (the harness was driving the device)."""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

CONTROL_INPUT = "mobile_agent_control"  # in each worker's workerinput: the folder
AGENT, HARNESS = b"A", b"H"


def make_folder() -> str:
    """The controller's folder for its workers' bytes (0700: mkdtemp's own mode)."""
    return tempfile.mkdtemp(prefix="pma-control-")


def remove_folder(folder: str) -> None:
    shutil.rmtree(folder, ignore_errors=True)


class AgentControl:
    """A worker's byte: AGENT while the agent's code runs, HARNESS otherwise. One pwrite per
    change, on a file kept open (a step costs two system calls)."""

    def __init__(self, folder: str, workerid: str) -> None:
        self.fd = os.open(Path(folder, workerid), os.O_CREAT | os.O_WRONLY, 0o600)
        self(False)

    def __call__(self, agent: bool) -> None:
        os.pwrite(self.fd, AGENT if agent else HARNESS, 0)


def held_by_agent(folder: str | None, workerid: str) -> bool:
    """Whether the agent held control of `workerid` when it last wrote (when it died)."""
    if not folder:
        return False
    try:
        return Path(folder, workerid).read_bytes()[:1] == AGENT
    except OSError:
        return False
