"""An agent's choices for the run (ui-tars's coordinate convention) are printed in pytest's
header before any episode: from the model name, or the option that overrides it."""

from __future__ import annotations

import pytest


@pytest.mark.parametrize(
    "args, line",
    [
        (["--mobile-model=UI-TARS-7B-SFT"], "agent ui-tars: coordinates: relative (UI-TARS-7B-SFT is a first-release"),
        (["--mobile-model=UI-TARS-1.5-7B"], "agent ui-tars: coordinates: absolute (UI-TARS-1.5-7B is UI-TARS 1.5"),
        (
            ["--mobile-model=UI-TARS-1.5-7B", "--mobile-model-coordinates=relative"],
            "agent ui-tars: coordinates: relative (set by --mobile-model-coordinates)",
        ),
    ],
)
def test_the_coordinate_convention_is_in_the_header(
    pytester: pytest.Pytester, calc_tasks: dict[str, str], args: list[str], line: str
) -> None:
    pytester.makepyfile(**{name.removesuffix(".py"): source for name, source in calc_tasks.items()})
    result = pytester.runpytest_subprocess(
        "--agent=ui-tars", "--mobile-model-url=http://127.0.0.1:9/v1", "--collect-only", "-p", "no:randomly", *args
    )
    assert result.ret == 0, result.stdout.str()[-2000:]
    header = result.stdout.str().split("collected", 1)[0]
    assert line in header


def test_an_unknown_convention_stops_the_run_with_the_choices(
    pytester: pytest.Pytester, calc_tasks: dict[str, str]
) -> None:
    pytester.makepyfile(**{name.removesuffix(".py"): source for name, source in calc_tasks.items()})
    result = pytester.runpytest_subprocess(
        "--agent=ui-tars",
        "--mobile-model=UI-TARS-1.5-7B",
        "--mobile-model-url=http://127.0.0.1:9/v1",
        "--mobile-model-coordinates=normalized",
        "--collect-only",
    )
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    assert "--mobile-model-coordinates must be absolute or relative, not 'normalized'" in result.stderr.str()


@pytest.mark.parametrize(
    "model, line",
    [
        ("Qwen2.5-VL-7B-Instruct", "agent qwen-vl: coordinates: absolute (Qwen2.5-VL-7B-Instruct is Qwen2.5-VL"),
        ("Qwen/Qwen3-VL-8B-Instruct", "agent qwen-vl: coordinates: relative (Qwen/Qwen3-VL-8B-Instruct is Qwen3-VL"),
    ],
)
def test_qwen_vl_prints_its_release_convention(
    pytester: pytest.Pytester, calc_tasks: dict[str, str], model: str, line: str
) -> None:
    pytester.makepyfile(**{name.removesuffix(".py"): source for name, source in calc_tasks.items()})
    result = pytester.runpytest_subprocess(
        "--agent=qwen-vl", f"--mobile-model={model}", "--mobile-model-url=http://127.0.0.1:9/v1", "--collect-only"
    )
    assert result.ret == 0, result.stdout.str()[-2000:]
    assert line in result.stdout.str().split("collected", 1)[0]


@pytest.mark.parametrize(
    "agent, model, line",
    [
        (
            "gui-owl",
            "mPLUG/GUI-Owl-7B",
            "agent gui-owl: release: GUI-Owl v3; coordinates: absolute (mPLUG/GUI-Owl-7B is GUI-Owl of Mobile-Agent-v3",
        ),
        (
            "gui-owl",
            "GUI-Owl-1.5-8B-Instruct",
            "agent gui-owl: release: GUI-Owl 1.5; coordinates: relative (GUI-Owl-1.5-8B-Instruct is GUI-Owl-1.5 "
            "(0-1000 grid, divided by 999))",
        ),
        (
            "agentcpm-gui",
            "AgentCPM-GUI",
            "agent agentcpm-gui: coordinates: relative (AgentCPM-GUI: AgentCPM-GUI's 0-1000 grid (its only release)); "
            "screenshot side: 1120 px",
        ),
    ],
)
def test_gui_owl_and_agentcpm_gui_print_their_choices(
    pytester: pytest.Pytester, calc_tasks: dict[str, str], agent: str, model: str, line: str
) -> None:
    pytester.makepyfile(**{name.removesuffix(".py"): source for name, source in calc_tasks.items()})
    result = pytester.runpytest_subprocess(
        f"--agent={agent}", f"--mobile-model={model}", "--mobile-model-url=http://127.0.0.1:9/v1", "--collect-only"
    )
    assert result.ret == 0, result.stdout.str()[-2000:]
    assert line in result.stdout.str().split("collected", 1)[0]


@pytest.mark.parametrize(
    "args, line",
    [
        (
            ["--mobile-model=claude-haiku-4-5"],
            "agent anthropic-computer-use: tool: computer_20250124 with beta computer-use-2025-01-24 "
            "(claude-haiku-4-5 takes computer_20250124); screenshots: within 1024 px long edge and 1.15 MP",
        ),
        (
            ["--mobile-model=claude-haiku-4-5", "--mobile-model-tool-version=computer_20251124"],
            "agent anthropic-computer-use: tool: computer_20251124 with beta computer-use-2025-11-24 "
            "(set by --mobile-model-tool-version)",
        ),
    ],
)
def test_anthropic_computer_use_prints_its_tool_version(
    pytester: pytest.Pytester, calc_tasks: dict[str, str], args: list[str], line: str
) -> None:
    pytester.makepyfile(**{name.removesuffix(".py"): source for name, source in calc_tasks.items()})
    result = pytester.runpytest_subprocess(
        "--agent=anthropic-computer-use", "--mobile-model-url=http://127.0.0.1:9/v1", "--collect-only", *args
    )
    assert result.ret == 0, result.stdout.str()[-2000:]
    assert line in result.stdout.str().split("collected", 1)[0]


def test_an_unknown_tool_version_stops_the_run_with_the_choices(
    pytester: pytest.Pytester, calc_tasks: dict[str, str]
) -> None:
    pytester.makepyfile(**{name.removesuffix(".py"): source for name, source in calc_tasks.items()})
    result = pytester.runpytest_subprocess(
        "--agent=anthropic-computer-use",
        "--mobile-model=claude-haiku-4-5",
        "--mobile-model-url=http://127.0.0.1:9/v1",
        "--mobile-model-tool-version=computer_20241022",
        "--collect-only",
    )
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    expected = "--mobile-model-tool-version must be computer_20250124 or computer_20251124, not 'computer_20241022'"
    assert expected in result.stderr.str()
