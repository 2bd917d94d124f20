#!/usr/bin/env bash
# The battery figure of docs/ai.md: Master plays Master for one whole game in the desktop app
# under Xvfb, once per binary and round; prints the wall time, the CPU seconds of the async
# compute threads (where the AI searches) and of the whole process (under Xvfb that includes
# Mesa's software renderer, which a phone's GPU does not spend on its CPU), sampled from
# /proc every second until the app exits at the game's end.
#
#   tools/battery.sh ROUNDS BINARY [BINARY...]
#
# To compare with an older revision: `git worktree add /tmp/old REV`, build it there with
# the same CARGO_TARGET_DIR, copy its binary aside, and pass both. Each binary runs in the
# directory this script is called from (its assets). The apps run at nice -10 (as root) so
# that other work on the machine takes less from them.
set -u
rounds="$1"; shift
. "$(dirname "$0")/../.ci/xvfb.sh"
start_xvfb 1280x1400x24
trap 'kill "$XVFB_PID" 2>/dev/null || true' EXIT
for round in $(seq 1 "$rounds"); do
    for bin in "$@"; do
        data=$(mktemp -d)
        start=$(date +%s.%N)
        nice -n -10 "$bin" --autoplay master --screenshot "$data/end.png" --after-moves 99 \
            --window 540x960 --data-dir "$data" >/dev/null 2>&1 &
        pid=$!
        last=""
        while kill -0 "$pid" 2>/dev/null; do
            s=$(python3 - "$pid" 2>/dev/null <<'PY'
import os, sys
pid = sys.argv[1]
ai = total = 0
for t in os.listdir(f"/proc/{pid}/task"):
    try:
        name = open(f"/proc/{pid}/task/{t}/comm").read().strip()
        f = open(f"/proc/{pid}/task/{t}/stat").read().rsplit(")", 1)[1].split()
    except OSError:
        continue
    ticks = int(f[11]) + int(f[12])
    total += ticks
    if name.startswith("Async Compute"):
        ai += ticks
print(f"{ai/100:.2f} s AI threads, {total/100:.2f} s process")
PY
)
            [ -n "$s" ] && last="$s"
            sleep 1
        done
        end=$(date +%s.%N)
        echo "$bin round $round: $(python3 -c "print(f'{$end - $start:.1f}')") s wall; CPU: $last"
        rm -rf "$data"
    done
done
