"""A stand-in for the Android SDK's `emulator` command, for the tests of --devices=emulator:AVD*N.

It takes the arguments the plugin passes the real one (`-list-avds`; `-avd NAME -port P` and the
headless flags), refuses what the real one refuses (an unknown option, an unknown AVD), appends
its arguments to $STAND_IN_LOG, and becomes a virtual device whose console listens on P and
adbd on P+1, as an emulator's do: the same serial (emulator-P), the same console (`kill`,
`avd snapshot ...`), the same `sys.boot_completed`.
"""

from __future__ import annotations

import argparse
import os
import sys

AVDS = os.environ.get("STAND_IN_AVDS", "Pixel_7_API_33").split(",")


def main() -> None:
    if os.environ.get("STAND_IN_LOG"):
        with open(os.environ["STAND_IN_LOG"], "a") as log:
            log.write(" ".join(sys.argv[1:]) + "\n")
    if sys.argv[1:] == ["-list-avds"]:
        print("\n".join(AVDS))
        return
    parser = argparse.ArgumentParser(prog="emulator")
    parser.add_argument("-avd", required=True)
    parser.add_argument("-port", type=int, required=True)
    for flag in ("-no-window", "-no-audio", "-no-boot-anim", "-read-only", "-no-snapshot-save"):
        parser.add_argument(flag, action="store_true")
    args = parser.parse_args()
    if args.avd not in AVDS:
        print(f"PANIC: Unknown AVD name [{args.avd}], use -list-avds to see valid list.", flush=True)
        sys.exit(1)
    device = [sys.executable, "-m", "pytest_mobile_agent.virtual", "--port", str(args.port + 1), "--model", args.avd]
    os.execv(sys.executable, [*device, "--watch-parent", str(os.getppid())])


if __name__ == "__main__":
    main()
