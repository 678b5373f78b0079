"""Allure reports: every task case tells its story at a glance.

With `--alluredir`, each episode adds to allure-pytest's open test result (through the dynamic
API, in the call phase of the process that ran it, so it works the same under xdist):
- the task's prompt as the title; labels for the suite, app (feature), difficulty, agent, model;
- parameters: golden steps, steps taken, step of success, termination, tokens, cost, latency
  (all but the agent left out of the history id, so history follows a task across runs; the
  device serial too; an API key only ever masked);
- one Allure step per agent step: the screen the agent saw with its action drawn on it, the
  action as JSON, the agent's reasoning, the timings as step parameters;
- the final screen, a contact sheet of the whole trajectory and, on failure, the final
  hierarchy and the assertion message;
  (the screens are drawn and written once for this and the trajectory folder: reporting/screens.py;
  `--mobile-keep-screens=failed` keeps a passing task's first and final screens only)
- a failure category: the failure message gets a stable prefix ("[premature: too few steps] ...") that
  `categories.json` (Allure 2, written into the results directory) and `allurerc.mjs` (Allure 3)
  match on.
The controller cleans the results directory once for `--clean-alluredir` (workers never do) and
writes `categories.json` and `environment.properties` when the session ends.

`python -m pytest_mobile_agent.reporting RESULTS_DIR` turns results into HTML with the npm `allure`
package (Allure 3, installed on first use: see allure_cli); see `generate_html`.
"""

from __future__ import annotations

import base64
import hashlib
import html
import json
import os
import platform
import re
import shutil
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext
from importlib import metadata
from pathlib import Path
from typing import Any
from uuid import uuid4

import pytest

from pytest_mobile_agent import drawing
from pytest_mobile_agent.actions import InvalidAction
from pytest_mobile_agent.errors import COMPLETED, ERROR, INFRASTRUCTURE, MAX_STEPS, TASK_ERROR, AgentError, DeviceLost
from pytest_mobile_agent.judges.calibration import disagrees
from pytest_mobile_agent.metrics import repeat_summary, summarize
from pytest_mobile_agent.redaction import redact
from pytest_mobile_agent.reporting import fingerprint, plots, screens
from pytest_mobile_agent.reporting.allure_cli import ReportError, find_allure
from pytest_mobile_agent.session import RECORD_PROPERTY, MobileSession
from pytest_mobile_agent.tasks import app_marker, without_repeat

HERE = Path(__file__).parent
CATEGORIES_FILE = HERE / "categories.json"
ALLURERC = HERE / "allurerc.mjs"
DEVICE_PROPERTY = "mobile_device"  # user property: a device's Android version, for the controller
CLEAN_KEY = pytest.StashKey[bool]()
KIND_KEY = pytest.StashKey[str]()
DISAGREE_KEY = pytest.StashKey[str]()
DISAGREEMENT = "judge disagreement"
PASSES = "passes of its runs"  # the parameter a repeated task's cases get (--mobile-repeat)

# Failure kinds: the message prefixes categories.json matches on.
INFRA, TASK, AGENT, BUDGET, PREMATURE, WRONG_STATE = (
    "infrastructure error",
    "task error",
    "agent error",
    "step budget exhausted",
    "premature: too few steps",
    "premature: wrong final state",
)
# After a token count the agent did not report (MobileAgentBench's rule estimated it).
ESTIMATED_TOKENS = " est. (the agent reports no usage: MobileAgentBench's estimate)"
TERMINATION_TEXT = {
    COMPLETED: "completed (the agent said done)",
    MAX_STEPS: "max_steps (the step budget ran out)",
    ERROR: "error (the agent failed)",
    INFRASTRUCTURE: "infrastructure (the device failed)",
    TASK_ERROR: "task_error (the task could not run here)",
}


def categories() -> list[dict[str, Any]]:
    return json.loads(CATEGORIES_FILE.read_text())


