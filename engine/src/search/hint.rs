//! Hints for the human player: the moves of a position ranked by what a search learned.

use super::{CancelHandle, MctsConfig, MoveStats, SearchLimits, Searcher, Strategy};
use crate::{Position, Variant};

/// Searches `pos` for the side to move within `limits` (with the default strategy, its
/// randomness drawn from `seed`) and returns every legal move ranked best first, with its
/// win rate (and its proof or exact margin when the search found one). Empty when the game
/// is over. The search never stops early ([`MctsConfig::early_stop`]): the whole budget
/// goes into ranking every move.
///
/// ```
/// use montello_engine::search::{SearchLimits, hint};
/// use montello_engine::{Position, Variant};
///
/// let ranked = hint(&Position::start(), Variant::Othello, &SearchLimits::iterations(500), 1);
/// assert_eq!(ranked.len(), 4);
/// ```
pub fn hint(pos: &Position, variant: Variant, limits: &SearchLimits, seed: u64) -> Vec<MoveStats> {
    // Every move is ranked, not only the best: the search takes its whole budget.
    let config = MctsConfig {
        early_stop: false,
        ..MctsConfig::default()
    };
    let mut searcher = Searcher::new(Strategy::default(), seed).with_config(config);
    let result = searcher.search(pos, variant, limits, &CancelHandle::new());
    let mut moves = result.moves;
    // A move the search never expanded still belongs in the list, at the end.
    for mv in variant.moves(pos) {
        if !moves.iter().any(|m| m.mv == mv) {
            moves.push(MoveStats {
                mv,
                visits: 0,
                win_rate: 0.5,
                proof: None,
                exact_margin: None,
            });
        }
    }
    moves
}
