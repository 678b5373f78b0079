"""`--devices=emulator:AVD*N`: boot N headless instances of an Android Virtual Device for the
session, and shut them down at its end.

The Android SDK's `emulator` command is found on PATH, then under $ANDROID_HOME and
$ANDROID_SDK_ROOT (`emulator/emulator`). Each instance boots from a copy of the AVD of its own,
made for the session in a temporary AVD home ($ANDROID_AVD_HOME for the emulator): the emulator
refuses a second writable instance of one AVD, and under `-read-only` it refuses to save the
snapshots the resets load (`KO: Snapshot save is disabled because "-read-only" was specified`),
so SPA-Bench copies the AVD per instance too. The copies are made with `cp --reflink=auto`
(instant on copy-on-write file systems) and removed at the end; the user's AVD is never written.
Each instance gets a free console port P (even, from 5554 up; adbd on P+1, so adb names it
`emulator-P`; sessions starting at once take turns to pick theirs, each skipping the ports the
others have recorded) and the flags a headless, disposable run needs: no window, no audio, no boot
animation and `-no-snapshot-save` (nothing saved on exit). The session waits until every
instance is online and `sys.boot_completed` is 1; the `device` fixture's snapshot reset
(reset.py, through the same console) brings each back to its base state before a task; at the
end each gets the console's `kill`. The process that boots them is the one that ends: pytest
alone, or the xdist controller, which hands the serials to its workers.

An emulator outlives the process that started it, so a killed session would leave its
instances running: each is recorded (a file in the user's private state folder, with its pid,
its start time and the session's), and the next session's boot ends the instances of every
recorded session that is gone, and says so. An instance adb lists `unauthorized` (the host's
key not among the emulator's) is reported as that, with what to do, not as a boot timeout.
"""

from __future__ import annotations

import fcntl
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import adbutils

from pytest_mobile_agent.device import adb_server
from pytest_mobile_agent.virtual.adb.registration import running, started
from pytest_mobile_agent.virtual.core.private_dirs import open_own, owned_dir, state_dir

SPEC = re.compile(r"emulator:([A-Za-z0-9._-]+)(?:\*(\d+))?")
HEADLESS = ("-no-window", "-no-audio", "-no-boot-anim", "-no-snapshot-save")
FIRST_PORT, LAST_PORT = 5554, 5682  # the console ports the adb server knows emulators by
BOOT_TIMEOUT = 600.0
UNAUTHORIZED_GRACE = 15.0  # an emulator may list unauthorized a moment before it takes the host's key
UNAUTHORIZED_ADVICE = (
    "adb on this host holds no key the emulator accepts. The emulator installs ~/.android/adbkey.pub "
    "at boot: check that it is the public half of ~/.android/adbkey (or of a key in ADB_VENDOR_KEYS) "
    "that the adb server signs with, restart the server (`adb kill-server`) and boot again; on a "
    'device with a screen, accept the "Allow USB debugging?" prompt'
)


class EmulatorError(Exception):
    """No emulator command, no such AVD, or an instance that did not boot; the message says which."""


def parse(spec: str) -> tuple[str, int] | None:
    """`emulator:AVD*N` -> (AVD, N); `emulator:AVD` is one instance; None for other specs."""
    m = SPEC.fullmatch(spec.strip())
    if not m:
        if spec.strip().startswith("emulator:"):
            raise EmulatorError(
                f"--devices={spec!r}: expected emulator:AVD or emulator:AVD*N (e.g. emulator:Pixel_7*4)"
            )
        return None
    count = int(m.group(2) or 1)
    if count < 1:
        raise EmulatorError(f"--devices={spec!r}: in emulator:AVD*N, N must be at least 1")
    return m.group(1), count


