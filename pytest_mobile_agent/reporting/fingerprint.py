"""What decides an episode's outcome, as one JSON dict (the fingerprint), and its short id.

Every episode record carries `fingerprint` and `fingerprint_id` (the first 16 hex digits of the
sha256 of the fingerprint's canonical JSON: sorted keys, no spaces). Its parts:

- `plugin`: the plugin's version and git commit (None outside a git checkout);
- `task`: the suite (the node id's folder), the locale the task runs in, and `source`: the
  sha256 of the task's declaring file, the `conftest.py` files above it and the files of the
  project's own modules that file imports (the suites' shared helpers). Editing a task's
  declaration or body, a precondition fixture or a shared helper changes it; so does editing
  another task of the same file (the whole file is hashed, a safe over-approximation);
- `agent`: its name, `--agent` as given, its version when it says one, the sha256 of its
  prompt files (the built-in model agents') and of its own source file (a user's agent or
  variant), and its observation mode (screenshot or hierarchy) when it says it;
- `model`: the agent's client's (else --mobile-model's) name, API kind and host class (never
  the URL nor the key), temperature, max tokens (every sampling parameter the client sends),
  image side; None without a model;
- `seed` and `options`: the options that change outcomes (step factor, step timeout, max
  invalid actions, reset, judges and their model);
- `device`: kind (virtual, emulator, phone), Android release and SDK, display size and
  density, font scale, night mode; `apps`: the versionName and versionCode of each app the
  task uses. Both are read through adb once per device and app per process (`device_facts`).

The session-wide parts are computed once per process; `run_part` is the fingerprint without
the device facts, which `--mobile-resume` compares at collection, before any device is up.
"""

from __future__ import annotations

import hashlib
import json
import re
import sys
from functools import cache
from importlib import metadata
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

import pytest

from pytest_mobile_agent.options import options_of
from pytest_mobile_agent.tasks import TASK_KEY

if TYPE_CHECKING:
    from pytest_mobile_agent.device.android import AndroidDevice

PACKAGE_ROOT = Path(__file__).resolve().parent.parent  # pytest_mobile_agent/
DEVICE_PARTS = ("device", "apps")  # known once a device is up
PROPERTY = "fingerprint"  # the JUnit properties: the fingerprint's canonical JSON ...
ID_PROPERTY = "fingerprint_id"  # ... and its id


def canonical(fingerprint: dict[str, Any]) -> str:
    return json.dumps(fingerprint, sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=str)


def fingerprint_id(fingerprint: dict[str, Any]) -> str:
    return hashlib.sha256(canonical(fingerprint).encode()).hexdigest()[:16]


def run_part(fingerprint: dict[str, Any]) -> str:
    """The fingerprint without the device facts, as canonical JSON: what resume compares."""
    return canonical({k: v for k, v in fingerprint.items() if k not in DEVICE_PARTS})


# -- the plugin --------------------------------------------------------------------------------
@cache
def plugin_part() -> dict[str, Any]:
    try:
        version: str | None = metadata.version("pytest-mobile-agent")
    except metadata.PackageNotFoundError:
        version = None
    return {"version": version, "commit": git_commit(PACKAGE_ROOT.parent)}


def git_commit(checkout: Path) -> str | None:
    """The commit HEAD names in `checkout`, read from the files (no git process); None when it
    is no git checkout (an installed wheel)."""
    dot_git = checkout / ".git"
    try:
        if dot_git.is_file():  # a worktree or a submodule: "gitdir: PATH"
            gitdir = Path(dot_git.read_text().split(":", 1)[1].strip())
            gitdir = gitdir if gitdir.is_absolute() else checkout / gitdir
        elif dot_git.is_dir():
            gitdir = dot_git
        else:
            return None
        head = (gitdir / "HEAD").read_text().strip()
        if not head.startswith("ref:"):
            return head or None
        ref = head[4:].strip()
        common = gitdir / "commondir"
        roots = [gitdir] + ([(gitdir / common.read_text().strip()).resolve()] if common.is_file() else [])
        for root in roots:
            if (root / ref).is_file():
                return (root / ref).read_text().strip()
            packed = root / "packed-refs"
            if packed.is_file():
                for line in packed.read_text().splitlines():
                    if line.endswith(" " + ref):
                        return line.split(" ", 1)[0]
    except (OSError, IndexError):
        return None
    return None


