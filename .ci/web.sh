#!/usr/bin/env bash
# CI: the browser build. Builds the site (web/build.sh) with no warning allowed, and plays it in
# Debian's headless Chromium as a 390x844 touch phone (web/test/run.sh). Installs what it
# needs: the wasm target, wasm-bindgen-cli (the lockfile's version), chromium, node and npm.
# (Debian 12's binaryen is too old for wasm-opt to be safe here: web/build.sh says why.)
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/montello/target}"
rustup target list --installed | grep -x wasm32-unknown-unknown >/dev/null || rustup target add wasm32-unknown-unknown

.ci/packages.sh web

# The browser-only code builds without a warning (cargo replays a cached crate's warnings). A
# clippy pass for wasm would check all of Bevy once more for this target: minutes on a clean
# machine, for the few hundred lines behind cfg(target_family = "wasm").
cargo test --manifest-path web/worker/Cargo.toml
cargo test --manifest-path web/unbrotli/Cargo.toml
log=$(mktemp)
# The app without link-time optimisation (Cargo.toml's web-check profile says why), the
# worker as shipped; brotli at quality 5, many times faster than the shipped 11 on these tens
# of MB, still the same Content-Encoding for the test to check.
MONTELLO_WEB_PROFILE=web-check MONTELLO_BROTLI_QUALITY=5 web/build.sh web/dist 2>&1 | tee "$log"
# cargo's note that a third-party crate will be rejected by a future Rust is not this build's
# warning: a fresh machine prints it for wasm-bindgen-cli's own dependencies when build.sh
# installs the tool (buf_redux, multipart). It still fails if it names one of ours.
future='^warning: the following packages contain code that will be rejected by a future version of Rust: '
if grep -E '^warning: ' "$log" | grep -vE "$future" ||
    grep -E "$future" "$log" | grep -E 'montello'; then
    echo "web: the browser build has warnings" >&2
    exit 1
fi
# The size check refuses a build over a budget: the same site against a budget it is over.
if python3 tools/web-size.py web/dist --worker-budget 1000 >"$log" 2>&1 ||
    ! grep -q "^FAIL the engine's module takes" "$log"; then
    echo "web: tools/web-size.py did not refuse a worker over its budget:" >&2
    cat "$log" >&2
    exit 1
fi
# And the modules over a gzip budget (the publishing workflow's, for hosts without brotli).
if python3 tools/web-size.py web/dist --gzip-budget 1000 >"$log" 2>&1 ||
    ! grep -q "^FAIL the modules take [0-9]* bytes with gzip" "$log"; then
    echo "web: tools/web-size.py did not refuse modules over their gzip budget:" >&2
    cat "$log" >&2
    exit 1
fi
# And the app's brotli file with a window larger than the page's unpacker should hold: the same
# site (linked, not copied) with that one file compressed with brotli's 16 MiB window.
wide=$(mktemp -d)
cp -al web/dist/. "$wide"
packed=$(ls "$wide"/montello_bg.*.wasm.br)
rm "$packed"
brotli -q 1 -w 24 -o "$packed" "${packed%.br}"
if python3 tools/web-size.py "$wide" >"$log" 2>&1 ||
    ! grep -q "^FAIL the app's brotli file has a window of 2\*\*24 bytes" "$log"; then
    echo "web: tools/web-size.py did not refuse an app module packed with a 16 MiB window:" >&2
    cat "$log" >&2
    exit 1
fi
rm -rf "$wide"
MONTELLO_WEB_BUILT=1 web/test/run.sh "${MONTELLO_WEB_OUT:-$CARGO_TARGET_DIR/web-test}"
echo "web: OK"
