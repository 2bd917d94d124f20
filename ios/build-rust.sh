#!/usr/bin/env bash
# Xcode build phase (ios/project.yml): build the Rust app for the SDK and architectures Xcode is
# building and write it where Xcode expects the app's executable. Debug uses cargo's dev
# profile, Release the size-tuned `mobile` profile (Cargo.toml).
#
# Targets: iphoneos arm64 -> aarch64-apple-ios; iphonesimulator arm64 -> aarch64-apple-ios-sim,
# x86_64 -> x86_64-apple-ios (`rustup target add` all three). Several architectures are
# combined with lipo.
set -euo pipefail

# Xcode puts its own toolchain first in PATH, which breaks rustc's link step
# (rust-lang/rust#80817); use the system tools and rustup's cargo.
export PATH="$HOME/.cargo/bin:/opt/homebrew/bin:/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin"

root="$(cd "${SRCROOT:?run from Xcode}/.." && pwd)"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$root/target}"
# rustc reads the deployment target from the environment Xcode gives us (15.0, project.yml).
export IPHONEOS_DEPLOYMENT_TARGET="${IPHONEOS_DEPLOYMENT_TARGET:-15.0}"

if [ "${CONFIGURATION:-Debug}" = Debug ]; then profile=dev; dir=debug; else profile=mobile; dir=mobile; fi

executables=()
for arch in ${ARCHS:?}; do
    case "${PLATFORM_NAME:?}/$arch" in
        iphoneos/arm64) target=aarch64-apple-ios ;;
        iphonesimulator/arm64) target=aarch64-apple-ios-sim ;;
        iphonesimulator/x86_64) target=x86_64-apple-ios ;;
        *) echo "error: no Rust target for $PLATFORM_NAME/$arch" >&2; exit 1 ;;
    esac
    cargo build --manifest-path "$root/Cargo.toml" -p montello --bin montello \
        --target "$target" --profile "$profile"
    executables+=("$CARGO_TARGET_DIR/$target/$dir/montello")
done

mkdir -p "$(dirname "$TARGET_BUILD_DIR/$EXECUTABLE_PATH")"
lipo -create -output "$TARGET_BUILD_DIR/$EXECUTABLE_PATH" "${executables[@]}"
