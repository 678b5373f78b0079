"""Declaring tasks: a (parametrized) pytest function whose body is its success condition.

    @pytest.mark.parametrize("keys, expected", [("3+5=", "8")])
    @task(prompt="Calculate '{keys}'", app=CALCULATOR, golden=lambda keys: [Tap(text=k) for k in keys])
    def test_calc(ui, events, expected):
        assert ui.text_of("result") == expected
        assert events.clicked(text="=")

The plugin runs the agent in the call phase, evaluates the body after every action and every
accessibility event (an AssertionError means "not yet") and once more on the final state,
whose assertion decides the outcome. Bodies must only read state.
"""

from __future__ import annotations

import difflib
import inspect
import math
import re
import string
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

import pytest

from pytest_mobile_agent.actions import Action, InvalidAction
from pytest_mobile_agent.errors import TaskDefinitionError
from pytest_mobile_agent.locales import LocaleError
from pytest_mobile_agent.locales import normalize as normalize_locale

DIFFICULTIES = ("easy", "medium", "hard")
ATTR = "__mobile_task__"
NEAR_MISS_ARG = "mobile_near_miss"  # the parameter that picks one near miss under --agent=near-miss
REPEAT_ARG = "mobile_repeat"  # --mobile-repeat=K: which of a task's K runs an item is (1..K)
VARIATION_ARG = "mobile_variation"  # --mobile-variations=N: which drawn variation an item runs (1..N)
ActionPath = Sequence[Action] | Callable[..., Sequence[Action]]
F = TypeVar("F", bound=Callable[..., object])  # a test function, returned as it came


def difficulty_for(golden_steps: int) -> str:
    """MobileAgentBench's bands: easy <= 2 steps, medium 3-6, hard >= 7."""
    return "easy" if golden_steps <= 2 else "medium" if golden_steps <= 6 else "hard"


def app_marker(package: str) -> str:
    """A short marker name for an app: com.simplemobiletools.contacts.pro -> contacts."""
    parts = [p for p in package.split(".") if p not in ("pro", "com", "org", "android", "google", "apps")]
    name = parts[-1] if parts else package
    return re.sub(r"\W", "_", name.lower())


@dataclass(frozen=True)
class TaskSpec:
    prompt: str | None
    apps: tuple[str, ...]
    golden: Sequence[Action] | Callable[..., Sequence[Action]] | None = None
    golden_steps: int | None = None
    difficulty: str | None = None
    tags: tuple[str, ...] = ()
    grants: tuple[str, ...] = ()
    launch: bool = True
    max_steps: int | None = None
    name: str | None = None
    online: bool = False
    near_miss: ActionPath | Mapping[str, ActionPath] | None = None
    extra: dict[str, Any] = field(default_factory=dict)
    judge_inputs: dict[str, Any] = field(default_factory=dict)  # key_components, checkpoints, substates
    judge_only: bool = False
    # The body declares (through the `changes` fixture) every durable change it asked for; any
    # other change fails the task. Off for task files of other benchmarks, which declare none.
    check_changes: bool = False
    # A task file's own apps (SPA-Bench, Mobile-Bench): when one is not installed the task is
    # skipped, as online tasks are, with this label and the package in the reason.
    skip_missing: str | None = None
    locale: str | None = None  # the device's locale for this task (normalized); --mobile-locale wins
    variations: Callable[..., dict[str, Any]] | None = None  # fn(rng) -> parameters (variations.py)

    def near_misses(self) -> dict[str, ActionPath]:
        """The near misses by label; one given without a label is called "near-miss"."""
        if self.near_miss is None:
            return {}
        if isinstance(self.near_miss, Mapping):
            return dict(self.near_miss)
        return {"near-miss": self.near_miss}


