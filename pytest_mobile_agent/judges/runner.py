"""The judges in a pytest session: `--mobile-judge=NAME[,NAME]` builds them once per process,
runs them on each finished episode (beside the body, or instead of it for `judge_only` tasks)
and writes both verdicts into the episode record."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from pytest_mobile_agent.judges import JudgeConfigError, JudgeSettings, Trajectory, Verdict, make, parse_names, run

OPTIONS = (
    # (flag, dest/ini name, help)
    (
        "--mobile-judge",
        "mobile_judge",
        "judges to run beside each task's body and calibrate against it: "
        "checkpoints, key-components, mllm, spa, autoeval (comma-separated; NAME:option, e.g. checkpoints:released, "
        "mllm:direct:text_action, autoeval:vlm)",
    ),
    (
        "--mobile-judge-model",
        "mobile_judge_model",
        "model for the model judges (default: the --mobile-model "
        "client settings); endpoint, key and cache are those of --mobile-model-url/-key-env/-cache",
    ),
    (
        "--mobile-ocr-cache",
        "mobile_ocr_cache",
        "directory of OCR results by screenshot hash, shared by workers (default ~/.cache/pytest-mobile-agent/ocr)",
    ),
)


def add_options(parser: pytest.Parser) -> None:
    group = parser.getgroup("mobile-agent")
    for flag, dest, help_ in OPTIONS:
        group.addoption(flag, dest=dest, type=str, default=None, help=help_)
        parser.addini(dest, help=help_)


def _get(config: pytest.Config, name: str) -> Any:
    value = config.getoption(name, None)
    return value if value is not None else config.getini(name)


class JudgePanel:
    """The configured judges of one process."""

    def __init__(self, config: pytest.Config) -> None:
        self.config = config
        try:
            self.names = parse_names(_get(config, "mobile_judge"))
        except JudgeConfigError as exc:
            raise pytest.UsageError(f"--mobile-judge: {exc}") from exc
        self._judges: list[Any] | None = None

    def __bool__(self) -> bool:
        return bool(self.names)

    @property
    def needs_screenshots(self) -> bool:
        return any(getattr(j, "needs_screenshots", True) for j in self.judges)

    @property
    def judges(self) -> list[Any]:
        if self._judges is None:
            settings = JudgeSettings(client=self._client(), ocr_cache=_path(_get(self.config, "mobile_ocr_cache")))
            try:
                self._judges = [make(n, settings) for n in self.names]
            except JudgeConfigError as exc:
                raise pytest.UsageError(f"--mobile-judge: {exc}") from exc
        return self._judges

    def _client(self) -> Any:
        """A chat client of its own (the judge's tokens are not the agent's): the --mobile-model
        settings, with --mobile-judge-model as the model when given. None when neither is."""
        if not any(n.split(":")[0] in ("mllm", "spa", "autoeval") for n in self.names):
            return None
        from pytest_mobile_agent.models import ChatClient, ModelError
        from pytest_mobile_agent.models.options import model_config

        cfg = model_config(self.config, model=_get(self.config, "mobile_judge_model") or None)
        if cfg is None:
            return None
        try:
            from pytest_mobile_agent.models.pricing import load_prices

            return ChatClient(cfg, load_prices(_get(self.config, "mobile_prices") or None))
        except ModelError as exc:
            raise pytest.UsageError(f"--mobile-judge: {exc}") from exc

    def judge(self, episode: Any, events: Any, inputs: dict[str, Any], key: str) -> dict[str, dict[str, Any]]:
        trajectory = Trajectory.from_episode(episode, events=events, inputs=inputs, key=key)
        return {j.name: run(j, trajectory).to_json() for j in self.judges}


def outcome(verdicts: dict[str, dict[str, Any]], judge: str | None = None) -> Verdict:
    """A judge-only task's outcome: passed when every judge passed; without judges, failed
    (naming `judge`, the one its benchmark uses, when the task says which)."""
    if not verdicts:
        return Verdict(
            False, f"this task has no body: it is judged only by judges; run it with --mobile-judge={judge or 'NAME'}"
        )
    failed = {n: v["reason"] for n, v in verdicts.items() if v["passed"] is not True}
    if failed:
        return Verdict(False, "; ".join(f"{n}: {r}" for n, r in failed.items()))
    return Verdict(True, "every judge passed")


def task_key(task: Any) -> str:
    """The name judge inputs are keyed by: the task's name (tasks.task_name: @task(name=...), else
    a `name` parameter, else the function's), which is the benchmark's own where the suite gives
    one. A task with its own name may also have a parameter called `name` (a contact's)."""
    return str(task.name)


def _path(value: str | None) -> Path | None:
    return Path(value) if value else None


def inputs_for(item: pytest.Item, task: Any) -> dict[str, Any]:
    """The task's judge inputs: what hooks give (suite modules), overridden by `@task(...)`."""
    merged: dict[str, Any] = {}
    for answer in item.config.hook.pytest_mobile_agent_judge_inputs(item=item, task=task):
        merged.update(answer or {})
    merged.update(task.judge_inputs)
    return merged


def summary(records: list[dict[str, Any]], terminalreporter: Any) -> None:
    """The calibration table (and AutoEval's decomposer quality) after the summary table."""
    from pytest_mobile_agent.judges.calibration import calibrate, table

    confusions = calibrate(records)
    if confusions:
        terminalreporter.write_sep("-", "judges against the task bodies (success = positive)")
        for line in table(confusions):
            terminalreporter.write_line(line)
    decomposer = [
        r["judges"][n]["details"]["decomposer"]
        for r in records
        for n in (r.get("judges") or {})
        if (r["judges"][n].get("details") or {}).get("decomposer")
    ]
    if decomposer:
        from pytest_mobile_agent.judges.autoeval import decomposer_table

        terminalreporter.write_sep("-", "AutoEval State Decomposer against the reference substates")
        for line in decomposer_table(decomposer):
            terminalreporter.write_line(line)
