//! A game's thinking time as one budget instead of a flat cap a move (#69).
//!
//! With a flat cap Master thought 0.38-0.43 s of its 1 s a move on average: the exact endgame
//! (the last 18 empty squares) answers in milliseconds, and the tree's early stop ends a move
//! whose choice is settled. The time those moves leave is the game's to spend where a move is
//! still open. [`GameClock`] gives the side a budget of `share` times the nominal cap for
//! each of its moves in the game (the ones played and the ones to come), and each move that
//! still has to think a cap of what is left shared among the moves that will think, times
//! [`OVERSHOOT`] (a search stops before its cap when its choice is settled), never more than
//! [`MOST`] times the nominal cap nor less than [`LEAST`] of it. The tree's early stop then
//! keeps an easy move short, and a hard one runs on.

use std::time::Duration;

/// The longest a move may think, in nominal caps (#69: at most twice the cap).
pub const MOST: u32 = 2;

/// The least a thinking move gets, in nominal caps, even when the budget is spent.
pub const LEAST: f64 = 0.25;

/// A move's cap over its fair share of what is left: the tree stops a settled move from half
/// its cap, and an alpha-beta move when its next depth cannot finish, so a move uses about
/// half to two thirds of its cap (docs/ai.md, "Master's time use").
pub const OVERSHOOT: f64 = 1.6;

/// What one side has spent of its game's budget so far.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct GameClock {
    /// Time spent on this game's moves so far.
    spent: Duration,
    /// Moves searched in this game so far.
    moves: u32,
    /// Empty squares at the last move searched: a root with more is another game, or moves
    /// taken back, and the clock starts again.
    last_empties: Option<u32>,
}

impl GameClock {
    /// The cap for a move at `empties` empty squares under a nominal cap of `nominal`, the
    /// side's budget being `share` of the nominal cap a move; moves at or below `free_empties`
    /// (solved in milliseconds) keep the nominal cap and leave their share to the others.
    pub(crate) fn cap(
        &mut self,
        empties: u32,
        nominal: Duration,
        share: f64,
        free_empties: u32,
    ) -> Duration {
        if self.last_empties.is_some_and(|last| empties > last) {
            *self = GameClock::default();
        }
        self.last_empties = Some(empties);
        if empties <= free_empties {
            return nominal;
        }
        // This side plays about every other ply from here: the move now included.
        let moves_left = empties.div_ceil(2);
        let budget = nominal.mul_f64(share) * (self.moves + moves_left);
        let left = budget.saturating_sub(self.spent);
        let thinking_left = (empties - free_empties).div_ceil(2);
        let fair = left / thinking_left;
        fair.mul_f64(OVERSHOOT)
            .clamp(nominal.mul_f64(LEAST), nominal * MOST)
    }

    /// Counts a move's search that took `spent`.
    pub(crate) fn record(&mut self, spent: Duration) {
        self.spent += spent;
        self.moves += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SECOND: Duration = Duration::from_secs(1);

    #[test]
    fn a_fresh_game_shares_its_budget_among_the_moves_that_think() {
        let mut clock = GameClock::default();
        // 60 empties: 30 moves of this side at 0.75 s, 22.5 s, among the 21 moves above 18
        // empties: 1.07 s each, times the overshoot.
        let cap = clock.cap(60, SECOND, 0.75, 18);
        let fair = 22.5 / 21.0;
        assert!(
            (cap.as_secs_f64() - fair * OVERSHOOT).abs() < 1e-3,
            "{cap:?}"
        );
        // The solved endgame keeps the nominal cap.
        assert_eq!(clock.cap(18, SECOND, 0.75, 18), SECOND);
    }

    #[test]
    fn time_saved_goes_to_later_moves_and_time_spent_is_taken_from_them() {
        let mut quick = GameClock::default();
        let mut slow = GameClock::default();
        for clock in [&mut quick, &mut slow] {
            clock.cap(50, SECOND, 0.75, 18);
        }
        quick.record(Duration::from_millis(100));
        slow.record(Duration::from_millis(1_900));
        let (a, b) = (
            quick.cap(48, SECOND, 0.75, 18),
            slow.cap(48, SECOND, 0.75, 18),
        );
        assert!(a > b, "{a:?} after a quick move, {b:?} after a slow one");
    }

    #[test]
    fn a_move_never_gets_more_than_twice_the_cap_nor_less_than_a_quarter() {
        let mut rich = GameClock::default();
        // Two moves left to think, and the budget of 30 moves.
        let cap = rich.cap(22, SECOND, 0.75, 18);
        assert_eq!(cap, 2 * SECOND);
        let mut broke = GameClock::default();
        broke.cap(40, SECOND, 0.75, 18);
        broke.record(Duration::from_secs(60));
        assert_eq!(broke.cap(38, SECOND, 0.75, 18), SECOND / 4);
    }

    #[test]
    fn a_root_with_more_empties_starts_a_new_game() {
        let mut clock = GameClock::default();
        clock.cap(40, SECOND, 0.75, 18);
        clock.record(Duration::from_secs(60));
        let spent = clock.cap(38, SECOND, 0.75, 18);
        // Two moves taken back (or a new game): the budget is whole again.
        let again = clock.cap(42, SECOND, 0.75, 18);
        assert!(again > spent, "{again:?} against {spent:?}");
        assert_eq!(again, GameClock::default().cap(42, SECOND, 0.75, 18));
    }

    #[test]
    fn over_a_game_the_average_stays_within_the_share_when_moves_use_their_caps() {
        // The worst case for the budget: every thinking move uses its whole cap.
        let mut clock = GameClock::default();
        let mut spent = Duration::ZERO;
        let mut moves = 0;
        for empties in (1..=60).rev().step_by(2) {
            let cap = clock.cap(empties, SECOND, 0.75, 18);
            let used = if empties <= 18 { Duration::ZERO } else { cap };
            clock.record(used);
            spent += used;
            moves += 1;
        }
        let average = spent / moves;
        assert!(average <= SECOND.mul_f64(0.75 * 1.05), "{average:?}");
    }
}
