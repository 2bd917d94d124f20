//! Exact endgame search: negamax alpha-beta on bitboards to the end of the game, for the
//! MCTS-Solver's leaves (win/draw/loss) and for the root when few empty squares are left
//! (the final disc margin). It checks the clock and the cancel flag every few thousand nodes
//! and gives up (returns `None`) past its deadline, so it never breaks the time cap.
//!
//! This file is the solver itself (its budget, its table, its entry points and the dispatch
//! by empty squares); beside it: [`last`] (the last one to six empty squares, without move
//! generation or a table), [`deep`] (principal-variation search with the table and
//! fastest-first ordering), [`order`] (what the move ordering reads), [`root`] (the root's
//! solves: [`solve`] and the MCTS's `solve_root`), [`stability`] (stable discs) and
//! [`table`] (the transposition table the solver and alpha-beta share).

mod deep;
mod last;
mod order;
mod root;
mod stability;
pub(super) mod table;
#[cfg(test)]
pub(crate) mod tests;

pub(crate) use root::solve_root;
pub use root::{Solution, SolveTable, solve, solve_in};

use self::table::Table;
use super::CancelHandle;
use crate::clock::Instant;
use crate::cpu::fast_copy;
use crate::{Position, Variant};

/// Checks the clock every this many nodes (a few tens of microseconds of work).
const CHECK_NODES: u64 = 1 << 10;

/// At most this many empty squares: moves are tried in quadrant-parity order straight from
/// the empty squares (no move generation, no sorting); they are too cheap to order.
const SHALLOW_EMPTIES: u32 = 6;

/// At least this many empty squares: nodes go through the transposition table.
const TT_EMPTIES: u32 = 9;

/// Alpha from which a node checks the opponent's stable discs for a cutoff (below it the
/// bound `64 - 2 * stable` can hardly reach alpha, and the count costs more than it saves).
const STABILITY_ALPHA: i32 = 8;

/// At least this many empty squares: the move ordering adds a shallow search by the learned
/// evaluation ([`order::sort_depth`] plies deep).
const SEARCH_ORDER_EMPTIES: u32 = 16;

/// At least this many empty squares: the move ordering adds the learned evaluation.
const EVAL_EMPTIES: u32 = 12;

/// At least this many empty squares: enhanced transposition cutoffs (each move's position
/// looked up in the table before any is searched). Below it the lookups' cache misses cost
/// more than the cutoffs save.
const ETC_EMPTIES: u32 = 13;
// The cutoffs read the table, which nodes use from `TT_EMPTIES`.
const _: () = assert!(ETC_EMPTIES > TT_EMPTIES);

