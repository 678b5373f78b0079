"""The plugin's options, each with an ini twin, parsed once per session into `Options`: what
the session is (does it run tasks? under which agent?) and how.

The --mobile-model* options are added by models/options.py and the --mobile-judge* ones by
judges/runner.py, beside the clients they configure.
"""

from __future__ import annotations

import enum
import re
import shlex
from dataclasses import dataclass
from pathlib import Path

import pytest

from pytest_mobile_agent.agents.loader import BUILTIN, MODEL_AGENTS
from pytest_mobile_agent.device.reset import parse_choice as parse_reset
from pytest_mobile_agent.locales import DEFAULT_LOCALE, LocaleError
from pytest_mobile_agent.locales import normalize as normalize_locale
from pytest_mobile_agent.tasks import TaskSpec

OPTIONS: tuple[tuple[str, str, type, str], ...] = (
    # (flag, dest/ini name, type, help); every default is in Options.from_config
    (
        "--agent",
        "mobile_agent",
        str,
        "agent under test: oracle, noop, random, near-miss; t3a, m3a, appagent, mobile-bench (with --mobile-model); "
        "path/to/agent.py or pkg.module:attr",
    ),
    (
        "--devices",
        "mobile_devices",
        str,
        "devices: virtual (default: one virtual device per worker), all, SERIAL[,SERIAL...], remote:HOST:PORT "
        "or emulator:AVD*N (N headless instances booted for the session)",
    ),
    ("--mobile-step-factor", "mobile_step_factor", float, "step budget = factor x golden steps (default 2)"),
    (
        "--mobile-step-timeout",
        "mobile_step_timeout",
        float,
        "seconds an agent may think per step before it counts as hung (default 120; 0 = no limit)",
    ),
    (
        "--mobile-max-invalid",
        "mobile_max_invalid",
        int,
        "invalid actions in a row that end an episode with reason error (default 3)",
    ),
    (
        "--mobile-artifacts",
        "mobile_artifacts",
        str,
        "directory for per-test trajectories (PNG per step, actions)",
    ),
    (
        "--mobile-keep-screens",
        "mobile_keep_screens",
        str,
        "which tasks keep every step's screen in --alluredir and --mobile-artifacts: all (default), or failed "
        "(passing tasks keep their first and final screens)",
    ),
    (
        "--mobile-results",
        "mobile_results",
        str,
        "JSON-lines results file: one record per episode + the aggregate",
    ),
    (
        "--mobile-bundle",
        "mobile_bundle",
        str,
        "write one zip archive of the run when it ends: the results, every trajectory, the model cache and the "
        "command line, for `python -m pytest_mobile_agent verify` (implies --mobile-artifacts and "
        "--mobile-results in a temporary folder when they are not given)",
    ),
    ("--mobile-prices", "mobile_prices", str, "JSON price table: {model: {input: USD/Mtok, output: USD/Mtok}}"),
    ("--mobile-seed", "mobile_seed", int, "seed for the random agent and for drawing --mobile-variations (default 0)"),
    (
        "--mobile-variations",
        "mobile_variations",
        int,
        "N: each task that declares @task(variations=...) runs N variations drawn from --mobile-seed, ids v1..vN, "
        "instead of its declared parameters",
    ),
    (
        "--mobile-repeat",
        "mobile_repeat",
        int,
        "run every task K times, each from a fresh reset, as items of their own ([r1]...[rK]); the summary "
        "gives the success rate's interval, the spread between repeats, pass@k and pass^k (default 1)",
    ),
    (
        "--mobile-retries",
        "mobile_retries",
        int,
        "runs again after an infrastructure error: a device lost, an xdist worker crashed (default 1)",
    ),
    (
        "--mobile-virtual-args",
        "mobile_virtual_args",
        str,
        "extra options for virtual devices, e.g. '--size 720x1600'",
    ),
    (
        "--mobile-cpu-pinning",
        "mobile_cpu_pinning",
        str,
        "auto (default): each xdist worker and its virtual device share a CPU of their own; off: no pinning",
    ),
    (
        "--mobile-shard",
        "mobile_shard",
        str,
        "I/N: run only the I-th of N shards of the tests, split the same way on every host, balanced by golden steps",
    ),
    (
        "--mobile-warm-start",
        "mobile_warm_start",
        str,
        "auto (default): xdist workers and their virtual devices are forked from one process that imported "
        "pytest, the plugins and the device once; off: each starts a Python of its own",
    ),
    (
        "--mobile-reset",
        "mobile_reset",
        str,
        "snapshot: load the device's base snapshot before each task (emulators and virtual devices); "
        "clear: force-stop and pm clear the task's apps (phones); default: snapshot where the device has one",
    ),
    (
        "--mobile-display",
        "mobile_display",
        str,
        "WxH or WxH@DPI: the screen size in px (and density in dpi) of every device, set at each reset "
        "with `wm size` and `wm density` (emulators and phones too; without @DPI the device's own "
        "density); the apps lay themselves out again. Default: the device's own display",
    ),
    (
        "--mobile-font-scale",
        "mobile_font_scale",
        str,
        "F, e.g. 1.3: the font size setting of every device, set at each reset with "
        "`settings put system font_scale F` (emulators and phones too); text in sp grows by F. "
        "Default: the device's own",
    ),
    (
        "--mobile-night",
        "mobile_night",
        str,
        "yes or no: dark theme on every device, set at each reset with `cmd uimode night yes|no` "
        "(emulators and phones too); the apps draw their night colours. Default: the device's own",
    ),
    (
        "--mobile-locale",
        "mobile_locale",
        str,
        "the device's locale for every task, set at each reset without root, as Settings sets it (the "
        "listener app's configuration change): en-US or zh-CN; wins over @task(locale=...) "
        "(default: the task's, else en-US)",
    ),
)
INI_DEFAULTS = {"mobile_step_timeout": "120", "mobile_retries": "1"}
RESUME_HELP = (
    "with --mobile-results=FILE: keep FILE's episodes and run only the tasks it holds no finished episode of "
    "with the same fingerprint (an interrupted run completes, nothing run twice)"
)
# In an xdist worker's workerinput: options the controller set for its workers after parsing
# (xdist workers parse the command line themselves), by dest: a bundle's implied outputs.
WORKER_OPTIONS = "mobile_options"


