//! The opening book: positions of the first plies from the standard start, each with the
//! values of its moves (the final disc margin for the side to move, by the project's own deep
//! alpha-beta searches, backed up through the book by negamax), so that a level could play
//! the opening at once, with variety, and as well as a search far longer than its clock.
//!
//! A position is stored once for its eight symmetries (the smallest image, its moves seen
//! through the same symmetry), so the four symmetric first moves share one line. The book is
//! built by [`build`] (`montello-engine book build`, docs/ai.md gives the command) and written
//! as a small binary file with a checksum. No level plays from one: the arena measured the
//! book that `engine/book/book.mbk` holds (depth-14 values to ply 10) against Master's own
//! search and it cost Elo (docs/ai.md, "An opening book"); a searcher plays from a book only
//! when given one ([`super::Searcher::with_book`]) and a margin
//! ([`super::MctsConfig::book_margin`]), as the arena's `--book` does.
//!
//! The file: `MONTBOOK`, the format version (u32, little-endian), the number of positions
//! (u32), then each position (sorted by its two boards) as the mover's discs and the
//! opponent's (u64 each), the number of moves (u8) and for each move its square index (u8)
//! and value in discs (i8), best first; last, an FNV-1a hash of everything before it (u64).

use crate::eval::transform;
use crate::{FastRng, Move, Position, Square, Variant};
use std::fmt;

const MAGIC: &[u8; 8] = b"MONTBOOK";
const VERSION: u32 = 1;
/// Multi-ProbCut's selectivity (tenths) in the builder's fixed-depth searches: the value it
/// had when `engine/book/book.mbk` was built, so that the committed book builds again byte
/// for byte (the `ab` player's default has since moved to 0.7, measured under a clock).
#[cfg(feature = "cli")]
const BOOK_PROBCUT: u32 = 15;

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

#[derive(Clone, Debug, PartialEq, Eq)]
struct Entry {
    player: u64,
    opponent: u64,
    /// Square indices and values in the stored orientation, best first.
    moves: Vec<(u8, i8)>,
}

/// An opening book (see the module docs).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Book {
    entries: Vec<Entry>,
}

/// The stored image of `(p, o)` among its eight symmetries, and the symmetry that gives it.
fn canonical(p: u64, o: u64) -> (u64, u64, u8) {
    (0..8u8)
        .map(|t| (transform(t, p), transform(t, o), t))
        .min()
        .unwrap_or((p, o, 0))
}

fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

