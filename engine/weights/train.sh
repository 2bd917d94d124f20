#!/usr/bin/env bash
# Trains Montello's pattern evaluation from nothing, one generation at a time, writing
# engine/weights/genN.mwt (the engine ships the file engine/src/eval/mod.rs names). Every step is seeded and resumable: self-play writes
# chunk files atomically and skips the chunks already there, so rerunning this script after
# an interruption continues where it stopped. The data (165 MB for generation 6) stays in $DATA and
# is never committed; the weights of each generation and the logs go to engine/weights/.
#
#   engine/weights/train.sh            # all generations (about 4.6 hours on 2 cores)
#   GENERATIONS="1 2" engine/weights/train.sh
#   GENERATIONS=6 engine/weights/train.sh   # generation 6 alone (about 2 hours on 2 cores;
#                                            # it learns from its own games only)
#   GENERATIONS=7 engine/weights/train.sh   # generation 7: a richer pattern set fitted on
#                                            # generation 6's games (a minute or two once
#                                            # those are in $DATA)
#   GENERATIONS=8 engine/weights/train.sh   # generation 8: generation 7's patterns and
#                                            # games, fitted by least squares
#   GENERATIONS=9 engine/weights/train.sh   # generation 9: generation 8's tables and a
#                                            # bias per count of empty squares fitted to the
#                                            # exact values of its own games (about an hour
#                                            # on 2 cores)
#   GENERATIONS=10 engine/weights/train.sh  # the shipped generation 10: generation 9 with
#                                            # the bias fitted again at 10-23 empties to
#                                            # positions from the matches in docs/arena
#                                            # (a second from the committed sets; about 40
#                                            # minutes on 2 cores to solve them again)
#
# docs/eval.md explains each step and gives the figures of the committed run.
set -euo pipefail
cd "$(dirname "$0")/../.."
DATA=${DATA:-$HOME/.cache/montello/eval-data}
OUT=engine/weights
THREADS=${THREADS:-2}
LOGS=$OUT/logs
mkdir -p "$DATA" "$LOGS"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/montello/target}"
cargo build --release -p montello-lab
ME="$CARGO_TARGET_DIR/release/montello-engine"

# Each generation's player, its search depth and the empties it solves exactly from.
gen_player() { case $1 in 1) echo heuristic ;; *) echo "$OUT/gen$(($1 - 1)).mwt" ;; esac; }
gen_depth() { case $1 in 1) echo 2 ;; 2 | 3 | 4) echo 3 ;; *) echo 5 ;; esac; }
gen_exact() { case $1 in 1 | 2 | 3) echo 14 ;; 4) echo 16 ;; 5) echo 20 ;; *) echo 18 ;; esac; }
# From generation 5 the player prunes with Multi-ProbCut and the positions of the random
# opening, whose outcome the random moves decide, are left out.
gen_flags() { case $1 in 1 | 2 | 3 | 4) ;; *) echo "--probcut 15 --skip-opening" ;; esac; }
# Generation 5's games cost about 0.33 s of CPU each (nine-tenths of it the exact solve from 20
# empties; docs/eval.md): the 340 chunks of 100 games of the shipped run took 3.3 hours of CPU,
# about 1.7 hours on two cores. From generation 6 the solve starts at 18 empties, four times
# cheaper (0.07 s of CPU a game), and the generation plays five times as many games.
gen_chunks() { case $1 in 1 | 2 | 3 | 4) echo 300 ;; 5) echo "${GEN5_CHUNKS:-340}" ;; 9) echo "${GEN9_CHUNKS:-600}" ;; *) echo "${GEN6_CHUNKS:-1800}" ;; esac; }
# Generation 1 has only game outcomes to learn from; later ones mix in the player's search value.
gen_search_weight() { case $1 in 1) echo 0 ;; *) echo 0.8 ;; esac; }
# Generations 2-5 learn from their own games and their parent's (generation 1's outcome-only
# games from the hand-written player hurt later fits: docs/eval.md); generation 1 and, from
# generation 6, whose games are five times as many, later ones from their own alone.
learns_from_parent() { case $1 in 2 | 3 | 4 | 5) return 0 ;; *) return 1 ;; esac; }
# From generation 5 each phase also learns from the positions up to 4 empties outside its range
# (more positions per weight; docs/eval.md has the fits that chose 4).
gen_overlap() { case $1 in 1 | 2 | 3 | 4) echo 0 ;; *) echo 4 ;; esac; }

