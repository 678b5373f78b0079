"""A lease kept on the device itself, so that hosts sharing one remote adb server never drive the
same device at once.

A file lock only excludes the processes of one machine; the one thing every host shares is the
device, so the lease lives there: a directory, `/data/local/tmp/.pma-lease`, made with `mkdir`
(atomic: of several hosts making it at once, exactly one succeeds) and holding two files,
`holder` (host, process and a random token) and `expires` (Unix seconds). The commands use only
what every device's shell has (`[`, `if`, `$(...)`, `mkdir`, `mv`), not `case` or `${x%%y}`.
The holder renews it every third of its lifetime from a background thread and removes it when
done. A lease whose holder stopped renewing (a host that crashed or lost its network) is broken
once it has expired by `GRACE` seconds (hosts' clocks, kept by NTP, agree far better than that),
and at once when its holder is a dead process of this very host. Snapshot resets (emulators)
may roll the directory back: `renew` puts it back, or tells that another host took the device.
"""

from __future__ import annotations

import os
import secrets
import socket
import threading
import time
from dataclasses import dataclass, field

import adbutils

from pytest_mobile_agent.device.android import AndroidDevice
from pytest_mobile_agent.errors import DeviceLost

LEASE_DIR = "/data/local/tmp/.pma-lease"
TTL = 60.0  # seconds a lease lives without renewal
GRACE = 10.0  # seconds past expiry before another host breaks it


def holder_id() -> str:
    """Who holds a lease: this host, this process, and a token of this lease's own."""
    return f"{socket.gethostname()}/{os.getpid()}/{secrets.token_hex(4)}"


def _dead_here(holder: str) -> bool:
    """The holder is a process of this host that no longer runs."""
    host, _, rest = holder.partition("/")
    pid = rest.partition("/")[0]
    if host != socket.gethostname() or not pid.isdigit():
        return False
    try:
        os.kill(int(pid), 0)
    except ProcessLookupError:
        return True
    except PermissionError:
        return False
    return False


@dataclass
class DeviceLease:
    serial: str
    client: adbutils.AdbClient
    ttl: float = TTL
    grace: float = GRACE
    holder: str = field(default_factory=holder_id)
    held: bool = False
    _stop: threading.Event = field(default_factory=threading.Event, repr=False)
    _thread: threading.Thread | None = field(default=None, repr=False)

    def __post_init__(self) -> None:
        # A device object of its own: the harness's may be caching reads while a task is judged.
        self._device = AndroidDevice(self.serial, self.client)

    def _sh(self, command: str) -> str:
        # Unchecked: the lease's commands answer by what they print (TAKEN, a holder), and a
        # lease someone else holds fails them on purpose.
        return self._device.sh(command, timeout=30, check=False).strip()

    def _expiry(self) -> str:
        return f"{time.time() + self.ttl:.3f}"

    def current(self) -> tuple[str, str] | None:
        """(holder, expiry) of the lease on the device, or None when there is none."""
        text = self._sh(f"cat {LEASE_DIR}/holder 2>/dev/null; echo; cat {LEASE_DIR}/expires 2>/dev/null")
        holder, _, expires = text.partition("\n")
        return (holder.strip(), expires.strip()) if holder.strip() else None

    def try_acquire(self) -> bool:
        """Take the lease if it is free or stale; False when another live holder has it."""
        for _ in range(2):  # a stale lease is broken, then taken on the second pass
            if self._sh(f"mkdir {LEASE_DIR} 2>/dev/null && {self._write()} && echo TAKEN").endswith("TAKEN"):
                self.held = True
                self._start_heartbeat()
                return True
            if not self._break_if_stale():
                return False
        return False

    def _write(self) -> str:
        return f"echo {self.holder} > {LEASE_DIR}/holder && echo {self._expiry()} > {LEASE_DIR}/expires"

    def _break_if_stale(self) -> bool:
        found = self.current()
        if found is None:  # made, not yet written (or just released): a live taker
            return False
        holder, expires = found
        try:
            deadline = float(expires) + self.grace
        except ValueError:  # written halfway by a holder that died mid-write
            deadline = 0.0
        expired = time.time() > deadline
        if not expired and not _dead_here(holder):
            return False
        # Move it aside only if it is still the lease judged stale (one command on the device).
        aside = f"{LEASE_DIR}.broken.{secrets.token_hex(4)}"
        moved = self._sh(
            f'[ "$(cat {LEASE_DIR}/holder 2>/dev/null)" = "{holder}" ] '
            f'&& [ "$(cat {LEASE_DIR}/expires 2>/dev/null)" = "{expires}" ] '
            f"&& mv {LEASE_DIR} {aside} && rm -r {aside} && echo BROKEN"
        )
        return moved.endswith("BROKEN")

    def renew(self) -> bool:
        """Push the expiry on; take the lease again if a reset rolled it away (mkdir still decides
        between hosts). False: another host holds the device now."""
        out = self._sh(
            f'if [ "$(cat {LEASE_DIR}/holder 2>/dev/null)" = "{self.holder}" ]; '
            f"then echo {self._expiry()} > {LEASE_DIR}/expires && echo OK; "
            f"elif mkdir {LEASE_DIR} 2>/dev/null; then {self._write()} && echo OK; else echo TAKEN; fi"
        )
        self.held = out.endswith("OK")
        return self.held

    def release(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(5)
        if self.held:
            self.held = False
            try:
                self._sh(f'[ "$(cat {LEASE_DIR}/holder 2>/dev/null)" = "{self.holder}" ] && rm -r {LEASE_DIR}')
            except DeviceLost:
                pass  # the device is gone: its lease goes with it, or expires

    def _start_heartbeat(self) -> None:
        def beat() -> None:
            while not self._stop.wait(self.ttl / 3):
                try:
                    if not self.renew():
                        return  # taken over: lease() sees `held` False and gives the device up
                except Exception:  # the device is unreachable: the episode finds out itself
                    continue

        self._thread = threading.Thread(target=beat, daemon=True, name=f"lease-{self.serial}")
        self._thread.start()
