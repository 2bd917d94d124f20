//! Endgame puzzles proved by the solver (#71): a position 10 to 16 squares from the end where
//! one move, or two, reaches the best exact result and the move a first look prefers does not;
//! the daily choice among the shipped set; the check that re-proves a puzzle.
//!
//! The shipped set (engine/data/puzzles.txt) is made by the command-line tool from real games
//! (`montello-engine puzzles`, docs/app.md gives the command) and re-proved by this module's
//! tests. A line of it: the position as a board string (row 1 first, `X` black, `O` white,
//! `-` empty, then the side to move), the best exact final margin for the side to move, the
//! moves that reach it, the tempting move with its own exact margin, and the solution line
//! (an answer, then each side's best move to the end):
//!
//! ```text
//! --XXXO--…XO X best +4 answers g2 tempting a1 -6 line g2h1a1…
//! ```

use super::review::{MoveValue, ValuesConfig, move_values};
use crate::eval::Weights;
use crate::notation::{board_string, transcript};
use crate::{FastRng, Game, Move, Position, Square, Variant};
use std::fmt;

/// The set shipped with the app.
pub const SHIPPED: &str = include_str!("../../data/puzzles.txt");

/// The fewest and most empty squares of a puzzle.
pub const EMPTIES: std::ops::RangeInclusive<u32> = 10..=16;

/// What the side to move is asked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Goal {
    /// To win, where the tempting move does not: "Black to move and win".
    Win,
    /// To reach the best result there is: "White to move: best result".
    Best,
}

/// One puzzle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Puzzle {
    /// The position, the side to move to play.
    pub position: Position,
    /// The final disc margin for the side to move with best play by both sides.
    pub best: i32,
    /// The moves that reach `best`: one or two.
    pub answers: Vec<Square>,
    /// The move the evaluation's first look prefers (the learned evaluation one ply deep),
    /// which is not an answer.
    pub tempting: Square,
    /// The margin the tempting move leads to with best play after it.
    pub tempting_value: i32,
    /// The solution: an answer, then each side's best move (exact) to the end, passes
    /// included.
    pub line: Vec<Move>,
}

impl Puzzle {
    /// What the player is asked: to win when the best result wins and the tempting move does
    /// not, else the best result.
    pub fn goal(&self) -> Goal {
        if self.best > 0 && self.tempting_value <= 0 {
            Goal::Win
        } else {
            Goal::Best
        }
    }

    /// Whether a final margin for the side to move meets the goal: the best result, or with
    /// [`Goal::Win`] any win.
    pub fn solved_by(&self, margin: i32) -> bool {
        match self.goal() {
            Goal::Win => margin > 0,
            Goal::Best => margin >= self.best,
        }
    }

    /// The puzzle's line in the set's file.
    pub fn to_line(&self) -> String {
        let answers: Vec<String> = self.answers.iter().map(ToString::to_string).collect();
        format!(
            "{} best {:+} answers {} tempting {} {:+} line {}",
            board_string::to_board_string(&self.position),
            self.best,
            answers.join(","),
            self.tempting,
            self.tempting_value,
            transcript::to_transcript(&self.line)
        )
    }

    /// Reads a line of the set's file (see the module docs).
    pub fn parse_line(line: &str) -> Result<Puzzle, String> {
        let words: Vec<&str> = line.split_whitespace().collect();
        let [
            board,
            side,
            "best",
            best,
            "answers",
            answers,
            "tempting",
            tempting,
            value,
            "line",
            line,
        ] = words.as_slice()
        else {
            return Err(
                "expected: BOARD SIDE best N answers SQ[,SQ] tempting SQ N line MOVES".to_string(),
            );
        };
        let position =
            board_string::parse(&format!("{board} {side}")).map_err(|e| e.to_string())?;
        let number = |text: &str, what: &str| {
            text.parse::<i32>()
                .map_err(|_| format!("{what} is not a number: {text}"))
        };
        let square = |text: &str| {
            text.parse::<Square>()
                .map_err(|_| format!("not a square: {text}"))
        };
        let answers = answers
            .split(',')
            .map(square)
            .collect::<Result<Vec<_>, _>>()?;
        let line = transcript::parse_from(line, position, Variant::Othello)
            .map_err(|e| format!("the line: {e}"))?
            .history()
            .to_vec();
        Ok(Puzzle {
            position,
            best: number(best, "best")?,
            answers,
            tempting: square(tempting)?,
            tempting_value: number(value, "the tempting move's value")?,
            line,
        })
    }

