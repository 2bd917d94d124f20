#!/usr/bin/env bash
# Makes the screenshots in this folder: every theme, portrait and landscape, at phone and
# tablet sizes, from the desktop build under Xvfb with Mesa's software Vulkan (see
# ../../.ci/smoke.sh for the packages). Each theme shot is an AI-vs-AI game (level 2) after 12
# moves; then a few screens (menu in Japanese, how to play, about the AI, a notched phone).
# The picture is what the player sees.
#
#   docs/screenshots/make.sh            (needs a built `montello` binary: cargo build, or the
#                                        one `cargo test --workspace --no-run` builds)
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
        echo "$file"
    done
done

# Two players who gave their names (a tap on a card edits it; src/ui/screens/names.rs).
named=$(mktemp -d)
printf '(version: 2, prefs: (table_mode: true, names: ("Ann", "Bo")))\n' >"$named/settings.ron"

# The adaptive opponent (#71): on, after four games against Casual (3 won, 1 lost), the last
# of them the finished game below, counted.
adaptive=$(mktemp -d)
printf '(version: 2, prefs: (adaptive: true))\n' >"$adaptive/settings.ron"
printf '(version: 1, levels: {"ai:3": (games: 4, wins: 3, losses: 1, draws: 0, best_margin: 42)}, last_game: "%s")\n' \
    f5f6f7g5e6d7h4d6e7d3c3b3d2f8d8c8e3g6h6h5g4h3h2e1c7f4f3g3a3e8d1c1e2f2f1b4b1b6c2g7c5b5h8g2h7g1h1a5c6b2a2a1g8a4c4PAa7b7b8 \
    >"$adaptive/stats.ron"
