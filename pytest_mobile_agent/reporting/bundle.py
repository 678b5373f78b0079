"""Bundles (`--mobile-bundle=run.zip`): one zip archive of a run, written by the controller when
the session ends, that another person checks with `python -m pytest_mobile_agent verify run.zip`
(reporting/verify.py).

    manifest.json                 the command line, the options, each episode (its node id,
                                  fingerprint id, verdict, steps and, per step, the action and the
                                  digest of the screen the agent was given) and the sha256 of every
                                  other file in the archive
    results.jsonl                 the results file: the episode lines (fingerprints included) and
                                  the aggregate
    trajectories/<folder>/        each episode's trajectory folder as reporting/trajectory.py wrote it
    model-cache/                  the whole --mobile-model-cache folder, when the run had one

Text files go in with the API key redacted; the digests are those of what the archive holds.
"""

from __future__ import annotations

import hashlib
import json
import os
import platform
import sys
import time
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from pytest_mobile_agent import options as plugin_options
from pytest_mobile_agent.judges import runner as judge_runner
from pytest_mobile_agent.models import options as model_options
from pytest_mobile_agent.options import options_of
from pytest_mobile_agent.redaction import redact
from pytest_mobile_agent.reporting import results, trajectory
from pytest_mobile_agent.reporting.allure import _version
from pytest_mobile_agent.session import mobile_session

if TYPE_CHECKING:
    from xdist.workermanage import WorkerController

FORMAT = 1
MANIFEST = "manifest.json"
RESULTS = "results.jsonl"
TRAJECTORIES = "trajectories"
MODEL_CACHE = "model-cache"
TEXT_SUFFIXES = (".json", ".jsonl", ".xml", ".txt", ".log")
REPLAY_FLAG = ("--mobile-model-replay", "mobile_model_replay")


def option_table() -> list[tuple[str, str]]:
    """(flag, dest) of every option of the plugin's."""
    tables: list[tuple[Any, ...]] = [*plugin_options.OPTIONS, *model_options.OPTIONS, *judge_runner.OPTIONS]
    return [(row[0], row[1]) for row in tables] + [REPLAY_FLAG]


def option_values(config: pytest.Config) -> dict[str, Any]:
    """The plugin's options this run had, from the command line or the ini file, by flag."""
    values: dict[str, Any] = {}
    for flag, dest in option_table():
        value = config.getoption(dest)
        if value is None:
            value = config.getini(dest)
        if value is None or value == "" or value is False:
            continue
        values[flag] = value
    return values


def command_line(config: pytest.Config) -> dict[str, Any]:
    """How the run was started: the controller's sys.argv and the arguments pytest parsed, the
    working directory relative to the rootdir and the rootdir relative to it (node ids are
    relative to the rootdir, arguments to the working directory), versions."""
    invocation = config.invocation_params
    return {
        "argv": list(sys.argv),
        "args": list(invocation.args),
        "cwd": Path(os.path.relpath(invocation.dir, config.rootpath)).as_posix(),
        "rootdir": Path(os.path.relpath(config.rootpath, invocation.dir)).as_posix(),
        "python": platform.python_version(),
        "pytest": pytest.__version__,
        "plugin": _version("pytest-mobile-agent"),
    }


def steps_of(actions_file: Path) -> list[dict[str, Any]]:
    """Each step's action and screen digest, from a trajectory's actions.jsonl."""
    return steps_in(actions_file.read_text()) if actions_file.is_file() else []


def steps_in(actions: str) -> list[dict[str, Any]]:
    """Each step's action and screen digest, from the text of an actions.jsonl."""
    lines = [json.loads(line) for line in actions.splitlines() if line.strip()]
    return [{"step": line.get("step"), "action": line.get("action"), "screen": line.get("screen")} for line in lines]


def folder_of(root: Path, record: dict[str, Any]) -> Path:
    """The trajectory folder an episode record's episode was written to under `root`."""
    return trajectory.folder_of(root, str(record["nodeid"]), bool(record.get("retried")))


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _files_under(folder: Path) -> Iterator[Path]:
    for path in sorted(folder.rglob("*")):
        if path.is_file() and not path.name.endswith(".tmp"):  # a model cache file half-written
            yield path


def _content(path: Path) -> bytes:
    data = path.read_bytes()
    if path.suffix in TEXT_SUFFIXES:
        try:
            return redact(data.decode()).encode()
        except UnicodeDecodeError:
            return data
    return data


