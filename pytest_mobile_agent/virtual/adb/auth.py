"""adbd's side of the adb AUTH handshake: whose keys the device trusts, and checking a signature.

As on a phone with `ro.adb.secure=1`: the host's CNXN is answered by AUTH(TOKEN, 20 random
bytes); the host signs the token with each of its private keys in turn (AUTH(SIGNATURE): RSA
PKCS#1 v1.5 over the token as a SHA-1 digest), and the device goes online for the first that
matches a trusted public key. When its keys run out the host sends its public key
(AUTH(RSAPUBLICKEY)), which a phone shows in the "Allow USB debugging?" dialog: here the
dialog's answer is whether the connecting process belongs to the user who started the device
(the peer socket's uid), so any adb server of that user gets in and everyone else stays
`unauthorized`.

Trusted keys: the user's `~/.android/adbkey.pub` (under $HOME, as adb reads it, and under the
home the password database gives, should $HOME point elsewhere), or the key derived from
`adbkey` where the `.pub` is missing, and the private keys `ADB_VENDOR_KEYS` names (files, or
directories of `*.adb_key` files), as the adb server loads them. A user without a key gets a
pair the way adb makes one (`adb keygen`). Only the standard library at import.
"""

from __future__ import annotations

import base64
import binascii
import logging
import os
import pwd
import socket
import struct
import subprocess
from collections.abc import Iterator
from pathlib import Path

log = logging.getLogger(__name__)

TOKEN_SIZE = 20
# The DER DigestInfo prefix of a SHA-1 digest: what RSA_sign(NID_sha1, ...) puts before it.
SHA1_DIGEST_INFO = bytes.fromhex("3021300906052b0e03021a05000414")
KEY_WORDS = 64  # adb's public key format holds a 2048-bit modulus as 64 little-endian u32
PUBLIC_KEY_SIZE = 4 + 4 + 4 * KEY_WORDS * 2 + 4

RsaKey = tuple[int, int]  # (modulus, public exponent)


class KeyFormatError(ValueError):
    """Bytes that are not a key in the format claimed."""


def parse_public_key(text: bytes) -> RsaKey:
    """An `adbkey.pub` line (base64 of adb's RSAPublicKey struct, then ` user@host`): (n, e)."""
    try:
        blob = base64.b64decode(text.split(None, 1)[0] if text.strip() else b"", validate=True)
    except binascii.Error as exc:
        raise KeyFormatError(f"not base64: {exc}") from exc
    if len(blob) != PUBLIC_KEY_SIZE:
        raise KeyFormatError(f"{len(blob)} bytes, expected {PUBLIC_KEY_SIZE}")
    words, _n0inv = struct.unpack_from("<II", blob)
    if words != KEY_WORDS:
        raise KeyFormatError(f"modulus of {words} words, expected {KEY_WORDS}")
    modulus = int.from_bytes(blob[8 : 8 + 4 * KEY_WORDS], "little")
    (exponent,) = struct.unpack_from("<I", blob, 8 + 8 * KEY_WORDS)
    return modulus, exponent


def encode_public_key(key: RsaKey, comment: str = "") -> bytes:
    """adb's public key format for (n, e): what `adbkey.pub` holds and AUTH(RSAPUBLICKEY) sends."""
    n, e = key
    r = 1 << 32
    n0inv = (-pow(n, -1, r)) % r
    rr = pow(2, 4096, n)  # (2^2048)^2 mod n, for Montgomery multiplication on the device
    blob = (
        struct.pack("<II", KEY_WORDS, n0inv)
        + n.to_bytes(4 * KEY_WORDS, "little")
        + rr.to_bytes(4 * KEY_WORDS, "little")
        + struct.pack("<I", e)
    )
    return base64.b64encode(blob) + (f" {comment}".encode() if comment else b"")


