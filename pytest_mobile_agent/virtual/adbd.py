"""Runs one virtual device: its adbd listening on a TCP port, registered with the adb server."""

from __future__ import annotations

import asyncio
import logging
import signal
from pathlib import Path

from ..device import adb_server
from .services import open_service
from .system import Device, DeviceConfig
from .transport import Connection

log = logging.getLogger(__name__)
READY = "pytest-mobile-agent virtual device ready"


async def serve(
    root: Path, config: DeviceConfig, port: int = 0, host: str = "127.0.0.1", register: bool = True, on_ready=None
) -> None:  # noqa: ANN001
    loop = asyncio.get_running_loop()
    connections: set[Connection] = set()
    holder: list[Device] = []

    def factory() -> Connection:
        conn = Connection(holder[0].banner(), lambda s, name: open_service(holder[0], s, name), connections.discard)
        connections.add(conn)
        return conn

    server = await loop.create_server(factory, host, port, reuse_address=True)
    bound = server.sockets[0].getsockname()[1]
    config.serial = config.serial or f"{host}:{bound}"
    holder.append(Device(root, config))
    stop = asyncio.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    address = f"{host}:{bound}"
    if register:
        await loop.run_in_executor(None, adb_server.connect, address)
    if on_ready:
        on_ready(address, bound)
    try:
        await stop.wait()
    finally:
        if register:
            await loop.run_in_executor(None, adb_server.disconnect, address)
        server.close()
        for conn in list(connections):
            if conn.transport:
                conn.transport.close()
        holder[0].shutdown()