def add_options(parser: pytest.Parser) -> None:
    group = parser.getgroup("mobile-agent", "pytest-mobile-agent: benchmark mobile GUI agents")
    for flag, dest, typ, help_ in OPTIONS:
        group.addoption(flag, dest=dest, type=typ, default=None, help=help_)
        parser.addini(dest, help=help_, default=INI_DEFAULTS.get(dest))
    group.addoption("--mobile-resume", dest="mobile_resume", action="store_true", default=None, help=RESUME_HELP)
    parser.addini("mobile_resume", help=RESUME_HELP, type="bool", default=False)


class Mode(enum.Enum):
    """Which agent a session runs tasks under: the suite's own checks (oracle passes every task,
    noop and near-miss fail every one), a floor (random), a built-in model agent, or the user's."""

    ORACLE = "oracle"
    NEAR_MISS = "near-miss"
    NOOP = "noop"
    RANDOM = "random"
    MODEL = "model"  # t3a, m3a, appagent, mobile-bench (agents/baselines/)
    USER = "user"  # a file, a module, or what a pytest_mobile_agent_make_agent hook makes

    @classmethod
    def of(cls, agent: str) -> Mode:
        name = agent.strip()
        if name in BUILTIN:
            return cls(name)
        return cls.MODEL if name in MODEL_AGENTS else cls.USER


