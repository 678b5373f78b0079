#!/usr/bin/env bash
# Builds listener_app into build/listener.apk with Debian's Android tools (see
# install-build-deps.sh), checks the result and copies it to
# pytest_mobile_agent/device/listener.apk where the plugin looks for it.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
repo=$(dirname "$here")
src="$here/src/main"
out="$here/build"
package=io.pytestmobileagent.listener
service=$package.EventStreamService
# targetSdk 30: recent Android versions refuse to install apps that target very old APIs.
min_sdk=21
target_sdk=30
android_jar=${ANDROID_JAR:-/usr/lib/android-sdk/platforms/android-23/android.jar}

for tool in aapt apksigner zipalign dexdump dalvik-exchange javac keytool; do
    if ! command -v "$tool" >/dev/null; then
        echo "build.sh: $tool not found; run listener_app/install-build-deps.sh as root" >&2
        exit 1
    fi
done
if [ ! -f "$android_jar" ]; then
    echo "build.sh: $android_jar not found; run listener_app/install-build-deps.sh as root" >&2
    exit 1
fi

# Keep the debug key between builds; everything else is rebuilt from scratch.
mkdir -p "$out"
find "$out" -mindepth 1 -maxdepth 1 ! -name debug.keystore -exec rm -rf {} +
mkdir -p "$out/gen" "$out/classes"

# The source manifest has no package attribute (Gradle's namespace owns it); aapt needs one.
sed "s|<manifest |<manifest package=\"$package\" |" "$src/AndroidManifest.xml" >"$out/AndroidManifest.xml"

echo "== resources"
# -0 arsc: Android 11+ refuses apps targeting API 30 with a compressed resources.arsc.
aapt package -f -m -0 arsc --min-sdk-version "$min_sdk" --target-sdk-version "$target_sdk" \
    -M "$out/AndroidManifest.xml" -S "$src/res" -I "$android_jar" \
    -J "$out/gen" -F "$out/unsigned.apk"

echo "== java"
find "$src/java" "$out/gen" -name '*.java' >"$out/sources.txt"
# Java 8 bytecode without lambdas is what dx 10 accepts for minSdk 21. android.jar as the boot
# class path makes javac check java.* calls against Android's library, not the JDK's.
javac -source 8 -target 8 -encoding UTF-8 -Xlint:-options -bootclasspath "$android_jar" \
    -d "$out/classes" @"$out/sources.txt"

echo "== dex"
dalvik-exchange --dex --min-sdk-version="$min_sdk" --output="$out/classes.dex" "$out/classes"
(cd "$out" && aapt add -f unsigned.apk classes.dex >/dev/null)

echo "== align and sign"
zipalign -f -p 4 "$out/unsigned.apk" "$out/aligned.apk"
if [ ! -f "$out/debug.keystore" ]; then
    keytool -genkeypair -noprompt -keystore "$out/debug.keystore" -storepass android \
        -keypass android -alias androiddebugkey -keyalg RSA -keysize 2048 -validity 10000 \
        -dname "CN=Android Debug,O=Android,C=US" >/dev/null 2>&1
fi
apksigner sign --ks "$out/debug.keystore" --ks-pass pass:android --ks-key-alias androiddebugkey \
    --out "$out/listener.apk" "$out/aligned.apk"

echo "== verify"
apksigner verify "$out/listener.apk"
badging=$(aapt dump badging "$out/listener.apk")
version_code=$(sed -n 's/.*android:versionCode="\([0-9]*\)".*/\1/p' "$src/AndroidManifest.xml")
version_name=$(sed -n 's/.*android:versionName="\([^"]*\)".*/\1/p' "$src/AndroidManifest.xml")
grep -q "^package: name='$package' versionCode='$version_code' versionName='$version_name'" <<<"$badging" || {
    echo "build.sh: aapt dump badging does not show $package versionCode $version_code:" >&2
    echo "$badging" >&2
    exit 1
}
# Outputs go through variables: with pipefail, `tool | grep -q` fails when grep exits early.
manifest=$(aapt dump xmltree "$out/listener.apk" AndroidManifest.xml)
grep -q '"\.EventStreamService"' <<<"$manifest" || {
    echo "build.sh: the manifest does not declare .EventStreamService" >&2
    exit 1
}
dex=$(dexdump "$out/classes.dex")
grep -q "Class descriptor  : 'L${service//.//};'" <<<"$dex" || {
    echo "build.sh: classes.dex has no $service" >&2
    exit 1
}

cp "$out/listener.apk" "$repo/pytest_mobile_agent/device/listener.apk"
echo "built $out/listener.apk ($(stat -c %s "$out/listener.apk") bytes)"
echo "copied to pytest_mobile_agent/device/listener.apk"
