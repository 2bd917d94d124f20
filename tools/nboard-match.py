#!/usr/bin/env python3
"""Plays a match between two engines that speak the NBoard protocol, from balanced openings,
each opening twice with the colours swapped, and prints wins/draws/losses, the score and the
Elo difference with its 95% interval. Standard library only.

It is how Montello is measured against other engines (docs/ai.md): for example, Montello's
Master level (1 s a move) against Edax at level 5, each engine on one core:

    tools/nboard-match.py \
        --a "target/release/montello-engine nboard" --a-depth 60 --a-time 1 \
        --b "/path/to/edax -nboard -n 1 -book-usage off -q" --b-depth 5 \
        --games 200 --threads 2 --log match.log

Each game runs its own pair of engine processes (fresh hash tables, nothing carried over);
the harness keeps the rules itself (passes are played for the engine, which is never asked
to move without a legal move) and sends the whole game before every `go`.
"""

import argparse
import math
import os
import shlex
import subprocess
import sys
import threading
import time

DIRS = [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)]
BLACK, WHITE, EMPTY = 1, -1, 0


def start_board():
    b = [EMPTY] * 64
    b[27] = b[36] = WHITE  # d4, e5
    b[28] = b[35] = BLACK  # e4, d5
    return b


def flips(board, sq, side):
    if board[sq] != EMPTY:
        return []
    r0, c0 = divmod(sq, 8)
    out = []
    for dr, dc in DIRS:
        r, c, line = r0 + dr, c0 + dc, []
        while 0 <= r < 8 and 0 <= c < 8 and board[r * 8 + c] == -side:
            line.append(r * 8 + c)
            r, c = r + dr, c + dc
        if line and 0 <= r < 8 and 0 <= c < 8 and board[r * 8 + c] == side:
            out.extend(line)
    return out


def legal(board, side):
    return [sq for sq in range(64) if flips(board, sq, side)]


