#!/usr/bin/env bash
# The README's two commands share one build: `cargo run` (a plain `cargo build` of the app)
# and `cargo test --workspace` must resolve every dependency with the same features, or the
# second recompiles part of Bevy (45 crates from getrandom and rand up, measured on a fresh
# clone before Cargo.toml pinned them). Compares the two unit graphs Cargo plans (no
# compiling; `--unit-graph` is unstable, hence RUSTC_BOOTSTRAP) and fails on any dependency
# built differently, naming it.
set -euo pipefail
cd "$(dirname "$0")/.."
plan() { RUSTC_BOOTSTRAP=1 cargo "$@" --unit-graph -Z unstable-options 2>/dev/null; }
plan build >"${TMPDIR:-/tmp}/montello-build.units"
plan test --workspace --no-run >"${TMPDIR:-/tmp}/montello-test.units"
python3 - "${TMPDIR:-/tmp}/montello-build.units" "${TMPDIR:-/tmp}/montello-test.units" <<'PY'
import json
import sys


def units(path):
    out = {}
    for u in json.load(open(path))["units"]:
        if u["mode"] not in ("build", "run-custom-build"):
            continue
        key = (u["pkg_id"], u["target"]["name"], u["mode"], tuple(u["target"]["kind"]))
        # Cargo reuses a build across profiles of the same settings (its hash leaves out
        # the profile's name: `cargo test` builds dependencies under "test" = dev).
        profile = {k: v for k, v in u["profile"].items() if k != "name"}
        out[key] = (sorted(u["features"]), profile)
    return out


build, test = units(sys.argv[1]), units(sys.argv[2])
differ = [k for k in build if k in test and build[k] != test[k]]
missing = [k for k in build if k not in test]
for k in differ:
    print(f"built differently: {k[0]} ({k[1]}): {build[k][0]} vs {test[k][0]}", file=sys.stderr)
for k in missing:
    print(f"not in the test build: {k[0]} ({k[1]})", file=sys.stderr)
print(f"one-build: `cargo build` plans {len(build)} units; `cargo test --workspace` reuses "
      f"{len(build) - len(differ) - len(missing)} of them and adds {len(test) - len(build)}")
sys.exit(1 if differ or missing else 0)
PY
