#!/usr/bin/env bash
# Serves the browser build (web/build.sh) on this machine only: http://127.0.0.1:8080
# (another port: web/serve.sh 9000). Any static file server works the same way.
set -euo pipefail
cd "$(dirname "$0")/.."
port=${1:-8080}
dir=${MONTELLO_WEB_DIR:-web/dist}
if [[ ! -f "$dir/index.html" ]]; then
    echo "no build in $dir: run web/build.sh first" >&2
    exit 1
fi
echo "Montello: http://127.0.0.1:$port (Ctrl-C to stop)"
exec python3 -m http.server "$port" --bind 127.0.0.1 --directory "$dir"
