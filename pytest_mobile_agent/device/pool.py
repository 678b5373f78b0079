"""Which devices a session uses, and one lease per process (each xdist worker, or pytest alone).

`--devices` takes:
- `virtual` (the default): each process starts its own virtual device and stops it at the end;
- `all`: every device the adb server lists as online;
- a comma-separated list of serials;
- `remote:HOST:PORT`: every online device behind that adb server;
- `emulator:AVD*N`: N instances of an AVD booted for the session (emulators.py), leased as serials.
A real device is leased twice: an exclusive file lock (one file per serial in the user's private
state directory, shared by all their processes: a worker that dies releases it with its last
breath, and a replacement worker takes whatever is free), then a lease on the device itself (lease.py), which
excludes the other hosts that share the same remote adb server. A lost device is given up; the
next lease takes another one (or starts a new virtual device).
"""

from __future__ import annotations

import fcntl
import os
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

import adbutils

from pytest_mobile_agent.device import adb_server
from pytest_mobile_agent.device.android import AndroidDevice, HarnessAdbClient
from pytest_mobile_agent.device.lease import DeviceLease
from pytest_mobile_agent.errors import DeviceLost, EventStreamError, InfrastructureFault
from pytest_mobile_agent.virtual.core.private_dirs import state_dir

if TYPE_CHECKING:  # loaded with the first device, not with the plugin
    from pytest_mobile_agent.events.client import EventStreamClient
    from pytest_mobile_agent.virtual import VirtualDevice
    from pytest_mobile_agent.virtual.process import Spawn


class DeviceConfigError(Exception):
    """`--devices` names nothing usable; the message says what was found."""


@dataclass(frozen=True)
class DeviceSource:
    kind: str  # virtual, all, serials, remote
    serials: tuple[str, ...] = ()
    host: str = "127.0.0.1"
    port: int = 0

    @classmethod
    def parse(cls, value: str | None) -> DeviceSource:
        value = (value or "virtual").strip()
        if value == "virtual":
            return cls("virtual")
        if value == "all":
            return cls("all", port=adb_server.server_port())
        m = re.fullmatch(r"remote:([^:]+):(\d+)", value)
        if m:
            return cls("remote", host=m.group(1), port=int(m.group(2)))
        serials = tuple(s.strip() for s in value.split(",") if s.strip())
        if not serials:
            raise DeviceConfigError(f"--devices={value!r}: expected virtual, all, serials or remote:HOST:PORT")
        return cls("serials", serials, port=adb_server.server_port())

    def client(self) -> HarnessAdbClient:
        return HarnessAdbClient(host=self.host, port=self.port or adb_server.server_port(), socket_timeout=60)

    def online(self) -> list[str]:
        """The serials this source stands for that are online now."""
        if self.kind == "virtual":
            return []
        try:
            listed = {d.serial: d.state for d in self.client().list()}
        except (adbutils.AdbError, OSError) as exc:
            raise DeviceConfigError(f"cannot reach the adb server at {self.host}:{self.port}: {exc}") from exc
        if self.kind == "serials":
            missing = [s for s in self.serials if listed.get(s) != "device"]
            if len(missing) == len(self.serials):
                raise DeviceConfigError(
                    f"--devices: none of {', '.join(self.serials)} is online (adb lists: {listed or 'nothing'})"
                )
            return [s for s in self.serials if s not in missing]
        found = [s for s, state in listed.items() if state == "device"]
        if not found:
            raise DeviceConfigError(
                f"--devices={self.kind}: the adb server at {self.host}:{self.port} lists no online device"
            )
        return found


