#!/usr/bin/env bash
# Build Montello's APK: a NativeActivity app, no Java, no Gradle (docs/mobile.md).
#
#   android/build.sh [--release] [--check] [--bundle] [--update-imports]
#
#   (default)   real build: needs ANDROID_NDK_HOME (an NDK, r27 or newer) and ANDROID_HOME
#               (or ANDROID_SDK_ROOT) with build-tools and platforms/android-36 installed.
#   --release   the `mobile` cargo profile (size-tuned release) and the release key:
#               MONTELLO_KEYSTORE, MONTELLO_KEYSTORE_PASS, MONTELLO_KEY_ALIAS and
#               MONTELLO_KEY_PASS (defaults to MONTELLO_KEYSTORE_PASS); check mode signs with
#               them too when MONTELLO_KEYSTORE is set (CI makes a throwaway one), else with
#               the debug key. Without --release: the dev profile, the debug key
#               (~/.android/debug.keystore, made on first use) and android:debuggable="true"
#               (so `adb shell run-as org.montello.game` works). versionName is the crate's
#               MAJOR.MINOR.PATCH, versionCode tools/version_code.py's (grows with every release and
#               pre-release).
#   --bundle    also write the Android App Bundle (.aab) Google Play takes for new apps: the
#               base module (manifest and resources in aapt2's protobuf format, lib/, assets/)
#               and BundleConfig.pb, signed with jarsigner with the same key.
#   --check     no NDK or SDK (this machine, CI): link against a stand-in sysroot made from
#               android/stub/ with every symbol resolved (-z defs), package with Debian's
#               aapt2/zipalign/apksigner against Debian's Android 10 framework-res.apk, sign with
#               the debug key, verify. A link-and-package check: such an APK has never run on a
#               device and is not a release artifact, even with --release.
#   --update-imports  (check mode) add new system imports to android/stub/imports.txt.
#   MONTELLO_ANDROID_LIB=path/libmontello.so  package this library instead of building one
#               (CI packages its one check-built library both as release and as debug).
#   MONTELLO_ANDROID_PROFILE=name  the cargo profile of --release instead of `mobile`: CI's
#               check build uses `android-check` (Cargo.toml says why); never for a release.
#
# Every mode checks the library as a phone would (android/check-apk.py: 16 KB LOAD
# alignment, NEEDED only NDK-stable libraries, the entry point exported).
# Prints the APK's path and size (and the bundle's, with --bundle). Cargo's target dir:
# $CARGO_TARGET_DIR, else ./target.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"

release=0 check=0 bundle=0
for arg in "$@"; do
    case "$arg" in
        --release) release=1 ;;
        --check) check=1 ;;
        --bundle) bundle=1 ;;
        --update-imports) export MONTELLO_UPDATE_IMPORTS=1 ;;
        -h|--help) sed -n '2,35p' "$0"; exit 0 ;;
        *) echo "android/build.sh: unknown argument $arg (see --help)" >&2; exit 2 ;;
    esac
done

API_MIN=26          # keep in step with android/AndroidManifest.xml
PLATFORM="${ANDROID_PLATFORM:-android-36}"
RUST_TARGET=aarch64-linux-android
ABI=arm64-v8a
target_dir="${CARGO_TARGET_DIR:-$root/target}"
if [ "$release" = 1 ]; then profile=${MONTELLO_ANDROID_PROFILE:-mobile}; kind=release; else profile=dev; kind=debug; fi
profile_dir=$([ "$profile" = dev ] && echo debug || echo "$profile")
mode=$([ "$check" = 1 ] && echo check || echo real)
work="$target_dir/android/$kind-$mode"
apk="$target_dir/android/montello-$kind$([ "$check" = 1 ] && echo -check).apk"
aab="${apk%.apk}.aab"
rm -rf "$work"
mkdir -p "$work"
started=$(date +%s)
say() { printf 'android/build.sh: %s\n' "$*" >&2; }
die() { say "$*"; exit 1; }
[ "$check" = 1 ] || [ "$profile" = mobile ] || [ "$profile" = dev ] ||
    die "MONTELLO_ANDROID_PROFILE=$profile is for check builds only (--check)"

