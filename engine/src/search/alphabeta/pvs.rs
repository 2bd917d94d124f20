//! The recursion: principal variation search with the learned evaluation at the leaves,
//! Multi-ProbCut, the free opening's placements, and the exact solver where the depth
//! reaches the end.

use super::order::order_moves;
use super::probcut;
use super::{CHECK_NODES, INF, MAX_MOVES, MAX_SCORE, Search, TT_MIN_DEPTH};
use crate::bitboard::legal_moves_in;
use crate::clock::Instant;
use crate::cpu::fast_copy;
use crate::eval::SCALE;
use crate::game::CENTRE;
use crate::search::endgame::final_margin;
use crate::search::endgame::table::NO_MOVE;

impl Search<'_> {
    /// Counts a node; true when the search must stop.
    #[inline]
    fn tick(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes >= self.max_nodes {
            self.aborted = true;
        } else if self.nodes.is_multiple_of(CHECK_NODES) {
            self.cancel.set_iterations(self.nodes);
            if self.cancel.is_cancelled() || self.deadline.is_some_and(|d| Instant::now() >= d) {
                self.aborted = true;
            }
        }
        self.aborted
    }

    /// Principal variation search of (p, o) `depth` plies deep, fail-soft, in the copy of
    /// the recursion that `FAST` names ([`crate::cpu::fast_copy!`]).
    #[inline(always)]
    fn pvs_body<const FAST: bool>(
        &mut self,
        p: u64,
        o: u64,
        depth: u32,
        mut alpha: i32,
        beta: i32,
    ) -> i32 {
        if self.tick() {
            return 0;
        }
        let empty = !(p | o);
        if self.free && empty & CENTRE != 0 {
            return self.free_opening::<FAST>(p, o, depth, alpha, beta);
        }
        let empties = empty.count_ones();
        if depth >= empties {
            return self.solve(p, o, alpha, beta);
        }
        if depth == 0 {
            // A wiped-out side is the one game end the evaluation could miss cheaply.
            if p == 0 {
                return -(o.count_ones() as i32) * SCALE;
            }
            return self.weights.evaluate_raw(p, o);
        }
        let moves = legal_moves_in::<FAST>(p, o);
        if moves == 0 {
            if !self.passes || legal_moves_in::<FAST>(o, p) == 0 {
                return final_margin(p, o) * SCALE;
            }
            return -self.pvs::<FAST>(o, p, depth, -beta, -alpha);
        }
        let stored_depth = depth.min(60) as u8;
        let mut tt_move = NO_MOVE;
        if depth >= TT_MIN_DEPTH
            && let Some(e) = self.solver.table().probe(p, o)
        {
            tt_move = e.best;
            if e.depth >= stored_depth {
                let (lower, upper) = (i32::from(e.lower), i32::from(e.upper));
                if lower >= beta || lower == upper {
                    return lower;
                }
                if upper <= alpha {
                    return upper;
                }
            }
        }
        if let Some(v) = self.probcut::<FAST>(p, o, depth, empties, alpha, beta) {
            return v;
        }
        let mut list = [(0i32, 0u8, 0u64); MAX_MOVES];
        let n = order_moves::<FAST>(self.weights, p, o, moves, tt_move, depth, &mut list);
        let alpha0 = alpha;
        let mut best = -INF;
        let mut best_move = NO_MOVE;
        // One ply above the leaves, each child's evaluation starts from the instances read
        // once here (when the first child needs it).
        let mut base = None;
        for (k, &(_, i, f)) in list[..n].iter().enumerate() {
            let (np, no) = (o & !f, p | f | (1u64 << i));
            let mut child = |search: &mut Self, alpha: i32, beta: i32| {
                if depth == 1 {
                    let base = base.get_or_insert_with(|| crate::eval::base_for_moves(p, o));
                    search.leaf_after(base, i, f, np, no, alpha, beta)
                } else {
                    search.pvs::<FAST>(np, no, depth - 1, alpha, beta)
                }
            };
            let v = if k == 0 {
                -child(self, -beta, -alpha)
            } else {
                let v = -child(self, -alpha - 1, -alpha);
                if v > alpha && v < beta && !self.aborted {
                    -child(self, -beta, -alpha)
                } else {
                    v
                }
            };
            if self.aborted {
                return 0;
            }
            if v > best {
                best = v;
                best_move = i;
                if v > alpha {
                    alpha = v;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        if depth >= TT_MIN_DEPTH {
            let lower = if best > alpha0 { best } else { -INF };
            let upper = if best < beta { best } else { INF };
            self.solver
                .table()
                .store(p, o, stored_depth, lower, upper, best_move);
        }
        best
    }

    fast_copy!(fn pvs(&mut self, p: u64, o: u64, depth: u32, alpha: i32, beta: i32) -> i32 = pvs_body, pvs_fast, pvs_portable);

    /// [`Search::pvs`] at depth 0 of the position after the parent's side to move played
    /// `sq` flipping `flips` (`np` to move against `no`), with `base` the parent's
    /// [`crate::eval::base_for_moves`]: the same node count, checks and value, the evaluation
    /// computed from the squares the move changed. (Never in the free opening: a parent
    /// outside it has no child inside it.)
    #[inline(always)]
    fn leaf_after(
        &mut self,
        base: &[u32; crate::eval::BASE_LEN],
        sq: u8,
        flips: u64,
        np: u64,
        no: u64,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        if self.tick() {
            return 0;
        }
        if np | no == !0 {
            return self.solve(np, no, alpha, beta);
        }
        if np == 0 {
            return -(no.count_ones() as i32) * SCALE;
        }
        self.weights
            .evaluate_after(base, u32::from(sq), flips, np, no)
    }

    /// [`Search::pvs`] in the copy this search runs (see [`Search::fast`]).
    pub(super) fn search(&mut self, p: u64, o: u64, depth: u32, alpha: i32, beta: i32) -> i32 {
        if self.fast {
            self.pvs::<true>(p, o, depth, alpha, beta)
        } else {
            self.pvs::<false>(p, o, depth, alpha, beta)
        }
    }

    /// Multi-ProbCut: `beta` when a shallow search predicts that the `depth`-deep value
    /// reaches `beta` with confidence, `alpha` when it predicts it stays at or below `alpha`,
    /// `None` when the node must be searched (see [`probcut`]).
    #[inline(always)]
    fn probcut<const FAST: bool>(
        &mut self,
        p: u64,
        o: u64,
        depth: u32,
        empties: u32,
        alpha: i32,
        beta: i32,
    ) -> Option<i32> {
        let t = self.probcut.at(empties);
        if t <= 0.0 {
            return None;
        }
        let cut = probcut::cut(depth, empties)?;
        let margin = t * cut.sigma;
        if beta < MAX_SCORE {
            let bound = ((beta as f32 + margin - cut.b) / cut.a).ceil() as i32;
            if bound < MAX_SCORE {
                let v = self.pvs::<FAST>(p, o, cut.shallow, bound - 1, bound);
                if self.aborted {
                    return Some(0);
                }
                if v >= bound {
                    return Some(beta);
                }
            }
        }
        if alpha > -MAX_SCORE {
            let bound = ((alpha as f32 - margin - cut.b) / cut.a).floor() as i32;
            if bound > -MAX_SCORE {
                let v = self.pvs::<FAST>(p, o, cut.shallow, bound, bound + 1);
                if self.aborted {
                    return Some(0);
                }
                if v <= bound {
                    return Some(alpha);
                }
            }
        }
        None
    }

    /// The free opening's placements: plain negamax over the empty centre squares.
    fn free_opening<const FAST: bool>(
        &mut self,
        p: u64,
        o: u64,
        depth: u32,
        mut alpha: i32,
        beta: i32,
    ) -> i32 {
        if depth == 0 {
            return self.weights.evaluate_raw(p, o);
        }
        let mut centre = !(p | o) & CENTRE;
        let mut best = -INF;
        while centre != 0 {
            let bit = centre & centre.wrapping_neg();
            centre &= centre - 1;
            let v = -self.pvs::<FAST>(o, p | bit, depth - 1, -beta, -alpha);
            if self.aborted {
                return 0;
            }
            best = best.max(v);
            alpha = alpha.max(v);
            if alpha >= beta {
                break;
            }
        }
        best
    }

    /// The exact final margin (evaluation units) by the solver, fail-soft in `alpha..beta`;
    /// its nodes count against this search's budget.
    fn solve(&mut self, p: u64, o: u64, alpha: i32, beta: i32) -> i32 {
        let a = alpha.div_euclid(SCALE);
        let b = -((-beta).div_euclid(SCALE));
        self.solver
            .set_nodes_left(self.max_nodes.saturating_sub(self.nodes));
        let before = self.solver.nodes;
        let v = self.solver.solve_bits(p, o, a, b);
        self.nodes += self.solver.nodes - before;
        match v {
            Some(v) => v * SCALE,
            None => {
                self.aborted = true;
                0
            }
        }
    }
}
