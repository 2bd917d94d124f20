//! The root: aspiration windows, each root move's statistics and win rate, and the
//! principal variation from the table.

use super::{Bound, INF, RootMove, Search, WIN_RATE_DISCS};
use crate::eval::SCALE;
use crate::search::endgame::table::Table;
use crate::search::{MoveStats, Proof};
use crate::{Move, Position, Square, Variant};

/// One iteration at the root with a window `guess - width..guess + width`, widened on the
/// side it fails on until the value is inside. Returns false if the search was stopped.
pub(super) fn aspiration(
    s: &mut Search,
    root: &mut [RootMove],
    depth: u32,
    guess: i32,
    width: i32,
    exact: bool,
) -> bool {
    let (mut alpha, mut beta) = (guess - width, guess + width);
    loop {
        if !root_search(s, root, depth, alpha, beta, exact) {
            return false;
        }
        let v = root[0].score;
        // A selective search (ProbCut) can fail low, then high on the widened window: once
        // both sides have failed, the full window (where every value is inside) ends it.
        if v <= alpha && alpha > -INF {
            (alpha, beta) = (-INF, if beta < INF { v + 1 } else { INF });
        } else if v >= beta && beta < INF {
            (alpha, beta) = (if alpha > -INF { v - 1 } else { -INF }, INF);
        } else {
            return true;
        }
    }
}

/// One iteration at the root, window `alpha..beta`: every move PVS-searched `depth` plies
/// deep, the best moved to the front. Returns false if the search was stopped (the moves
/// searched before the stop keep their new values; the best is only moved to the front after
/// a full-window search confirmed it).
pub(super) fn root_search(
    s: &mut Search,
    root: &mut [RootMove],
    depth: u32,
    alpha: i32,
    beta: i32,
    exact: bool,
) -> bool {
    let mut alpha = alpha;
    let mut best = -INF;
    let mut best_index = 0;
    let mut searched = 0;
    for (k, m) in root.iter_mut().enumerate() {
        let (p, o) = (m.player, m.opponent);
        let before = s.nodes;
        let d = depth - 1;
        let v = if k == 0 {
            -s.search(p, o, d, -beta, -alpha)
        } else {
            let v = -s.search(p, o, d, -alpha - 1, -alpha);
            if v > alpha && v < beta && !s.aborted {
                -s.search(p, o, d, -beta, -alpha)
            } else {
                v
            }
        };
        m.nodes += s.nodes - before;
        if s.aborted {
            break;
        }
        searched = k + 1;
        m.score = v;
        m.solved = exact;
        m.bound = if v <= alpha {
            Bound::Upper
        } else if v >= beta {
            Bound::Lower
        } else {
            Bound::Exact
        };
        if v > best {
            best = v;
            best_index = k;
            if v > alpha {
                alpha = v;
                if alpha >= beta {
                    break;
                }
            }
        }
    }
    // Best first; the rest by their latest scores (stable: ties keep the last order).
    if searched > 0 && (!s.aborted || root[best_index].bound == Bound::Exact) {
        let m = root[best_index];
        root.copy_within(0..best_index, 1);
        root[0] = m;
        if !s.aborted {
            root[1..searched.max(1)].sort_by_key(|m| std::cmp::Reverse(m.score));
        }
    }
    !s.aborted
}

/// The root statistics of one move.
pub(super) fn stats(m: &RootMove) -> MoveStats {
    let proof = if m.solved {
        match m.bound {
            Bound::Exact => Some(match m.score.signum() {
                1 => Proof::Win,
                0 => Proof::Draw,
                _ => Proof::Loss,
            }),
            Bound::Lower if m.score >= SCALE => Some(Proof::Win),
            Bound::Upper if m.score <= -SCALE => Some(Proof::Loss),
            _ => None,
        }
    } else {
        None
    };
    MoveStats {
        mv: m.mv,
        visits: m.nodes,
        win_rate: match proof {
            Some(Proof::Win) => 1.0,
            Some(Proof::Draw) => 0.5,
            Some(Proof::Loss) => 0.0,
            None => win_rate(m.score),
        },
        proof,
        exact_margin: (m.solved && m.bound == Bound::Exact)
            .then(|| (m.score / SCALE).clamp(-64, 64) as i8),
    }
}

/// The side to move's expected score (0..=1) of an evaluation: a logistic of the margin.
pub(crate) fn win_rate(score: i32) -> f64 {
    let discs = score as f32 / SCALE as f32;
    f64::from(crate::search::win_probability(discs, WIN_RATE_DISCS))
}

/// The margin in discs that [`win_rate`] turned into `rate`: its inverse, within the
/// rounding of the logistic (a hundredth of a disc near even).
pub fn margin_of_win_rate(rate: f64) -> f64 {
    let p = rate.clamp(1e-9, 1.0 - 1e-9);
    f64::from(WIN_RATE_DISCS) * (p / (1.0 - p)).ln()
}

/// The best move and the table's best replies after it.
pub(super) fn principal_variation(
    table: &Table,
    pos: &Position,
    variant: Variant,
    first: Move,
) -> Vec<Move> {
    let mut pv = vec![first];
    let mut pos = variant.play_unchecked(pos, first);
    while pv.len() < 64 && !variant.is_game_over(&pos) {
        let mv = if variant.must_pass(&pos) {
            Move::Pass
        } else {
            let Some(e) = table.probe(pos.player().0, pos.opponent().0) else {
                break;
            };
            let legal = variant.legal_moves(&pos).0;
            if e.best >= 64 || legal & (1u64 << e.best) == 0 {
                break;
            }
            Move::Play(Square::ALL[usize::from(e.best)])
        };
        pv.push(mv);
        pos = variant.play_unchecked(&pos, mv);
    }
    pv
}
