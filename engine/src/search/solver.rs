//! Exact endgame search: negamax alpha-beta on bitboards to the end of the game, for the
//! MCTS-Solver's leaves (win/draw/loss) and for the root when few empty squares are left
//! (the final disc margin). It checks the clock and the cancel flag every few thousand nodes
//! and gives up (returns `None`) past its deadline, so it never breaks the time cap.

use super::CancelHandle;
use crate::bitboard::{flips, legal_moves};
use crate::{Move, Position, Square, Variant};
use std::time::Instant;

/// Checks the clock every this many nodes (a few tens of microseconds of work).
const CHECK_NODES: u64 = 1 << 10;

/// Below this many empty squares, moves are tried in board order instead of sorted by the
/// opponent's mobility: sorting costs more than it saves near the end.
const ORDER_EMPTIES: u32 = 6;

/// Squares tried first at equal mobility: corners, then the rest, X-squares last.
const CORNERS: u64 = 0x8100_0000_0000_0081;
const X_SQUARES: u64 = 0x0042_0000_0000_4200;

/// An exact endgame search within a deadline.
#[derive(Debug)]
pub struct Solver<'a> {
    /// Nodes searched so far.
    pub nodes: u64,
    deadline: Option<Instant>,
    cancel: Option<&'a CancelHandle>,
    aborted: bool,
    max_nodes: u64,
    /// Whether a side with no move passes (Othello) or the game ends (no-move-ends-game).
    passes: bool,
}

impl<'a> Solver<'a> {
    /// A solver for `variant`'s rules that gives up at `deadline` or when `cancel` is set.
    pub fn new(
        variant: Variant,
        deadline: Option<Instant>,
        cancel: Option<&'a CancelHandle>,
    ) -> Solver<'a> {
        Solver {
            nodes: 0,
            deadline,
            cancel,
            aborted: false,
            max_nodes: u64::MAX,
            passes: variant != Variant::NoMoveEndsGame,
        }
    }

    /// Gives up after `max_nodes` nodes as well: a budget that, unlike a deadline, keeps an
    /// iteration-limited search deterministic.
    pub fn with_budget(mut self, max_nodes: u64) -> Solver<'a> {
        self.max_nodes = max_nodes;
        self
    }

    /// Whether the search gave up (deadline, budget or cancel).
    pub fn aborted(&self) -> bool {
        self.aborted
    }

    /// The final disc margin (mover's discs minus the opponent's, empty squares not counted)
    /// of `pos` with best play, if found in time. A narrow window `alpha..beta` makes it
    /// faster: the value is then exact only inside the window (fail-soft bounds outside).
    pub fn solve(&mut self, pos: &Position, alpha: i32, beta: i32) -> Option<i32> {
        let v = self.negamax(pos.player().0, pos.opponent().0, alpha, beta);
        (!self.aborted).then_some(v)
    }

    /// Win (> 0), draw (0) or loss (< 0) for the side to move, if found in time.
    pub fn win_draw_loss(&mut self, pos: &Position) -> Option<i32> {
        self.solve(pos, -1, 1).map(i32::signum)
    }

    fn check(&mut self) {
        if self.nodes >= self.max_nodes
            || self.cancel.is_some_and(CancelHandle::is_cancelled)
            || self.deadline.is_some_and(|d| Instant::now() >= d)
        {
            self.aborted = true;
        }
    }

    fn negamax(&mut self, p: u64, o: u64, mut alpha: i32, beta: i32) -> i32 {
        self.nodes += 1;
        if self.nodes.is_multiple_of(CHECK_NODES) || self.nodes >= self.max_nodes {
            self.check();
        }
        if self.aborted {
            return 0;
        }
        let mut moves = legal_moves(p, o);
        if moves == 0 {
            if !self.passes || legal_moves(o, p) == 0 {
                return final_margin(p, o);
            }
            return -self.negamax(o, p, -beta, -alpha);
        }
        let empties = (!(p | o)).count_ones();
        if empties == 1 {
            let sq = Square::ALL[moves.trailing_zeros() as usize];
            let f = flips(p, o, sq);
            return final_margin(p | f | sq.bit(), o & !f);
        }
        let mut best = i32::MIN;
        if empties > ORDER_EMPTIES {
            // Fastest first: the replies that leave the opponent the fewest moves.
            let mut list = [(0u32, 0u8, 0u64); 64];
            let mut n = 0;
            while moves != 0 {
                let i = moves.trailing_zeros();
                moves &= moves - 1;
                let sq = Square::ALL[i as usize];
                let f = flips(p, o, sq);
                let (np, no) = (o & !f, p | f | sq.bit());
                let mut key = legal_moves(np, no).count_ones() * 4;
                if sq.bit() & CORNERS != 0 {
                    key = key.saturating_sub(6);
                } else if sq.bit() & X_SQUARES != 0 {
                    key += 3;
                }
                if n < list.len() {
                    list[n] = (key, i as u8, f);
                    n += 1;
                }
            }
            let list = &mut list[..n];
            list.sort_unstable_by_key(|e| e.0);
            for &(_, i, f) in list.iter() {
                let bit = 1u64 << i;
                let v = -self.negamax(o & !f, p | f | bit, -beta, -alpha);
                if v > best {
                    best = v;
                    if v > alpha {
                        alpha = v;
                        if alpha >= beta {
                            break;
                        }
                    }
                }
            }
        } else {
            while moves != 0 {
                let i = moves.trailing_zeros();
                moves &= moves - 1;
                let sq = Square::ALL[i as usize];
                let f = flips(p, o, sq);
                let v = -self.negamax(o & !f, p | f | sq.bit(), -beta, -alpha);
                if v > best {
                    best = v;
                    if v > alpha {
                        alpha = v;
                        if alpha >= beta {
                            break;
                        }
                    }
                }
            }
        }
        best
    }
}