# The store versions come from the crate's version (the workspace's, Cargo.toml), never from
# the manifest: versionName MAJOR.MINOR.PATCH (tools/version_code.py --marketing, as iOS's
# MARKETING_VERSION: 1.2.0-rc.1 is 1.2.0), versionCode by tools/version_code.py (the same number is
# iOS's CFBundleVersion).
version=$(sed -n '/^\[workspace\.package\]/,/^\[/s/^version = "\([^"]*\)"/\1/p' Cargo.toml)
version_code=$(python3 tools/version_code.py "$version") || die "no versionCode for '$version'"
version_name=$(python3 tools/version_code.py --marketing "$version")

# --- tools ---------------------------------------------------------------------------------
if [ "$check" = 1 ]; then
    AAPT2=aapt2 ZIPALIGN=zipalign APKSIGNER=apksigner
    INCLUDE=/usr/share/android-framework-res/framework-res.apk
    [ -f "$INCLUDE" ] || die "no $INCLUDE: apt-get install android-framework-res"
    for tool in aapt2 zipalign apksigner keytool clang ld.lld llvm-nm llvm-readelf zip python3; do
        command -v "$tool" >/dev/null || die "check mode needs $tool (docs/mobile.md lists the Debian packages)"
    done
else
    [ -n "${ANDROID_NDK_HOME:-}" ] || die "set ANDROID_NDK_HOME to an NDK (or use --check)"
    sdk="${ANDROID_HOME:-${ANDROID_SDK_ROOT:-}}"
    [ -n "$sdk" ] || die "set ANDROID_HOME to an Android SDK with build-tools and $PLATFORM"
    build_tools="$sdk/build-tools/${ANDROID_BUILD_TOOLS_VERSION:-$(ls "$sdk/build-tools" | sort -V | tail -1)}"
    AAPT2="$build_tools/aapt2" ZIPALIGN="$build_tools/zipalign" APKSIGNER="$build_tools/apksigner"
    INCLUDE="$sdk/platforms/$PLATFORM/android.jar"
    [ -f "$INCLUDE" ] || die "no $INCLUDE: sdkmanager \"platforms;$PLATFORM\""
    host=$(uname -s | tr '[:upper:]' '[:lower:]')-x86_64   # the NDK ships x86_64 hosts only
    ndk_bin="$ANDROID_NDK_HOME/toolchains/llvm/prebuilt/$host/bin"
    [ -x "$ndk_bin/clang" ] || die "no NDK clang in $ndk_bin"
    # android/check-apk.py's llvm-readelf and aapt: the NDK's and the build tools'.
    export PATH="$ndk_bin:$build_tools:$PATH"
fi
[ "$bundle" = 0 ] || command -v jarsigner >/dev/null || die "--bundle needs jarsigner (a JDK)"

# --- the native library ----------------------------------------------------------------------
prebuilt="${MONTELLO_ANDROID_LIB:-}"
if [ -n "$prebuilt" ]; then
    [ -f "$prebuilt" ] || die "MONTELLO_ANDROID_LIB=$prebuilt: no such file"
    say "packaging the prebuilt $prebuilt (no cargo build)"
elif [ "$check" = 1 ]; then
    sysroot="$target_dir/android-stub/sysroot"
    say "stand-in sysroot in $sysroot"
    CARGO_TARGET_DIR="$target_dir/android-stub/unwind-target" \
        cargo build --quiet --release --target "$RUST_TARGET" \
        --manifest-path android/stub/unwind/Cargo.toml
    python3 android/stub/sysroot.py build "$sysroot"
    cp "$target_dir/android-stub/unwind-target/$RUST_TARGET/release/libunwind.a" "$sysroot/"
    export MONTELLO_STUB_SYSROOT="$sysroot"
    # Cargo counts the linker's path in every unit's fingerprint: a linker inside the clone
    # would rebuild all of the app's Android dependencies in each new clone of the project
    # (CI's, 7 minutes with a warm cache, docs/ci.md). The path cargo sees is a fixed one in
    # the build directory; the script there runs this clone's android/stub/link.sh.
    export MONTELLO_STUB_LINK="$root/android/stub/link.sh"
    linker="$(cd "$target_dir/android-stub" && pwd)/link"
    printf '#!/bin/sh\nexec "${MONTELLO_STUB_LINK:?set by android/build.sh --check}" "$@"\n' >"$linker.new"
    chmod +x "$linker.new"
    mv -f "$linker.new" "$linker"
    export CARGO_TARGET_AARCH64_LINUX_ANDROID_LINKER="$linker"
