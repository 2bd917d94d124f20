#!/usr/bin/env bash
# CI: the Android check build (android/build.sh --check: stand-in sysroot, no NDK; see
# docs/mobile.md for what it proves and what it does not), then assertions on the APK.
# Installs its Debian tools and the rustup target when missing.
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/montello/target}"
# Checks the shipped configuration, the size-tuned `mobile` profile (--release);
# MONTELLO_ANDROID_PROFILE=debug checks the dev profile instead.
profile_flag=(--release)
[ "${MONTELLO_ANDROID_PROFILE:-release}" = debug ] && profile_flag=()

need=()
for tool in aapt aapt2 apksigner zipalign clang ld.lld llvm-nm llvm-readelf keytool zip; do
    command -v "$tool" >/dev/null || need+=("$tool")
done
[ -f /usr/share/android-framework-res/framework-res.apk ] || need+=(android-framework-res)
if [ "${#need[@]}" -gt 0 ]; then
    echo "installing Debian packages for: ${need[*]}"
    sudo=""; [ "$(id -u)" = 0 ] || sudo=sudo
    $sudo apt-get update -qq
    $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
        aapt apksigner zipalign android-framework-res clang lld llvm zip default-jre-headless
fi
rustup target list --installed | grep -qx aarch64-linux-android || rustup target add aarch64-linux-android

# Every system symbol we import exists on aarch64 at minSdk 26, by AOSP's symbol maps (the
# facts and their sources: android/stub/api-levels.txt). And the check can fail: a symbol of
# API 36 is refused.
python3 android/stub/api_levels.py check android/stub/imports.txt android/stub/api-levels.txt 26
if printf 'libc.so pthread_getaffinity_np\n' > "$CARGO_TARGET_DIR/api-36-import.txt" &&
    python3 android/stub/api_levels.py check "$CARGO_TARGET_DIR/api-36-import.txt" \
        android/stub/api-levels.txt 26 2>/dev/null; then
    echo "api_levels.py accepted an API 36 symbol at minSdk 26" >&2; exit 1
fi

out=$(android/build.sh --check "${profile_flag[@]}")
echo "$out"
apk=${out%% *}
[ -f "$apk" ] || { echo "no APK at $apk" >&2; exit 1; }

badging=$(aapt dump badging "$apk")
echo "$badging" | grep -E "^(package|sdkVersion|targetSdkVersion|launchable-activity|native-code|application-label):"
expect() {
    echo "$badging" | grep -qE "$1" || { echo "aapt dump badging: expected /$1/" >&2; exit 1; }
}
# versionCode/versionName come from the crate's version (android/build.sh).
version=$(sed -n '/^\[workspace\.package\]/,/^\[/s/^version = "\([^"]*\)"/\1/p' Cargo.toml)
IFS=. read -r v_major v_minor v_patch <<< "${version%%[-+]*}"
expect "^package: name='org\.montello\.game' versionCode='$(( v_major * 10000 + v_minor * 100 + v_patch ))' versionName='${version//./\\.}'"
expect "^sdkVersion:'26'$"
expect "^targetSdkVersion:'36'$"
expect "^application-label:'Montello'$"
expect "^launchable-activity: name='android\.app\.NativeActivity'"
expect "^native-code: 'arm64-v8a'$"
# Vulkan is wanted but not required (GL ES 3 is the fallback, src/app/gpu.rs).
expect "^ *uses-gl-es: '0x30000'$"
expect "^ *uses-feature-not-required: name='android\.hardware\.vulkan\.version'"

unzip -l "$apk" | grep -q ' lib/arm64-v8a/libmontello\.so$' || { echo "no libmontello.so in the APK" >&2; exit 1; }
aapt dump xmltree "$apk" AndroidManifest.xml | grep -A1 'android:name.*"android.app.lib_name"' \
    | grep -q '"montello"' || { echo "android.app.lib_name is not montello" >&2; exit 1; }
apksigner verify --verbose --min-sdk-version 26 "$apk" | grep -E '^(Verifies|Verified using v2 scheme)'
# 16 KB LOAD alignment, the entry point, NEEDED only from the NDK, no TEXTREL, the library's
# zip entry (android/check-apk.py), and 4-byte alignment of every stored entry.
python3 android/check-apk.py "$apk"
# wgpu's GL ES backend is in the library: it loads libEGL.so at run time (and GL ES through it).
unzip -p "$apk" lib/arm64-v8a/libmontello.so > "$CARGO_TARGET_DIR/android/libmontello-check.so"
for text in libEGL.so "unable to open libEGL"; do
    grep -qaF "$text" "$CARGO_TARGET_DIR/android/libmontello-check.so" ||
        { echo "no '$text' in libmontello.so: wgpu's GL ES backend is missing" >&2; exit 1; }
done
zipalign -c -p 4 "$apk"
echo "android check build: OK ($apk)"
