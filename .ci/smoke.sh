#!/usr/bin/env bash
# Screenshot smoke test: runs the app (the dev-profile binary `cargo test` builds, with
# optimised dependencies) under Xvfb with Mesa's software Vulkan, lets the AI play a few moves,
# saves a screenshot, and checks that the PNG exists, is not blank and shows the board.
#
#   .ci/smoke.sh [OUT.png]        (default: target-dir/smoke/montello-smoke.png)
#
# Environment: CARGO_TARGET_DIR (default: target), SMOKE_TIMEOUT seconds (default 300),
# SMOKE_WINDOW (default 540x960), SMOKE_MOVES (default 4).
set -euo pipefail
cd "$(dirname "$0")/.."

target_dir="${CARGO_TARGET_DIR:-target}"
out="${1:-$target_dir/smoke/montello-smoke.png}"
timeout_s="${SMOKE_TIMEOUT:-300}"
window="${SMOKE_WINDOW:-540x960}"
moves="${SMOKE_MOVES:-4}"

.ci/packages.sh smoke

# The binary `cargo test --workspace` already built for the integration tests, so nothing is
# compiled again (Cargo.toml keeps the plain and the test build's features equal).
cargo test --workspace --no-run
bin="$target_dir/debug/montello"

. .ci/xvfb.sh
start_xvfb 1280x1400x24
trap 'kill "$XVFB_PID" 2>/dev/null' EXIT

mkdir -p "$(dirname "$out")"
rm -f "$out"
start=$(date +%s)
status=0
timeout "$timeout_s" "$bin" --autoplay 1 --window "$window" \
    --screenshot "$out" --after-moves "$moves" || status=$?
elapsed=$(( $(date +%s) - start ))
if [ "$status" -ne 0 ]; then
    echo "smoke: the app exited with status $status after ${elapsed}s (124: timed out)" >&2
    exit 1
fi

# Not blank and the board is there: decode the PNG with the standard library only.
python3 - "$out" <<'EOF'
import sys
sys.path.insert(0, "tools")
import png

width, height, rows = png.read(sys.argv[1])
pixels = [p for r in rows[::4] for p in r[::4]]
n = len(pixels)
mean = [sum(p[k] for p in pixels) / n for k in range(3)]
variance = sum(sum((p[k] - mean[k]) ** 2 for k in range(3)) for p in pixels) / n
green = sum(1 for r, g, b in pixels if g > r + 20 and g > b + 10) / n
dark = sum(1 for r, g, b in pixels if r + g + b < 60) / n
light = sum(1 for r, g, b in pixels if r > 200 and g > 200 and b > 190) / n
print(f"smoke: {width}x{height}, variance {variance:.0f}, felt {green:.0%}, dark {dark:.0%}, light {light:.0%}")
assert variance > 200, "the screenshot is (nearly) blank"
assert green > 0.15, "no green felt: the board was not drawn"
assert light > 0.001, "no white discs or text"
EOF

# What the player sees in every theme: discs and marks at least 3:1 against what they sit on,
# measured on the pixels (tools/contrast-check.py says where it samples).
shots=()
for theme in classic wood dark contrast; do
    shot="$(dirname "$out")/contrast-$theme.png"
    rm -f "$shot"
    timeout "$timeout_s" "$bin" --window 540x960 --theme "$theme" \
        --position f5d6c3d3c4f4f6f3e6e7 --screenshot "$shot"
    shots+=("$theme=$shot")
done
# A hint's numbers on their pills (text: 4.5:1), on the darkest and the lightest felt.
for theme in classic wood; do
    shot="$(dirname "$out")/contrast-hint-$theme.png"
    rm -f "$shot"
    timeout "$timeout_s" "$bin" --window 540x960 --theme "$theme" --hint \
        --position f5d6c3d3c4f4f6f3e6e7 --screenshot "$shot"
    shots+=("hint:$theme=$shot")
done
python3 tools/contrast-check.py "${shots[@]}"

