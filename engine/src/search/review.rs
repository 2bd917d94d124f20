//! Game review: for every move played, the best move and what the played one cost, in discs
//! for the side that moved; exact (the solver's final margins) from the solver's reach to the
//! end, from a fixed-depth alpha-beta search before that (the same depth for every move of a
//! review, so the figures of one game compare). The one home of the review: the command line
//! (`montello-engine review`) and the app both call [`review`].
//!
//! Each move gets a [`Class`] from its loss (docs/ai.md gives the thresholds), and each player
//! an [`Accuracy`]: the average loss per move and the count per class. Forced moves (a single
//! legal move) count as best; passes are not moves a player chose and are left out.

use super::CancelHandle;
use super::alphabeta::{DEFAULT_PROBCUT, FixedDepth};
use super::endgame::{SolveTable, final_margin, solve, solve_in};
use crate::clock::Instant;
use crate::eval::{self, SCALE};
use crate::{Game, Move, Position, Side, Variant};
use std::time::Duration;

/// What a review costs and how far the solver goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReviewConfig {
    /// Positions with at most this many empty squares are solved exactly.
    pub exact_empties: u32,
    /// The alpha-beta search's depth before that, in plies.
    pub depth: u32,
    /// The transposition tables' size, bytes (the search's, and the one the solves share).
    pub table_bytes: usize,
    /// A solve still running this long after the review began gives up; that move, and every
    /// earlier one still to review, is valued by the search instead (reported as such).
    pub time: Option<Duration>,
}

impl Default for ReviewConfig {
    /// The last 20 empties exact, 12 plies before that, 16 MiB tables (docs/ai.md has the
    /// time a whole game takes).
    fn default() -> Self {
        ReviewConfig {
            exact_empties: 20,
            depth: 12,
            table_bytes: 16 << 20,
            time: None,
        }
    }
}

/// How bad a move was, from its loss in discs (rounded): best 0, good 1-2, inaccuracy 3-5,
/// mistake 6-9, blunder 10 or more.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Class {
    /// No loss: a best move (or the only one).
    Best,
    /// 1-2 discs.
    Good,
    /// 3-5 discs.
    Inaccuracy,
    /// 6-9 discs.
    Mistake,
    /// 10 discs or more.
    Blunder,
}

impl Class {
    /// Every class, best first.
    pub const ALL: [Class; 5] = [
        Class::Best,
        Class::Good,
        Class::Inaccuracy,
        Class::Mistake,
        Class::Blunder,
    ];

    /// The class of a loss of `discs` (never negative).
    pub fn of_loss(discs: f32) -> Class {
        match discs.round() as i32 {
            i32::MIN..=0 => Class::Best,
            1..=2 => Class::Good,
            3..=5 => Class::Inaccuracy,
            6..=9 => Class::Mistake,
            _ => Class::Blunder,
        }
    }

    /// The class's name, as the command line prints it.
    pub fn name(self) -> &'static str {
        match self {
            Class::Best => "best",
            Class::Good => "good",
            Class::Inaccuracy => "inaccuracy",
            Class::Mistake => "mistake",
            Class::Blunder => "blunder",
        }
    }
}

/// One move played, reviewed.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MoveReview {
    /// The move's number among the moves played, from 1 (passes not counted).
    pub ply: usize,
    /// Who played it.
    pub side: Side,
    /// The move played.
    pub played: Move,
    /// A best move in the position (the played one when it is as good as any).
    pub best: Move,
    /// The best move's value, discs for `side` (the final margin with best play when exact).
    pub best_value: f32,
    /// The played move's value, discs for `side`.
    pub played_value: f32,
    /// Whether both values are exact (solved), not from the search.
    pub exact: bool,
}

impl MoveReview {
    /// What the move cost: best minus played, never negative.
    pub fn loss(&self) -> f32 {
        (self.best_value - self.played_value).max(0.0)
    }

    /// The move's class.
    pub fn class(&self) -> Class {
        Class::of_loss(self.loss())
    }
}

/// One player's moves in a review.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Accuracy {
    /// Moves reviewed.
    pub moves: u32,
    /// Their average loss, discs.
    pub average_loss: f32,
    /// How many fell in each class, in [`Class::ALL`]'s order.
    pub counts: [u32; 5],
    /// The sum of the moves' [`move_accuracy`] ([`Accuracy::percent`] is its mean).
    pub accuracy_sum: f32,
}

impl Accuracy {
    /// The loss, in discs, that halves a move's accuracy ([`move_accuracy`]).
    pub const HALF_LOSS: f32 = 5.0;

    /// The player's accuracy as a percentage (0-100): the mean of [`move_accuracy`] over their
    /// moves, so one blunder lowers it by a bounded amount instead of ruling it as it rules
    /// the average loss. `None` without a move.
    pub fn percent(&self) -> Option<f32> {
        (self.moves > 0).then(|| self.accuracy_sum / self.moves as f32)
    }

    /// How many moves were an inaccuracy or worse: the ones a coach points at.
    pub fn marked(&self) -> u32 {
        self.counts[Class::Inaccuracy as usize..].iter().sum()
    }
}

/// One move's accuracy, 0-100, from its loss in discs: 100 for a best move, halved every
/// [`Accuracy::HALF_LOSS`] discs lost (1 disc: 87, 3: 66, 5: 50, 10: 25, 20: 6).
pub fn move_accuracy(loss: f32) -> f32 {
    100.0 * 0.5f32.powf(loss.max(0.0) / Accuracy::HALF_LOSS)
}

/// A reviewed game.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Review {
    /// Every move played (passes left out), in order.
    pub moves: Vec<MoveReview>,
}

