"""`python -m pytest_mobile_agent.virtual` as a user starts it, and the device's state:
app data and `pm clear`, shared storage, the fixed and settable clock, interactive stdin."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import adbutils

from pytest_mobile_agent.device.adb_server import adb_path
from pytest_mobile_agent.virtual.process import READY

CALC = "com.simplemobiletools.calculator"


def test_entry_point_prints_the_serial_and_cleans_up(tmp_path):
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "pytest_mobile_agent.virtual",
            "--size",
            "720x1600",
            "--density",
            "320",
            "--sdk",
            "30",
            "--release",
            "11",
            "--model",
            "Test Phone",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        line = proc.stdout.readline()
        assert line.startswith(READY), line + proc.stderr.read()
        fields = dict(p.split("=", 1) for p in line.split(": ", 1)[1].split())
        serial, root = fields["serial"], Path(fields["root"])
        listed = subprocess.run([adb_path(), "devices", "-l"], capture_output=True, text=True).stdout
        assert f"{serial}" in listed and "model:Test_Phone" in listed
        d = adbutils.AdbClient().device(serial)
        assert d.window_size() == (720, 1600)
        assert d.shell("getprop ro.build.version.sdk") == "30" and d.shell("wm density") == "Physical density: 320"
        assert root.is_dir()
    finally:
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(20) == 0
        proc.stdout.close()
        proc.stderr.close()
    assert not root.exists()  # nothing left behind
    listed = subprocess.run([adb_path(), "devices"], capture_output=True, text=True).stdout
    assert serial not in listed


def test_pm_clear_resets_app_data_and_state_survives_a_restart(adbd: adbutils.AdbDevice):
    adbd.shell(["pm", "clear", CALC])
    adbd.app_start(CALC)
    for key in ("7", "×", "6", "="):
        adbd.shell(f"input tap {_center(adbd, key)}")
    assert adbd.shell("ls /data/data/com.simplemobiletools.calculator/files") != ""
    adbd.app_stop(CALC)
    adbd.app_start(CALC)
    history = _center(adbd, desc="History")
    adbd.shell(f"input tap {history}")
    assert 'text="42"' in adbd.dump_hierarchy()  # the history survived the restart
    adbd.shell(["pm", "clear", CALC])
    adbd.app_start(CALC)
    adbd.shell(f"input tap {_center(adbd, desc='History')}")
    assert 'text="42"' not in adbd.dump_hierarchy()
    assert adbd.shell2(["ls", "/data/data/com.simplemobiletools.calculator/files"]).returncode != 0


def test_shared_storage_and_its_aliases(adbd: adbutils.AdbDevice):
    for folder in ("Download", "DCIM", "Music", "Recordings", "Pictures"):
        assert folder in adbd.shell("ls /sdcard")
    adbd.sync.push(b"note", "/storage/emulated/0/Download/alias.txt")
    assert adbd.shell("cat /sdcard/Download/alias.txt") == "note"
    assert adbd.shell("cat /storage/self/primary/Download/alias.txt") == "note"
    adbd.shell("rm /sdcard/Download/alias.txt")


def test_clock_is_fixed_and_settable(adbd: adbutils.AdbDevice):
    first = adbd.shell("date +%s")
    assert adbd.shell("date +%s") == first  # fixed: it does not tick by itself
    adbd.shell("date -s 2025-01-02T03:04:05")
    assert adbd.shell("date +%Y-%m-%dT%H:%M:%S") == "2025-01-02T03:04:05"
    assert adbd.shell("date") == "Thu Jan  2 03:04:05 UTC 2025"  # toybox pads the day with a space
    assert adbd.shell("date 010203042025; echo $?") == "date: cannot set date: Operation not permitted\n1"
    assert adbd.shell("date -s tomorrow; echo $?") == "date: bad date 'tomorrow'\n1"
    adbd.shell(f"date @{first}")
    assert adbd.shell("date +%s") == first


def test_interactive_shell_reads_stdin(vdevice):
    proc = subprocess.run(
        [adb_path(), "-s", vdevice.serial, "shell"],
        input="echo hello\nexit 4\n",
        capture_output=True,
        text=True,
        timeout=30,
        env=dict(os.environ),
    )
    assert "hello" in proc.stdout
    assert proc.returncode == 4


def _center(d: adbutils.AdbDevice, text: str | None = None, desc: str | None = None) -> str:
    from pytest_mobile_agent.device.ui_tree import UiTree

    node = UiTree(d.dump_hierarchy()).find(text=text, desc=desc)
    assert node is not None, f"{text or desc} not on screen"
    x, y = node.center
    return f"{x} {y}"


def test_a_device_ends_when_the_process_that_started_it_dies(tmp_path):
    """A crashed xdist worker must not leave its virtual device running."""
    script = (
        "from pytest_mobile_agent.virtual import start_device\n"
        "d = start_device()\n"
        "print(d.process.pid, d.serial, flush=True)\n"
        "import time; time.sleep(60)\n"
    )
    parent = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    pid, serial = parent.stdout.readline().split()
    parent.kill()  # no clean-up code runs: as if the worker crashed
    parent.wait()
    parent.stdout.close()
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline and Path(f"/proc/{pid}").exists():
        status = Path(f"/proc/{pid}/status").read_text() if Path(f"/proc/{pid}/status").exists() else ""
        if "State:\tZ" in status:
            break
        time.sleep(0.1)
    status = Path(f"/proc/{pid}/status").read_text() if Path(f"/proc/{pid}/status").exists() else ""
    assert not status or "State:\tZ" in status, "the device outlived its parent"
    deadline = time.monotonic() + 5
    while (
        time.monotonic() < deadline
        and serial in subprocess.run([adb_path(), "devices"], capture_output=True, text=True).stdout
    ):
        time.sleep(0.1)
    assert serial not in subprocess.run([adb_path(), "devices"], capture_output=True, text=True).stdout
