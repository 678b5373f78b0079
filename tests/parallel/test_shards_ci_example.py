"""The sharded CI example: its matrix and its --mobile-shard agree, and the merge job merges every
shard's results with the merge command's real options."""

from __future__ import annotations

import re
from pathlib import Path

import yaml

from pytest_mobile_agent.reporting import merge

WORKFLOW = Path(__file__).resolve().parents[2] / "examples" / "ci" / "mobile-agent-shards.yml"


def test_the_matrix_runs_every_shard_and_the_merge_reads_them_all() -> None:
    jobs = yaml.safe_load(WORKFLOW.read_text())["jobs"]
    shards = jobs["shard"]["strategy"]["matrix"]["shard"]
    run = "\n".join(step.get("run", "") for step in jobs["shard"]["steps"])
    (count,) = re.findall(r"--mobile-shard=\$\{\{ matrix\.shard \}\}/(\d+)", run)
    assert shards == list(range(1, int(count) + 1))  # I from 1 to N: every shard, once
    merge_step = next(s["run"] for s in jobs["merge"]["steps"] if "reporting.merge" in s.get("run", ""))
    args = merge_step.split("reporting.merge", 1)[1].split("|")[0].replace("\\\n", " ").split()
    parsed = merge.argument_parser().parse_args(args)
    assert [str(p) for p in parsed.results] == ["shards/*/results.jsonl"]
    assert [str(p) for p in parsed.allure_results] == ["shards/*/allure-results"]
    assert jobs["merge"]["needs"] == "shard"