def name(sq):
    return "ABCDEFGH"[sq % 8] + str(sq // 8 + 1)


def parse_square(text):
    text = text.strip().upper()
    if len(text) != 2 or text[0] not in "ABCDEFGH" or text[1] not in "12345678":
        raise ValueError(f"not a square: {text!r}")
    return (int(text[1]) - 1) * 8 + "ABCDEFGH".index(text[0])


def ggf(moves):
    """The game so far as GGF, from the standard start; `moves` holds squares or None (pass)."""
    start = "".join({EMPTY: "-", BLACK: "*", WHITE: "O"}[v] for v in start_board())
    body = "".join(
        f"{'BW'[i % 2]}[{'PA' if m is None else name(m)}]" for i, m in enumerate(moves)
    )
    return f"(;GM[Othello]PC[nboard-match]PB[a]PW[b]RE[?]TI[0]TY[8]BO[8 {start} *]{body};)"


class Engine:
    def __init__(self, command, depth, seconds, label):
        self.label = label
        self.proc = subprocess.Popen(
            shlex.split(command),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            bufsize=1,
        )
        self.pings = 0
        self.name = label
        # One command at a time, each confirmed by a ping: Edax drops lines that arrive
        # together while it starts.
        self.send("nboard 1")
        self.sync()
        if depth is not None:
            self.send(f"set depth {depth}")
            self.sync()
        if seconds is not None:
            self.send(f"set time {seconds}")
            self.sync()

    def send(self, line):
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def read(self):
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError(f"engine {self.label} closed its output")
        return line.strip()

    def sync(self):
        self.pings += 1
        self.send(f"ping {self.pings}")
        while True:
            line = self.read()
            if line == f"pong {self.pings}":
                return
            if line.startswith("set myname "):
                self.name = line[len("set myname ") :]

    def go(self, moves):
        self.send(f"set game {ggf(moves)}")
        self.sync()
        self.send("go")
        while True:
            line = self.read()
            if line.startswith("==="):
                text = line[3:].strip().split()[0].split("/")[0]
                return None if text.upper() in ("PA", "PASS") else parse_square(text)

    def close(self):
        try:
            self.send("quit")
            self.proc.wait(timeout=5)
        except Exception:
            self.proc.kill()


def play_game(args, opening, a_is_black):
    """Plays one game; returns (a's margin, the moves as a transcript, a's move times)."""
    board, side, moves = start_board(), BLACK, []
    for sq in opening:
        f = flips(board, sq, side)
        if not f:
            raise ValueError(f"opening move {name(sq)} is illegal")
        board[sq] = side
        for x in f:
            board[x] = side
        moves.append(sq)
        side = -side
    a = Engine(args.a, args.a_depth, args.a_time, "a")
    b = Engine(args.b, args.b_depth, args.b_time, "b")
    times = {"a": [], "b": [], "names": (a.name, b.name)}
    try:
        while True:
            options = legal(board, side)
            if not options:
                if not legal(board, -side):
                    break
                moves.append(None)
                side = -side
                continue
            engine = a if (side == BLACK) == a_is_black else b
            t0 = time.monotonic()
            sq = engine.go(moves)
            times[engine.label].append(time.monotonic() - t0)
            if sq not in options:
                raise RuntimeError(
                    f"engine {engine.label} played {sq if sq is None else name(sq)}, "
                    f"illegal after {transcript(moves)}"
                )
            for x in flips(board, sq, side):
                board[x] = side
            board[sq] = side
            moves.append(sq)
            side = -side
    finally:
        a.close()
        b.close()
    black = board.count(BLACK)
    white = board.count(WHITE)
    empty = 64 - black - white
    # The winner gets the empty squares (the usual Othello count).
    if black > white:
        black += empty
    elif white > black:
        white += empty
    margin = black - white
    return (margin if a_is_black else -margin), transcript(moves), times


def transcript(moves):
    return "".join("" if m is None else name(m).lower() for m in moves)


def read_openings(path):
    out = []
    with open(path) as f:
        for line in f:
            line = line.split("#", 1)[0].strip()  # a line may end with a comment
            if not line:
                continue
            out.append([parse_square(line[i : i + 2]) for i in range(0, len(line), 2)])
    return out


def elo(score):
    score = min(max(score, 1e-6), 1 - 1e-6)
    return -400 * math.log10(1 / score - 1)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--a", required=True, help="command line of engine A")
    p.add_argument("--b", required=True, help="command line of engine B")
    p.add_argument("--a-depth", type=int, help="`set depth` for A (its level)")
    p.add_argument("--b-depth", type=int, help="`set depth` for B (its level)")
    p.add_argument("--a-time", type=float, help="`set time` for A (seconds a move)")
    p.add_argument("--b-time", type=float, help="`set time` for B (seconds a move)")
    p.add_argument("--games", type=int, default=20)
    p.add_argument("--threads", type=int, default=1, help="games played at once")
    p.add_argument("--first", type=int, default=0, help="first opening to use")
    p.add_argument(
        "--openings",
        default=os.path.join(here, "..", "engine", "data", "openings.txt"),
    )
    p.add_argument("--log", help="append one line per game here")
    args = p.parse_args()

    openings = read_openings(args.openings)
    # Spread the openings over the whole list, not just its first lines (they share prefixes).
    pairs = (args.games + 1) // 2
    stride = max(1, len(openings) // max(1, pairs))
    chosen = [openings[(args.first + i * stride) % len(openings)] for i in range(pairs)]

    lock = threading.Lock()
    results = []
    next_game = [0]
    all_times = {"a": [], "b": []}
    errors = []

    def worker():
        while True:
            with lock:
                i = next_game[0]
                next_game[0] += 1
            if i >= args.games or errors:
                return
            a_is_black = i % 2 == 0
            try:
                margin, moves, times = play_game(args, chosen[i // 2], a_is_black)
            except Exception as e:  # noqa: BLE001 - reported and ends the match
                with lock:
                    errors.append(f"game {i}: {e}")
                return
            score = 1.0 if margin > 0 else 0.5 if margin == 0 else 0.0
            with lock:
                results.append(score)
                all_times["a"] += times["a"]
                all_times["b"] += times["b"]
                w = results.count(1.0)
                d = results.count(0.5)
                l = results.count(0.0)
                colour = "black" if a_is_black else "white"
                line = (
                    f"game {i} {times['names'][0]} ({colour}) vs {times['names'][1]}: "
                    f"margin {margin:+d} {moves}  [{w}-{d}-{l}]"
                )
                print(line, flush=True)
                if args.log:
                    with open(args.log, "a") as f:
                        f.write(line + "\n")

    threads = [threading.Thread(target=worker) for _ in range(max(1, args.threads))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if errors:
        print("\n".join(errors), file=sys.stderr)
        sys.exit(1)

    n = len(results)
    w, d, l = results.count(1.0), results.count(0.5), results.count(0.0)
    s = sum(results) / n
    sd = math.sqrt(sum((x - s) ** 2 for x in results) / n / n) if n > 1 else 0.0
    lo, hi = elo(s - 1.96 * sd), elo(s + 1.96 * sd)
    mean = {k: (sum(v) / len(v) if v else 0.0) for k, v in all_times.items()}
    # Each engine thinks on one core, so its thinking time is its CPU time (less the
    # protocol's few milliseconds a move).
    per_game = {k: sum(v) / n for k, v in all_times.items()}
    longest = {k: max(v, default=0.0) for k, v in all_times.items()}
    print(
        f"A {w}-{d}-{l} over {n} games: {100 * s:.1f}%, Elo {elo(s):+.0f} [{lo:+.0f}, {hi:+.0f}]; "
        f"mean move time A {mean['a']:.3f} s, B {mean['b']:.3f} s; "
        f"thinking per game A {per_game['a']:.2f} s, B {per_game['b']:.2f} s; "
        f"longest move A {longest['a']:.3f} s, B {longest['b']:.3f} s"
    )


if __name__ == "__main__":
    main()