# -- the task ----------------------------------------------------------------------------------
@cache
def file_hash(path: Path) -> str | None:
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError:
        return None


def _helper_files(module: ModuleType | None, root: Path) -> list[Path]:
    """The files of the project's own modules a task module imports (directly): its shared
    helpers. Installed packages and the plugin itself are covered by their versions."""
    if module is None:
        return []
    found: set[Path] = set()
    for value in vars(module).values():
        if isinstance(value, ModuleType):
            filename = getattr(value, "__file__", None)
        elif hasattr(value, "__code__"):  # a function: its own file, even once its module is gone
            filename = value.__code__.co_filename
        else:  # a class, or an object of the helper module's making
            filename = getattr(sys.modules.get(getattr(value, "__module__", "") or ""), "__file__", None)
        if not isinstance(filename, str) or filename == getattr(module, "__file__", None):
            continue
        path = Path(filename).resolve()
        if path.suffix == ".py" and path.is_relative_to(root) and not path.is_relative_to(PACKAGE_ROOT):
            found.add(path)
    return sorted(found)


def source_hash(item: pytest.Item) -> str:
    """sha256 over the task's declaring file, the conftest.py files above it (up to the
    rootdir) and its module's helper files, each named by its path relative to the rootdir."""
    root = item.config.rootpath.resolve()
    declared = Path(item.path).resolve()
    files = [declared]
    folder = declared.parent
    while folder.is_relative_to(root):
        files.append(folder / "conftest.py")
        if folder == root:
            break
        folder = folder.parent
    files += _helper_files(getattr(item, "module", None), root)
    digest = hashlib.sha256()
    for path in files:
        content = file_hash(path)
        if content is not None:
            name = path.relative_to(root) if path.is_relative_to(root) else path.name
            digest.update(f"{name}\0{content}\n".encode())
    return digest.hexdigest()


def suite_of(nodeid: str) -> str:
    """The node id's folder: "task_suites/calculator" for task_suites/calculator/test_x.py::..."""
    path = nodeid.split("::", 1)[0]
    return path.rsplit("/", 1)[0] if "/" in path else "."


TASK_PART_KEY = pytest.StashKey[dict[str, Any]]()


def task_part(item: pytest.Item) -> dict[str, Any]:
    """The suite, the source hash and the locale: once per item (resume asks at collection)."""
    if TASK_PART_KEY not in item.stash:
        task = item.stash.get(TASK_KEY, None)
        options = options_of(item.config)
        item.stash[TASK_PART_KEY] = {
            "suite": suite_of(item.nodeid),
            "source": source_hash(item),
            "locale": options.locale_for(task.spec) if task is not None else options.locale,
        }
    return item.stash[TASK_PART_KEY]


# -- the agent and the model -------------------------------------------------------------------
def _agent_part(config: pytest.Config, agent: object) -> dict[str, Any]:
    options = options_of(config)
    prompts: str | None = None
    if agent is not None:
        files = _prompt_files(agent)
        if files:
            digest = hashlib.sha256()
            for path in files:
                digest.update(f"{path.name}\0{file_hash(path)}\n".encode())
            prompts = digest.hexdigest()
    screenshot = getattr(agent, "needs_screenshot", None)
    version = getattr(agent, "version", None)
    settings = getattr(agent, "settings", None)  # a GUI model's coordinate convention and image side
    return {
        "name": str(getattr(agent, "name", type(agent).__name__)) if agent is not None else None,
        "spec": options.agent,
        "version": str(version) if version is not None else None,
        "prompts": prompts,
        "observation": getattr(agent, "observation_mode", None)
        or (None if screenshot is None else ("screenshot" if screenshot else "hierarchy")),
        "settings": settings() if callable(settings) else None,
    }


