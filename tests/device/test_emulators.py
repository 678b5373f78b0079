"""--devices=emulator:AVD*N boots N headless instances with the SDK's `emulator` (here a stand-in
that takes the same arguments, refuses what the emulator refuses and starts virtual devices with
the same console), each from a copy of the AVD of its own, runs the tasks on them and shuts them
down at the end."""

from __future__ import annotations

import json
import os
import random
import stat
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from pytest_mobile_agent import doctor
from pytest_mobile_agent.device import adb_server
from pytest_mobile_agent.device.emulators import (
    HEADLESS,
    EmulatorError,
    EmulatorFleet,
    end_orphans,
    find_emulator,
    free_console_ports,
    parse,
)
from pytest_mobile_agent.device.pool import DevicePool, DeviceSource
from pytest_mobile_agent.device.reset import DeviceResets, SnapshotReset
from pytest_mobile_agent.virtual.adb import registration

STAND_IN = Path(__file__).with_name("emulator_stand_in.py")
CALC = "com.simplemobiletools.calculator"
ROOT = Path(__file__).resolve().parents[2]
DOCTOR_CHECKS = ("adb state", "API level", "screenshot", "window dump", "foreground", "event stream")
DOCTOR_CHECKS += ("permission grant", "locale", "animations", "snapshots", "clock")


def install_stand_in(folder: Path) -> Path:
    """An executable `emulator` in `folder` that runs the stand-in."""
    folder.mkdir(parents=True, exist_ok=True)
    command = folder / "emulator"
    command.write_text(f'#!/bin/sh\nexec "{sys.executable}" "{STAND_IN}" "$@"\n')
    command.chmod(command.stat().st_mode | stat.S_IXUSR)
    return command


def make_avd(home: Path, name: str) -> Path:
    """An AVD as the SDK's avdmanager leaves it: `NAME.ini` naming the `NAME.avd` folder."""
    folder = home / f"{name}.avd"
    folder.mkdir(parents=True)
    (folder / "config.ini").write_text(f"AvdId={name}\nhw.lcd.width=1080\n")
    (folder / "userdata-qemu.img").write_bytes(b"\0" * 4096)
    (home / f"{name}.ini").write_text(f"avd.ini.encoding=UTF-8\npath={folder}\ntarget=android-33\n")
    return folder