def write(
    target: Path,
    *,
    results_file: Path,
    artifacts: Path | None,
    model_cache: Path | None,
    command: dict[str, Any],
    options: dict[str, Any],
) -> dict[str, Any]:
    """Write the archive (to a temporary file, renamed into place: a reader never sees half of
    one), one file at a time, the manifest last; returns the manifest."""
    sources: dict[str, Path] = {RESULTS: results_file}  # name in the archive -> the file
    episodes = []
    for record in results.episodes(results_file):
        folder = folder_of(artifacts, record) if artifacts is not None else None
        kept = folder if folder is not None and folder.is_dir() else None
        if kept is not None:
            for path in _files_under(kept):
                sources[f"{TRAJECTORIES}/{kept.name}/{path.relative_to(kept).as_posix()}"] = path
        episodes.append(
            {
                "nodeid": record["nodeid"],
                "fingerprint_id": record.get("fingerprint_id"),
                "success": record.get("success"),
                "termination": record.get("termination"),
                "infrastructure": bool(record.get("infrastructure")),
                "steps": record.get("steps"),
                "trajectory": f"{TRAJECTORIES}/{kept.name}" if kept is not None else None,
                "actions": steps_of(kept / "actions.jsonl") if kept is not None else [],
            }
        )
    cache = model_cache if model_cache is not None and model_cache.is_dir() else None
    if cache is not None:
        for path in _files_under(cache):
            sources[f"{MODEL_CACHE}/{path.relative_to(cache).as_posix()}"] = path
    target.parent.mkdir(parents=True, exist_ok=True)
    # Beside the target, made as any file the user writes (mkstemp's would be private to them).
    tmp = target.with_name(f".{target.name}.{os.getpid()}.tmp")
    digests: dict[str, str] = {}
    try:
        with zipfile.ZipFile(tmp, "w") as archive:
            for name, path in sorted(sources.items()):
                data = _content(path)
                digests[name] = sha256(data)
                # PNGs are compressed already.
                archive.writestr(name, data, zipfile.ZIP_STORED if name.endswith(".png") else zipfile.ZIP_DEFLATED)
            manifest = {
                "format": FORMAT,
                "created": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
                "command": redact(command),
                "options": redact(options),
                "model_cache": MODEL_CACHE if cache is not None else None,
                "episodes": redact(episodes),
                "files": digests,
            }
            archive.writestr(MANIFEST, json.dumps(manifest, indent=1, ensure_ascii=False), zipfile.ZIP_DEFLATED)
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return manifest


class BundleWriter:
    """On the xdist controller (or pytest alone) of a session with --mobile-bundle."""

    def __init__(self, config: pytest.Config) -> None:
        self.config = config
        self.implied: dict[str, str] = {}  # the outputs this writer chose, by dest, for the workers

    @classmethod
    def register(cls, config: pytest.Config) -> None:
        options = options_of(config)
        if options.bundle is not None and options.runs_tasks and not hasattr(config, "workerinput"):
            config.pluginmanager.register(cls(config), "mobile-agent-bundle")

    def pytest_sessionstart(self, session: pytest.Session) -> None:
        """A bundle needs the trajectories and the results file: without --mobile-artifacts or
        --mobile-results, they go to a folder under the session's basetemp. Set here, before
        xdist (trylast) starts its workers."""
        config = self.config
        options = options_of(config)
        if options.artifacts is not None and options.results is not None:
            return
        factory: pytest.TempPathFactory = getattr(config, "_tmp_path_factory")  # noqa: B009  (pytest's own)
        folder = factory.mktemp("mobile-bundle")
        if options.artifacts is None:
            self.implied["mobile_artifacts"] = str(folder / "artifacts")
        if options.results is None:
            self.implied["mobile_results"] = str(folder / RESULTS)
            (folder / RESULTS).write_text("")
        for dest, value in self.implied.items():
            setattr(config.option, dest, value)
        config.stash[plugin_options.OPTIONS_KEY] = plugin_options.Options.from_config(config)
        mobile_session(config).options = options_of(config)

    def implied_flags(self) -> set[str]:
        return {flag for flag, dest in option_table() if dest in self.implied}

    @pytest.hookimpl(optionalhook=True)
    def pytest_configure_node(self, node: WorkerController) -> None:
        """xdist workers parse the command line themselves: they are told the implied outputs."""
        if self.implied:
            node.workerinput[plugin_options.WORKER_OPTIONS] = dict(self.implied)

    @pytest.hookimpl(trylast=True)
    def pytest_unconfigure(self) -> None:
        """Once every worker has gone and the aggregate is in the results file."""
        config = self.config
        options = options_of(config)
        if options.bundle is None or options.results is None or not options.results.exists():
            return
        # The folders this writer chose are its own, not the run's: left out of the options.
        values = {flag: v for flag, v in option_values(config).items() if flag not in self.implied_flags()}
        cache = values.get("--mobile-model-cache")
        reporter = config.pluginmanager.get_plugin("terminalreporter")
        try:
            manifest = write(
                options.bundle,
                results_file=options.results,
                artifacts=options.artifacts,
                model_cache=Path(cache) if cache else None,
                command=command_line(config),
                options=values,
            )
        except OSError as exc:
            if reporter is not None:
                reporter.write_line(f"bundle not written: {options.bundle}: {exc}", red=True)
            return
        if reporter is not None:
            episodes = len(manifest["episodes"])
            reporter.write_line(f"bundle: {os.fspath(options.bundle)} ({episodes} episodes)")