def failure_kind(episode: Any) -> str | None:
    """Why an episode failed, in the categories' words; None when it succeeded.

    Both "premature" kinds are SPA-Bench's premature termination (said done, failed; the
    record's `premature`, PTR) and MobileAgentBench's early stop (FFR). "Too few steps": done
    after fewer actions than the golden path, so the agent could not have finished. "Wrong
    final state": done after at least that many; it tried and ended in the wrong state."""
    if episode.termination == INFRASTRUCTURE:
        return INFRA
    if episode.termination == TASK_ERROR:
        return TASK
    if episode.termination == ERROR:
        return AGENT
    if episode.success:
        return None
    if episode.termination == MAX_STEPS:
        return BUDGET
    return PREMATURE if len(episode.steps) < episode.task.golden_steps else WRONG_STATE


# -- the results directory ---------------------------------------------------------------------
def results_dir(config: pytest.Config) -> Path | None:
    value = getattr(config.option, "allure_report_dir", None)
    return Path(value).resolve() if value else None


def take_over_cleaning(config: pytest.Config) -> None:
    """Before allure-pytest configures: with xdist every worker would wipe the shared directory
    (under the feet of the others), so no process lets allure-pytest clean; the controller does
    it once in `clean_once`."""
    if getattr(config.option, "clean_alluredir", False):
        config.option.clean_alluredir = False
        if not hasattr(config, "workerinput"):
            config.stash[CLEAN_KEY] = True


def clean_once(config: pytest.Config) -> None:
    directory = results_dir(config)
    if directory is None or not config.stash.get(CLEAN_KEY, False) or config.option.collectonly:
        return
    if directory.is_dir():
        # The contents only: allure-pytest's file logger may already hold the directory.
        for child in directory.iterdir():
            if child.is_dir() and not child.is_symlink():
                shutil.rmtree(child, ignore_errors=True)
            else:
                child.unlink(missing_ok=True)
    directory.mkdir(parents=True, exist_ok=True)


def _properties_escape(text: str, key: bool = False) -> str:
    out = text.replace("\\", "\\\\").replace("\n", "\\n").replace("\r", "\\r")
    if key:
        out = re.sub(r"([ =:#!])", r"\\\1", out)
    # Java reads .properties as ISO-8859-1: anything else as \\uXXXX.
    return "".join(c if ord(c) < 128 else f"\\u{ord(c):04x}" for c in out)


# Keys whose values several sessions into one results directory add up (comma-separated sets).
LIST_KEYS = (
    "agent",
    "model",
    "agent.spec",
    "devices",
    "android.versions",
    "android.sdk",
    "device.models",
    "device.kinds",
)


def read_environment(path: Path) -> dict[str, str]:
    """The key=value lines this module writes (not a general .properties reader)."""
    env: dict[str, str] = {}
    if path.exists():
        for line in path.read_text(encoding="ascii", errors="replace").splitlines():
            if "=" in line and not line.startswith(("#", "!")):
                key, value = line.split("=", 1)
                env[key.replace("\\", "")] = value
    return env


def write_environment(directory: Path, env: dict[str, Any]) -> Path:
    """Write environment.properties, merged with what an earlier session into the same directory
    wrote (runs of two agents into one report list both)."""
    path = directory / "environment.properties"
    old = read_environment(path)
    merged = {k: str(v) for k, v in env.items()}
    if old:
        for key in LIST_KEYS:
            values = {v.strip() for v in (old.get(key, "") + "," + merged.get(key, "")).split(",")}
            merged[key] = ", ".join(sorted(v for v in values if v and v != "?")) or "?"
        merged["device.count"] = str(len([d for d in merged["devices"].split(", ") if d and d != "?"]))
        if old.get("episodes", "").isdigit() and merged.get("episodes", "").isdigit():
            merged["episodes"] = str(int(old["episodes"]) + int(merged["episodes"]))
    lines = [f"{_properties_escape(k, key=True)}={_properties_escape(v)}" for k, v in merged.items()]
    path.write_text("\n".join(lines) + "\n", encoding="ascii")
    return path


def write_categories(directory: Path) -> Path:
    path = directory / "categories.json"
    path.write_text(json.dumps(categories(), indent=2) + "\n")
    return path


