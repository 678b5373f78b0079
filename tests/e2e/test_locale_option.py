"""--mobile-locale and @task(locale=...): the device's locale is set at each reset, an explicit
option wins over the task's, and the oracle follows a golden path written with the apps' English
texts on a zh-CN screen, typing Chinese through ADB Keyboard as agents do."""

from __future__ import annotations

TASKS = """
import json
from pytest_mobile_agent import task, Tap, Type

NOTES = "com.simplemobiletools.notes.pro"


def titles(device):
    return [n["title"] for n in json.loads(device.sh(f"cat /data/data/{NOTES}/files/notes.json"))]


@task(prompt="新建一个名为“购物清单”的笔记", app=NOTES, locale="zh-CN",
      golden=[Tap(id=f"{NOTES}:id/new_note"), Type("购物清单"), Tap(text="OK")])
def test_new_note_in_chinese(device, ui, events, changes):
    changes.allow(NOTES, "files/notes.json*")
    changes.allow(NOTES, "files/prefs.json:*")
    assert device.sh("getprop persist.sys.locale").strip() == "zh-CN"
    assert "购物清单" in titles(device)
    assert ui.exists(desc="More options") and ui.tr("More options") == "更多选项"
    assert events.clicked(text="OK") and events.clicked(text="确认")  # the click's text is "确认"


@task(prompt="Create a note named 'groceries'", app=NOTES,
      golden=[Tap(id=f"{NOTES}:id/new_note"), Type("groceries"), Tap(text="OK")])
def test_new_note_in_english(device, ui, changes):
    changes.allow(NOTES, "files/notes.json*")
    changes.allow(NOTES, "files/prefs.json:*")
    assert "groceries" in titles(device)
    assert ui.tr("More options") == "More options"
"""


def test_a_task_pins_its_locale_and_the_oracle_follows_english_golden_paths(run_tasks):
    run = run_tasks({"test_notes_zh.py": TASKS}, "--agent=oracle", "-p", "no:randomly")
    run.result.assert_outcomes(passed=2)


def test_an_explicit_option_wins_over_the_tasks_locale(run_tasks):
    run = run_tasks({"test_notes_zh.py": TASKS}, "--agent=oracle", "--mobile-locale=en-US", "-p", "no:randomly")
    run.result.assert_outcomes(passed=1, failed=1)
    failed = [line for line in run.result.outlines if line.startswith("FAILED")]
    assert len(failed) == 1 and "test_new_note_in_chinese" in failed[0]  # its device stayed en-US


def test_an_unknown_locale_is_a_clear_error(run_tasks):
    run = run_tasks({"test_notes_zh.py": TASKS}, "--agent=oracle", "--mobile-locale=klingon")
    assert run.result.ret != 0
    assert "--mobile-locale: locale 'klingon' is not supported; supported: en-US, zh-CN" in run.result.stderr.str()
