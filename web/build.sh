#!/usr/bin/env bash
# Builds Montello for the browser into web/dist (or the folder given): index.html, the app's
# .wasm and its JavaScript glue, and the engine's Web Worker (worker.js and its own small
# .wasm). Serve the folder with any static file server (web/serve.sh).
#
# Installs what it needs when missing: the wasm32-unknown-unknown target, and wasm-bindgen-cli
# at exactly the version Cargo.lock pins (the glue and the .wasm must agree). Shrinks both
# modules with wasm-opt when a recent binaryen (120 or later) is installed. CARGO_TARGET_DIR is
# honoured.
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-web/dist}
target_dir=${CARGO_TARGET_DIR:-target}
# The app's profile: `web` (shipped), or CI's `web-check` (Cargo.toml says why). The worker is
# always built with its own `web` profile.
profile=${MONTELLO_WEB_PROFILE:-web}
case "$profile" in
web | web-check) ;;
*)
    echo "web/build.sh: MONTELLO_WEB_PROFILE must be web or web-check, not $profile" >&2
    exit 1
    ;;
esac
wasm=wasm32-unknown-unknown

command -v brotli >/dev/null || .ci/packages.sh web-build
if command -v rustup >/dev/null && ! rustup target list --installed | grep -x "$wasm" >/dev/null; then
    rustup target add "$wasm"
fi
version=$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/version = |"/, ""); print; exit }' Cargo.lock)
if [[ -z "$version" ]]; then
    echo "web/build.sh: no wasm-bindgen in Cargo.lock" >&2
    exit 1
fi
if ! command -v wasm-bindgen >/dev/null || [[ "$(wasm-bindgen --version)" != "wasm-bindgen $version" ]]; then
    echo "installing wasm-bindgen-cli $version (crates.io)"
    # Not --locked: its lockfile pins a webpki-roots that the registry no longer offers.
    # Optimisation level 1: a new machine (CI's included) compiles it in about half the time
    # of the default level 3, and it still rewrites the app's module in seconds (level 0
    # compiles in 58 s instead of 118 but rewrites CI's app module in 72 s instead of 23).
    # Without the default features: no TLS for the test runner's downloads (ring's C and
    # rustls), which this build never uses: 118 s alone instead of 136 s.
    CARGO_PROFILE_RELEASE_OPT_LEVEL=1 cargo install wasm-bindgen-cli --version "$version" --no-default-features
fi

# The app's shadow stack (the stack Rust keeps in linear memory) at 8 MiB instead of 1: it
# starts at address 0 and grows down, so an overflow is "Out of bounds memory access" at any
# deep moment. CI's unoptimised build, whose frames are large, met it once in WebKitGTK as a
# reload started; untouched pages of the reserve cost a phone nothing. Passed to the app's own
# link only (`cargo rustc`), so no dependency is rebuilt for it.
# The shipped build's panic messages name their source files without the build machine's
# folders (`index.crates.io-.../bevy_ecs-0.19.1/src/...`, not `/root/.cargo/registry/src/...`):
# about 1,400 of them, in every download. The same flags on every machine, a fresh one too
# (no glob of folders that the build itself downloads), so a rebuild keeps its cache. Not CI's
# check build, whose cache it would rebuild.
remap=()
if [[ "$profile" == web ]]; then
    remap=("--remap-path-prefix=${CARGO_HOME:-$HOME/.cargo}/registry/src/=" "--remap-path-prefix=$PWD/=")
fi
RUSTFLAGS="${RUSTFLAGS:-} ${remap[*]}" \
    cargo rustc --profile "$profile" --target "$wasm" --bin montello -- -C link-arg=-zstack-size=8388608
# The worker is its own workspace (web/worker/Cargo.toml says why), built into the same
# target folder, twice: as every browser runs it, and with WebAssembly's 128-bit SIMD (Chrome
# 91, Firefox 89, Safari 16.4 and later), which lets LLVM pair the evaluation's 64-bit work.
# web/simd.js tells which one a browser takes. The SIMD build's flags would rebuild the scalar
# one's dependencies, so it has a folder of its own.
cargo build --manifest-path web/worker/Cargo.toml --profile web --target "$wasm" --lib \
    --target-dir "$target_dir"