def find_emulator() -> str:
    """The SDK's `emulator/emulator`: the one on PATH, else under $ANDROID_HOME or
    $ANDROID_SDK_ROOT. An `emulator` in the SDK's `tools/` folder is the obsolete wrapper (SDK
    Tools before 25.3, which cannot start current system images), so the SDK's own beside it
    wins over it; found alone, it is named with what to do."""
    found = shutil.which("emulator")
    obsolete = found if found and Path(found).parent.name == "tools" else None
    if found and not obsolete:
        return found
    homes = [os.environ.get(v) for v in ("ANDROID_HOME", "ANDROID_SDK_ROOT")]
    roots = [*filter(None, homes), *([str(Path(obsolete).parent.parent)] if obsolete else [])]
    for home in roots:
        candidate = Path(home) / "emulator" / "emulator"
        if os.access(candidate, os.X_OK):
            return str(candidate)
    if obsolete:
        raise EmulatorError(
            f"the `emulator` on PATH ({obsolete}) is the obsolete one of the SDK's tools/ folder; install "
            "the emulator package (`sdkmanager emulator`) and put its folder (SDK/emulator) before "
            "SDK/tools on PATH"
        )
    raise EmulatorError(
        "no `emulator` command: install the Android SDK's emulator package and put it on PATH, "
        f"or set ANDROID_HOME / ANDROID_SDK_ROOT (now {homes[0]!r} / {homes[1]!r})"
    )


def avd_home() -> Path:
    """Where the emulator finds AVDs: $ANDROID_AVD_HOME, else $ANDROID_EMULATOR_HOME/avd, else
    ~/.android/avd."""
    if os.environ.get("ANDROID_AVD_HOME"):
        return Path(os.environ["ANDROID_AVD_HOME"])
    if os.environ.get("ANDROID_EMULATOR_HOME"):
        return Path(os.environ["ANDROID_EMULATOR_HOME"]) / "avd"
    return Path.home() / ".android" / "avd"


def _ini(path: Path) -> dict[str, str]:
    return dict(line.strip().split("=", 1) for line in path.read_text().splitlines() if "=" in line)


def avd_folder(name: str) -> tuple[Path, dict[str, str]]:
    """The AVD's folder and its `NAME.ini`, as the emulator resolves them."""
    ini = avd_home() / f"{name}.ini"
    try:
        fields = _ini(ini)
    except OSError as exc:
        raise EmulatorError(f"AVD {name!r}: cannot read {ini} ({exc}); set ANDROID_AVD_HOME to its folder") from exc
    folder = Path(fields.get("path", "")) if fields.get("path") else avd_home() / f"{name}.avd"
    if not folder.is_dir():
        raise EmulatorError(f"AVD {name!r}: {ini} names {folder}, which is not a folder")
    return folder, fields


def copy_avd(name: str, home: Path, copy: str) -> None:
    """`copy`, an AVD of its own in `home` with `name`'s files (its locks left out)."""
    source, fields = avd_folder(name)
    target = home / f"{copy}.avd"
    done = subprocess.run(["cp", "-a", "--reflink=auto", str(source), str(target)], capture_output=True, check=False)
    if done.returncode != 0:  # a cp without --reflink (macOS): a plain copy
        shutil.rmtree(target, ignore_errors=True)
        shutil.copytree(source, target, symlinks=True)
    for lock in target.rglob("*.lock"):  # a running instance's (a file, or a folder in some versions)
        if lock.is_dir():
            shutil.rmtree(lock, ignore_errors=True)
        else:
            lock.unlink()
    ini = {**fields, "path": str(target), "path.rel": f"avd/{copy}.avd"}
    (home / f"{copy}.ini").write_text("".join(f"{k}={v}\n" for k, v in ini.items()))


def _port_free(port: int) -> bool:
    with socket.socket() as s:
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def free_console_ports(count: int, listed: set[str]) -> list[int]:
    """`count` console ports P whose P and P+1 are free and that adb does not list already."""
    ports = [
        p
        for p in range(FIRST_PORT, LAST_PORT, 2)
        if f"emulator-{p}" not in listed and _port_free(p) and _port_free(p + 1)
    ]
    if len(ports) < count:
        raise EmulatorError(f"only {len(ports)} free emulator port pairs between {FIRST_PORT} and {LAST_PORT}")
    return ports[:count]


