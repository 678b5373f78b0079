"""`python -m pytest_mobile_agent.reporting RESULTS_DIR... [-o allure-report]`: the HTML report.

Runs Allure 3 (the npm `allure` package, pinned; installed with `npm ci` into a user cache on first
use) with the plugin's configuration and failure categories, and prints the path of the report's
index.html. Up to 50 cases the report is one file that opens from disk; beyond, it is index.html
beside data files, which a browser loads over HTTP (`python -m http.server -d allure-report`).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from pytest_mobile_agent.reporting.allure import MULTI_FILE, SINGLE_FILE, ReportError, generate_html


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m pytest_mobile_agent.reporting", description=__doc__)
    parser.add_argument("results", nargs="+", type=Path, help="allure results directories (--alluredir)")
    parser.add_argument("-o", "--output", type=Path, default=Path("allure-report"), help="report directory")
    parser.add_argument("--name", default="pytest-mobile-agent", help="report title")
    parser.add_argument("--allure", help="an Allure 3 command (default: $ALLURE, else the pinned one)")
    kind = parser.add_mutually_exclusive_group()
    kind.add_argument(
        "--single-file",
        dest="kind",
        action="store_const",
        const=SINGLE_FILE,
        help="one index.html with every screenshot inside, opened from disk",
    )
    kind.add_argument(
        "--multi-file",
        dest="kind",
        action="store_const",
        const=MULTI_FILE,
        help="index.html and data files loaded as the page needs them, served over HTTP",
    )
    parser.set_defaults(kind="auto")
    args = parser.parse_args(argv)
    missing = [str(r) for r in args.results if not r.is_dir()]
    if missing:
        parser.error(f"no such results directory: {', '.join(missing)}")
    output = args.output.resolve()
    try:
        index = generate_html(
            [r.resolve() for r in args.results], output, name=args.name, allure=args.allure, kind=args.kind
        )
    except ReportError as exc:
        print(exc, file=sys.stderr)
        return 1
    if (output / "data").is_dir():
        print(
            f"a multi-file report: serve it, e.g. `python -m http.server -d {output}`, and open the address it prints",
            file=sys.stderr,
        )
    print(index)
    return 0


if __name__ == "__main__":
    sys.exit(main())
