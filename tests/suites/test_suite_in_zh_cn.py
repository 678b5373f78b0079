"""The built-in suite's gates on a zh-CN device (--mobile-locale=zh-CN): the apps show their real
zh-CN strings, the oracle follows the English golden paths through the string tables and passes
every task in the golden steps, noop fails every task, and every near miss fails as written."""

from __future__ import annotations

import pytest
import suite_runs
from test_suite_validity import collect, near_misses_per_task, run_suite

ZH = "--mobile-locale=zh-CN"


@pytest.fixture(scope="module")
def collected() -> list[str]:
    return collect("-m", "not online")


def test_oracle_passes_every_task_in_zh_cn(tmp_path, collected):
    proc, episodes = run_suite(tmp_path, "oracle", ZH, "-m", "not online", "-n", "2")
    assert proc.returncode == 0, proc.stdout[-3000:]
    assert len(episodes) == len(collected) == 100
    bad = [(e["task"], e["steps"], e["golden_steps"]) for e in episodes if not e["success"] or e["se"] != 1.0]
    assert not bad, f"tasks the oracle did not solve in zh-CN in exactly the golden steps: {bad}"


def test_noop_fails_every_task_in_zh_cn(tmp_path, collected):
    proc, episodes = run_suite(tmp_path, "noop", ZH, "-m", "not online", "-n", "2")
    assert len(episodes) == len(collected) > 0
    assert not [e["nodeid"] for e in episodes if e["success"]]


def test_near_misses_fail_in_zh_cn(tmp_path, collected):
    counts = near_misses_per_task(collected)
    proc, episodes = run_suite(tmp_path, "near-miss", ZH, "-m", "near_miss and not online", "-n", "2")
    assert len(episodes) == sum(counts.values()), proc.stdout[-3000:]
    suite_runs.assert_near_misses_fail_as_written(episodes, " in zh-CN")
