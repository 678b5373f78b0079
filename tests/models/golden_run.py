"""How many MobileAgentBench tasks a built-in model agent passes with the golden model behind a
local server, and whether the run's tokens equal the server's usage:

    PYTHONPATH=$PWD python -m tests.models.golden_run ui-tars --model UI-TARS-1.5-7B [-n 2] [FILES...]

The test (tests/models/test_golden_model.py) asserts the same at 95 of 100; this prints the
figures, the failures and the command the suite ran."""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

from tests.model_server import ModelServer
from tests.models.golden_model import GoldenModel
from tests.models.suite_run import SUITE, run_suite


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("agent")
    ap.add_argument("files", nargs="*", help=f"task files (default: {SUITE})")
    ap.add_argument("--model", default="test-model")
    ap.add_argument("-n", default="2", help="xdist workers")
    args = ap.parse_intermixed_args()
    out = Path(tempfile.mkdtemp(prefix="golden-run-"))
    golden = GoldenModel(out)
    plugins = ("-p", "tests.models.golden_export", "-p", "tests.models.golden_screens")
    with ModelServer(golden) as server:
        proc, records = run_suite(
            args.agent,
            server.url,
            out,
            *(args.files or [str(SUITE)]),
            "-n",
            args.n,
            *plugins,
            model=args.model,
            env={"MOBILE_GOLDEN_DIR": str(out)},
        )
    if not records:
        sys.exit(f"no episode records; the run said:\n{proc.stdout[-3000:]}{proc.stderr[-3000:]}")
    passed = sum(r["success"] for r in records)
    sent_in, sent_out = server.totals()
    got_in, got_out = sum(r["tokens_in"] for r in records), sum(r["tokens_out"] for r in records)
    print(f"{args.agent} ({args.model}) with the golden model: {passed}/{len(records)} tasks passed")
    print(f"tokens in/out: records {got_in}/{got_out}, server usage {sent_in}/{sent_out}")
    for r in records:
        if not r["success"]:
            print(f"  failed {r['task']}: {r['failure_message'] or r['error']}")
    for miss in golden.misses[:3]:
        print(f"  golden model miss: {miss[:300]}")
    print(f"records: {out / 'results.jsonl'}")


if __name__ == "__main__":
    main()