impl Review {
    /// The review as text, one word per move in order,
    /// `SIDE:PLAYED:BEST:BEST_VALUE:PLAYED_VALUE:KIND` (`b` or `w`; discs as written by
    /// Rust, which read back exactly; `e` exact or `s` from the search), for example
    /// `b:g6:h5:6:-2:e`: what the app saves with a game and the browser's engine worker sends
    /// back ([`crate::wire::Reply::Reviewed`]). [`Review::parse`] reads it.
    pub fn to_text(&self) -> String {
        let words: Vec<String> = self
            .moves
            .iter()
            .map(|m| {
                let side = match m.side {
                    Side::Black => 'b',
                    Side::White => 'w',
                };
                let kind = if m.exact { 'e' } else { 's' };
                format!(
                    "{side}:{}:{}:{}:{}:{kind}",
                    m.played, m.best, m.best_value, m.played_value
                )
            })
            .collect();
        words.join(" ")
    }

    /// Reads [`Review::to_text`]'s form (the moves numbered from 1 in order).
    ///
    /// # Errors
    /// Which word (from 1) is wrong and why.
    pub fn parse(text: &str) -> Result<Review, String> {
        let mut moves = Vec::new();
        for (i, word) in text.split_ascii_whitespace().enumerate() {
            let bad = |why: &str| format!("word {}: {word:?} {why}", i + 1);
            let parts: Vec<&str> = word.split(':').collect();
            let [side, played, best, best_value, played_value, kind] = parts[..] else {
                return Err(bad("is not SIDE:PLAYED:BEST:BEST_VALUE:PLAYED_VALUE:KIND"));
            };
            let side = match side {
                "b" => Side::Black,
                "w" => Side::White,
                _ => return Err(bad("has a side that is neither b nor w")),
            };
            let square = |t: &str| match t.parse::<Move>() {
                Ok(mv @ Move::Play(_)) => Ok(mv),
                _ => Err(bad("has a move that is not a square")),
            };
            let value = |t: &str| match t.parse::<f32>() {
                Ok(v) if v.is_finite() && v.abs() <= 64.0 => Ok(v),
                _ => Err(bad("has a value that is not a disc count within 64")),
            };
            let exact = match kind {
                "e" => true,
                "s" => false,
                _ => return Err(bad("is neither e (exact) nor s (search)")),
            };
            moves.push(MoveReview {
                ply: i + 1,
                side,
                played: square(played)?,
                best: square(best)?,
                best_value: value(best_value)?,
                played_value: value(played_value)?,
                exact,
            });
        }
        Ok(Review { moves })
    }

    /// `side`'s accuracy.
    pub fn accuracy(&self, side: Side) -> Accuracy {
        let mut a = Accuracy::default();
        let mut total = 0.0;
        for m in self.moves.iter().filter(|m| m.side == side) {
            a.moves += 1;
            total += m.loss();
            a.counts[m.class() as usize] += 1;
            a.accuracy_sum += move_accuracy(m.loss());
        }
        if a.moves > 0 {
            a.average_loss = total / a.moves as f32;
        }
        a
    }
}

impl Review {
    /// `side`'s costliest move (the first of equals), if it lost anything.
    pub fn worst(&self, side: Side) -> Option<&MoveReview> {
        self.moves
            .iter()
            .filter(|m| m.side == side && m.class() != Class::Best)
            .fold(None, |worst: Option<&MoveReview>, m| match worst {
                Some(w) if w.loss() >= m.loss() => Some(w),
                _ => Some(m),
            })
    }

    /// `side`'s inaccuracies and worse, in the order played.
    pub fn marked(&self, side: Side) -> impl Iterator<Item = &MoveReview> {
        self.moves
            .iter()
            .filter(move |m| m.side == side && m.class() >= Class::Inaccuracy)
    }
}

/// Reviews every move of `game` on the board (its history). `progress(done, total)` is called
/// after each move reviewed, and `cancel`'s iterations count the moves reviewed so far (its
/// observer told: the browser's worker posts them; the review's searches count nothing on
/// it). `None` if `cancel` was set before the review was done. The
/// figures are the same for the same game and configuration (no clock in the search; a solve
/// that gives up at `config.time` is the only thing that can change them).
pub fn review(
    game: &Game,
    config: &ReviewConfig,
    cancel: Option<&CancelHandle>,
    mut progress: impl FnMut(usize, usize),
) -> Option<Review> {
    let variant = game.variant();
    let positions = game.positions();
    // The moves to review: (the position before, the move), passes left out.
    let played: Vec<(Position, Move)> = positions
        .iter()
        .zip(game.history())
        .filter(|(_, mv)| **mv != Move::Pass)
        .map(|(pos, mv)| (*pos, *mv))
        .collect();
    let total = played.len();
    let deadline = config.time.map(|t| Instant::now() + t);
    // One table for every solve: solved from the end, a position's solve finds what the
    // solves of the positions after it stored.
    let mut solve_table = SolveTable::new(config.table_bytes);
    let mut reviewed = vec![None; total];
    // From the end: the exact part first, so a solve that gives up leaves the search to every
    // move before it.
    let mut solving = true;
    for (i, (pos, mv)) in played.iter().enumerate().rev() {
        if cancel.is_some_and(CancelHandle::is_cancelled) {
            return None;
        }
        let exact = solving && pos.empties().count() <= config.exact_empties;
        let values = if exact {
            let solved = exact_values(&mut solve_table, pos, *mv, variant, deadline, cancel);
            if solved.is_none() {
                if cancel.is_some_and(CancelHandle::is_cancelled) {
                    return None;
                }
                solving = false;
            }
            solved
        } else {
            // The solves are over (the review runs from the end): their table's memory goes
            // back before the search fills its own, so a review holds one table at a time.
            solve_table = SolveTable::new(0);
            None
        };
        let (best, best_value, played_value, exact) = match values {
            Some((best, b, p)) => (best, b as f32, p as f32, true),
            None => {
                // A table of its own for each position, as [`move_values`] searches: a move's
                // figure here is the one the values on the squares give it, whatever the
                // positions reviewed before.
                let mut search = review_search(variant, config.table_bytes);
                let (best, b, p) = searched_values(&mut search, pos, *mv, variant, config.depth);
                (best, b, p, false)
            }
        };
        reviewed[i] = Some(MoveReview {
            ply: i + 1,
            side: pos.side_to_move(),
            played: *mv,
            best,
            best_value,
            played_value,
            exact,
        });
        progress(total - i, total);
        if let Some(handle) = cancel {
            handle.set_iterations((total - i) as u64);
        }
    }
    Some(Review {
        moves: reviewed.into_iter().flatten().collect(),
    })
}