class DevicePool:
    """This process's device: leased on first use, given up when lost, released at the end."""

    def __init__(
        self,
        source: DeviceSource,
        virtual_args: tuple[str, ...] = (),
        *,
        spawn: Spawn | None = None,
        pin: Callable[[int], object] | None = None,
    ) -> None:
        """`spawn` starts a virtual device faster where it can (a warm start forks it); `pin`
        gives the device started here a CPU of its own (parallel/cpu_pinning.py)."""
        self.source = source
        self.virtual_args = virtual_args
        self.spawn = spawn
        self.pin = pin
        self.device: AndroidDevice | None = None
        self._lock_fd: int | None = None
        self._device_lease: DeviceLease | None = None  # the on-device lease, across hosts
        self._virtual: VirtualDevice | None = None  # the one this process started, if any
        self._stream: EventStreamClient | None = None  # the event stream of the leased device
        self.lost: list[str] = []

    def lease(self) -> AndroidDevice:
        if self._device_lease is not None and not self._device_lease.held:
            self.give_up()  # another host broke the lease (ours had expired): take another device
        if self.device is None:
            self.device = self._start_virtual() if self.source.kind == "virtual" else self._lease_real()
        return self.device

    def _start_virtual(self) -> AndroidDevice:
        from pytest_mobile_agent.virtual import VirtualDeviceError, start_device

        try:
            virtual = start_device(args=self.virtual_args, spawn=self.spawn)
        except VirtualDeviceError as exc:  # a device that does not boot is the infrastructure's fault
            raise InfrastructureFault(str(exc)) from exc
        self._virtual = virtual
        if self.pin is not None:  # only now: the adb server, started above if it was not running, stays unpinned
            self.pin(virtual.process.pid)
        return AndroidDevice(virtual.serial)

    def _lease_real(self) -> AndroidDevice:
        lease_dir = state_dir("leases", re.sub(r"[^\w.-]", "_", f"{self.source.host}_{self.source.port}"))
        candidates = [s for s in self.source.online() if s not in self.lost]
        for serial in candidates:
            fd = os.open(lease_dir / re.sub(r"[^\w.-]", "_", serial), os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW, 0o600)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                os.close(fd)
                continue
            device_lease = DeviceLease(serial, self.source.client())
            try:
                taken = device_lease.try_acquire()
            except DeviceLost:
                taken = False
            if not taken:  # another host drives it
                os.close(fd)
                continue
            self._lock_fd, self._device_lease = fd, device_lease
            return AndroidDevice(serial, self.source.client())
        raise DeviceLost(
            f"no free device: {len(candidates)} online, all leased by other workers or hosts (lost: {self.lost})"
        )

    def confirm_lease(self) -> None:
        """After a reset (a snapshot load may roll the on-device lease away): hold it still, or
        raise DeviceLost when another host took the device meanwhile."""
        if self._device_lease is not None and not self._device_lease.renew():
            raise DeviceLost(f"device {self._device_lease.serial}: leased by another host after the reset")

    def event_stream(self, device: AndroidDevice):  # noqa: ANN201
        """The accessibility event stream of the leased device (the listener installed and on)."""
        from pytest_mobile_agent.device.listener import ensure_listener
        from pytest_mobile_agent.events.client import EventStreamClient

        if self._stream is None:
            try:
                ensure_listener(device.adb)
                self._stream = EventStreamClient.for_device(device.adb).start()
            except (EventStreamError, OSError, adbutils.AdbError) as exc:
                raise DeviceLost(f"device {device.serial}: event stream unavailable: {exc}") from exc
        return self._stream

    def restore_stream(self, device: AndroidDevice) -> None:
        """After a reset: an emulator's snapshot load drops adb and cuts the event stream, whose
        reader would give up after a few quick retries; a stream not connected now is started
        again (which waits for its hello line)."""
        if self._stream is not None and not self._stream.connected:
            self.close_streams()
            self.event_stream(device)

    def close_streams(self) -> None:
        if self._stream is not None:
            self._stream.close()
            self._stream = None

    def give_up(self) -> None:
        """The leased device is gone: forget it; the next lease() takes another."""
        if self.device is not None:
            self.lost.append(self.device.serial)
        self.release()

    def release(self) -> None:
        self.close_streams()
        if self._virtual is not None:
            self._virtual.stop()
            self._virtual = None
        if self._device_lease is not None:
            self._device_lease.release()
            self._device_lease = None
        if self._lock_fd is not None:
            os.close(self._lock_fd)  # closing the descriptor drops the flock
            self._lock_fd = None
        self.device = None
