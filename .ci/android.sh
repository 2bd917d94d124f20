#!/usr/bin/env bash
# CI: the Android check build (android/build.sh --check: stand-in sysroot, no NDK; see
# docs/mobile.md for what it proves and what it does not), then assertions on the APK.
# Installs its Debian tools and the rustup target when missing.
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/montello/target}"
# Checks the release packaging (--release) as an APK and a bundle signed with a release key,
# with the library built by the `android-check` profile (Cargo.toml: the `mobile` profile
# without LTO or size tuning; this APK is never shipped); then packages the same library as a
# debug build.

.ci/packages.sh android
rustup target list --installed | grep -x aarch64-linux-android >/dev/null || rustup target add aarch64-linux-android

# Every system symbol we import exists on aarch64 at minSdk 26, by AOSP's symbol maps (the
# facts and their sources: android/stub/api-levels.txt). And the check can fail: a symbol of
# API 36 is refused.
python3 android/stub/api_levels.py check android/stub/imports.txt android/stub/api-levels.txt 26
if printf 'libc.so pthread_getaffinity_np\n' > "$CARGO_TARGET_DIR/api-36-import.txt" &&
    python3 android/stub/api_levels.py check "$CARGO_TARGET_DIR/api-36-import.txt" \
        android/stub/api-levels.txt 26 2>/dev/null; then
    echo "api_levels.py accepted an API 36 symbol at minSdk 26" >&2; exit 1
fi

# Release signing, exercised with a throwaway key made now (a real release's key comes from the
# environment the same way and never from the repository).
keys="$CARGO_TARGET_DIR/android/ci-keys"
rm -rf "$keys" && mkdir -p "$keys"
export MONTELLO_KEYSTORE="$keys/release.jks" MONTELLO_KEYSTORE_PASS="ci-$RANDOM-$RANDOM" \
    MONTELLO_KEY_ALIAS=montello-ci
keytool -genkeypair -keystore "$MONTELLO_KEYSTORE" -storepass "$MONTELLO_KEYSTORE_PASS" \
    -keypass "$MONTELLO_KEYSTORE_PASS" -alias "$MONTELLO_KEY_ALIAS" -keyalg RSA -keysize 2048 \
    -validity 2 -dname "CN=Montello CI throwaway" >/dev/null 2>&1
release_cert=$(keytool -exportcert -keystore "$MONTELLO_KEYSTORE" \
    -storepass "$MONTELLO_KEYSTORE_PASS" -alias "$MONTELLO_KEY_ALIAS" 2>/dev/null |
    sha256sum | cut -d' ' -f1)

export MONTELLO_ANDROID_PROFILE=android-check
out=$(android/build.sh --check --bundle --release)
echo "$out"
apk=$(echo "$out" | awk '/\.apk /{print $1}')
aab=$(echo "$out" | awk '/\.aab /{print $1}')
[ -f "$apk" ] || { echo "no APK at $apk" >&2; exit 1; }
[ -f "$aab" ] || { echo "no bundle at $aab" >&2; exit 1; }

badging=$(aapt dump badging "$apk")
echo "$badging" | grep -E "^(package|sdkVersion|targetSdkVersion|launchable-activity|native-code|application-label):"
expect() {
    echo "$badging" | grep -E "$1" >/dev/null || { echo "aapt dump badging: expected /$1/" >&2; exit 1; }
}
# versionCode/versionName come from the crate's version (tools/version_code.py).
version=$(sed -n '/^\[workspace\.package\]/,/^\[/s/^version = "\([^"]*\)"/\1/p' Cargo.toml)
version_code=$(python3 tools/version_code.py "$version")
version_name=$(python3 tools/version_code.py --marketing "$version")
expect "^package: name='org\.montello\.game' versionCode='$version_code' versionName='${version_name//./\\.}'"
expect "^sdkVersion:'26'$"
expect "^targetSdkVersion:'36'$"
expect "^application-label:'Montello'$"
expect "^launchable-activity: name='android\.app\.NativeActivity'"
expect "^native-code: 'arm64-v8a'$"
# Vulkan is wanted but not required (GL ES 3 is the fallback, src/app/gpu.rs).
expect "^ *uses-gl-es: '0x30000'$"
expect "^ *uses-feature-not-required: name='android\.hardware\.vulkan\.version'"

unzip -l "$apk" | grep ' lib/arm64-v8a/libmontello\.so$' >/dev/null || { echo "no libmontello.so in the APK" >&2; exit 1; }
aapt dump xmltree "$apk" AndroidManifest.xml | grep -A1 'android:name.*"android.app.lib_name"' \
    | grep '"montello"' >/dev/null || { echo "android.app.lib_name is not montello" >&2; exit 1; }
apksigner verify --verbose --min-sdk-version 26 "$apk" | grep -E '^(Verifies|Verified using v2 scheme)'
# Signed with the release key, not the debug one; and never debuggable.
apksigner verify --print-certs "$apk" | grep "certificate SHA-256 digest: $release_cert" >/dev/null ||
    { echo "the release APK is not signed with the release key" >&2; exit 1; }
if echo "$badging" | grep "^application-debuggable" >/dev/null; then
    echo "the release APK is debuggable" >&2; exit 1
fi
# The GPU record stays on this phone: backup rules name it, for both backup schemes (the
# check build can link only the pre-Android-12 attribute; the real manifest has both).
aapt dump xmltree "$apk" AndroidManifest.xml | grep 'android:fullBackupContent.*@0x7f' >/dev/null ||
    { echo "no android:fullBackupContent in the manifest" >&2; exit 1; }
grep -q 'android:dataExtractionRules="@xml/data_extraction_rules"' android/AndroidManifest.xml ||
    { echo "no android:dataExtractionRules in android/AndroidManifest.xml" >&2; exit 1; }
for rules in res/xml/backup_rules.xml res/xml/data_extraction_rules.xml; do
    for file in gpu.ron gpu.ron.bak gpu.ron.tmp; do
        aapt dump xmltree "$apk" "$rules" | grep "\"$file\"" >/dev/null ||
            { echo "$rules does not exclude $file" >&2; exit 1; }
    done
done
# The bundle: layout, signature (the same release key), and a manifest aapt2 can read.
python3 android/check-aab.py "$aab" "$version_code"
jarsigner -verify -certs "$aab" | grep "jar verified" >/dev/null || { echo "the bundle's signature" >&2; exit 1; }
unzip -p "$aab" 'META-INF/*.RSA' | openssl pkcs7 -inform DER -print_certs 2>/dev/null |
    openssl x509 -outform DER 2>/dev/null | sha256sum | grep "$release_cert" >/dev/null ||
    { echo "the bundle is not signed with the release key" >&2; exit 1; }
# A debug package of the same library: debuggable (run-as works), signed with the debug key.
debug_out=$(MONTELLO_ANDROID_LIB="$CARGO_TARGET_DIR/aarch64-linux-android/$MONTELLO_ANDROID_PROFILE/libmontello.so" \
    android/build.sh --check)
debug_apk=${debug_out%% *}
aapt dump badging "$debug_apk" | grep "^application-debuggable" >/dev/null ||
    { echo "the debug APK is not debuggable" >&2; exit 1; }
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
echo "android check build: OK ($apk, $aab, $debug_apk)"
