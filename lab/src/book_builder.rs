//! The opening book's builder (`montello-engine book build`):
//! grows a [`Book`] from the standard start by fixed-depth alpha-beta searches and backs
//! the values up by negamax. The book's format and lookup are the library's
//! ([`montello_engine::search::Book`]); the phones' and the browser's builds have no use for this.

use montello_engine::eval::canonical;
use montello_engine::search::Book;
use montello_engine::search::BookEntry;
use montello_engine::{Bitboard, Position, Variant};

/// Multi-ProbCut's selectivity (tenths) in the builder's fixed-depth searches: the value it
/// had when `engine/book/book.mbk` was built, so that the committed book builds again byte
/// for byte (the `ab` player's default has since moved to 0.7, measured under a clock).
const BOOK_PROBCUT: u32 = 15;

/// How [`build`] grows the book.
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
pub fn build(config: &BuildConfig, mut progress: impl FnMut(&str)) -> Book {
    use montello_engine::eval::SCALE;
    use montello_engine::search::FixedDepth;
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
                            montello_engine::eval::builtin(),
                            Variant::Othello,
                            config.table_bytes,
                            BOOK_PROBCUT,
                        );
                        let pos = Position::from_player_opponent(
                            Bitboard(p),
                            Bitboard(o),
                            montello_engine::Side::Black,
                        );
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
    let entries: Vec<BookEntry> = order
        .iter()
        .map(|&(p, o)| {
            let mut moves: Vec<(u8, i32)> = nodes[&(p, o)]
                .iter()
                .map(|&(sq, child, v)| (sq, value.get(&child).map_or(v, |&c| -c)))
                .collect();
            // Best first, ties by square, so the file does not depend on the search order.
            moves.sort_by_key(|&(sq, v)| (std::cmp::Reverse(v), sq));
            let best = moves[0].1;
            BookEntry {
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
    Book::from_entries(entries)
}

// The tests build small books.
#[cfg(test)]
mod tests {
    use super::*;
    use montello_engine::eval::transform;
    use montello_engine::notation::transcript;
    use montello_engine::search::BookMove;
    use montello_engine::{FastRng, Move, Square};

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
            let image = Position::from_player_opponent(
                Bitboard(transform(t, pos.player().0)),
                Bitboard(transform(t, pos.opponent().0)),
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

    /// A searcher plays from its book only with a margin set, and only while the position is
    /// in it; otherwise it searches.
    #[test]
    fn a_searcher_given_a_book_and_a_margin_plays_from_it() {
        use montello_engine::search::{CancelHandle, MctsConfig, SearchLimits, Searcher, Strategy};
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
}