def parse_private_key(pem: bytes) -> tuple[int, int, int]:
    """(n, e, d) of a PEM RSA private key, PKCS#8 (`BEGIN PRIVATE KEY`, what adb writes) or
    PKCS#1 (`BEGIN RSA PRIVATE KEY`)."""
    lines = pem.decode("ascii", "replace").strip().splitlines()
    if len(lines) < 3 or not lines[0].startswith("-----BEGIN") or not lines[-1].startswith("-----END"):
        raise KeyFormatError("not a PEM block")
    try:
        der = base64.b64decode("".join(lines[1:-1]), validate=True)
    except binascii.Error as exc:
        raise KeyFormatError(f"not base64: {exc}") from exc
    body = _der_items(_der_one(der, 0x30))
    if "RSA PRIVATE KEY" not in lines[0]:  # PKCS#8: version, algorithm, OCTET STRING(PKCS#1)
        if len(body) < 3 or body[2][0] != 0x04:
            raise KeyFormatError("not a PKCS#8 private key")
        body = _der_items(_der_one(body[2][1], 0x30))
    numbers = [int.from_bytes(value, "big") for tag, value in body[:4] if tag == 0x02]
    if len(numbers) < 4:
        raise KeyFormatError("not an RSA private key")
    _version, n, e, d = numbers
    return n, e, d


def _der_items(data: bytes) -> list[tuple[int, bytes]]:
    items, i = [], 0
    while i < len(data):
        tag, value, i = _der_next(data, i)
        items.append((tag, value))
    return items


def _der_one(data: bytes, tag: int) -> bytes:
    found, value, _ = _der_next(data, 0)
    if found != tag:
        raise KeyFormatError(f"DER tag {found:#x}, expected {tag:#x}")
    return value


def _der_next(data: bytes, i: int) -> tuple[int, bytes, int]:
    if i + 2 > len(data):
        raise KeyFormatError("truncated DER")
    tag, length, i = data[i], data[i + 1], i + 2
    if length & 0x80:
        size = length & 0x7F
        length, i = int.from_bytes(data[i : i + size], "big"), i + size
    if i + length > len(data):
        raise KeyFormatError("truncated DER")
    return tag, data[i : i + length], i + length


def signature_matches(key: RsaKey, token: bytes, signature: bytes) -> bool:
    """Whether `signature` is key's RSA PKCS#1 v1.5 signature of `token` taken as a SHA-1 digest."""
    n, e = key
    size = (n.bit_length() + 7) // 8
    if len(signature) != size or len(token) != TOKEN_SIZE:
        return False
    digest_info = SHA1_DIGEST_INFO + token
    expected = b"\x00\x01" + b"\xff" * (size - 3 - len(digest_info)) + b"\x00" + digest_info
    return pow(int.from_bytes(signature, "big"), e, n).to_bytes(size, "big") == expected


def sign(private: tuple[int, int, int], token: bytes) -> bytes:
    """What an adb host sends as AUTH(SIGNATURE) for `token` (tests play hosts with it)."""
    n, _e, d = private
    size = (n.bit_length() + 7) // 8
    digest_info = SHA1_DIGEST_INFO + token
    padded = b"\x00\x01" + b"\xff" * (size - 3 - len(digest_info)) + b"\x00" + digest_info
    return pow(int.from_bytes(padded, "big"), d, n).to_bytes(size, "big")


def user_android_dirs() -> list[Path]:
    """Where the user's adb keys live: $HOME/.android as adb reads it, and the password
    database's home (a process run with another HOME still belongs to the same user)."""
    dirs = []
    if os.environ.get("HOME"):
        dirs.append(Path(os.environ["HOME"]) / ".android")
    try:
        home = Path(pwd.getpwuid(os.getuid()).pw_dir) / ".android"
    except KeyError:  # a uid without an entry
        home = None
    if home is not None and home not in dirs:
        dirs.append(home)
    return dirs


def _user_key_files() -> Iterator[Path]:
    for folder in user_android_dirs():
        public, private = folder / "adbkey.pub", folder / "adbkey"
        if public.is_file():
            yield public
        elif private.is_file():
            yield private


