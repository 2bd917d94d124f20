//! The learned pattern evaluation: the final disc margin expected for the side to move.
//!
//! A position is read as 50 pattern instances (corner blocks and triangles, edges with their
//! X-squares, rows, diagonals), the pair of move counts, and a bias. Each indexes a table of
//! integer weights for the game phase (one set per five plies), and the evaluation
//! is their sum. The tables are fitted by the project's own trainer from self-play games
//! labelled with exact endgame solves (`montello-engine train`, `docs/eval.md`) and ship
//! inside the engine, compressed.
//!
//! ```
//! use montello_engine::{Position, eval};
//!
//! let start = Position::start();
//! let e = eval::evaluate(start.player(), start.opponent());
//! // The start is about even.
//! assert!(e.abs() < 8 * eval::SCALE);
//! ```

mod patterns;
#[cfg(all(target_family = "wasm", target_feature = "simd128"))]
mod simd128;
mod weights;

pub use weights::{EMPTIES_BIAS_LEN, Weights, WeightsError};
// The board's eight symmetries, for the opening book's positions.
pub use patterns::{canonical, transform};
// What the trainer (lab/src/train) reads and writes the tables with.
pub use patterns::{FEATURES, PHASE_SIZE, features};
pub use weights::{canonical_map, interpolation};

use crate::{Bitboard, Position};
use std::sync::OnceLock;

/// Evaluation units per disc: [`evaluate`] returns `margin * SCALE`.
pub const SCALE: i32 = 64;

/// Game phases with a weight set of their own.
pub const PHASES: usize = 12;

/// The phase of a position with `empties` empty squares: five plies each, the last phase
/// for the first moves.
#[inline(always)]
pub const fn phase(empties: u32) -> usize {
    let p = (if empties == 0 { 0 } else { empties - 1 } / 5) as usize;
    if p < PHASES { p } else { PHASES - 1 }
}

/// The shipped weights: generation 12 (generation 10's tables, and at 15 empty squares or
/// fewer refined towards 1.56 million positions of real tournament games solved exactly, #69),
/// rounded to 1/8 disc (`train rescale`: 239 KB smaller in the browser's worker than at 1/64;
/// docs/eval.md). A new generation ships by pointing this and [`BUILTIN_FILE`] at its file.
static BUILTIN: &[u8] = include_bytes!("../../weights/gen12s8.mwt");

/// The shipped weights' file in engine/weights/ (the one [`BUILTIN`] includes; a test holds the
/// two together), which the daily puzzles' set names as its first look's.
pub const BUILTIN_FILE: &str = "gen12s8.mwt";

static WEIGHTS: OnceLock<Weights> = OnceLock::new();

/// The weights every search uses: the shipped ones (decoded once, on first use: a few
/// milliseconds), unless [`install`] put others in their place first.
pub fn builtin() -> &'static Weights {
    WEIGHTS.get_or_init(|| Weights::decode(BUILTIN).unwrap_or_else(|_| heuristic()))
}

/// Makes `weights` the ones every search uses, for the trainer and the arena to compare
/// generations. Only possible before the first evaluation; otherwise hands them back.
pub fn install(weights: Weights) -> Result<(), Weights> {
    WEIGHTS.set(weights)
}

/// Decodes the shipped weights anew (what [`builtin`] does once), for tests and the load-time
/// benchmark.
pub fn decode_builtin() -> Result<Weights, WeightsError> {
    Weights::decode(BUILTIN)
}

/// The expected final disc margin for the side to move with discs `player` against the
/// `opponent`'s discs, in units of `1 / SCALE` disc, clamped to `-64 * SCALE ..= 64 * SCALE`,
/// by the [`builtin`] weights.
#[inline]
pub fn evaluate(player: Bitboard, opponent: Bitboard) -> i32 {
    evaluate_raw(player.0, opponent.0)
}

/// [`evaluate`] on raw `u64`s, for the search's hot paths.
#[inline]
pub(crate) fn evaluate_raw(p: u64, o: u64) -> i32 {
    builtin().evaluate_raw(p, o)
}

/// The length of a [`base_for_moves`].
pub(crate) const BASE_LEN: usize = patterns::FEATURES;

/// The base from which [`evaluate_after`] values each position after a move of `p`'s
/// (to move against `o`): each pattern instance read once for all the moves.
#[inline]
pub(crate) fn base_for_moves(p: u64, o: u64) -> [u32; patterns::FEATURES] {
    patterns::swapped_indices(p, o)
}