# -- helpers for allure-pytest's dynamic API ------------------------------------------------------
class _Plain:
    """A parameter value shown as is (allure-pytest puts quotes around strings)."""

    __slots__ = ("text",)

    def __init__(self, text: Any) -> None:
        self.text = str(text)

    def __repr__(self) -> str:
        return self.text


def _param(name: str, value: Any, *, excluded: bool = True, mode: Any = None) -> None:
    import allure

    allure.dynamic.parameter(name, _Plain(value), excluded=excluded, mode=mode)


@contextmanager
def _step(title: str, params: dict[str, str] | None = None) -> Iterator[None]:
    """An Allure step; with parameters (the per-step timings) when allure-commons allows it."""
    import allure

    try:
        from allure_commons._allure import StepContext
    except ImportError:  # pragma: no cover - older allure-commons: a plain step
        with allure.step(title):
            yield
        return
    with StepContext(title, dict(params or {})):
        yield


def _attach(body: Any, name: str, kind: str) -> None:
    import allure

    allure.attach(redact(body), name=name, attachment_type=getattr(allure.attachment_type, kind))


def _mask(secret: str) -> str:
    """What a masked parameter stores: never the key, only a hint of which one it was."""
    return "****" + secret[-4:] if len(secret) >= 12 else "****"


def _suite_of(nodeid: str) -> str:
    """The benchmark suite: the folder holding the task file (task_suites/mobileagentbench/...),
    or the file's own name for a file at the root."""
    parts = nodeid.split("::", 1)[0].split("/")
    return parts[-2] if len(parts) > 1 else Path(parts[-1]).stem


def _agent_label(episode: Any) -> str:
    return f"{episode.agent} ({episode.model})" if episode.model else str(episode.agent)


def _seconds(value: float | None) -> str:
    return "-" if value is None else f"{value:.3f}"