@dataclass
class Emulator:
    avd: str
    port: int
    process: subprocess.Popen
    log: Path

    @property
    def serial(self) -> str:
        return f"emulator-{self.port}"

    def log_tail(self, lines: int = 15) -> str:
        try:
            return "\n".join(self.log.read_text(errors="replace").splitlines()[-lines:]) or "(no output)"
        except OSError:
            return "(no log)"


def records() -> Path:
    """The user's records of the emulators sessions booted (private: see core/private_dirs.py)."""
    return state_dir("emulators")


def record(emulator: Emulator, folder: Path | None) -> None:
    """Note a booted instance, so that a later session can end it should this one die first."""
    entry = {
        "serial": emulator.serial,
        "port": emulator.port,
        "pid": emulator.process.pid,
        "started": started(emulator.process.pid),
        "session": os.getpid(),
        "session_started": started(os.getpid()),
        "folder": str(folder) if folder else None,
    }
    path = records() / f"{emulator.serial}.json"
    tmp = path.with_suffix(f".{os.getpid()}.tmp")
    tmp.write_text(json.dumps(entry))
    tmp.replace(path)


def recorded() -> set[str]:
    """The serials recorded by sessions still running (end_orphans has removed the others')."""
    return {path.stem for path in records().glob("emulator-*.json")}


@contextmanager
def port_turn() -> Iterator[None]:
    """Held from picking console ports until the instances on them are recorded: a second
    session booting at the same moment would otherwise find the same ports free (an emulator
    binds its port a while after it starts) and both would boot on them."""
    fd = os.open(records() / "ports.lock", os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)


def forget(emulator: Emulator) -> None:
    (records() / f"{emulator.serial}.json").unlink(missing_ok=True)


def end_orphans(timeout: float = 30.0) -> list[str]:
    """End every recorded instance whose session is gone (killed before its shutdown); a line
    for each one ended."""
    ended = []
    for path in sorted(records().glob("*.json")):
        fd = open_own(path)
        if fd is None:
            continue
        try:
            with os.fdopen(fd) as f:
                entry = json.load(f)
            pid, serial = int(entry["pid"]), str(entry["serial"])
        except (OSError, ValueError, KeyError, TypeError):
            path.unlink(missing_ok=True)
            continue
        if running(int(entry["session"]), entry.get("session_started")):
            continue  # a live session's
        if running(pid, entry.get("started")):
            _end(pid, int(entry["port"]), entry.get("started"), timeout)
            ended.append(
                f"ended {serial} (pid {pid}): an emulator left running by pytest session {entry['session']}, "
                "which ended without shutting it down"
            )
        folder = Path(entry["folder"]) if entry.get("folder") else None
        if folder is not None and folder.name.startswith("pma-emulators-") and owned_dir(folder):
            shutil.rmtree(folder, ignore_errors=True)
        path.unlink(missing_ok=True)
    return ended


def _end(pid: int, port: int, since: str | None, timeout: float) -> None:
    """The console's `kill`, then SIGTERM, then SIGKILL, each given its time."""
    from pytest_mobile_agent.device.reset import ConsoleError, EmulatorConsole

    try:
        console = EmulatorConsole(port, timeout=5)
        console.sock.sendall(b"kill\r\n")
        console.sock.close()
    except (ConsoleError, OSError):
        pass
    for sig in (None, signal.SIGTERM, signal.SIGKILL):
        if sig is not None and running(pid, since):
            os.kill(pid, sig)
        deadline = time.monotonic() + timeout / 3
        while running(pid, since) and time.monotonic() < deadline:
            time.sleep(0.1)
        if not running(pid, since):
            return