def _vendor_key_files() -> Iterator[Path]:
    for entry in filter(None, os.environ.get("ADB_VENDOR_KEYS", "").split(os.pathsep)):
        path = Path(entry)
        if path.is_dir():
            yield from sorted(p for p in path.iterdir() if p.name.endswith(".adb_key") and p.is_file())
        elif path.is_file():
            yield path


def read_key(path: Path) -> RsaKey | None:
    """The public half of the key in `path` (adb's public format, or a PEM private key)."""
    try:
        data = path.read_bytes()
        if data.lstrip().startswith(b"-----BEGIN"):
            n, e, _d = parse_private_key(data)
            return n, e
        return parse_public_key(data)
    except (OSError, KeyFormatError) as exc:
        log.warning("ignoring adb key %s: %s", path, exc)
        return None


def trusted_keys() -> list[RsaKey]:
    """The public keys whose signatures the device accepts, read now."""
    keys = []
    for path in [*_user_key_files(), *_vendor_key_files()]:
        key = read_key(path)
        if key is not None and key not in keys:
            keys.append(key)
    return keys


def ensure_user_key() -> None:
    """Give the user an adb key pair where they have none, as the adb server would
    (`adb keygen ~/.android/adbkey`), so that a server started later signs with a key the
    device trusts."""
    if any(True for _ in _user_key_files()):
        return
    folder = user_android_dirs()[0]
    folder.mkdir(mode=0o750, parents=True, exist_ok=True)
    import adbutils  # only here: about 9 MB in a device process

    result = subprocess.run(
        [adbutils.adb_path(), "keygen", str(folder / "adbkey")], capture_output=True, text=True, timeout=60
    )
    if result.returncode != 0:
        log.warning("adb keygen failed: %s", result.stderr.strip() or result.stdout.strip())


def peer_uid(here: tuple, there: tuple) -> int | None:
    """The uid owning the other end (`there`) of a TCP connection of ours (`here`), read from
    /proc/net/tcp; None where it cannot be told (no /proc, not a local peer)."""
    family = socket.AF_INET6 if len(here) == 4 else socket.AF_INET
    table = "/proc/net/tcp6" if family == socket.AF_INET6 else "/proc/net/tcp"
    wanted = (_proc_address(family, there), _proc_address(family, here))
    try:
        with open(table) as f:
            for line in f:
                fields = line.split()
                if (fields[1], fields[2]) == wanted:
                    return int(fields[7])
    except (OSError, IndexError, ValueError):
        return None
    return None


def _proc_address(family: int, address: tuple) -> str:
    """An address as /proc/net/tcp spells it: the IP's bytes as native-endian u32 hex, then the port."""
    packed = socket.inet_pton(family, address[0])
    words = struct.unpack(f"={len(packed) // 4}I", packed)
    return "".join(f"{w:08X}" for w in words) + f":{address[1]:04X}"


class Authenticator:
    """The device's AUTH policy, one per device: its trusted keys (read at the first handshake
    and again when a signature matches none, so a key made after the device started counts)."""

    def __init__(self) -> None:
        self._keys: list[RsaKey] | None = None

    @staticmethod
    def token() -> bytes:
        return os.urandom(TOKEN_SIZE)

    def verify(self, token: bytes, signature: bytes) -> bool:
        if self._keys is None:
            self._keys = trusted_keys()
        if any(signature_matches(k, token, signature) for k in self._keys):
            return True
        fresh = trusted_keys()
        if fresh == self._keys:
            return False
        self._keys = fresh
        return any(signature_matches(k, token, signature) for k in fresh)

    @staticmethod
    def allow(here: tuple | None, there: tuple | None) -> bool:
        """The "Allow USB debugging?" answer for an unknown public key on the connection from
        `there` to `here`: yes only to a process of the user who started the device."""
        return here is not None and there is not None and peer_uid(here, there) == os.getuid()