# -- the plugin ----------------------------------------------------------------------------------
class AllureReport:
    """Registered in every process when `--alluredir` is given."""

    def __init__(self, session: MobileSession, directory: Path) -> None:
        self.session = session
        self.directory = directory
        self.devices: dict[str, dict[str, str]] = {}

    # -- in the process that ran the episode: allure-pytest's test result is open ------------
    def pytest_mobile_agent_episode_metrics(self, episode: Any, record: dict[str, Any]) -> None:
        """The results file names each episode's case in the HTML report: index.html#<id>."""
        result = _open_result(self.session.config)
        uuid = getattr(result, "uuid", None)
        if uuid:
            record["extra"]["report_case"] = case_id(uuid)

    def pytest_mobile_agent_episode_finished(self, item: pytest.Item, episode: Any, record: dict[str, Any]) -> None:
        attempt = sum(1 for name, _ in item.user_properties if name == RECORD_PROPERTY)
        # An infrastructure error with a retry left is not this case's last word.
        final = not (episode.termination == INFRASTRUCTURE and attempt <= self.session.options.retries)
        kind = failure_kind(episode)
        if kind is not None:
            item.stash[KIND_KEY] = kind
        differing = disagrees(record)
        if differing:
            verdicts, word = record["judges"], {True: "passed", False: "failed"}
            said = "; ".join(f"{n} {word[verdicts[n]['passed']]} it: {verdicts[n]['reason']}" for n in differing)
            item.stash[DISAGREE_KEY] = f"[{DISAGREEMENT}] the body {word[bool(record['body_success'])]}; {said}"
        if final:
            self._describe(item, episode, record, kind)
        wrapper = None
        if not final or episode.retried:
            outcome = ": the device failed, retried on another device" if not final else ""
            wrapper = f"Attempt {attempt} on {episode.serial}{outcome}"
        shown = screens.screens_of(item)
        with _step(wrapper) if wrapper else nullcontext():
            self._trajectory(episode, shown)
            self._outcome(episode, kind, shown)
        self._probe_device(item, episode)

    def _describe(self, item: pytest.Item, episode: Any, record: dict[str, Any], kind: str | None) -> None:
        import allure

        task = episode.task
        apps = [app_marker(a) for a in task.apps] or ["home"]  # a task file's task may name no app
        suite = _suite_of(item.nodeid)
        agent = _agent_label(episode)
        allure.dynamic.title(task.prompt)
        verdict, details = self._description(item, episode, kind)
        allure.dynamic.description(f"{verdict}\n\n{details}")
        allure.dynamic.description_html(self._filmstrip(screens.screens_of(item), verdict, details))
        # Suites tab: agent > suite > app; behaviours tab: suite > app > task.
        allure.dynamic.parent_suite(agent)
        allure.dynamic.suite(suite)
        allure.dynamic.sub_suite(apps[0])
        allure.dynamic.epic(suite)
        allure.dynamic.feature(*apps)
        allure.dynamic.story(task.name)
        allure.dynamic.label("app", *apps)
        allure.dynamic.label("difficulty", task.difficulty)
        allure.dynamic.label("agent", str(episode.agent))
        allure.dynamic.label("model", episode.model or "-")
        # The agent is part of the history id: two agents' results in one report stay two cases.
        # The report shows the first parameters (after the test's own): the outcome first.
        _param("agent", agent, excluded=False)
        _param("termination", TERMINATION_TEXT.get(episode.termination, str(episode.termination)))
        _param("steps taken", record["steps"])
        _param("golden steps", task.golden_steps or "none given")
        _param("step of success", record["success_step"] if record["success_step"] is not None else "never")
        _param("step budget", record["budget"])
        cost = record["cost_usd"]
        if cost is not None:
            _param("cost (USD)", f"{cost:.4f}")
        else:
            why = f"no price for {episode.model} (--mobile-prices)" if episode.model else "the agent names no model"
            _param("cost (USD)", f"- ({why})")
        estimated = ESTIMATED_TOKENS if record["tokens_estimated"] else ""
        _param("tokens in", f"{record['tokens_in']}{estimated}")
        if episode.side_effects is not None:  # the durable changes nobody asked for
            _param("side effects", "; ".join(episode.side_effects) or "none")
        _param("tokens out", f"{record['tokens_out']}{estimated}")
        _param("latency (s/step)", _seconds(record["latency_s"]))
        _param("device", episode.serial)
        key = getattr(getattr(item, "funcargs", {}).get("agent"), "api_key", None)
        if isinstance(key, str) and key:
            _param("api key", _mask(key), mode=allure.parameter_mode.MASKED)

    def _description(self, item: pytest.Item, episode: Any, kind: str | None) -> tuple[str, str]:
        task = episode.task
        path = " → ".join(a.describe() for a in task.golden) or "(none given)"
        if kind is None:
            verdict = f"**Passed**: the task held from step {episode.success_step} on."
        elif kind == INFRA:
            verdict = f"**Infrastructure error** (not the agent's): {episode.error}"
        elif kind == AGENT:
            verdict = f"**Agent error**: {episode.error}"
        elif kind == BUDGET:
            verdict = f"**Step budget exhausted**: {len(episode.steps)} of {episode.budget} steps, task not done."
        else:
            said = f"the agent said done after {len(episode.steps)} of {task.golden_steps} golden steps"
            verdict = f"**{kind.capitalize()}**: {said}; {episode.failure_message or 'the final check failed'}"
        doc = (getattr(getattr(item, "obj", None), "__doc__", None) or "").strip()
        details = f"Task {task.name} on {', '.join(task.apps)}, {task.difficulty}"
        details += f", golden path ({task.golden_steps} steps): {path}"
        return verdict, details + (f"\n\n{doc}" if doc else "")

    def _filmstrip(self, shown: screens.Screens | None, verdict: str, details: str) -> str:
        """The description as HTML: the kept steps as small images, then the final screen, visible
        without a click (the report keeps attachments folded). Images are inline data: URIs."""
        cells = []
        images = [(f"step {f.index}", f.filmstrip) for f in shown.frames] if shown else []
        if shown is not None and shown.final_filmstrip:
            images.append(("final screen", shown.final_filmstrip))
        for alt, jpeg in images:
            data = base64.b64encode(jpeg or b"").decode()
            cells.append(
                f'<figure style="margin:0;display:inline-block;vertical-align:top;padding:0 6px 6px 0">'
                f'<img alt="{html.escape(alt)}" src="data:image/jpeg;base64,{data}" width="{screens.FILMSTRIP_WIDTH}">'
                f'<figcaption style="font-size:11px;color:#555">{html.escape(alt)}</figcaption></figure>'
            )
        bold = re.sub(r"\*\*(.+?)\*\*", r"<b>\1</b>", html.escape(verdict))
        return f"<p>{bold}</p><div>{''.join(cells)}</div><p style='white-space:pre-wrap'>{html.escape(details)}</p>"

    def _trajectory(self, episode: Any, shown: screens.Screens | None) -> None:
        frames = {f.index: f for f in shown.frames} if shown else {}
        for step in episode.steps:
            frame = frames.get(step.index)
            title = f"Step {step.index}: {drawing.describe(step.action)}"
            if step.index == episode.success_step:
                title += "  (task done here)"
            estimated = ESTIMATED_TOKENS if step.tokens_estimated else ""
            tokens = f"{step.tokens_in} in / {step.tokens_out} out{estimated}"
            params = {
                "time (s)": f"agent {step.agent_s:.3f} · device {step.device_s:.3f} · harness {step.harness_s:.3f}",
                "tokens": tokens,
            }
            try:
                with _step(title, params):
                    if frame is not None and frame.png:
                        self._attach_later(frame.png, f"step {step.index}: screen and action")
                    _attach(json.dumps(step.action, ensure_ascii=False, indent=2), "action", "JSON")
                    if step.reasoning:
                        _attach(step.reasoning, "reasoning", "TEXT")
                    if step.output:
                        _attach(step.output, "output", "TEXT")
                    if not step.valid:
                        raise InvalidAction(step.error or "invalid action")  # marks the step broken
            except InvalidAction:
                pass
        term = episode.termination
        try:
            if term == COMPLETED:
                with _step("The agent said done" + ("" if episode.success else ", but the task is not done")):
                    pass
            elif term == MAX_STEPS:
                with _step(f"The step budget ran out: {len(episode.steps)} of {episode.budget} steps"):
                    pass
            elif term == ERROR:
                with _step(f"Agent error: {episode.error}"):
                    raise AgentError(episode.error)
            elif term == INFRASTRUCTURE:
                with _step(f"Device lost: {episode.error}"):
                    raise DeviceLost(episode.error)
        except (AgentError, DeviceLost):
            pass

    def _outcome(self, episode: Any, kind: str | None, shown: screens.Screens | None) -> None:
        if shown is not None and shown.final:
            self._attach_later(shown.final, "final screen", shown.files.get("final screen"))
        if kind is not None:
            if episode.final_hierarchy:
                _attach(episode.final_hierarchy, "final hierarchy", "XML")
            message = episode.failure_detail or episode.failure_message or episode.error or ""
            _attach(f"[{kind}] {message}".strip(), "failure", "TEXT")
            if episode.traceback:
                whose = "task body" if episode.termination == TASK_ERROR else "agent"
                _attach(episode.traceback, f"{whose} traceback", "TEXT")
        if shown is not None and shown.sheet:
            self._attach_later(shown.sheet, "trajectory (all steps)", shown.files.get("contact sheet"))

    def _attach_later(self, png: bytes, name: str, link: Path | None = None) -> None:
        """A PNG attachment of the open step or test, its file written in the report thread (a
        hard link to `link`, the trajectory folder's copy, when there is one)."""
        from allure_commons.types import AttachmentType

        listener = self.session.config.pluginmanager.get_plugin("allure_listener")
        register = getattr(getattr(listener, "allure_logger", None), "_attach", None)
        if register is None:  # an allure-commons without it: attach now, a copy
            _attach(png, name, "PNG")
            return
        path = self.directory / register(str(uuid4()), name=name, attachment_type=AttachmentType.PNG)
        if link is not None:
            screens.link_later(link, path)
        else:
            screens.write_later(path, png)

    def _probe_device(self, item: pytest.Item, episode: Any) -> None:
        """Android version and model, once per device and process, for environment.properties."""
        if episode.serial in self.devices or episode.termination == INFRASTRUCTURE:
            return
        dev = getattr(item, "funcargs", {}).get("device")
        if dev is None or getattr(dev, "serial", None) != episode.serial:
            return
        try:
            out = dev.sh("getprop ro.build.version.release; getprop ro.build.version.sdk; getprop ro.product.model")
        except Exception:  # a device that went away: the next episode's device will tell
            return
        release, sdk, model = ([line.strip() for line in out.splitlines()] + ["", "", ""])[:3]
        info = {"serial": episode.serial, "android": release or "?", "sdk": sdk or "?", "model": model or "?"}
        self.devices[episode.serial] = info
        item.user_properties.append((DEVICE_PROPERTY, info))

    @pytest.hookimpl(wrapper=True, tryfirst=True)
    def pytest_runtest_makereport(self, item: pytest.Item, call: pytest.CallInfo[None]) -> Any:
        """Outside allure-pytest's own wrapper: its test result has the failure message by now."""
        report = yield
        if call.when == "call" and KIND_KEY in item.stash:
            kind = item.stash[KIND_KEY]
            del item.stash[KIND_KEY]
            if report.failed:
                _prefix_failure(item.config, kind)
        if call.when == "call" and DISAGREE_KEY in item.stash:
            _add_disagreement(item.config, item.stash[DISAGREE_KEY])
            del item.stash[DISAGREE_KEY]
        return report

    # -- the controller ----------------------------------------------------------------------
    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        if self.session.is_worker:
            return
        for name, value in report.user_properties:
            if name == DEVICE_PROPERTY and isinstance(value, dict):
                self.devices[value["serial"]] = value

    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        records = self.session.records
        if self.session.is_worker or not records:
            return
        self.directory.mkdir(parents=True, exist_ok=True)
        write_categories(self.directory)
        write_environment(self.directory, self.environment())
        mark_repeats(self.directory, records)
        import allure

        global_attach = getattr(allure, "global_attach", None)
        # allure-pytest >= 2.15; Allure 3 shows it beside the results
        if global_attach is not None and plots.drawable():
            global_attach(plots.success_plot(records), name="success rate", attachment_type=allure.attachment_type.PNG)

    def environment(self) -> dict[str, str]:
        """What ran: never a secret (no environment variables, no agent attributes)."""
        records = self.session.records
        # A crashed worker's record knows no serial (its device went with it).
        serials = sorted({r["serial"] for r in records if r["serial"]})
        used = [self.devices[s] for s in serials if s in self.devices]

        def joined(values: Any) -> str:
            return ", ".join(sorted({str(v) for v in values})) or "?"

        config = self.session.config
        return {
            "agent": joined(r["agent"] for r in records if r["agent"]),
            "model": joined(r["model"] or "-" for r in records),
            "agent.spec": self.session.options.agent or "?",
            "devices": joined(serials),
            "device.count": str(len(serials)),
            "android.versions": joined(d["android"] for d in used),
            "android.sdk": joined(d["sdk"] for d in used),
            "device.models": joined(d["model"] for d in used),
            "episodes": str(len(records)),
            "step.factor": f"{self.session.options.step_factor:g}",
            "xdist.workers": str(getattr(config.option, "numprocesses", None) or 0),
            "plugin.version": _version("pytest-mobile-agent"),
            "allure-pytest.version": _version("allure-pytest"),
            "pytest.version": pytest.__version__,
            "python.version": platform.python_version(),
            **statistics_environment(records),
            **fingerprint.environment(config, records),  # the session-wide parts of the fingerprint
        }


