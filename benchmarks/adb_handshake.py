"""What the adb AUTH handshake costs a new connection to a virtual device's adbd.

Run: python benchmarks/adb_handshake.py [-n 300]

Times a raw TCP connection from connect to the device's CNXN (signing the AUTH token with the
user's ~/.android/adbkey where the device asks), median and p90. Run it from two checkouts
(PYTHONPATH=...) to compare. The signature is made with `cryptography` where it is installed
(in C, as the adb server signs), else in Python, which adds tens of milliseconds of the
client's own time; the line says which.
"""

from __future__ import annotations

import argparse
import socket
import statistics
import time
from collections.abc import Callable
from pathlib import Path

from pytest_mobile_agent.virtual import start_device
from pytest_mobile_agent.virtual.adb.packets import A_AUTH, A_CNXN, MAX_PAYLOAD, VERSION, PacketReader, encode

AUTH_SIGNATURE = 2


def signer() -> tuple[Callable[[bytes], bytes], str]:
    pem = (Path.home() / ".android" / "adbkey").read_bytes()
    try:
        from cryptography.hazmat.primitives import hashes
        from cryptography.hazmat.primitives.asymmetric import padding, rsa, utils
        from cryptography.hazmat.primitives.serialization import load_pem_private_key
    except ImportError:
        from pytest_mobile_agent.virtual.adb import auth

        numbers = auth.parse_private_key(pem)
        return (lambda token: auth.sign(numbers, token)), "signed in Python"
    key = load_pem_private_key(pem, None)
    assert isinstance(key, rsa.RSAPrivateKey)
    return (lambda token: key.sign(token, padding.PKCS1v15(), utils.Prehashed(hashes.SHA1()))), "signed in C"


def online(port: int, sign: Callable[[bytes], bytes]) -> None:
    with socket.create_connection(("127.0.0.1", port)) as s:
        s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        reader, queue = PacketReader(), []

        def next_packet():  # noqa: ANN202
            while not queue:
                queue.extend(reader.feed(s.recv(65536)))
            return queue.pop(0)

        s.sendall(encode(A_CNXN, VERSION, MAX_PAYLOAD, b"host::\0"))
        reply = next_packet()
        if reply.command == A_AUTH:
            s.sendall(encode(A_AUTH, AUTH_SIGNATURE, 0, sign(reply.data)))
            reply = next_packet()
        assert reply.command == A_CNXN, reply


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("-n", type=int, default=300, help="connections timed")
    args = p.parse_args()
    sign, how = signer()
    device = start_device()
    try:
        port = int(device.serial.rsplit("-", 1)[1]) + 1  # emulator-N: adbd on N+1
        for _ in range(20):
            online(port, sign)
        times = []
        for _ in range(args.n):
            t = time.perf_counter()
            online(port, sign)
            times.append((time.perf_counter() - t) * 1000)
    finally:
        device.stop()
    times.sort()
    print(
        f"new adbd connection to online: median {statistics.median(times):.2f} ms, "
        f"p90 {times[int(0.9 * len(times))]:.2f} ms (n={args.n}, {how})"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
