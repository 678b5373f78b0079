"""openai-computer-use's tool version and safety-check handling in pytest's header before any
episode: the default model's preview tool, or the options that override them."""

from __future__ import annotations

import pytest


@pytest.mark.parametrize(
    "args, line",
    [
        (
            [],
            "agent openai-computer-use: tool: computer_use_preview (computer-use-preview is the computer-use-preview "
            "model); coordinates: absolute (pixels of the screenshot sent); screenshot side: 1024 px; "
            "safety checks: surface",
        ),
        (["--mobile-model=gpt-5.4"], "tool: computer (gpt-5.4 is not computer-use-preview: the GA computer tool)"),
        (
            [
                "--mobile-model=gpt-5.4",
                "--mobile-model-tool-version=computer_use_preview",
                "--mobile-safety-checks=acknowledge",
            ],
            "tool: computer_use_preview (set by --mobile-model-tool-version)",
        ),
    ],
)
def test_the_tool_is_in_the_header(
    pytester: pytest.Pytester, calc_tasks: dict[str, str], args: list[str], line: str
) -> None:
    pytester.makepyfile(**{name.removesuffix(".py"): source for name, source in calc_tasks.items()})
    result = pytester.runpytest_subprocess(
        "--agent=openai-computer-use",
        "--mobile-model-url=http://127.0.0.1:9/v1",
        "--collect-only",
        "-p",
        "no:randomly",
        *args,
    )
    assert result.ret == 0, result.stdout.str()[-2000:]
    header = result.stdout.str().split("collected", 1)[0]
    assert line in header
    assert ("safety checks: acknowledge" in header) == ("--mobile-safety-checks=acknowledge" in args)
