"""Mobile-Bench's JSON task files run as they are: every entry a test case carrying its fields,
starting from HOME, step limits 10/20/50 by kind, judged by `checkpoints` (deterministic: a
scripted agent that does the task passes, noop fails), its API list offered to the agent."""

from __future__ import annotations

import json
import re

from tests.formats.conftest import DATA

MB = "data/mobilebench/data"
HOME = "com.android.launcher3"
CALC = "com.simplemobiletools.calculator"
FILES = {"s_app_s_step.json": ("sast", 10), "s_app_m_step.json": ("samt", 20), "m_app_m_step.json": ("mamt", 50)}


def entries(name: str) -> list[dict]:
    return json.loads((DATA / "mobilebench" / "data" / name).read_text(encoding="utf-8"))


def api_list() -> dict[str, list[str]]:
    data = json.loads((DATA / "mobilebench" / "agent_for_api" / "api_list.json").read_text(encoding="utf-8"))
    return {app: [" - ".join(e.values()) for e in apis] for app, apis in data.items()}


def test_every_entry_is_one_case_starting_from_home_with_its_fields_step_limit_and_api_list(run_seed):
    collected = run_seed(MB, "--collect-only", "-q")
    ids = [line.strip() for line in collected.result.outlines if "::" in line]
    assert sorted(ids) == sorted(
        f"{MB}/{name}::{kind}_{e['id']}" for name, (kind, _) in FILES.items() for e in entries(name)
    )
    run = run_seed(MB, "--agent=probe_agent.py", "-rs")
    run.result.assert_outcomes(failed=8, skipped=1)  # no judge configured: none passes
    assert "run it with --mobile-judge=checkpoints" in run.result.stdout.str()
    assert re.search(
        r"SKIPPED \[1\] data/mobilebench/data/s_app_s_step.json:\d+: Mobile-Bench task sast_4: "
        r"com.miui.weather2 is not installed",
        run.result.stdout.str(),
    )
    apis = api_list()
    for name, (kind, limit) in FILES.items():
        for entry in entries(name):
            task = f"{kind}_{entry['id']}"
            if task == "sast_4":
                continue
            record, probe = run.episode(task), run.probed[task]
            assert record["extra"]["mobile_bench"] == {**entry, "kind": kind.upper()}
            query = entry["query"] if isinstance(entry["query"], str) else "".join(entry["query"])
            assert probe["prompt"] == record["prompt"] == query
            assert probe["package"] == HOME
            assert probe["max_steps"] == record["budget"] == limit
            apps = [entry["app"]] if isinstance(entry.get("app"), str) else entry.get("app", [])
            offered = (
                [line for app in apps for line in apis[app]] + apis["通用按键"] + apis["系统"]
                if apps
                else [line for lines in apis.values() for line in lines]
            )
            assert probe["apis"] == offered
    assert run.episode("sast_2")["apps"] == [CALC]  # no package given: the activity's
    assert run.episode("sast_3")["apps"] == [] and run.episode("sast_3")["app"] == "home"
    assert run.episode("mamt_1")["apps"] == [CALC, "com.simplemobiletools.smsmessenger"]


SCRIPTED = """
from pytest_mobile_agent.actions import Api, Done, Tap

OPEN = Api("am start -n com.simplemobiletools.calculator/.activities.MainActivity")
SCRIPTS = {"打开计算器": [OPEN],
           "用计算器算3加5": [OPEN, Tap(text="3"), Tap(text="+"), Tap(text="5"), Tap(text="=")]}

class Agent:
    name = "scripted"

    def step(self, obs):
        path, i = SCRIPTS.get(obs.prompt, []), len(obs.history)
        return path[i] if i < len(path) else Done("script done")
"""


def test_checkpoints_pass_a_scripted_agent_that_does_the_task_and_fail_noop(run_seed):
    args = (f"{MB}/s_app_s_step.json", "-k", "sast_1 or sast_2", "--mobile-judge=checkpoints")
    run = run_seed(*args, "--agent=scripted.py", files={"scripted.py": SCRIPTED})
    run.result.assert_outcomes(passed=2)
    for task in ("sast_1", "sast_2"):
        verdict = run.episode(task)["judges"]["checkpoints"]
        assert verdict["passed"] and verdict["details"]["l2"] == 1.0
    # sast_1: package + the "&" group of both activity spellings, met by the API call alone
    assert run.episode("sast_1")["judges"]["checkpoints"]["details"]["l2_counts"] == [2, 2]
    noop = run_seed(*args, "--agent=noop")
    noop.result.assert_outcomes(failed=2)
    assert noop.episode("sast_2")["judges"]["checkpoints"]["details"]["l2_counts"] == [0, 2]
    assert "judges: checkpoints: CheckPoints l1 0/0, l2 0/2" in noop.result.stdout.str()


def test_the_mobile_bench_agent_is_offered_the_tasks_api_list(run_seed, model_server):
    model_server.script = lambda request: "Thought: nothing to do.\nAction: finish()"
    run = run_seed(
        f"{MB}/s_app_m_step.json",
        "-k",
        "samt_1",
        "--agent=mobile-bench",
        "--mobile-model=test-model",
        f"--mobile-model-url={model_server.url}",
    )
    run.result.assert_outcomes(failed=1)
    prompt = json.dumps(model_server.requests[0]["messages"], ensure_ascii=False)
    for line in api_list()["笔记"] + api_list()["通用按键"]:
        assert json.dumps(line, ensure_ascii=False)[1:-1] in prompt
    assert "新建联系人" not in prompt  # another app's API is not offered


def test_malformed_files_and_entries_fail_alone_with_one_message_each(run_seed):
    good = {"id": 1, "query": ["打开计算器"], "check_point": {"package": CALC}}
    run = run_seed(
        "bad",
        "--agent=noop",
        "--mobile-judge=checkpoints",
        files={
            "bad/s_app_s_step.json": "// a comment first\n[" + json.dumps(good) + "]",
            "bad/s_app_m_step.json": json.dumps({"id": 1}),
            "bad/m_app_m_step.json": json.dumps(
                [
                    good,
                    {"id": 2, "query": "x"},
                    {"id": 3, "query": 5, "check_point": {}},
                    {"id": 4, "query": [""], "check_point": {"text": "a"}},
                ]
            ),
        },
    )
    run.result.assert_outcomes(failed=6)  # good fails too: noop
    out = run.result.stdout.str()
    assert "bad/s_app_s_step.json: the file is not valid JSON: Expecting value: line 1 column 1" in out
    assert "bad/s_app_m_step.json: not a Mobile-Bench task file: it holds a JSON dict" in out
    assert "bad/m_app_m_step.json: entry 2 (mamt_2): no check_point" in out
    assert "bad/m_app_m_step.json: entry 3 (mamt_3): query must be a text or a list of texts, not 5" in out
    assert "bad/m_app_m_step.json: entry 4 (mamt_4): query is empty" in out