RUSTFLAGS="${RUSTFLAGS:-} -C target-feature=+simd128" \
    cargo build --manifest-path web/worker/Cargo.toml --profile web --target "$wasm" --lib \
    --target-dir "$target_dir/worker-simd"
# The page's brotli unpacker (web/unbrotli; web/index.html says why), also its own workspace.
cargo build --manifest-path web/unbrotli/Cargo.toml --profile web --target "$wasm" --lib \
    --target-dir "$target_dir"

rm -rf "$out"
mkdir -p "$out"
# MONTELLO_WEB_KEEP_NAMES=1 keeps the functions' names, for a profile of the page
# (web/test/profile.mjs); a shipped build leaves them out (11 MB of the app module unpacked).
bindgen=(wasm-bindgen --target web --no-typescript --remove-producers-section)
[[ "${MONTELLO_WEB_KEEP_NAMES:-}" == 1 ]] || bindgen+=(--remove-name-section)
"${bindgen[@]}" --out-dir "$out" --out-name montello "$target_dir/$wasm/$profile/montello.wasm"
"${bindgen[@]}" --out-dir "$out" --out-name montello_worker "$target_dir/$wasm/web/montello_worker.wasm"
# The two worker builds share one JavaScript glue (the same exports and imports): their glue
# files must be the same, byte for byte, so that either module loads through montello_worker.js.
simd_glue=$(mktemp -d)
"${bindgen[@]}" --out-dir "$simd_glue" --out-name montello_worker "$target_dir/worker-simd/$wasm/web/montello_worker.wasm"
if ! cmp -s "$simd_glue/montello_worker.js" "$out/montello_worker.js"; then
    echo "web/build.sh: the SIMD worker's glue differs from the scalar one's" >&2
    diff "$simd_glue/montello_worker.js" "$out/montello_worker.js" >&2
    exit 1
fi
mv "$simd_glue/montello_worker_bg.wasm" "$out/montello_worker_simd_bg.wasm"
rm -rf "$simd_glue"
# wasm-opt shrinks both modules, but binaryen releases before 120 (Debian 12 has 108) break the
# table of JavaScript references that Rust's wasm32 code uses by default: the page then fails
# at load with "WebAssembly.Table.set(): Argument 1 is invalid". Only a recent one is used.
opt_version=""
if command -v wasm-opt >/dev/null; then
    opt_version=$(wasm-opt --version | awk '{ print $3 }')
fi
if [[ "$opt_version" =~ ^[0-9]+$ ]] && ((opt_version >= 120)); then
    features=(--enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext
              --enable-mutable-globals --enable-reference-types --enable-multivalue)
    wasm-opt -Oz "${features[@]}" -o "$out/montello_bg.wasm" "$out/montello_bg.wasm"
    wasm-opt -O3 "${features[@]}" -o "$out/montello_worker_bg.wasm" "$out/montello_worker_bg.wasm"
    wasm-opt -O3 "${features[@]}" --enable-simd -o "$out/montello_worker_simd_bg.wasm" \
        "$out/montello_worker_simd_bg.wasm"
else
    echo "wasm-opt ${opt_version:-not found}: older than 120, the .wasm files are not optimised further"