# The layout as drawn, phones and tablets both ways, with a panel or the move list open:
# toolbar buttons equal and at least 44 pt, panels clear of the bars, 44 pt squares on a
# 390x844 phone held upright, the cards around the board and the move strip on tall phones,
# the move list docked lying down, new game without scrolling, scroll cues
# (tools/layout-check.py).
layouts=()
for entry in "390x844:board:0,47,0,34" "430x932:board:0,47,0,34" "360x640:board:0,24,0,0" \
    "390x844:menu:0,47,0,34" "390x844:new:0,47,0,34" "390x844:moves:0,47,0,34" \
    "844x390:moves:47,0,47,21" "844x390:board:47,0,47,21" "834x1194:new:0,0,0,0" \
    "1194x834:menu:0,0,0,0"; do
    IFS=: read -r size overlay safe <<<"$entry"
    shot="$(dirname "$out")/layout-$size-$overlay.png"
    rm -f "$shot"
    timeout "$timeout_s" "$bin" --window "$size" --safe-area "$safe" --open "$overlay" \
        --position f5d6c3d3c4f4f6f3e6e7 --screenshot "$shot"
    layouts+=("$shot")
done
# The game review on a phone: a finished game (58 moves and a pass), reviewed at start (the
# screenshot waits for it), its move list open with the moves that cost discs marked.
shot="$(dirname "$out")/layout-390x844-review.png"
rm -f "$shot"
timeout "$timeout_s" "$bin" --window 390x844 --safe-area 0,47,0,34 --open moves --review \
    --position f5f6f7g5e6d7h4d6e7d3c3b3d2f8d8c8e3g6h6h5g4h3h2e1c7f4f3g3a3e8d1c1e2f2f1b4b1b6c2g7c5b5h8g2h7g1h1a5c6b2a2a1g8a4c4a7b7b8 \
    --screenshot "$shot"
layouts+=("$shot")
# Stepping into the best line at move 44 on the smallest phone (#67): the line's moves under
# the review's line, each 44 pt, the list still in view.
shot="$(dirname "$out")/layout-360x640-review-line.png"
rm -f "$shot"
timeout "$timeout_s" "$bin" --window 360x640 --open moves --review --show-move 44 --line-step 2 \
    --position f5f6f7g5e6d7h4d6e7d3c3b3d2f8d8c8e3g6h6h5g4h3h2e1c7f4f3g3a3e8d1c1e2f2f1b4b1b6c2g7c5b5h8g2h7g1h1a5c6b2a2a1g8a4c4a7b7b8 \
    --screenshot "$shot"
layouts+=("$shot")
# The summary at the end of that game, reviewed, on the smallest phone and the issue's two:
# the result, the accuracy table, the costliest move, Review and Rematch
# (tools/layout-check.py: a sheet under the final board, its actions 44 pt and inside it).
for entry in "360x640:0,24,0,0" "390x844:0,47,0,34" "430x932:0,47,0,34"; do
    IFS=: read -r size safe <<<"$entry"
    shot="$(dirname "$out")/layout-$size-result.png"
    rm -f "$shot"
    timeout "$timeout_s" "$bin" --window "$size" --safe-area "$safe" --open result --review \
        --position f5f6f7g5e6d7h4d6e7d3c3b3d2f8d8c8e3g6h6h5g4h3h2e1c7f4f3g3a3e8d1c1e2f2f1b4b1b6c2g7c5b5h8g2h7g1h1a5c6b2a2a1g8a4c4a7b7b8 \
        --screenshot "$shot"
    layouts+=("$shot")
done
# The daily puzzle (#71) after a missed try, its longest text (the value and the hint), on
# the smallest phone, the issue's phone and a phone lying down: a sheet beside the board,
# its three actions inside it.
for entry in "360x640:0,24,0,0" "390x844:0,47,0,34" "844x390:47,0,47,21"; do
    IFS=: read -r size safe <<<"$entry"
    shot="$(dirname "$out")/layout-$size-puzzle.png"
    rm -f "$shot"
    timeout "$timeout_s" "$bin" --window "$size" --safe-area "$safe" --puzzle 2026-11-29 \
        --puzzle-moves b1 --screenshot "$shot"
    layouts+=("$shot")
done
python3 tools/layout-check.py "${layouts[@]}"
echo "smoke: OK in ${elapsed}s: $out"
