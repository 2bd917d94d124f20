//! The self-play games: the player (a shallow alpha-beta search with noise), the games from a
//! random opening to the exact endgame, each position labelled, and the search values added
//! to samples afterwards.

use super::{Sample, SelfPlay, parallel_map};
use super::{flips, legal_moves, random_square_raw};
use montello_engine::eval::Weights;
use montello_engine::search::FixedDepth;
use montello_engine::search::Solver;
use montello_engine::{Bitboard, FastRng, Square, Variant};

/// The player's search: the alpha-beta core with `w` at the leaves (a table of its own,
/// kept for one game or one batch so that the result depends only on the calls made).
pub(super) fn player<'w>(w: &'w Weights, cfg: &SelfPlay) -> FixedDepth<'w> {
    FixedDepth::new(w, Variant::Othello, PLAYER_TABLE_BYTES, cfg.probcut)
}

/// The player's transposition table: 4 MiB, room for a game's searches at depth 5 or so.
const PLAYER_TABLE_BYTES: usize = 4 << 20;

/// The move the self-play player chooses at `(p, o)` (which has a legal move): each move's
/// value by `search` `cfg.depth - 1` plies deep, plus the noise. Also returns the position's
/// value by that search (without the noise).
pub(super) fn choose(
    search: &mut FixedDepth,
    p: u64,
    o: u64,
    cfg: &SelfPlay,
    rng: &mut FastRng,
) -> (Square, i32) {
    let mut moves = legal_moves(p, o);
    let mut best = (i32::MIN, Square::ALL[moves.trailing_zeros() as usize]);
    let mut value = i32::MIN;
    while moves != 0 {
        let i = moves.trailing_zeros();
        moves &= moves - 1;
        let sq = Square::ALL[i as usize];
        let f = flips(p, o, sq);
        let v = -search.value(o & !f, p | f | sq.bit().0, cfg.depth.saturating_sub(1));
        value = value.max(v);
        let noise = if cfg.noise > 0 {
            rng.below(2 * cfg.noise as u32 + 1) as i32 - cfg.noise
        } else {
            0
        };
        if v + noise > best.0 {
            best = (v + noise, sq);
        }
    }
    (best.1, value)
}

/// Plays from the start to the first position with `cfg.exact_empties` empties or fewer
/// and a legal move (random opening moves, then the search's choices), pushing every
/// position before it with the parity of its mover. Returns that position and its mover's
/// parity, or `None` if the game ended first.
fn play_to_endgame(
    w: &Weights,
    cfg: &SelfPlay,
    rng: &mut FastRng,
    before: &mut Vec<(u64, u64, bool, i16)>,
) -> Option<(u64, u64, bool)> {
    let start = montello_engine::Position::start();
    let (mut p, mut o) = (start.player().0, start.opponent().0);
    let mut mover = false;
    let span = cfg.opening_plies.1.saturating_sub(cfg.opening_plies.0) + 1;
    let opening = cfg.opening_plies.0 + rng.below(span);
    let mut search = player(w, cfg);
    let mut ply = 0;
    loop {
        let (moves, passed) = Variant::Othello.next_moves(&mut p, &mut o)?;
        mover ^= passed;
        if (!(p | o)).count_ones() <= cfg.exact_empties {
            return Some((p, o, mover));
        }
        let random = ply < opening;
        let sq = if random && cfg.skip_opening {
            // Its outcome hangs on the random moves still to come: no sample, no search.
            random_square_raw(moves, rng)
        } else {
            let (best, value) = choose(&mut search, p, o, cfg, rng);
            before.push((p, o, mover, value as i16));
            if random {
                random_square_raw(moves, rng)
            } else {
                best
            }
        };
        let f = flips(p, o, sq);
        (p, o) = (o & !f, p | f | sq.bit().0);
        mover = !mover;
        ply += 1;
    }
}

