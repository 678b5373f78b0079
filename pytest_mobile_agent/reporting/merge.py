"""`python -m pytest_mobile_agent.reporting.merge`: one result from the shards of a run.

    python -m pytest_mobile_agent.reporting.merge shard-*/results.jsonl -o results.jsonl \\
        --allure-results shard-*/allure-results --allure-output allure-results --report allure-report

- The results files' episode lines go into one results file, followed by the aggregate
  recomputed over all of them (each shard's own aggregate is dropped);
- the summary table is printed exactly as the plugin prints it at the end of a session;
- the `allure-results` folders are joined into one (result and attachment files keep their
  unique names; `categories.json` is written once, `environment.properties` lists every
  shard's agents and devices and adds up the episodes, the success-rate plot is drawn again
  over all episodes) and, with `--report`, made into one HTML report.
Nothing is written unless every input reads cleanly. Inputs that are not the shards of one run
are refused unless told otherwise: two agents' (or models') results (`--allow-mixed`), and a
task found in more than one results file, as when a shard is given twice (`--allow-overlap`).
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import time
import uuid
from pathlib import Path
from typing import Any

from pytest_mobile_agent.metrics import summarize
from pytest_mobile_agent.reporting import results, terminal

PLOT_TITLE = "success rate"  # the name the plugin gives its global attachment
# What the aggregate reads from an episode record (metrics.aggregate and summarize).
NEEDED = (
    "nodeid",
    "app",
    "difficulty",
    "success",
    "infrastructure",
    "termination",
    "steps",
    "se",
    "premature",
    "overdue",
    "tokens_in",
    "tokens_out",
    "cost_usd",
    "time_per_step_s",
)


class MergeError(Exception):
    """An input that cannot be merged; the message names the file and the line."""


def read_episodes(paths: list[Path]) -> list[dict[str, Any]]:
    """Every episode record of the results files, in order; aggregates are left behind."""
    episodes: list[dict[str, Any]] = []
    for path in paths:
        if not path.is_file():
            raise MergeError(f"{path}: no such results file")
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if not line.strip():
                continue
            try:
                record = json.loads(line)
            except json.JSONDecodeError as exc:
                raise MergeError(f"{path}:{number}: not a JSON line ({exc.msg})") from exc
            kind = record.get("type") if isinstance(record, dict) else None
            if kind == "episode":
                missing = [k for k in NEEDED if k not in record]
                if missing:
                    raise MergeError(f"{path}:{number}: an episode record without {', '.join(missing)}")
                episodes.append(record)
            elif kind != "aggregate":
                raise MergeError(f"{path}:{number}: not a pytest-mobile-agent record (type {kind!r})")
    return episodes


def overlapping(paths: list[Path]) -> dict[str, list[str]]:
    """Node ids found in more than one file (a task run by two shards), with the files."""
    where: dict[str, list[str]] = {}
    for path in paths:
        for nodeid in {r["nodeid"] for r in read_episodes([path])}:
            where.setdefault(nodeid, []).append(str(path))
    return {n: files for n, files in where.items() if len(files) > 1}


def _runner(record: dict[str, Any]) -> str:
    """Who ran an episode: the agent, and the model where it names one."""
    agent = str(record.get("agent", "?"))
    return f"{agent} ({record['model']})" if record.get("model") else agent


def mixed_agents(paths: list[Path]) -> dict[str, list[str]]:
    """Each agent (and model) found in the results files, with the files, where there is more
    than one: shards of one run share theirs."""
    where: dict[str, list[str]] = {}
    for path in paths:
        for runner in sorted({_runner(r) for r in read_episodes([path])}):
            where.setdefault(runner, []).append(str(path))
    return where if len(where) > 1 else {}


def refuse_mixed_inputs(paths: list[Path], *, allow_mixed: bool, allow_overlap: bool) -> None:
    """A MergeError naming what is mixed and the flag that merges it anyway, else warnings."""
    twice = sorted({str(p) for p in paths if sum(q.resolve() == p.resolve() for q in paths) > 1})
    if twice and not allow_overlap:
        raise MergeError(f"given more than once: {', '.join(twice)} (one shard counted twice)")
    mixed = mixed_agents(paths)
    if mixed and not allow_mixed:
        runners = "; ".join(f"{runner} in {', '.join(files)}" for runner, files in mixed.items())
        raise MergeError(
            f"these results come from different agents: {runners}. One summary over them mixes "
            "their metrics: merge each agent's shards apart, or pass --allow-mixed"
        )
    for runner, files in mixed.items():
        print(f"warning: {runner} ran {', '.join(files)}", file=sys.stderr)
    overlaps = overlapping(paths)
    if overlaps and not allow_overlap:
        shown = [f"{nodeid} ({', '.join(files)})" for nodeid, files in sorted(overlaps.items())[:3]]
        more = f" and {len(overlaps) - 3} more" if len(overlaps) > 3 else ""
        raise MergeError(
            f"{len(overlaps)} task(s) ran in more than one results file: {'; '.join(shown)}{more}. "
            "Shards of one run never share a task: is a shard given twice? Pass --allow-overlap "
            "to count every run of them"
        )
    for nodeid, files in sorted(overlaps.items()):
        print(f"warning: {nodeid} ran in more than one shard: {', '.join(files)}", file=sys.stderr)


def summary_lines(records: list[dict[str, Any]]) -> list[str]:
    """The plugin's end-of-session table, with its heading."""
    summary = summarize(records)
    heading = f" mobile agent summary ({len(records)} episodes) ".center(80, "=")
    return [heading, *terminal.table(summary), *terminal.repeat_lines(summary["repeats"])]


