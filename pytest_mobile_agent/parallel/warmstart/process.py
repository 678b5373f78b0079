"""Both ends of warm start: the warm process of a session, and the children forked from it."""

from __future__ import annotations

import _socket
import os
import select
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any, TextIO

from pytest_mobile_agent.parallel.warmstart import launcher
from pytest_mobile_agent.parallel.warmstart.launcher import receive, request
from pytest_mobile_agent.parallel.warmstart.server import ENV, READY
from pytest_mobile_agent.parallel.warmstart.server import fork as fork_server

READY_TIMEOUT = 60.0


class WarmStart:
    """The warm process of one pytest session, started by the xdist controller: forked from it
    (`fork`) or, where the controller runs other threads that a fork would leave half-done,
    started afresh (`spawn`)."""

    def __init__(self) -> None:
        self.dir = tempfile.mkdtemp(prefix="pma-warm-")
        self.path = os.path.join(self.dir, "socket")
        self.pid = 0
        self.returncode: int | None = None
        self.process: subprocess.Popen | None = None  # spawned: it prints READY, then LOADED
        self._keep_alive: int | None = None  # forked: closing it ends the warm process
        self._ready: bool | None = None

    @classmethod
    def start(cls, config: Any, fork: bool = True) -> WarmStart:
        """Forked where `fork` allows and this process runs no other thread, else spawned."""
        if fork and threading.active_count() == 1 and hasattr(os, "fork"):
            return cls.fork(config)
        params = config.invocation_params
        return cls.spawn([str(arg) for arg in params.args], params.dir)

    @classmethod
    def fork(cls, config: Any) -> WarmStart:
        """From this process, whose pytest has loaded `config` and configured nothing yet."""
        warm = cls()
        warm.pid, warm._keep_alive = fork_server(config, warm.path)
        return warm

    @classmethod
    def spawn(cls, args: list[str], cwd: Path) -> WarmStart:
        """A new Python that loads pytest with `args` (the session's arguments) itself."""
        warm = cls()
        cmd = [
            sys.executable,
            *subprocess._args_from_interpreter_flags(),  # type: ignore[attr-defined]  # what multiprocessing uses
            "-m",
            "pytest_mobile_agent.parallel.warmstart.server",
        ]
        # Its stdin is its lifeline: it ends when this process closes it, or dies.
        warm.process = subprocess.Popen(
            [*cmd, warm.path, *args], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=cwd
        )
        warm.pid = warm.process.pid
        return warm

    def ready(self, timeout: float = READY_TIMEOUT) -> bool:
        """Whether it came up (waits for a spawned one the first time)."""
        if self._ready is None:
            if self.process is None:
                self._ready = self._wait(0) is None
            else:
                assert self.process.stdout is not None
                ready = select.select([self.process.stdout], [], [], timeout)[0]
                self._ready = bool(ready) and self.process.stdout.readline().startswith(READY)
            if not self._ready:
                self.stop()
        return self._ready

    def python(self) -> str:
        """What xdist runs as a worker's python: the launcher, pointed at this warm process."""
        return shlex.join([sys.executable, "-I", "-S", launcher.__file__, self.path])

    def stop(self) -> None:
        if self.process is not None:
            if self.process.poll() is None:
                assert self.process.stdin is not None
                self.process.stdin.close()
                try:
                    self.process.wait(10)
                except subprocess.TimeoutExpired:
                    self.process.kill()
                    self.process.wait()
            if self.process.stdout is not None:
                self.process.stdout.close()
            self.returncode = self.process.returncode
        elif self._keep_alive is not None:
            os.close(self._keep_alive)
            self._keep_alive = None
            if self._wait(10) is None:
                os.kill(self.pid, signal.SIGKILL)
                self._wait(None)
        shutil.rmtree(self.dir, ignore_errors=True)

    def _wait(self, timeout: float | None) -> int | None:
        """A forked warm process's exit status, waiting up to `timeout` (None: as long as it takes)."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while self.returncode is None:
            try:
                pid, status = os.waitpid(self.pid, 0 if deadline is None else os.WNOHANG)
            except ChildProcessError:  # reaped by someone else: gone, its status unknown
                self.returncode = -signal.SIGKILL
                break
            if pid:
                self.returncode = os.waitstatus_to_exitcode(status)
            elif time.monotonic() >= deadline:  # type: ignore[operator]
                break
            else:
                time.sleep(0.01)
        return self.returncode


def warm_socket() -> str | None:
    """The warm process this worker came from, if any."""
    path = os.environ.get(ENV)
    return path if path and Path(path).exists() else None


class ForkedProcess:
    """A child of the warm process, driven as the subprocess.Popen it stands in for (pid,
    stdout, poll, wait, send_signal, terminate, kill, returncode)."""

    def __init__(self, args: list[str], conn: _socket.socket, pid: int, stdout: TextIO) -> None:
        self.args, self.pid, self.stdout = args, pid, stdout
        self.returncode: int | None = None
        self._conn: _socket.socket | None = conn
        self._lock = threading.Lock()

    def _collect(self, timeout: float | None) -> int | None:
        """The exit status, once the warm process has sent it (waiting up to `timeout`)."""
        with self._lock:
            if self.returncode is None and self._conn is not None and select.select([self._conn], [], [], timeout)[0]:
                message = receive(self._conn)
                self._conn.close()
                self._conn = None
                # None: the warm process ended first, the status is lost; the pid tells the rest.
                self.returncode = message["exit"] if message else None
            if self.returncode is None and self._conn is None and not _alive(self.pid):
                self.returncode = -signal.SIGKILL
            return self.returncode

    def poll(self) -> int | None:
        return self._collect(0)

    def wait(self, timeout: float | None = None) -> int:
        code = self._collect(timeout)
        deadline = time.monotonic() + (timeout or 0)
        while code is None and self._conn is None and (timeout is None or time.monotonic() < deadline):
            time.sleep(0.05)  # orphaned (the warm process is gone): only the pid is left to watch
            code = self._collect(0)
        if code is None:
            raise subprocess.TimeoutExpired(self.args, timeout or 0)
        return code

    def send_signal(self, sig: int) -> None:
        if self.poll() is None:
            try:
                os.kill(self.pid, sig)
            except ProcessLookupError:
                pass

    def terminate(self) -> None:
        self.send_signal(signal.SIGTERM)

    def kill(self) -> None:
        self.send_signal(signal.SIGKILL)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def spawn_device(argv: list[str]) -> ForkedProcess | None:
    """A virtual device (`python -m pytest_mobile_agent.virtual ARGV`) forked from the warm
    process, in a session of its own, its stdout and stderr on one pipe; None where this
    process has no warm process to ask."""
    path = warm_socket()
    if path is None:
        return None
    read, write = os.pipe()
    null = os.open(os.devnull, os.O_RDONLY)
    try:
        conn, pid = request(path, "device", argv, (null, write, write), new_session=True)
    except OSError:
        os.close(read)
        return None
    finally:
        os.close(write)
        os.close(null)
    return ForkedProcess(argv, conn, pid, open(read, encoding="utf-8", errors="replace"))