adaptive_new=$(mktemp -d)
cp "$adaptive"/*.ron "$adaptive_new"/

# The daily puzzle (#71): the puzzles of the two days before 2026-11-29 solved, so solving
# that day's makes a streak of three.
puzzled=$(mktemp -d)
printf '(version: 1, puzzles: (solved: [20784, 20785]))\n' >"$puzzled/stats.ron"

# Screens and languages: name, window, flags.
shots=(
    "adaptive-new-game|390x844|--data-dir $adaptive_new --safe-area 0,47,0,34 --open new"
    "adaptive-result|390x844|--data-dir $adaptive --safe-area 0,47,0,34 --position f5f6f7g5e6d7h4d6e7d3c3b3d2f8d8c8e3g6h6h5g4h3h2e1c7f4f3g3a3e8d1c1e2f2f1b4b1b6c2g7c5b5h8g2h7g1h1a5c6b2a2a1g8a4c4a7b7b8 --open result"
    "ja-menu|540x960|--autoplay 2 --after-moves 12 --lang ja --open menu"
    "help|540x960|--autoplay 2 --after-moves 12 --open help"
    "about|960x540|--autoplay 3 --after-moves 12 --open about"
    # The AI statistics line (menu: AI stats) under the win bar, and beside each AI move.
    "ai-stats|540x960|--autoplay 4 --after-moves 12 --show-ai-stats"
    "ai-stats-moves|540x960|--autoplay 4 --after-moves 12 --show-ai-stats --open moves"
    # A hint: the best move's ring and number stand out from the next two.
    "hint|540x960|--position f5d6c3d3c4f4f6f3e6e7 --hint"
    # Table mode: two players face to face, the far one's HUD and coordinates turned to them.
    "table-portrait|540x960|--face-to-face --position f5d6c3d3c4f4f6f3e6e7"
    "table-landscape|960x540|--face-to-face --position f5d6c3d3c4f4f6f3e6e7"
    "table-names|390x844|--face-to-face --data-dir $named --position f5d6c3d3c4f4f6f3e6e7"
    "notch-portrait|390x844|--autoplay 2 --after-moves 12 --safe-area 0,47,0,34"
    "notch-landscape|844x390|--autoplay 2 --after-moves 12 --safe-area 47,0,47,21"
    # The layout pass (issue #17): new game, the move list's sheet both ways, and the "after"
    # of the before/after pair (the "before" pictures are kept as they were taken).
    "new-game|390x844|--position f5d6c3d3c4f4f6f3e6e7 --open new"
    "moves-sheet|390x844|--position f5d6c7f6c5b6c4e7d7f4g5b4f3g4e3e2f2g6h4d2c3g3c6d3f8e6b5e8b3g8a6b8d1f1f7b7d8c8h3c1e1a3a8g7a4 --safe-area 0,47,0,34 --open moves"
    "moves-landscape|844x390|--position f5d6c7f6c5b6c4e7d7f4g5b4f3g4e3e2f2g6h4d2c3g3c6d3f8e6b5e8b3g8a6b8d1f1f7b7d8c8h3c1e1a3a8g7a4 --safe-area 47,0,47,21 --open moves"
    "layout-phone|390x844|--position f5d6c3d3c4f4f6f3e6e7"
    "layout-menu|390x844|--position f5d6c3d3c4f4f6f3e6e7 --open menu"
    "layout-landscape|844x390|--position f5d6c3d3c4f4f6f3e6e7"
    # The end of a game (issues #54, #67): a summary under the final board: the result, each
    # player's accuracy from the review, the costliest move, Review, Rematch, the next level
    # after a win; at the issue's two phone sizes.
    "result-phone|390x844|--position f5f6f7g5e6d7h4d6e7d3c3b3d2f8d8c8e3g6h6h5g4h3h2e1c7f4f3g3a3e8d1c1e2f2f1b4b1b6c2g7c5b5h8g2h7g1h1a5c6b2a2a1g8a4c4a7b7b8 --safe-area 0,47,0,34 --open result --review"
    "result-phone-430|430x932|--position f5f6f7g5e6d7h4d6e7d3c3b3d2f8d8c8e3g6h6h5g4h3h2e1c7f4f3g3a3e8d1c1e2f2f1b4b1b6c2g7c5b5h8g2h7g1h1a5c6b2a2a1g8a4c4a7b7b8 --safe-area 0,47,0,34 --open result --review"
    # The review stepped to move 44 on the larger phone: the verdict between the previous and
    # next mistake buttons, the move's value on its disc and the better one's ringed.
    "review-step-430|430x932|--position f5f6f7g5e6d7h4d6e7d3c3b3d2f8d8c8e3g6h6h5g4h3h2e1c7f4f3g3a3e8d1c1e2f2f1b4b1b6c2g7c5b5h8g2h7g1h1a5c6b2a2a1g8a4c4a7b7b8 --safe-area 0,47,0,34 --open moves --review --show-move 44"
    # Try again at the player's first mistake (2. f7, best e6): set up, a wrong try (f7
    # again), the better move found (the values on every square).
    "practice-ask|390x844|--position f5f6f7g5e6d7h4d6e7d3c3b3d2f8d8c8e3g6h6h5g4h3h2e1c7f4f3g3a3e8d1c1e2f2f1b4b1b6c2g7c5b5h8g2h7g1h1a5c6b2a2a1g8a4c4a7b7b8 --safe-area 0,47,0,34 --review --try-again"
    "practice-wrong|390x844|--position f5f6f7g5e6d7h4d6e7d3c3b3d2f8d8c8e3g6h6h5g4h3h2e1c7f4f3g3a3e8d1c1e2f2f1b4b1b6c2g7c5b5h8g2h7g1h1a5c6b2a2a1g8a4c4a7b7b8 --safe-area 0,47,0,34 --review --try-again --try-move f7"
    "practice-found|390x844|--position f5f6f7g5e6d7h4d6e7d3c3b3d2f8d8c8e3g6h6h5g4h3h2e1c7f4f3g3a3e8d1c1e2f2f1b4b1b6c2g7c5b5h8g2h7g1h1a5c6b2a2a1g8a4c4a7b7b8 --safe-area 0,47,0,34 --review --try-again --try-move e6"
    "practice-ask-430|430x932|--position f5f6f7g5e6d7h4d6e7d3c3b3d2f8d8c8e3g6h6h5g4h3h2e1c7f4f3g3a3e8d1c1e2f2f1b4b1b6c2g7c5b5h8g2h7g1h1a5c6b2a2a1g8a4c4a7b7b8 --safe-area 0,47,0,34 --review --try-again"
    "practice-wrong-430|430x932|--position f5f6f7g5e6d7h4d6e7d3c3b3d2f8d8c8e3g6h6h5g4h3h2e1c7f4f3g3a3e8d1c1e2f2f1b4b1b6c2g7c5b5h8g2h7g1h1a5c6b2a2a1g8a4c4a7b7b8 --safe-area 0,47,0,34 --review --try-again --try-move f7"
    "practice-found-430|430x932|--position f5f6f7g5e6d7h4d6e7d3c3b3d2f8d8c8e3g6h6h5g4h3h2e1c7f4f3g3a3e8d1c1e2f2f1b4b1b6c2g7c5b5h8g2h7g1h1a5c6b2a2a1g8a4c4a7b7b8 --safe-area 0,47,0,34 --review --try-again --try-move e6"
    # The reviewed game on the move list and a step back to move 44, the review's values on
    # the squares.
    "review-phone|390x844|--position f5f6f7g5e6d7h4d6e7d3c3b3d2f8d8c8e3g6h6h5g4h3h2e1c7f4f3g3a3e8d1c1e2f2f1b4b1b6c2g7c5b5h8g2h7g1h1a5c6b2a2a1g8a4c4a7b7b8 --safe-area 0,47,0,34 --open moves --review"
    "review-step|390x844|--position f5f6f7g5e6d7h4d6e7d3c3b3d2f8d8c8e3g6h6h5g4h3h2e1c7f4f3g3a3e8d1c1e2f2f1b4b1b6c2g7c5b5h8g2h7g1h1a5c6b2a2a1g8a4c4a7b7b8 --safe-area 0,47,0,34 --open moves --review --show-move 44"
    # The best line at move 44 (#67): two moves into it (White's h7, then Black's best reply),
    # its second move highlighted in the row under the review's line; lying down too.
    "review-line|390x844|--position f5f6f7g5e6d7h4d6e7d3c3b3d2f8d8c8e3g6h6h5g4h3h2e1c7f4f3g3a3e8d1c1e2f2f1b4b1b6c2g7c5b5h8g2h7g1h1a5c6b2a2a1g8a4c4a7b7b8 --safe-area 0,47,0,34 --open moves --review --show-move 44 --line-step 2"
    "review-line-landscape|844x390|--position f5f6f7g5e6d7h4d6e7d3c3b3d2f8d8c8e3g6h6h5g4h3h2e1c7f4f3g3a3e8d1c1e2f2f1b4b1b6c2g7c5b5h8g2h7g1h1a5c6b2a2a1g8a4c4a7b7b8 --safe-area 47,0,47,21 --open moves --review --show-move 44 --line-step 2"
    # The daily puzzle of 2026-11-29 (#71): at its start; after the first look's move b1 (a
    # draw: refused, its value on its square, the hint); solved after that miss (Master
    # answering each move, the streak); the miss in Japanese.
    "puzzle-start|390x844|--safe-area 0,47,0,34 --puzzle 2026-11-29"
    "puzzle-wrong|390x844|--safe-area 0,47,0,34 --puzzle 2026-11-29 --puzzle-moves b1"
    "puzzle-solved|390x844|--data-dir $puzzled --safe-area 0,47,0,34 --puzzle 2026-11-29 --puzzle-moves b1 --puzzle-solve"
    "puzzle-wrong-ja|390x844|--safe-area 0,47,0,34 --lang ja --puzzle 2026-11-29 --puzzle-moves b1"
    # The opening's name (#71): the Rose-Bill named in the strip while the game follows it,
    # and in the move list (in Japanese) once the game has left it at move 10.
    "opening-strip|390x844|--position f5d6c3d3c4f4c5b3c2 --safe-area 0,47,0,34"
    "opening-moves-ja|390x844|--position f5d6c3d3c4f4c5b3c2e3 --safe-area 0,47,0,34 --lang ja --open moves"
    # Tall phones (issue #54): the cards around a low board, the move strip; the first launch
    # (no game yet: ready to play as Black, "Tap a dot to play").
    "tall-phone|540x1170|--position f5d6c3d3c4f4f6f3e6e7"
    "tall-notch|390x844|--position f5d6c3d3c4f4f6f3e6e7 --safe-area 0,47,0,34"
    "first-launch|390x844|--safe-area 0,47,0,34"
    # The win bar in discs (issue #54): White ahead by about 11 after 16 moves, the label in
    # White's end of the bar.
    "win-bar|390x844|--position f5f6f7g5e6d7h4d6e7d3c3b3d2f8d8c8 --safe-area 0,47,0,34"
    "result-tablet|1194x834|--position f5f6f7g5e6d7h4d6e7d3c3b3d2f8d8c8e3g6h6h5g4h3h2e1c7f4f3g3a3e8d1c1e2f2f1b4b1b6c2g7c5b5h8g2h7g1h1a5c6b2a2a1g8a4c4a7b7b8 --open result --review"
)
for shot in "${shots[@]}"; do
    IFS='|' read -r name size flags <<<"$shot"
    file="$out/$name.png"
    # shellcheck disable=SC2086
    timeout 300 "$bin" --window "$size" $flags --screenshot "$file" >/dev/null 2>&1
    echo "$file"
done

# The README's overview: the four themes side by side on a phone, half size.
python3 - <<'PY'
from PIL import Image
themes = ["classic", "wood", "dark", "contrast"]
shots = [Image.open(f"docs/screenshots/{t}-phone-portrait.png").convert("RGB") for t in themes]
shots = [s.resize((s.width // 2, s.height // 2), Image.Resampling.LANCZOS) for s in shots]
gap = 8
out = Image.new("RGB", (sum(s.width for s in shots) + gap * 3, shots[0].height), (255, 255, 255))
x = 0
for s in shots:
    out.paste(s, (x, 0))
    x += s.width + gap
out.save("docs/screenshots/themes-phone.png", optimize=True)
PY
echo docs/screenshots/themes-phone.png
