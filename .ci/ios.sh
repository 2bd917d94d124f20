#!/usr/bin/env bash
# CI: type-check and lint the whole app for iOS (no Apple SDK here, so no link; docs/mobile.md).
# The Info.plist and icon checks are the desktop test tests/ios_bundle.rs (cargo test).
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/montello/target}"
rustup target list --installed | grep -x aarch64-apple-ios >/dev/null || rustup target add aarch64-apple-ios

# tracing-oslog (bevy_log's iOS logger, a non-optional dependency there) compiles a small C
# wrapper around <os/log.h> in its build script, and cc asks `xcrun` for the SDK. Its build
# script skips that when DOCS_RS is set, which is the crate's own switch for "no Apple
# headers here"; `cargo check` never links, so nothing is lost. Among the iOS dependency graph's
# build scripts only tracing-oslog and objc-sys read DOCS_RS, and objc-sys only when the target
# is not Apple. Scoped to this one command; a real iOS build (ios/build-rust.sh, on a Mac)
# never sets it.
# Clippy does the type check and lints the iOS-only code (the scene delegate, ios_main) with
# the house's -D warnings; it shares the dependencies' check metadata with `cargo check`.
DOCS_RS=1 cargo clippy --target aarch64-apple-ios -p montello --lib --bins -- -D warnings
echo "ios check: OK"
