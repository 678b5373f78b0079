"""Task files, agents and result-file readers shared by the report tests."""

from __future__ import annotations

import base64
import json
import re
import subprocess
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from calc_tasks import SUMS, calc_tasks

# Six sums: the mixed agent below gives each one a different outcome.
CALC_TASKS = calc_tasks((*SUMS, ("7 + 2", "7+2=", "9"), ("9 - 1", "9-1=", "8")))

# One behaviour per task, chosen from the prompt, so one session shows every failure kind.
MIXED_AGENT = """
import pytest
from pytest_mobile_agent import Done, Tap

POOL = []
KILLED = []


@pytest.fixture(autouse=True)
def _remember_pool(mobile_pool):
    POOL[:] = [mobile_pool]


class Mixed:
    name, model = "mixed", "gpt-4o"
    api_key = "sk-test-DO-NOT-LEAK-0123456789"

    def step(self, observation):
        prompt, i = observation.prompt, len(observation.history)
        golden = observation.task.golden
        if "3 + 5" in prompt:  # passes, with reasoning
            if i == len(golden):
                return Done()
            return {"action": "tap", "text": golden[i].selector.text, "reasoning": f"press key {i + 1} of the sum"}
        if "12 × 4" in prompt:  # premature, too few steps: done before doing anything
            return Done()
        if "3 ^ 3" in prompt:  # premature, wrong final state: computes 3^2 and says done
            return Tap(text="3^2="[i]) if i < 4 else Done()
        if "12 - 4" in prompt:  # step budget exhausted, after one invalid action
            return {"action": "tap", "text": "no such key"} if i == 0 else Tap(text="1")
        if "7 + 2" in prompt:  # agent error at step 2
            if i == 1:
                raise RuntimeError("model output unparsable")
            return Tap(text="7")
        if "9 - 1" in prompt:  # infrastructure: the phone's cable pulled at step 2 (once a process)
            if i == 1 and not KILLED:
                KILLED.append(POOL[0].device.serial)
                POOL[0]._virtual.kill()
            return golden[i] if i < len(golden) else Done()
        raise AssertionError(f"no behaviour for {prompt!r}")


def pytest_mobile_agent_make_agent(config, name):
    return Mixed() if name == "mixed" else None
"""

# Computes 3 + 6 where 3 + 5 was asked, then says done: a failed case with step screenshots.
WRONG_AGENT = """
from pytest_mobile_agent import Done, Tap


class Agent:
    name = "off-by-one"

    def step(self, observation):
        keys = "3+6="
        i = len(observation.history)
        return Tap(text=keys[i]) if i < len(keys) else Done()
"""


def allure_results(directory: Path) -> list[dict]:
    return [json.loads(p.read_text()) for p in sorted(directory.glob("*-result.json"))]


def by_title(results: list[dict]) -> dict[str, dict]:
    """Results by the prompt they carry as title (the expression inside the quotes)."""
    return {r["name"].split("'")[1]: r for r in results}


def labels(result: dict) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for label in result["labels"]:
        out.setdefault(label["name"], []).append(label["value"])
    return out


def params(result: dict) -> dict[str, dict]:
    return {p["name"]: p for p in result["parameters"]}


def walk_steps(steps: list[dict]):
    for step in steps:
        yield step
        yield from walk_steps(step.get("steps", []))


# -- the HTML report -------------------------------------------------------------------------------
CHROMIUM = "/usr/bin/chromium"
# Headless, nothing fetched from outside (every host name but this machine's resolves to nothing,
# so no request can leave it).
CHROMIUM_FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",  # only a report served here
    "--virtual-time-budget=15000",  # let the report's scripts render before the dump/screenshot
)


def generate_report(results: Path, output: Path, *args: str) -> Path:
    """`python -m pytest_mobile_agent.reporting` as a person runs it; returns index.html."""
    done = subprocess.run(
        [sys.executable, "-m", "pytest_mobile_agent.reporting", str(results), "-o", str(output), *args],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    index = Path(done.stdout.strip().splitlines()[-1])
    assert index == output / "index.html" and index.exists()
    return index


def report_files(index: Path) -> dict[str, bytes]:
    """The data files a single-file Allure 3 report carries inside its index.html."""
    html = index.read_text(encoding="utf-8")
    return {m.group(1): base64.b64decode(m.group(2)) for m in re.finditer(r'd\("([^"]+)","([^"]*)"\)', html)}


def report_categories(index: Path) -> dict[str, set[str]]:
    """Allure 3's failure categories in a report: category name -> the case titles in it."""
    tree = json.loads(report_files(index)["widgets/categories.json"])
    nodes = tree["nodes"]

    def cases(node_id: str) -> set[str]:
        node = nodes[node_id]
        if node["type"] == "tr":
            return {node["name"]}
        return set().union(*(cases(c) for c in node.get("childrenIds", [])))

    return {nodes[root]["name"]: cases(root) for root in tree["roots"]}


def chromium(url: str, profile: Path, *args: str, timeout: float = 120) -> subprocess.CompletedProcess:
    """Debian's chromium, headless, with a fresh profile."""
    return subprocess.run(
        [CHROMIUM, *CHROMIUM_FLAGS, f"--user-data-dir={profile}", *args, url],
        capture_output=True,
        text=True,
        timeout=timeout,
    )


class _QuietHandler(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:  # noqa: A002
        pass


@contextmanager
def serve(directory: Path) -> Iterator[str]:
    """A multi-file report served over HTTP on this machine, as `python -m http.server` does;
    yields its base address."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), partial(_QuietHandler, directory=str(directory)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()
