"""Task variations: `@task(variations=fn)` drawn under `--mobile-variations=N --mobile-seed=S`.

`fn(rng)` returns a dict of the task's parameters. Each declared case of the task (each set of
its `@pytest.mark.parametrize` values, or the task itself when it has none) becomes N items, ids
`<case id>-v1` .. `<case id>-vN` (`v1`..`vN` for a task without parameters), which run the drawn
values instead of the declared ones: the declared case is the template, the drawn dict replaces
the values it names. A `fn` that takes more than the generator gets the case's parameters of
those names, so one function can vary several named tasks (`def vary(rng, name): ...`).

Variation i of a case is drawn from `random.Random(sha256(S, the task's name, the case, i))`, so
the same seed gives the same variations on every host and in every xdist worker (whose
collections must agree), and another seed others. Python's `hash()` is salted per process and is
not used.
"""

from __future__ import annotations

import hashlib
import inspect
import itertools
import json
import random
import string
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from pytest_mobile_agent.errors import TaskDefinitionError
from pytest_mobile_agent.tasks import TaskSpec, check_variations

PRIMITIVE = (str, int, float, bool, type(None))  # values whose text is the same on every host


def generator(seed: int, name: str, case: dict[str, Any], index: int) -> random.Random:
    """The generator of variation `index` of a task's case: seeded with a sha256 of the session
    seed, the task's name, the case's plain values (others by name only) and the index."""
    plain = {k: (v if isinstance(v, PRIMITIVE) else f"<{k}>") for k, v in sorted(case.items())}
    key = json.dumps([seed, name, plain, index], sort_keys=True, ensure_ascii=True)
    return random.Random(int.from_bytes(hashlib.sha256(key.encode()).digest()[:16], "big"))


def case_names(fn: Callable[..., Any]) -> list[str]:
    """The case parameters `fn` asks for after the generator."""
    params = list(inspect.signature(fn).parameters.values())[1:]
    return [p.name for p in params if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)]


def _parameters(obj: object) -> set[str]:
    if not callable(obj):
        return set()
    try:
        return set(inspect.signature(obj).parameters)
    except (TypeError, ValueError):
        return set()


def known_names(spec: TaskSpec, body: Callable[..., Any], parametrized: Sequence[str]) -> set[str]:
    """The names a variation may give: the parametrized ones, or (a task without parameters)
    the body's, the prompt's and those of its golden, near-miss and judge-input functions."""
    if parametrized:
        return set(parametrized)
    names = _parameters(body)
    if isinstance(spec.prompt, str):
        try:
            names |= {f for _, f, _, _ in string.Formatter().parse(spec.prompt) if f}
        except ValueError:
            pass
    for fn in (spec.golden, *spec.near_misses().values(), *spec.judge_inputs.values()):
        names |= _parameters(fn)
    return names


def draw(spec: TaskSpec, name: str, case: dict[str, Any], index: int, seed: int, known: set[str]) -> dict[str, Any]:
    """Variation `index` (1-based) of one case: the dict `spec.variations` returns, checked."""
    fn = spec.variations
    check_variations(fn)
    assert fn is not None
    wanted = case_names(fn)
    missing = [n for n in wanted if n not in case]
    if missing:
        raise TaskDefinitionError(
            f"variations asks for {', '.join(missing)}, which the task's cases do not give "
            "(its parameters after the generator are read from @pytest.mark.parametrize)"
        )
    try:
        drawn = fn(generator(seed, name, case, index), **{n: case[n] for n in wanted})
    except Exception as exc:
        raise TaskDefinitionError(f"the variations function raised {type(exc).__name__}: {exc}") from exc
    if not isinstance(drawn, dict) or not all(isinstance(k, str) for k in drawn):
        raise TaskDefinitionError(f"variations must return a dict of parameter names to values, not {drawn!r}")
    unknown = sorted(set(drawn) - known)
    if unknown:
        raise TaskDefinitionError(
            f"variations gives {', '.join(unknown)}, not parameters of the task "
            f"(it has: {', '.join(sorted(known)) or 'none'})"
        )
    return drawn


@dataclass
class Case:
    """One declared case: its parameters, its id, and the marks `pytest.param` gave it."""

    values: dict[str, Any] = field(default_factory=dict)
    ids: list[str] = field(default_factory=list)
    marks: list[Any] = field(default_factory=list)

    @property
    def id(self) -> str:
        return "-".join(self.ids)


def _id_of(value: object, argname: str, index: int) -> str:
    """pytest's default id of a value: its text where it is plain, else the name and index."""
    if isinstance(value, str):
        return value.encode("unicode_escape").decode("ascii")
    if isinstance(value, PRIMITIVE):
        return str(value)
    return f"{argname}{index}"


def _mark_cases(mark: Any) -> tuple[list[str], list[Case]]:
    """The cases of one @pytest.mark.parametrize mark, with ids as pytest gives them."""
    argnames, argvalues = mark.args[0], list(mark.args[1])
    names = [n.strip() for n in argnames.split(",")] if isinstance(argnames, str) else list(argnames)
    ids = mark.kwargs.get("ids")
    cases = []
    for index, raw in enumerate(argvalues):
        is_param = all(hasattr(raw, a) for a in ("values", "marks", "id")) and isinstance(raw, tuple)
        values = tuple(raw.values) if is_param else (raw,) if len(names) == 1 else tuple(raw)
        if len(values) != len(names):
            raise TaskDefinitionError(f"parametrize case {index}: {len(values)} values for {len(names)} names")
        explicit = raw.id if is_param else None
        if explicit is None and isinstance(ids, Sequence) and not isinstance(ids, str) and index < len(ids):
            explicit = ids[index]
        if explicit is None and callable(ids):
            parts = [ids(v) for v in values]
            text = "-".join(p if isinstance(p, str) else _id_of(v, n, index) for p, v, n in zip(parts, values, names))
        else:
            text = (
                str(explicit) if explicit is not None else "-".join(_id_of(v, n, index) for v, n in zip(values, names))
            )
        cases.append(Case(dict(zip(names, values)), [text], list(raw.marks) if is_param else []))
    return names, cases


def declared_cases(marks: Iterable[Any]) -> tuple[list[str], list[Case]]:
    """The product of a function's parametrize marks (stacked marks combine as pytest combines
    them): the names and the cases. No marks: one case without parameters."""
    names: list[str] = []
    product = [Case()]
    for mark in marks:
        mark_names, cases = _mark_cases(mark)
        names += mark_names
        product = [
            Case({**a.values, **b.values}, [*a.ids, *b.ids], [*a.marks, *b.marks])
            for a, b in itertools.product(product, cases)
        ]
    return names, product