def _prompt_files(agent: object) -> list[Path]:
    """The files an agent's prompts come from: a built-in model agent's prompt files (a
    variant's own folder first), and the agent's own source file when it is not the plugin's
    (a user's agent, or a user's variant of a built-in one)."""
    found = []
    names = getattr(agent, "prompt_files", None)
    if isinstance(names, dict) and names:
        from pytest_mobile_agent.agents.baselines.base import PROMPTS

        own = getattr(agent, "prompt_dir", None)
        for filename in sorted(set(names.values())):
            path = Path(own) / filename if own is not None else None
            found.append(path if path is not None and path.is_file() else PROMPTS / filename)
    source = getattr(sys.modules.get(type(agent).__module__), "__file__", None)
    if isinstance(source, str) and not Path(source).resolve().is_relative_to(PACKAGE_ROOT):
        found.append(Path(source))
    return found


def host_class(url: str) -> str:
    """Who serves an endpoint, without the URL: openai, anthropic, google, azure, local or other."""
    host = (urlsplit(url).hostname or "").lower()
    if host in ("localhost", "::1") or host.startswith(("127.", "10.", "192.168.")) or host.endswith(".local"):
        return "local"
    for suffix, name in (
        ("openai.com", "openai"),
        ("anthropic.com", "anthropic"),
        ("googleapis.com", "google"),
        ("azure.com", "azure"),
    ):
        if host == suffix or host.endswith("." + suffix):
            return name
    return "other"


def _model_part(config: pytest.Config, model: str | None = None, agent: object = None) -> dict[str, Any] | None:
    """The model the agent's own client asks (a hook's agent may bring one), else the one the
    --mobile-model* options describe; `model` names the judges' model instead."""
    from pytest_mobile_agent.models.client import ModelConfig
    from pytest_mobile_agent.models.options import model_config

    own = getattr(getattr(agent, "client", None), "config", None)
    cfg = own if isinstance(own, ModelConfig) and model is None else model_config(config, model=model)
    if cfg is None:
        return None
    return {
        "name": cfg.model,
        "api": cfg.api,  # which API the client speaks (models/apis/)
        "host": host_class(cfg.endpoint),
        "temperature": cfg.temperature,
        "max_tokens": cfg.max_tokens,
        "image_side": cfg.image_side,
    }


def _options_part(config: pytest.Config) -> dict[str, Any]:
    options = options_of(config)
    judges = config.getoption("mobile_judge", None) or config.getini("mobile_judge") or None
    judge_model = config.getoption("mobile_judge_model", None) or config.getini("mobile_judge_model") or None
    return {
        "step_factor": options.step_factor,
        "step_timeout": options.step_timeout,
        "max_invalid": options.max_invalid,
        "reset": options.reset,
        "display": list(options.display) if options.display else None,  # --mobile-display: [w, h, dpi]
        "font_scale": options.font_scale,  # --mobile-font-scale
        "night": options.night,  # --mobile-night: yes or no
        "judges": judges,
        "judge_model": _model_part(config, judge_model) if judges and judge_model else None,
    }


SESSION_KEY = pytest.StashKey[dict[str, Any]]()


def session_part(config: pytest.Config) -> dict[str, Any]:
    """The parts every episode of this process shares, computed once."""
    if SESSION_KEY not in config.stash:
        from pytest_mobile_agent.session import mobile_session

        options = options_of(config)
        agent = mobile_session(config).get_agent() if options.runs_tasks else None
        config.stash[SESSION_KEY] = {
            "plugin": plugin_part(),
            "agent": _agent_part(config, agent),
            "model": _model_part(config, agent=agent),
            "seed": options.seed,
            "options": _options_part(config),
        }
    return config.stash[SESSION_KEY]


# -- the device --------------------------------------------------------------------------------
PROBE = (
    "getprop ro.build.version.release; getprop ro.build.version.sdk; getprop ro.kernel.qemu; "
    "getprop ro.hardware; settings get system font_scale; settings get secure ui_night_mode; wm size; wm density"
)  # one line each, but `wm` prints a second line for an override: it comes last
NIGHT_MODES = {"0": "auto", "1": "no", "2": "yes"}  # UiModeManager.MODE_NIGHT_*
_devices: dict[str, dict[str, Any]] = {}  # serial -> the device's facts, read once per process
_apps: dict[tuple[str, str], dict[str, Any] | None] = {}  # (serial, package) -> its installed version


