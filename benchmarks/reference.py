"""A reference to print beside a benchmark's figures, so that a figure that does not reproduce
elsewhere shows why: the machine's CPUs and load, and the time of a fixed CPU loop.

    python benchmarks/reference.py          # prints the line the benchmarks print
"""

from __future__ import annotations

import os
import statistics
import time


def cpu_loop_s(rounds: int = 3, n: int = 3_000_000) -> float:
    """Median seconds of a fixed pure-Python loop: the same work on every machine."""
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        total = 0
        for i in range(n):
            total += i * i
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def describe() -> str:
    one, five, _ = os.getloadavg()
    return (
        f"{os.cpu_count()} CPUs, load average {one:.1f} (1 min) {five:.1f} (5 min), "
        f"fixed CPU loop {cpu_loop_s():.2f} s (python benchmarks/reference.py)"
    )


if __name__ == "__main__":
    print(describe())
