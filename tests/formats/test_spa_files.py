"""SPA-Bench's CSV task files run as they are: every row a test case carrying its fields, the
app opened as SPA-Bench opens it (cross-app: HOME), twice the golden steps, judged by `spa`;
a missing app skipped by package; malformed files and rows failing alone."""

from __future__ import annotations

import csv
import json
import re

from tests.formats.conftest import DATA

SPA = "data/spa"
NOTES, CALC = "com.simplemobiletools.notes.pro", "com.simplemobiletools.calculator"
CONTACTS, SMS = "com.simplemobiletools.contacts.pro", "com.simplemobiletools.smsmessenger"
HOME = "com.android.launcher3"


def rows(name: str) -> list[dict[str, str]]:
    with (DATA / "spa" / name).open(encoding="utf-8-sig", newline="") as f:
        return list(csv.DictReader(f))


def collected(run) -> list[str]:
    return [line.strip() for line in run.result.outlines if "::" in line and not line.startswith(" ")]


def test_every_row_of_each_file_is_one_case_named_by_its_identifier(run_seed):
    run = run_seed(SPA, "--collect-only", "-q")
    ids = collected(run)
    for name in ("single-app-ENG.csv", "single-app-CHN.csv", "cross-app-ENG.csv", "cross-app-CHN.csv"):
        expected = [f"{SPA}/{name}::{r['task_identifier']}" for r in rows(name)]
        assert [i for i in ids if i.startswith(f"{SPA}/{name}::")] == expected
    assert len(ids) == 6 + 4 + 2 + 2  # the split JSONs are no task files of their own
    marked = run_seed(SPA, "--collect-only", "-q", "-m", "spa_bench and chn and cross_app")
    assert collected(marked) == [f"{SPA}/cross-app-CHN.csv::{r['task_identifier']}" for r in rows("cross-app-CHN.csv")]


def test_single_app_rows_start_in_their_app_with_spa_benchs_prompt_fields_and_twice_the_golden_steps(run_seed):
    run = run_seed(
        f"{SPA}/single-app-ENG.csv",
        f"{SPA}/single-app-CHN.csv",
        "--agent=probe_agent.py",
        "--junitxml=junit.xml",
        "--alluredir=allure",
    )
    run.result.assert_outcomes(failed=10)  # no judge configured: a judge-only task never passes
    assert "run it with --mobile-judge=spa" in run.result.stdout.str()
    for name, language in (("single-app-ENG.csv", "ENG"), ("single-app-CHN.csv", "CHN")):
        for row in rows(name):
            task = row["task_identifier"]
            probe = next(
                p
                for p in run.probes
                if p["prompt"].endswith(row["task_description"]) and p["package"] == row["adb_app"]
            )  # started in its app, whatever the home page
            record = next(e for e in run.episodes if e["extra"]["spa_bench"] == row)  # every field, as written
            assert record["task"] == task and record["apps"] == [row["adb_app"]]
            assert record["golden_steps"] == int(row["golden_steps"])
            assert record["budget"] == probe["max_steps"] == 2 * int(row["golden_steps"])
            assert record["difficulty"] == {"1": "easy", "2": "medium", "3": "hard"}[row["task_difficulty"]]
            if language == "ENG":
                assert probe["prompt"] == f'This is the opened app "{row["task_app"]}". {row["task_description"]}'
            else:
                assert probe["prompt"] == f'这是已打开的"{row["task_app_CHN"]}"应用程序，{row["task_description"]}'
    junit = (run.folder / "junit.xml").read_text(encoding="utf-8")
    assert junit.count('<property name="spa_bench"') == 10 and "task_app_CHN" in junit
    allure = [json.loads(p.read_text()) for p in (run.folder / "allure").glob("*-result.json")]
    assert len(allure) == 10 and all({"name": "benchmark", "value": "SPA-Bench"} in r["labels"] for r in allure)
    shown = {
        r["fullName"].split("#")[-1]: {p["name"]: p.get("value") for p in r["parameters"]}
        for r in allure
        if "single-app-ENG" in r["fullName"]
    }
    assert shown["notes_1"]["key_component_final"] == "['groceries','milk']"
    assert shown["notes_1"]["task_description"] == rows("single-app-ENG.csv")[1]["task_description"]