def statistics_environment(records: list[dict[str, Any]]) -> dict[str, str]:
    """The success rate with its 95% interval and, with --mobile-repeat, the spread between
    repeats, pass@k, pass^k and the flaky tasks (metrics.summarize; docs: Statistics)."""
    summary = summarize(records)
    overall, repeats = summary["overall"], summary["repeats"]
    env: dict[str, str] = {}
    if overall["SR_interval"] is not None:
        low, high = overall["SR_interval"]
        env["success.rate"] = f"{100 * overall['SR']:.1f}% [{100 * low:.1f}, {100 * high:.1f}] (95% Wilson)"
    if repeats and repeats["SR_by_repeat"]:
        rates = list(repeats["SR_by_repeat"].values())
        env["repeats"] = str(repeats["repeats"])
        env["success.rate.repeats"] = f"{100 * sum(rates) / len(rates):.1f} ± {100 * repeats['SR_spread']:.1f}"
        for name in ("pass@k", "pass^k"):
            env[name] = ", ".join(
                f"k={k} {v[name]:.3f}" for k, v in repeats["pass_at_k"].items() if v[name] is not None
            )
        tasks = repeats["tasks"]
        env["flaky.tasks"] = (
            "; ".join(f"{t} {tasks[t]['passes']}/{tasks[t]['runs']}" for t in repeats["flaky"]) or "none"
        )
    return env