def task(
    prompt: str | None = None,
    app: str | Sequence[str] = (),
    *,
    golden: Sequence[Action] | Callable[..., Sequence[Action]] | None = None,
    golden_steps: int | None = None,
    difficulty: str | None = None,
    tags: Sequence[str] = (),
    grants: Sequence[str] = (),
    launch: bool = True,
    max_steps: int | None = None,
    name: str | None = None,
    online: bool = False,
    near_miss: ActionPath | Mapping[str, ActionPath] | None = None,
    key_components: Sequence[str] | Callable[..., Sequence[str]] | None = None,
    checkpoints: dict[str, Any] | Callable[..., dict[str, Any]] | None = None,
    substates: Sequence[str] | Callable[..., Sequence[str]] | None = None,
    judge_only: bool = False,
    check_changes: bool = True,
    locale: str | None = None,
    variations: Callable[..., dict[str, Any]] | None = None,
    **extra: Any,
) -> Callable[[F], F]:
    """Declare a benchmark task on a test function (see the module docstring).

    `near_miss` is the golden path with one thing wrong (a wrong value, the wrong item, a step
    undone, something asked done and something else changed too), or several of them by label:
    `{"renamed instead of created": [...], "another note deleted too": [...]}`. Under
    `--agent=near-miss` the task runs once per label (the label in the test id), and must fail
    under every one.

    `locale`: the device's locale for this task ("zh-CN"; default en-US), set at its reset as
    on Android; an explicit `--mobile-locale` wins over it. A golden path is written with the
    apps' English texts and replayed in the device's locale (`pytest_mobile_agent.locales`).

    `check_changes`: the task fails on any durable change (contacts, SMS, files, app data,
    packages) its body did not declare through the `changes` fixture; a body that declares none
    asserts that nothing durable changed.

    `variations`: a function of a seeded `random.Random` returning the task's parameters (the
    names its `@pytest.mark.parametrize` gives, or its body's, prompt's and golden path's when
    it has none), `lambda rng: {"a": rng.randint(2, 9)}`. Under `--mobile-variations=N` each
    declared case runs as N drawn variations instead (ids `<case>-v1`..), drawn from
    `--mobile-seed` the same on every host; parameters after the generator are read from the
    case (`def vary(rng, name)`). See `pytest_mobile_agent.variations`.

    The declaration is checked when the test is collected, not here: a malformed task fails
    alone, with a message naming it, and the file's other tasks still run.

    What judges need (`pytest_mobile_agent.judges`; each may be a function of the parameters):
    `key_components` (texts the final screen must show: SPA-Bench), `checkpoints` (Mobile-Bench:
    {"package": ..., "key_phrases": [...], "api": [...]}), `substates` (AutoEval's reference
    substates, "PageNode(content=..., parent_id=None)" lines). `judge_only=True`: the body is no
    success condition (a task file of another benchmark); the judges of `--mobile-judge` decide,
    and without one the task fails.
    """
    if isinstance(near_miss, Mapping) and not all(isinstance(k, str) and k for k in near_miss):
        raise TaskDefinitionError("near_miss labels must be non-empty strings")
    apps = (app,) if isinstance(app, str) else tuple(app)
    spec = TaskSpec(
        prompt=prompt,
        apps=apps,
        golden=golden,
        golden_steps=golden_steps,
        difficulty=difficulty,
        tags=tuple(tags),
        grants=tuple(grants),
        launch=launch,
        max_steps=max_steps,
        name=name,
        online=online,
        near_miss=near_miss,
        extra=extra,
        judge_only=judge_only,
        check_changes=check_changes,
        locale=locale,
        variations=variations,
        judge_inputs={
            k: v
            for k, v in (("key_components", key_components), ("checkpoints", checkpoints), ("substates", substates))
            if v is not None
        },
    )

    def decorate(fn: F) -> F:
        setattr(fn, ATTR, spec)
        # The episode needs these whatever the body asks for; marks are stored on `fn` itself.
        used = ("device", "ui", "events", "agent", NEAR_MISS_ARG, REPEAT_ARG, VARIATION_ARG)
        pytest.mark.usefixtures(*used)(pytest.mark.mobile_task(fn))
        return fn

    return decorate


def spec_of(obj: object) -> TaskSpec | None:
    return getattr(obj, ATTR, None)


@dataclass(frozen=True)
class TaskInstance:
    """A task with its parameters bound: what one episode runs."""

    name: str
    spec: TaskSpec
    prompt: str
    golden: tuple[Action, ...]
    golden_steps: int
    difficulty: str
    params: dict[str, Any]
    near_miss: tuple[Action, ...] = ()
    judge_inputs: dict[str, Any] = field(default_factory=dict)
    golden_borrowed: bool = False  # the golden path of a suite task with another setup (formats/mobileagentbench.py)
    apis: tuple[str, ...] = ()  # the task's API action space, one line per command (Mobile-Bench's API list)
    repeat: int | None = None  # which run of --mobile-repeat=K (1..K); None: not repeated
    variation: int | None = None  # which drawn variation (1..N); None: the task as declared

    @property
    def apps(self) -> tuple[str, ...]:
        return self.spec.apps

    def budget(self, factor: float) -> int:
        if self.spec.max_steps is not None:
            return self.spec.max_steps
        return max(1, math.ceil(self.golden_steps * factor))