def test_cross_app_rows_start_from_home_with_their_description_and_subtasks(run_seed, model_server):
    # From HOME the noop agent never brings the subtasks' apps up: stage 1 fails, no model asked.
    model_server.script = lambda request: "Result: 1"
    run = run_seed(
        f"{SPA}/cross-app-ENG.csv",
        f"{SPA}/cross-app-CHN.csv",
        "--agent=probe_agent.py",
        "--mobile-judge=spa",
        "--mobile-judge-model=test-model",
        f"--mobile-model-url={model_server.url}",
        "--mobile-ocr-cache=ocr",
    )
    run.result.assert_outcomes(failed=4)
    assert model_server.requests == []
    for name in ("cross-app-ENG.csv", "cross-app-CHN.csv"):
        for row in rows(name):
            task = row["task_identifier"]
            assert run.probed[task]["package"] == HOME and run.probed[task]["prompt"] == row["task_description"]
            record = run.episode(task)
            split = json.loads((DATA / "spa" / "cross-app-split" / f"{task}.json").read_text(encoding="utf-8"))
            assert record["extra"]["spa_bench"] == {**row, "cross_app_split": split}
            assert record["budget"] == 2 * int(row["golden_steps"])
            verdict = record["judges"]["spa"]
            assert verdict["passed"] is False and "never reached the foreground" in verdict["reason"]
    assert run.episode("Multi_Apps_0_ENG")["apps"] == [CONTACTS, CALC, SMS]  # labels resolved to packages


CROSS_AGENT = """
from pytest_mobile_agent.actions import Api, Done

OPEN = {"com.simplemobiletools.calculator": ".activities.MainActivity",
        "com.simplemobiletools.notes.pro": ".activities.MainActivity"}
PATH = [Api(f"am start -n {pkg}/{activity}") for pkg, activity in OPEN.items()]

class Agent:
    name = "two-apps"

    def step(self, obs):
        i = len(obs.history)
        return PATH[i] if i < len(PATH) else Done("both apps used")
"""


def test_the_spa_judge_gets_the_subtask_split_and_judges_each_subtask_in_its_apps_slice(run_seed, model_server):
    model_server.script = lambda request: "Result: 1"
    run = run_seed(
        f"{SPA}/cross-app-ENG.csv",
        "-k",
        "Information_Management_0_ENG",
        "--agent=cross_agent.py",
        "--mobile-judge=spa",
        "--mobile-judge-model=test-model",
        f"--mobile-model-url={model_server.url}",
        "--mobile-ocr-cache=ocr",
        files={"cross_agent.py": CROSS_AGENT},
    )
    run.result.assert_outcomes(passed=1)
    texts = [
        " ".join(p.get("text", "") for p in r["messages"][-1]["content"] if isinstance(p, dict))
        if isinstance(r["messages"][-1]["content"], list)
        else r["messages"][-1]["content"]
        for r in model_server.requests
    ]
    # subtask 1, the memory of its result, subtask 2 with that memory as history
    assert len(texts) == 3 and "Calculate 12 x 4" in texts[0]
    assert "the result of 12 x 4" in texts[1]
    assert "Create a note titled 'result'" in texts[2]
    verdict = run.episode("Information_Management_0_ENG")["judges"]["spa"]
    assert verdict["reason"].endswith("fine: all 2 subtasks passed")


MAIN = f"{NOTES}.activities.MainActivity"
HEADER = (
    "task_identifier,task_app,task_language,task_description,task_difficulty,golden_steps,key_component_final,"
    "adb_app,adb_home_page,is_cross_app\n"
)
JUDGED = (
    HEADER
    + f"""\
notes_shown,notes,ENG,Open the text field of the note.,1,2,"['text here']",{NOTES},{MAIN},N
notes_absent,notes,ENG,Create a note titled 'groceries'.,1,4,"['groceries']",{NOTES},{MAIN},N
notes_moved,notes,ENG,Open the text field of the note.,1,2,"['text here']",{NOTES},{NOTES}.GoneActivity,N
weather_0,weather,ENG,Show the weather.,1,2,"['sunny']",com.example.weather,com.example.weather.Main,N
bad_level,notes,ENG,Something.,4,2,"['x']",{NOTES},,N
"""
)