def _value(text: str) -> str | None:
    text = text.strip()
    return None if text in ("", "null") else text


def _last_number_pair(text: str, pattern: str) -> str | None:
    found = re.findall(pattern, text)
    return found[-1] if found else None  # an override ("Override size") comes after the physical one


def device_facts(device: AndroidDevice) -> dict[str, Any]:
    """Kind, Android version, display, font scale, night mode: one adb shell per device and process."""
    if device.serial not in _devices:
        out = device.sh(PROBE, check=False)
        lines = (out.splitlines() + [""] * 8)[:8]
        release, sdk, qemu, hardware = (_value(line) for line in lines[:4])
        kind = "virtual" if hardware == "virtual" else "emulator" if qemu == "1" else "phone"
        font_scale, night = _value(lines[4]), _value(lines[5])
        _devices[device.serial] = {
            "kind": kind,
            "android": release,
            "sdk": int(sdk) if sdk and sdk.isdigit() else sdk,
            "display": _last_number_pair(out, r"size: (\d+x\d+)"),
            "density": int(d) if (d := _last_number_pair(out, r"density: (\d+)")) else None,
            "font_scale": font_scale,
            "night_mode": NIGHT_MODES.get(night or "", night),
        }
    return _devices[device.serial]


def app_versions(device: AndroidDevice, packages: tuple[str, ...]) -> dict[str, Any]:
    """versionName and versionCode of each package (None: not installed), read once per device
    and package per process, all unknown ones in one adb shell."""
    missing = [p for p in packages if (device.serial, p) not in _apps]
    if missing:
        script = "; ".join(f"echo '@@{p}'; dumpsys package {p} | grep -E 'versionCode=|versionName='" for p in missing)
        out = device.sh(script, check=False)
        for chunk in out.split("@@")[1:]:
            package, _, text = chunk.partition("\n")
            code = re.search(r"versionCode=(\d+)", text)
            name = re.search(r"versionName=(\S+)", text)
            _apps[(device.serial, package.strip())] = (
                {"versionName": name.group(1) if name else None, "versionCode": int(code.group(1)) if code else None}
                if code or name
                else None
            )
        for package in missing:
            _apps.setdefault((device.serial, package), None)
    return {p: _apps[(device.serial, p)] for p in packages}


# -- an item's fingerprint ---------------------------------------------------------------------
def of_item(item: pytest.Item, device: AndroidDevice | None = None) -> dict[str, Any]:
    """The item's fingerprint; the device facts when its device is given (else None)."""
    task = item.stash.get(TASK_KEY, None)
    fingerprint = {**session_part(item.config), "task": task_part(item), "device": None, "apps": None}
    if device is not None:
        try:
            fingerprint["device"] = device_facts(device)
            fingerprint["apps"] = app_versions(device, tuple(task.apps) if task is not None else ())
        except Exception:  # a device that went away: the record says so by its termination
            fingerprint["device"] = fingerprint["apps"] = None
    return fingerprint


def of_nodeid(config: pytest.Config, nodeid: str) -> dict[str, Any]:
    """What the xdist controller knows of a task it did not collect (a worker died running it)."""
    return {
        **session_part(config),
        "task": {"suite": suite_of(nodeid), "source": None, "locale": options_of(config).locale},
        "device": None,
        "apps": None,
    }


def environment(config: pytest.Config, records: list[dict[str, Any]]) -> dict[str, str]:
    """The session-wide parts for Allure's environment.properties, as flat keys."""
    part = session_part(config)
    env = {
        "plugin.commit": str(part["plugin"]["commit"] or "-"),
        "agent.prompts": str(part["agent"]["prompts"] or "-"),
        "agent.observation": str(part["agent"]["observation"] or "-"),
        "seed": str(part["seed"]),
    }
    for key, value in (part["model"] or {}).items():
        env[f"model.{key}"] = str(value)
    for key, value in part["options"].items():
        env[f"options.{key}"] = canonical(value) if isinstance(value, dict) else str(value)
    kinds = {((r.get("fingerprint") or {}).get("device") or {}).get("kind") for r in records}
    env["device.kinds"] = ", ".join(sorted(str(k) for k in kinds if k)) or "?"
    return env