def mark_repeats(directory: Path, records: list[dict[str, Any]]) -> int:
    """With --mobile-repeat, every case of a task gets the task's passes of its runs as a
    parameter ("2 of 3"), and a task that both passed and failed gets Allure's flaky mark on each
    of its cases. Only the controller knows the counts, once every worker has written its cases:
    their result files are rewritten here. Returns how many were."""
    repeats = repeat_summary(records)
    if repeats is None:
        return 0
    tasks = repeats["tasks"]
    task_of = {
        r["extra"]["report_case"]: without_repeat(r["nodeid"])
        for r in records
        if r.get("repeat") is not None and (r.get("extra") or {}).get("report_case")
    }
    marked = 0
    for path in directory.glob("*-result.json"):
        result = json.loads(path.read_text())
        task = task_of.get(case_id(str(result.get("uuid"))))
        if task not in tasks:
            continue
        runs, passes = tasks[task]["runs"], tasks[task]["passes"]
        shown = [p for p in result.get("parameters") or [] if p.get("name") != PASSES]
        result["parameters"] = [*shown, {"name": PASSES, "value": f"{passes} of {runs}"}]
        if 0 < passes < runs:
            result["statusDetails"] = {**(result.get("statusDetails") or {}), "flaky": True}
        tmp = path.with_name(path.name + ".tmp")  # not *-result.json: a reader never sees half a file
        tmp.write_text(json.dumps(result, ensure_ascii=False))
        os.replace(tmp, path)
        marked += 1
    return marked


