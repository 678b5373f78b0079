"""adbd authenticates its hosts as a phone with `ro.adb.secure=1` does: the AUTH handshake
against the keys of the user who started the device. Another local user (a process of uid
65534 with its own HOME, key and adb server) neither drives the device nor sees it as
`device`; the owner's real adb server and clients go on as before."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import adbutils
import pytest

from pytest_mobile_agent.virtual import VirtualDevice
from pytest_mobile_agent.virtual.adb import auth
from pytest_mobile_agent.virtual.adb.packets import (
    A_AUTH,
    A_CNXN,
    A_OPEN,
    AUTH_RSAPUBLICKEY,
    AUTH_SIGNATURE,
    AUTH_TOKEN,
    MAX_PAYLOAD,
    VERSION,
    Packet,
    PacketReader,
    encode,
)

NOBODY = 65534
as_root = pytest.mark.skipif(os.getuid() != 0, reason="running as another user needs root (CI runs as root)")


class Host:
    """An adb host spoken by hand over a raw socket to the device's adbd."""

    def __init__(self, port: int) -> None:
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=30)
        self.reader = PacketReader()
        self.pending: list[Packet] = []

    def send(self, command: int, arg0: int, arg1: int, data: bytes = b"") -> None:
        self.sock.sendall(encode(command, arg0, arg1, data))

    def receive(self) -> Packet:
        while not self.pending:
            data = self.sock.recv(65536)
            assert data, "the device closed the connection"
            self.pending += self.reader.feed(data)
        return self.pending.pop(0)

    def connect(self) -> Packet:
        self.send(A_CNXN, VERSION, MAX_PAYLOAD, b"host::\0")
        return self.receive()


def adbd_port(device: VirtualDevice) -> int:
    return int(device.serial.rsplit("-", 1)[1]) + 1  # emulator-N: adbd on N+1


def owner_key() -> tuple[int, int, int]:
    """The private key the owner's adb server signs with."""
    return auth.parse_private_key((Path.home() / ".android" / "adbkey").read_bytes())


