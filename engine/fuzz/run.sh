#!/usr/bin/env bash
# Fuzz the engine's parsers with cargo-fuzz (libFuzzer + AddressSanitizer).
#
#   engine/fuzz/run.sh build                 build every target (what CI runs)
#   engine/fuzz/run.sh list                  the targets
#   engine/fuzz/run.sh <target> <seconds> [libFuzzer flags...]
#                                            fuzz one target, then print its figures
#
# The toolchain here is stable only; cargo-fuzz needs nightly `-Z` flags, which stable rustc
# accepts with RUSTC_BOOTSTRAP=1. Set FUZZ_SANITIZER=none if AddressSanitizer is not available
# (the targets still find panics, just not memory errors).
# A run's corpus grows in corpus/<target> (seeded from seeds/<target>), crashes land in
# artifacts/<target>, and its output is kept in logs/<target>.log.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
cd "$here"

export RUSTC_BOOTSTRAP=1
sanitizer="${FUZZ_SANITIZER:-address}"
# Release code with debug assertions (overflow checks included), as the fuzzed code runs.
flags=(-O --debug-assertions --sanitizer "$sanitizer")

if ! cargo fuzz --version >/dev/null 2>&1; then
    echo "installing cargo-fuzz" >&2
    # Optimisation level 1: a tool that only drives cargo; it compiles in less time.
    CARGO_PROFILE_RELEASE_OPT_LEVEL=1 cargo install cargo-fuzz --locked
fi

usage() {
    sed -n '4,7p' "$here/run.sh" | sed 's/^# \{0,1\}//' >&2
    exit 2
}

case "${1:-}" in
"" | -h | --help) usage ;;
build)
    cargo fuzz build "${flags[@]}"
    exit 0
    ;;
list)
    cargo fuzz list
    exit 0
    ;;
esac

target="$1"
seconds="${2:-}"
[[ "$seconds" =~ ^[0-9]+$ ]] || usage
shift 2
if ! cargo fuzz list | grep -x "$target" >/dev/null; then
    echo "no fuzz target named $target; the targets are:" >&2
    cargo fuzz list >&2
    exit 2
fi

mkdir -p "corpus/$target" "artifacts/$target" logs
dict=()
[ -f "dicts/$target.dict" ] && dict=("-dict=dicts/$target.dict")
log="logs/$target.log"
status=0
# New inputs go to the first corpus folder; the seeds are only read.
cargo fuzz run "${flags[@]}" "$target" "corpus/$target" "seeds/$target" -- \
    -max_total_time="$seconds" -print_final_stats=1 "${dict[@]}" "$@" 2>&1 | tee "$log" ||
    status=$?

execs=$(grep -oP 'stat::number_of_executed_units:\s*\K[0-9]+' "$log" | tail -1 || true)
rate=$(grep -oP 'stat::average_exec_per_sec:\s*\K[0-9]+' "$log" | tail -1 || true)
# libFuzzer's own corpus and coverage at the end; the folder also keeps inputs it later reduced.
done_line=$(grep -E '^#[0-9]+[[:space:]]+DONE' "$log" | tail -1 || true)
kept=$(grep -oP 'corp: \K[0-9]+/[0-9]+[kKMb]*' <<<"$done_line" || true)
cov=$(grep -oP 'cov: \K[0-9]+' <<<"$done_line" || true)
files=$(find "corpus/$target" -type f | wc -l)
crashes=$(find "artifacts/$target" -type f | wc -l)
echo
echo "summary: target=$target seconds=$seconds executions=${execs:-?} exec/s=${rate:-?}" \
    "corpus=${kept:-?} (files in corpus/$target: $files) cov=${cov:-?} artifacts=$crashes exit=$status"
exit "$status"
