"""The warm process: imports once what every worker and device imports, then forks them.

The controller forks it right after pytest has read the arguments and loaded the plugins,
before anything is configured (`fork`): it starts with all of that imported. Where the
controller cannot fork safely (another thread runs), it starts one instead:

    python -m pytest_mobile_agent.parallel.warmstart.server SOCKET [PYTEST_ARGS...]

which loads pytest and the plugins itself, prints one line once it listens, and serves until
its stdin closes (the controller that started it is gone or done).

Each request on SOCKET (launcher.py's protocol) forks one child:
- `worker`: a Python that runs `-c CODE` (xdist's bootstrap) with the fds, cwd and
  environment it was given, as `python -u -c CODE` would;
- `device`: a virtual device, as `python -m pytest_mobile_agent.virtual ARGS` would.
The request's connection then stands for the child: it carries signals to pass on, brings
back its exit status, and its end (the asker is gone) ends the child with SIGTERM.

The process stays single-threaded, so that a fork copies nothing half-done; the objects
imported here are frozen out of the garbage collector's sight, so that the children do not
write to (and so copy) the pages they share with it.
"""

from __future__ import annotations

import atexit
import builtins
import fnmatch
import functools
import gc
import importlib
import inspect
import io
import marshal
import os
import select
import signal
import socket
import sys
import threading
import traceback
import types
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pytest_mobile_agent.parallel.warmstart.launcher import HEADER, read_exactly, receive, send

READY = "pytest-mobile-agent warm process ready"
LOADED = "pytest-mobile-agent warm process loaded"  # the second line: every module imported
EXECNET_BOOTSTRAP = "import sys;exec(eval(sys.stdin.readline()))"  # the -c of execnet's popen workers
ENV = "PYTEST_MOBILE_AGENT_WARMSTART"  # the socket, in every worker's environment (devices fork from it too)

# What a worker imports before its first task, and a device before it is online, beyond the
# plugins pytest itself loads.
MODULES = (
    "xdist.remote",
    "pytest_mobile_agent.parallel.scheduler",
    "pytest_mobile_agent.device.pool",
    "pytest_mobile_agent.device.android",
    "pytest_mobile_agent.device.listener",
    "pytest_mobile_agent.events.client",
    "pytest_mobile_agent.virtual.__main__",
    "pytest_mobile_agent.virtual.adb.adbd",
    # What a task session's worker and device import later on (found by diffing sys.modules).
    "pytest_mobile_agent.changes",
    "pytest_mobile_agent.device.durable_state",
    "pytest_mobile_agent.formats.mobilebench",
    "pytest_mobile_agent.formats.spabench",
    "pytest_mobile_agent.virtual.system.apk",
    "pytest_mobile_agent.virtual.system.snapshot",
    "pytest_mobile_agent.virtual.ui.hierarchy",
    "pytest_mobile_agent.virtual.ui.render.renderer",
)
# What plugins import only when a session ends, in every worker and the controller: plugin
# module -> module.
AT_THE_END = {"_hypothesis_pytestplugin": "hypothesis.internal.observability"}  # 0.1 CPU-s each


def at_the_end() -> list[str]:
    """What the plugins loaded here will import when the session ends, and have not yet."""
    return [name for plugin, name in AT_THE_END.items() if plugin in sys.modules and name not in sys.modules]


def import_all(names: list[str]) -> None:
    for name in names:
        try:
            importlib.import_module(name)
        except Exception:  # noqa: BLE001  (imported again where it is needed, and reported then)
            pass


class Preload:
    """Import what a worker of this pytest session imports, beyond the plugins and initial
    conftest files that pytest loaded into `config` (as a worker does, through its assertion
    rewriting, so a forked worker's modules are the ones it would import). The modules
    (`steps`) are imported once the warm process serves, while it waits for requests: the first
    workers start sooner, and a worker forked before a step imports that module itself.

    `config` is None where pytest could not load (the controller reports why)."""

    def __init__(self, config: Any) -> None:
        self.saved: int | None = silence_stderr()  # the imports' warnings: the workers would say the same
        later = at_the_end()
        gateway_base = sys.modules.get("execnet.gateway_base")  # xdist's, which each worker would compile
        self.steps: list[Callable[[], object]] = [
            *([functools.partial(_source, gateway_base)] if gateway_base is not None else []),
            *(functools.partial(importlib.import_module, name) for name in MODULES),
            *([functools.partial(import_bundled_suites, config)] if config is not None else []),
            *(functools.partial(importlib.import_module, name) for name in later),
        ]

    def step(self) -> bool:
        """Import the next module; False once all are (and the loading is wound up)."""
        if self.steps:
            try:
                self.steps.pop(0)()
            except Exception:  # noqa: BLE001  (the child imports it again, and reports then)
                pass
            if self.steps:
                return True
        self.finish()
        return False

    def finish(self) -> None:
        if self.saved is None:
            return
        drop_rewriting_hooks()  # every worker's pytest installs its own
        sys.stderr.flush()
        os.dup2(self.saved, 2)
        os.close(self.saved)
        self.saved = None
        gc.collect()
        gc.freeze()


