#!/usr/bin/env bash
# #69: generation 10 refined on real tournament games, the WTHOR database's files of 1977-2016
# (2017 and 2018 are the test set, never trained on; the trainer refuses them). Writes
# engine/weights/gen11w.mwt and prints its held-out error beside generation 10's and a
# fixed-depth match against it. The data (about 120 MB) stays in $DATA.
#
#   WTHOR=/path/to/DataFiles engine/weights/wthor.sh
#
# WTHOR: a folder with WTH_1977.wtb ... WTH_2018.wtb, for example the public repository
# ledpup/Othello's Othello.WthorProcessor/DataFiles/. docs/eval.md ("Real games") has the
# figures of the committed run and what they mean.
set -euo pipefail
cd "$(dirname "$0")/../.."
: "${WTHOR:?WTHOR must name the folder of the WTH_YYYY.wtb files}"
DATA=${DATA:-$HOME/.cache/montello/eval-data}/wthor
THREADS=${THREADS:-2}
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/montello/target}"
cargo build --release -p montello-engine
ME="$CARGO_TARGET_DIR/release/montello-engine"
mkdir -p "$DATA"

train=()
for year in $(seq 1977 2016); do train+=("$WTHOR/WTH_$year.wtb"); done
# Every position from the start to 24 empties, labelled with the game's perfect-play score at
# 24 empties (exact at 24), and every position at 14 empties or fewer, solved exactly (about
# 18 minutes on one core).
"$ME" train wthor --out "$DATA/exact14" --games 1000 --exact 14 --threads "$THREADS" "${train[@]}"
# Generation 10 as shipped (gen10s8.mwt, the builtin weights) refined towards the exact
# positions alone (at 24 empties and at 14 or fewer).
"$ME" train fit --data "$DATA/exact14" --exact-only --init builtin \
    --toward-init --cg 60:1000 --overlap 4 --threads "$THREADS" --out engine/weights/gen11w.mwt
for w in builtin engine/weights/gen11w.mwt; do
    "$ME" train heldout --weights "$w" --threads "$THREADS" "$WTHOR/WTH_2017.wtb" "$WTHOR/WTH_2018.wtb"
done
"$ME" train match --a engine/weights/gen11w.mwt --b builtin --depth 4 \
    --games 1000 --threads "$THREADS" --seed 692
