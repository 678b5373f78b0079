"""The end of a session, on the controller (it sees every worker's reports): the episode
records collected, the summary table and the infrastructure lines printed, the aggregate
appended to the results file and the success plot drawn."""

from __future__ import annotations

import os
from typing import Any, cast

import pytest

from pytest_mobile_agent.errors import CONFIGURATION_EXIT, INTERRUPTED
from pytest_mobile_agent.extras import hint
from pytest_mobile_agent.judges import runner as judge_runner
from pytest_mobile_agent.metrics import summarize
from pytest_mobile_agent.reporting import plots, results, resume, terminal
from pytest_mobile_agent.session import CONFIG_FLAG, RECORD_PROPERTY, MobileSession

OK, NOTHING_RAN = pytest.ExitCode.OK, pytest.ExitCode.NO_TESTS_COLLECTED


class SummaryReporter:
    """Collects episode records from call reports (xdist ships user_properties to the
    controller), prints the table and appends the aggregate to the results file."""

    def __init__(self, session: MobileSession, resumed: resume.Resume | None = None) -> None:
        self.session = session
        self.resumed = resumed  # --mobile-resume: the earlier run's episodes
        self._taken: dict[tuple[str, str | None], int] = {}  # records taken per (node id, worker)
        self._reconciled = False  # the results file's lines taken in, after Ctrl-C

    @classmethod
    def register(cls, session: MobileSession) -> None:
        """On the controller (or pytest alone): start the results file, with this session's
        episodes only (with --mobile-resume: after the earlier run's), before any worker
        writes to it."""
        results_file = session.options.results
        resumed = None
        if results_file:
            results_file.parent.mkdir(parents=True, exist_ok=True)
            if session.options.resume:
                resumed = resume.Resume.start(results_file)
            else:
                results_file.write_text("")
        session.config.pluginmanager.register(cls(session, resumed), "mobile-agent-summary")

    def pytest_report_collectionfinish(self, config: pytest.Config) -> str | None:
        """pytest alone: how many tasks the resumed file already holds, how many run now."""
        if self.resumed is None or resume.DONE_KEY not in config.stash:
            return None
        self.resumed.tell(*config.stash[resume.DONE_KEY])
        return self.resumed.message

    @pytest.hookimpl(optionalhook=True)
    def pytest_xdist_node_collection_finished(self, node: Any, ids: list[str]) -> None:
        """The xdist controller (which collects nothing) learns what will run from its first worker."""
        if self.resumed is None or self.resumed.message:
            return
        self.resumed.collected(ids)
        reporter = self.session.config.pluginmanager.get_plugin("terminalreporter")
        if reporter is not None:
            reporter.write_line(self.resumed.message)

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        """A teardown report carries the records of its item's attempts so far in that process
        (those lost in setup too); an attempt lost to the infrastructure is reported at once."""
        message = getattr(report, CONFIG_FLAG, None)
        if message and self.session.config_error is None:
            self.session.config_error = str(message)
        if report.when != "teardown":
            return
        records = [cast(dict[str, Any], v) for k, v in report.user_properties if k == RECORD_PROPERTY]
        gateway = getattr(getattr(report, "node", None), "gateway", None)
        key = (report.nodeid, getattr(gateway, "id", None))
        self.session.records.extend(records[self._taken.get(key, 0) :])
        self._taken[key] = len(records)
        if records and key[1] is not None:
            self.session.last_records[(report.nodeid, key[1])] = records[-1]

    def pytest_keyboard_interrupt(self) -> None:
        self.session.interrupted = True

    def finished(self) -> list[dict[str, Any]]:
        """Every finished episode, once. After Ctrl-C the controller stops reading its workers'
        reports, but the workers finish the episode they were in and write its results line:
        those lines join the records (by the results file, which every process appends to)."""
        records = self.session.records
        path = self.session.options.results
        earlier = self.resumed.earlier if self.resumed is not None else []
        if self.session.interrupted and not self._reconciled and path and path.exists():
            self._reconciled = True
            seen = {results.identity(r) for r in records + earlier}
            for record in results.episodes(path):
                if results.identity(record) not in seen:
                    seen.add(results.identity(record))
                    records.append(record)
        if self.resumed is None:
            return records
        ran = {r["nodeid"] for r in records}
        return [r for r in earlier if r["nodeid"] not in ran] + records

    def pytest_terminal_summary(self, terminalreporter: pytest.TerminalReporter) -> None:
        records = self.finished()
        if not records:
            return
        terminalreporter.write_sep("=", f"mobile agent summary ({len(records)} episodes)")
        summary = summarize(records)
        for line in [*terminal.table(summary), *terminal.repeat_lines(summary["repeats"])]:
            terminalreporter.write_line(line)
        for line in infrastructure_lines(records, stopped=self.stopped_by()):
            terminalreporter.write_line(line, yellow=True)
        judge_runner.summary(records, terminalreporter)
        if self.resumed is not None:
            for line in self.resumed.summary_lines(self.session.records):
                terminalreporter.write_line(line, yellow=line.startswith("resumed onto"))
        if self.session.interrupted:
            cut = [r["nodeid"] for r in records if r["termination"] == INTERRUPTED]
            terminalreporter.write_line(
                f"interrupted (Ctrl-C): the {len(records) - len(cut)} episodes that finished are kept, each once; "
                "tasks not started were not run" + (f"; cut short, not counted: {', '.join(cut)}" if cut else ""),
                yellow=True,
            )
        if self.session.options.results:
            terminalreporter.write_line(f"results: {os.fspath(self.session.options.results)}")
        if self.session.options.artifacts and self.session.records and not plots.drawable():
            terminalreporter.write_line(f"{plots.PLOT_NAME} not drawn: {hint('matplotlib')}")

    def stopped_by(self) -> str | None:
        """Why the session ended before every task had its retries: None when it did not."""
        if self.session.config_error:
            return "the session stopped on a configuration error"
        if self.session.interrupted:
            return "the session was interrupted"
        return None

    @pytest.hookimpl(tryfirst=True)
    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        if self.session.config_error:  # a status of its own: scripts tell a wrong key from failed tasks
            session.exitstatus = CONFIGURATION_EXIT
        elif self.resumed is not None and session.exitstatus in (OK, NOTHING_RAN):
            # The status of the whole run, as one uninterrupted run would have ended.
            ran = {r["nodeid"] for r in self.session.records}
            kept = [r for r in self.resumed.earlier if resume.counted(r) and r["nodeid"] not in ran]
            if any(not r["success"] for r in kept):
                session.exitstatus = pytest.ExitCode.TESTS_FAILED
            elif kept and session.exitstatus == NOTHING_RAN:
                session.exitstatus = OK

    def pytest_unconfigure(self) -> None:
        """The aggregate and the plot, once every worker has gone (after Ctrl-C they finish
        the episode they were in after the session's end)."""
        options, records = self.session.options, self.finished()
        if self.resumed is not None:  # the earlier records of tasks run again move aside
            records = self.resumed.finish(self.session.records)
        if options.results and records:
            results.append(options.results, summarize(records))
        if options.artifacts and records and plots.drawable():
            plots.success_plot(records, options.artifacts / plots.PLOT_NAME)


def infrastructure_lines(records: list[dict[str, Any]], stopped: str | None = None) -> list[str]:
    """The terminal's one line for each attempt the infrastructure lost; `stopped`: why the
    session ended early (then an attempt not run again was not for want of retries)."""
    lines = []
    for i, record in enumerate(records):
        if not record["infrastructure"]:
            continue
        where = f" on {record['serial']}" if record.get("serial") else ""
        rerun = any(r["nodeid"] == record["nodeid"] for r in records[i + 1 :])
        then = "ran again" if rerun else f"not run again ({stopped or '--mobile-retries spent'})"
        error = terminal.one_line(record["error"], 120)
        lines.append(f"infrastructure: {record['nodeid']}{where}: {error}; {then}; not counted")
    return lines
