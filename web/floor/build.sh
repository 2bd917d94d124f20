#!/usr/bin/env bash
# The floor under the browser build's budgets (#68, docs/web.md "The floor"): examples/floor.rs,
# Bevy's plugins as the app lists them with one lit 3D scene and a line of text and nothing of
# Montello's, built as the shipped app is (the `web` profile, the same flags) into DIR with the
# page beside it. Then, served by web/serve.py:
#
#     node web/test/smaps.mjs http://127.0.0.1:PORT '?'              # its memory, as the phone
#     node web/test/startup.mjs http://127.0.0.1:PORT --scale 2      # its start, CPU 4x
#
#     web/floor/build.sh DIR
set -euo pipefail
out=${1:?usage: web/floor/build.sh DIR}
cd "$(dirname "$0")/../.."
wasm=wasm32-unknown-unknown
RUSTFLAGS="${RUSTFLAGS:-} --remap-path-prefix=${CARGO_HOME:-$HOME/.cargo}/registry/src/= --remap-path-prefix=$PWD/=" \
    cargo build --profile web --target "$wasm" --example floor
target_dir=$(cargo metadata --format-version 1 --no-deps | python3 -c 'import json, sys; print(json.load(sys.stdin)["target_directory"])')
mkdir -p "$out"
wasm-bindgen --target web --no-typescript --remove-producers-section --remove-name-section \
    --out-dir "$out" --out-name floor "$target_dir/$wasm/web/examples/floor.wasm"
cp web/floor/index.html "$out/"
ls -l "$out"