def silence_stderr() -> int:
    """Point fd 2 at /dev/null; returns a duplicate of what it was."""
    saved = os.dup(2)
    null = os.open(os.devnull, os.O_WRONLY)
    os.dup2(null, 2)
    os.close(null)
    return saved


def drop_rewriting_hooks() -> None:
    sys.meta_path[:] = [f for f in sys.meta_path if type(f).__name__ != "AssertionRewritingHook"]


def import_bundled_suites(config: Any) -> None:
    """Import the test modules of the suites this package ships (task_suites/) that the session
    collects, as pytest's collection would (its import mode, through assertion rewriting): each
    worker would spend ~70 ms importing them. A user's own task modules are left to each worker,
    where they may read the worker's environment when imported."""
    try:
        from _pytest.pathlib import import_path

        import task_suites
    except ImportError:
        return
    home = Path(task_suites.__file__).parent.resolve()
    patterns = config.getini("python_files")
    for arg in config.args:
        path = (config.invocation_params.dir / arg.split("::")[0]).resolve()
        if not path.is_relative_to(home):
            continue
        files = [path] if path.is_file() else sorted(path.rglob("*.py"))
        for file in files:
            if file.suffix != ".py" or not any(fnmatch.fnmatch(file.name, pattern) for pattern in patterns):
                continue
            try:
                import_path(
                    file,
                    mode=config.getoption("importmode"),
                    root=config.rootpath,
                    consider_namespace_packages=config.getini("consider_namespace_packages"),
                )
            except Exception:  # noqa: BLE001  (the worker imports it again, and reports then)
                pass


def listen(path: str) -> socket.socket:
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(path)
    listener.listen(256)  # requests that come before it serves wait here
    return listener