fi
cp web/index.html web/worker.js web/simd.js web/sw.js web/manifest.webmanifest "$out/"
cp "$target_dir/$wasm/web/montello_unbrotli.wasm" "$out/unbrotli.wasm"
cp -r web/icons "$out/icons"
# The page's progress bar counts the app module's bytes as they arrive, decompressed: its size.
sed -i "s/__MONTELLO_WASM_BYTES__/$(wc -c <"$out/montello_bg.wasm")/" "$out/index.html"
# Every module and script the page loads is named by its content (montello_bg.1a2b….wasm), so
# that a page can never load one build's glue with another's module, not even while a host is
# half-way through a deploy, and a host may keep them for ever (web/serve.py says so). Leaves
# first: a file's new name goes into the files that load it before those are named in turn.
# index.html and sw.js, the two entry points, keep their names; sw.js precaches this list.
by_content() { # FILE, then the files that load it
    local file=$1 hash name
    shift
    hash=$(sha256sum "$out/$file" | cut -c1-16)
    name="${file%.*}.$hash.${file##*.}"
    mv "$out/$file" "$out/$name"
    for loader in "$@"; do
        # The name as a whole: after a quote or ./, before a quote or a query (worker.js is
        # also the end of montello_worker.js).
        sed -i -E "s#(['\"]|\./)${file//./\\.}(['\"?])#\1$name\2#g" "$out/$loader"
        grep -qF "$name" "$out/$loader" || {
            echo "web/build.sh: $loader does not load $file by that name" >&2
            exit 1
        }
    done
}
by_content montello_bg.wasm montello.js index.html sw.js
# The app's module is downloaded as its brotli file, which the page unpacks itself
# (web/index.html): compressed here, before the page is named, so that the page can count its
# bytes. MONTELLO_BROTLI_QUALITY (default 11, the smallest; CI's check build takes 5, which
# compresses many times faster) sets brotli's quality, here and below.
quality=${MONTELLO_BROTLI_QUALITY:-11}
app_module=$(cd "$out" && ls montello_bg.*.wasm)
# Its window at 4 MiB (-w 22), which the unpacker holds while the app starts
# (tools/web-size.py checks it; the command line would write 16 MiB).
brotli -f -q "$quality" -w 22 -o "$out/$app_module.br" "$out/$app_module"
sed -i "s/__MONTELLO_WASM_BR_BYTES__/$(wc -c <"$out/$app_module.br")/" "$out/index.html"
by_content unbrotli.wasm index.html sw.js
by_content montello_worker_bg.wasm montello_worker.js simd.js
by_content montello_worker_simd_bg.wasm simd.js
by_content montello.js index.html sw.js
by_content montello_worker.js worker.js index.html sw.js
by_content simd.js worker.js index.html sw.js
by_content worker.js index.html sw.js
# The service worker's cache is named after the build: a hash of every file it keeps.
build=$(cd "$out" && find . -type f ! -name sw.js -print0 | sort -z | xargs -0 sha256sum | sha256sum | cut -c1-16)
sed -i "s/__MONTELLO_BUILD__/$build/" "$out/sw.js" "$out/index.html"

# Precompressed copies beside every file that is not already compressed, for web/serve.py and
# any host that serves them (docs/web.md has the recipes): brotli for the browsers that accept
# it (all current ones, over HTTPS), gzip for the rest (the app's module has its .br already).
for f in "$out"/*.wasm "$out"/*.js "$out"/*.html "$out"/*.webmanifest; do
    [[ "$f" == "$out/$app_module" ]] || brotli -f -q "$quality" -o "$f.br" "$f"
    gzip -9 -k -f -n "$f"
done
# The weight: every file with its compressed size; the app's module must carry no copy of the
# engine's weights (tools/web-size.py says why).
# Every build holds the engine worker's module (built as shipped in every profile) to
# 1,000,000 bytes with brotli; the shipped build (its profile, brotli at quality 11) is held
# to the download budget too: the app's and the worker's modules at most 5,000,000 bytes
# together with brotli, and 6,500,000 with gzip (a host without brotli: GitHub Pages; the page
# downloads the app's module as its brotli file on every host, web/index.html), as the
# publishing workflow holds it (.github/workflows/pages.yml; docs/web.md).
budget=(--worker-budget 1000000)
[[ "$profile" == web && "$quality" == 11 ]] && budget+=(--budget 5000000 --gzip-budget 6500000)
python3 tools/web-size.py "$out" "${budget[@]}"
echo "build $build"
echo "the app built with the $profile profile"
echo "web build in $out: serve it with web/serve.sh"