@dataclass(frozen=True)
class Options:
    agent: str | None  # --agent as given: the loader's spec, shown in reports
    mode: Mode | None  # None: no --agent, the session runs no tasks
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
    display: tuple[int, int, int | None] | None = None  # --mobile-display: width, height, dpi (None: the device's)
    font_scale: float | None = None  # --mobile-font-scale; None: the device's own
    night: str | None = None  # --mobile-night: "yes" or "no"; None: the device's own
    warm_start: str = "auto"  # --mobile-warm-start: auto or off (parallel/warmstart/)
    keep_screens: str = "all"  # --mobile-keep-screens: all, or failed (reporting/screens.py)
    repeat: int = 1  # --mobile-repeat: runs of every task (collection.py parametrizes them)
    variations: int | None = None  # --mobile-variations=N (pytest_mobile_agent/variations.py); None: as declared
    resume: bool = False  # --mobile-resume: --mobile-results' earlier episodes stand (reporting/resume.py)
    bundle: Path | None = None  # --mobile-bundle: the zip written when the session ends (reporting/bundle.py)

    @property
    def runs_tasks(self) -> bool:
        """An agent was given: the session runs the tasks it collects (else it only lists them)."""
        return self.mode is not None

    @classmethod
    def from_config(cls, config: pytest.Config) -> Options:
        def get(name: str) -> str | float | None:
            value: str | float | None = config.getoption(name)
            if value is None:
                value = getattr(config, "workerinput", {}).get(WORKER_OPTIONS, {}).get(name)
            return value if value is not None else config.getini(name)

        def text(name: str) -> str | None:
            value = get(name)
            return str(value) if value else None

        artifacts, results = text("mobile_artifacts"), text("mobile_results")
        pinning = text("mobile_cpu_pinning") or "auto"
        if pinning not in ("auto", "off"):
            raise pytest.UsageError(f"--mobile-cpu-pinning={pinning!r}: expected auto or off")
        warm_start = text("mobile_warm_start") or "auto"
        if warm_start not in ("auto", "off"):
            raise pytest.UsageError(f"--mobile-warm-start={warm_start!r}: expected auto or off")
        keep_screens = text("mobile_keep_screens") or "all"
        if keep_screens not in ("all", "failed"):
            raise pytest.UsageError(f"--mobile-keep-screens={keep_screens!r}: expected all or failed")
        timeout = float(get("mobile_step_timeout") or 0)
        try:
            reset = parse_reset(text("mobile_reset"))
        except ValueError as exc:
            raise pytest.UsageError(str(exc)) from exc
        display = parse_display(text("mobile_display"))
        font_scale = parse_font_scale(text("mobile_font_scale"))
        night = parse_night(text("mobile_night"))
        locale = text("mobile_locale")
        try:
            locale = normalize_locale(locale) if locale else None
        except LocaleError as exc:
            raise pytest.UsageError(f"--mobile-locale: {exc}") from exc
        agent = text("mobile_agent")
        resume = bool(get("mobile_resume"))
        if resume and not results:
            raise pytest.UsageError(
                "--mobile-resume needs --mobile-results=FILE: the results file of the run to resume "
                "(its finished episodes are kept, the other tasks run)"
            )
        return cls(
            agent=agent,
            mode=Mode.of(agent) if agent else None,
            devices=text("mobile_devices") or "virtual",
            step_factor=float(get("mobile_step_factor") or 2.0),
            step_timeout=timeout or None,
            max_invalid=int(get("mobile_max_invalid") or 3),
            artifacts=Path(artifacts) if artifacts else None,
            results=Path(results) if results else None,
            prices=text("mobile_prices"),
            seed=int(get("mobile_seed") or 0),
            retries=int(get("mobile_retries") or 0),
            virtual_args=tuple(shlex.split(text("mobile_virtual_args") or "")),
            cpu_pinning=pinning == "auto",
            shard=text("mobile_shard"),
            reset=reset,
            locale=locale,
            display=display,
            font_scale=font_scale,
            night=night,
            warm_start=warm_start,
            keep_screens=keep_screens,
            repeat=_runs("--mobile-repeat", get("mobile_repeat")) or 1,
            variations=_runs("--mobile-variations", get("mobile_variations")),
            resume=resume,
            bundle=Path(bundle) if (bundle := text("mobile_bundle")) else None,
        )

    def configuration(self) -> str:
        """What the run sets on every device at each reset, as its options spell it ("" if nothing)."""
        parts = []
        if self.display:
            width, height, dpi = self.display
            parts.append(f"display {width}x{height}" + (f"@{dpi}" if dpi else ""))
        if self.font_scale is not None:
            parts.append(f"font scale {self.font_scale:g}")
        if self.night:
            parts.append(f"night {self.night}")
        return ", ".join(parts)

    def locale_for(self, spec: TaskSpec) -> str:
        """The locale a task runs in: --mobile-locale, else the task's @task(locale=...), else en-US."""
        return self.locale or (normalize_locale(spec.locale) if spec.locale else DEFAULT_LOCALE)


