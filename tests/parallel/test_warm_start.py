"""Warm start: xdist workers and their virtual devices forked from one warm process.

The process is forked from the controller in a session; the tests that drive it directly start
one on its own (the controller's fallback when other threads run), the same server."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import execnet
import pytest
from calc_tasks import calc_tasks
from session_runs import run_session

from pytest_mobile_agent.parallel.warmstart import launcher
from pytest_mobile_agent.parallel.warmstart.process import ForkedProcess, WarmStart, spawn_device, warm_socket
from pytest_mobile_agent.parallel.warmstart.server import ENV, LOADED
from pytest_mobile_agent.virtual import start_device
from pytest_mobile_agent.virtual.adb import registration


def parent(pid: int) -> int:
    return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])


@pytest.fixture(scope="module")
def warm() -> Iterator[WarmStart]:
    started = WarmStart.spawn(["-p", "no:cacheprovider"], Path.cwd())
    assert started.ready(), "the warm process did not come up"
    yield started
    started.stop()


def launch(warm: WarmStart, code: str) -> subprocess.Popen:
    """What xdist does with a worker spec whose python is the launcher."""
    return subprocess.Popen(
        [*warm.python().split(), "-u", "-c", code], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )


def test_a_launched_python_is_forked_from_the_warm_process(warm: WarmStart, tmp_path: Path) -> None:
    code = (
        "import os, sys; print(os.getppid(), os.getcwd(), os.environ.get('MARK'), "
        "'_pytest.main' in sys.modules, os.environ['" + ENV + "'], flush=True); sys.exit(3)"
    )
    proc = subprocess.Popen(
        [*warm.python().split(), "-u", "-c", code],
        stdout=subprocess.PIPE,
        text=True,
        cwd=tmp_path,
        env={**os.environ, "MARK": "from the launcher"},
    )
    out, _ = proc.communicate(timeout=30)
    ppid, cwd, *rest = out.split()
    assert int(ppid) == warm.pid  # forked, not started
    assert cwd == str(tmp_path)  # the launcher's directory and environment, not the warm process's
    assert " ".join(rest[:-2]) == "from the launcher"
    assert rest[-2] == "True"  # pytest was imported already
    assert rest[-1] == warm.path  # so that its devices fork from the same process
    assert proc.returncode == 3  # the child's exit status is the launcher's


def test_the_warm_process_imports_the_bundled_suites_modules_but_not_a_users(tmp_path: Path) -> None:
    """Every worker would import the same task modules of the suites this package ships: the
    warm process imports them once, as pytest would (through assertion rewriting). A user's
    own modules are imported by each worker, in its own environment."""
    users = tmp_path / "test_users_tasks.py"
    users.write_text("def test_a(): pass\n")
    root = Path(__file__).resolve().parents[2]
    args = ["-p", "no:cacheprovider", "task_suites/mobileagentbench/test_notes.py", str(users)]
    started = WarmStart.spawn(args, root)
    try:
        assert started.ready()
        assert started.process.stdout.readline().startswith(LOADED)  # it imports while it serves
        code = (
            "import sys; notes = sys.modules.get('task_suites.mobileagentbench.test_notes'); "
            "print(notes is not None, type(getattr(notes, '__loader__', None)).__name__, "
            "'test_users_tasks' in sys.modules)"
        )
        out, _ = launch(started, code).communicate(timeout=30)
    finally:
        started.stop()
    assert out.split() == ["True", "AssertionRewritingHook", "False"]


def test_an_execnet_worker_serves_on_the_imported_gateway_module(warm: WarmStart) -> None:
    """execnet sends a worker the source of its gateway module to compile (12 ms a worker): one
    forked from the warm process, which has that module imported, serves on it instead, as
    execnet's own bootstrap of a plain popen worker does."""
    where = "import sys; channel.send(sys.modules['__main__'].serve.__module__)"
    for python, expected in ((warm.python(), "execnet.gateway_base"), (sys.executable, "__main__")):
        gateway = execnet.makegateway(f"popen//python={python}")
        try:
            assert gateway.remote_exec(where).receive(30) == expected
            assert gateway.remote_exec("channel.send(6 * 7)").receive(30) == 42
        finally:
            gateway.exit()


def test_the_launcher_passes_sigterm_on(warm: WarmStart) -> None:
    proc = launch(warm, "import os, time; print(os.getpid(), flush=True); time.sleep(60)")
    assert proc.stdout is not None
    child = int(proc.stdout.readline())
    proc.send_signal(signal.SIGTERM)
    assert proc.wait(30) == -signal.SIGTERM
    assert not Path(f"/proc/{child}").exists() or "Z" in Path(f"/proc/{child}/stat").read_text().split()[2]