class WarmServer:
    def __init__(self, listener: socket.socket, lifeline: int, preload: Preload | None, announce: bool) -> None:
        """`lifeline`: an fd that reaches its end when the controller is gone or done. `announce`:
        print READY and LOADED on stdout (a spawned warm process; a forked one shares the user's
        terminal)."""
        self.listener = listener
        self.announce = announce
        self.path = listener.getsockname()
        self.lifeline = lifeline
        self.preload = preload
        self.wake_r, self.wake_w = os.pipe()
        os.set_blocking(self.wake_r, False)
        os.set_blocking(self.wake_w, False)
        self.children: dict[int, socket.socket] = {}  # pid -> the connection that stands for it
        self.owners: dict[socket.socket, int] = {}

    def serve(self) -> None:
        signal.set_wakeup_fd(self.wake_w)
        signal.signal(signal.SIGCHLD, lambda *_: None)  # only to wake select(); reaped below
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C reaches the workers; this one ends with the controller
        if self.announce:
            print(f"{READY}: pid={os.getpid()}", flush=True)
        loading = self.preload is not None
        while True:
            # While modules are left to import, only a request waits for the next.
            timeout = 0 if loading else None
            watched: list[socket.socket | int] = [self.listener, self.wake_r, self.lifeline, *self.owners]
            readable, _, _ = select.select(watched, [], [], timeout)
            if not readable and loading:
                loading = self.preload.step()  # type: ignore[union-attr]
                if not loading and self.announce:
                    print(LOADED, flush=True)
                continue
            if self.lifeline in readable and not os.read(self.lifeline, 4096):
                break  # the controller is gone or done
            if self.wake_r in readable:
                while True:
                    try:
                        if not os.read(self.wake_r, 4096):
                            break
                    except BlockingIOError:
                        break
                self.reap()
            if self.listener in readable:
                self.accept()
            for conn in readable:
                if conn in self.owners:
                    self.from_owner(conn)
        self.listener.close()
        os.unlink(self.path)

    def reap(self) -> None:
        while self.children:
            try:
                pid, status = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                return
            if pid == 0:
                return
            conn = self.children.pop(pid, None)
            if conn is None:
                continue
            self.owners.pop(conn, None)
            try:
                send(conn, {"exit": os.waitstatus_to_exitcode(status)})
            except OSError:
                pass
            conn.close()

    def from_owner(self, conn: socket.socket) -> None:
        pid = self.owners[conn]
        try:
            message = receive(conn)
        except OSError:
            message = None
        if message is None:  # the asker is gone: so goes what it asked for
            del self.owners[conn]
            self._signal(pid, signal.SIGTERM)
        elif "signal" in message:
            self._signal(pid, int(message["signal"]))

    @staticmethod
    def _signal(pid: int, signum: int) -> None:
        try:
            os.kill(pid, signum)
        except ProcessLookupError:
            pass

    def accept(self) -> None:
        conn, _ = self.listener.accept()
        try:
            request, fds = self._read_request(conn)
        except (OSError, ValueError, EOFError) as exc:
            _refuse(conn, str(exc))
            return
        if request.get("kind") not in ("worker", "device") or len(fds) != 3:
            _refuse(conn, f"expected a worker or a device with 3 fds, got {request.get('kind')!r}, {len(fds)} fds")
            for fd in fds:
                os.close(fd)
            return
        sys.stdout.flush()
        sys.stderr.flush()
        pid = os.fork()
        if pid == 0:
            try:
                self._become_child(conn, fds, request)
            finally:
                os._exit(70)  # only if becoming the child itself failed
        for fd in fds:
            os.close(fd)
        self.children[pid] = conn
        self.owners[conn] = pid
        send(conn, {"pid": pid})

    @staticmethod
    def _read_request(conn: socket.socket) -> tuple[dict, list[int]]:
        # The fds come with the first bytes of the message (one sendmsg): read its header with them.
        head, fds, _flags, _addr = socket.recv_fds(conn, 4, 8)
        if len(head) < 4:
            raise EOFError("the request ended early")
        body = read_exactly(conn, HEADER.unpack(head)[0])
        if body is None:
            raise EOFError("the request ended early")
        return marshal.loads(body), list(fds)

    def _become_child(self, conn: socket.socket, fds: list[int], request: dict) -> None:
        signal.set_wakeup_fd(-1)
        for signum in (signal.SIGCHLD, signal.SIGTERM):
            signal.signal(signum, signal.SIG_DFL)
        signal.signal(signal.SIGINT, signal.default_int_handler)
        for sock in (self.listener, conn, *self.owners):
            sock.close()
        os.close(self.wake_r)
        os.close(self.wake_w)
        if self.lifeline > 2:
            os.close(self.lifeline)
        if self.preload is not None and self.preload.saved is not None:  # forked while still importing:
            os.dup2(self.preload.saved, 2)
            os.close(self.preload.saved)
            drop_rewriting_hooks()
        for target, fd in enumerate(fds):
            os.dup2(fd, target)
        for fd in fds:
            if fd > 2:
                os.close(fd)
        os.chdir(request["cwd"])
        os.environ.clear()
        os.environ.update(request["env"])
        if request.get("new_session"):
            os.setsid()
        if request["kind"] == "device":
            _run_device(request["argv"])
        else:
            _run_worker(request["argv"], self.path)


def _refuse(conn: socket.socket, why: str) -> None:
    try:
        send(conn, {"error": why})
    except OSError:
        pass
    conn.close()


def _fresh_stdio(unbuffered: bool) -> None:
    """New sys.stdin/stdout/stderr on fds 0-2 (now the asker's), as a new interpreter has."""
    stdin = io.TextIOWrapper(io.FileIO(0, "r", closefd=False), encoding=(sys.__stdin__ or sys.stdin).encoding)
    sys.stdin = stdin
    setattr(sys, "__stdin__", stdin)  # noqa: B010  (typeshed declares it final; an interpreter sets it at start)
    for fd, name, errors in ((1, "stdout", "strict"), (2, "stderr", "backslashreplace")):
        raw = io.FileIO(fd, "w", closefd=False)
        stream = io.TextIOWrapper(
            raw if unbuffered else io.BufferedWriter(raw),
            encoding=getattr(sys, f"__{name}__").encoding,
            errors=errors,
            write_through=unbuffered,
            line_buffering=name == "stderr" or (not unbuffered and os.isatty(fd)),
        )
        setattr(sys, name, stream)
        setattr(sys, f"__{name}__", stream)


def _finish(status: object) -> None:
    """End the child as an interpreter ends: threads joined, atexit run, streams flushed."""
    if status is None:
        code = 0
    elif isinstance(status, int):
        code = status
    else:
        print(status, file=sys.stderr)
        code = 1
    try:
        threading._shutdown()  # type: ignore[attr-defined]  # what the interpreter does at exit
        atexit._run_exitfuncs()
        for stream in (sys.stdout, sys.stderr):
            stream.flush()
    finally:
        os._exit(code & 0xFF)