def parse_display(spec: str | None) -> tuple[int, int, int | None] | None:
    """--mobile-display's WxH[@DPI] (sizes as `wm size` takes them, a density as `wm density`)."""
    if not spec:
        return None
    found = re.fullmatch(r"\s*(\d+)\s*x\s*(\d+)\s*(?:@\s*(\d+)\s*)?", spec)
    if found is None:
        raise pytest.UsageError(f"--mobile-display={spec!r}: expected WxH or WxH@DPI, e.g. 720x1600@320")
    width, height = int(found.group(1)), int(found.group(2))
    dpi = int(found.group(3)) if found.group(3) else None
    if not (240 <= width <= 4096 and 240 <= height <= 4096):
        raise pytest.UsageError(f"--mobile-display={spec!r}: a phone's screen is 240 to 4096 px a side")
    if dpi is not None and not 72 <= dpi <= 1200:
        raise pytest.UsageError(f"--mobile-display={spec!r}: a density is 72 to 1200 dpi")
    return width, height, dpi


def parse_font_scale(spec: str | None) -> float | None:
    """--mobile-font-scale's F: the value `settings put system font_scale` takes (1.0 is the
    default size; Android's settings offer 0.85 to 2.0)."""
    if not spec:
        return None
    try:
        scale = float(spec)
    except ValueError:
        raise pytest.UsageError(f"--mobile-font-scale={spec!r}: expected a number, e.g. 1.3") from None
    if not 0.5 <= scale <= 3.0:
        raise pytest.UsageError(f"--mobile-font-scale={spec!r}: a font scale is 0.5 to 3.0 (1.0: the default size)")
    return scale


def parse_night(spec: str | None) -> str | None:
    """--mobile-night's yes or no: the modes `cmd uimode night` sets (auto depends on the time of
    day, which no run should)."""
    if not spec:
        return None
    value = spec.strip().lower()
    if value not in ("yes", "no"):
        raise pytest.UsageError(f"--mobile-night={spec!r}: expected yes (dark theme) or no (light theme)")
    return value


def _runs(flag: str, value: str | float | None) -> int | None:
    """A count of runs (--mobile-repeat=K, --mobile-variations=N, or their ini's text): a whole
    number, at least 1; None when not given."""
    if value is None or value == "":
        return None
    try:
        k = int(value)
    except ValueError:
        raise pytest.UsageError(f"{flag}={value!r}: expected a whole number of runs, 1 or more") from None
    if k < 1:
        raise pytest.UsageError(f"{flag}={k}: every task runs at least once; give 1 or more")
    return k


OPTIONS_KEY = pytest.StashKey[Options]()


def options_of(config: pytest.Config) -> Options:
    """The session's options, parsed on first use (xdist asks before pytest_configure) and kept."""
    if OPTIONS_KEY not in config.stash:
        config.stash[OPTIONS_KEY] = Options.from_config(config)
    return config.stash[OPTIONS_KEY]