    /// Proves the puzzle again with the solver: every legal move valued exactly, the answers
    /// exactly the moves that reach the best, the tempting move's value right and worse.
    ///
    /// `first_look`: the weights the set was made with (its header names them: `# first look:
    /// FILE`, a file of engine/weights/), so that a new shipped evaluation leaves the set valid.
    pub fn check(&self, first_look: &Weights) -> Result<(), String> {
        let empties = self.position.empties().count();
        if !EMPTIES.contains(&empties) {
            return Err(format!("{empties} empty squares"));
        }
        let values = exact_values(&self.position).ok_or("no move to play")?;
        let best = values[0].value as i32;
        let answers = answers_of(&values);
        if best != self.best {
            return Err(format!("the best is {best:+}, not {:+}", self.best));
        }
        if answers != self.answers {
            return Err(format!(
                "the answers are {answers:?}, not {:?}",
                self.answers
            ));
        }
        let tempting = values
            .iter()
            .find(|v| v.mv == Move::Play(self.tempting))
            .ok_or_else(|| format!("{} is not legal", self.tempting))?;
        if tempting.value as i32 != self.tempting_value || self.tempting_value >= best {
            return Err(format!(
                "the tempting {} gives {:+}, not {:+} below the best",
                self.tempting, tempting.value, self.tempting_value
            ));
        }
        if tempting_move(first_look, &self.position) != Some(self.tempting) {
            return Err(format!("{} is not the first look's move", self.tempting));
        }
        // The line: an answer first, to the end of the game, at the best result.
        let mut end = Game::from_position(self.position, Variant::Othello);
        for &mv in &self.line {
            end.play(mv).map_err(|e| format!("the line: {e}"))?;
        }
        let first = self.line.first().and_then(|m| m.square());
        if !first.is_some_and(|sq| self.answers.contains(&sq)) || !end.is_over() {
            return Err("the line does not open with an answer and play to the end".into());
        }
        let black = i32::from(end.position().score().wof().margin());
        let margin = match self.position.side_to_move() {
            crate::Side::Black => black,
            crate::Side::White => -black,
        };
        if margin != self.best {
            return Err(format!("the line ends at {margin:+}, not {:+}", self.best));
        }
        Ok(())
    }
}

impl fmt::Display for Puzzle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_line())
    }
}

/// Reads a set: one puzzle a line, `#` comments; a bad line is refused with its number.
pub fn parse_set(text: &str) -> Result<Vec<Puzzle>, String> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
        .map(|(n, l)| Puzzle::parse_line(l).map_err(|e| format!("puzzles, line {}: {e}", n + 1)))
        .collect()
}

/// The weights file a set's first looks were taken with: its `# first look: FILE` line (a file
/// of engine/weights/, which `montello-engine puzzles` writes).
pub fn first_look_file(text: &str) -> Option<&str> {
    text.lines()
        .find_map(|l| l.strip_prefix("# first look: "))
        .map(str::trim)
}

/// Every legal move of `pos` valued exactly, best first; `None` without a square to play.
fn exact_values(pos: &Position) -> Option<Vec<MoveValue>> {
    let config = ValuesConfig {
        exact_empties: 64,
        depth: 0,
        table_bytes: 4 << 20,
    };
    let values = move_values(pos, Variant::Othello, &config, None)?.moves;
    (!values.is_empty()).then_some(values)
}

/// The squares whose value is the best, in board order.
fn answers_of(values: &[MoveValue]) -> Vec<Square> {
    let best = values[0].value;
    let mut answers: Vec<Square> = values
        .iter()
        .filter(|v| v.value == best)
        .filter_map(|v| v.mv.square())
        .collect();
    answers.sort_by_key(|s| s.index());
    answers
}