impl Book {
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
        let mut entries: Vec<Entry> = Vec::with_capacity(count.min(body.len() / 17));
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
            entries.push(Entry {
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

/// How [`build`] grows the book.
#[cfg(feature = "cli")]
#[derive(Clone, Debug)]
pub struct BuildConfig {
    /// Book positions reach this many plies from the start (positions after `plies` moves
    /// are searched, not stored).
    pub plies: u32,
    /// Each move of a book position is valued by an alpha-beta search this many plies deep
    /// (its reply and `depth - 1` more, with ProbCut and the exact solver).
    pub depth: u32,
    /// A position enters the book when the moves leading to it lost at most this many discs
    /// together against the best moves of the positions on the way.
    pub max_loss: i32,
    /// At most this many positions a ply, the least lost first.
    pub width: usize,
    /// Store the moves within this many discs of a position's best.
    pub keep: i32,
    /// Threads searching positions at once (the result does not depend on it).
    pub threads: usize,
    /// Transposition table of each position's searches, in bytes.
    pub table_bytes: usize,
    /// Start no ply that would, at the last ply's pace, end after this many seconds; the
    /// book then stops at the plies done (`None`: no limit). A book stopped so is the one
    /// built with `plies` set to the plies it reached.
    pub max_seconds: Option<f64>,
}

/// Grows a book from the standard start (see [`BuildConfig`]): ply by ply, every move of
/// every position valued by a fixed-depth search from a fresh table (so the result does not
/// depend on the threads), the positions reached within `max_loss` kept for the next ply;
/// then the values backed up by negamax from the last ply to the first. `progress` hears a
/// line after each ply. Deterministic.
#[cfg(feature = "cli")]
pub fn build(config: &BuildConfig, mut progress: impl FnMut(&str)) -> Book {
    use super::alphabeta::FixedDepth;
    use crate::eval::SCALE;
    use std::collections::{BTreeMap, HashMap};
    use std::sync::Mutex;
    use std::sync::atomic::{AtomicUsize, Ordering};

    let start = std::time::Instant::now();
    // Each stored position's moves: (stored square, child's stored image, value in units).
    type Valued = Vec<(u8, (u64, u64), i32)>;
    let mut nodes: HashMap<(u64, u64), Valued> = HashMap::new();
    let (sp, so, _) = canonical(Position::start().player().0, Position::start().opponent().0);
    let mut level: BTreeMap<(u64, u64), i32> = BTreeMap::from([((sp, so), 0)]);
    // The last ply's seconds per position searched.
    let mut pace = 0.0f64;
    for ply in 0..config.plies {
        let mut frontier: Vec<((u64, u64), i32)> = level
            .iter()
            .filter(|(k, _)| !nodes.contains_key(k))
            .map(|(k, loss)| (*k, *loss))
            .collect();
        frontier.sort_by_key(|&(k, loss)| (loss, k));
        frontier.truncate(config.width);
        let elapsed = start.elapsed().as_secs_f64();
        if let Some(max) = config.max_seconds
            && elapsed + pace * frontier.len() as f64 > max
        {
            progress(&format!(
                "ply {ply}: not started ({} positions at the last ply's pace would end after \
                 {max} s); the book stops at {ply} plies",
                frontier.len()
            ));
            break;
        }
        let results: Mutex<Vec<Option<Valued>>> = Mutex::new(vec![None; frontier.len()]);
        let next = AtomicUsize::new(0);
        let searched = AtomicUsize::new(0);
        std::thread::scope(|s| {
            for _ in 0..config.threads.max(1) {
                s.spawn(|| {
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(&((p, o), _)) = frontier.get(i) else {
                            break;
                        };
                        let mut search = FixedDepth::new(
                            crate::eval::builtin(),
                            Variant::Othello,
                            config.table_bytes,
                            BOOK_PROBCUT,
                        );
                        let pos = Position::from_raw(p, o, crate::Side::Black);
                        let mut valued = Valued::new();
                        for sq in pos.flip_moves().squares() {
                            let child = pos.play_unchecked(sq);
                            let (cp, co) = (child.player().0, child.opponent().0);
                            let v = -search.value(cp, co, config.depth.saturating_sub(1));
                            let (kp, ko, _) = canonical(cp, co);
                            valued.push((sq.index(), (kp, ko), v));
                        }
                        searched.fetch_add(valued.len(), Ordering::Relaxed);
                        results.lock().unwrap_or_else(|e| e.into_inner())[i] = Some(valued);
                    }
                });
            }
        });
        let results = results.into_inner().unwrap_or_else(|e| e.into_inner());
        pace = (start.elapsed().as_secs_f64() - elapsed) / frontier.len().max(1) as f64;
        let mut grown: BTreeMap<(u64, u64), i32> = BTreeMap::new();
        for (&(key, loss), valued) in frontier.iter().zip(results) {
            let Some(valued) = valued else { continue };
            if valued.is_empty() {
                continue;
            }
            let best = valued.iter().map(|m| m.2).max().unwrap_or(0);
            for &(_, child, v) in &valued {
                let total = loss + (best - v) / SCALE;
                if total <= config.max_loss {
                    let e = grown.entry(child).or_insert(total);
                    *e = (*e).min(total);
                }
            }
            nodes.insert(key, valued);
        }
        progress(&format!(
            "ply {ply}: {} positions searched ({} moves, depth {}), {} in the book, {:.1} s",
            frontier.len(),
            searched.load(Ordering::Relaxed),
            config.depth,
            nodes.len(),
            start.elapsed().as_secs_f64()
        ));
        level = grown;
    }
    // Negamax from the deepest positions (the most discs) to the start: a move into a book
    // position takes that position's backed-up value.
    let mut order: Vec<(u64, u64)> = nodes.keys().copied().collect();
    order.sort_by_key(|&(p, o)| (std::cmp::Reverse((p | o).count_ones()), p, o));
    let mut value: HashMap<(u64, u64), i32> = HashMap::new();
    for key in &order {
        let valued = &nodes[key];
        let best = valued
            .iter()
            .map(|&(_, child, v)| value.get(&child).map_or(v, |&c| -c))
            .max()
            .unwrap_or(0);
        value.insert(*key, best);
    }
    let disc = |v: i32| (v as f32 / SCALE as f32).round().clamp(-64.0, 64.0) as i8;
    let mut entries: Vec<Entry> = order
        .iter()
        .map(|&(p, o)| {
            let mut moves: Vec<(u8, i32)> = nodes[&(p, o)]
                .iter()
                .map(|&(sq, child, v)| (sq, value.get(&child).map_or(v, |&c| -c)))
                .collect();
            // Best first, ties by square, so the file does not depend on the search order.
            moves.sort_by_key(|&(sq, v)| (std::cmp::Reverse(v), sq));
            let best = moves[0].1;
            Entry {
                player: p,
                opponent: o,
                moves: moves
                    .into_iter()
                    .filter(|&(_, v)| best - v <= config.keep * SCALE)
                    .map(|(sq, v)| (sq, disc(v)))
                    .collect(),
            }
        })
        .collect();
    entries.sort_by_key(|e| (e.player, e.opponent));
    Book { entries }
}

// The tests build small books, with the builder of the `cli` feature.
#[cfg(all(test, feature = "cli"))]
mod tests {
    use super::*;
    use crate::notation::transcript;

    fn after(moves: &str) -> Position {
        transcript::parse(moves, Variant::Othello)
            .unwrap_or_else(|e| panic!("{e}"))
            .position()
    }

    /// A three-ply book of shallow values, built on `threads` threads.
    fn small_on(threads: usize) -> Book {
        build(
            &BuildConfig {
                plies: 3,
                depth: 2,
                max_loss: 2,
                width: 50,
                keep: 4,
                threads,
                table_bytes: 1 << 16,
                max_seconds: None,
            },
            |_| {},
        )
    }

    fn small() -> Book {
        small_on(2)
    }

    #[test]
    fn a_built_book_round_trips_and_holds_the_start() {
        let book = small();
        assert!(book.len() > 2, "{}", book.len());
        let decoded = Book::decode(&book.encode()).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(decoded, book);
        // The four first moves are one symmetric line: all in the book, all of one value.
        let first = book
            .moves(&Position::start())
            .expect("the start is in the book");
        assert_eq!(first.len(), 4);
        assert!(first.iter().all(|m| m.value == first[0].value));
    }

    #[test]
    fn the_book_is_the_same_whatever_the_threads() {
        assert_eq!(small_on(1).encode(), small_on(2).encode());
    }

    /// A position seen through any symmetry finds the same moves, seen through it too.
    #[test]
    fn lookups_follow_the_symmetries() {
        let book = small();
        let pos = after("f5d6");
        let moves = book.moves(&pos).expect("f5d6 is in the book");
        for t in 0..8u8 {
            let image = Position::from_raw(
                transform(t, pos.player().0),
                transform(t, pos.opponent().0),
                pos.side_to_move(),
            );
            let seen = book.moves(&image).expect("every image is in the book");
            let expected: Vec<BookMove> = moves
                .iter()
                .map(|m| BookMove {
                    square: Square::ALL
                        [transform(t, 1u64 << m.square.index()).trailing_zeros() as usize],
                    value: m.value,
                })
                .collect();
            assert_eq!(seen, expected, "symmetry {t}");
        }
        assert!(
            book.moves(&after("f5d6c3d3c4f4")).is_none(),
            "ply 6 is past it"
        );
    }

    #[test]
    fn choices_stay_within_the_margin_and_vary_with_the_seed() {
        let book = small();
        let start = Position::start();
        let mut seen = std::collections::HashSet::new();
        for seed in 0..40 {
            let mut rng = FastRng::new(seed);
            let (mv, moves) = book
                .choose(&start, Variant::Othello, 0, &mut rng)
                .expect("in the book");
            assert!(moves.iter().any(|m| Move::Play(m.square) == mv));
            seen.insert(mv);
        }
        assert_eq!(seen.len(), 4, "the four symmetric first moves all come up");
        let mut rng = FastRng::new(1);
        assert!(
            book.choose(&start, Variant::FreeOpening, 0, &mut rng)
                .is_none()
        );
        // Margin 0 at a position whose moves differ: only the best.
        let pos = after("f5");
        let moves = book.moves(&pos).expect("f5 is in the book");
        let best: Vec<Move> = moves
            .iter()
            .filter(|m| m.value == moves[0].value)
            .map(|m| Move::Play(m.square))
            .collect();
        for seed in 0..20 {
            let (mv, _) = book
                .choose(&pos, Variant::Othello, 0, &mut FastRng::new(seed))
                .expect("in the book");
            assert!(best.contains(&mv));
        }
    }

    #[test]
    fn damaged_files_are_refused_with_where_and_why() {
        let bytes = small().encode();
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

    /// A searcher plays from its book only with a margin set, and only while the position is
    /// in it; otherwise it searches.
    #[test]
    fn a_searcher_given_a_book_and_a_margin_plays_from_it() {
        use super::super::{CancelHandle, MctsConfig, SearchLimits, Searcher, Strategy};
        let book = std::sync::Arc::new(small());
        let limits = SearchLimits::iterations(2_000);
        let config = MctsConfig {
            book_margin: Some(0),
            ..MctsConfig::default()
        };
        let search = |config: MctsConfig, pos: &Position| {
            Searcher::new(Strategy::Default, 3)
                .with_config(config)
                .with_book(book.clone())
                .search(pos, Variant::Othello, &limits, &CancelHandle::new())
        };
        let pos = after("f5");
        let moves = book.moves(&pos).expect("f5 is in the book");
        let r = search(config, &pos);
        assert_eq!(r.iterations, 0, "no search");
        let played = moves
            .iter()
            .find(|m| r.best == Some(Move::Play(m.square)))
            .expect("a book move");
        assert_eq!(played.value, moves[0].value, "margin 0: a best one");
        assert_eq!(r.moves.len(), moves.len());
        assert!(
            search(MctsConfig::default(), &pos).iterations > 0,
            "no margin"
        );
        assert!(
            search(config, &after("f5d6c3d3c4f4")).iterations > 0,
            "past the book"
        );
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
}
