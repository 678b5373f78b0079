"""--mobile-shard=I/N: the shards partition the suite, the same way whatever the collection order,
balanced by golden steps; a bad value is a usage error."""

from __future__ import annotations

import random

import pytest

from pytest_mobile_agent.parallel.shards import split

# Tasks of 1..9 golden steps (three of each length up to 6, then longer ones), one test each.
GOLDEN = [1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4, 5, 5, 5, 6, 6, 6, 7, 8, 9]
TASKS = """
import pytest
from pytest_mobile_agent import Tap, task

GOLDEN = {golden!r}

@pytest.mark.parametrize("n", GOLDEN, ids=[f"t{{i}}-g{{g}}" for i, g in enumerate(GOLDEN)])
@task(prompt="Tap {{n}} times", app="com.simplemobiletools.calculator",
      golden=lambda n: [Tap(text="1")] * n)
def test_taps(ui):
    assert ui.text_of("result") == "1"

def test_plain():
    pass
"""
REVERSED = """
import pytest

@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items):
    items.reverse()  # another host may collect in another order
"""


def collected(pytester: pytest.Pytester, *args: str) -> list[str]:
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "--collect-only", "-q", "--agent=noop", *args)
    assert result.ret == 0, result.stdout.str()
    return [line for line in result.outlines if "::" in line]


def load(nodeids: list[str]) -> int:
    """Golden steps of a shard: the task ids end in -gN; the plain test weighs 1."""
    return sum(int(n.rsplit("-g", 1)[1].rstrip("]")) if "-g" in n else 1 for n in nodeids)


def test_shards_partition_the_suite_in_balance(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(test_tasks=TASKS.format(golden=GOLDEN))
    everything = collected(pytester)
    assert len(everything) == len(GOLDEN) + 1
    shards = [collected(pytester, f"--mobile-shard={i}/3") for i in (1, 2, 3)]
    joined = [n for shard in shards for n in shard]
    assert sorted(joined) == sorted(everything)  # the union is the suite, nothing twice
    loads = [load(s) for s in shards]
    assert sum(loads) == sum(GOLDEN) + 1
    assert max(loads) - min(loads) <= max(GOLDEN), loads  # greedy: within one task of even
    assert max(loads) - min(loads) <= 1, loads  # and here, with many small tasks, even

    pytester.makeconftest(REVERSED)
    assert [sorted(collected(pytester, f"--mobile-shard={i}/3")) for i in (1, 2, 3)] == [sorted(s) for s in shards]


def test_a_shard_reports_the_rest_as_deselected(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(test_tasks=TASKS.format(golden=GOLDEN))
    result = pytester.runpytest_subprocess(
        "-p", "no:cacheprovider", "--collect-only", "--agent=noop", "--mobile-shard=2/4"
    )
    shard = [line for line in result.outlines if "<Function" in line]
    total = len(GOLDEN) + 1
    result.stdout.fnmatch_lines(
        [
            f"*mobile shard 2/4: {len(shard)} of {total} tests, weight * of {sum(GOLDEN) + 1}*",
            f"*{len(shard)}/{total} tests collected ({total - len(shard)} deselected)*",
        ]
    )


def test_the_ini_twin_and_an_empty_shard(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(test_one="def test_only(): pass")
    pytester.makeini("[pytest]\nmobile_shard = 2/2\n")
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider")
    assert result.ret == 0, result.stdout.str()  # more shards than tests: an empty shard is no failure
    result.stdout.fnmatch_lines(["*1 deselected*"])
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "-n", "2")
    assert result.ret == 0, result.stdout.str()  # the same under xdist, where workers collect
    pytester.makeini("[pytest]\nmobile_shard = 1/2\n")
    pytester.runpytest_subprocess("-p", "no:cacheprovider").assert_outcomes(passed=1)


@pytest.mark.parametrize("value", ["3", "0/2", "3/2", "1/0", "a/b", "1/2/3"])
def test_a_bad_shard_is_a_usage_error(pytester: pytest.Pytester, value: str) -> None:
    pytester.makepyfile(test_one="def test_only(): pass")
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", f"--mobile-shard={value}")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines([f"*--mobile-shard={value!r}*"])


def test_split_is_independent_of_order_and_balanced() -> None:
    rng = random.Random(7)
    weights = {f"t{i}": rng.randint(1, 12) for i in range(100)}
    shuffled = dict(rng.sample(sorted(weights.items()), len(weights)))
    for count in (1, 2, 3, 7, 150):
        shards = split(weights, count)
        assert split(shuffled, count) == shards
        assert sorted(n for s in shards for n in s) == sorted(weights)
        loads = [sum(weights[n] for n in s) for s in shards]
        assert max(loads) - min(loads) <= max(weights.values())