/// The best move and the exact final margins of the best and the played move, for the side to
/// move; `None` if a solve gave up.
fn exact_values(
    table: &mut SolveTable,
    pos: &Position,
    played: Move,
    variant: Variant,
    deadline: Option<Instant>,
    cancel: Option<&CancelHandle>,
) -> Option<(Move, i32, i32)> {
    let best = solve_in(table, pos, variant, deadline, cancel)?;
    if best.best == played {
        return Some((best.best, best.score, best.score));
    }
    let played_value = solved_move(table, pos, played, variant, deadline, cancel)?;
    Some((best.best, best.score, played_value))
}

/// The exact final margin of playing `mv` in `pos`, for the side to move; `None` if the
/// solve gave up.
fn solved_move(
    table: &mut SolveTable,
    pos: &Position,
    mv: Move,
    variant: Variant,
    deadline: Option<Instant>,
    cancel: Option<&CancelHandle>,
) -> Option<i32> {
    let child = variant.play_unchecked(pos, mv);
    Some(if variant.is_game_over(&child) {
        // The child is the opponent's to move: its margin, turned round.
        -final_margin(child.player().0, child.opponent().0)
    } else {
        -solve_in(table, &child, variant, deadline, cancel)?.score
    })
}

/// The review's alpha-beta: the learned evaluation, Multi-ProbCut as shipped, a fresh table of
/// `table_bytes` (the review's, the values' and the estimate's searches are the same search).
fn review_search(variant: Variant, table_bytes: usize) -> FixedDepth<'static> {
    FixedDepth::new(eval::builtin(), variant, table_bytes, DEFAULT_PROBCUT)
}

/// The best move and the values (discs) of the best and the played move, `depth` plies deep,
/// for the side to move.
fn searched_values(
    search: &mut FixedDepth<'_>,
    pos: &Position,
    played: Move,
    variant: Variant,
    depth: u32,
) -> (Move, f32, f32) {
    let mut best = (played, i32::MIN);
    let mut played_value = 0;
    for (mv, v) in searched_move_values(search, pos, variant, depth) {
        if mv == played {
            played_value = v;
        }
        // Ties go to the played move, then to the first found.
        if v > best.1 || (v == best.1 && mv == played) {
            best = (mv, v);
        }
    }
    (best.0, discs(best.1), discs(played_value))
}

/// A search's value (the evaluation's units) in discs.
fn discs(v: i32) -> f32 {
    v as f32 / SCALE as f32
}

/// Every move of `pos` with its value for the side to move, `depth` plies deep, in the order
/// the rules list them.
fn searched_move_values(
    search: &mut FixedDepth<'_>,
    pos: &Position,
    variant: Variant,
    depth: u32,
) -> Vec<(Move, i32)> {
    variant
        .moves(pos)
        .into_iter()
        .map(|mv| {
            let child = variant.play_unchecked(pos, mv);
            let v = -search.value(
                child.player().0,
                child.opponent().0,
                depth.saturating_sub(1),
            );
            (mv, v)
        })
        .collect()
}

/// How every legal move of a position is valued ([`move_values`]): the hint's figures on the
/// squares, the review's at a move, and the judge of a try at the better move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ValuesConfig {
    /// Positions with at most this many empty squares are solved exactly, move by move.
    pub exact_empties: u32,
    /// The alpha-beta search's depth before that, in plies.
    pub depth: u32,
    /// The transposition tables' size, bytes.
    pub table_bytes: usize,
}

impl Default for ValuesConfig {
    /// The review's reach and depth (20 empties exact, 12 plies before; a try at a move the
    /// review judged is judged the same way), with 16 MiB tables: docs/ai.md has the times.
    fn default() -> Self {
        let review = ReviewConfig::default();
        ValuesConfig {
            exact_empties: review.exact_empties,
            depth: review.depth,
            table_bytes: review.table_bytes,
        }
    }
}

/// One legal move and its value for the side to move.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MoveValue {
    /// The move (a square: a lone pass is not valued).
    pub mv: Move,
    /// Its value, discs for the side to move: the final margin with best play when exact.
    pub value: f32,
    /// Whether the value is exact (solved).
    pub exact: bool,
}

/// How many plies the best line ([`Valuation::line`]) follows at most: the best move and a
/// few replies, what a player reads at a glance and steps through.
pub const LINE_PLIES: usize = 5;

