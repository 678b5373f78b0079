"""The fingerprint: what changes its id and what does not, the device facts read through adb,
and the key kept out of it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from calc_tasks import calc_tasks

from pytest_mobile_agent.device.android import AndroidDevice
from pytest_mobile_agent.reporting import fingerprint
from pytest_mobile_agent.reporting.allure import read_environment

KEY = "sk-fingerprint-test-0123456789abcdef"
ONE_TASK = ("-k", "3+5", "-p", "no:randomly")


def _ids(run) -> dict[str, str]:
    return {e["nodeid"]: e["fingerprint_id"] for e in run.episodes}


def test_same_conditions_same_id_and_the_key_is_written_nowhere(run_tasks, pytester, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    files = {"test_calc.py": calc_tasks()}
    # A URL that carries the key too: the fingerprint names the host's class, never the URL.
    url = f"https://user:{KEY}@api.openai.com/v1"
    args = ("--agent=oracle", "--mobile-model=gpt-4o", f"--mobile-model-url={url}", "--junitxml=junit.xml")
    args += ("--alluredir=allure", *ONE_TASK)
    first = run_tasks(files, *args)
    assert [e["success"] for e in first.episodes] == [True]
    record = first.episodes[0]
    facts = record["fingerprint"]
    assert record["fingerprint_id"] == fingerprint.fingerprint_id(facts)
    assert facts["model"] == {
        "name": "gpt-4o",
        "api": "chat",
        "host": "openai",
        "temperature": 0.0,
        "max_tokens": None,
        "image_side": facts["model"]["image_side"],
    }
    assert facts["device"]["kind"] == "virtual" and facts["device"]["sdk"] == 33
    assert facts["apps"]["com.simplemobiletools.calculator"]["versionName"]
    assert facts["agent"]["name"] == "oracle" and facts["task"]["locale"] == "en-US"
    # The JUnit properties and Allure's environment carry it; the key is in no file written.
    junit = (pytester.path / "junit.xml").read_text()
    assert f'name="fingerprint_id" value="{record["fingerprint_id"]}"' in junit
    environment = read_environment(pytester.path / "allure" / "environment.properties")
    assert environment["model.name"] == "gpt-4o" and environment["device.kinds"] == "virtual"
    assert environment["options.step_factor"] == "2.0"
    written = [pytester.path / "results.jsonl", pytester.path / "junit.xml", *Path(pytester.path, "allure").iterdir()]
    assert all(KEY.encode() not in path.read_bytes() for path in written)
    # An option that changes no outcome leaves the id as it was; one that does changes it.
    same = run_tasks(files, *args, "--mobile-keep-screens=failed", "--mobile-retries=3")
    assert _ids(same) == _ids(first)
    factor = run_tasks(files, *args, "--mobile-step-factor=3")
    assert _ids(factor).keys() == _ids(first).keys() and _ids(factor) != _ids(first)
    assert factor.episodes[0]["fingerprint"]["options"]["step_factor"] == 3.0


def test_editing_the_task_changes_its_source_hash(run_tasks):
    args = ("--agent=oracle", *ONE_TASK)
    before = run_tasks({"test_calc.py": calc_tasks()}, *args).episodes[0]
    edited = calc_tasks().replace('assert events.clicked(text="=")', 'assert events.clicked(text="=") or True')
    after = run_tasks({"test_calc.py": edited}, *args).episodes[0]
    assert before["nodeid"] == after["nodeid"] and before["fingerprint_id"] != after["fingerprint_id"]
    changed = [k for k in before["fingerprint"] if before["fingerprint"][k] != after["fingerprint"][k]]
    assert changed == ["task"]
    assert before["fingerprint"]["task"]["source"] != after["fingerprint"]["task"]["source"]


def test_a_shared_helper_or_conftest_is_part_of_the_source(pytester):
    pytester.makepyfile(helpers="def value():\n    return 1\n")
    pytester.makepyfile(test_t="from helpers import value\ndef test_x():\n    assert value()\n")
    pytester.syspathinsert()

    def source() -> str:
        items, _ = pytester.inline_genitems("-p", "no:randomly", "-p", "no:cacheprovider")
        return fingerprint.source_hash(items[0])

    fingerprint.file_hash.cache_clear()
    first = source()
    pytester.makeconftest("import pytest\n")
    fingerprint.file_hash.cache_clear()
    with_conftest = source()
    assert with_conftest != first
    pytester.makepyfile(helpers="def value():\n    return 2\n")
    fingerprint.file_hash.cache_clear()
    assert source() not in (first, with_conftest)


def test_device_facts_and_app_versions_through_adb(vdevice):
    device = AndroidDevice(vdevice.serial)
    facts = fingerprint.device_facts(device)
    assert facts["kind"] == "virtual" and facts["android"] == "13" and facts["sdk"] == 33
    assert facts["display"] == "1080x2340" and facts["density"] == 440 and facts["font_scale"] == "1.0"
    versions = fingerprint.app_versions(device, ("com.simplemobiletools.calculator", "com.example.absent"))
    assert versions == {
        "com.simplemobiletools.calculator": {"versionName": "5.12.0", "versionCode": 77},
        "com.example.absent": None,
    }


@pytest.mark.parametrize(
    "url, host",
    [
        ("https://api.openai.com/v1", "openai"),
        ("https://user:pw@api.anthropic.com/v1/", "anthropic"),
        ("https://generativelanguage.googleapis.com/v1beta/openai", "google"),
        ("http://localhost:8000/v1", "local"),
        ("http://192.168.1.4:8000/v1", "local"),
        ("https://llm.example.com/v1", "other"),
    ],
)
def test_the_endpoint_is_named_by_its_host_class_only(url, host):
    assert fingerprint.host_class(url) == host


def test_git_commit_from_a_branch_packed_refs_and_a_worktree(tmp_path):
    repo = tmp_path / "repo"
    (repo / ".git" / "refs" / "heads").mkdir(parents=True)
    (repo / ".git" / "HEAD").write_text("ref: refs/heads/main\n")
    (repo / ".git" / "refs" / "heads" / "main").write_text("a" * 40 + "\n")
    assert fingerprint.git_commit(repo) == "a" * 40
    (repo / ".git" / "refs" / "heads" / "main").unlink()
    (repo / ".git" / "packed-refs").write_text(f"# pack-refs\n{'b' * 40} refs/heads/main\n")
    assert fingerprint.git_commit(repo) == "b" * 40
    # A worktree: .git is a file naming its folder, whose refs live in the common folder.
    tree = tmp_path / "tree"
    gitdir = repo / ".git" / "worktrees" / "tree"
    gitdir.mkdir(parents=True)
    (gitdir / "HEAD").write_text("ref: refs/heads/main\n")
    (gitdir / "commondir").write_text("../..\n")
    tree.mkdir()
    (tree / ".git").write_text(f"gitdir: {gitdir}\n")
    assert fingerprint.git_commit(tree) == "b" * 40
    assert fingerprint.git_commit(tmp_path / "not-a-checkout") is None


def test_the_id_is_the_canonical_json_s_hash_whatever_the_key_order():
    a = {"seed": 0, "task": {"suite": ".", "source": "x"}}
    b = json.loads(json.dumps({"task": {"source": "x", "suite": "."}, "seed": 0}))
    assert fingerprint.fingerprint_id(a) == fingerprint.fingerprint_id(b)
    assert len(fingerprint.fingerprint_id(a)) == 16
    assert fingerprint.fingerprint_id(a) != fingerprint.fingerprint_id({**a, "seed": 1})


def test_the_prompts_hash_follows_the_prompt_files_and_a_user_s_agent_source(tmp_path, monkeypatch):
    from pytest_mobile_agent.agents.baselines.base import PROMPTS
    from pytest_mobile_agent.agents.baselines.t3a import T3A

    assert fingerprint._prompt_files(T3A()) == [PROMPTS / n for n in sorted(T3A.prompt_files.values())]
    (tmp_path / "t3a_step.txt").write_text("Be brief.")
    (tmp_path / "my_agent.py").write_text(
        "from pathlib import Path\n"
        "from pytest_mobile_agent.agents.baselines.t3a import T3A\n"
        "class Terse(T3A):\n"
        "    prompt_dir = Path(__file__).parent\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    from my_agent import Terse  # type: ignore[import-not-found]

    files = fingerprint._prompt_files(Terse())
    assert tmp_path / "t3a_step.txt" in files and PROMPTS / "t3a_step.txt" not in files
    assert Path(files[-1]).resolve() == (tmp_path / "my_agent.py").resolve()  # the variant's own code
    from pytest_mobile_agent.agents.builtin import OracleAgent

    assert fingerprint._prompt_files(OracleAgent()) == []  # the plugin's version and commit cover it
