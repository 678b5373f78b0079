"""A stand-in for the Android SDK's `emulator` command, for the tests of --devices=emulator:AVD*N.

It takes the arguments the plugin passes the real one (`-list-avds`; `-avd NAME -port P` and the
headless flags), refuses what the real one refuses (an unknown option, an unknown AVD, a second
writable instance of one AVD), appends its arguments to $STAND_IN_LOG (its pid to $STAND_IN_PIDS), and becomes a virtual
device whose console listens on P and adbd on P+1, as an emulator's do: the same serial
(emulator-P), the same console (`kill`, `avd snapshot ...`, which refuses to save under
`-read-only` as the emulator does), the same `sys.boot_completed`. Its guest clock runs, and a
snapshot load drops adb for $STAND_IN_LOAD_DROP seconds (1 by default; every connection closed,
the serial gone, then registered again) and rolls the clock back to the save time. It boots
for $STAND_IN_BOOT_DELAY seconds (3 by default; the tests' fixture sets 0), listed `offline`
meanwhile, stays `unauthorized` with $STAND_IN_UNAUTHORIZED set (no host let in), and outlives
the process that started it, as an emulator does: only its console's `kill` or a signal ends it.

AVDs are the `NAME.ini` files of $ANDROID_AVD_HOME, as the emulator finds them, each naming its
`NAME.avd` folder with `path=`; without that variable, the names in $STAND_IN_AVDS.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

LOCK = "hardware-qemu.ini.lock"  # what a running writable instance holds in its AVD folder


def avds() -> dict[str, Path | None]:
    """Each AVD's name and folder (None: named by $STAND_IN_AVDS, no folder)."""
    home = os.environ.get("ANDROID_AVD_HOME")
    if not home:
        return dict.fromkeys(os.environ.get("STAND_IN_AVDS", "Pixel_7_API_33").split(","))
    found: dict[str, Path | None] = {}
    for ini in sorted(Path(home).glob("*.ini")):
        fields = dict(line.split("=", 1) for line in ini.read_text().splitlines() if "=" in line)
        found[ini.stem] = Path(fields["path"].strip()) if "path" in fields else None
    return found


def take_lock(folder: Path) -> bool:
    """The AVD folder's lock for this process; False while a live instance holds it."""
    lock = folder / LOCK
    try:
        holder = int(lock.read_text())
        os.kill(holder, 0)
        return False
    except (OSError, ValueError):
        lock.write_text(str(os.getpid()))
        return True


def main() -> None:
    if os.environ.get("STAND_IN_LOG"):
        with open(os.environ["STAND_IN_LOG"], "a") as log:
            log.write(" ".join(sys.argv[1:]) + "\n")
    if os.environ.get("STAND_IN_PIDS") and sys.argv[1:] != ["-list-avds"]:
        with open(os.environ["STAND_IN_PIDS"], "a") as pids:
            pids.write(f"{os.getpid()}\n")  # the device's too: it is exec'd in this process
    known = avds()
    if sys.argv[1:] == ["-list-avds"]:
        print("\n".join(known))
        return
    parser = argparse.ArgumentParser(prog="emulator")
    parser.add_argument("-avd", required=True)
    parser.add_argument("-port", type=int, required=True)
    for flag in ("-no-window", "-no-audio", "-no-boot-anim", "-read-only", "-no-snapshot-save"):
        parser.add_argument(flag, action="store_true")
    args = parser.parse_args()
    if args.avd not in known:
        print(f"PANIC: Unknown AVD name [{args.avd}], use -list-avds to see valid list.", flush=True)
        sys.exit(1)
    folder = known[args.avd]
    if folder is not None and not args.read_only and not take_lock(folder):
        print(
            "ERROR | Running multiple emulators with the same AVD is an experimental feature.\n"
            "Please use -read-only flag to enable this feature.",
            flush=True,
        )
        sys.exit(1)
    device = [sys.executable, "-m", "pytest_mobile_agent.virtual", "--port", str(args.port + 1), "--model", args.avd]
    # The guest clock runs, and a snapshot load drops adb for about a second, as the emulator's do;
    # it boots for seconds, `offline` meanwhile, and outlives whoever started it.
    device += ["--running-clock", "--load-drop", os.environ.get("STAND_IN_LOAD_DROP", "1.0")]
    device += ["--boot-delay", os.environ.get("STAND_IN_BOOT_DELAY", "3.0")]
    if os.environ.get("STAND_IN_UNAUTHORIZED"):
        device.append("--unauthorized")
    if args.read_only:
        device.append("--read-only")
    os.execv(sys.executable, device)


if __name__ == "__main__":
    main()