# Each generation's games come from the trainer that played them, so that they come out bit
# for bit the same: generation 1's from commit 15d70ce (its random openings draw from the
# random generator in another order than later trainers), generations 2-4's from commit
# 22082eb, the commit that shipped generation 4 (a plain negamax player without the search
# values' bookkeeping of later trainers: chunk 0 of each of generations 2, 3 and 4 has the
# sample count of the committed logs with it, and not with 49ffa57's trainer, pinned here
# before; since then the player is the alpha-beta core, whose table and final margins give
# other values), generation 5's from commit 9b8bcf5 (the first games were played by it; a
# later change to the search must not change the rest of the generation), generation 6's from
# commit 9f2d146, generation 9's from commit f262c9a (the Multi-ProbCut table it was played with
# is generation 8's; generation 9 ships its own).
# An old trainer is built once, in its own worktree and target directory.
tool_at() {
    local commit=$1
    local tree="$DATA/tool-$commit" target="$DATA/target-$commit"
    [ -d "$tree" ] || git worktree add --force --detach "$tree" "$commit" >&2
    (cd "$tree" && CARGO_TARGET_DIR="$target" cargo build --release --workspace --bin montello-engine >&2)
    echo "$target/release/montello-engine"
}
selfplay_tool() {
    case $1 in
        1) tool_at 15d70ce ;;
        2 | 3 | 4) tool_at 22082eb ;;
        5) tool_at 9b8bcf5 ;;
        6) tool_at 9f2d146 ;;
        9) tool_at f262c9a ;;
        *) echo "$ME" ;;
    esac
}
# Generations 1-6 read 11 patterns (weights files of version 1); from generation 7 the
# evaluation has a 12th, the corner triangle, so the earlier generations are fitted by the
# trainer of a91bb5a, the last with 11 patterns (the old self-play trainers above read only
# version-1 files).
fit_tool() {
    case $1 in
        1 | 2 | 3 | 4 | 5 | 6) tool_at a91bb5a ;;
        *) echo "$ME" ;;
    esac
}
# Generations 7 and 8 play no games of their own: generation 7 is a new pattern set fitted on
# generation 6's games, generation 8 the same patterns and games fitted another way.
# Generation 9 plays its own (below) but fits no tables.
own_games() { case $1 in 7 | 8) return 1 ;; *) return 0 ;; esac; }
# The generation whose games generation $1 learns from when it plays none.
games_of() { case $1 in 8) echo 6 ;; *) echo $(($1 - 1)) ;; esac; }
# Generations 1-7 are fitted by stochastic gradient descent, 8 epochs; generation 8 by the
# least-squares solution (60 conjugate-gradient iterations, ridge 3), which fits closer
# (docs/eval.md "Generation 8").
gen_fit() { case $1 in 8) echo "--cg 60:3" ;; *) echo "--epochs 8" ;; esac; }

# Plays generation $1's self-play games into $DATA/gen$1 (chunks already there are kept).
selfplay() {
    # shellcheck disable=SC2046 # gen_flags is a list of flags
    "$(selfplay_tool "$1")" train selfplay --weights "$(gen_player "$1")" --out "$DATA/gen$1" \
        --chunks "$(gen_chunks "$1")" --games 100 --seed "$1" --threads "$THREADS" \
        --depth "$(gen_depth "$1")" --exact "$(gen_exact "$1")" $(gen_flags "$1") \
        | tail -1 | tee -a "$LOGS/gen$1-selfplay.log"
}