def test_a_killed_launcher_takes_its_child_along(warm: WarmStart) -> None:
    proc = launch(warm, "import os, time; print(os.getpid(), flush=True); time.sleep(60)")
    assert proc.stdout is not None
    child = int(proc.stdout.readline())
    proc.kill()  # what xdist does to a worker that does not exit: nothing can be passed on
    proc.wait(30)
    for _ in range(200):
        if not Path(f"/proc/{child}").exists():
            break
        subprocess.run(["sleep", "0.05"])
    assert not Path(f"/proc/{child}").exists(), "the forked child outlived its launcher"


def test_without_a_warm_process_the_launcher_runs_python_itself(tmp_path: Path) -> None:
    proc = subprocess.run(
        [
            sys.executable,
            "-I",
            "-S",
            launcher.__file__,
            str(tmp_path / "no-socket"),
            "-u",
            "-c",
            "import sys; print('ran'); sys.exit(5)",
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.stdout.strip() == "ran"
    assert proc.returncode == 5


def test_a_device_forked_from_the_warm_process(warm: WarmStart, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(ENV, warm.path)
    assert warm_socket() == warm.path
    device = start_device(spawn=spawn_device)
    try:
        assert isinstance(device.process, ForkedProcess)
        assert parent(device.process.pid) == warm.pid
        # A sweep, in this session or another, tells the live device by its pid and start time.
        record = next(
            json.loads(p.read_text())
            for p in registration.directory().glob("*.json")
            if json.loads(p.read_text())["pid"] == device.process.pid
        )
        assert registration.running(record["pid"], record["started"])
        assert device.alive and device.process.poll() is None
        with pytest.raises(subprocess.TimeoutExpired):
            device.process.wait(0.1)
    finally:
        device.stop()
    assert device.process.returncode == 0  # SIGTERM: it took itself off the adb server and ended
    assert not device.root.exists()


def test_a_killed_forked_device_reports_its_signal(warm: WarmStart, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(ENV, warm.path)
    device = start_device(spawn=spawn_device)
    try:
        device.kill()
        assert device.process.wait(10) == -signal.SIGKILL
        assert not device.alive
    finally:
        device.stop()


def test_the_warm_process_ends_with_its_session(tmp_path: Path) -> None:
    started = WarmStart.spawn(["-p", "no:cacheprovider"], tmp_path)
    assert started.ready()
    socket = Path(started.path)
    assert socket.exists()
    started.stop()
    assert started.returncode == 0
    assert not socket.parent.exists()


# Each worker writes the warm process's pid (its parent), socket, parent and whether it runs the
# server module (a Python of its own); the controller writes its own pid.
REPORT_CONFTEST = (
    "import os\n"
    "def pytest_configure(config):\n"
    "    if not hasattr(config, 'workerinput'):\n"
    "        (config.rootpath / 'controller').write_text(str(os.getpid()))\n"
    "def pytest_collection_finish(session):\n"
    "    if os.environ.get('PYTEST_XDIST_WORKER'):\n"
    "        with open(os.path.join(str(session.config.rootpath), os.environ['PYTEST_XDIST_WORKER']), 'w') as f:\n"
    f"            f.write(str(os.getppid()) + ' ' + str(os.environ.get('{ENV}')) + ' ' + "
    "open(f'/proc/{os.getppid()}/stat').read().rsplit(')', 1)[1].split()[1] + ' ' + "
    "str(b'warmstart.server' in open(f'/proc/{os.getppid()}/cmdline', 'rb').read()))\n"
)


# A conftest line that leaves a thread running in the controller: it cannot fork safely.
RUNS_A_THREAD = "import threading, time\nthreading.Thread(target=time.sleep, args=(120,), daemon=True).start()\n"


def warm_parents(pytester: pytest.Pytester) -> dict[str, list[str]]:
    """Per worker: its parent's pid, the warm socket it was given, its parent's parent, whether
    its parent was started as the server module."""
    return {w: (pytester.path / w).read_text().split() for w in ("gw0", "gw1")}


def test_a_session_runs_the_same_with_and_without_warm_start(pytester: pytest.Pytester) -> None:
    """Forked workers and devices: the same outcomes and episodes as workers started afresh."""
    files = {"test_calc.py": calc_tasks(), "conftest.py": REPORT_CONFTEST}
    runs = {}
    for mode in ("auto", "off"):
        run = run_session(pytester, files, "--agent=oracle", "-n", "2", f"--mobile-warm-start={mode}")
        run.result.assert_outcomes(passed=4)
        runs[mode] = (run, warm_parents(pytester), int((pytester.path / "controller").read_text()))
    (warm_run, warm_parents_, controller), (cold_run, cold_parents, _) = runs["auto"], runs["off"]
    # Forked: both workers have one parent, the warm process, whose socket they were given, and
    # which the controller forked (no Python of its own).
    assert len({ppid for ppid, *_ in warm_parents_.values()}) == 1
    assert all(path != "None" for _, path, *_ in warm_parents_.values())
    assert {(int(grandparent), own) for _, _, grandparent, own in warm_parents_.values()} == {(controller, "False")}
    assert all(path == "None" for _, path, *_ in cold_parents.values())
    key = ("nodeid", "success", "steps", "termination")
    assert sorted(tuple(e[k] for k in key) for e in warm_run.episodes) == sorted(
        tuple(e[k] for k in key) for e in cold_run.episodes
    )


def test_a_controller_running_threads_starts_the_warm_process_instead(pytester: pytest.Pytester) -> None:
    """A fork copies only the thread that forks, mid-way through whatever the others hold: where
    a plugin or conftest runs a thread, the warm process is a Python started afresh."""
    conftest = REPORT_CONFTEST + RUNS_A_THREAD
    run = run_session(pytester, {"test_calc.py": calc_tasks(), "conftest.py": conftest}, "--agent=oracle", "-n", "2")
    run.result.assert_outcomes(passed=4)
    parents = warm_parents(pytester)
    assert len({ppid for ppid, *_ in parents.values()}) == 1
    assert all(path != "None" for _, path, *_ in parents.values())
    assert {own for *_, own in parents.values()} == {"True"}
    assert len(run.episodes) == 4


def test_a_session_run_inside_another_starts_the_warm_process_instead(pytester: pytest.Pytester) -> None:
    """pytester's in-process runs put a session inside this test session, which has configured:
    a process forked from here would carry this session's state into the inner one's workers."""
    pytester.makepyfile(test_calc=calc_tasks())
    pytester.makeconftest(REPORT_CONFTEST)
    result = pytester.runpytest_inprocess("-p", "no:cacheprovider", "--agent=oracle", "-n", "2")
    result.assert_outcomes(passed=4)
    parents = warm_parents(pytester)
    assert {own for *_, own in parents.values()} == {"True"}


def test_the_controller_imports_what_plugins_import_at_the_end_before_it_forks(pytester: pytest.Pytester) -> None:
    """hypothesis's plugin imports a module when the session ends (0.1 s, after the last
    episode). Here a conftest declares such a module: the controller imports it before it forks
    the warm process, which passes it on to every worker. Where the controller starts the warm
    process instead (another thread runs), it imports it in a thread once the first worker
    runs, and the warm process for the workers forked from it."""
    late = (
        "import os, threading\n"
        "with open('imported', 'a') as f: f.write(f'{os.getpid()} {threading.current_thread().name}\\n')\n"
    )
    conftest = REPORT_CONFTEST + (
        "from pytest_mobile_agent.parallel.warmstart import server\nserver.AT_THE_END['conftest'] = 'late_module'\n"
    )
    files = {"test_calc.py": calc_tasks(), "conftest.py": conftest, "late_module.py": late}
    run = run_session(pytester, files, "--agent=oracle", "-n", "2")
    run.result.assert_outcomes(passed=4)
    controller = (pytester.path / "controller").read_text()
    importers = [line.split() for line in (pytester.path / "imported").read_text().splitlines()]
    assert importers == [[controller, "MainThread"]]

    (pytester.path / "imported").unlink()
    files["conftest.py"] = conftest + RUNS_A_THREAD
    run = run_session(pytester, files, "--agent=oracle", "-n", "2")
    run.result.assert_outcomes(passed=4)
    controller = (pytester.path / "controller").read_text()
    importers = [line.split() for line in (pytester.path / "imported").read_text().splitlines()]
    assert [controller, "mobile-agent-import"] in importers
    warm = {ppid for ppid, *_ in warm_parents(pytester).values()}
    assert [*warm, "MainThread"] in importers  # the spawned warm process, for the workers forked after


def test_a_bad_choice_is_a_usage_error(pytester: pytest.Pytester) -> None:
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "--mobile-warm-start=sometimes")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*--mobile-warm-start='sometimes': expected auto or off*"])