/// The mover's discs minus the opponent's at the end of the game.
#[inline]
fn final_margin(p: u64, o: u64) -> i32 {
    p.count_ones() as i32 - o.count_ones() as i32
}

/// The exact outcome of every root move of a solved endgame.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RootSolve {
    /// Each move with its final margin for the side to move, best first. The `bool` says
    /// whether the margin is exact; otherwise it is an upper bound with the right sign (the
    /// move's win/draw/loss is always exact).
    pub moves: Vec<(Move, i32, bool)>,
    /// Whether the best move's margin was found (false: only win/draw/loss of every move,
    /// the deadline came during the margin search).
    pub complete: bool,
    /// Nodes searched.
    pub nodes: u64,
}

/// Solves `pos`: first the win/draw/loss of every move (cheap, a null window around zero),
/// then the final margin of the best ones. Gives up (`None`) if the deadline, the node
/// budget or `cancel` strikes before the first pass is done; after it, returns what it has.
pub fn solve_root(
    pos: &Position,
    variant: Variant,
    deadline: Option<Instant>,
    cancel: Option<&CancelHandle>,
    max_nodes: u64,
) -> Option<RootSolve> {
    let mut solver = Solver::new(variant, deadline, cancel).with_budget(max_nodes);
    let moves = variant.moves(pos);
    let mut wdl: Vec<(Move, i32)> = Vec::with_capacity(moves.len());
    for &mv in &moves {
        let child = variant.play_unchecked(pos, mv);
        let v = -solver.solve(&child, -1, 1)?;
        wdl.push((mv, v.signum()));
    }
    // Second pass: exact margins among the best class, alpha carried from move to move.
    let best_class = wdl.iter().map(|e| e.1).max()?;
    let mut out: Vec<(Move, i32, bool)> = Vec::with_capacity(moves.len());
    let mut alpha = -65;
    let mut complete = true;
    for &(mv, class) in &wdl {
        if class != best_class || !complete {
            out.push((mv, class, false));
            continue;
        }
        let child = variant.play_unchecked(pos, mv);
        match solver.solve(&child, -65, -alpha) {
            Some(v) => {
                let v = -v;
                let exact = v > alpha;
                if exact {
                    alpha = v;
                }
                out.push((mv, v, exact));
            }
            None => {
                complete = false;
                out.push((mv, class, false));
            }
        }
    }
    // Best first: exact margins, then bounds, larger first.
    out.sort_by(|a, b| b.2.cmp(&a.2).then(b.1.cmp(&a.1)));
    let complete = complete && out.first().is_some_and(|m| m.2);
    Some(RootSolve {
        moves: out,
        complete,
        nodes: solver.nodes,
    })
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::FastRng;
    use crate::playout::random_square;

    /// Plain minimax without pruning: the reference the solver is checked against.
    pub(crate) fn minimax(p: u64, o: u64, passes: bool) -> i32 {
        let moves = legal_moves(p, o);
        if moves == 0 {
            if !passes || legal_moves(o, p) == 0 {
                return final_margin(p, o);
            }
            return -minimax(o, p, passes);
        }
        let mut best = i32::MIN;
        let mut m = moves;
        while m != 0 {
            let sq = Square::ALL[m.trailing_zeros() as usize];
            m &= m - 1;
            let f = flips(p, o, sq);
            best = best.max(-minimax(o & !f, p | f | sq.bit(), passes));
        }
        best
    }

    /// A position `empties` squares from the end, reached by random play (seeded).
    pub(crate) fn random_endgame(seed: u64, empties: u32) -> Position {
        let mut rng = FastRng::new(seed);
        loop {
            let mut pos = Position::start();
            loop {
                if pos.empties().count() <= empties {
                    if !pos.is_game_over() {
                        return pos;
                    }
                    break;
                }
                let moves = pos.legal_moves().0;
                if moves == 0 {
                    if pos.is_game_over() {
                        break;
                    }
                    pos = pos.pass();
                    continue;
                }
                pos = pos.play_unchecked(random_square(moves, &mut rng));
            }
        }
    }

    #[test]
    fn solver_agrees_with_plain_minimax() {
        for seed in 0..40 {
            let pos = random_endgame(seed, 7 + (seed % 3) as u32);
            for variant in [Variant::Othello, Variant::NoMoveEndsGame] {
                let passes = variant == Variant::Othello;
                let exact = minimax(pos.player().0, pos.opponent().0, passes);
                let mut s = Solver::new(variant, None, None);
                assert_eq!(s.solve(&pos, -65, 65), Some(exact), "seed {seed} {pos:?}");
                assert_eq!(s.win_draw_loss(&pos), Some(exact.signum()), "seed {seed}");
            }
        }
    }

    #[test]
    fn root_solve_picks_the_best_margin() {
        for seed in 100..120 {
            let pos = random_endgame(seed, 8);
            let r = solve_root(&pos, Variant::Othello, None, None, u64::MAX)
                .unwrap_or_else(|| panic!("no deadline, no cancel: seed {seed}"));
            let exact = minimax(pos.player().0, pos.opponent().0, true);
            assert_eq!(r.moves[0].1, exact, "seed {seed}");
            assert!(r.moves[0].2 && r.complete);
            for &(mv, bound, exact_flag) in &r.moves {
                let child = Variant::Othello.play_unchecked(&pos, mv);
                let v = -minimax(child.player().0, child.opponent().0, true);
                if exact_flag {
                    assert_eq!(v, bound, "seed {seed} {mv}");
                } else {
                    assert!(v <= bound, "seed {seed} {mv}: {v} > {bound}");
                    assert_eq!(v.signum(), bound.signum(), "seed {seed} {mv}");
                }
            }
        }
    }

    #[test]
    fn a_passed_deadline_gives_up() {
        let pos = random_endgame(3, 20);
        let past = Instant::now();
        let r = solve_root(&pos, Variant::Othello, Some(past), None, u64::MAX);
        assert!(r.is_none());
    }
}