@pytest.fixture
def stand_in(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    install_stand_in(tmp_path / "sdk-bin")
    make_avd(tmp_path / "avd", "Pixel_7_API_33")
    monkeypatch.setenv("ANDROID_AVD_HOME", str(tmp_path / "avd"))
    monkeypatch.setenv("PATH", f"{tmp_path / 'sdk-bin'}{os.pathsep}{os.environ['PATH']}")
    monkeypatch.setenv("STAND_IN_LOG", str(tmp_path / "emulator-calls.log"))
    monkeypatch.setenv("STAND_IN_PIDS", str(tmp_path / "emulator-pids.log"))
    monkeypatch.setenv("STAND_IN_BOOT_DELAY", "0")  # one test boots slowly, as an emulator does
    return tmp_path / "emulator-calls.log"


def test_tasks_run_on_emulators_booted_for_the_session(run_tasks, calc_tasks, stand_in: Path) -> None:
    run = run_tasks(calc_tasks, "--agent=oracle", "--devices=emulator:Pixel_7_API_33*2", "-n", "auto")
    run.result.assert_outcomes(passed=4)
    calls = stand_in.read_text().splitlines()
    assert calls[0] == "-list-avds"
    boots = [c.split() for c in calls[1:]]
    assert len(boots) == 2
    ports = sorted(int(b[b.index("-port") + 1]) for b in boots)
    # Each from a copy of its own, writable (so that its snapshots can be saved), not -read-only.
    assert sorted(b[1] for b in boots) == ["Pixel_7_API_33_pma0", "Pixel_7_API_33_pma1"]
    for b in boots:
        assert b[0] == "-avd" and set(HEADLESS) <= set(b) and "-read-only" not in b
    assert ports[0] != ports[1] and all(p % 2 == 0 for p in ports)
    serials = {f"emulator-{p}" for p in ports}
    run.result.stdout.fnmatch_lines(["*created: 2/2 workers*"])  # -n auto: a worker per instance
    used = {e["serial"] for e in run.episodes}
    assert used and used <= serials  # (work stealing may leave one worker's queue to the other)
    # Shut down. (Not checked by adb's list: another test's session may boot on a port once freed.)
    pids = [int(line) for line in (stand_in.parent / "emulator-pids.log").read_text().split()]
    assert len(pids) == 2 and not [pid for pid in pids if registration.running(pid, None)]
    avd = stand_in.parent / "avd"  # the user's AVD: untouched, no lock left, no copy beside it
    assert sorted(p.name for p in avd.iterdir()) == ["Pixel_7_API_33.avd", "Pixel_7_API_33.ini"]
    assert sorted(p.name for p in (avd / "Pixel_7_API_33.avd").iterdir()) == ["config.ini", "userdata-qemu.img"]


def boot_ports(log: Path) -> list[int]:
    """The console ports the stand-in was booted on, from its call log."""
    boots = [c.split() for c in log.read_text().splitlines() if c.startswith("-avd ")]
    return [int(b[b.index("-port") + 1]) for b in boots]


def test_an_unknown_avd_is_named_with_the_known_ones(run_tasks, calc_tasks, stand_in: Path) -> None:
    run = run_tasks(calc_tasks, "--agent=oracle", "--devices=emulator:Nexus_4*2")
    assert run.result.ret == pytest.ExitCode.USAGE_ERROR
    run.result.stderr.fnmatch_lines(["*no AVD named 'Nexus_4' (`emulator -list-avds`: Pixel_7_API_33)*"])
    assert stand_in.read_text().splitlines() == ["-list-avds"]  # nothing booted


def test_no_emulator_command_is_a_clear_error(run_tasks, calc_tasks, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", os.path.dirname(sys.executable) + os.pathsep + "/usr/bin:/bin")
    monkeypatch.delenv("ANDROID_HOME", raising=False)
    monkeypatch.delenv("ANDROID_SDK_ROOT", raising=False)
    run = run_tasks(calc_tasks, "--agent=oracle", "--devices=emulator:Pixel_7_API_33")
    assert run.result.ret == pytest.ExitCode.USAGE_ERROR
    run.result.stderr.fnmatch_lines(["*no `emulator` command*ANDROID_HOME*"])


def test_the_sdk_emulator_is_found_under_android_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", "/usr/bin:/bin")
    monkeypatch.delenv("ANDROID_HOME", raising=False)
    monkeypatch.setenv("ANDROID_SDK_ROOT", str(tmp_path / "sdk"))
    command = install_stand_in(tmp_path / "sdk" / "emulator")
    assert find_emulator() == str(command)


@pytest.mark.parametrize(
    "spec, parsed",
    [("emulator:Pixel_7*4", ("Pixel_7", 4)), ("emulator:Pixel_7", ("Pixel_7", 1)), ("virtual", None)],
)
def test_parse(spec: str, parsed: tuple[str, int] | None) -> None:
    assert parse(spec) == parsed


@pytest.mark.parametrize("spec", ["emulator:", "emulator:Pixel 7", "emulator:Pixel_7*0", "emulator:Pixel_7*x"])
def test_a_bad_spec_says_what_is_expected(spec: str) -> None:
    with pytest.raises(EmulatorError, match="emulator:AVD"):
        parse(spec)


def start_stand_in(avd: str, port: int, *flags: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, str(STAND_IN), "-avd", avd, "-port", str(port), "-no-window", *flags],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )


def await_ready(proc: subprocess.Popen[str]) -> str:
    """The serial the stand-in's device registered as, once it is ready."""
    assert proc.stdout is not None
    seen = []
    for line in proc.stdout:
        if "serial=" in line:
            return line.split("serial=")[1].split()[0]
        seen.append(line)
    raise AssertionError(f"the stand-in ended with {proc.wait()} before it was ready: {''.join(seen)[-600:]}")


def boot_stand_in(avd: str, *flags: str) -> tuple[subprocess.Popen[str], str]:
    """A stand-in on a free console port, and its serial. A port another test (another xdist
    worker) took between the check and the bind is given up for the next free one."""
    for _ in range(5):
        # From the top of the range: the fleets of tests running beside this one boot from the bottom.
        proc = start_stand_in(avd, random.choice(free_console_ports(40, set())[-10:]), *flags)
        try:
            return proc, await_ready(proc)
        except AssertionError as exc:
            if "in use" not in str(exc):
                raise
    raise AssertionError("no free console port for the stand-in in 5 tries")


def test_a_second_writable_instance_of_one_avd_is_refused(stand_in: Path) -> None:
    first, serial = boot_stand_in("Pixel_7_API_33")
    try:
        second = start_stand_in("Pixel_7_API_33", int(serial.split("-")[1]) + 2)  # refused before it binds
        out, _ = second.communicate(timeout=60)
        assert second.returncode == 1 and "Please use -read-only flag" in out
    finally:
        first.terminate()
        first.wait(30)


def test_a_read_only_instance_refuses_snapshots_and_doctor_says_so(stand_in: Path) -> None:
    proc, serial = boot_stand_in("Pixel_7_API_33", "-read-only")
    try:
        lines: list[str] = []
        assert doctor.run(serial, lines.append) == 1
        (failed,) = [line for line in lines if line.startswith("  FAIL")]
        assert 'Snapshot save is disabled because "-read-only" was specified' in failed
        assert "boot one writable AVD copy per instance" in lines[lines.index(failed) + 1]
    finally:
        proc.terminate()
        proc.wait(30)


def test_tasks_run_on_a_read_only_emulator_reset_by_clearing(run_tasks, calc_tasks, stand_in: Path) -> None:
    proc, serial = boot_stand_in("Pixel_7_API_33", "-read-only")
    try:
        run = run_tasks(calc_tasks, "--agent=oracle", f"--devices={serial}")
        run.result.assert_outcomes(passed=4)
        assert {e["serial"] for e in run.episodes} == {serial}
        assert not [e for e in run.episodes if e["infrastructure"]]
    finally:
        proc.terminate()
        proc.wait(30)


def test_a_snapshot_load_drops_adb_and_the_reset_brings_the_device_back(stand_in: Path) -> None:
    """The stand-in drops adb for a second on a load and its clock goes back to the save time, as
    an emulator's: the reset waits for it, sets the clock forward, and the pool rebuilds the
    event stream, which then carries events again."""
    proc, serial = boot_stand_in("Pixel_7_API_33")
    try:
        pool = DevicePool(DeviceSource.parse(serial))
        resets = DeviceResets()
        dev = pool.lease()
        resets.reset(dev, [CALC], [], lambda: pool.event_stream(dev))  # the base snapshot saved, then loaded
        snapshot = resets.by_serial[serial]
        assert isinstance(snapshot, SnapshotReset) and snapshot.saved_clock is not None
        cut = pool.event_stream(dev)
        connections = cut.connections
        states = watch_adb_states(serial, lambda: resets.reset(dev, [CALC], [], None), wait_first=5.0)
        assert states[0] == "device" and states[-1] == "device" and {"gone", "offline"} & set(states), states
        # The load cut it: its reader retries, has given up, or (on a quick come-back) connected anew.
        assert not cut.connected or cut.connections > connections
        pool.restore_stream(dev)
        stream = pool.event_stream(dev)
        assert stream.connected and (stream is not cut or cut.connections > connections)
        since = stream.last_seq
        dev.launch(CALC)
        assert stream.wait_for(lambda e: e.package == CALC, timeout=30, since=since) is not None
        # Rolled back to the save time by the load, then set to where it would have run to.
        ran = dev.sh("date +%s").strip()
        expected = snapshot.saved_clock.device + (time.time() - snapshot.saved_clock.host)
        assert abs(int(ran) - expected) <= 2.5, (ran, expected)  # (not set: about 6 s behind)
        assert snapshot.clock_runs is True
        pool.release()
        resets.close()
    finally:
        proc.terminate()
        proc.wait(30)


def watch_adb_states(serial: str, action: Callable[[], object], wait_first: float = 0.0) -> list[str]:
    """The states the adb server listed `serial` in (`gone` when not listed) while `action` ran,
    each change once; `wait_first` seconds pass before the action (so that the clock moves)."""
    seen = ["device"]
    done = threading.Event()

    def poll() -> None:
        client = adb_server.client()
        while not done.is_set():
            state = {d.serial: d.state for d in client.list()}.get(serial, "gone")
            if state != seen[-1]:
                seen.append(state)
            done.wait(0.02)

    time.sleep(wait_first)
    watcher = threading.Thread(target=poll)
    watcher.start()
    try:
        action()
    finally:
        done.set()
        watcher.join()
    state = {d.serial: d.state for d in adb_server.client().list()}.get(serial, "gone")
    if state != seen[-1]:
        seen.append(state)
    return seen


# Each reset's device clock against the host's, written where the test reads it.
CLOCK_PLUGIN = """
import json, os, time


def pytest_mobile_agent_reset(device, task):
    with open(os.environ["CLOCK_LOG"], "a") as log:
        log.write(json.dumps([device.serial, time.time(), int(device.sh("date +%s"))]) + "\\n")
"""


@pytest.mark.parametrize(
    "suite_files, locale, drop",
    [
        # The whole suite, each load dropping adb for a third of a second (the same path as the
        # emulator's second or more, a hundred times); two apps in Chinese with the full second.
        (["."], "en-US", "0.3"),
        (["test_smsmessenger.py", "test_notes.py"], "zh-CN", "1.0"),
    ],
)
def test_mobileagentbench_oracle_passes_on_an_emulator_fleet_reset_by_snapshots(
    stand_in: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, suite_files: list[str], locale: str, drop: str
) -> None:
    """Two stand-in emulators, each snapshot load dropping adb and rolling the clock back: every
    task passes (its body reads the events of the rebuilt stream) and the clock of each reset is
    where it would have run to."""
    monkeypatch.setenv("STAND_IN_LOAD_DROP", drop)
    (tmp_path / "clock_plugin.py").write_text(CLOCK_PLUGIN)
    results, clocks = tmp_path / "results.jsonl", tmp_path / "clock.jsonl"
    suite = ROOT / "task_suites" / "mobileagentbench"
    done = subprocess.run(
        [sys.executable, "-m", "pytest", *(str(suite / f) for f in suite_files), "--agent=oracle", "-q"]
        + ["--devices=emulator:Pixel_7_API_33*2", "-n", "2", f"--mobile-locale={locale}", "--mobile-reset=snapshot"]
        + ["-p", "clock_plugin", "-p", "no:cacheprovider", f"--mobile-results={results}"],
        cwd=ROOT,
        env={
            **os.environ,
            "CLOCK_LOG": str(clocks),
            "PYTHONPATH": os.pathsep.join([str(tmp_path), str(ROOT), os.environ.get("PYTHONPATH", "")]),
        },
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    episodes = [e for e in map(json.loads, results.read_text().splitlines()) if e["type"] == "episode"]
    failed = [(e["nodeid"], e["failure_message"] or e["error"]) for e in episodes if not e["success"]]
    failed += [(e["nodeid"], e["error"]) for e in episodes if e["infrastructure"]]
    assert episodes and not failed, failed[:5]
    assert suite_files != ["."] or len(episodes) == 100
    assert {e["serial"] for e in episodes} <= {f"emulator-{p}" for p in boot_ports(stand_in)}
    readings: dict[str, list[tuple[float, int]]] = {}
    for serial, host, device in map(json.loads, clocks.read_text().splitlines()):
        readings.setdefault(serial, []).append((host, device))
    for serial, seen in readings.items():
        offsets = [device - host for host, device in seen]
        span = seen[-1][0] - seen[0][0]
        assert span > 8 and max(offsets) - min(offsets) <= 3.5, (serial, span, offsets)  # never rolled back


def new_serial_states(action: Callable[[], object]) -> dict[str, list[str]]:
    """The states adb listed each serial in that it did not list before `action`, in order."""
    client = adb_server.client()
    before = {d.serial for d in client.list()}
    seen: dict[str, list[str]] = {}
    done = threading.Event()

    def poll() -> None:
        while not done.is_set():
            for d in client.list():
                if d.serial not in before and seen.setdefault(d.serial, [])[-1:] != [d.state]:
                    seen[d.serial].append(d.state)
            done.wait(0.05)

    watcher = threading.Thread(target=poll)
    watcher.start()
    try:
        action()
    finally:
        done.set()
        watcher.join()
    return seen


def test_an_emulator_boots_for_seconds_offline_first(stand_in: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("STAND_IN_BOOT_DELAY", "3")
    fleet = EmulatorFleet("Pixel_7_API_33", 1)
    try:
        states = new_serial_states(fleet.boot)
        (serial,) = fleet.serials
        # Listed at once, online only once booted (adb may show `authorizing` on the way in).
        assert [state for state in states[serial] if state != "authorizing"] == ["offline", "device"]
        assert adb_server.client().device(serial).shell("getprop sys.boot_completed").strip() == "1"
    finally:
        fleet.shutdown()


def test_sessions_booting_at_once_boot_on_ports_of_their_own(stand_in: Path) -> None:
    """Two sessions' fleets booting at the same moment: each picks its ports in turn, skipping the
    ones the other recorded (an emulator binds its port a while after it starts, so both would
    otherwise find the same ports free)."""
    fleets = [EmulatorFleet("Pixel_7_API_33", 2) for _ in range(2)]
    start = threading.Barrier(2)
    errors: list[BaseException] = []

    def boot(fleet: EmulatorFleet) -> None:
        start.wait()
        try:
            fleet.boot()
        except BaseException as exc:  # noqa: BLE001 - reported by the assertion below
            errors.append(exc)

    threads = [threading.Thread(target=boot, args=(fleet,)) for fleet in fleets]
    try:
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(120)
        assert not errors
        serials = [serial for fleet in fleets for serial in fleet.serials]
        assert len(serials) == 4 == len(set(serials))
        boots = boot_ports(stand_in)
        assert len(boots) == 4 == len(set(boots))  # no instance was even started on a taken port
    finally:
        for fleet in fleets:
            fleet.shutdown()


def test_an_unauthorized_emulator_is_named_with_what_to_do(stand_in: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("STAND_IN_UNAUTHORIZED", "1")
    fleet = EmulatorFleet("Pixel_7_API_33", 1, unauthorized_grace=1.0)
    with pytest.raises(EmulatorError, match=r"emulator-\d+ \(Pixel_7_API_33\) is unauthorized: .*adbkey\.pub"):
        fleet.boot()
    assert not fleet.instances  # shut down


HOLD_TASK = """
import pytest
from pytest_mobile_agent import Tap, task


@task(prompt="Hold", app="com.simplemobiletools.calculator", golden=[Tap(text="1")])
def test_hold(device):
    import os, time

    with open(os.environ["HOLDING"], "w") as f:
        f.write(device.serial)
    time.sleep(600)
"""


def test_an_emulator_a_killed_session_left_is_ended_by_the_next(
    stand_in: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, run_tasks, calc_tasks
) -> None:
    state = tmp_path / "run"
    state.mkdir(mode=0o700)
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(state))  # this test's records alone
    (tmp_path / "hold").mkdir()
    (tmp_path / "hold" / "test_hold.py").write_text(HOLD_TASK)
    holding = tmp_path / "holding"
    first = subprocess.Popen(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "--agent=oracle"]
        + ["--devices=emulator:Pixel_7_API_33", str(tmp_path / "hold")],
        cwd=tmp_path,
        env={**os.environ, "HOLDING": str(holding)},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 300
        while not holding.exists() and first.poll() is None and time.monotonic() < deadline:
            time.sleep(0.2)
        assert holding.exists(), f"the first session ended with {first.poll()} before its task ran"
        serial = holding.read_text()
        (entry,) = map(json.loads, map(Path.read_text, (state / "pytest-mobile-agent" / "emulators").glob("*.json")))
        assert entry["serial"] == serial and entry["session"] == first.pid
        first.kill()  # SIGKILL: no shutdown, no cleanup
        first.wait(30)
        time.sleep(1.5)  # (a device watching its parent would have seen it gone by now)
        assert registration.running(entry["pid"], entry["started"])  # the emulator outlived it
        run = run_tasks(calc_tasks, "--agent=oracle", "--devices=emulator:Pixel_7_API_33")
        run.result.assert_outcomes(passed=4)
        run.result.stdout.fnmatch_lines([f"ended {serial} (pid {entry['pid']}): an emulator left running by*"])
        assert not registration.running(entry["pid"], entry["started"])
        assert not list((state / "pytest-mobile-agent" / "emulators").glob("*.json"))  # the next one's gone too
    finally:
        if first.poll() is None:
            first.kill()
            first.wait(30)
        end_orphans()  # whatever a failure above left running


def test_an_obsolete_tools_emulator_on_path_gives_way_to_the_sdks(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    obsolete = tmp_path / "sdk" / "tools" / "emulator"
    obsolete.parent.mkdir(parents=True)
    obsolete.write_text("#!/bin/sh\necho \"PANIC: Missing emulator engine program for 'x86' CPU.\"; exit 1\n")
    obsolete.chmod(0o755)
    monkeypatch.setenv("PATH", f"{obsolete.parent}{os.pathsep}/usr/bin:/bin")
    monkeypatch.delenv("ANDROID_HOME", raising=False)
    monkeypatch.delenv("ANDROID_SDK_ROOT", raising=False)
    with pytest.raises(EmulatorError, match=r"sdk/tools/emulator\) is the obsolete one .* before SDK/tools on PATH"):
        find_emulator()
    sdk_own = install_stand_in(tmp_path / "sdk" / "emulator")
    assert find_emulator() == str(sdk_own)  # the SDK's own beside it, PATH notwithstanding


def test_doctor_checks_an_emulator_fleet_it_boots(stand_in: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "pytest_mobile_agent", "doctor", "--devices=emulator:Pixel_7_API_33*2"],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    serials = [line for line in done.stdout.splitlines() if line.startswith("emulator-")]
    assert len(serials) == 2
    assert sorted(f"emulator-{p}" for p in boot_ports(stand_in)) == sorted(serials)
    for name in DOCTOR_CHECKS:  # each device's line: ok, or warn (its clock is not the host's)
        found = [line for line in done.stdout.splitlines() if line[8:].startswith(name)]
        assert len(found) == 2 and all(line.split()[0] in ("ok", "warn") for line in found), found
    assert done.stdout.count("avd snapshot save, load (adb back after") == 2  # each dropped adb and came back
    assert not {d.serial for d in adb_server.client().list()} & set(serials)  # shut down after the check
