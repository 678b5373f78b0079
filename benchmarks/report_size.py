"""The HTML report's weight: step screens in full colour beside 256 colours, and the single-file
report beside the multi-file one, for the same run.

    python benchmarks/report_size.py [-m "calculator or notes"] [-n 2] [--results DIR]

Runs the chosen tasks with the oracle into an Allure results directory (or takes one), then
1. encodes every final screen of the run at the report's step width (540 px) both ways, as the
   step screens are encoded, and prints bytes and milliseconds side by side;
2. generates both report kinds from the same results and prints their sizes: what a browser
   must load before it shows anything (the single file; the multi-file index.html and app) and
   what lies on disk.
Timings on a shared machine are noisy; the byte counts are not.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from pytest_mobile_agent import drawing
from pytest_mobile_agent.reporting.allure import MULTI_FILE, SINGLE_FILE, generate_html


def run_tasks(results: Path, marker: str, workers: int) -> None:
    cmd = [
        sys.executable,
        "-m",
        "pytest",
        "-p",
        "no:cacheprovider",
        "--pyargs",
        "task_suites.mobileagentbench",
        "-m",
        marker,
        "--agent=oracle",
        "-n",
        str(workers),
        "-q",
        f"--alluredir={results}",
        "--clean-alluredir",
    ]
    subprocess.run(cmd, check=False, capture_output=True, cwd=results.parent, timeout=1800)


def final_screens(results: Path) -> list[bytes]:
    screens = []
    for path in results.glob("*-result.json"):
        for attachment in json.loads(path.read_text()).get("attachments", []):
            if attachment["name"] == "final screen":
                screens.append((results / attachment["source"]).read_bytes())
    return screens


def size(path: Path) -> int:
    return path.stat().st_size if path.is_file() else sum(p.stat().st_size for p in path.rglob("*") if p.is_file())


def encodings(screens: list[bytes]) -> None:
    rows = {
        "full colour (drawing.encode)": drawing.encode,
        "256 colours (drawing.encode_palette)": drawing.encode_palette,
    }
    frames = [drawing.scaled(png, drawing.REPORT_WIDTH)[0] for png in screens]
    measured = {}
    for label, encode in rows.items():
        sizes, times = [], []
        for frame in frames:
            t0 = time.perf_counter()
            sizes.append(len(encode(frame)))
            times.append(time.perf_counter() - t0)
        measured[label] = (statistics.mean(sizes), statistics.median(times))
        print(f"  {label:34} {measured[label][0] / 1000:7.1f} kB/screen  {measured[label][1] * 1000:6.1f} ms median")
    (full_bytes, full_ms), (pal_bytes, pal_ms) = measured.values()
    print(f"  256 colours / full colour: bytes x{pal_bytes / full_bytes:.2f}, time x{pal_ms / full_ms:.2f}")


def reports(results: Path, out: Path) -> None:
    cases = len(list(results.glob("*-result.json")))
    print(f"reports of {cases} cases:")
    sizes = {}
    for kind in (SINGLE_FILE, MULTI_FILE):
        t0 = time.perf_counter()
        index = generate_html([results], out / kind, kind=kind)
        seconds = time.perf_counter() - t0
        first_load = size(index) + sum(size(p) for p in index.parent.glob("app-*.js"))
        sizes[kind] = first_load
        print(
            f"  {kind:11} first load {first_load / 1e6:6.2f} MB, on disk {size(index.parent) / 1e6:6.2f} MB "
            f"({size(index.parent) / cases / 1000:.0f} kB/case), generated in {seconds:.1f} s"
        )
    print(f"  first load, multi-file / single-file: x{sizes[MULTI_FILE] / sizes[SINGLE_FILE]:.3f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("-m", dest="marker", default="calculator or notes", help="pytest -m expression of the tasks")
    parser.add_argument("-n", dest="workers", type=int, default=2)
    parser.add_argument("--results", type=Path, help="an existing Allure results directory (no run)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="report-size-") as tmp:
        results = args.results or Path(tmp) / "allure-results"
        if args.results is None:
            print(f"running the oracle on -m {args.marker!r} with -n {args.workers} ...")
            run_tasks(results, args.marker, args.workers)
        screens = final_screens(results)
        print(f"step screens at {drawing.REPORT_WIDTH} px, {len(screens)} screens of the run:")
        encodings(screens)
        reports(results, Path(tmp) / "reports")


if __name__ == "__main__":
    main()
