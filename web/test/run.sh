#!/usr/bin/env bash
# The browser build's real-browser tests (CI runs them): builds the site (web/build.sh), serves
# it on loopback, drives Debian's Chromium as a 390x844 touch phone (web/test/phone.mjs) and
# checks its screenshots with the desktop's tools, then plays it in WebKitGTK under Xvfb
# (web/test/webkit.py: WebKit is the engine of every iPhone browser). Installs chromium,
# webkit2gtk-driver and Xvfb (apt) and playwright-core (npm, web/test/package-lock.json) when
# missing; never downloads a browser of its own.
#
#     web/test/run.sh [OUT_DIR]        (default web/test/out; MONTELLO_WEB_BUILT=1 skips the build)
set -euo pipefail
cd "$(dirname "$0")/../.."
out=${1:-web/test/out}
site=web/dist

if [[ "${MONTELLO_WEB_BUILT:-0}" != 1 ]]; then
    web/build.sh "$site"
fi
.ci/packages.sh web
if [[ ! -d web/test/node_modules/playwright-core ]]; then
    (cd web/test && npm ci --no-audit --no-fund)
fi

# Served as a host should (web/serve.py: the precompressed files, application/wasm), on a
# free port of the loopback.
log=$(mktemp)
python3 web/serve.py "$site" 0 >"$log" 2>&1 &
server=$!
trap 'kill "$server" 2>/dev/null' EXIT
address=""
for _ in $(seq 50); do
    address=$(sed -n 's|^Montello: \(http://[^ ]*\)/ .*|\1|p' "$log")
    [[ -n "$address" ]] && curl -sf "$address/index.html" >/dev/null && break
    sleep 0.1
done
[[ -n "$address" ]] || { echo "web/serve.py did not start: $(cat "$log")" >&2; exit 1; }

rm -rf "$out"
mkdir -p "$out"
started=$SECONDS
MONTELLO_SITE="$site" node web/test/phone.mjs "$address" "$out"
echo "web test: Chromium took $((SECONDS - started)) s"

# The same checks as the desktop's screenshots.
mapfile -t layouts < <(ls "$out"/web-layout-*.png)
python3 tools/layout-check.py "${layouts[@]}"
shots=()
for theme in classic wood dark contrast; do
    shots+=("$theme=$out/web-contrast-$theme.png")
done
python3 tools/contrast-check.py "${shots[@]}"

# WebKit: load, the board, a tapped move, the AI's reply from its worker, a reload that resumes.
. .ci/xvfb.sh
start_xvfb 1280x1400x24
trap 'kill "$server" "$XVFB_PID" 2>/dev/null' EXIT
started=$SECONDS
python3 web/test/webkit.py "$address" "$out"
echo "web test: WebKit took $((SECONDS - started)) s"
echo "web test: OK ($out)"
