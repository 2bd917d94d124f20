//! The evaluation's error on held-out real games (#69): positions of the WTHOR database's
//! games at the files' perfect-play depth (24 empty squares), each with the perfect-play score
//! the file gives, valued by the static evaluation and by a fixed-depth search.

use super::in_pool;
use crate::eval::{SCALE, Weights};
use crate::notation::wthor::WthorGame;
use crate::search::{DEFAULT_PROBCUT, FixedDepth};
use crate::{Position, Side, Variant};
use rayon::prelude::*;

/// A held-out position: the side to move's discs, the opponent's, and the perfect-play final
/// margin for the side to move.
pub type HeldOutPosition = (Position, i32);

/// The first position of `game` with `empties` empty squares, and the final margin for its
/// side to move by the file's perfect-play score (`None` if the game never had that many, or
/// the side to move there must pass).
pub fn held_out_position(game: &WthorGame, empties: u8) -> Option<HeldOutPosition> {
    let pos = *game
        .game
        .positions()
        .iter()
        .find(|p| p.empties().count() == u32::from(empties))?;
    if Variant::Othello.must_pass(&pos) {
        return None;
    }
    let black = 2 * i32::from(game.perfect_black_discs) - 64;
    let margin = match pos.side_to_move() {
        Side::Black => black,
        Side::White => -black,
    };
    Some((pos, margin))
}

/// The errors of one way of valuing the positions, in discs.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Errors {
    /// The mean of |value - perfect|.
    pub mean_abs: f64,
    /// The root of the mean squared error.
    pub rms: f64,
    /// The mean of value - perfect (positive: too hopeful for the side to move).
    pub bias: f64,
}

impl Errors {
    fn of(pairs: &[(f64, f64)]) -> Errors {
        let n = pairs.len().max(1) as f64;
        let (mut abs, mut sq, mut sum) = (0.0, 0.0, 0.0);
        for &(value, truth) in pairs {
            let e = value - truth;
            abs += e.abs();
            sq += e * e;
            sum += e;
        }
        Errors {
            mean_abs: abs / n,
            rms: (sq / n).sqrt(),
            bias: sum / n,
        }
    }
}

/// `weights`' errors on `positions`: the static evaluation's, and a `depth`-ply alpha-beta
/// search's (Multi-ProbCut as the engine searches), on `threads` workers.
pub fn held_out_errors(
    weights: &Weights,
    positions: &[HeldOutPosition],
    depth: u32,
    threads: usize,
) -> (Errors, Errors) {
    let values: Vec<(f64, f64, f64)> = in_pool(threads, || {
        positions
            .par_iter()
            .map_init(
                || FixedDepth::new(weights, Variant::Othello, 8 << 20, DEFAULT_PROBCUT),
                |search, (pos, truth)| {
                    let (p, o) = (pos.player().0, pos.opponent().0);
                    let scale = f64::from(SCALE);
                    let stat = f64::from(weights.evaluate(pos.player(), pos.opponent())) / scale;
                    let searched = f64::from(search.value(p, o, depth)) / scale;
                    (stat, searched, f64::from(*truth))
                },
            )
            .collect()
    });
    let stat: Vec<(f64, f64)> = values.iter().map(|&(s, _, t)| (s, t)).collect();
    let searched: Vec<(f64, f64)> = values.iter().map(|&(_, s, t)| (s, t)).collect();
    (Errors::of(&stat), Errors::of(&searched))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::transcript;

    #[test]
    fn the_position_at_the_depth_and_its_margin_for_the_side_to_move() {
        let game = transcript::parse("f5d6c3d3c4", Variant::Othello).expect("legal");
        let wthor = WthorGame {
            black_discs: 40,
            perfect_black_discs: 34,
            game,
        };
        // 55 empty squares after the fifth move, White to move: Black's +4 is White's -4.
        let (pos, margin) = held_out_position(&wthor, 55).expect("there");
        assert_eq!(pos.side_to_move(), Side::White);
        assert_eq!(margin, -4);
        assert!(
            held_out_position(&wthor, 24).is_none(),
            "the game never got there"
        );
    }

    #[test]
    fn errors_are_measured_in_discs() {
        let e = Errors::of(&[(2.0, 0.0), (-2.0, 0.0), (4.0, 2.0)]);
        assert_eq!(e.mean_abs, 2.0);
        assert_eq!(e.bias, 2.0 / 3.0);
        assert!((e.rms - 2.0).abs() < 1e-12);
        // A search as deep as the end is exact: no error against the solver's value, which
        // the static evaluation misses.
        let set = crate::search::puzzle::parse_set(crate::search::puzzle::SHIPPED).expect("reads");
        let puzzle = set
            .iter()
            .find(|p| p.position.empties().count() <= 12)
            .expect("a puzzle near the end");
        let depth = puzzle.position.empties().count();
        let w = crate::eval::builtin();
        let (stat, searched) = held_out_errors(w, &[(puzzle.position, puzzle.best)], depth, 1);
        assert_eq!(searched.mean_abs, 0.0);
        assert!(stat.mean_abs > 0.0);
    }
}