/// Transposition table slots for an unlimited search unless told otherwise (a phone-sized
/// 3 MiB); a node budget shrinks it (a small search never touches most of a large table, and
/// must not pay for it).
const TT_ENTRIES: usize = 1 << 17;

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
    /// Whether the recursion runs its copy compiled for AVX2 and the x86-64-v3 scalar
    /// extensions (this CPU has them; see [`crate::cpu::fast_copy!`]).
    fast: bool,
    table: Table,
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
            passes: variant.passes(),
            fast: crate::cpu::fast(),
            table: Table::with_slots(TT_ENTRIES),
        }
    }

    /// Runs the AVX2 copy of the recursion only if `fast` and the CPU has it (false: the
    /// portable copy everywhere, which the tests compare it with).
    pub(crate) fn with_fast(mut self, fast: bool) -> Solver<'a> {
        self.fast = fast && crate::cpu::fast();
        self
    }

    /// Gives up after `max_nodes` nodes as well: a budget that, unlike a deadline, keeps an
    /// iteration-limited search deterministic.
    pub fn with_budget(mut self, max_nodes: u64) -> Solver<'a> {
        self.max_nodes = max_nodes;
        let size = usize::try_from(max_nodes / 4)
            .unwrap_or(usize::MAX)
            .clamp(1 << 10, TT_ENTRIES)
            .next_power_of_two();
        self.table = Table::with_slots(size);
        self
    }

    /// Stores in `table` (a searcher's, kept between moves and shared with its midgame
    /// search) instead of a table of its own.
    pub(crate) fn with_table(mut self, table: Table) -> Solver<'a> {
        self.table = table;
        self
    }

    /// The table, for the midgame search that shares it.
    pub(crate) fn table(&mut self) -> &mut Table {
        &mut self.table
    }

    /// Gives the table back (to keep it for the next search).
    pub(crate) fn into_table(self) -> Table {
        self.table
    }

    /// Gives up after `left` more nodes (and at the deadline or the cancel, as before).
    pub(crate) fn set_nodes_left(&mut self, left: u64) {
        self.max_nodes = self.nodes.saturating_add(left);
    }

    /// Whether the search gave up (deadline, budget or cancel).
    #[cfg(test)]
    pub fn aborted(&self) -> bool {
        self.aborted
    }

    /// The final disc margin (mover's discs minus the opponent's, empty squares to the winner)
    /// of `pos` with best play, if found in time. A narrow window `alpha..beta` makes it
    /// faster: the value is then exact only inside the window (fail-soft bounds outside).
    pub fn solve(&mut self, pos: &Position, alpha: i32, beta: i32) -> Option<i32> {
        self.solve_bits(pos.player().0, pos.opponent().0, alpha, beta)
    }

    /// [`Solver::solve`] on the side to move's discs `p` and the opponent's `o`.
    pub(crate) fn solve_bits(&mut self, p: u64, o: u64, alpha: i32, beta: i32) -> Option<i32> {
        if self.aborted {
            return None;
        }
        let empties = (!(p | o)).count_ones();
        let v = if self.fast {
            self.node::<true>(p, o, alpha, beta, empties)
        } else {
            self.node::<false>(p, o, alpha, beta, empties)
        };
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

    /// Counts a node; false when the search must give up.
    #[inline]
    fn count(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes.is_multiple_of(CHECK_NODES) || self.nodes >= self.max_nodes {
            self.check();
        }
        !self.aborted
    }

    /// Dispatches on the number of empty squares.
    #[inline(always)]
    fn node<const FAST: bool>(
        &mut self,
        p: u64,
        o: u64,
        alpha: i32,
        beta: i32,
        empties: u32,
    ) -> i32 {
        match empties {
            0 => {
                self.nodes += 1;
                final_margin(p, o)
            }
            1 => {
                self.nodes += 1;
                self.last1(p, o, !(p | o))
            }
            2 => self.last2::<FAST>(p, o, alpha, beta),
            3 => self.last3::<FAST>(p, o, alpha, beta),
            4 => self.last4::<FAST>(p, o, alpha, beta),
            e if e <= SHALLOW_EMPTIES => self.shallow::<FAST>(p, o, alpha, beta, e),
            e => self.deep::<FAST>(p, o, alpha, beta, e),
        }
    }
}

impl Solver<'_> {
    fast_copy!(fn last3(&mut self, p: u64, o: u64, alpha: i32, beta: i32) -> i32 = last3_body, last3_fast, last3_portable);
    fast_copy!(fn last4(&mut self, p: u64, o: u64, alpha: i32, beta: i32) -> i32 = last4_body, last4_fast, last4_portable);
    fast_copy!(fn shallow(&mut self, p: u64, o: u64, alpha: i32, beta: i32, empties: u32) -> i32 = shallow_body, shallow_fast, shallow_portable);
    fast_copy!(fn deep(&mut self, p: u64, o: u64, alpha: i32, beta: i32, empties: u32) -> i32 = deep_body, deep_fast, deep_portable);
}

/// The final margin of a finished game for the side to move, from its bit sets (the rules'
/// [`crate::position::final_margin`], here for the solver's callers).
pub(crate) use crate::position::final_margin;
