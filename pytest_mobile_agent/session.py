"""Per-process plugin state: options, the agent, the device pool, collected episode records."""

from __future__ import annotations

import concurrent.futures
import shlex
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from pytest_mobile_agent.agents import AgentLoadError
from pytest_mobile_agent.agents.loader import load_agent
from pytest_mobile_agent.device.reset import parse_choice as parse_reset
from pytest_mobile_agent.locales import DEFAULT_LOCALE, LocaleError
from pytest_mobile_agent.locales import normalize as normalize_locale
from pytest_mobile_agent.models.pricing import load_prices
from pytest_mobile_agent.tasks import TaskInstance, TaskSpec

if TYPE_CHECKING:
    from pytest_mobile_agent.device.pool import DevicePool

TASK_KEY = pytest.StashKey[TaskInstance]()
EPISODE_KEY = pytest.StashKey[Any]()
RESET_KEY = pytest.StashKey[float]()  # seconds the device fixture spent resetting
RECORD_PROPERTY = "mobile_episode"


@dataclass
class Options:
    agent: str | None
    devices: str
    step_factor: float
    step_timeout: float | None
    max_invalid: int
    artifacts: Path | None
    results: Path | None
    prices: str | None
    seed: int
    retries: int
    virtual_args: tuple[str, ...]
    cpu_pinning: bool
    shard: str | None = None  # I/N, see parallel/shards.py
    reset: str | None = None  # --mobile-reset: snapshot, clear, or None (snapshot where supported)
    locale: str | None = None  # --mobile-locale, normalized; None: each task's own, else en-US
    warm_start: str = "auto"  # --mobile-warm-start: auto or off (parallel/warmstart/)

    @classmethod
    def from_config(cls, config: pytest.Config) -> Options:
        def get(name: str) -> Any:
            value = config.getoption(name)
            return value if value is not None else config.getini(name)

        artifacts, results = get("mobile_artifacts"), get("mobile_results")
        pinning = get("mobile_cpu_pinning") or "auto"
        if pinning not in ("auto", "off"):
            raise pytest.UsageError(f"--mobile-cpu-pinning={pinning!r}: expected auto or off")
        warm_start = get("mobile_warm_start") or "auto"
        if warm_start not in ("auto", "off"):
            raise pytest.UsageError(f"--mobile-warm-start={warm_start!r}: expected auto or off")
        timeout = float(get("mobile_step_timeout") or 0)
        try:
            reset = parse_reset(get("mobile_reset") or None)
        except ValueError as exc:
            raise pytest.UsageError(str(exc)) from exc
        try:
            locale = normalize_locale(get("mobile_locale")) if get("mobile_locale") else None
        except LocaleError as exc:
            raise pytest.UsageError(f"--mobile-locale: {exc}") from exc
        return cls(
            agent=get("mobile_agent") or None,
            devices=get("mobile_devices") or "virtual",
            step_factor=float(get("mobile_step_factor") or 2.0),
            step_timeout=timeout or None,
            max_invalid=int(get("mobile_max_invalid") or 3),
            artifacts=Path(artifacts) if artifacts else None,
            results=Path(results) if results else None,
            prices=get("mobile_prices") or None,
            seed=int(get("mobile_seed") or 0),
            retries=int(get("mobile_retries") or 0),
            virtual_args=tuple(shlex.split(get("mobile_virtual_args") or "")),
            cpu_pinning=pinning == "auto",
            shard=get("mobile_shard") or None,
            reset=reset,
            locale=locale,
            warm_start=warm_start,
        )

    def locale_for(self, spec: TaskSpec) -> str:
        """The locale a task runs in: --mobile-locale, else the task's @task(locale=...), else en-US."""
        return self.locale or (normalize_locale(spec.locale) if spec.locale else DEFAULT_LOCALE)


@dataclass
class MobileSession:
    config: pytest.Config
    options: Options
    records: list[dict[str, Any]] = field(default_factory=list)
    crashes: dict[str, int] = field(default_factory=dict)  # node id -> xdist workers lost running it
    _agent: Any = None
    _model_client: Any = None
    _warmup: concurrent.futures.Future | None = None
    emulators: list[str] | None = None  # serials of the instances --devices=emulator:AVD*N booted

    def boot_emulators(self) -> None:
        """`--devices=emulator:AVD*N`: boot the instances (pytest alone, or the xdist controller),
        shut down when the session ends."""
        if not self.options.devices.strip().startswith("emulator:"):
            return  # not even the import (adbutils: 0.1 s before the first worker starts)
        from pytest_mobile_agent.device.emulators import EmulatorError, EmulatorFleet, parse

        try:
            wanted = parse(self.options.devices)
            if wanted is None:
                return
            fleet = EmulatorFleet(*wanted)
            self.config.add_cleanup(fleet.shutdown)
            self.emulators = fleet.boot()
        except EmulatorError as exc:
            raise pytest.UsageError(str(exc)) from exc

    @property
    def is_worker(self) -> bool:
        return hasattr(self.config, "workerinput")

    def prices(self) -> dict[str, tuple[float, float]]:
        return load_prices(self.options.prices)

    def get_agent(self) -> Any:
        if self._agent is None:
            spec = self.options.agent
            if not spec:
                raise pytest.UsageError(
                    "no agent: pass --agent=NAME (oracle, noop, random), --agent=path/to/agent.py "
                    "or --agent=package.module:attr"
                )
            made = self.config.hook.pytest_mobile_agent_make_agent(config=self.config, name=spec)
            try:
                self._agent = made if made is not None else load_agent(spec, seed=self.options.seed)
            except AgentLoadError as exc:
                raise pytest.UsageError(str(exc)) from exc
            if getattr(self._agent, "needs_model", False) and getattr(self._agent, "client", None) is None:
                self._agent.client = self.model_client(f"--agent={spec}")  # the built-in model agents
        return self._agent

    def model_client(self, who: str = "this run") -> Any:
        """The chat client the --mobile-model* options describe (one per process)."""
        if self._model_client is None:
            from pytest_mobile_agent.models import ChatClient, ModelError
            from pytest_mobile_agent.models.options import model_config

            cfg = model_config(self.config, self.options.step_timeout)
            if cfg is None:
                raise pytest.UsageError(f"{who} needs a model: pass --mobile-model NAME (e.g. gpt-4o)")
            try:
                self._model_client = ChatClient(cfg, self.prices())
            except ModelError as exc:
                raise pytest.UsageError(str(exc)) from exc
        return self._model_client

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
        return DevicePool(source, self.options.virtual_args, pin_cpu=self.options.cpu_pinning)

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


def mobile_session(config: pytest.Config) -> MobileSession:
    return config.stash[SESSION_KEY]


SESSION_KEY = pytest.StashKey[MobileSession]()
