"""Judges: other benchmarks' ways of deciding success, run beside a task's own body and
measured against it (calibration.py).

- `checkpoints`: Mobile-Bench's CheckPoints over the successful actions (l1, l2).
- `key-components`: SPA-Bench's coarse check, OCR of the screenshots.
- `mllm`: SPA-Bench's fine MLLM judge (two reasoning modes, three action modes; cross-app
  tasks judged subtask by subtask).
- `spa`: key components first, then the MLLM judge, as SPA-Bench chains them.
- `autoeval`: AutoEval's State Decomposer, substate tree and judge rounds (SCR, TCR).

A judge takes a `Trajectory` and returns a `Verdict` (base.py). `make("NAME", settings)` builds
one by name; `NAME:option:option` passes options (`mllm:direct:text_action`,
`autoeval:vlm`, `checkpoints:released`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pytest_mobile_agent.judges.base import INPUT_NAMES, Judge, Trajectory, TrajectoryStep, Verdict

if TYPE_CHECKING:  # the judges' modules load with the judge (OCR: onnxruntime)
    from pytest_mobile_agent.judges.key_components import KeyComponentsJudge


@dataclass(frozen=True)
class JudgeSettings:
    """What building a judge may need: the chat client for model judges, the OCR cache."""

    client: Any = None  # a models.ChatClient (anything with .chat(messages) -> Reply)
    ocr_cache: Path | None = None


def _checkpoints(options: list[str], settings: JudgeSettings) -> Judge:
    from pytest_mobile_agent.judges.checkpoints import PAPER, CheckpointsJudge

    return CheckpointsJudge(semantics=options[0] if options else PAPER)


def _key_components(options: list[str], settings: JudgeSettings) -> KeyComponentsJudge:
    from pytest_mobile_agent.judges.key_components import KeyComponentsJudge
    from pytest_mobile_agent.judges.ocr import DEFAULT_CACHE, OcrCache

    return KeyComponentsJudge(OcrCache(settings.ocr_cache or DEFAULT_CACHE))


def _needs_client(name: str, settings: JudgeSettings) -> Any:
    if settings.client is None:
        raise JudgeConfigError(
            f"the {name} judge asks a model: give --mobile-judge-model (and --mobile-model-url for a local "
            "server), or run an agent with model settings"
        )
    return settings.client


def _mllm(options: list[str], settings: JudgeSettings) -> Judge:
    from pytest_mobile_agent.judges.mllm import MllmJudge

    return MllmJudge(_needs_client("mllm", settings), *options)


def _spa(options: list[str], settings: JudgeSettings) -> Judge:
    from pytest_mobile_agent.judges.mllm import MllmJudge
    from pytest_mobile_agent.judges.spa import SpaJudge

    return SpaJudge(_key_components([], settings), MllmJudge(_needs_client("spa", settings), *options))


def _autoeval(options: list[str], settings: JudgeSettings) -> Judge:
    from pytest_mobile_agent.judges.autoeval import AutoEvalJudge

    if len(options) > 1:
        raise JudgeConfigError(f"the autoeval judge takes one option, its Capturer, not {':'.join(options)!r}")
    capturer = options[0] if options else "hierarchy"
    return AutoEvalJudge(_needs_client("autoeval", settings), capturer)


REGISTRY: dict[str, Callable[[list[str], JudgeSettings], Judge]] = {
    "checkpoints": _checkpoints,
    "key-components": _key_components,
    "mllm": _mllm,
    "spa": _spa,
    "autoeval": _autoeval,
}


class JudgeConfigError(ValueError):
    """A judge named or configured wrongly; the message says how to fix it."""


def parse_names(value: str | None) -> list[str]:
    names = [n.strip() for n in (value or "").split(",") if n.strip()]
    for name in names:
        if name.split(":")[0] not in REGISTRY:
            raise JudgeConfigError(f"unknown judge {name!r}; known: {', '.join(REGISTRY)}")
    return names


def make(name: str, settings: JudgeSettings | None = None) -> Judge:
    """Build the judge `NAME[:option...]`; its `name` is the full spec (each is its own column)."""
    base, *options = name.split(":")
    if base not in REGISTRY:
        raise JudgeConfigError(f"unknown judge {base!r}; known: {', '.join(REGISTRY)}")
    try:
        judge = REGISTRY[base](options, settings or JudgeSettings())
    except (TypeError, ValueError) as exc:
        if isinstance(exc, JudgeConfigError):
            raise
        raise JudgeConfigError(f"judge {name!r}: {exc}") from exc
    judge.name = name
    return judge


def run(judge: Judge, trajectory: Trajectory) -> Verdict:
    """A judge's verdict; a judge that raises abstains with the reason, never ends the session."""
    try:
        return judge.judge(trajectory)
    except Exception as exc:  # noqa: BLE001 - a judge's failure is recorded, the task goes on
        return Verdict(None, f"the judge raised {type(exc).__name__}: {exc}")


__all__ = [
    "INPUT_NAMES",
    "REGISTRY",
    "Judge",
    "JudgeConfigError",
    "JudgeSettings",
    "Trajectory",
    "TrajectoryStep",
    "Verdict",
    "make",
    "parse_names",
    "run",
]
