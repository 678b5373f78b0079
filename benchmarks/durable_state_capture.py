"""What reading the durable state costs, beside a bare adb shell round trip.

    python benchmarks/durable_state_capture.py [--rounds 50]

The harness reads the durable state when the agent starts, a body that asks for `changes`
reads it once more per step (one adb shell command, parsed only when its output changed), and
the plugin reads it after the final check. The device holds what a busy task leaves: a contact,
a conversation, files in Download, a Calendar event (an SQLite database) and three apps' data.
Figures are medians over the rounds on one virtual device, all measured in this run; on a shared
machine the absolute numbers are noisy, the ratios less so.
"""

from __future__ import annotations

import argparse
import statistics
import time

from pytest_mobile_agent.actions import Tap, Type
from pytest_mobile_agent.device.android import AndroidDevice
from pytest_mobile_agent.device.durable_state import capture_script, parse_capture
from pytest_mobile_agent.virtual import virtual_devices

CALENDAR = "com.simplemobiletools.calendar.pro"


def seed(device: AndroidDevice) -> None:
    device.sh("content insert --uri content://com.android.contacts/raw_contacts --bind account_name:n:")
    device.sh("content insert --uri content://sms/sent --bind address:s:123 --bind 'body:s:hello'")
    for i in range(5):
        device.push(f"file {i}\n".encode(), f"/sdcard/Download/file{i}.txt")
    device.launch(CALENDAR)
    for action in (Tap(id=f"{CALENDAR}:id/calendar_fab"), Tap(text="Event"), Type("laundry"), Tap(desc="Save")):
        device.execute(action, device.ui())
    for package in ("com.simplemobiletools.notes.pro", "com.simplemobiletools.musicplayer"):
        device.launch(package)
        device.ui()


def median_ms(fn, rounds: int) -> float:
    times = []
    for _ in range(rounds):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=50)
    rounds = parser.parse_args().rounds
    with virtual_devices(1) as devices:
        device = AndroidDevice(devices[0].serial)
        seed(device)
        script = capture_script()
        output = device.sh(script, check=False)
        echo = median_ms(lambda: device.sh("echo ok", check=False), rounds)
        shell = median_ms(lambda: device.sh(script, check=False), rounds)
        parse = median_ms(lambda: parse_capture(output), rounds)
        state = parse_capture(output)
        diff = median_ms(lambda: state.diff(state), rounds)
    entries = sum(len(area or {}) for area in state.areas.values())
    print(f"durable state: {entries} entries in {len(state.areas)} areas, {len(output):,} characters of shell output")
    print(f"adb shell `echo ok` round trip   p50 {echo:7.2f} ms")
    print(f"capture (one shell command)     p50 {shell:7.2f} ms  ({shell / echo:.1f}x the bare round trip)")
    print(f"parse (databases cached)        p50 {parse:7.2f} ms")
    print(f"diff of two states              p50 {diff:7.3f} ms")


if __name__ == "__main__":
    main()