else
    export CARGO_TARGET_AARCH64_LINUX_ANDROID_LINKER="$ndk_bin/aarch64-linux-android$API_MIN-clang"
    export CC_aarch64_linux_android="$ndk_bin/aarch64-linux-android$API_MIN-clang"
    export CXX_aarch64_linux_android="$ndk_bin/aarch64-linux-android$API_MIN-clang++"
    export AR_aarch64_linux_android="$ndk_bin/llvm-ar"
fi
cargo_started=$(date +%s)
if [ -z "$prebuilt" ]; then
    say "cargo: libmontello.so for $RUST_TARGET, profile $profile ($mode)"
    # The crate is an rlib only (Cargo.toml); ask for the cdylib NativeActivity loads here.
    # 16 KB pages: Google Play requires 16 KB-aligned libraries for targetSdk 35+, and 16 KB-page
    # devices refuse others. NDK r28+ aligns so by default, r27 does not: ask the NDK's clang for
    # it (an argument to this crate's link only, so no dependency is rebuilt). Check mode's
    # linker, android/stub/link.sh, passes the same to lld. android/check-apk.py asserts it.
    link_args=()
    [ "$check" = 1 ] || link_args=(-- -C link-arg=-Wl,-z,max-page-size=16384)
    cargo rustc -p montello --lib --crate-type cdylib --target "$RUST_TARGET" --profile "$profile" \
        ${link_args[@]+"${link_args[@]}"}
    so="$target_dir/$RUST_TARGET/$profile_dir/libmontello.so"
    [ -f "$so" ] || die "cargo produced no $so"
else
    so="$prebuilt"
fi
cargo_seconds=$(( $(date +%s) - cargo_started ))

# --- the APK --------------------------------------------------------------------------------
manifest=android/AndroidManifest.xml
if [ "$check" = 1 ]; then
    # Debian's framework-res.apk is Android 10 (API 29): drop exactly the newer names it does
    # not know (see the manifest's header). A real build links the manifest as written.
    manifest="$work/AndroidManifest.xml"
    sed -e 's/|fontWeightAdjustment|grammaticalGender"/"/' \
        -e 's/ *android:enableOnBackInvokedCallback="false"//' \
        -e 's/ *android:dataExtractionRules="@xml\/data_extraction_rules"//' \
        android/AndroidManifest.xml > "$manifest"
    if grep -qE '\|fontWeightAdjustment|\|grammaticalGender|android:enableOnBackInvokedCallback=|android:dataExtractionRules=' "$manifest"; then
        die "the check-mode manifest edit no longer matches android/AndroidManifest.xml"
    fi
    say "check mode: linking the manifest without fontWeightAdjustment|grammaticalGender, enableOnBackInvokedCallback and dataExtractionRules (unknown to API 29)"
fi

mkdir -p "$work/stage/lib/$ABI" "$work/assets"
cp "$so" "$work/stage/lib/$ABI/libmontello.so"
# The game's assets; the icon sources are for the launcher icons, not loaded by the game.
if [ -d assets ]; then
    cp -R assets/. "$work/assets/"
    rm -rf "$work/assets/icon"
fi

# Debug builds are debuggable (run-as, a debugger), release builds never.
link_flags=(-I "$INCLUDE" --manifest "$manifest" -A "$work/assets"
            --version-code "$version_code" --version-name "$version_name")
[ "$release" = 1 ] || link_flags+=(--debug-mode)
"$AAPT2" compile --dir android/res -o "$work/res.zip"
"$AAPT2" link "${link_flags[@]}" -o "$work/unaligned.apk" "$work/res.zip"
(cd "$work/stage" && zip -q -r -9 "$work/unaligned.apk" lib)
# The library is deflated (extractNativeLibs="true": installed by extraction), so page
# alignment inside the zip does not apply to it; the SDK's zipalign (build-tools 35+) aligns
# any stored library to 16 KB with -P 16, Debian's (check mode) knows only 4 KB pages (-p).
if [ "$check" = 1 ]; then
    "$ZIPALIGN" -f -p 4 "$work/unaligned.apk" "$work/aligned.apk"
else
    "$ZIPALIGN" -f -P 16 4 "$work/unaligned.apk" "$work/aligned.apk"
fi

# --- signing --------------------------------------------------------------------------------
if [ "$release" = 1 ] && [ "$check" = 0 ]; then
    : "${MONTELLO_KEYSTORE:?set MONTELLO_KEYSTORE (and MONTELLO_KEYSTORE_PASS, MONTELLO_KEY_ALIAS) for a release}"
