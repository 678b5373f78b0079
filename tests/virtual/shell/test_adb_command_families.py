"""One representative of each command family that agents and client libraries send
(docs/adb-commands.md), through the real clients: adbutils, AndroidViewClient and the adb CLI."""

from __future__ import annotations

import re
import socket
import subprocess
import threading

import adbutils
import pytest

from pytest_mobile_agent.device.adb_server import adb_path, expose_adb_on_path

CALC = "com.simplemobiletools.calculator"


def adb(serial: str, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([adb_path(), "-s", serial, *args], capture_output=True, text=True, timeout=30)


def test_logcat_writes_filters_formats_tails_and_clears(adbd: adbutils.AdbDevice):
    adbd.shell(["log", "-p", "w", "-t", "PmaFamily", "first line"])
    adbd.shell(["log", "-p", "d", "-t", "PmaFamily", "second line"])
    adbd.shell(["log", "-t", "PmaOther", "not this tag"])
    brief = adbd.shell(["logcat", "-d", "-v", "brief", "*:S", "PmaFamily:V"])
    assert re.findall(r"^([VDIWEF])/PmaFamily\s*\(\s*\d+\): (.*)$", brief, re.MULTILINE) == [
        ("W", "first line"),
        ("D", "second line"),
    ]
    assert "not this tag" not in brief
    # A priority floor, the tail, the default threadtime format.
    assert adbd.shell("logcat -d -s PmaFamily:W -v raw").splitlines()[-1] == "first line"
    (tail,) = [line for line in adbd.shell("logcat -d -t 1 -s PmaOther").splitlines() if "PmaOther" in line]
    assert re.fullmatch(r"\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}\s+\d+\s+\d+ I PmaOther: not this tag", tail)
    bad = adbd.shell2(["logcat", "-d", "-b", "nosuchbuffer"])
    assert bad.returncode == 1 and "Unknown buffer 'nosuchbuffer' listed for -b." in bad.output
    assert adbd.shell2(["logcat", "-c"]).returncode == 0
    assert "PmaFamily" not in adbd.shell("logcat -d -s PmaFamily")


def test_logcat_without_d_follows_the_log_until_the_client_hangs_up(adbd: adbutils.AdbDevice):
    stream = adbd.shell(["logcat", "-v", "raw", "-s", "PmaFollow"], stream=True)
    try:
        adbd.shell(["log", "-t", "PmaFollow", "arrived later"])
        seen = b""
        stream.conn.settimeout(10)
        while b"arrived later" not in seen:
            chunk = stream.conn.recv(4096)
            assert chunk, f"logcat ended early: {seen!r}"
            seen += chunk
    finally:
        stream.close()


def test_avc_start_activity_by_package_resolves_through_cmd_package(vdevice, adbd: adbutils.AdbDevice):
    resolved = adbd.shell(["cmd", "package", "resolve-activity", "--brief", CALC]).splitlines()
    assert len(resolved) == 2 and resolved[1] == f"{CALC}/.activities.MainActivity"
    assert adbd.shell("pm resolve-activity --brief com.example.absent").strip() == "No activity found"
    adbd.shell("input keyevent KEYCODE_HOME")
    expose_adb_on_path()
    from com.dtmilano.android.viewclient import ViewClient

    device, _ = ViewClient.connectToDeviceOrExit(serialno=vdevice.serial, verbose=False)
    device.startActivity(package=CALC)
    assert adbd.app_current().package == CALC
    top = adbd.shell(["dumpsys", "-t", "60", "activity", "top"])
    assert re.search(rf"ACTIVITY {re.escape(CALC)}/\S+ \w+ pid=\d+", top)


def test_adb_reverse_carries_a_device_connection_to_the_host(vdevice, adbd: adbutils.AdbDevice):
    server = socket.create_server(("127.0.0.1", 0))
    host_port = server.getsockname()[1]
    received: list[bytes] = []

    def answer() -> None:
        conn, _ = server.accept()
        with conn:
            data = b""
            while not data.endswith(b"\n"):
                data += conn.recv(100)
            received.append(data)
            conn.sendall(b"pong\n")

    threading.Thread(target=answer, daemon=True).start()
    try:
        adbd.reverse("tcp:7391", f"tcp:{host_port}")  # adbutils
        assert f"tcp:7391 tcp:{host_port}" in adb(vdevice.serial, "reverse", "--list").stdout
        assert adbd.shell("echo ping | nc localhost 7391") == "pong"
        assert received == [b"ping\n"]
        again = adb(vdevice.serial, "reverse", "--no-rebind", "tcp:7391", f"tcp:{host_port}")
        assert again.returncode == 1 and "cannot rebind existing socket" in again.stderr
    finally:
        adb(vdevice.serial, "reverse", "--remove-all")
        server.close()
    refused = adbd.shell2("echo ping | nc localhost 7391")
    assert refused.returncode == 1 and "Connection refused" in refused.output


@pytest.mark.parametrize(
    "command, status, expected",
    [
        ("uname -a", 0, r"Linux localhost \S+-android13\S* #1 SMP PREEMPT .* x86_64 Toybox"),
        ("uname -m", 0, r"x86_64"),
        ("cmd package list packages calculator", 0, rf"package:{CALC}"),
        ("cmd nosuchservice", 20, r"cmd: Can't find service: nosuchservice"),
        ("dumpsys -t 5 input | grep logicalFrame", 0, r".*logicalFrame=\[0, 0, 1080, 2340\].*"),
        ("dumpsys activity bogus", 0, r"Bad activity command, or no activities match: bogus\nUse -h for help."),
        (
            "pm disable-user --user 0 com.google.android.apps.messaging",
            255,
            r"Exception occurred while executing 'disable-user':\n"
            r"java.lang.IllegalArgumentException: Unknown package: com.google.android.apps.messaging",
        ),
        ("svc wifi disable; settings get global wifi_on; svc wifi enable", 0, r"0"),
        # SPA-Bench's close_app_activity pipeline, up to the force-stop loop.
        (
            f"monkey -p {CALC} 1 >/dev/null; dumpsys activity | grep topActivity"
            " | sed -n 's/.*{\\([^\\/]*\\)\\/.*/\\1/p'",
            0,
            rf"(.*\n)*{re.escape(CALC)}(\n.*)*",
        ),
        ("nosuchtool", 127, r"/system/bin/sh: nosuchtool: inaccessible or not found"),
    ],
)
def test_commands_answer_as_android_13_does(adbd: adbutils.AdbDevice, command, status, expected):
    result = adbd.shell2(command)
    assert result.returncode == status
    assert re.fullmatch(expected, result.output.strip()), result.output
