#!/usr/bin/env bash
# System set-up on a fresh Debian machine (bookworm): the Debian packages the project needs,
# then the listener app's APK built from source. Needs root, or sudo.
# Python packages are installed separately: python -m pip install -e ".[dev]"
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "$(id -u)" -eq 0 ]; then SUDO=""; else SUDO="sudo"; fi

$SUDO bash listener_app/install-build-deps.sh   # javac, dx, android.jar, aapt, apksigner, zipalign
bash listener_app/build.sh                       # -> pytest_mobile_agent/device/listener.apk