def _open_result(config: pytest.Config) -> Any:
    """allure-pytest's test result of the running test, or None. allure-pytest has no public call
    for it, so this reaches its listener."""
    listener = config.pluginmanager.get_plugin("allure_listener")
    logger = getattr(listener, "allure_logger", None)
    return logger.get_test(None) if logger is not None else None


def _prefix_failure(config: pytest.Config, kind: str) -> None:
    """Give allure-pytest's failure message the category prefix; without its listener nothing
    happens and the categories' fallback patterns (exception names) still sort agent and device
    errors."""
    details = getattr(_open_result(config), "statusDetails", None)
    if details is not None and details.message and not details.message.startswith("["):
        details.message = f"[{kind}] {details.message}"


def _add_disagreement(config: pytest.Config, text: str) -> None:
    """Put the judges' disagreement in the result's message (a passed result gets one), so the
    "Judge disagreement" category finds it beside the failure's own category."""
    from allure_commons.model2 import StatusDetails

    listener = config.pluginmanager.get_plugin("allure_listener")
    logger = getattr(listener, "allure_logger", None)
    result = logger.get_test(None) if logger is not None else None
    if result is None:
        return
    if result.statusDetails is None:
        result.statusDetails = StatusDetails(message=text)
    else:
        result.statusDetails.message = f"{result.statusDetails.message or ''}\n{text}".lstrip("\n")


def _version(distribution: str) -> str:
    try:
        return metadata.version(distribution)
    except metadata.PackageNotFoundError:
        if distribution == "pytest-mobile-agent":
            from pytest_mobile_agent import __version__

            return __version__
        return "?"