/// The move the learned evaluation `weights` prefers one ply deep (the opponent's evaluation
/// after it lowest; the first in board order on a tie): a player's first look.
pub fn tempting_move(weights: &Weights, pos: &Position) -> Option<Square> {
    Variant::Othello
        .moves(pos)
        .into_iter()
        .filter_map(|mv| mv.square())
        .min_by_key(|&sq| {
            let after = pos.play_unchecked(sq);
            (
                weights.evaluate(after.player(), after.opponent()),
                sq.index(),
            )
        })
}

/// The puzzle `pos` makes, if it makes one: 10 to 16 empty squares, at least three moves, one
/// or two reaching the best exact result, and the first look's move not among them and at
/// least `min_cost` discs worse, the first look by `weights`.
pub fn find(weights: &Weights, pos: &Position, min_cost: i32) -> Option<Puzzle> {
    if !EMPTIES.contains(&pos.empties().count()) || Variant::Othello.is_game_over(pos) {
        return None;
    }
    let legal = Variant::Othello.legal_moves(pos).count();
    if legal < 3 {
        return None;
    }
    let tempting = tempting_move(weights, pos)?;
    let values = exact_values(pos)?;
    let best = values[0].value as i32;
    let answers = answers_of(&values);
    let tempting_value = values
        .iter()
        .find(|v| v.mv == Move::Play(tempting))
        .map(|v| v.value as i32)?;
    if answers.len() > 2 || tempting_value > best - min_cost {
        return None;
    }
    // The solution: the best move (exact) of each position in turn, to the end.
    let mut line = Vec::new();
    let mut at = *pos;
    while !Variant::Othello.is_game_over(&at) {
        let mv = if Variant::Othello.must_pass(&at) {
            Move::Pass
        } else {
            exact_values(&at)?[0].mv
        };
        at = Variant::Othello.play_unchecked(&at, mv);
        line.push(mv);
    }
    Some(Puzzle {
        position: *pos,
        best,
        answers,
        tempting,
        tempting_value,
        line,
    })
}