TASK_KEY = pytest.StashKey[TaskInstance]()  # the task an item runs, bound at collection


def without_repeat(nodeid: str) -> str:
    """A node id with its `r{k}` id component (--mobile-repeat) removed: the key that pairs the
    runs of one task across its repeats. `t.py::test_x[3 + 5-r2]` -> `t.py::test_x[3 + 5]`,
    `t.py::test_x[r2]` -> `t.py::test_x`."""
    if nodeid.endswith("]"):
        stripped = re.sub(r"\[r\d+\]$", "", nodeid)
        return stripped if stripped != nodeid else re.sub(r"-r\d+\]$", "]", nodeid)
    return nodeid


def task_name(spec: TaskSpec, function: str, params: dict[str, Any]) -> str:
    """The name an episode is recorded under: @task(name=...), else a `name` parameter (one
    parametrized function, many named tasks), else the function's name (its cases differ by
    node id and parameters)."""
    if spec.name:
        return spec.name
    name = params.get("name")
    return name if isinstance(name, str) and name else function


def _call_with_params(fn: Callable[..., object], params: dict[str, Any]) -> object:
    sig = inspect.signature(fn)
    if any(p.kind is p.VAR_KEYWORD for p in sig.parameters.values()):
        return fn(**params)
    return fn(**{k: v for k, v in params.items() if k in sig.parameters})


def _actions(raw: object, what: str) -> tuple[Action, ...]:
    if raw is None:
        return ()
    if isinstance(raw, str | bytes) or not isinstance(raw, Sequence):
        raise TaskDefinitionError(
            f"{what} must be a list of actions (or a function of the parameters returning one), "
            f"not {raw!r} ({type(raw).__name__})"
        )
    actions = []
    for i, item in enumerate(raw, 1):
        try:
            actions.append(Action.parse(item))
        except InvalidAction as exc:
            raise TaskDefinitionError(f"{what} step {i}: {exc}") from exc
    return tuple(actions)


def _build(fn: object, params: dict[str, Any], what: str) -> object:
    if not callable(fn):
        return fn
    try:
        return _call_with_params(fn, params)
    except Exception as exc:
        raise TaskDefinitionError(f"the {what} function raised {type(exc).__name__}: {exc}") from exc


# What @task keeps in `extra` besides its named arguments: the judge of a judge-only task.
EXTRA_ARGUMENTS = ("judge",)


def _check_arguments(spec: TaskSpec) -> None:
    """Every @task argument known and of its type: a misspelt one (`max_step=`) would otherwise
    be ignored, and a nonsense value (`max_steps=-3`) would run."""
    unknown = sorted(set(spec.extra) - set(EXTRA_ARGUMENTS))
    if unknown:
        known = [*inspect.signature(task).parameters, *EXTRA_ARGUMENTS]
        named = []
        for name in unknown:
            close = difflib.get_close_matches(name, known, n=1)
            named.append(f"{name} (did you mean {close[0]}?)" if close else name)
        raise TaskDefinitionError(f"unknown @task argument{'s' if len(named) > 1 else ''}: {', '.join(named)}")
    for name in ("max_steps", "golden_steps"):
        value = getattr(spec, name)
        if value is not None and (not isinstance(value, int) or isinstance(value, bool) or value <= 0):
            raise TaskDefinitionError(f"{name} must be a whole number of steps from 1, not {value!r}")
    for name in ("launch", "online", "judge_only", "check_changes"):
        if not isinstance(getattr(spec, name), bool):
            raise TaskDefinitionError(f"{name} must be True or False, not {getattr(spec, name)!r}")
    for name in ("tags", "grants"):
        if not all(isinstance(v, str) and v for v in getattr(spec, name)):
            raise TaskDefinitionError(f"{name} must be a list of non-empty strings, not {getattr(spec, name)!r}")
    if spec.name is not None and not (isinstance(spec.name, str) and spec.name):
        raise TaskDefinitionError(f"name must be a non-empty string, not {spec.name!r}")
    if spec.variations is not None:
        check_variations(spec.variations)


