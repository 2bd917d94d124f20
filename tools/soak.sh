#!/usr/bin/env bash
# The AI soak of docs/ai.md: the desktop app plays Master against Master under Xvfb, game after
# game, for MINUTES minutes, while this script samples the process's resident memory every
# 10 s. Prints the app's per-game lines (moves, seconds, CPU seconds, resident MiB) and the
# memory samples, then a summary: resident memory after the first game, its minimum and
# maximum, and the CPU seconds per game.
#
#   tools/soak.sh [MINUTES] [LEVEL]      (defaults: 30, 6 = Master)
#
# Needs the app built (cargo build) and Xvfb with Mesa's software Vulkan (.ci/smoke.sh
# installs them). CARGO_TARGET_DIR as for cargo (default: target).
set -euo pipefail
cd "$(dirname "$0")/.."
minutes="${1:-30}"
level="${2:-6}"
bin="${CARGO_TARGET_DIR:-target}/debug/montello"
[ -x "$bin" ] || { echo "soak: no $bin (cargo build first)" >&2; exit 1; }
out="${SOAK_LOG:-/tmp/montello-soak}"
mkdir -p "$out"
. .ci/xvfb.sh
start_xvfb 1280x1400x24
trap 'kill "$XVFB_PID" 2>/dev/null || true' EXIT

"$bin" --autoplay "$level" --games 1000 --window 540x960 >"$out/games.log" 2>"$out/app.log" &
pid=$!
: >"$out/rss.log"
started=$(date +%s)
while kill -0 "$pid" 2>/dev/null && [ $(( $(date +%s) - started )) -lt $(( minutes * 60 )) ]; do
    rss=$(awk '/^VmRSS:/ {print $2}' "/proc/$pid/status" 2>/dev/null || echo 0)
    games=$(grep -c '^game ' "$out/games.log" || true)
    echo "$(( $(date +%s) - started )) s: ${rss} KiB resident, $games games" >>"$out/rss.log"
    sleep 10
done
kill "$pid" 2>/dev/null || true
wait "$pid" 2>/dev/null || true
cat "$out/games.log"
python3 - "$out/rss.log" "$out/games.log" <<'PY'
import re, sys
samples = [(int(t), int(k), int(g)) for t, k, g in
           re.findall(r"(\d+) s: (\d+) KiB resident, (\d+) games", open(sys.argv[1]).read())]
games = re.findall(r"game \d+: (\d+) moves, ([\d.]+) s, ([\d.]+) s CPU", open(sys.argv[2]).read())
after_first = [k / 1024 for t, k, g in samples if g >= 1]
print(f"soak: {samples[-1][0] if samples else 0} s, {len(games)} games finished, "
      f"{len(samples)} samples")
if after_first:
    print(f"soak: resident after the first game: first {after_first[0]:.0f} MiB, "
          f"min {min(after_first):.0f}, max {max(after_first):.0f}, last {after_first[-1]:.0f} MiB")
if games:
    cpu = [float(c) for _, _, c in games]
    wall = [float(w) for _, w, _ in games]
    moves = [int(m) for m, _, _ in games]
    print(f"soak: per game: {sum(cpu)/len(cpu):.1f} s CPU, {sum(wall)/len(wall):.1f} s, "
          f"{sum(moves)/len(moves):.1f} moves")
PY
