"""The wire protocol to the warm process, and the launcher xdist runs as each worker's "python".

xdist starts a popen worker as `PYTHON -u -c BOOTSTRAP`, talking to it over its stdin and
stdout. With warm start the controller sets PYTHON to `python -S -E launcher.py SOCKET`: this
file, run as a script, hands its stdin, stdout and stderr to the warm process, which forks a
worker that adopts them, and then stands in for that worker until it exits (its exit status
becomes ours; SIGTERM, SIGINT and SIGHUP sent to us are passed on). Where the warm process
cannot be reached, it runs the real Python instead: slower, never wrong.

Stdlib only, and only modules built into the interpreter (no `socket`, whose `enum` import
alone costs more than the rest): it runs once per worker, before anything else can start.
A message is a 4-byte length and a `marshal`led dict; the request carries the fds to adopt.
"""

from __future__ import annotations

import _signal
import _socket
import marshal
import os
import struct
import sys

HEADER = struct.Struct("!I")


def send(sock: _socket.socket, message: dict, fds: list[int] | tuple[int, ...] = ()) -> None:
    data = marshal.dumps(message)
    ancillary = [(_socket.SOL_SOCKET, _socket.SCM_RIGHTS, struct.pack(f"{len(fds)}i", *fds))] if fds else []
    sock.sendmsg([HEADER.pack(len(data)) + data], ancillary)


def read_exactly(sock: _socket.socket, size: int) -> bytes | None:
    chunks, got = [], 0
    while got < size:
        chunk = sock.recv(size - got)
        if not chunk:
            return None
        chunks.append(chunk)
        got += len(chunk)
    return b"".join(chunks)


def receive(sock: _socket.socket) -> dict | None:
    """The next message, or None at end of stream."""
    header = read_exactly(sock, HEADER.size)
    if header is None:
        return None
    data = read_exactly(sock, HEADER.unpack(header)[0])
    return None if data is None else marshal.loads(data)


def connect(path: str) -> _socket.socket:
    sock = _socket.socket(_socket.AF_UNIX, _socket.SOCK_STREAM)
    try:
        sock.connect(path)
    except OSError:
        sock.close()
        raise
    return sock


def request(
    path: str, kind: str, argv: list[str], fds: tuple[int, int, int], **extra: object
) -> tuple[_socket.socket, int]:
    """Ask the warm process for a child of `kind` adopting `fds` as its stdin, stdout, stderr;
    returns (the connection, the child's pid). The connection later brings {"exit": status}."""
    sock = connect(path)
    try:
        send(sock, {"kind": kind, "argv": argv, "env": dict(os.environ), "cwd": os.getcwd(), **extra}, fds)
        reply = receive(sock)
    except OSError:
        sock.close()
        raise
    if not reply or "pid" not in reply:
        sock.close()
        raise OSError(f"the warm process refused the {kind}: {(reply or {}).get('error', 'no reply')}")
    return sock, reply["pid"]


def _exit_like(status: int) -> None:
    """Exit as the child did: its code, or killed by its signal (as subprocess reports: -SIG)."""
    if status < 0:
        try:
            _signal.signal(-status, _signal.SIG_DFL)
        except OSError:  # SIGKILL's (and SIGSTOP's) disposition cannot be set, nor needs to be
            pass
        os.kill(os.getpid(), -status)
    os._exit(status & 0xFF)


def main(argv: list[str]) -> None:
    path, args = argv[1], argv[2:]
    passed_on = (_signal.SIGTERM, _signal.SIGINT, _signal.SIGHUP)
    # Held until the child exists and they can be passed on (the child may already have said it
    # runs, and be signalled through us, before we are back from the request).
    _signal.pthread_sigmask(_signal.SIG_BLOCK, passed_on)
    try:
        sock, _pid = request(path, "worker", args, (0, 1, 2))
    except OSError:
        _signal.pthread_sigmask(_signal.SIG_UNBLOCK, passed_on)
        os.execv(sys.executable, [sys.executable, *args])
    # The worker holds the pipes now; ours must close so that the controller sees their end
    # when the worker ends.
    null = os.open(os.devnull, os.O_RDWR)
    os.dup2(null, 0)
    os.dup2(null, 1)
    os.close(null)

    def relay(signum: int, _frame: object) -> None:
        try:
            send(sock, {"signal": signum})
        except OSError:
            pass

    for signum in passed_on:
        _signal.signal(signum, relay)
    _signal.pthread_sigmask(_signal.SIG_UNBLOCK, passed_on)
    message = receive(sock)
    _exit_like(message["exit"] if message else 1)


if __name__ == "__main__":
    main(sys.argv)
