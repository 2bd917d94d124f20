//! The names of the standard Othello openings (#71): which named line a game is following, and
//! the move where it left the table ("Tiger, left at move 9").
//!
//! The table (engine/data/opening-names.txt, its source in the file and in docs/app.md) holds
//! each named line from the standard start in f5 form. A game is matched by its positions,
//! not its moves: each position after a ply is looked up among every position of every
//! line, under the board's eight symmetries, so a game begun on c4, d3 or e6 (or from the
//! crossed start, which a symmetry that swaps the diagonals turns into the standard one) is
//! named as the f5 line it mirrors, and a move order that transposes into a named line finds
//! it too.

use crate::{Game, Move, Position, Variant};
use std::collections::HashMap;
use std::sync::OnceLock;

/// The table shipped with the engine (see the module docs).
pub const TABLE: &str = include_str!("../data/opening-names.txt");

/// One named line of the table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NamedLine {
    /// Its moves from the standard start, f5 form.
    pub moves: Vec<Move>,
    /// The name shown.
    pub name: String,
    /// The other names the line is known by.
    pub also: Vec<String>,
}

/// Where a game stands against the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OpeningAt<'a> {
    /// The deepest named line the game has followed to its end.
    pub line: &'a NamedLine,
    /// The ply (moves from the game's start, passes included) at which the game reached that
    /// line's last position.
    pub named_at: usize,
    /// The move, numbered from the game's start (from 1), after the last position the table
    /// has; `None` while the position on the board is in it.
    pub left_at: Option<usize>,
}

/// The table, ready to look games up in.
#[derive(Clone, Debug, Default)]
pub struct OpeningNames {
    lines: Vec<NamedLine>,
    /// Every position of every line (its canonical image, the side to move's discs first),
    /// with the line that ends there, if one does.
    positions: HashMap<(u64, u64), Option<usize>>,
}

/// The smallest image of a position among its eight symmetries (the opening book's key).
fn canonical(pos: &Position) -> (u64, u64) {
    let (p, o, _) = crate::eval::canonical(pos.player().0, pos.opponent().0);
    (p, o)
}