# Generation 9 keeps generation 8's tables and adds the bias per count of empty squares that
# fits the exact values of generation 8's games (docs/eval.md "Generation 9"): 600 chunks solved
# from 18 empties as generation 6's, and 10 more solved from 22 empties for the counts 19-22.
# The trainer of f262c9a plays them, with generation 8's Multi-ProbCut table (generation 9
# ships its own).
generation_9() {
    selfplay 9
    "$(selfplay_tool 9)" train selfplay --weights "$OUT/gen8.mwt" --out "$DATA/gen9x22" --chunks 10 --games 100 \
        --seed 90 --threads "$THREADS" --depth 5 --exact 22 --probcut 15 --skip-opening \
        | tail -1 | tee -a "$LOGS/gen9-selfplay.log"
    "$ME" train bias --weights "$OUT/gen8.mwt" --data "$DATA/gen9" "$DATA/gen9x22" --exact-only \
        --search-weight 0.8 --out "$OUT/gen9.mwt" ${TEST:+--test "$TEST"} | tee "$LOGS/gen9-fit.log"
}

# Generation 10: generation 9's tables, its bias per count of empty squares fitted again at
# 10-23 empties to positions from played games (the matches in docs/arena listed in
# played/games.txt: Master, `ab` and the engine of f261f80, at 100 ms and 1 s a move), each
# solved exactly. The sets are committed (engine/weights/played/); a missing one is made again
# (the same positions with the same seed; about 40 minutes on 2 cores for all of them).
generation_10() {
    local sets=() spec e n set
    mkdir -p "$OUT/played"
    for spec in 10:1500 11:1500 12:1500 13:1500 14:1500 15:1500 16:1500 17:1500 18:1500 \
        19:1500 20:1500 21:1500 22:1000 23:800; do
        e=${spec%%:*}
        n=${spec##*:}
        set=$OUT/played/e$e.bin
        if [ ! -f "$set" ]; then
            # shellcheck disable=SC2046 # one log per line
            tools/testset-from-games.py --engine "$ME" --empties "$e" --positions "$n" \
                --seed "2026112$e" --jobs "$THREADS" --out "$set" \
                --exclude "$OUT/test20.bin" "$OUT/test20-gen4d5.bin" "$OUT/test20-gen5d5.bin" \
                "$OUT/test20-master1s.bin" -- $(cat "$OUT/played/games.txt") \
                | grep -v '^ *l[0-9]' | tee -a "$LOGS/gen10-played.log"
            rm -f "${set%.bin}.obf"
        fi
        sets+=("$set")
    done
    "$ME" train bias --weights "$OUT/gen9.mwt" --sets "${sets[@]}" --out "$OUT/gen10.mwt" \
        ${TEST:+--test "$TEST"} | tee "$LOGS/gen10-fit.log"
}

for g in ${GENERATIONS:-1 2 3 4 5 6 7 8 9 10}; do
    echo "=== generation $g"
    if [ "$g" = 9 ]; then
        generation_9
        continue
    fi
    if [ "$g" = 10 ]; then
        generation_10
        continue
    fi
    if own_games "$g"; then
        selfplay "$g"
        dirs=("$DATA/gen$g")
    else
        parent=$(games_of "$g")
        [ -d "$DATA/gen$parent" ] || selfplay "$parent"
        dirs=("$DATA/gen$parent")
    fi
    if learns_from_parent "$g"; then
        # The parent's games, when this machine does not have them (GENERATIONS=5 on a new
        # machine): played again from the committed weights, they are the same games.
        if ! compgen -G "$DATA/gen$((g - 1))/chunk-*" >/dev/null; then
            selfplay $((g - 1))
        fi
        dirs=("$DATA/gen$((g - 1))" "${dirs[@]}")
    fi
    # shellcheck disable=SC2046 # gen_fit is a list of flags
    "$(fit_tool "$g")" train fit --data "${dirs[@]}" --init zeros --out "$OUT/gen$g.mwt" $(gen_fit "$g") \
        --threads "$THREADS" --search-weight "$(gen_search_weight "$g")" \
        --overlap "$(gen_overlap "$g")" \
        ${TEST:+--test "$TEST"} | tee "$LOGS/gen$g-fit.log"
    if [ "$g" -gt 1 ]; then
        "$ME" train match --a "$OUT/gen$g.mwt" --b "$(gen_player "$g")" --depth 3 --games 200 \
            --threads "$THREADS" | tee "$LOGS/gen$g-match.log"
    fi
done
last=${GENERATIONS:-1 2 3 4 5 6 7 8 9 10}
last=${last##* }
echo "trained $OUT/gen$last.mwt; to ship it, name it in engine/src/eval/mod.rs (BUILTIN)"
