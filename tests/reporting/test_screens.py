"""The screens both reports keep: drawn and written once (the Allure results hold hard links to
the trajectory folder's files), step screens at 540 px in 256 colours, the final screen at full
size, and `--mobile-keep-screens=failed` keeping a passing task's first and final screens only."""

from __future__ import annotations

import io
import json
from pathlib import Path
from types import SimpleNamespace

from PIL import Image, ImageDraw
from report_helpers import WRONG_AGENT, allure_results, walk_steps

from pytest_mobile_agent.reporting import screens
from pytest_mobile_agent.reporting.trajectory import slug

CASE = "test_calc.py::test_arithmetic[3 + 5-3+5=-8]"


def _steps(result: dict) -> list[dict]:
    return [s for s in walk_steps(result["steps"]) if s["name"].startswith("Step ")]


def _images(step: dict) -> list[dict]:
    return [a for a in step["attachments"] if a["type"] == "image/png"]


def test_keep_failed_screens_keeps_every_screen_of_a_failed_task_only(run_tasks, calc_tasks, tmp_path: Path) -> None:
    files = dict(calc_tasks, **{"off_by_one.py": WRONG_AGENT})
    outputs = {}
    for agent in ("oracle", "off_by_one.py"):
        alluredir, art = tmp_path / agent / "allure", tmp_path / agent / "art"
        run = run_tasks(
            files, f"--agent={agent}", CASE, "--mobile-keep-screens=failed", f"--alluredir={alluredir}",
            f"--mobile-artifacts={art}",
        )  # fmt: skip
        (episode,) = run.episodes
        assert episode["steps"] == 4
        (result,) = allure_results(alluredir)
        outputs[agent] = (episode, result, alluredir, art / slug(CASE))

    # The passing task: its first and final screens, in both reports.
    episode, result, alluredir, folder = outputs["oracle"]
    assert episode["success"]
    assert sorted(p.name for p in folder.glob("step-*.png")) == ["step-000.png", "step-004.png"]
    assert [len(_images(s)) for s in _steps(result)] == [1, 0, 0, 0]
    assert result["descriptionHtml"].count("<img") == 2  # step 1 and the final screen
    assert json.loads((folder / "episode.json").read_text())["success"] is True

    # The failed task: every screen; the steps' at 540 px in 256 colours, the final one at full size.
    episode, result, alluredir, folder = outputs["off_by_one.py"]
    assert not episode["success"]
    shots = sorted(folder.glob("step-*.png"))
    assert [p.name for p in shots] == [f"step-{i:03d}.png" for i in range(5)]
    for path in shots[:-1]:
        with Image.open(path) as image:
            assert image.size == (540, 1170) and image.mode == "P"
    with Image.open(shots[-1]) as image:
        assert image.size == (1080, 2340)
    assert [len(_images(s)) for s in _steps(result)] == [1, 1, 1, 1]
    assert result["descriptionHtml"].count("<img") == 5

    # One file on disk for the final screen and the contact sheet: the results link to the folder's.
    attachments = {a["name"]: alluredir / a["source"] for a in result["attachments"]}
    assert attachments["final screen"].samefile(shots[-1])
    assert attachments["trajectory (all steps)"].samefile(folder / "contact-sheet.png")
    # The step screens are not the folder's: they carry the action drawn on them.
    step_one = alluredir / _images(_steps(result)[0])[0]["source"]
    assert not step_one.samefile(shots[0]) and step_one.read_bytes() != shots[0].read_bytes()
    assert not list(alluredir.glob("*.tmp")) and not list(folder.glob("*.tmp"))


def test_a_bad_keep_screens_value_is_refused_by_name(run_tasks, calc_tasks) -> None:
    run = run_tasks(calc_tasks, "--agent=oracle", "--mobile-keep-screens=passed")
    assert run.result.ret != 0
    run.result.stderr.fnmatch_lines(["*--mobile-keep-screens='passed': expected all or failed*"])
    assert not run.episodes


def _screen_png() -> bytes:
    image = Image.new("RGB", (1080, 2340), (250, 250, 250))
    ImageDraw.Draw(image).rectangle((0, 0, 1080, 200), fill=(0, 105, 92))
    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()


def test_a_screen_seen_again_is_decoded_once_and_each_frame_draws_its_own_action() -> None:
    png = _screen_png()
    tap = {"action": "tap", "x": 200, "y": 1200}
    first = SimpleNamespace(index=1, action=tap, error=None)
    second = SimpleNamespace(index=2, action=dict(tap, x=880), error=None)
    a = screens._frame(png, None, first, None, True, True)
    b = screens._frame(bytes(png), None, second, None, True, True)  # equal bytes, another object
    assert screens.decoded(bytes(png)) is screens.decoded(png)
    assert a.screen is not None and a.screen == b.screen  # the screen as it was, encoded once
    with Image.open(io.BytesIO(a.screen)) as plain:
        assert plain.size == (540, 1170) and plain.mode == "P"
        plain_rgb = plain.convert("RGB")
    # Each frame carries its own action only: the first tap was not drawn on the shared screen.
    assert a.png is not None and b.png is not None
    frame_b = Image.open(io.BytesIO(b.png)).convert("RGB")
    assert frame_b.getpixel((100, 600)) == plain_rgb.getpixel((100, 600))
    assert frame_b.getpixel((440, 600)) != plain_rgb.getpixel((440, 600))
    assert Image.open(io.BytesIO(a.png)).convert("RGB").getpixel((100, 600)) != plain_rgb.getpixel((100, 600))
