"""autoglm's coordinate convention in pytest's header before any episode: its one grid, or the
option that overrides it."""

from __future__ import annotations

import pytest


@pytest.mark.parametrize(
    "args, line",
    [
        ([], "agent autoglm: coordinates: relative (autoglm-phone-9b-multilingual: AutoGLM's 0-999 grid"),
        (["--mobile-model-coordinates=absolute"], "agent autoglm: coordinates: absolute (set by --mobile-model-"),
    ],
)
def test_the_grid_is_in_the_header(
    pytester: pytest.Pytester, calc_tasks: dict[str, str], args: list[str], line: str
) -> None:
    pytester.makepyfile(**{name.removesuffix(".py"): source for name, source in calc_tasks.items()})
    result = pytester.runpytest_subprocess(
        "--agent=autoglm",
        "--mobile-model=autoglm-phone-9b-multilingual",
        "--mobile-model-url=http://127.0.0.1:9/v1",
        "--collect-only",
        "-p",
        "no:randomly",
        *args,
    )
    assert result.ret == 0, result.stdout.str()[-2000:]
    assert line in result.stdout.str().split("collected", 1)[0]