/// Which of `count` puzzles is the puzzle of day `day` (days since 1970-01-01, the player's
/// calendar): every puzzle once in each run of `count` days, in an order shuffled afresh for
/// each run from a fixed seed, so the same for everyone on a date and never the same two
/// days running.
pub fn of_day(count: usize, day: i64) -> usize {
    assert!(count > 0, "no puzzles");
    if count == 1 {
        return 0;
    }
    let n = count as i64;
    let run = day.div_euclid(n);
    let order = |run: i64| {
        let mut order: Vec<usize> = (0..count).collect();
        let mut rng = FastRng::new(0x7531_5eed ^ (run as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15));
        for i in (1..count).rev() {
            let j = rng.below(i as u32 + 1) as usize;
            order.swap(i, j);
        }
        order
    };
    let mut this = order(run);
    // A run never opens with the puzzle the one before it closed on.
    if this[0] == order(run - 1)[count - 1] {
        this.swap(0, 1);
    }
    this[day.rem_euclid(n) as usize]
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The weights the shipped set's first looks were taken with (its header names the file),
    /// whatever the engine ships now.
    fn first_look() -> Weights {
        let file = first_look_file(SHIPPED).expect("the set names its first look's weights");
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("weights")
            .join(file);
        let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        Weights::decode(&bytes).expect("the first look's weights decode")
    }

    #[test]
    fn every_shipped_puzzle_is_proved_again_by_the_solver() {
        let set = parse_set(SHIPPED).expect("the shipped set reads");
        let first_look = first_look();
        assert!(set.len() >= 100, "{} puzzles", set.len());
        for (i, puzzle) in set.iter().enumerate() {
            puzzle
                .check(&first_look)
                .unwrap_or_else(|e| panic!("puzzle {} ({puzzle}): {e}", i + 1));
            // The round trip through the file's line.
            assert_eq!(
                &Puzzle::parse_line(&puzzle.to_line()).expect("reads"),
                puzzle
            );
        }
        // No position twice.
        let mut seen: Vec<_> = set.iter().map(|p| p.position).collect();
        seen.sort_by_key(|p| (p.player().0, p.opponent().0));
        seen.dedup();
        assert_eq!(seen.len(), set.len());
    }

    #[test]
    fn a_wrong_answer_is_found_out() {
        let set = parse_set(SHIPPED).expect("reads");
        let first_look = first_look();
        let mut wrong = set[0].clone();
        wrong.best += 2;
        assert!(
            wrong
                .check(&first_look)
                .unwrap_err()
                .starts_with("the best is")
        );
        let mut wrong = set[0].clone();
        wrong.answers = vec![wrong.tempting];
        assert!(
            wrong
                .check(&first_look)
                .unwrap_err()
                .starts_with("the answers are")
        );
        let mut wrong = set[0].clone();
        wrong.tempting_value = wrong.best;
        assert!(
            wrong
                .check(&first_look)
                .unwrap_err()
                .starts_with("the tempting")
        );
        // Another evaluation's first look is not the set's.
        let other = crate::eval::heuristic();
        assert!(set.iter().any(|p| {
            p.check(&other)
                .is_err_and(|e| e.ends_with("is not the first look's move"))
        }));
        // A line that opens with the tempting move (then best play) is no solution.
        let mut wrong = set[0].clone();
        let mut g = Game::from_position(wrong.position, Variant::Othello);
        g.play(Move::Play(wrong.tempting)).expect("legal");
        while !g.is_over() {
            let next = exact_values(&g.position()).map_or(Move::Pass, |v| v[0].mv);
            g.play(next).expect("legal");
        }
        wrong.line = g.history().to_vec();
        assert!(
            wrong
                .check(&first_look)
                .unwrap_err()
                .starts_with("the line does not open")
        );
    }

    #[test]
    fn the_day_s_puzzle_is_stable_for_a_date_and_changes_the_next_day() {
        let n = 200;
        let mut counts = vec![0; n];
        for day in 20_000..20_000 + 3 * n as i64 {
            let today = of_day(n, day);
            assert_eq!(today, of_day(n, day), "stable");
            assert_ne!(today, of_day(n, day + 1), "day {day} and the next");
            counts[today] += 1;
        }
        // Each run of n days shows every puzzle once.
        assert!(counts.iter().all(|&c| c == 3), "{counts:?}");
        // Days before 1970 work too.
        assert!(of_day(n, -5) < n);
    }

    #[test]
    fn a_position_with_one_answer_and_a_worse_first_look_is_a_puzzle() {
        // Found in a game of the arena's logs (docs/arena): the generator's own path.
        let set = parse_set(SHIPPED).expect("reads");
        let first_look = first_look();
        let again = find(&first_look, &set[0].position, 1).expect("still a puzzle");
        assert_eq!(again, set[0]);
        // The start is not one (too many empty squares), nor a finished game.
        assert!(find(&first_look, &Position::start(), 1).is_none());
    }

    #[test]
    fn malformed_lines_are_refused_with_where_and_why() {
        let e = parse_set("# x\nnot a puzzle\n").unwrap_err();
        assert!(e.starts_with("puzzles, line 2: expected"), "{e}");
        let line = set_line_with("best", "+x");
        assert!(
            parse_set(&line)
                .unwrap_err()
                .contains("best is not a number")
        );
        let line = set_line_with("answers", "z9");
        assert!(parse_set(&line).unwrap_err().contains("not a square: z9"));
    }

    /// The first shipped line with the word after `key` replaced.
    fn set_line_with(key: &str, value: &str) -> String {
        let first = SHIPPED
            .lines()
            .find(|l| !l.starts_with('#') && !l.trim().is_empty())
            .expect("a puzzle");
        let mut words: Vec<&str> = first.split_whitespace().collect();
        let at = words.iter().position(|w| *w == key).expect("the key");
        words[at + 1] = value;
        words.join(" ")
    }
}