/// What [`move_values`] finds in a position: every legal move's value, and the best line.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Valuation {
    /// Every legal move with its value for the side to move, best first.
    pub moves: Vec<MoveValue>,
    /// The best line from the position: the best move (the first of `moves`), then each side's
    /// best reply by the same search, passes included, [`LINE_PLIES`] at most and shorter
    /// where the game ends. Empty when `moves` is.
    pub line: Vec<Move>,
}

/// Every legal move of `pos` with its value for the side to move, best first (ties in the
/// order the rules list the moves), and the best line from it: each move solved exactly
/// within `config.exact_empties` of the end (one table shared by the solves, the line's
/// included), else searched `config.depth` plies deep by the review's alpha-beta, so a move's
/// figure here is the figure the review gives it; the line then follows each side's best
/// reply one ply shallower at each step, in the same table (the searched line is the
/// principal variation of the search that valued the best move). Empty when the side to move
/// has no square to play. `None` if `cancel` was set before the end. The same position and
/// configuration give the same figures and line.
pub fn move_values(
    pos: &Position,
    variant: Variant,
    config: &ValuesConfig,
    cancel: Option<&CancelHandle>,
) -> Option<Valuation> {
    let squares: Vec<Move> = variant
        .moves(pos)
        .into_iter()
        .filter(|mv| *mv != Move::Pass)
        .collect();
    let mut values = Vec::with_capacity(squares.len());
    if variant.in_free_opening(pos) || squares.is_empty() {
        return Some(Valuation::default());
    }
    let exact = pos.empties().count() <= config.exact_empties;
    let mut table = SolveTable::new(if exact { config.table_bytes } else { 0 });
    let mut search = (!exact).then(|| review_search(variant, config.table_bytes));
    if let Some(search) = search.as_mut() {
        for (mv, v) in searched_move_values(search, pos, variant, config.depth) {
            if cancel.is_some_and(CancelHandle::is_cancelled) {
                return None;
            }
            values.push(MoveValue {
                mv,
                value: discs(v),
                exact: false,
            });
        }
    } else {
        for mv in squares {
            if cancel.is_some_and(CancelHandle::is_cancelled) {
                return None;
            }
            let value = solved_move(&mut table, pos, mv, variant, None, cancel)?;
            values.push(MoveValue {
                mv,
                value: value as f32,
                exact: true,
            });
        }
    }
    values.sort_by(|a, b| b.value.total_cmp(&a.value));
    // The line: the best move, then the best reply of each position after it.
    let mut line = vec![values[0].mv];
    let mut at = variant.play_unchecked(pos, values[0].mv);
    while line.len() < LINE_PLIES && !variant.is_game_over(&at) {
        if cancel.is_some_and(CancelHandle::is_cancelled) {
            return None;
        }
        let moves = variant.moves(&at);
        let next = match (moves.as_slice(), search.as_mut()) {
            ([only], _) => *only,
            (_, Some(search)) => {
                let depth = config.depth.saturating_sub(line.len() as u32).max(1);
                let mut best = (moves[0], i32::MIN);
                for (mv, v) in searched_move_values(search, &at, variant, depth) {
                    if v > best.1 {
                        best = (mv, v);
                    }
                }
                best.0
            }
            (_, None) => solve_in(&mut table, &at, variant, None, cancel)?.best,
        };
        line.push(next);
        at = variant.play_unchecked(&at, next);
    }
    Some(Valuation {
        moves: values,
        line,
    })
}

/// How the win bar's estimate is made: cheap enough to run after every ply (docs/ai.md has
/// its times).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EstimateConfig {
    /// The alpha-beta search's depth, in plies.
    pub depth: u32,
    /// Positions with at most this many empty squares are solved exactly.
    pub exact_empties: u32,
    /// The transposition table's size, bytes.
    pub table_bytes: usize,
}

impl Default for EstimateConfig {
    /// 10 plies, exact from 16 empty squares, a 4 MiB table: a few milliseconds natively.
    fn default() -> Self {
        EstimateConfig {
            depth: 10,
            exact_empties: 16,
            table_bytes: 4 << 20,
        }
    }
}

/// The engine's estimate of how a position ends: the final disc margin with good play by both
/// sides, from Black's side (positive: Black ahead); the empty squares of a game that ends
/// early count for its winner, until it has ended ([`final_estimate`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Estimate {
    /// Black's final margin, discs (-64..=64).
    pub black_margin: f32,
    /// Whether it is exact (the game is over, or the solver reached the end).
    pub exact: bool,
}

impl Estimate {
    /// The margin from `side`'s side.
    pub fn margin_for(self, side: Side) -> f32 {
        match side {
            Side::Black => self.black_margin,
            Side::White => -self.black_margin,
        }
    }

    /// Black's expected share of the 64 squares at the end (0..=1), for a bar split by discs.
    pub fn black_share(self) -> f32 {
        ((32.0 + self.black_margin / 2.0) / 64.0).clamp(0.0, 1.0)
    }

    /// The margin rounded to whole discs, as a player reads it (`+6`, never `-0`).
    pub fn rounded(self) -> i32 {
        self.black_margin.round() as i32
    }
}

/// Estimates how `pos` ends under `variant`'s rules ([`Estimate`]): the final margin if the
/// game is over, the solver's exact value within `config.exact_empties` of the end, a
/// `config.depth`-ply alpha-beta search with the learned evaluation before that. `None` while
/// the discs of a free opening are being placed. No clock: the same position gives the same
/// estimate.
pub fn estimate(pos: &Position, variant: Variant, config: &EstimateConfig) -> Option<Estimate> {
    if variant.in_free_opening(pos) {
        return None;
    }
    if variant.is_game_over(pos) {
        return final_estimate(pos, variant);
    }
    let side = pos.side_to_move();
    let (p, o) = (pos.player().0, pos.opponent().0);
    let (mine, exact) = if pos.empties().count() <= config.exact_empties {
        let solved = solve(pos, variant, config.table_bytes, None, None)?;
        (solved.score as f32, true)
    } else {
        let mut search = review_search(variant, config.table_bytes);
        let v = search.value(p, o, config.depth);
        (v as f32 / SCALE as f32, false)
    };
    Some(for_black(side, mine, exact))
}