@dataclass
class EmulatorFleet:
    avd: str
    count: int
    binary: str = field(default_factory=find_emulator)
    boot_timeout: float = BOOT_TIMEOUT
    unauthorized_grace: float = UNAUTHORIZED_GRACE
    say: Callable[[str], object] = print  # how the session reports the orphans it ended
    instances: list[Emulator] = field(default_factory=list)
    logs: Path | None = None  # each instance's output, shown when one fails to boot
    copies: Path | None = None  # the instances' AVD home: a copy of the AVD each

    @property
    def serials(self) -> list[str]:
        return [e.serial for e in self.instances]

    def avds(self) -> list[str]:
        done = subprocess.run([self.binary, "-list-avds"], capture_output=True, text=True, timeout=60)
        return [line.strip() for line in done.stdout.splitlines() if line.strip() and " " not in line.strip()]

    def boot(self) -> list[str]:
        """Start every instance at once, then wait until all have booted; on failure none is left."""
        known = self.avds()
        if self.avd not in known:
            raise EmulatorError(f"no AVD named {self.avd!r} (`emulator -list-avds`: {', '.join(known) or 'none'})")
        for line in end_orphans():
            self.say(line)
        adb_server.ensure_server()
        client = adb_server.client()
        listed = {d.serial for d in client.list()}
        self.logs = Path(tempfile.mkdtemp(prefix="pma-emulators-"))
        self.copies = self.logs / "avd"
        self.copies.mkdir()
        env = dict(os.environ, ANDROID_AVD_HOME=str(self.copies))
        try:
            for i in range(self.count):
                copy_avd(self.avd, self.copies, f"{self.avd}_pma{i}")
            with port_turn():
                for i, port in enumerate(free_console_ports(self.count, listed | recorded())):
                    copy = f"{self.avd}_pma{i}"
                    log = self.logs / f"emulator-{port}.log"
                    with open(log, "wb") as out:
                        process = subprocess.Popen(
                            [self.binary, "-avd", copy, "-port", str(port), *HEADLESS],
                            stdout=out,
                            stderr=subprocess.STDOUT,
                            stdin=subprocess.DEVNULL,
                            start_new_session=True,
                            env=env,
                        )
                    self.instances.append(Emulator(copy, port, process, log))
                    record(self.instances[-1], self.logs)
            deadline = time.monotonic() + self.boot_timeout
            for emulator in self.instances:
                self._await_boot(client, emulator, deadline)
        except BaseException:
            self.shutdown()
            raise
        return self.serials

    def _await_boot(self, client: adbutils.AdbClient, emulator: Emulator, deadline: float) -> None:
        device = client.device(emulator.serial)
        state, unauthorized_since = "not listed", None
        while True:
            if emulator.process.poll() is not None:
                raise EmulatorError(
                    f"{emulator.serial} ({self.avd}) exited with {emulator.process.returncode} while booting:\n"
                    + emulator.log_tail()
                )
            try:  # offline while it boots, unauthorized without this host's key, then device
                state = {d.serial: d.state for d in client.list()}.get(emulator.serial, "not listed")
                if state == "device" and device.shell("getprop sys.boot_completed", timeout=10).strip() == "1":
                    return
            except (adbutils.AdbError, OSError):
                pass  # adbd not up yet
            if state != "unauthorized":
                unauthorized_since = None
            elif unauthorized_since is None:
                unauthorized_since = time.monotonic()
            elif time.monotonic() - unauthorized_since > self.unauthorized_grace:
                raise EmulatorError(f"{emulator.serial} ({self.avd}) is unauthorized: {UNAUTHORIZED_ADVICE}")
            if time.monotonic() > deadline:
                raise EmulatorError(
                    f"{emulator.serial} ({self.avd}) did not boot within {self.boot_timeout:.0f}s "
                    f"(adb state: {state}):\n" + emulator.log_tail()
                )
            time.sleep(0.2)

    def shutdown(self, timeout: float = 30.0) -> None:
        """The console's `kill` for each instance (the process is ended if it does not obey)."""
        from pytest_mobile_agent.device.reset import ConsoleError, EmulatorConsole

        for emulator in self.instances:
            if emulator.process.poll() is None:
                try:
                    console = EmulatorConsole(emulator.port, timeout=5)
                    console.sock.sendall(b"kill\r\n")  # the instance closes the console as it goes
                    console.sock.close()
                except (ConsoleError, OSError):
                    emulator.process.terminate()
        for emulator in self.instances:
            try:
                emulator.process.wait(timeout)
            except subprocess.TimeoutExpired:
                emulator.process.kill()
                emulator.process.wait(timeout)
            forget(emulator)
        self.instances.clear()
        if self.logs is not None:
            shutil.rmtree(self.logs, ignore_errors=True)