impl OpeningNames {
    /// The shipped table, parsed once.
    pub fn shipped() -> &'static OpeningNames {
        static NAMES: OnceLock<OpeningNames> = OnceLock::new();
        NAMES.get_or_init(|| {
            OpeningNames::parse(TABLE).expect("engine/data/opening-names.txt is checked by tests")
        })
    }

    /// Reads a table: `#` comments, then lines of moves and a name (`f5d6c3d3c4 Tiger`,
    /// other names after ` / `). A malformed line is refused with its number and why.
    pub fn parse(text: &str) -> Result<OpeningNames, String> {
        let mut names = OpeningNames::default();
        for (n, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let at = |why: String| format!("opening names, line {}: {why}", n + 1);
            let (moves, name) = line
                .split_once(' ')
                .ok_or_else(|| at("moves and a name expected".into()))?;
            let game = crate::notation::transcript::parse(moves, Variant::Othello)
                .map_err(|e| at(e.to_string()))?;
            let mut all = name.split(" / ").map(|s| s.trim().to_string());
            let name = all
                .next()
                .filter(|s| !s.is_empty())
                .ok_or_else(|| at("no name".into()))?;
            if names.lines.iter().any(|l| l.name == name) {
                return Err(at(format!("{name} is named twice")));
            }
            let index = names.lines.len();
            for (ply, pos) in game.positions().iter().enumerate().skip(1) {
                let entry = names.positions.entry(canonical(pos)).or_insert(None);
                if ply == game.ply() {
                    if let Some(other) = *entry {
                        return Err(at(format!(
                            "the same position as {}",
                            names.lines[other].name
                        )));
                    }
                    *entry = Some(index);
                }
            }
            names.lines.push(NamedLine {
                moves: game.history().to_vec(),
                name,
                also: all.collect(),
            });
        }
        Ok(names)
    }

    /// The named lines, in the table's order.
    pub fn lines(&self) -> &[NamedLine] {
        &self.lines
    }

    /// Where `game` stands: the deepest named line it followed and where it left the table,
    /// or `None` before any named position (no move yet, or a start the table does not
    /// have: an XOT opening, a puzzle, a free opening's placements).
    pub fn of<'a>(&'a self, game: &Game) -> Option<OpeningAt<'a>> {
        self.of_positions(game.positions())
    }

    /// [`OpeningNames::of`] for the positions from a game's start, start first.
    pub fn of_positions<'a>(&'a self, positions: &[Position]) -> Option<OpeningAt<'a>> {
        // The standard start, or any of its images, possibly after a free opening's placements.
        let start = canonical(&Position::start());
        let first = positions.iter().position(|p| canonical(p) == start)?;
        let mut found = None;
        let mut last_in = first;
        for (ply, pos) in positions.iter().enumerate().skip(first + 1) {
            // A game may leave the table and come back by another order of the same moves:
            // the deepest named position reached names it, and it left at the move after the
            // last position the table has.
            if let Some(ends) = self.positions.get(&canonical(pos)) {
                last_in = ply;
                if let Some(line) = *ends {
                    found = Some((line, ply));
                }
            }
        }
        let (line, named_at) = found?;
        Some(OpeningAt {
            line: &self.lines[line],
            named_at,
            left_at: (last_in + 1 < positions.len()).then_some(last_in + 1),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::transform;
    use crate::notation::transcript;

    fn game(moves: &str) -> Game {
        transcript::parse(moves, Variant::Othello).expect("a legal test line")
    }

    /// `moves` seen through symmetry `t` of the board (the same transform as the evaluation's).
    fn mirrored(moves: &[Move], t: u8) -> Vec<crate::Square> {
        moves
            .iter()
            .filter_map(|m| m.square())
            .map(|sq| {
                let bit = transform(t, 1u64 << sq.index());
                crate::Square::from_index(bit.trailing_zeros() as u8).expect("a square")
            })
            .collect()
    }

    #[test]
    fn the_shipped_table_reads_and_every_line_is_named_at_its_end() {
        let names = OpeningNames::shipped();
        assert!(names.lines().len() >= 70, "{}", names.lines().len());
        for line in names.lines() {
            let mut g = Game::new(Variant::Othello);
            for &mv in &line.moves {
                g.play(mv).expect("legal");
            }
            let at = names.of(&g).expect("named");
            // The line's own end names it, unless a longer line ends at the same position
            // (the parser refuses that) - so it is this line.
            assert_eq!(at.line.name, line.name);
            assert_eq!(at.named_at, line.moves.len());
            assert_eq!(at.left_at, None);
        }
    }

    #[test]
    fn the_tiger_is_named_under_all_eight_symmetries_where_the_start_allows() {
        let names = OpeningNames::shipped();
        let tiger = game("f5d6c3d3c4");
        let mut named = 0;
        for t in 0..8u8 {
            // Four symmetries keep the start; the other four give the crossed start, which a
            // free opening can reach: play the tiger's image from there.
            let squares = mirrored(tiger.history(), t);
            let start = Position::start();
            let image = Position::from_raw(
                transform(t, start.player().0),
                transform(t, start.opponent().0),
                start.side_to_move(),
            );
            let mut g = Game::from_position(image, Variant::Othello);
            for sq in squares {
                g.play_square(sq)
                    .expect("the image of a legal line is legal");
            }
            let at = names.of(&g).expect("named");
            assert_eq!(
                (at.line.name.as_str(), at.named_at),
                ("Tiger", 5),
                "symmetry {t}"
            );
            named += 1;
        }
        assert_eq!(named, 8);
        // The four images of f5 from the standard start itself.
        for first in ["f5d6c3d3c4", "c4e3f6e6f5", "d3c5f6f5e6", "e6f4c3c4d3"] {
            let at = names.of(&game(first)).expect("named");
            assert_eq!(at.line.name, "Tiger", "{first}");
        }
    }

    #[test]
    fn the_name_stays_on_the_move_that_left_the_table() {
        let names = OpeningNames::shipped();
        let at = names.of(&game("f5d6c3d3c4f4e6")).expect("named");
        assert_eq!(
            (at.line.name.as_str(), at.left_at),
            ("Leader's Tiger", None)
        );
        // The Tiger, then f4 and c5, which lines go on from (Ishii, Rose-Bill), then a move
        // none plays: the Tiger stays, left at that (eighth) move.
        let g = game("f5d6c3d3c4f4c5");
        let played: Vec<_> = names
            .lines()
            .iter()
            .filter(|l| l.moves.starts_with(g.history()) && l.moves.len() > 7)
            .map(|l| l.moves[7])
            .collect();
        assert!(!played.is_empty());
        let off = g
            .moves()
            .into_iter()
            .find(|m| !played.contains(m))
            .expect("a move no line plays");
        let mut g = g;
        g.play(off).expect("legal");
        g.play(g.moves()[0]).expect("legal");
        let at = names.of(&g).expect("named");
        assert_eq!((at.line.name.as_str(), at.named_at), ("Tiger", 5));
        assert_eq!(
            at.left_at,
            Some(8),
            "{off:?} is the eighth move and no line plays it"
        );
        // Before any named position: nothing; the first move alone is in the table but no
        // line ends there.
        assert!(names.of(&Game::new(Variant::Othello)).is_none());
        assert!(names.of(&game("f5")).is_none());
        let at = names.of(&game("f5d6")).expect("named");
        assert_eq!(at.line.name, "Perpendicular Opening");
    }

    #[test]
    fn a_transposition_into_a_named_line_finds_it() {
        let names = OpeningNames::shipped();
        // Matched by positions: a line whose same side's two moves can be played the other
        // way round to the same position is named all the same. Found in the table itself.
        let mut found = 0;
        for line in names.lines() {
            let end = game(&transcript::to_transcript(&line.moves)).position();
            for i in 0..line.moves.len() {
                for j in (i + 2..line.moves.len()).step_by(2) {
                    let mut order = line.moves.clone();
                    order.swap(i, j);
                    let mut g = Game::new(Variant::Othello);
                    if order.iter().all(|&m| g.play(m).is_ok()) && g.position() == end {
                        let at = names.of(&g).expect("named");
                        assert_eq!(
                            at.line.name,
                            line.name,
                            "{}",
                            transcript::to_transcript(&order)
                        );
                        found += 1;
                    }
                }
            }
        }
        assert!(found > 0, "no line of the table transposes");
    }

    #[test]
    fn a_start_the_table_does_not_have_is_not_named() {
        let names = OpeningNames::shipped();
        let xot = transcript::parse("f5d6c3d3c4f4c5", Variant::Othello).expect("legal");
        let from_there = Game::from_position(xot.position(), Variant::Othello);
        assert!(names.of(&from_there).is_none());
    }

    #[test]
    fn malformed_tables_are_refused_with_the_line_and_why() {
        let e = OpeningNames::parse("# c\nf5d6c3d3c4 Tiger\nf5d6c3d3 Tiger\n").unwrap_err();
        assert_eq!(e, "opening names, line 3: Tiger is named twice");
        let e = OpeningNames::parse("f5a1 Nonsense\n").unwrap_err();
        assert!(e.starts_with("opening names, line 1: "), "{e}");
        let e = OpeningNames::parse("f5d6\n").unwrap_err();
        assert_eq!(e, "opening names, line 1: moves and a name expected");
        let e = OpeningNames::parse("f5d6 A\nd3c5 B\n").unwrap_err();
        assert_eq!(e, "opening names, line 2: the same position as A");
    }
}