/// A finished game's estimate: its result as the board shows it, the discs' difference (the
/// margin the game's result gives, [`crate::game::GameResult::margin`]), exact; `None` while the game
/// goes on. The searches before the end value a line with the empty squares to the winner, as
/// the rules of play count it, but once the game is over the bar and the result line must say
/// the same "by 42" of a 52-10 finish, not 44. No search and no evaluation: what the browser's
/// page works out itself (the evaluation's weights live in the engine's worker, not in the
/// page's module).
pub fn final_estimate(pos: &Position, variant: Variant) -> Option<Estimate> {
    if !variant.is_game_over(pos) {
        return None;
    }
    Some(for_black(
        Side::Black,
        f32::from(pos.score().margin()),
        true,
    ))
}

/// The estimate of a margin `mine` for `side`, turned to Black's side.
fn for_black(side: Side, mine: f32, exact: bool) -> Estimate {
    let black = match side {
        Side::Black => mine,
        Side::White => -mine,
    };
    // (+ 0.0 turns a -0.0 into 0.0: an even position is never written "-0".)
    Estimate {
        black_margin: black.clamp(-64.0, 64.0) + 0.0,
        exact,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::transcript;

    fn game(moves: &str) -> Game {
        transcript::parse(moves, Variant::Othello).expect("a legal transcript")
    }

    /// FFO #20 (20 empties, Black to move): the suite's own values are H5 +6, G6 -2, F6 -4,
    /// H6 -10. G6 costs 8 discs (a mistake), H6 16 (a blunder), exactly.
    #[test]
    fn exact_losses_agree_with_the_ffo_suites_values() {
        let text = include_str!("../../tests/data/ffo-20-39.obf");
        let ffo20 = crate::notation::obf::parse_line(text.lines().next().expect("a line"), 1)
            .expect("FFO #20 parses");
        let config = ReviewConfig::default();
        for (played, loss, class) in [("g6", 8.0, Class::Mistake), ("h6", 16.0, Class::Blunder)] {
            let mut game = Game::from_position(ffo20.position, Variant::Othello);
            game.play(Move::Play(played.parse().expect("a square")))
                .expect("legal");
            let review = review(&game, &config, None, |_, _| {}).expect("not cancelled");
            let m = review.moves[0];
            assert!(m.exact, "20 empties are solved");
            assert_eq!((m.best.to_string().as_str(), m.best_value), ("h5", 6.0));
            assert_eq!(m.loss(), loss, "{played}: {m:?}");
            assert_eq!(m.class(), class);
            let expected = ffo20.scores.iter().find(|(mv, _)| *mv == m.played);
            assert_eq!(expected.map(|&(_, v)| v as f32), Some(m.played_value));
            let black = review.accuracy(Side::Black);
            assert_eq!((black.moves, black.average_loss), (1, loss));
            assert_eq!(black.counts[class as usize], 1);
        }
    }

    /// A review reads back from its text exactly (values with fractions too), and a damaged
    /// text is refused saying which word and why.
    #[test]
    fn a_review_reads_back_from_its_text_and_bad_text_is_refused() {
        let review = review(&game("f5d6c3d3c4f4"), &shallow(), None, |_, _| {}).expect("done");
        assert_eq!(review.moves.len(), 6);
        let text = review.to_text();
        assert_eq!(Review::parse(&text), Ok(review.clone()), "{text}");
        let fraction = Review {
            moves: vec![MoveReview {
                ply: 1,
                side: Side::White,
                played: Move::Play("c4".parse().expect("square")),
                best: Move::Play("b3".parse().expect("square")),
                best_value: 1.234_567_9,
                played_value: -6.5,
                exact: false,
            }],
        };
        assert_eq!(fraction.to_text(), "w:c4:b3:1.2345679:-6.5:s");
        assert_eq!(Review::parse(&fraction.to_text()), Ok(fraction));
        assert_eq!(Review::parse(""), Ok(Review::default()));
        for (bad, why) in [
            ("b:f5:f5:0:0", "word 1"),
            ("b:f5:f5:0:0:e x:f5:f5:0:0:e", "word 2"),
            ("b:f5:PA:0:0:e", "not a square"),
            ("b:f5:f5:NaN:0:e", "within 64"),
            ("b:f5:f5:0:65:e", "within 64"),
            ("b:f5:f5:0:0:x", "neither e"),
        ] {
            let e = Review::parse(bad).expect_err(bad);
            assert!(e.contains(why), "{bad}: {e}");
        }
    }

    /// A quick search for the tests that need no depth.
    fn shallow() -> ReviewConfig {
        ReviewConfig {
            depth: 4,
            ..ReviewConfig::default()
        }
    }

    #[test]
    fn an_opening_is_reviewed_by_the_search_move_by_move() {
        let game = game("f5d6c3d3c4f4f6");
        let config = shallow();
        let mut calls = Vec::new();
        let review = review(&game, &config, None, |done, total| {
            calls.push((done, total))
        })
        .expect("not cancelled");
        assert_eq!(review.moves.len(), 7);
        assert_eq!(calls.last(), Some(&(7, 7)), "progress up to the whole game");
        for (i, m) in review.moves.iter().enumerate() {
            assert_eq!(m.ply, i + 1);
            assert_eq!(m.side, if i % 2 == 0 { Side::Black } else { Side::White });
            assert!(!m.exact && m.loss() >= 0.0 && m.best_value >= m.played_value);
            assert_eq!(m.played, game.history()[i]);
            if m.best == m.played {
                assert_eq!(m.loss(), 0.0);
            }
        }
        // The same game, the same figures.
        assert_eq!(super::review(&game, &config, None, |_, _| {}), Some(review));
    }

    #[test]
    fn a_cancelled_review_stops_and_returns_nothing() {
        let game = game("f5d6c3d3c4f4f6f3e6e7");
        let config = shallow();
        let cancel = CancelHandle::new();
        let mut seen = 0;
        let result = review(&game, &config, Some(&cancel), |done, _| {
            seen = done;
            cancel.cancel();
        });
        assert_eq!(result, None);
        assert_eq!(seen, 1, "stopped after the move that was under way");
    }

    /// The handle's count (and what its observer is told: the browser's worker posts it) is
    /// the moves reviewed, one by one, even where the move is solved exactly.
    #[test]
    fn the_handle_counts_the_moves_reviewed_not_the_solvers_nodes() {
        use std::sync::atomic::{AtomicU64, Ordering};
        static MOST: AtomicU64 = AtomicU64::new(0);
        let text = include_str!("../../tests/data/ffo-20-39.obf");
        let ffo20 = crate::notation::obf::parse_line(text.lines().next().expect("a line"), 1)
            .expect("FFO #20 parses");
        let mut game = Game::from_position(ffo20.position, Variant::Othello);
        game.play(Move::Play("g6".parse().expect("a square")))
            .expect("legal");
        let cancel = CancelHandle::observed(|n| {
            MOST.fetch_max(n, Ordering::Relaxed);
        });
        let review = review(&game, &ReviewConfig::default(), Some(&cancel), |_, _| {});
        assert!(review.is_some_and(|r| r.moves.len() == 1 && r.moves[0].exact));
        assert_eq!(cancel.iterations(), 1, "one move reviewed");
        assert_eq!(MOST.load(Ordering::Relaxed), 1, "told the moves, not nodes");
    }

    fn reviewed(
        side: Side,
        played: &str,
        best: &str,
        best_value: f32,
        played_value: f32,
    ) -> MoveReview {
        MoveReview {
            ply: 0,
            side,
            played: Move::Play(played.parse().expect("a square")),
            best: Move::Play(best.parse().expect("a square")),
            best_value,
            played_value,
            exact: true,
        }
    }

    /// A whole game's review gives each move the figures the values of its position give it
    /// (best and played), whatever positions were reviewed before it.
    #[test]
    fn a_review_agrees_with_the_values_of_each_position() {
        let game = game("f5d6c3d3c4f4f6f3e6e7");
        let config = shallow();
        let values_config = ValuesConfig {
            exact_empties: config.exact_empties,
            depth: config.depth,
            table_bytes: config.table_bytes,
        };
        let review = review(&game, &config, None, |_, _| {}).expect("done");
        for (m, pos) in review.moves.iter().zip(game.positions()) {
            let values = move_values(pos, Variant::Othello, &values_config, None)
                .expect("not cancelled")
                .moves;
            let played = values.iter().find(|v| v.mv == m.played).expect("legal");
            assert_eq!(
                (m.best_value, m.played_value),
                (values[0].value, played.value)
            );
        }
    }

    /// Every move's value agrees with a separate look at that move: the review's figure for
    /// it played (searched, and solved near the end), the solver's own, and the best first.
    #[test]
    fn move_values_equal_a_separate_search_of_each_move() {
        // Searched: each move's value is the review's played value of that move.
        let opening = game("f5d6c3d3c4");
        let config = ValuesConfig {
            depth: 4,
            ..ValuesConfig::default()
        };
        let values = move_values(&opening.position(), Variant::Othello, &config, None)
            .expect("not cancelled")
            .moves;
        assert_eq!(values.len(), opening.moves().len());
        assert!(
            values.windows(2).all(|w| w[0].value >= w[1].value),
            "best first"
        );
        let review_config = ReviewConfig {
            depth: 4,
            ..ReviewConfig::default()
        };
        for v in &values {
            assert!(!v.exact);
            let mut tried = opening.clone();
            tried.play(v.mv).expect("legal");
            let review = review(&tried, &review_config, None, |_, _| {}).expect("done");
            let last = review.moves.last().expect("the move");
            assert_eq!(last.played_value, v.value, "{}", v.mv);
            assert_eq!(last.best_value, values[0].value);
        }
        // Exact: FFO #20's own values (H5 +6, G6 -2, F6 -4, H6 -10).
        let text = include_str!("../../tests/data/ffo-20-39.obf");
        let ffo20 = crate::notation::obf::parse_line(text.lines().next().expect("a line"), 1)
            .expect("FFO #20 parses");
        let values = move_values(
            &ffo20.position,
            Variant::Othello,
            &ValuesConfig::default(),
            None,
        )
        .expect("not cancelled")
        .moves;
        assert!(values.iter().all(|v| v.exact));
        for (mv, score) in &ffo20.scores {
            let found = values
                .iter()
                .find(|v| v.mv == *mv)
                .expect("every move valued");
            assert_eq!(found.value, *score as f32, "{mv}");
        }
        assert_eq!(values[0].mv.to_string(), "h5");
        // A cancelled valuation answers nothing.
        let cancel = CancelHandle::new();
        cancel.cancel();
        assert_eq!(
            move_values(
                &ffo20.position,
                Variant::Othello,
                &ValuesConfig::default(),
                Some(&cancel)
            ),
            None
        );
    }

    /// The best line starts with the best move and follows each side's best reply: solved, each
    /// move of the line keeps the solver's exact score (the margin never changes along a
    /// perfect line, turned round each ply); searched, each reply is the best of the values one
    /// ply shallower; passes are in it; it ends with the game or after [`LINE_PLIES`].
    #[test]
    fn the_best_line_follows_each_sides_best_reply() {
        // The suite's second position: 15 empties, White to move.
        let text = include_str!("../../tests/data/ffo-20-39.obf");
        let ffo = crate::notation::obf::parse_line(text.lines().nth(1).expect("a line"), 2)
            .expect("the position parses");
        let valued = move_values(
            &ffo.position,
            Variant::Othello,
            &ValuesConfig::default(),
            None,
        )
        .expect("not cancelled");
        assert_eq!(valued.line.len(), LINE_PLIES, "{:?}", valued.line);
        assert_eq!(valued.line[0], valued.moves[0].mv);
        let best = valued.moves[0].value as i32;
        let mut at = ffo.position;
        for (ply, mv) in valued.line.iter().enumerate() {
            let solution = solve(&at, Variant::Othello, 1 << 22, None, None).expect("solved");
            // The side to move's own best score: the line keeps the margin.
            let mover_sign = if at.side_to_move() == ffo.position.side_to_move() {
                1
            } else {
                -1
            };
            assert_eq!(solution.score * mover_sign, best, "ply {ply} ({mv})");
            let child = Variant::Othello.play_unchecked(&at, *mv);
            let after = if Variant::Othello.is_game_over(&child) {
                -final_margin(child.player().0, child.opponent().0)
            } else {
                -solve(&child, Variant::Othello, 1 << 22, None, None)
                    .expect("solved")
                    .score
            };
            assert_eq!(after, solution.score, "{mv} keeps the score at ply {ply}");
            at = child;
        }
        // Searched: each reply is the best of its position's values one ply shallower.
        let opening = game("f5d6c3d3c4");
        let config = ValuesConfig {
            depth: 5,
            ..ValuesConfig::default()
        };
        let valued = move_values(&opening.position(), Variant::Othello, &config, None)
            .expect("not cancelled");
        assert_eq!(valued.line.len(), LINE_PLIES);
        assert_eq!(valued.line[0], valued.moves[0].mv);
        let mut at = Variant::Othello.play_unchecked(&opening.position(), valued.line[0]);
        for (ply, mv) in valued.line.iter().enumerate().skip(1) {
            let mut search = review_search(Variant::Othello, config.table_bytes);
            let depth = (config.depth - ply as u32).max(1);
            let values = searched_move_values(&mut search, &at, Variant::Othello, depth);
            let top = values.iter().map(|(_, v)| *v).max().expect("moves");
            let mine = values.iter().find(|(m, _)| m == mv).expect("legal").1;
            assert_eq!(mine, top, "{mv} at ply {ply} is a best reply");
            at = Variant::Othello.play_unchecked(&at, *mv);
        }
        // The last positions of a game: every line is legal, passes where a side must pass,
        // and one ends with the game before its last ply.
        let played = game(concat!(
            "f5f6f7g5e6d7h4d6e7d3c3b3d2f8d8c8e3g6h6h5g4h3h2e1c7f4f3g3a3e8d1c1e2f2f1b4b1b6",
            "c2g7c5b5h8g2h7g1h1a5c6b2a2a1g8a4c4a7b7b8"
        ));
        let (mut passes, mut ended) = (0, 0);
        for pos in played
            .positions()
            .iter()
            .filter(|p| p.empties().count() <= 12)
        {
            let Some(valued) = move_values(pos, Variant::Othello, &ValuesConfig::default(), None)
            else {
                panic!("not cancelled")
            };
            let mut at = *pos;
            for mv in &valued.line {
                assert!(Variant::Othello.moves(&at).contains(mv), "{mv} legal");
                passes += usize::from(*mv == Move::Pass);
                at = Variant::Othello.play_unchecked(&at, *mv);
            }
            if !valued.line.is_empty() && valued.line.len() < LINE_PLIES {
                assert!(
                    Variant::Othello.is_game_over(&at),
                    "a short line ends the game"
                );
                ended += 1;
            }
        }
        assert!(
            passes > 0 && ended > 0,
            "{passes} passes, {ended} lines to the end"
        );
    }

    /// The percentage halves every five discs lost, is the mean over a player's moves, and a
    /// player's worst move and marked moves are theirs alone, in order.
    #[test]
    fn accuracy_worst_move_and_marked_moves_follow_the_losses() {
        assert_eq!(move_accuracy(0.0), 100.0);
        assert_eq!(move_accuracy(5.0), 50.0);
        assert_eq!(move_accuracy(10.0), 25.0);
        assert!((move_accuracy(1.0) - 87.055).abs() < 0.01);
        let mut review = Review {
            moves: vec![
                reviewed(Side::Black, "f5", "f5", 0.0, 0.0),
                reviewed(Side::White, "f6", "d6", 2.0, -10.0),
                reviewed(Side::Black, "e6", "d3", 4.0, 0.0),
                reviewed(Side::White, "f4", "f4", 6.0, 6.0),
                reviewed(Side::Black, "e3", "g5", 3.0, -7.0),
                reviewed(Side::White, "d3", "c3", 1.0, 0.0),
                reviewed(Side::Black, "c4", "c3", 0.0, -10.0),
            ],
        };
        for (i, m) in review.moves.iter_mut().enumerate() {
            m.ply = i + 1;
        }
        let black = review.accuracy(Side::Black);
        assert_eq!((black.moves, black.average_loss), (4, 6.0));
        assert_eq!(black.counts, [1, 0, 1, 0, 2]);
        assert_eq!(black.marked(), 3);
        let expected = (100.0 + move_accuracy(4.0) + 25.0 + 25.0) / 4.0;
        assert!((black.percent().expect("moves") - expected).abs() < 1e-4);
        // The first of two equal losses is the worst; White's 12 is not Black's.
        assert_eq!(review.worst(Side::Black).map(|m| m.ply), Some(5));
        assert_eq!(review.worst(Side::White).map(|m| m.ply), Some(2));
        let marked: Vec<usize> = review.marked(Side::Black).map(|m| m.ply).collect();
        assert_eq!(marked, [3, 5, 7]);
        let marked: Vec<usize> = review.marked(Side::White).map(|m| m.ply).collect();
        assert_eq!(marked, [2]);
        // Nothing lost, nothing worst; no moves, no percentage.
        let clean = Review {
            moves: vec![review.moves[0]],
        };
        assert_eq!(clean.worst(Side::Black), None);
        assert_eq!(clean.accuracy(Side::White).percent(), None);
        assert_eq!(clean.accuracy(Side::Black).percent(), Some(100.0));
    }

    #[test]
    fn classes_follow_the_thresholds() {
        let classes: Vec<Class> = [0.0, 0.4, 1.0, 2.4, 3.0, 5.4, 6.0, 9.4, 10.0, 64.0]
            .into_iter()
            .map(Class::of_loss)
            .collect();
        use Class::*;
        assert_eq!(
            classes,
            [
                Best, Best, Good, Good, Inaccuracy, Inaccuracy, Mistake, Mistake, Blunder, Blunder
            ]
        );
    }

    /// FFO #22 (17 empties, White to move, best G8 +2 for White): solved when within the
    /// estimate's reach and read from Black's side (-2), a search's figure near it when not;
    /// after G8, with Black to move, the same exact figure.
    #[test]
    fn an_estimate_is_blacks_final_margin_exact_within_the_solvers_reach() {
        let text = include_str!("../../tests/data/ffo-20-39.obf");
        let ffo22 = crate::notation::obf::parse_line(text.lines().nth(2).expect("a line"), 3)
            .expect("FFO #22 parses");
        let pos = ffo22.position;
        assert_eq!(
            (pos.side_to_move(), pos.empties().count()),
            (Side::White, 17)
        );
        let best = ffo22.scores.iter().map(|&(_, v)| v).max().expect("scores");
        assert_eq!(best, 2, "the suite's answer");
        let config = EstimateConfig {
            exact_empties: 17,
            ..EstimateConfig::default()
        };
        let exact = estimate(&pos, Variant::Othello, &config).expect("an estimate");
        assert_eq!((exact.black_margin, exact.exact), (-2.0, true));
        assert_eq!((exact.margin_for(Side::White), exact.rounded()), (2.0, -2));
        assert!((exact.black_share() - 31.0 / 64.0).abs() < 1e-6);
        let searched =
            estimate(&pos, Variant::Othello, &EstimateConfig::default()).expect("an estimate");
        assert!(!searched.exact, "17 empties are beyond the default reach");
        assert!(
            (searched.black_margin + 2.0).abs() < 10.0,
            "{searched:?} against -2"
        );
        let mut game = Game::from_position(pos, Variant::Othello);
        game.play(Move::Play("g8".parse().expect("a square")))
            .expect("legal");
        let after = game.position();
        assert_eq!(after.side_to_move(), Side::Black);
        let e = estimate(&after, Variant::Othello, &EstimateConfig::default()).expect("some");
        assert_eq!((e.black_margin, e.exact), (-2.0, true));
    }

    /// A finished game's estimate is its result as the board shows it, the same margin as the
    /// game's result (not the count with the empty squares to the winner); a free opening's
    /// discs being placed have none; and the same position gives the same figure.
    #[test]
    fn a_finished_game_is_its_results_margin_and_a_free_opening_has_none() {
        // Black a1 and b1, White nothing: over, Black wins 2-0 (64-0 with the empties).
        let over = crate::notation::board_string::parse(&format!("XX{} O", "-".repeat(62)))
            .expect("board");
        assert!(Variant::Othello.is_game_over(&over));
        let e = estimate(&over, Variant::Othello, &EstimateConfig::default()).expect("over");
        assert_eq!((e.black_margin, e.exact), (2.0, true));
        assert_eq!(final_estimate(&over, Variant::Othello), Some(e));
        // White's side to move reads the same figure for Black.
        let white_to_move = over.pass();
        assert_eq!(final_estimate(&white_to_move, Variant::Othello), Some(e));
        let going_on = game("f5d6c3").position();
        assert_eq!(final_estimate(&going_on, Variant::Othello), None);
        assert_eq!(e.black_share(), (32.0 + 1.0) / 64.0);
        let empty = Position::empty();
        assert!(Variant::FreeOpening.in_free_opening(&empty));
        assert_eq!(
            estimate(&empty, Variant::FreeOpening, &EstimateConfig::default()),
            None
        );
        let opening = game("f5d6c3d3c4f4").position();
        let config = EstimateConfig::default();
        let once = estimate(&opening, Variant::Othello, &config);
        assert!(
            once.is_some_and(|e| !e.exact && e.black_margin.abs() < 20.0),
            "{once:?}"
        );
        assert_eq!(once, estimate(&opening, Variant::Othello, &config));
    }
}
