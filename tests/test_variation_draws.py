"""pytest_mobile_agent/variations.py: the generator each variation is drawn from, the declared
cases a task's parametrize marks give (with pytest's ids), and the checks on what a variations
function returns. Collection and runs are in tests/e2e/test_task_variations.py."""

from __future__ import annotations

import pytest

from pytest_mobile_agent.errors import TaskDefinitionError
from pytest_mobile_agent.tasks import task
from pytest_mobile_agent.variations import declared_cases, draw, generator, known_names

CALC = "com.simplemobiletools.calculator"


def draws(seed: int, name: str, case: dict, index: int) -> list[int]:
    rng = generator(seed, name, case, index)
    return [rng.randint(0, 10**9) for _ in range(4)]


def test_the_generator_depends_on_seed_name_case_and_index_only():
    base = draws(0, "calculator_add", {"a": 1}, 1)
    assert draws(0, "calculator_add", {"a": 1}, 1) == base
    assert draws(1, "calculator_add", {"a": 1}, 1) != base
    assert draws(0, "calculator_cube", {"a": 1}, 1) != base
    assert draws(0, "calculator_add", {"a": 2}, 1) != base
    assert draws(0, "calculator_add", {"a": 1}, 2) != base


def test_a_case_value_without_a_stable_text_is_keyed_by_its_name():
    # Two objects print differently (their addresses), but a variation must not change with them.
    assert draws(0, "t", {"x": object()}, 1) == draws(0, "t", {"x": object()}, 1)


def marks_of(fn) -> list:
    return [m for m in fn.pytestmark if m.name == "parametrize"]


def test_declared_cases_take_ids_as_pytest_gives_them():
    @pytest.mark.parametrize("b", [pytest.param(5, id="five"), 6])
    @pytest.mark.parametrize("a, c", [(1, "x"), (2, [3])], ids=["one", "two"])
    def f(a, b, c): ...

    names, cases = declared_cases(marks_of(f))
    assert names == ["a", "c", "b"]
    assert [c.id for c in cases] == ["one-five", "one-6", "two-five", "two-6"]
    assert cases[3].values == {"a": 2, "c": [3], "b": 6}


def test_default_ids_escape_what_pytest_escapes_and_name_other_values_by_index():
    @pytest.mark.parametrize("s, obj", [("√16", object()), ("a b", None)])
    def f(s, obj): ...

    assert [c.id for c in declared_cases(marks_of(f))[1]] == ["\\u221a16-obj0", "a b-None"]


def test_a_function_without_marks_has_one_case_without_parameters():
    assert [(c.values, c.id) for c in declared_cases([])[1]] == [({}, "")]


def spec(**kwargs):
    @task(prompt="Calculate {a} + {b}", app=CALC, golden=lambda a, b: [], **kwargs)
    def test_sum(ui, expected): ...

    return test_sum.__mobile_task__, test_sum


def test_the_known_names_are_the_parametrized_ones_or_those_the_task_reads():
    s, fn = spec(variations=lambda rng: {})
    assert known_names(s, fn, ["a", "b"]) == {"a", "b"}
    assert known_names(s, fn, []) == {"ui", "expected", "a", "b"}


@pytest.mark.parametrize(
    "variations, message",
    [
        (lambda rng: {"c": 1}, "variations gives c, not parameters of the task (it has: a, b)"),
        (lambda rng: None, "variations must return a dict of parameter names to values, not None"),
        (lambda rng: {1: 2}, "variations must return a dict of parameter names to values"),
        (lambda rng: rng.choice([]), "the variations function raised IndexError"),
        (lambda rng, city: {}, "variations asks for city, which the task's cases do not give"),
        ("3", "variations must be a function of a random.Random returning the parameters, not '3'"),
        (lambda: {}, "variations must take the random generator as its first parameter: fn(rng)"),
    ],
)
def test_a_bad_variation_says_what_is_wrong(variations, message):
    s, _ = spec(variations=variations)
    with pytest.raises(TaskDefinitionError, match="^" + message.replace("(", r"\(").replace(")", r"\)")):
        draw(s, "test_sum", {"a": 1, "b": 2}, 1, 0, {"a", "b"})


def test_the_variations_function_gets_the_case_parameters_it_names():
    s, _ = spec(variations=lambda rng, a: {"b": a + rng.randint(1, 1)})
    assert draw(s, "test_sum", {"a": 5, "b": 0}, 1, 0, {"a", "b"}) == {"b": 6}