# -- HTML ---------------------------------------------------------------------------------------
# Allure 3's single-file report always embeds Google Analytics; an offline report never calls out.
_ANALYTICS = re.compile(
    r"<script async src=\"https://www\.googletagmanager\.com/[^\"]*\"></script>\s*<script>\s*"
    r"window\.dataLayer[\s\S]*?</script>"
)


# Allure 2 addressed a case as #testresult/<id>; Allure 3's report expects #<id>. Links written
# for either open the case: this runs before the report's router reads the address.
_CASE_LINKS = (
    "<script>/* pytest-mobile-agent: #testresult/<id> (Allure 2) opens #<id> (Allure 3) */"
    "(function(){var m=/^#\\/?testresult\\/([^/]+)(\\/.*)?$/.exec(location.hash);"
    "if(m)history.replaceState(null,'','#'+m[1]+(m[2]||''));})();</script>"
)
SINGLE_FILE, MULTI_FILE = "single-file", "multi-file"
SINGLE_FILE_MAX_CASES = 50  # beyond this, auto picks the multi-file report (the page loads what it shows)


def case_id(result_uuid: str) -> str:
    """A case's id in an Allure 3 report: the md5 of its result's uuid (`<uuid>-result.json`)."""
    return hashlib.md5(result_uuid.encode()).hexdigest()


def case_url(index: Path, result_uuid: str) -> str:
    """The address that opens one case of a report: file://.../index.html#<id> (or index.html#<id>
    under the server that serves a multi-file report)."""
    return f"{index.resolve().as_uri()}#{case_id(result_uuid)}"


def count_cases(results: list[Path]) -> int:
    return sum(1 for r in results for _ in r.glob("*-result.json"))


def _clear_earlier_report(output: Path) -> None:
    """An earlier report in the output directory goes (a multi-file report written over it would
    keep stale data files); a directory holding anything else is never touched."""
    if not output.is_dir() or not any(output.iterdir()):
        return
    if not ((output / "index.html").is_file() and (output / "summary.json").is_file()):
        raise ReportError(f"{output} is not empty and holds no earlier Allure report: name another output directory")
    shutil.rmtree(output)


def generate_html(
    results: list[Path],
    output: Path,
    *,
    name: str = "pytest-mobile-agent",
    allure: str | None = None,
    kind: str = "auto",
    timeout: float = 600,
) -> Path:
    """Generate the HTML report from results directories; returns its index.html.

    kind: `single-file` (one index.html that opens from disk, every screenshot inside it),
    `multi-file` (index.html beside data/ files, loaded as the page needs them: served over HTTP),
    or `auto`: single-file up to SINGLE_FILE_MAX_CASES cases, multi-file beyond."""
    if kind == "auto":
        kind = SINGLE_FILE if count_cases(results) <= SINGLE_FILE_MAX_CASES else MULTI_FILE
    if kind not in (SINGLE_FILE, MULTI_FILE):
        raise ReportError(f"report kind must be auto, {SINGLE_FILE} or {MULTI_FILE}, not {kind!r}")
    command = [find_allure(allure), "generate", "--config", str(ALLURERC), "--output", str(output)]
    command += ["--report-name", name, *(str(r) for r in results)]
    output.parent.mkdir(parents=True, exist_ok=True)
    _clear_earlier_report(output)
    env = {**os.environ, "PYTEST_MOBILE_AGENT_REPORT": kind}  # allurerc.mjs reads it
    done = subprocess.run(command, capture_output=True, text=True, timeout=timeout, cwd=output.parent, env=env)
    index = output / "index.html"
    if done.returncode != 0 or not index.exists():
        raise ReportError(f"{' '.join(command)} failed ({done.returncode}):\n{done.stdout}\n{done.stderr}")
    html = _ANALYTICS.sub("", index.read_text(encoding="utf-8"))
    index.write_text(html.replace("<head>", "<head>" + _CASE_LINKS, 1), encoding="utf-8")
    return index