@pytest.fixture(scope="module")
def keypair(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A key pair made by adb itself (`adb keygen`)."""
    path = tmp_path_factory.mktemp("keys") / "adbkey"
    subprocess.run([adbutils.adb_path(), "keygen", str(path)], check=True, capture_output=True)
    return path


def test_public_and_private_keys_read_as_adb_writes_them(keypair: Path) -> None:
    n, e, d = auth.parse_private_key(keypair.read_bytes())
    public = keypair.with_name("adbkey.pub").read_bytes()
    assert auth.parse_public_key(public) == (n, e) and e == 65537 and n.bit_length() == 2048
    assert auth.encode_public_key((n, e)) == public.split()[0]  # byte for byte what adb wrote
    token = os.urandom(auth.TOKEN_SIZE)
    signature = auth.sign((n, e, d), token)
    assert auth.signature_matches((n, e), token, signature)
    assert not auth.signature_matches((n, e), os.urandom(auth.TOKEN_SIZE), signature)
    with pytest.raises(auth.KeyFormatError):
        auth.parse_public_key(b"bm90IGEga2V5 me@here")


def test_vendor_keys_are_trusted(keypair: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    n, e, _ = auth.parse_private_key(keypair.read_bytes())
    assert (n, e) not in auth.trusted_keys()
    monkeypatch.setenv("ADB_VENDOR_KEYS", str(keypair))
    assert (n, e) in auth.trusted_keys()
    folder = keypair.parent / "vendor"
    folder.mkdir(exist_ok=True)
    shutil.copy(keypair, folder / "ci.adb_key")  # a folder: its *.adb_key files, as adb loads them
    monkeypatch.setenv("ADB_VENDOR_KEYS", str(folder))
    assert (n, e) in auth.trusted_keys()


def test_the_device_asks_for_a_signature_and_admits_the_owners_key(vdevice: VirtualDevice) -> None:
    host = Host(adbd_port(vdevice))
    challenge = host.connect()
    assert (challenge.command, challenge.arg0, len(challenge.data)) == (A_AUTH, AUTH_TOKEN, auth.TOKEN_SIZE)
    host.send(A_OPEN, 1, 0, b"shell:echo hi\0")  # not answered before the handshake
    host.send(A_AUTH, AUTH_SIGNATURE, 0, os.urandom(256))  # a key the device does not know
    retry = host.receive()
    assert (retry.command, retry.arg0) == (A_AUTH, AUTH_TOKEN) and retry.data != challenge.data
    host.send(A_AUTH, AUTH_SIGNATURE, 0, auth.sign(owner_key(), challenge.data))  # a token no longer asked
    latest = host.receive()
    assert latest.arg0 == AUTH_TOKEN
    host.send(A_AUTH, AUTH_SIGNATURE, 0, auth.sign(owner_key(), latest.data))
    online = host.receive()
    assert online.command == A_CNXN and online.data.startswith(b"device::")


def in_child(as_uid: int, work: Callable[[], bytes]) -> bytes:
    """Run `work` in a forked child that has become `as_uid`; what it returned."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read)
        try:
            os.setgid(as_uid)
            os.setuid(as_uid)
            os.write(write, work())
        except BaseException as exc:
            os.write(write, f"error: {exc!r}".encode())
        finally:
            os._exit(0)
    os.close(write)
    with os.fdopen(read, "rb") as f:
        result = f.read()
    os.waitpid(pid, 0)
    return result


@as_root
def test_another_users_process_is_not_let_in_even_with_its_public_key(vdevice: VirtualDevice) -> None:
    port = adbd_port(vdevice)
    public = auth.encode_public_key(owner_key()[:2], "victim@host") + b"\0"  # anyone may read a .pub

    def attempt() -> bytes:
        host = Host(port)
        token = host.connect()
        host.send(A_AUTH, AUTH_RSAPUBLICKEY, 0, public)
        host.send(A_OPEN, 1, 0, b"shell:input tap 100 100\0")
        host.send(A_CNXN, VERSION, MAX_PAYLOAD, b"host::\0")  # packets are handled in order:
        after = host.receive()  # the next reply says whether the key let it in
        return b"%d %d %d" % (token.arg0, after.command == A_CNXN, after.arg0)

    assert in_child(NOBODY, attempt) == b"%d 0 %d" % (AUTH_TOKEN, AUTH_TOKEN)


def test_the_owners_own_process_is_let_in_on_its_public_key(vdevice: VirtualDevice, keypair: Path) -> None:
    """A phone asks "Allow USB debugging?" for an unknown key; the device's owner is the one who
    answers, so an adb server of theirs that signs with another key still gets in."""
    host = Host(adbd_port(vdevice))
    host.connect()
    n, e, _ = auth.parse_private_key(keypair.read_bytes())
    host.send(A_AUTH, AUTH_RSAPUBLICKEY, 0, auth.encode_public_key((n, e), "me@here") + b"\0")
    assert host.receive().command == A_CNXN


@pytest.fixture
def nobody_home() -> Iterator[Path]:
    """A HOME for uid 65534 and a copy of adb it may run (the installed one sits in root's home)."""
    home = Path(tempfile.mkdtemp(prefix="pma-nobody-"))
    shutil.copy(adbutils.adb_path(), home / "adb")
    os.chmod(home, 0o755)
    os.chown(home, NOBODY, NOBODY)
    yield home
    shutil.rmtree(home, ignore_errors=True)


@as_root
def test_another_users_adb_server_lists_the_device_unauthorized(vdevice: VirtualDevice, nobody_home: Path) -> None:
    port = adbd_port(vdevice)
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        server_port = s.getsockname()[1]

    def other_user() -> bytes:
        env = {"HOME": str(nobody_home), "PATH": "/usr/bin:/bin", "ANDROID_ADB_SERVER_PORT": str(server_port)}

        def adb(*args: str) -> subprocess.CompletedProcess:
            command = [str(nobody_home / "adb"), *args]
            return subprocess.run(command, env=env, capture_output=True, text=True, timeout=60)

        try:
            adb("start-server")  # makes this user's own key, as adb does for anyone
            adb("connect", f"127.0.0.1:{port}")
            serial = f"127.0.0.1:{port}"
            deadline = time.monotonic() + 30
            while time.monotonic() < deadline:  # until the handshake has run its course
                listed = adb("devices").stdout
                if f"{serial}\t" in listed and not any(w in listed for w in ("offline", "connecting", "authorizing")):
                    break
                time.sleep(0.1)
            shell = adb("-s", serial, "shell", "echo", "taken")
            return f"{listed}\n---\n{shell.returncode} {shell.stdout!r} {shell.stderr!r}".encode()
        finally:
            adb("kill-server")

    result = in_child(NOBODY, other_user).decode()
    assert (nobody_home / ".android" / "adbkey.pub").exists(), result
    listed, shell = result.split("\n---\n")
    assert f"127.0.0.1:{port}\tunauthorized" in listed.splitlines()
    assert "taken" not in shell and "unauthorized" in shell
    # The owner's server and clients are unaffected.
    assert adbutils.AdbClient().device(vdevice.serial).get_state() == "device"
    assert adbutils.AdbClient().device(vdevice.serial).shell("echo mine") == "mine"
