#!/usr/bin/env bash
# Serves the browser build (web/build.sh) on this machine only: http://127.0.0.1:8080
# (another port: web/serve.sh 9000), with its precompressed files and the right types
# (web/serve.py). Any static host that does the same works (docs/web.md has recipes).
set -euo pipefail
cd "$(dirname "$0")/.."
exec python3 web/serve.py "${MONTELLO_WEB_DIR:-web/dist}" "${1:-8080}"
