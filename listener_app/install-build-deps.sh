#!/usr/bin/env bash
# Installs what build.sh needs, from Debian packages only. Run as root on Debian bookworm.
# Idempotent: running it again changes nothing.
#
# bookworm has aapt, apksigner, zipalign and dexdump but neither a dex compiler nor an
# android.jar; bullseye still ships both (dalvik-exchange = dx, libandroid-23-java = API 23).
# The bullseye source is pinned below bookworm so nothing else is ever taken from it.
set -euo pipefail

# Everything there already (a second run, a prepared image): nothing to do, no root needed.
android_jar=${ANDROID_JAR:-/usr/lib/android-sdk/platforms/android-23/android.jar}
present=yes
for tool in aapt apksigner zipalign dexdump dalvik-exchange javac keytool; do
    command -v "$tool" >/dev/null || present=no
done
if [ "$present" = yes ] && [ -f "$android_jar" ]; then
    echo "install-build-deps.sh: the listener app's build tools are installed"
    exit 0
fi

if [ "$(id -u)" -ne 0 ]; then
    echo "install-build-deps.sh: run as root (it uses apt-get)" >&2
    exit 1
fi

. /etc/os-release
if [ "${VERSION_CODENAME:-}" != "bookworm" ]; then
    echo "install-build-deps.sh: written for Debian bookworm, this is ${PRETTY_NAME:-unknown}" >&2
fi

sources=/etc/apt/sources.list.d/pytest-mobile-agent-bullseye.sources
pin=/etc/apt/preferences.d/pytest-mobile-agent-bullseye

if [ ! -f "$sources" ]; then
    cat >"$sources" <<'SOURCES'
Types: deb
URIs: http://deb.debian.org/debian
Suites: bullseye
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SOURCES
fi

if [ ! -f "$pin" ]; then
    cat >"$pin" <<'PIN'
# Only packages missing from bookworm come from bullseye (priority below bookworm's 500).
Package: *
Pin: release n=bullseye
Pin-Priority: 100
PIN
fi

export DEBIAN_FRONTEND=noninteractive
apt-get update -q
apt-get install -y -q --no-install-recommends \
    openjdk-17-jdk-headless \
    aapt apksigner zipalign dexdump \
    dalvik-exchange libandroid-23-java
