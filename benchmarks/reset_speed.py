"""How long a task's reset takes: the snapshot restore next to today's clear-and-clean.

Run: python benchmarks/reset_speed.py [--rounds 50]

One virtual device. Before every timed reset, untimed, a task-like episode dirties the device:
the calculator launched and two keys tapped, a contact inserted, a file left in Download, a
setting and the clock changed. Then one of the two resets is timed, alternating, so both see the
same machine load:
- snapshot: `avd snapshot load` of the base snapshot on the emulator console (what
  `--mobile-reset=snapshot` does), which puts back the whole device;
- clear-and-clean, as the plugin reset before: HOME, force-stop and `pm clear` of the task's
  apps in one shell call, plus the seed clean-up a task suite does by exact names (the contact
  and the file); it leaves the setting and the clock as the episode left them;
- clear, verified (`--mobile-reset=clear` now, for phones): the same force-stop and `pm clear`,
  then the durable state read and compared with the baseline, what it lacks removed, read again.
A last row times a restore when nothing changed since the last one. Prints p50 / p90 in ms and
the ratio of the medians; on a loaded machine the absolute numbers are noisy, the ratio less so.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable

from pytest_mobile_agent import Tap
from pytest_mobile_agent.device.android import AndroidDevice
from pytest_mobile_agent.device.reset import ClearReset, SnapshotReset, console_port
from pytest_mobile_agent.virtual import virtual_devices

CALC = "com.simplemobiletools.calculator"
CONTACTS = "com.simplemobiletools.contacts.pro"
RAW_CONTACTS = "content://com.android.contacts/raw_contacts"
TARGET_MS = 20.0


def dirty(dev: AndroidDevice) -> None:
    """What an episode leaves behind (untimed)."""
    dev.launch(CALC)
    ui = dev.ui()
    dev.execute(Tap(text="7"), ui)
    dev.execute(Tap(text="="), ui)
    dev.sh(
        f"content insert --uri {RAW_CONTACTS} --bind display_name:s:Bench; "
        "echo bench > /sdcard/Download/bench.txt; settings put system font_scale 1.3; date -s 2030-01-01T00:00:00"
    )


def clean_seeds(dev: AndroidDevice) -> None:
    dev.sh(f"content delete --uri {RAW_CONTACTS} --where \"display_name='Bench'\"; rm -f /sdcard/Download/bench.txt")


def percentiles(samples: list[float]) -> tuple[float, float]:
    s = sorted(samples)
    return statistics.median(s) * 1000, s[min(len(s) - 1, round(0.9 * (len(s) - 1)))] * 1000


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--rounds", type=int, default=50)
    args = p.parse_args()
    with virtual_devices(1) as (vdev,):
        dev = AndroidDevice(vdev.serial)
        port = console_port(vdev.serial)
        assert port is not None
        snapshot, clear = SnapshotReset(port), ClearReset()
        snapshot.save(dev)
        clear.reset(dev, [CALC, CONTACTS], [])  # its baseline: the state the snapshot holds
        resets: dict[str, Callable[[], object]] = {
            "snapshot restore": lambda: snapshot.reset(dev, [CALC, CONTACTS], []),
            "clear-and-clean": lambda: (dev.reset_app([CALC, CONTACTS]), clean_seeds(dev)),
            "clear, verified": lambda: clear.reset(dev, [CALC, CONTACTS], []),
        }
        samples: dict[str, list[float]] = {name: [] for name in resets}
        samples["snapshot, nothing changed"] = []
        for _ in range(args.rounds):
            for name, reset in resets.items():
                dirty(dev)
                t = time.perf_counter()
                reset()
                samples[name].append(time.perf_counter() - t)
            resets["snapshot restore"]()  # undo what the clear rounds left, untimed
            t = time.perf_counter()
            resets["snapshot restore"]()
            samples["snapshot, nothing changed"].append(time.perf_counter() - t)
        snapshot.close()
    print(f"reset of one task, {args.rounds} rounds each, interleaved (ms; 2-core shared machine, noisy)")
    print(f"{'reset':<28}{'p50':>8}{'p90':>8}")
    for name, values in samples.items():
        p50, p90 = percentiles(values)
        print(f"{name:<28}{p50:8.2f}{p90:8.2f}")
    snap50, _ = percentiles(samples["snapshot restore"])
    clear50, _ = percentiles(samples["clear-and-clean"])
    verified50, _ = percentiles(samples["clear, verified"])
    print(
        f"ratio clear-and-clean / snapshot (p50): {clear50 / snap50:.2f}x; clear, verified / snapshot: "
        f"{verified50 / snap50:.2f}x"
    )
    print(f"target: snapshot restore p50 <= {TARGET_MS:.0f} ms: {'met' if snap50 <= TARGET_MS else 'NOT met'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
