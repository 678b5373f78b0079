"""`python -m pytest_mobile_agent.reporting RESULTS_DIR... [-o allure-report]`: the HTML report.

Runs Allure 3 (the npm `allure` package: `npm ci --prefix reporting` in the repository) with the
plugin's configuration and failure categories, and prints the path of the single-file report.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from .allure import ReportError, generate_html


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m pytest_mobile_agent.reporting", description=__doc__)
    parser.add_argument("results", nargs="+", type=Path, help="allure results directories (--alluredir)")
    parser.add_argument("-o", "--output", type=Path, default=Path("allure-report"), help="report directory")
    parser.add_argument("--name", default="pytest-mobile-agent", help="report title")
    parser.add_argument("--allure", help="the allure command (default: $ALLURE, reporting/node_modules, PATH)")
    args = parser.parse_args(argv)
    missing = [str(r) for r in args.results if not r.is_dir()]
    if missing:
        parser.error(f"no such results directory: {', '.join(missing)}")
    try:
        index = generate_html(
            [r.resolve() for r in args.results], args.output.resolve(), name=args.name, allure=args.allure
        )
    except ReportError as exc:
        print(exc, file=sys.stderr)
        return 1
    print(index)
    return 0


if __name__ == "__main__":
    sys.exit(main())