/// Plays one game and returns its labelled positions (empty if the game ended before the
/// endgame solve, which random openings rarely allow).
pub fn play_game(w: &Weights, cfg: &SelfPlay, rng: &mut FastRng) -> Vec<Sample> {
    let mut before: Vec<(u64, u64, bool, i16)> = Vec::with_capacity(64);
    let Some((mut p, mut o, mover)) = play_to_endgame(w, cfg, rng, &mut before) else {
        return Vec::new();
    };
    // The endgame: solve, then walk a perfect line, labelling each position exactly.
    let mut solver = Solver::new(Variant::Othello, None, None);
    let Some(v0) = solver.solve(
        &montello_engine::Position::from_player_opponent(
            Bitboard(p),
            Bitboard(o),
            montello_engine::Side::Black,
        ),
        -64,
        64,
    ) else {
        return Vec::new();
    };
    let mut out: Vec<Sample> = before
        .iter()
        .map(|&(bp, bo, m, search)| Sample {
            p: Bitboard(bp),
            o: Bitboard(bo),
            label: if m == mover { v0 as i8 } else { -v0 as i8 },
            exact: false,
            search: cfg.record_search.then_some(search),
        })
        .collect();
    let mut v = v0;
    while let Some((mut moves, passed)) = Variant::Othello.next_moves(&mut p, &mut o) {
        if passed {
            v = -v;
        }
        out.push(Sample {
            p: Bitboard(p),
            o: Bitboard(o),
            label: v as i8,
            exact: true,
            search: None,
        });
        // A move that keeps the value: the child's value for the opponent is exactly -v.
        let mut next = None;
        while moves != 0 {
            let sq = Square::ALL[moves.trailing_zeros() as usize];
            moves &= moves - 1;
            let f = flips(p, o, sq);
            let (np, no) = (o & !f, p | f | sq.bit().0);
            let child = montello_engine::Position::from_player_opponent(
                Bitboard(np),
                Bitboard(no),
                montello_engine::Side::Black,
            );
            if solver.solve(&child, -v - 1, -v + 1) == Some(-v) {
                next = Some((np, no));
                break;
            }
        }
        let Some((np, no)) = next else { break };
        (p, o) = (np, no);
        v = -v;
    }
    out
}

/// Plays `games` games of chunk `chunk` (seeded by `seed` and the chunk number).
pub fn play_chunk(w: &Weights, cfg: &SelfPlay, seed: u64, chunk: u64, games: usize) -> Vec<Sample> {
    let mut rng = FastRng::new(seed ^ chunk.wrapping_mul(0x9e37_79b9_7f4a_7c15));
    let mut out = Vec::new();
    for _ in 0..games {
        out.extend(play_game(w, cfg, &mut rng));
    }
    out
}

/// Adds (or replaces) the search value of every sample that is not exact: a `cfg.depth`-ply
/// search by the self-play player (its Multi-ProbCut included), without noise. One search
/// table serves the whole slice, whose neighbours are usually the same game's next plies.
pub fn relabel(w: &Weights, samples: &mut [Sample], cfg: &SelfPlay) {
    let cfg = SelfPlay { noise: 0, ..*cfg };
    let mut search = player(w, &cfg);
    for s in samples.iter_mut().filter(|s| !s.exact) {
        s.search = Some(search.value(s.p.0, s.o.0, cfg.depth) as i16);
    }
}

/// Positions with exactly `empties` empty squares from self-play games with `w` played as
/// `player` says (random openings, then its search), each with its exact value: the test set
/// for the error at 20 empties.
pub fn exact_test_set(
    w: &Weights,
    player: &SelfPlay,
    seed: u64,
    n: usize,
    empties: u32,
    threads: usize,
) -> Vec<Sample> {
    let cfg = SelfPlay {
        exact_empties: empties,
        ..*player
    };
    // One slot per thread, each with its own seeded games: the set depends on the seed and
    // the thread count, as it always has.
    let slots = threads.max(1);
    let per = n.div_ceil(slots);
    let out = parallel_map(slots, slots, |t| {
        let mut slot = Vec::with_capacity(per);
        let mut rng = FastRng::new(seed ^ (t as u64 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15));
        while slot.len() < per {
            let game = play_to_endgame(w, &cfg, &mut rng, &mut Vec::new());
            if let Some((p, o, _)) = game {
                let pos = montello_engine::Position::from_player_opponent(
                    Bitboard(p),
                    Bitboard(o),
                    montello_engine::Side::Black,
                );
                if let Some(v) = Solver::new(Variant::Othello, None, None).solve(&pos, -64, 64) {
                    slot.push(Sample {
                        p: Bitboard(p),
                        o: Bitboard(o),
                        label: v as i8,
                        exact: true,
                        search: None,
                    });
                }
            }
        }
        slot
    });
    let mut all: Vec<Sample> = out.into_iter().flatten().collect();
    all.truncate(n);
    all
}
