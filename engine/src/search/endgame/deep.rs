//! Many empty squares: principal-variation search with the transposition table, stability
//! cutoffs and fastest-first move ordering.

use super::order::{SORT_INF, neighbours, sort_depth, sort_value};
use super::stability::stable_discs;
use super::table::{EXACT_BASE, NO_MOVE};
use super::{
    ETC_EMPTIES, EVAL_EMPTIES, SEARCH_ORDER_EMPTIES, STABILITY_ALPHA, Solver, TT_EMPTIES,
    final_margin,
};
use crate::bitboard::{CORNERS, QUADRANTS, X_SQUARES};
use crate::bitboard::{flips_in, legal_moves_in};
use crate::eval::{self, SCALE};

impl Solver<'_> {
    /// Many empty squares: principal-variation search with a transposition table (from
    /// `TT_EMPTIES` up) and fastest-first move ordering.
    #[inline(always)]
    pub(super) fn deep_body<const FAST: bool>(
        &mut self,
        p: u64,
        o: u64,
        mut alpha: i32,
        mut beta: i32,
        empties: u32,
    ) -> i32 {
        if !self.count() {
            return 0;
        }
        let mut moves = legal_moves_in::<FAST>(p, o);
        if moves == 0 {
            if !self.passes || legal_moves_in::<FAST>(o, p) == 0 {
                return final_margin(p, o);
            }
            return -self.deep::<FAST>(o, p, -beta, -alpha, empties);
        }
        // Stability cutoff: the opponent's stable discs stay theirs, so the margin is at most
        // 64 minus twice their number.
        if alpha >= STABILITY_ALPHA {
            let upper = 64 - 2 * stable_discs(o, p).count_ones() as i32;
            if upper <= alpha {
                return upper;
            }
            beta = beta.min(upper);
        }
        let use_table = empties >= TT_EMPTIES;
        let mut tt_best = NO_MOVE;
        let mut tt_lower = -64;
        let mut tt_upper = 64;
        if use_table && let Some(entry) = self.table.probe(p, o) {
            // A midgame entry (the searcher's alpha-beta shares the table) only orders.
            tt_best = entry.best;
            if entry.is_exact() {
                tt_lower = i32::from(entry.lower) / SCALE;
                tt_upper = i32::from(entry.upper) / SCALE;
                if tt_lower >= beta {
                    return tt_lower;
                }
                if tt_upper <= alpha {
                    return tt_upper;
                }
                if tt_lower == tt_upper {
                    return tt_lower;
                }
                alpha = alpha.max(tt_lower);
                beta = beta.min(tt_upper);
            }
        }
        let (alpha0, beta0) = (alpha, beta);
        let mut list = [(0i32, 0u8, 0u64); 64];
        let mut n = 0;
        let e = !(p | o);
        while moves != 0 {
            let i = moves.trailing_zeros() as usize;
            moves &= moves - 1;
            let bit = 1u64 << i;
            let f = flips_in::<FAST>(p, o, i);
            let (np, no) = (o & !f, p | f | bit);
            if empties >= ETC_EMPTIES {
                // Enhanced transposition cutoff: a reply already known to be bad enough for
                // the opponent settles this node without searching the rest.
                if let Some(child) = self.table.probe(np, no)
                    && child.is_exact()
                {
                    let v = -i32::from(child.upper) / SCALE;
                    if v >= beta {
                        return v;
                    }
                }
            }
            let key = if tt_best == i as u8 {
                i32::MIN
            } else {
                let m = legal_moves_in::<FAST>(np, no);
                let mobility = (m.count_ones() + (m & CORNERS).count_ones()) as i32;
                let potential = (neighbours(no) & e & !bit).count_ones() as i32;
                // Lowest first. Fastest first: the opponent's replies (corners twice) and its
                // potential mobility; a disc of evaluation below is 16 units, so a reply
                // weighs two discs.
                let mut key = mobility * 32 + potential * 2;
                if bit & X_SQUARES != 0 {
                    key += 4;
                }
                // Parity: a move into a region with an odd number of empty squares, so as to
                // have the last move there.
                let quadrant = QUADRANTS[((i >> 5) << 1) | ((i & 7) >> 2)];
                if (quadrant & e).count_ones() & 1 == 1 {
                    key -= 4;
                }
                if empties >= SEARCH_ORDER_EMPTIES {
                    // A shallow search by the learned evaluation, deeper the further the
                    // end (the opponent's view).
                    let depth = sort_depth(empties);
                    let v = sort_value(
                        np,
                        no,
                        depth,
                        -SORT_INF,
                        SORT_INF,
                        self.passes,
                        &mut self.nodes,
                    );
                    key += v * 16 / eval::SCALE;
                } else if empties >= EVAL_EMPTIES {
                    // The learned evaluation of the reply position (the opponent's view).
                    key += eval::evaluate_raw(np, no) * 16 / eval::SCALE;
                }
                key
            };
            if n < list.len() {
                list[n] = (key, i as u8, f);
                n += 1;
            }
        }
        let list = &mut list[..n];
        let mut best = i32::MIN;
        let mut best_sq = NO_MOVE;
        for k in 0..list.len() {
            // Selection sort: a cut-off often comes before the rest needs ordering.
            let mut m = k;
            for j in k + 1..list.len() {
                if list[j].0 < list[m].0 {
                    m = j;
                }
            }
            list.swap(k, m);
            let (_, i, f) = list[k];
            let (np, no) = (o & !f, p | f | (1u64 << i));
            let v = if k == 0 {
                -self.node::<FAST>(np, no, -beta, -alpha, empties - 1)
            } else {
                let mut v = -self.node::<FAST>(np, no, -alpha - 1, -alpha, empties - 1);
                if v > alpha && v < beta {
                    v = -self.node::<FAST>(np, no, -beta, -v, empties - 1);
                }
                v
            };
            if self.aborted {
                return 0;
            }
            if v > best {
                best = v;
                best_sq = i;
                if v > alpha {
                    alpha = v;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        if use_table {
            let (mut lower, mut upper) = (tt_lower, tt_upper);
            if best <= alpha0 {
                upper = upper.min(best);
            } else if best >= beta0 {
                lower = lower.max(best);
            } else {
                lower = best;
                upper = best;
            }
            self.table.store(
                p,
                o,
                EXACT_BASE + empties as u8,
                lower.clamp(-64, 64) * SCALE,
                upper.clamp(-64, 64) * SCALE,
                best_sq,
            );
        }
        best
    }
}
