#!/usr/bin/env bash
# Makes the screenshots in this folder: every theme, portrait and landscape, at phone and
# tablet sizes, from the desktop build under Xvfb with Mesa's software Vulkan (see
# ../../.ci/smoke.sh for the packages). Each shot is an AI-vs-AI game after 12 moves with
# the AI's last hint-free position; the picture is what the player sees.
#
#   docs/screenshots/make.sh            (needs a built `montello` binary: cargo build)
#
# Environment: CARGO_TARGET_DIR (default: target), DISPLAY (default: starts Xvfb on :89).
set -euo pipefail
cd "$(dirname "$0")/../.."
bin="${CARGO_TARGET_DIR:-target}/debug/montello"
out=docs/screenshots
[ -x "$bin" ] || { echo "build first: cargo build" >&2; exit 1; }

if [ -z "${DISPLAY:-}" ]; then
    Xvfb :89 -screen 0 2000x2000x24 -nolisten tcp &
    xvfb=$!
    trap 'kill $xvfb' EXIT
    export DISPLAY=:89
    sleep 1
fi
export XDG_RUNTIME_DIR="${XDG_RUNTIME_DIR:-$(mktemp -d)}"

# name  logical window size
sizes="phone-portrait:540x960 phone-landscape:960x540 tablet-portrait:834x1194 tablet-landscape:1194x834"
for theme in classic wood dark contrast; do
    for entry in $sizes; do
        name="${entry%%:*}"
        size="${entry##*:}"
        file="$out/$theme-$name.png"
        timeout 300 "$bin" --autoplay 2 --after-moves 12 --theme "$theme" --window "$size" \
            --screenshot "$file" >/dev/null 2>&1
        # Fewer colours, same look: a quarter of the size in the repository.
        python3 -c "from PIL import Image; import sys; p=sys.argv[1]; \
Image.open(p).convert('RGB').quantize(colors=192, method=Image.Quantize.MEDIANCUT).save(p, optimize=True)" "$file"
        echo "$file"
    done
done
