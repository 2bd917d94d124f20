#!/usr/bin/env bash
# End-to-end "never lose a game" check: runs the desktop app (AI against AI, saving after every
# move) under Xvfb, kills it with SIGKILL at a random moment in the middle of the game, starts
# it again on the same data directory and checks that it restored exactly the game on disk
# (the same number of moves, no bad-file notice). Three rounds, at different points of the game.
#
#   .ci/kill-check.sh            (after a build: uses $CARGO_TARGET_DIR/debug/montello)
#
# Needs Xvfb and Mesa (.ci/smoke.sh installs them).
set -euo pipefail
cd "$(dirname "$0")/.."

bin="${CARGO_TARGET_DIR:-target}/debug/montello"
[ -x "$bin" ] || { echo "kill-check: build first (cargo test --workspace --no-run)" >&2; exit 1; }

. .ci/xvfb.sh
start_xvfb 1200x1200x24
work=$(mktemp -d)
trap 'kill "$XVFB_PID" 2>/dev/null; rm -rf "$work"' EXIT

ply_on_disk() {
    # The first ply line only; sed quits there itself (no pipe into head under pipefail).
    # Nothing until the first save is on disk. Between a save's two renames there is no
    # game.ron, only the complete game.ron.tmp, which the app's loader finishes the save with
    # (persist::storage): read that one then. While the app runs, a file can go between the
    # test and the read: that poll reads nothing and the next one tries again.
    local file="$1/game.ron"
    [[ -f "$file" ]] || file="$1/game.ron.tmp"
    [[ -f "$file" ]] || return 0
    sed -n '/^ *ply: */{s/^ *ply: *\([0-9]*\).*/\1/p;q}' "$file" 2>/dev/null || true
}

for round in 1 2 3; do
    dir="$work/data-$round"
    "$bin" --autoplay 1 --data-dir "$dir" --window 360x640 >"$work/run-$round.log" 2>&1 &
    pid=$!
    # Wait until a few moves are saved (more each round), then kill at a random instant.
    want=$((2 + 4 * round))
    for _ in $(seq 900); do
        ply=$(ply_on_disk "$dir")
        [ -n "$ply" ] && [ "$ply" -ge "$want" ] && break
        kill -0 "$pid" 2>/dev/null || { cat "$work/run-$round.log" >&2; exit 1; }
        sleep 0.2
    done
    sleep "0.$((RANDOM % 10))$((RANDOM % 10))"
    kill -9 "$pid"
    # It ends by the signal (exit status 137), which is the point.
    status=0
    wait "$pid" 2>/dev/null || status=$?
    [[ $status == 137 ]] || { echo "kill-check: round $round: the app ended before the kill ($status)" >&2; cat "$work/run-$round.log" >&2; exit 1; }
    ply=$(ply_on_disk "$dir")
    [ -n "$ply" ] || { echo "kill-check: round $round: no game saved" >&2; exit 1; }
    # Start again on the same data: it must restore those moves and say nothing is wrong.
    timeout 300 "$bin" --data-dir "$dir" --window 360x640 --screenshot "$work/after-$round.png" \
        >"$work/restart-$round.log" 2>&1 || {
        cat "$work/restart-$round.log" >&2
        exit 1
    }
    if ! grep -q "restored the game in progress ($ply moves)" "$work/restart-$round.log"; then
        echo "kill-check: round $round: killed with $ply moves on disk, restart said:" >&2
        cat "$work/restart-$round.log" >&2
        exit 1
    fi
    if ls "$dir" | grep '\.bad-' >/dev/null; then
        echo "kill-check: round $round: a save was set aside as bad: $(ls "$dir")" >&2
        exit 1
    fi
    echo "kill-check: round $round: killed at move $ply, restarted with the same $ply moves"
done
echo "kill-check: OK"
