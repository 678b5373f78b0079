"""The README's report, end to end: oracle, noop and an agent that computes the wrong sum run on
virtual devices into one results directory, the HTML report is generated offline, and Debian's
chromium opens a failed case's page by its address: its step screenshots and parameters are on
it. Both report kinds: the single file opened from disk, the multi-file one served over HTTP, each
by the case's own address and by Allure 2's #testresult/<id>. The page's screenshot is kept
(.artifacts/report-failed-case.png)."""

from __future__ import annotations

import html
import json
import re
import shutil
import time
from pathlib import Path

import pytest
from PIL import Image
from report_helpers import (
    CALC_TASKS,
    WRONG_AGENT,
    allure_results,
    chromium,
    generate_report,
    report_categories,
    serve,
)

from pytest_mobile_agent.reporting.allure import case_id, case_url

REPO = Path(__file__).resolve().parents[2]
KEPT = REPO / ".artifacts" / "report-failed-case.png"


def test_html_report_shows_a_failed_case_with_its_steps(
    pytester: pytest.Pytester, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pytester.makepyfile(test_calc=CALC_TASKS, off_by_one=WRONG_AGENT)
    results = pytester.path / "allure-results"
    common = ("-p", "no:cacheprovider", f"--alluredir={results}")
    t0 = time.perf_counter()
    pytester.runpytest_subprocess(
        *common, "--clean-alluredir", "--agent=oracle", "-n", "2", "-k", "27 or 48", timeout=600
    ).assert_outcomes(passed=2)
    pytester.runpytest_subprocess(*common, "--agent=noop", "-k", "27 or 48", timeout=600).assert_outcomes(failed=2)
    wrong = "test_calc.py::test_arithmetic[3 + 5-3+5=-8]"
    pytester.runpytest_subprocess(*common, "--agent=off_by_one.py", wrong, timeout=600).assert_outcomes(failed=1)
    t1 = time.perf_counter()

    env = dict(line.split("=", 1) for line in (results / "environment.properties").read_text().splitlines())
    assert env["agent"] == "noop, off-by-one, oracle" and env["android.versions"] == "13"  # merged over sessions
    index = generate_report(results, tmp_path / "allure-report")
    t2 = time.perf_counter()
    assert "googletagmanager" not in index.read_text(encoding="utf-8")  # an offline report stays offline
    # Two agents on the same tasks stay separate cases (the agent is part of the history id).
    assert report_categories(index) == {
        "Premature: too few steps": {"Calculate the result of '3 ^ 3'", "Calculate the result of '12 × 4'"},
        "Premature: wrong final state": {"Calculate the result of '3 + 5'"},
    }

    # The failed case's page, as a person opens it from disk by the address the plugin gives it.
    title = "Calculate the result of '3 + 5'"
    (uuid,) = [r["uuid"] for r in allure_results(results) if r["name"] == title]
    cases = json.loads((index.parent / "test-results.json").read_text())["byId"]
    assert [k for k, v in cases.items() if v["name"] == title] == [case_id(uuid)]
    url = case_url(index, uuid)
    dom = chromium(url, tmp_path / "profile-dom", "--dump-dom").stdout
    shot = tmp_path / "report-failed-case.png"
    chromium(url, tmp_path / "profile-shot", "--window-size=1280,2600", f"--screenshot={shot}")
    t3 = time.perf_counter()
    KEPT.parent.mkdir(exist_ok=True)
    shutil.copyfile(shot, KEPT)
    with capsys.disabled():  # shown even when output is captured
        print(f"\nreport page screenshot: {shot} (kept as {KEPT})")
        print(f"timings: 3 sessions {t1 - t0:.1f} s, report {t2 - t1:.1f} s, chromium {t3 - t2:.1f} s")

    text = html.unescape(re.sub(r"<[^>]+>", " ", dom))
    assert "Calculate the result of '3 + 5'" in text
    assert "[premature: wrong final state] AssertionError" in text
    # One step per agent step, each with its action; the inline trajectory shows every screen.
    # The description is an iframe's srcdoc: its HTML sits escaped in the dump.
    images = {
        alt.group(1): tag
        for tag in re.findall(r"<img\b[^>]*>", html.unescape(dom))
        if (alt := re.search(r'alt="([^"]*)"', tag)) and 'src="data:image/jpeg;base64,' in tag
    }
    for i, key in enumerate("3+6=", start=1):
        assert f"Step {i}: tap text='{key}'" in text, f"step {i} missing"
        assert f"step {i}" in images, f"no screenshot of step {i}"
    assert sorted(images) == ["final screen", "step 1", "step 2", "step 3", "step 4"]
    # Its parameters, by name and value.
    for name, value in [
        ("agent", "off-by-one"),
        ("golden steps", "4"),
        ("steps taken", "4"),
        ("step of success", "never"),
        ("termination", "completed (the agent said done)"),
    ]:
        assert re.search(rf"\b{re.escape(name)}\s+{re.escape(value)}", text), (name, value)
    # Allure 2's form of the address opens the same case, in both report kinds; the multi-file
    # report holds its screenshots as files beside index.html and is served.
    assert_case_page(chromium(f"{index.as_uri()}#testresult/{case_id(uuid)}", tmp_path / "p1", "--dump-dom").stdout)
    multi = generate_report(results, tmp_path / "multi-file-report", "--multi-file")
    assert len(list((multi.parent / "data" / "attachments").glob("*.png"))) > 10
    assert multi.stat().st_size < index.stat().st_size / 10  # the page, without its screenshots
    with serve(multi.parent) as base:
        for fragment in (case_id(uuid), f"testresult/{case_id(uuid)}"):
            page = chromium(f"{base}index.html#{fragment}", tmp_path / f"p-{len(fragment)}", "--dump-dom")
            assert_case_page(page.stdout)
    # The screenshot is a real rendering of that page, not a blank one.
    image = Image.open(shot)
    assert image.size == (1280, 2600)
    assert len(image.convert("RGB").resize((64, 130)).getcolors(64 * 130) or []) > 50


def assert_case_page(dom: str) -> None:
    """The off-by-one case's page: its title and one titled step per agent step."""
    text = html.unescape(re.sub(r"<[^>]+>", " ", dom))
    assert "Calculate the result of '3 + 5'" in text
    for i, key in enumerate("3+6=", start=1):
        assert f"Step {i}: tap text='{key}'" in text, f"step {i} missing"
