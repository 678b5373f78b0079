"""ADB transport packets: six little-endian u32 words, then the payload.

Kept free of I/O so the parser can be fuzzed on its own.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass

A_SYNC = 0x434E5953
A_CNXN = 0x4E584E43
A_AUTH = 0x48545541
A_OPEN = 0x4E45504F
A_OKAY = 0x59414B4F
A_CLSE = 0x45534C43
A_WRTE = 0x45545257
A_STLS = 0x534C5453
COMMANDS = {A_SYNC, A_CNXN, A_AUTH, A_OPEN, A_OKAY, A_CLSE, A_WRTE, A_STLS}
NAMES = {
    A_SYNC: "SYNC",
    A_CNXN: "CNXN",
    A_AUTH: "AUTH",
    A_OPEN: "OPEN",
    A_OKAY: "OKAY",
    A_CLSE: "CLSE",
    A_WRTE: "WRTE",
    A_STLS: "STLS",
}

VERSION = 0x01000001  # from this version on the data checksum may be zero
MAX_PAYLOAD = 1024 * 1024
HEADER = struct.Struct("<6I")

# AUTH arg0 values.
AUTH_TOKEN, AUTH_SIGNATURE, AUTH_RSAPUBLICKEY = 1, 2, 3


class ProtocolError(Exception):
    """The peer sent bytes that are not an adb packet; the connection cannot go on."""


@dataclass(frozen=True)
class Packet:
    command: int
    arg0: int
    arg1: int
    data: bytes = b""

    @property
    def name(self) -> str:
        return NAMES.get(self.command, hex(self.command))


def encode(command: int, arg0: int, arg1: int, data: bytes = b"") -> bytes:
    return HEADER.pack(command, arg0, arg1, len(data), 0, command ^ 0xFFFFFFFF) + data


class PacketReader:
    """Incremental parser: feed bytes as they arrive, get whole packets back."""

    def __init__(self, max_payload: int = MAX_PAYLOAD) -> None:
        self.max_payload = max_payload
        self._buf = bytearray()

    def feed(self, data: bytes) -> list[Packet]:
        self._buf += data
        packets = []
        while len(self._buf) >= HEADER.size:
            command, arg0, arg1, length, _check, magic = HEADER.unpack_from(self._buf)
            if magic != command ^ 0xFFFFFFFF:
                raise ProtocolError(f"bad magic {magic:#x} for command {command:#x}")
            if command not in COMMANDS:
                raise ProtocolError(f"unknown command {command:#x}")
            if length > self.max_payload:
                raise ProtocolError(f"payload of {length} bytes exceeds {self.max_payload}")
            end = HEADER.size + length
            if len(self._buf) < end:
                break
            packets.append(Packet(command, arg0, arg1, bytes(self._buf[HEADER.size : end])))
            del self._buf[:end]
        return packets
