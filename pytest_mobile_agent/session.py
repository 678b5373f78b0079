"""Per-process plugin state: the options, the agent, the judges, the device pool, the episode
records collected so far."""

from __future__ import annotations

import concurrent.futures
import sys
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Any

import pytest

from pytest_mobile_agent.agents import Agent, AgentLoadError, NeedsModel
from pytest_mobile_agent.agents.loader import load_agent
from pytest_mobile_agent.judges.runner import JudgePanel
from pytest_mobile_agent.models.pricing import load_prices
from pytest_mobile_agent.options import Options, options_of
from pytest_mobile_agent.parallel import control

if TYPE_CHECKING:
    from pytest_mobile_agent.device.pool import DevicePool
    from pytest_mobile_agent.models import ChatClient

RESET_KEY = pytest.StashKey[float]()  # seconds the device fixture spent resetting
RECORD_PROPERTY = "mobile_episode"  # the user property an episode record travels in (xdist ships it)
CONFIG_FLAG = "mobile_configuration_error"  # on a report: the message of the ConfigurationError that stops the run


@dataclass
class MobileSession:
    config: pytest.Config
    options: Options
    records: list[dict[str, Any]] = field(default_factory=list)
    crashes: dict[str, int] = field(default_factory=dict)  # node id -> xdist workers lost running it
    emulators: list[str] | None = None  # serials of the instances --devices=emulator:AVD*N booted
    # (node id, xdist worker) -> that worker's last record of the task: a worker that dies after
    # the task's teardown was reported has finished it (the controller must not count it twice).
    last_records: dict[tuple[str, str], dict[str, Any]] = field(default_factory=dict)
    interrupted: bool = False  # Ctrl-C: attempts not run again were cut short, not out of retries
    config_error: str | None = None  # the ConfigurationError that stopped the session (the controller's copy)
    control_folder: str | None = None  # the xdist controller's: where workers say who holds control
    _agent: Agent | None = None
    _model_clients: dict[str, ChatClient] = field(default_factory=dict)  # by the API each speaks
    _warmup: concurrent.futures.Future[DevicePool] | None = None

    @property
    def is_worker(self) -> bool:
        return hasattr(self.config, "workerinput")

    @cached_property
    def judges(self) -> JudgePanel:
        """The judges of --mobile-judge (none when not given)."""
        return JudgePanel(self.config)

    def check(self) -> None:
        """Stop the run now, with the reason, on a bad --mobile-judge, a judge without its model
        or a bad --agent, or a state directory that is not the user's alone, rather than in
        every task."""
        if self.options.runs_tasks:
            from pytest_mobile_agent.virtual.core.private_dirs import UnsafeDirectory, state_dir

            try:
                state_dir()
            except UnsafeDirectory as exc:
                raise pytest.UsageError(str(exc)) from exc
        if self.judges and self.options.runs_tasks:
            self.judges.judges  # noqa: B018  (made here: a judge without its model raises)
        if self.options.runs_tasks:
            agent = self.get_agent()
            if callable(getattr(agent, "settings", None)) and not self.is_worker:
                self.config.pluginmanager.register(SettingsHeader(agent), "mobile-agent-settings")

    def boot_emulators(self) -> None:
        """`--devices=emulator:AVD*N`: boot the instances before any worker starts (pytest alone,
        or the xdist controller), shut down when the session ends."""
        if not self.options.runs_tasks or self.is_worker or self.config.option.collectonly:
            return
        if not self.options.devices.strip().startswith("emulator:"):
            return  # not even the import (adbutils: 0.1 s before the first worker starts)
        from pytest_mobile_agent.device.emulators import EmulatorError, EmulatorFleet, parse

        try:
            wanted = parse(self.options.devices)
            if wanted is None:
                return
            fleet = EmulatorFleet(*wanted, say=self.say)
            self.config.add_cleanup(fleet.shutdown)
            self.emulators = fleet.boot()
        except EmulatorError as exc:
            raise pytest.UsageError(str(exc)) from exc

    def check_adb_on_path(self) -> None:
        """Warn, once per session, where an `adb` on PATH would restart the adb server mid-run."""
        if not self.options.runs_tasks or self.is_worker or self.config.option.collectonly:
            return
        from pytest_mobile_agent.device.adb_server import path_adb_mismatch

        problem = path_adb_mismatch()
        if problem:
            self.say(f"warning: {problem}")

    def say(self, line: str) -> None:
        """A line on the terminal, outside any test's output."""
        reporter = self.config.pluginmanager.get_plugin("terminalreporter")
        if reporter is not None:
            reporter.write_line(line)
        else:
            print(line, file=sys.stderr)

    def device_count(self) -> int | None:
        """What `-n auto` means: the number of devices (for virtual devices: None, xdist's own
        choice, the CPUs)."""
        devices = self.options.devices
        if devices == "virtual":
            return None
        if devices.startswith("emulator:"):
            from pytest_mobile_agent.device.emulators import parse

            wanted = parse(devices)
            return wanted[1] if wanted is not None else None
        return len(self.make_pool().source.online())

    def open_control_folder(self) -> None:
        """On the xdist controller of a task session: the folder where each worker says whether
        its agent holds control (parallel/control.py), removed when the session ends."""
        if self.is_worker or not self.options.runs_tasks or not getattr(self.config.option, "numprocesses", None):
            return
        self.control_folder = control.make_folder()
        folder = self.control_folder
        self.config.add_cleanup(lambda: control.remove_folder(folder))

    @cached_property
    def agent_control(self) -> control.AgentControl | None:
        """This worker's byte saying whether its agent holds control (None outside xdist)."""
        workerinput = getattr(self.config, "workerinput", {})
        folder = workerinput.get(control.CONTROL_INPUT)
        return control.AgentControl(folder, str(workerinput["workerid"])) if folder else None

    def prices(self) -> dict[str, tuple[float, float]]:
        return load_prices(self.options.prices)

    def get_agent(self) -> Agent:
        if self._agent is None:
            spec = self.options.agent
            if not spec:
                raise pytest.UsageError(
                    "no agent: pass --agent=NAME (oracle, noop, random), --agent=path/to/agent.py "
                    "or --agent=package.module:attr"
                )
            made: Agent | None = self.config.hook.pytest_mobile_agent_make_agent(config=self.config, name=spec)
            try:
                self._agent = made if made is not None else load_agent(spec, seed=self.options.seed)
            except AgentLoadError as exc:
                raise pytest.UsageError(str(exc)) from exc
            if isinstance(self._agent, NeedsModel) and self._agent.needs_model and self._agent.client is None:
                api = getattr(self._agent, "model_api", "chat")
                default = getattr(self._agent, "default_model", None)
                self._agent.client = self.model_client(f"--agent={spec}", api, default)
        return self._agent

    def model_client(self, who: str = "this run", api: str = "chat", default_model: str | None = None) -> ChatClient:
        """The model client the --mobile-model* options describe, speaking `api` (one per process
        and API: an agent's own API, the judges' chat completions); `default_model` when no
        --mobile-model names one (an agent's own default)."""
        if api not in self._model_clients:
            from pytest_mobile_agent.models import ChatClient, ModelError
            from pytest_mobile_agent.models.options import model_config

            cfg = model_config(self.config, self.options.step_timeout, api=api)
            if cfg is None and default_model:
                cfg = model_config(self.config, self.options.step_timeout, model=default_model, api=api)
            if cfg is None:
                raise pytest.UsageError(f"{who} needs a model: pass --mobile-model NAME (e.g. gpt-4o)")
            try:
                self._model_clients[api] = ChatClient(cfg, self.prices())
            except ModelError as exc:
                raise pytest.UsageError(str(exc)) from exc
        return self._model_clients[api]

    def make_pool(self) -> DevicePool:
        from pytest_mobile_agent.device.pool import (  # here: the xdist controller never needs adb code
            DevicePool,
            DeviceSource,
        )

        spec = self.options.devices
        provided = self.config.hook.pytest_mobile_agent_devices(config=self.config, spec=spec)
        if spec.startswith("emulator:"):  # booted by this process, or by the controller for its workers
            provided = getattr(self.config, "workerinput", {}).get("mobile_emulators", self.emulators)
        source = DeviceSource("serials", tuple(provided)) if provided else DeviceSource.parse(spec)
        from pytest_mobile_agent.parallel.cpu_pinning import pin_worker
        from pytest_mobile_agent.parallel.warmstart.process import spawn_device

        # A worker of a warm start forks its device from the warm process (spawn_device).
        pin = pin_worker if self.options.cpu_pinning else None
        return DevicePool(source, self.options.virtual_args, spawn=spawn_device, pin=pin)

    def prepare_device(self) -> None:
        """Lease this process's device in the background, while collection goes on: a virtual
        device boots and gets its listener in the time the remaining task files take to import."""
        if self._warmup is not None or self.config.option.collectonly:
            return

        def lease() -> DevicePool:
            pool = self.make_pool()
            pool.event_stream(pool.lease())
            return pool

        self._warmup = concurrent.futures.ThreadPoolExecutor(1, "mobile-warmup").submit(lease)

    def take_pool(self) -> DevicePool:
        """The pool for the session: the one prepared during collection, or a new one."""
        if self._warmup is None:
            return self.make_pool()
        try:
            return self._warmup.result()
        except Exception:
            return self.make_pool()  # the fixture's own lease then reports what went wrong


SESSION_KEY = pytest.StashKey[MobileSession]()


def mobile_session(config: pytest.Config) -> MobileSession:
    """This process's session, made on first use (xdist asks what `-n auto` means before
    pytest_configure)."""
    if SESSION_KEY not in config.stash:
        config.stash[SESSION_KEY] = MobileSession(config, options_of(config))
    return config.stash[SESSION_KEY]


class SettingsHeader:
    """Prints an agent's `settings()` (what it chose for this run: a coordinate convention...)
    in pytest's header, before any episode."""

    def __init__(self, agent: Any) -> None:
        self.agent = agent

    def pytest_report_header(self) -> list[str]:
        settings: dict[str, str] = self.agent.settings()
        name = getattr(self.agent, "name", type(self.agent).__name__)
        return [f"agent {name}: " + "; ".join(f"{k}: {v}" for k, v in settings.items())]
