"""`--agent`: a built-in name, a path to a .py file, or `package.module:attribute`, made into an agent."""

from __future__ import annotations

import importlib
import importlib.util
import inspect
import sys
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import cast

from pytest_mobile_agent.agents import Agent, AgentLoadError, Observation, RawAction, kind_of
from pytest_mobile_agent.agents.builtin import NearMissAgent, NoopAgent, OracleAgent, RandomAgent

BUILTIN: dict[str, Callable[[], Agent]] = {
    "oracle": OracleAgent,
    "noop": NoopAgent,
    "random": RandomAgent,
    "near-miss": NearMissAgent,
}
# The model-backed baselines (agents/baselines/), imported only when named: they need a model.
MODEL_AGENTS = (
    "t3a",
    "m3a",
    "appagent",
    "mobile-bench",
    "ui-tars",
    "qwen-vl",
    "autoglm",
    "gui-owl",
    "agentcpm-gui",
    "openai-computer-use",
    "anthropic-computer-use",
    "gemini-computer-use",
)


def _instantiate(obj: object, where: str) -> Agent:
    made: object = obj
    if inspect.isclass(obj):
        try:
            made = obj()
        except TypeError as exc:
            raise AgentLoadError(f"{where}: cannot create {obj.__name__}() without arguments: {exc}") from exc
    elif inspect.isfunction(obj) and not hasattr(obj, "step"):
        params = inspect.signature(obj).parameters
        if len(params) == 1 and next(iter(params)) == "observation":
            fn = obj

            class _FunctionAgent:
                name = fn.__name__

                def step(self, observation: Observation) -> RawAction:
                    action: RawAction = fn(observation)
                    return action

            return _FunctionAgent()
        try:
            made = obj()
        except TypeError as exc:
            raise AgentLoadError(f"{where}: the factory {obj.__name__}() needs arguments: {exc}") from exc
    kind_of(made)  # raises unless it has step() or run()
    return cast(Agent, made)


def _from_module(module: ModuleType, where: str) -> Agent:
    for attr in ("agent", "make_agent", "Agent"):
        if hasattr(module, attr):
            return _instantiate(getattr(module, attr), f"{where}:{attr}")
    candidates = [
        v
        for k, v in vars(module).items()
        if inspect.isclass(v) and v.__module__ == module.__name__ and (hasattr(v, "step") or hasattr(v, "run"))
    ]
    if len(candidates) == 1:
        return _instantiate(candidates[0], f"{where}:{candidates[0].__name__}")
    found = ", ".join(c.__name__ for c in candidates) or "none"
    raise AgentLoadError(
        f"{where} defines no agent: expected a variable `agent`, a factory `make_agent()`, a class `Agent`, "
        f"or exactly one class with a step() or run() method (found: {found})"
    )


def load_agent(spec: str, *, seed: int = 0) -> Agent:
    """`--agent`: a built-in name, a path to a .py file, or `package.module:attribute`."""
    spec = spec.strip()
    if spec in BUILTIN:
        return RandomAgent(seed) if spec == "random" else BUILTIN[spec]()
    if spec in MODEL_AGENTS:
        from pytest_mobile_agent.agents.baselines import MODEL_AGENTS as made

        return made[spec]()
    if spec.endswith(".py") or "/" in spec or "\\" in spec:
        path = Path(spec).expanduser()
        if not path.is_file():
            raise AgentLoadError(f"--agent={spec}: file not found ({path.resolve()})")
        name = f"_mobile_agent_{path.stem}"
        module_spec = importlib.util.spec_from_file_location(name, path)
        if module_spec is None or module_spec.loader is None:
            raise AgentLoadError(f"--agent={spec}: cannot import {path}")
        module = importlib.util.module_from_spec(module_spec)
        sys.modules[name] = module
        try:
            module_spec.loader.exec_module(module)
        except Exception as exc:
            raise AgentLoadError(f"--agent={spec}: importing {path} raised {type(exc).__name__}: {exc}") from exc
        return _from_module(module, str(path))
    module_name, _, attr = spec.partition(":")
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        builtin = ", ".join((*BUILTIN, *MODEL_AGENTS))
        raise AgentLoadError(
            f"--agent={spec}: no built-in agent, file or module of that name (built-ins: {builtin}; "
            f"files end in .py; modules look like package.module:attr): {exc}"
        ) from exc
    if not attr:
        return _from_module(module, module_name)
    if not hasattr(module, attr):
        raise AgentLoadError(f"--agent={spec}: module {module_name} has no attribute {attr!r}")
    return _instantiate(getattr(module, attr), spec)