def test_key_components_gate_the_model_and_a_missing_app_is_skipped_by_package(run_seed, model_server):
    model_server.script = lambda request: "Result: 1"
    run = run_seed(
        "judged/single-app-ENG.csv",
        "--agent=noop",
        "--mobile-judge=spa",
        "-rs",
        "--mobile-judge-model=test-model",
        f"--mobile-model-url={model_server.url}",
        "--mobile-ocr-cache=ocr",
        files={"judged/single-app-ENG.csv": JUDGED},
    )
    run.result.assert_outcomes(passed=2, failed=2, skipped=1)
    shown, absent = run.episode("notes_shown"), run.episode("notes_absent")
    assert shown["success"] and shown["judges"]["spa"]["details"]["stage"] == "fine"
    assert absent["judges"]["spa"]["details"] == {"stage": "coarse", "fine_skipped": True}
    assert run.episode("notes_moved")["success"]  # no such activity: started through the launcher instead
    assert len(model_server.requests) == 2  # only the rows whose key components were on screen
    assert "Open the text field of the note." in json.dumps(model_server.requests[0]["messages"])
    out = run.result.stdout.str()
    assert re.search(
        r"SKIPPED \[1\] judged/single-app-ENG.csv:5: SPA-Bench task weather_0: "
        r"com.example.weather is not installed on emulator-\d+",
        out,
    )
    assert "judged/single-app-ENG.csv: line 6 (bad_level): task_difficulty must be 1..3, not 4" in out


def test_malformed_files_and_rows_fail_alone_with_one_message_each(run_seed):
    header = "task_identifier,task_app,task_language,task_description,task_difficulty,golden_steps,is_cross_app\n"
    missing_split = (
        "task_identifier,category,task_language,task_app,task_description,task_difficulty,golden_steps,"
        "is_cross_app\nNo_Split_0_ENG,General_Tool,ENG,\"['Notes']\",Do it.,1,3,Y\n"
        "Bad_Split_0_ENG,General_Tool,ENG,\"['Notes']\",Do it.,1,3,Y\n"
        "No_Golden_0_ENG,General_Tool,ENG,\"['Notes']\",Do it.,1,,Y\n"
    )
    run = run_seed(
        "bad",
        "--agent=noop",
        files={
            "bad/single-app-bad-header.csv": header + "x,notes,ENG,Do it.,1,3,N\n",
            "bad/cross-app-ENG.csv": missing_split,
            "bad/cross-app-split/Bad_Split_0_ENG.json": '{"subtask_1": ',
            "bad/single-app-ENG.csv": "",
        },
    )
    run.result.assert_outcomes(failed=5)
    out = run.result.stdout.str()
    assert "bad/single-app-bad-header.csv: not a SPA-Bench task file: the header has neither adb_app" in out
    assert "bad/single-app-ENG.csv: not a SPA-Bench task file" in out and "it is (empty)" in out
    assert "line 2 (No_Split_0_ENG): no subtask split cross-app-split/No_Split_0_ENG.json beside the file" in out
    assert "line 3 (Bad_Split_0_ENG): cross-app-split/Bad_Split_0_ENG.json is not valid JSON" in out
    assert "line 4 (No_Golden_0_ENG): golden_steps must be a whole number, not ''" in out


def test_repeats_run_each_row_k_times_named_r1_to_rk(run_seed):
    name = "single-app-ENG.csv"
    first = rows(name)[0]["task_identifier"]
    listed = run_seed(f"{SPA}/{name}", "--collect-only", "-q", "--mobile-repeat=2")
    expected = [f"{SPA}/{name}::{r['task_identifier']}[r{k}]" for r in rows(name) for k in (1, 2)]
    assert collected(listed) == expected
    run = run_seed(f"{SPA}/{name}", "--agent=probe_agent.py", "--mobile-repeat=2", "-k", first)
    run.result.assert_outcomes(failed=2)  # no judge configured: a judge-only task never passes
    assert [(e["nodeid"], e["task"], e["repeat"]) for e in run.episodes] == [
        (f"{SPA}/{name}::{first}[r{k}]", first, k) for k in (1, 2)
    ]
    assert run.aggregate["repeats"]["tasks"] == {f"{SPA}/{name}::{first}": {"runs": 2, "passes": 0}}
