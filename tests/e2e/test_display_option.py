"""--mobile-display, --mobile-font-scale and --mobile-night: every device's screen, font size and
night mode are set with `wm size` / `wm density`, `settings put system font_scale` and `cmd uimode
night` at each reset (after a snapshot load put them back), the apps lay themselves out again, and
the results record and the header say which configuration the run asked for and the device had."""

from __future__ import annotations

import pytest

TASK = """
from pytest_mobile_agent import task, Tap

CALC = "com.simplemobiletools.calculator"


@task(prompt="Compute 3+5", app=CALC, golden=[Tap(text="3"), Tap(text="+"), Tap(text="5"), Tap(text="=")])
def test_add(device, ui, changes):
    changes.allow(CALC, "files/history.json")
    assert ui.text_of(f"{CALC}:id/result") == "8"
    assert device.window_size() == (720, 1600)
    button = ui.find(id=f"{CALC}:id/btn_equals")
    assert button is not None and button.bounds[2] <= 720 and button.bounds[3] <= 1600 - 48 * 2  # above the nav bar


@task(prompt="Compute 6-1", app=CALC, golden=[Tap(text="6"), Tap(text="-"), Tap(text="1"), Tap(text="=")])
def test_minus(device, ui, changes):
    changes.allow(CALC, "files/history.json")
    assert ui.text_of(f"{CALC}:id/result") == "5"
    assert device.window_size() == (720, 1600)  # set again after the reset's snapshot load
    assert device.sh("settings get system font_scale; cmd uimode night").split() == ["1.3", "Night", "mode:", "yes"]
"""


def test_tasks_run_at_the_configuration_asked_for_and_the_record_says_so(run_tasks):
    options = ("--mobile-display=720x1600@320", "--mobile-font-scale=1.3", "--mobile-night=yes")
    run = run_tasks({"test_display.py": TASK}, "--agent=oracle", *options, "-n", "0")
    run.result.assert_outcomes(passed=2)
    run.result.stdout.fnmatch_lines(["mobile configuration: display 720x1600@320, font scale 1.3, night yes"])
    for episode in run.episodes:
        facts = episode["fingerprint"]
        assert facts["options"]["display"] == [720, 1600, 320]
        assert facts["options"]["font_scale"] == 1.3 and facts["options"]["night"] == "yes"
        assert facts["device"]["display"] == "720x1600" and facts["device"]["density"] == 320
        assert facts["device"]["font_scale"] == "1.3" and facts["device"]["night_mode"] == "yes"


@pytest.mark.parametrize(
    "spec, message",
    [
        ("720by1600", "--mobile-display='720by1600': expected WxH or WxH@DPI, e.g. 720x1600@320"),
        ("100x1600", "a phone's screen is 240 to 4096 px a side"),
        ("720x1600@5", "a density is 72 to 1200 dpi"),
    ],
)
def test_a_display_that_is_no_display_is_a_clear_error(run_tasks, spec, message):
    run = run_tasks({"test_display.py": TASK}, "--agent=oracle", f"--mobile-display={spec}")
    assert run.result.ret != 0 and message in run.result.stderr.str()