fi
if [ "$release" = 1 ] && [ -n "${MONTELLO_KEYSTORE:-}" ]; then
    : "${MONTELLO_KEYSTORE_PASS:?set MONTELLO_KEYSTORE_PASS}"
    : "${MONTELLO_KEY_ALIAS:?set MONTELLO_KEY_ALIAS}"
    export MONTELLO_KEY_PASS="${MONTELLO_KEY_PASS:-$MONTELLO_KEYSTORE_PASS}"
    say "signing with the release key $MONTELLO_KEY_ALIAS from $MONTELLO_KEYSTORE"
    keystore="$MONTELLO_KEYSTORE" key_alias="$MONTELLO_KEY_ALIAS"
    sign=(--ks "$MONTELLO_KEYSTORE" --ks-key-alias "$MONTELLO_KEY_ALIAS"
          --ks-pass env:MONTELLO_KEYSTORE_PASS --key-pass env:MONTELLO_KEY_PASS)
    jar_pass=(-storepass:env MONTELLO_KEYSTORE_PASS -keypass:env MONTELLO_KEY_PASS)
else
    # The SDK's conventional debug key, so `adb install -r` works across machines' builds.
    debug_ks="${MONTELLO_DEBUG_KEYSTORE:-$HOME/.android/debug.keystore}"
    if [ ! -f "$debug_ks" ]; then
        say "creating the debug key $debug_ks"
        mkdir -p "$(dirname "$debug_ks")"
        keytool -genkeypair -keystore "$debug_ks" -storepass android -keypass android \
            -alias androiddebugkey -keyalg RSA -keysize 2048 -validity 10000 \
            -dname "CN=Android Debug,O=Android,C=US" >/dev/null 2>&1
    fi
    keystore="$debug_ks" key_alias=androiddebugkey
    sign=(--ks "$debug_ks" --ks-key-alias androiddebugkey --ks-pass pass:android --key-pass pass:android)
    jar_pass=(-storepass android -keypass android)
fi
"$APKSIGNER" sign "${sign[@]}" --min-sdk-version "$API_MIN" --out "$apk" "$work/aligned.apk"
"$APKSIGNER" verify --min-sdk-version "$API_MIN" "$apk"

# What a phone checks when it loads the library, in every mode.
python3 android/check-apk.py "$apk" >&2

# --- the bundle -----------------------------------------------------------------------------
if [ "$bundle" = 1 ]; then
    # bundletool's layout for one module, "base": the manifest and resources as aapt2 writes
    # them with --proto-format, moved under base/ (manifest/, res/, resources.pb), with lib/
    # and assets/ beside them, and BundleConfig.pb at the top.
    "$AAPT2" link --proto-format "${link_flags[@]}" -o "$work/proto.apk" "$work/res.zip"
    rm -rf "$work/aab" && mkdir -p "$work/aab/base/manifest"
    (cd "$work/aab/base" && unzip -q "$work/proto.apk")
    mv "$work/aab/base/AndroidManifest.xml" "$work/aab/base/manifest/"
    cp -R "$work/stage/lib" "$work/aab/base/"
    python3 android/bundle_config.py "$work/aab/BundleConfig.pb"
    rm -f "$aab"
    (cd "$work/aab" && zip -q -r -9 -D "$aab" BundleConfig.pb base)
    # Play checks an upload key's JAR signature on the bundle.
    jarsigner -keystore "$keystore" "${jar_pass[@]}" -sigalg SHA256withRSA -digestalg SHA-256 \
        "$aab" "$key_alias" >/dev/null
    jarsigner -verify "$aab" >/dev/null || die "jarsigner cannot verify $aab"
fi

so_bytes=$(wc -c < "$so" | tr -d " ")
apk_bytes=$(wc -c < "$apk" | tr -d " ")
say "built in $(( $(date +%s) - started )) s (cargo $cargo_seconds s)"
say "libmontello.so: $(( so_bytes / 1024 / 1024 )) MiB ($so_bytes bytes)"
[ "$check" = 1 ] && say "CHECK MODE: stand-in sysroot; never run on a device; not for release"
echo "$apk $(( apk_bytes / 1024 / 1024 )) MiB ($apk_bytes bytes)"
if [ "$bundle" = 1 ]; then
    aab_bytes=$(wc -c < "$aab" | tr -d " ")
    echo "$aab $(( aab_bytes / 1024 / 1024 )) MiB ($aab_bytes bytes)"
fi
