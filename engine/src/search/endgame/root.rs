//! The root's solves: every move's win/draw/loss then the best margin (the MCTS's root),
//! and the best move with its exact margin (`solve`).

use super::Solver;
use super::order::root_moves;
use crate::clock::Instant;
use crate::search::CancelHandle;
use crate::{Move, Position, Variant};

/// The exact outcome of every root move of a solved endgame.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct RootSolve {
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
/// Never solves a free start's placement phase (the solver plays no placements).
pub(crate) fn solve_root(
    pos: &Position,
    variant: Variant,
    deadline: Option<Instant>,
    cancel: Option<&CancelHandle>,
    max_nodes: u64,
) -> Option<RootSolve> {
    if variant.in_free_opening(pos) {
        return None;
    }
    let mut solver = Solver::new(variant, deadline, cancel).with_budget(max_nodes);
    // Likely best first: the margin pass then raises its alpha early, and the table fills
    // with the main line.
    let moves = root_moves(pos, variant);
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

/// A position solved exactly: a best move and the final disc margin with best play.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Solution {
    /// A best move (a pass when the side to move has none but the game goes on).
    pub best: Move,
    /// The final disc margin for the side to move with best play by both sides (empty
    /// squares to the winner).
    pub score: i32,
    /// Nodes searched.
    pub nodes: u64,
}

/// Solves `pos` exactly under `variant`'s rules: principal-variation search over the root
/// moves (likely best first by the learned evaluation), each with the full solver. Gives up
/// (`None`) at `deadline` or when `cancel` is set; a finished game has no move to solve, and
/// neither has a free start's placement phase (the solver plays no placements).
/// `table_bytes` sizes the transposition table (a few MiB for a phone, 64 MiB or more for
/// the deep endgames of the test suites).
pub fn solve(
    pos: &Position,
    variant: Variant,
    table_bytes: usize,
    deadline: Option<Instant>,
    cancel: Option<&CancelHandle>,
) -> Option<Solution> {
    if variant.in_free_opening(pos) {
        return None;
    }
    let moves = root_moves(pos, variant);
    let mut solver = Solver::new(variant, deadline, cancel).with_table_bytes(table_bytes);
    let mut best: Option<(Move, i32)> = None;
    for mv in moves {
        let child = variant.play_unchecked(pos, mv);
        let v = match best {
            None => -solver.solve(&child, -65, 65)?,
            Some((_, alpha)) => {
                let v = -solver.solve(&child, -alpha - 1, -alpha)?;
                if v > alpha {
                    -solver.solve(&child, -65, -alpha)?
                } else {
                    v
                }
            }
        };
        if best.is_none_or(|(_, b)| v > b) {
            best = Some((mv, v));
        }
    }
    let (best, score) = best?;
    Some(Solution {
        best,
        score,
        nodes: solver.nodes,
    })
}