def write_results(path: Path, records: list[dict[str, Any]]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("")
    for record in [*records, summarize(records)]:
        results.append(path, record)


def _success_plots(directory: Path) -> set[str]:
    """The plugin's success-rate globals in a results folder (and their PNGs): redrawn on merge."""
    names: set[str] = set()
    for globals_file in directory.glob("*-globals.json"):
        attachments = json.loads(globals_file.read_text(encoding="utf-8")).get("attachments", [])
        if attachments and all(a.get("name") == PLOT_TITLE for a in attachments):
            names |= {globals_file.name, *(a["source"] for a in attachments)}
    return names


def merge_allure(sources: list[Path], output: Path, records: list[dict[str, Any]]) -> int:
    """Join allure-results folders into `output`; returns the number of files copied."""
    from pytest_mobile_agent.reporting import allure, plots

    missing = [str(s) for s in sources if not s.is_dir()]
    if missing:
        raise MergeError(f"no such allure-results folder: {', '.join(missing)}")
    plans: dict[str, Path] = {}
    for source in sources:
        skip = {"categories.json", "environment.properties", *_success_plots(source)}
        for file in sorted(source.iterdir()):
            if not file.is_file() or file.name in skip:
                continue
            if file.name in plans and plans[file.name].read_bytes() != file.read_bytes():
                raise MergeError(
                    f"{file.name} is in both {plans[file.name].parent} and {source} with different content"
                )
            plans[file.name] = file
    output.mkdir(parents=True, exist_ok=True)
    for name, file in plans.items():
        shutil.copy2(file, output / name)
    allure.write_categories(output)
    (output / "environment.properties").unlink(missing_ok=True)
    for source in sources:
        env = allure.read_environment(source / "environment.properties")
        if env:
            allure.write_environment(output, env)  # merges with what is there already
    if records and plots.drawable():
        png = f"{uuid.uuid4()}-attachment.png"
        (output / png).write_bytes(plots.success_plot(records))
        entry = {"source": png, "name": PLOT_TITLE, "type": "image/png", "timestamp": int(time.time() * 1000)}
        (output / f"{uuid.uuid4()}-globals.json").write_text(json.dumps({"attachments": [entry]}), encoding="utf-8")
    return len(plans)


def argument_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m pytest_mobile_agent.reporting.merge", description=__doc__.split("\n")[0]
    )
    parser.add_argument("results", nargs="*", type=Path, help="results files of the shards (--mobile-results)")
    parser.add_argument("-o", "--output", type=Path, help="the merged results file")
    parser.add_argument(
        "--allure-results", nargs="+", type=Path, default=[], help="allure-results folders (--alluredir)"
    )
    parser.add_argument("--allure-output", type=Path, help="the merged allure-results folder")
    parser.add_argument("--report", type=Path, help="also generate the HTML report into this folder (Allure 3)")
    parser.add_argument("--allure", help="the allure command (default: $ALLURE, reporting/node_modules, PATH)")
    parser.add_argument(
        "--allow-mixed", action="store_true", help="merge results of different agents or models into one summary"
    )
    parser.add_argument(
        "--allow-overlap",
        action="store_true",
        help="merge results files that share a task (a shard given twice, a rerun) and count every run",
    )
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = argument_parser()
    args = parser.parse_args(argv)
    if not args.results and not args.allure_results:
        parser.error("give results files, --allure-results folders, or both")
    if args.allure_results and not args.allure_output:
        parser.error("--allure-results needs --allure-output (the merged folder)")
    if args.report and not args.allure_results:
        parser.error("--report needs --allure-results")
    try:
        records = read_episodes(args.results)
        refuse_mixed_inputs(args.results, allow_mixed=args.allow_mixed, allow_overlap=args.allow_overlap)
        if not args.allow_overlap and len({p.resolve() for p in args.allure_results}) < len(args.allure_results):
            raise MergeError("an allure-results folder is given more than once (pass --allow-overlap)")
        if args.allure_results:
            copied = merge_allure(args.allure_results, args.allure_output, records)
            print(f"allure results: {args.allure_output} ({copied} files from {len(args.allure_results)} folders)")
    except (MergeError, OSError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if args.results:
        for line in summary_lines(records):
            print(line)
        if args.output:
            write_results(args.output, records)
            print(f"results: {args.output}")
    if args.report:
        from pytest_mobile_agent.reporting.allure import ReportError, generate_html

        try:
            print(generate_html([args.allure_output.resolve()], args.report.resolve(), allure=args.allure))
        except ReportError as exc:
            print(exc, file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
