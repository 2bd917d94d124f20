//! The clockless fixed-depth search (the trainer's, the ProbCut fit's, the MCTS's leaves').

use super::{DEFAULT_PROBCUT_END, INF, Search};
use crate::Variant;
use crate::clock::Instant;
use crate::eval::Weights;
use crate::search::CancelHandle;
use crate::search::endgame::Solver;
use crate::search::endgame::table::Table;

/// A fixed-depth alpha-beta without a clock, for the trainer (its self-play player and its
/// labels) and the ProbCut fit: the same search as the `ab` player, with the weights it is
/// given at the leaves and the exact solver where the depth reaches the end, keeping its
/// transposition table between calls. Deterministic: the same calls in the same order give
/// the same values.
#[derive(Debug)]
pub struct FixedDepth<'w> {
    table: Option<Table>,
    weights: &'w Weights,
    probcut: super::probcut::Confidence,
    variant: Variant,
    /// Whether the recursion runs its AVX2 copy ([`crate::cpu::fast_copy!`]).
    fast: bool,
    /// Nodes searched so far.
    pub nodes: u64,
}

impl<'w> FixedDepth<'w> {
    /// A search with `weights` at the leaves, a table of about `table_bytes` and ProbCut's
    /// selectivity `probcut` (tenths; 0: off; near the end at least the engine's own
    /// [`DEFAULT_PROBCUT_END`]), under `variant`'s pass rule.
    pub fn new(
        weights: &'w Weights,
        variant: Variant,
        table_bytes: usize,
        probcut: u32,
    ) -> FixedDepth<'w> {
        FixedDepth {
            table: Some(Table::new(table_bytes)),
            weights,
            probcut: super::probcut::Confidence::from_tenths(
                probcut,
                if probcut == 0 {
                    0
                } else {
                    probcut.max(DEFAULT_PROBCUT_END)
                },
            ),
            variant,
            fast: crate::cpu::fast(),
            nodes: 0,
        }
    }

    /// Searches in `table` instead of its own (a solver's, which it fills with best moves).
    pub(crate) fn with_table(mut self, table: Table) -> FixedDepth<'w> {
        self.table = Some(table);
        self
    }

    /// Gives the table back.
    pub(crate) fn into_table(self) -> Table {
        self.table.unwrap_or_else(|| Table::with_slots(1 << 10))
    }

    /// Runs the portable copy of the recursion even on a CPU with AVX2 (the tests compare the
    /// two copies).
    #[cfg(test)]
    fn portable(mut self) -> FixedDepth<'w> {
        self.fast = false;
        self
    }

    /// The rules it searches by.
    pub(crate) fn variant(&self) -> Variant {
        self.variant
    }

    /// The value of `(p, o)` for the side to move, `depth` plies deep (the exact final margin
    /// when `depth` reaches the end), in evaluation units.
    pub fn value(&mut self, p: u64, o: u64, depth: u32) -> i32 {
        self.value_until(p, o, depth, None)
            .expect("a search without a deadline finishes")
    }

    /// [`FixedDepth::value`], or `None` if `deadline` passes first.
    pub(crate) fn value_until(
        &mut self,
        p: u64,
        o: u64,
        depth: u32,
        deadline: Option<Instant>,
    ) -> Option<i32> {
        let cancel = CancelHandle::new();
        let table = self
            .table
            .take()
            .unwrap_or_else(|| Table::with_slots(1 << 10));
        let mut s = Search {
            solver: Solver::new(self.variant, deadline, None)
                .with_table(table)
                .with_fast(self.fast),
            nodes: 0,
            max_nodes: u64::MAX,
            deadline,
            cancel: &cancel,
            aborted: false,
            passes: self.variant.passes(),
            free: false,
            weights: self.weights,
            probcut: self.probcut,
            fast: self.fast,
        };
        let v = s.search(p, o, depth, -INF, INF);
        self.nodes += s.nodes;
        let aborted = s.aborted;
        self.table = Some(s.solver.into_table());
        (!aborted).then_some(v)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::alphabeta::DEFAULT_PROBCUT;
    use crate::search::endgame::tests::random_endgame;

    /// The AVX2 copy of the recursion searches exactly as the portable one: the same values
    /// and nodes at every depth, with and without ProbCut, from the middle game into the
    /// solver (depth 14 at 14 empties is exact).
    #[test]
    fn the_avx2_copy_searches_exactly_as_the_portable_one() {
        if !crate::cpu::fast() {
            eprintln!("this CPU has no AVX2: only the portable copy runs here");
            return;
        }
        let w = crate::eval::builtin();
        for (seed, empties, depth) in [(3, 44, 6), (4, 30, 7), (5, 14, 14)] {
            let pos = random_endgame(seed, empties);
            let (p, o) = (pos.player().0, pos.opponent().0);
            for probcut in [0, DEFAULT_PROBCUT] {
                let mut fast = FixedDepth::new(w, Variant::Othello, 1 << 20, probcut);
                let mut portable =
                    FixedDepth::new(w, Variant::Othello, 1 << 20, probcut).portable();
                assert!(fast.fast && !portable.fast);
                for d in 1..=depth {
                    assert_eq!(
                        fast.value(p, o, d),
                        portable.value(p, o, d),
                        "seed {seed} depth {d} probcut {probcut}"
                    );
                    assert_eq!(fast.nodes, portable.nodes, "seed {seed} depth {d}");
                }
            }
        }
    }
}