#[cfg(test)]
mod timing {
    use super::tests::random_endgame;
    use super::*;

    /// Prints how long root solves take by number of empties (for tuning the threshold):
    /// `cargo test -p montello-engine --release --lib solver::timing -- --ignored --nocapture`.
    #[test]
    #[ignore = "a measurement, not a test"]
    fn root_solve_times() {
        for empties in [12, 14, 16, 18] {
            let mut times = Vec::new();
            let mut wdl_times = Vec::new();
            let mut nodes = 0;
            for seed in 0..20 {
                let pos = random_endgame(1000 + seed, empties);
                let t = Instant::now();
                let _ = Solver::new(Variant::Othello, None, None).win_draw_loss(&pos);
                wdl_times.push(t.elapsed());
                let t = Instant::now();
                let r = solve_root(&pos, Variant::Othello, None, None, u64::MAX);
                times.push(t.elapsed());
                nodes += r.map_or(0, |r| r.nodes);
            }
            times.sort();
            wdl_times.sort();
            println!(
                "{empties} empties: win/draw/loss only: median {:.1} ms, max {:.1} ms",
                wdl_times[10].as_secs_f64() * 1e3,
                wdl_times[19].as_secs_f64() * 1e3
            );
            let total: std::time::Duration = times.iter().sum();
            println!(
                "{empties} empties: mean {:.1} ms, median {:.1} ms, max {:.1} ms, {:.1} M nodes/s",
                total.as_secs_f64() * 1e3 / 20.0,
                times[10].as_secs_f64() * 1e3,
                times[19].as_secs_f64() * 1e3,
                nodes as f64 / total.as_secs_f64() / 1e6
            );
        }
    }
}