/// [`evaluate_raw`] of the position after a move to `sq` flipping `flips`, where the side to
/// move then has `np` against `no` and `base` is [`base_for_moves`] of the position before it.
#[inline]
pub(crate) fn evaluate_after(
    base: &[u32; patterns::FEATURES],
    sq: u32,
    flips: u64,
    np: u64,
    no: u64,
) -> i32 {
    builtin().evaluate_after(base, sq, flips, np, no)
}

/// [`evaluate`] for a [`Position`], in discs, for the side to move.
pub fn evaluate_position(pos: &Position) -> f32 {
    evaluate(pos.player(), pos.opponent()) as f32 / SCALE as f32
}

/// A hand-written evaluation in the same tables, the trainer's generation 0: mobility, corners
/// and the X-squares next to empty corners. Far weaker than the trained weights.
pub fn heuristic() -> Weights {
    use patterns::{MOBILITY_CAP, MOBILITY_OFFSET, OFFSETS, PHASE_SIZE, pow3};
    let mut data = vec![0i16; PHASES * PHASE_SIZE];
    // Gather positions of a1 and b2 in the 3x3 corner pattern.
    let a1 = patterns::gather(0, 1).trailing_zeros();
    let b2 = patterns::gather(0, 1 << 9).trailing_zeros();
    for ph in 0..PHASES {
        let w = &mut data[ph * PHASE_SIZE..(ph + 1) * PHASE_SIZE];
        for idx in 0..pow3(9) {
            let digit = |k: u32| (idx / pow3(k)) % 3;
            let mut v = match digit(a1) {
                1 => 6,
                2 => -6,
                _ => 0,
            };
            if digit(a1) == 0 {
                v += match digit(b2) {
                    1 => -3,
                    2 => 3,
                    _ => 0,
                };
            }
            w[OFFSETS[0] + idx] = (v * SCALE) as i16;
        }
        for mp in 0..=MOBILITY_CAP {
            for mo in 0..=MOBILITY_CAP {
                let v = (mp as i32 - mo as i32) * SCALE;
                w[MOBILITY_OFFSET + (mp * (MOBILITY_CAP + 1) + mo) as usize] = v as i16;
            }
        }
    }
    Weights::from_raw(data).unwrap_or_else(|_| Weights::zeros())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shipped_weights_load() {
        let w = decode_builtin().unwrap_or_else(|e| panic!("{e}"));
        assert_ne!(w, Weights::zeros());
        assert_eq!(&w, builtin());
    }

    #[test]
    fn the_eight_symmetries_give_the_same_value() {
        let w = builtin();
        for pos in crate::random_positions(7, 400) {
            let (p, o) = (pos.player().0, pos.opponent().0);
            let e = w.evaluate(pos.player(), pos.opponent());
            for t in 1..8 {
                let (tp, to) = (patterns::transform(t, p), patterns::transform(t, o));
                assert_eq!(w.evaluate_raw(tp, to), e, "symmetry {t} of {pos:?}");
            }
        }
    }

    #[test]
    fn colour_swap_negates_the_value_for_black() {
        for pos in crate::random_positions(11, 300) {
            let for_black = |pos: &Position| {
                let e = evaluate_position(pos);
                if pos.side_to_move() == crate::Side::Black {
                    e
                } else {
                    -e
                }
            };
            let swapped = Position::from_player_opponent(
                pos.player(),
                pos.opponent(),
                pos.side_to_move().opposite(),
            );
            assert_eq!(for_black(&swapped), -for_black(&pos), "{pos:?}");
        }
    }

    /// The file the puzzles' set names as its first look's is the one the engine ships.
    #[test]
    fn builtin_file_names_the_included_weights() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("weights")
            .join(BUILTIN_FILE);
        let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert!(bytes == BUILTIN, "{BUILTIN_FILE} is not the included file");
    }

    #[test]
    fn phases_cover_the_game() {
        assert_eq!(phase(0), 0);
        assert_eq!(phase(1), 0);
        assert_eq!(phase(5), 0);
        assert_eq!(phase(6), 1);
        assert_eq!(phase(60), PHASES - 1);
        assert_eq!(phase(64), PHASES - 1);
    }
}
