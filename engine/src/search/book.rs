//! The opening book: positions of the first plies from the standard start, each with the
//! values of its moves (the final disc margin for the side to move, by the project's own deep
//! alpha-beta searches, backed up through the book by negamax), so that a level could play
//! the opening at once, with variety, and as well as a search far longer than its clock.
//!
//! A position is stored once for its eight symmetries (the smallest image, its moves seen
//! through the same symmetry), so the four symmetric first moves share one line. The book is
//! built by the lab's builder (`lab/src/book_builder.rs`, through [`Book::from_entries`];
//! `montello-engine book build`, docs/ai.md gives the command) and written as a small binary
//! file with a checksum. No level plays from one: the arena measured the
//! book that `engine/book/book.mbk` holds (depth-14 values to ply 10) against Master's own
//! search and it cost Elo (docs/ai.md, "An opening book"); a searcher plays from a book only
//! when given one ([`super::Searcher::with_book`]) and a margin
//! ([`super::MctsConfig::book_margin`]), as the arena's `--book` does.
//!
//! The file: `MONTBOOK`, the format version (u32, little-endian), the number of positions
//! (u32), then each position (sorted by its two boards) as the mover's discs and the
//! opponent's (u64 each), the number of moves (u8) and for each move its square index (u8)
//! and value in discs (i8), best first; last, an FNV-1a hash of everything before it (u64).

use crate::eval::{canonical, transform};
use crate::{FastRng, Move, Position, Square, Variant};
use std::fmt;

const MAGIC: &[u8; 8] = b"MONTBOOK";
const VERSION: u32 = 1;

/// A malformed book file: where and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BookError(pub String);

impl fmt::Display for BookError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "opening book: {}", self.0)
    }
}

impl std::error::Error for BookError {}

/// One move of a book position and its value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BookMove {
    /// The square played.
    pub square: Square,
    /// The final disc margin for the side that plays it, by the book's searches.
    pub value: i8,
}

/// One position of a book as the file stores it: in its canonical orientation under the
/// board's eight symmetries ([`crate::eval::canonical`]), with its moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BookEntry {
    /// The side to move's discs.
    pub player: u64,
    /// The other side's discs.
    pub opponent: u64,
    /// Square indices and values in the stored orientation, best first.
    pub moves: Vec<(u8, i8)>,
}

/// An opening book (see the module docs).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Book {
    pub(crate) entries: Vec<BookEntry>,
}

pub(crate) fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

impl Book {
    /// A book of these positions (the builder's, in `lab/`), kept in the order lookups need.
    pub fn from_entries(mut entries: Vec<BookEntry>) -> Book {
        entries.sort_by_key(|e| (e.player, e.opponent));
        Book { entries }
    }

    /// Positions in the book.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the book holds no position.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The book's moves in `pos`, best first, seen from `pos`'s own orientation; `None` when
    /// the position is not in the book.
    pub fn moves(&self, pos: &Position) -> Option<Vec<BookMove>> {
        let (p, o) = (pos.player().0, pos.opponent().0);
        let (cp, co, t) = canonical(p, o);
        let i = self
            .entries
            .binary_search_by(|e| (e.player, e.opponent).cmp(&(cp, co)))
            .ok()?;
        let legal = pos.flip_moves().0;
        let moves: Vec<BookMove> = self.entries[i]
            .moves
            .iter()
            .filter_map(|&(stored, value)| {
                // The square whose image under `t` is the stored one.
                let square = Square::ALL
                    .into_iter()
                    .find(|s| transform(t, 1u64 << s.index()) == 1u64 << stored)?;
                (legal & (1u64 << square.index()) != 0).then_some(BookMove { square, value })
            })
            .collect();
        (!moves.is_empty()).then_some(moves)
    }

    /// A move to play in `pos` under `variant`'s rules: one of the book's moves within
    /// `margin` discs of its best, drawn evenly with `rng`; `None` when the position is not in
    /// the book, or the rules are not Othello's from the standard start.
    pub fn choose(
        &self,
        pos: &Position,
        variant: Variant,
        margin: u8,
        rng: &mut FastRng,
    ) -> Option<(Move, Vec<BookMove>)> {
        if variant != Variant::Othello {
            return None;
        }
        let moves = self.moves(pos)?;
        let best = moves[0].value;
        let near = moves
            .iter()
            .take_while(|m| i32::from(best) - i32::from(m.value) <= i32::from(margin))
            .count();
        let pick = rng.below(near as u32) as usize;
        Some((Move::Play(moves[pick].square), moves))
    }

