#!/usr/bin/env python3
"""Makes an exact test set for `montello-engine train report --test` from played games: the
position at EMPTIES empty squares of every game in the given logs (arena or nboard-match logs:
any run of 20 or more moves like f5d6c3... on a line is a game from the standard start), each
position once, a seeded shuffle, the first N, each solved exactly by `montello-engine solve`.
Standard library only; the rules are tools/nboard-match.py's.

    tools/testset-from-games.py --engine target/release/montello-engine --empties 20 \\
        --positions 400 --seed 20261127 --out engine/weights/test20-master1s.bin \\
        docs/arena/mmalpha0.45-1s.log docs/arena/memory256-1s.log ...

`--exclude SETS` leaves out the positions of other sets (so that a set made to fit on, e.g. by
`montello-engine train bias --sets`, shares no position with a test set); `--jobs N` solves
with N processes at once (the file is the same for any N). A pass that a log does not write
(the side to move has no legal move) is played for it.

It also writes OUT with `.obf` in place of its extension (the positions, for `solve`) and
prints `solve`'s report. The file holds what `train testset` writes: per position the side to
move's and the opponent's discs, the exact final margin for the side to move, no search value.
"""

import argparse
import importlib.util
import os
import random
import re
import struct
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location("nboard_match", os.path.join(HERE, "nboard-match.py"))
rules = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(rules)

GAME = re.compile(r"(?:(?:[a-h][1-8]|pa)){20,}", re.IGNORECASE)
MOVE = re.compile(r"[a-h][1-8]|pa", re.IGNORECASE)
MAGIC = b"MSAMPLE2"
NO_SEARCH = -32768


def position_at(moves, empties):
    """(board, side to move) at the first position of the game with `empties` empty squares
    where the side to move has a move; None if the game never stops there."""
    board, side = rules.start_board(), rules.BLACK
    for m in moves + [None]:
        if board.count(rules.EMPTY) == empties:
            if not rules.legal(board, side):
                side = -side
                if not rules.legal(board, side):
                    return None
            return board, side
        if m is None:
            return None
        if m == "pa":
            side = -side
            continue
        sq = rules.parse_square(m)
        flipped = rules.flips(board, sq, side)
        if not flipped and not rules.legal(board, side):
            side = -side  # a pass the log does not write
            flipped = rules.flips(board, sq, side)
        if not flipped:
            raise ValueError(f"illegal move {m} in {''.join(moves)}")
        board[sq] = side
        for f in flipped:
            board[f] = side
        side = -side
    return None


def key(board, side):
    """(side to move's discs, opponent's discs) as bit sets, square k = bit k (a1 first)."""
    p = sum(1 << i for i, v in enumerate(board) if v == side)
    o = sum(1 << i for i, v in enumerate(board) if v == -side)
    return p, o


def read_positions(path):
    """The (side to move, opponent) bit sets of every position in a test set (.bin)."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:8] != MAGIC:
        sys.exit(f"{path}: not a test set (no {MAGIC.decode()} header)")
    size = struct.calcsize("<QQbBh")
    body = data[8:]
    if len(body) % size:
        sys.exit(f"{path}: {len(body)} bytes after the header is not a whole number of records")
    return {struct.unpack_from("<QQ", body, i) for i in range(0, len(body), size)}


def obf(board, side):
    mark = {rules.EMPTY: "-", rules.BLACK: "X", rules.WHITE: "O"}
    return "".join(mark[v] for v in board) + " " + mark[side] + ";"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("logs", nargs="+")
    ap.add_argument("--engine", required=True, help="montello-engine binary")
    ap.add_argument("--empties", type=int, default=20)
    ap.add_argument("--positions", type=int, default=400)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", required=True)
    ap.add_argument(
        "--exclude",
        nargs="*",
        default=[],
        help="test sets (.bin) whose positions are left out, so that a set to fit on stays apart",
    )
    ap.add_argument("--jobs", type=int, default=1, help="solve processes at once")
    args = ap.parse_args()

    excluded = set()
    for path in args.exclude:
        excluded |= read_positions(path)
    seen, positions, left_out = {}, [], set()
    for path in args.logs:
        with open(path) as f:
            for line in f:
                for game in GAME.findall(line):
                    moves = [m.lower() for m in MOVE.findall(game)]
                    at = position_at(moves, args.empties)
                    if at is None:
                        continue
                    board, bits = obf(*at), key(*at)
                    if board in seen:
                        continue
                    if bits in excluded:
                        left_out.add(bits)
                        continue
                    seen[board] = bits
                    positions.append(board)
    random.Random(args.seed).shuffle(positions)
    chosen = positions[: args.positions]
    print(
        f"{len(positions)} distinct positions at {args.empties} empties"
        f" ({len(excluded)} excluded), {len(chosen)} kept"
        + (f"; {len(left_out)} left out as in the excluded sets" if left_out else "")
    )
    if not chosen:
        sys.exit("no positions")

    obf_path = os.path.splitext(args.out)[0] + ".obf"
    with open(obf_path, "w") as f:
        f.write("\n".join(chosen) + "\n")
    # `solve` runs on one core: split the positions into --jobs files solved at once, in order.
    jobs = max(1, min(args.jobs, len(chosen)))
    parts, procs = [], []
    for j in range(jobs):
        part = f"{obf_path}.{j}"
        with open(part, "w") as f:
            f.write("\n".join(chosen[j::jobs]) + "\n")
        parts.append(part)
        procs.append(
            subprocess.Popen([args.engine, "solve", part], stdout=subprocess.PIPE, text=True)
        )
    per_part = []
    for proc, part in zip(procs, parts):
        report = proc.communicate()[0]
        if proc.returncode != 0:
            sys.exit(f"solve {part} failed ({proc.returncode})")
        os.remove(part)
        print(report, end="")
        per_part.append(
            [int(s) for s in re.findall(r"^\s*l\d+\s+\d+\s+\S+\s+([+-]\d+)", report, re.M)]
        )
    scores = [0] * len(chosen)
    for j, part_scores in enumerate(per_part):
        if len(part_scores) != len(chosen[j::jobs]):
            sys.exit(f"solve reported {len(part_scores)} scores for {len(chosen[j::jobs])} positions")
        scores[j::jobs] = part_scores

    out = bytearray(MAGIC)
    for line, score in zip(chosen, scores):
        out += struct.pack("<QQbBh", *seen[line], score, 1, NO_SEARCH)
    tmp = args.out + ".tmp"
    with open(tmp, "wb") as f:
        f.write(out)
    os.replace(tmp, args.out)
    print(f"wrote {args.out} ({len(scores)} positions)")


if __name__ == "__main__":
    main()