def _run_worker(argv: list[str], path: str) -> None:
    """`python [-u] [-B] -c CODE` in this process."""
    flags, code = argv[: argv.index("-c")], argv[argv.index("-c") + 1]
    _fresh_stdio(unbuffered="-u" in flags)
    if "-B" in flags:
        sys.dont_write_bytecode = True
    os.environ[ENV] = path
    sys.argv = ["-c", *argv[argv.index("-c") + 2 :]]
    main = types.ModuleType("__main__")
    main.__dict__["__builtins__"] = builtins
    sys.modules["__main__"] = main
    status: object = 0
    try:
        if code == EXECNET_BOOTSTRAP:
            code = _execnet_serving_lines(main.__dict__)
        exec(compile(code, "<string>", "exec"), main.__dict__)
    except SystemExit as exc:
        status = exc.code
    except BaseException:  # noqa: BLE001  (as the interpreter would: print it, exit 1)
        traceback.print_exc()
        status = 1
    _finish(status)


def _execnet_serving_lines(namespace: dict[str, Any]) -> str:
    """What execnet's bootstrap line would run: it reads one line, the source of execnet's
    `gateway_base` followed by a few lines that serve on it. Where that source is the module
    imported here, only those lines run, on the imported module (as execnet's own bootstrap of
    a plain popen worker does): compiling its 1,800 lines again would cost 12 ms a worker."""
    source = eval(sys.stdin.readline())  # noqa: S307  (what the bootstrap line itself does)
    gateway_base = sys.modules.get("execnet.gateway_base")
    module_source = _source(gateway_base) if gateway_base is not None else None
    if not module_source or not source.startswith(module_source + "\n"):
        return source
    namespace.update((name, value) for name, value in vars(gateway_base).items() if not name.startswith("__"))
    return source[len(module_source) + 1 :]


@functools.cache
def _source(module: types.ModuleType) -> str | None:
    try:
        return inspect.getsource(module)
    except (OSError, TypeError):
        return None


def _run_device(argv: list[str]) -> None:
    from pytest_mobile_agent.virtual.__main__ import main

    _fresh_stdio(unbuffered=False)
    sys.argv = ["pytest_mobile_agent.virtual", *argv]
    status: object = 0
    try:
        status = main(argv)
    except SystemExit as exc:
        status = exc.code
    except BaseException:  # noqa: BLE001
        traceback.print_exc()
        status = 1
    _finish(status)


def fork(config: Any, path: str) -> tuple[int, int]:
    """Fork the warm process from this one (a controller whose pytest has loaded `config`, and
    that runs no other thread): it serves on `path` at once. Returns its pid and the write end
    of its lifeline, to close when the session ends."""
    # What the plugins import only when the session ends (0.1 s), the controller imports now:
    # the warm process and every worker forked from it inherit it, instead of importing it
    # after their last episode or while the first workers wait for the warm process.
    import_all(at_the_end())
    listener = listen(path)
    lifeline, keep_alive = os.pipe()
    sys.stdout.flush()
    sys.stderr.flush()
    pid = os.fork()
    if pid == 0:
        try:
            os.close(keep_alive)
            null = os.open(os.devnull, os.O_RDONLY)  # never the user's terminal's input
            os.dup2(null, 0)
            os.close(null)
            WarmServer(listener, lifeline, Preload(config), announce=False).serve()
        finally:
            os._exit(0)  # not the controller's exit: none of its atexit functions
    listener.close()
    os.close(lifeline)
    return pid, keep_alive


def main(argv: list[str]) -> int:
    """The warm process started on its own: SOCKET [PYTEST_ARGS...]."""
    from _pytest.config import _prepareconfig

    path, args = argv[0], argv[1:]
    lifeline = os.dup(0)  # its stdin: pytest's capture points fd 0 at /dev/null while loading
    saved = silence_stderr()  # what pytest and the plugins say while loading, the controller has said
    try:
        config = _prepareconfig(list(args))
    except BaseException:  # noqa: BLE001  (the controller has reported it already; import what we can)
        config = None
    os.dup2(saved, 2)
    os.close(saved)
    WarmServer(listen(path), lifeline, Preload(config), announce=True).serve()
    return 0


if __name__ == "__main__":
    # Run as the package's module, not as __main__: the plugins and conftest files pytest loads
    # here, and the workers forked from here, see this one module.
    from pytest_mobile_agent.parallel.warmstart import server

    sys.exit(server.main(sys.argv[1:]))