    /// The book as a file (see the module docs).
    pub fn encode(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(16 + self.entries.len() * 24 + 8);
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&VERSION.to_le_bytes());
        out.extend_from_slice(&(self.entries.len() as u32).to_le_bytes());
        for e in &self.entries {
            out.extend_from_slice(&e.player.to_le_bytes());
            out.extend_from_slice(&e.opponent.to_le_bytes());
            out.push(e.moves.len() as u8);
            for &(sq, v) in &e.moves {
                out.push(sq);
                out.push(v as u8);
            }
        }
        let hash = fnv1a(&out);
        out.extend_from_slice(&hash.to_le_bytes());
        out
    }

    /// Reads a book file, refusing a damaged or malformed one with where and why.
    pub fn decode(bytes: &[u8]) -> Result<Book, BookError> {
        let err = |s: String| Err(BookError(s));
        if bytes.len() < 24 || &bytes[..8] != MAGIC {
            return err("not a Montello opening book".into());
        }
        let (body, hash) = bytes.split_at(bytes.len() - 8);
        let word =
            |at: usize| u32::from_le_bytes([body[at], body[at + 1], body[at + 2], body[at + 3]]);
        let version = word(8);
        if version != VERSION {
            return err(format!("version {version}, expected {VERSION}"));
        }
        let mut h = [0u8; 8];
        h.copy_from_slice(hash);
        if u64::from_le_bytes(h) != fnv1a(body) {
            return err("checksum mismatch: the file is damaged".into());
        }
        let count = word(12) as usize;
        let mut at = 16;
        let mut entries: Vec<BookEntry> = Vec::with_capacity(count.min(body.len() / 17));
        for n in 0..count {
            if at + 17 > body.len() {
                return err(format!("position {n} truncated at byte {at}"));
            }
            let board = |k: usize| {
                let mut b = [0u8; 8];
                b.copy_from_slice(&body[k..k + 8]);
                u64::from_le_bytes(b)
            };
            let (player, opponent) = (board(at), board(at + 8));
            let k = usize::from(body[at + 16]);
            let start = at;
            at += 17;
            if player & opponent != 0 {
                return err(format!("position {n} at byte {start}: overlapping discs"));
            }
            let (cp, co, _) = canonical(player, opponent);
            if (cp, co) != (player, opponent) {
                return err(format!(
                    "position {n} at byte {start}: not in its stored image"
                ));
            }
            if let Some(last) = entries.last()
                && (last.player, last.opponent) >= (player, opponent)
            {
                return err(format!("position {n} at byte {start}: out of order"));
            }
            if at + 2 * k > body.len() {
                return err(format!("position {n} truncated at byte {at}"));
            }
            let legal = Position::from_raw(player, opponent, crate::Side::Black)
                .flip_moves()
                .0;
            let mut moves = Vec::with_capacity(k);
            for j in 0..k {
                let (sq, v) = (body[at + 2 * j], body[at + 2 * j + 1] as i8);
                if sq >= 64 || legal & (1u64 << sq) == 0 {
                    return err(format!(
                        "position {n}: move {j} (square index {sq}) at byte {} is not legal",
                        at + 2 * j
                    ));
                }
                if moves.last().is_some_and(|&(_, last)| last < v) {
                    return err(format!("position {n}: moves not best first at byte {at}"));
                }
                moves.push((sq, v));
            }
            if moves.is_empty() {
                return err(format!("position {n} at byte {start}: no moves"));
            }
            at += 2 * k;
            entries.push(BookEntry {
                player,
                opponent,
                moves,
            });
        }
        if at != body.len() {
            return err(format!("{} bytes after the last position", body.len() - at));
        }
        Ok(Book { entries })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::transcript;

    fn after(moves: &str) -> Position {
        transcript::parse(moves, Variant::Othello)
            .unwrap_or_else(|e| panic!("{e}"))
            .position()
    }

    /// The committed book (`engine/book/book.mbk`, the one docs/ai.md measures) decodes,
    /// holds the start and the main lines, and stays small enough for a phone.
    #[test]
    fn the_committed_book_is_sound() {
        let bytes = include_bytes!("../../book/book.mbk");
        let book = Book::decode(bytes).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(book.len(), 5392);
        assert!(bytes.len() <= 1 << 20, "{} bytes", bytes.len());
        assert!(book.moves(&Position::start()).is_some());
        for line in ["f5d6c3d3c4", "f5d6c5f4e3", "f5f6e6f4"] {
            assert!(book.moves(&after(line)).is_some(), "{line}");
        }
    }

    /// A book of the start alone, as its file stores it: canonical, with its legal moves.
    fn start_only() -> Book {
        let start = Position::start();
        let (p, o, _) = crate::eval::canonical(start.player().0, start.opponent().0);
        let moves = Position::from_raw(p, o, crate::Side::Black).flip_moves();
        Book::from_entries(vec![BookEntry {
            player: p,
            opponent: o,
            moves: moves.into_iter().map(|sq| (sq.index(), 0)).collect(),
        }])
    }

    #[test]
    fn damaged_files_are_refused_with_where_and_why() {
        let bytes = start_only().encode();
        assert_eq!(Book::decode(&bytes), Ok(start_only()));
        let msg = |b: &[u8]| Book::decode(b).expect_err("refused").to_string();
        assert!(msg(b"hello").contains("not a Montello opening book"));
        let mut flipped = bytes.clone();
        flipped[30] ^= 1;
        assert!(msg(&flipped).contains("checksum"), "{}", msg(&flipped));
        assert!(msg(&bytes[..bytes.len() - 3]).contains("checksum"));
        // A well-formed file with an illegal move: re-hashed, so only the move is wrong.
        let mut bad = bytes[..bytes.len() - 8].to_vec();
        bad[16 + 17] = 0; // the first position's first move: a1, never legal this early
        let hash = fnv1a(&bad);
        bad.extend_from_slice(&hash.to_le_bytes());
        let m = msg(&bad);
        assert!(m.contains("position 0") && m.contains("not legal"), "{m}");
    }
}