def check_variations(fn: object) -> None:
    """`variations` is a function whose first parameter takes the random generator."""
    if not callable(fn):
        raise TaskDefinitionError(
            f"variations must be a function of a random.Random returning the parameters, not {fn!r}"
        )
    try:
        params = list(inspect.signature(fn).parameters.values())
    except (TypeError, ValueError) as exc:
        raise TaskDefinitionError(f"variations: cannot read the function's signature ({exc})") from exc
    if not params or params[0].kind in (params[0].VAR_KEYWORD, params[0].KEYWORD_ONLY):
        raise TaskDefinitionError("variations must take the random generator as its first parameter: fn(rng)")


def _check_declaration(spec: TaskSpec) -> str:
    """The prompt template, once the declaration is known to be whole."""
    _check_arguments(spec)
    if spec.prompt is None:
        raise TaskDefinitionError("no prompt: declare it with @task(prompt='...', app='...')")
    if not isinstance(spec.prompt, str):
        raise TaskDefinitionError(f"the prompt must be a string, not {spec.prompt!r} ({type(spec.prompt).__name__})")
    if not spec.apps or not all(isinstance(a, str) and a for a in spec.apps):
        raise TaskDefinitionError(f"app must be a package name or a list of them, not {spec.apps!r}")
    if spec.locale is not None:
        try:
            normalize_locale(spec.locale)
        except (LocaleError, AttributeError) as exc:
            raise TaskDefinitionError(f"locale: {exc}") from exc
    if spec.difficulty is not None and spec.difficulty not in DIFFICULTIES:
        raise TaskDefinitionError(f"difficulty must be one of {', '.join(DIFFICULTIES)}, not {spec.difficulty!r}")
    return spec.prompt


def instantiate(spec: TaskSpec, name: str, params: dict[str, Any]) -> TaskInstance:
    """Bind parameters: render the prompt template, build the golden path and the near miss
    (the one `params[NEAR_MISS_ARG]` names, else the first). Raises TaskDefinitionError with what
    is wrong (the caller names the file and the test)."""
    template = _check_declaration(spec)
    params = dict(params)
    label = params.pop(NEAR_MISS_ARG, None)
    repeat, variation = params.pop(REPEAT_ARG, None), params.pop(VARIATION_ARG, None)
    try:
        fields = {f for _, f, _, _ in string.Formatter().parse(template) if f}
    except ValueError as exc:
        raise TaskDefinitionError(f"the prompt is not a valid template ({exc}): {template!r}") from exc
    missing = fields - set(params)
    if missing:
        raise TaskDefinitionError(
            f"prompt uses {{{', '.join(sorted(missing))}}} but the test has no such parameter "
            "(add it to @pytest.mark.parametrize)"
        )
    try:
        prompt = template.format_map(params)
    except (KeyError, IndexError, ValueError, AttributeError) as exc:
        raise TaskDefinitionError(f"the prompt cannot be rendered ({type(exc).__name__}: {exc})") from exc
    golden = _actions(_build(spec.golden, params, "golden"), "golden path")
    steps = spec.golden_steps if spec.golden_steps is not None else len(golden)
    if not isinstance(steps, int) or steps <= 0:
        raise TaskDefinitionError("give golden steps (golden_steps=N or a golden path)")
    if golden and spec.golden_steps is not None and len(golden) != spec.golden_steps:
        raise TaskDefinitionError(f"the golden path has {len(golden)} actions but golden_steps={spec.golden_steps}")
    near_misses = spec.near_misses()
    if label is not None and label not in near_misses:
        raise TaskDefinitionError(f"no near miss labelled {label!r}")
    chosen = near_misses.get(label) if label is not None else next(iter(near_misses.values()), None)
    near_miss = _actions(_build(chosen, params, "near_miss"), f"near_miss path {label or ''}".strip())
    judge_inputs = {k: _call_with_params(v, params) if callable(v) else v for k, v in spec.judge_inputs.items()}
    return TaskInstance(
        name,
        spec,
        prompt,
        golden,
        steps,
        spec.difficulty or difficulty_for(steps),
        params,
        near_miss,
        judge_inputs,
        repeat=repeat,
        variation=variation,
    )
