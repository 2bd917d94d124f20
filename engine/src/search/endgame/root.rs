//! The root's solves: every move's win/draw/loss then the best margin (the MCTS's root),
//! and the best move with its exact margin (`solve`).

use super::Solver;
use super::order::root_moves;
use super::table::{NO_MOVE, Table};
use crate::clock::Instant;
use crate::eval::{self, SCALE};
use crate::search::alphabeta::{DEFAULT_PROBCUT, FixedDepth};
use crate::search::{CancelHandle, put_first};
use crate::{Move, Position, Square, Variant};

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

/// Solves `pos` exactly under `variant`'s rules. First a midgame search by the learned
/// evaluation, half as deep as the empty squares, estimates the margin and fills the table
/// with best moves (the solver's move ordering reads them); then principal-variation search
/// over the root moves in an aspiration window: a null window around the estimate (rounded
/// to an even margin, as every final margin is), moved [`ASPIRATION_STEP`] discs further each
/// time the value falls outside it. Gives up (`None`) at `deadline` or when `cancel` is set;
/// a finished game has no move to solve, and neither has a free start's placement phase (the
/// solver plays no placements). `table_bytes` sizes the transposition table (a few MiB for a
/// phone, 64 MiB or more for the deep endgames of the test suites).
pub fn solve(
    pos: &Position,
    variant: Variant,
    table_bytes: usize,
    deadline: Option<Instant>,
    cancel: Option<&CancelHandle>,
) -> Option<Solution> {
    solve_in(
        &mut SolveTable::new(table_bytes),
        pos,
        variant,
        deadline,
        cancel,
    )
}

/// A transposition table kept from one [`solve_in`] to the next: each solve starts a new
/// search in it, so that older entries give way first (Edax keeps its table across problems
/// the same way). A suite of positions then pays for the table's memory once, and the solves
/// of one game's positions, later ones first, find what the earlier solves stored.
#[derive(Debug)]
pub struct SolveTable(Table);

impl SolveTable {
    /// About `bytes` of table (a few MiB for a phone, 64 MiB or more for the deep endgames
    /// of the test suites); the memory is taken on the first store.
    pub fn new(bytes: usize) -> SolveTable {
        SolveTable(Table::new(bytes.max(1 << 15)))
    }
}

/// [`solve`] in a table kept between solves.
pub fn solve_in(
    table: &mut SolveTable,
    pos: &Position,
    variant: Variant,
    deadline: Option<Instant>,
    cancel: Option<&CancelHandle>,
) -> Option<Solution> {
    if variant.in_free_opening(pos) {
        return None;
    }
    let mut kept = std::mem::replace(&mut table.0, Table::with_slots(0));
    kept.new_search();
    let mut solver = Solver::new(variant, deadline, cancel).with_table(kept);
    let solution = solve_with(&mut solver, pos, variant, deadline);
    table.0 = solver.into_table();
    solution
}

/// `solve`'s work, in `solver`'s table.
fn solve_with(
    solver: &mut Solver<'_>,
    pos: &Position,
    variant: Variant,
    deadline: Option<Instant>,
) -> Option<Solution> {
    let mut moves = root_moves(pos, variant);
    let (p, o) = (pos.player().0, pos.opponent().0);
    let guess = even_margin(estimate(
        solver,
        p,
        o,
        variant,
        pos.empties().count(),
        deadline,
    )?);
    if let Some(i) = best_in_table(solver, p, o).and_then(|b| moves.iter().position(|&m| m == b)) {
        put_first(&mut moves, i);
    }
    let (mut alpha, mut beta) = (guess - 1, guess + 1);
    let (best, score) = loop {
        let (mv, v) = root_pvs(solver, pos, variant, &moves, alpha, beta)?;
        if v <= alpha && alpha > -65 {
            (alpha, beta) = ((alpha - ASPIRATION_STEP).max(-65), alpha + 1);
        } else if v >= beta && beta < 65 {
            (alpha, beta) = (beta - 1, (beta + ASPIRATION_STEP).min(65));
        } else {
            break (mv, v);
        }
    };
    Some(Solution {
        best,
        score,
        nodes: solver.nodes,
    })
}

/// How many discs the root's aspiration window moves when the value falls outside it.
pub(super) const ASPIRATION_STEP: i32 = 4;

/// Fewer empty squares than this: the estimate is the evaluation itself (a search would cost
/// more than the solve it guides).
const ESTIMATE_EMPTIES: u32 = 14;

/// The midgame search before a solve: Multi-ProbCut alpha-beta by the learned evaluation,
/// iterative deepening to half the `empties`, in the solver's table (whose best moves then
/// order the solve); below [`ESTIMATE_EMPTIES`], the evaluation. Returns its value
/// (evaluation units), or `None` past `deadline`, and counts its nodes as the solver's. (It
/// stops at the deadline, not at a cancel: it is short next to the solve, which checks both.)
pub(super) fn estimate(
    solver: &mut Solver<'_>,
    p: u64,
    o: u64,
    variant: Variant,
    empties: u32,
    deadline: Option<Instant>,
) -> Option<i32> {
    if empties < ESTIMATE_EMPTIES {
        return Some(eval::evaluate_raw(p, o));
    }
    let table = std::mem::replace(solver.table(), Table::with_slots(0));
    let mut search =
        FixedDepth::new(eval::builtin(), variant, 0, DEFAULT_PROBCUT).with_table(table);
    let top = (empties / 2).max(1);
    let mut value = Some(0);
    for depth in (2 - top % 2..=top).step_by(2) {
        value = search.value_until(p, o, depth, deadline);
        if value.is_none() {
            break;
        }
    }
    solver.nodes += search.nodes;
    *solver.table() = search.into_table();
    value
}

/// The even final margin (every final margin is even) nearest to `value` (evaluation units).
pub(super) fn even_margin(value: i32) -> i32 {
    (2 * (value as f32 / (2 * SCALE) as f32).round() as i32).clamp(-64, 64)
}

/// The best move the table holds for `(p, o)`, if any.
fn best_in_table(solver: &mut Solver<'_>, p: u64, o: u64) -> Option<Move> {
    let best = solver.table().probe(p, o)?.best;
    (best != NO_MOVE).then(|| Move::Play(Square::ALL[usize::from(best)]))
}

/// Principal-variation search over the root moves in `alpha..beta`, fail-soft: the best move and
/// its value (exact inside the window, a bound outside).
fn root_pvs(
    solver: &mut Solver<'_>,
    pos: &Position,
    variant: Variant,
    moves: &[Move],
    mut alpha: i32,
    beta: i32,
) -> Option<(Move, i32)> {
    let mut best: Option<(Move, i32)> = None;
    for &mv in moves {
        let child = variant.play_unchecked(pos, mv);
        let v = match best {
            None => -solver.solve(&child, -beta, -alpha)?,
            Some(_) => {
                let v = -solver.solve(&child, -alpha - 1, -alpha)?;
                if v > alpha && v < beta {
                    -solver.solve(&child, -beta, -v)?
                } else {
                    v
                }
            }
        };
        if best.is_none_or(|(_, b)| v > b) {
            best = Some((mv, v));
        }
        alpha = alpha.max(v);
        if alpha >= beta {
            break;
        }
    }
    best
}
