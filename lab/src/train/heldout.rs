//! The evaluation's error on held-out real games (#69): positions of the WTHOR database's
//! games at the files' perfect-play depth (24 empty squares), each with the perfect-play score
//! the file gives, valued by the static evaluation and by a fixed-depth search.

use super::{Sample, in_pool};
use montello_engine::eval::{SCALE, Weights};
use montello_engine::notation::wthor::WthorGame;
use montello_engine::search::{DEFAULT_PROBCUT, FixedDepth};
use montello_engine::{Position, Side, Variant};
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

/// The first year whose WTHOR games are test sets only (#69: 2017 and 2018 measure; nothing
/// from then on is ever trained on).
pub const FIRST_TEST_YEAR: u16 = 2017;

/// Training samples from a real game (#69): every position from the start down to the file's
/// perfect-play depth (`depth` empty squares) where the side to move has a move, labelled
/// with the perfect-play margin of the game's position at that depth for its side to move;
/// and the game's positions with `exact` empty squares or fewer (a move to play, the game not
/// over), each solved exactly by `solver`. The position at the depth is labelled exactly; the
/// earlier ones with what their game came to with perfect play from there (the players' own
/// moves up to it, so not their exact value: the label of an outcome, less noisy than the
/// final score). The positions between the depth and `exact` have no label.
pub fn game_samples(
    game: &WthorGame,
    depth: u8,
    exact: u32,
    solver: &mut dyn FnMut(&Position) -> Option<i32>,
) -> Vec<Sample> {
    // A game that never reached the depth with a move to play there has no label.
    if held_out_position(game, depth).is_none() {
        return Vec::new();
    }
    // The margin for Black at the depth, from which each position's side takes its sign.
    let black = 2 * i32::from(game.perfect_black_discs) - 64;
    let sample = |p: &Position, margin: i32, exact: bool| Sample {
        p: p.player(),
        o: p.opponent(),
        label: margin.clamp(-64, 64) as i8,
        exact,
        search: None,
    };
    let mut samples = Vec::new();
    for p in game.game.positions() {
        let empties = p.empties().count();
        if Variant::Othello.must_pass(p) || Variant::Othello.is_game_over(p) {
            continue;
        }
        if empties >= u32::from(depth) {
            let margin = match p.side_to_move() {
                Side::Black => black,
                Side::White => -black,
            };
            samples.push(sample(p, margin, empties == u32::from(depth)));
        } else if empties <= exact
            && let Some(value) = solver(p)
        {
            samples.push(sample(p, value, true));
        }
    }
    samples
}

/// The exact final margin of `pos` for its side to move (the trainer's endgame solver).
pub fn solve_exactly(pos: &Position) -> Option<i32> {
    montello_engine::search::Solver::new(Variant::Othello, None, None).solve(pos, -64, 64)
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
    use montello_engine::notation::transcript;

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
    fn a_games_samples_run_to_the_depth_each_with_its_sides_perfect_play_margin() {
        let game = transcript::parse("f5d6c3d3c4f4f6", Variant::Othello).expect("legal");
        let wthor = WthorGame {
            black_discs: 40,
            perfect_black_discs: 34,
            game,
        };
        // With a perfect-play depth of 55: the start and the five positions after it (the
        // two after the depth are left out: `exact` is below them).
        let mut never = |_: &Position| -> Option<i32> { panic!("nothing to solve") };
        let samples = game_samples(&wthor, 55, 20, &mut never);
        assert_eq!(samples.len(), 6);
        let start = Position::start();
        assert_eq!(
            (samples[0].p, samples[0].o),
            (start.player(), start.opponent())
        );
        for (i, s) in samples.iter().enumerate() {
            // Black (to move at the even plies) is +4 with perfect play, White -4.
            let black_to_move = i % 2 == 0;
            assert_eq!(s.label, if black_to_move { 4 } else { -4 }, "ply {i}");
            assert_eq!(s.exact, s.empties() == 55, "ply {i}");
            assert!(s.empties() >= 55 && s.search.is_none());
        }
        // Positions at `exact` empty squares or fewer are solved: here the last two, by a
        // stand-in solver that says +9.
        let mut nine = |_: &Position| Some(9);
        let solved = game_samples(&wthor, 56, 54, &mut nine);
        assert_eq!(solved.len(), 5 + 2);
        assert!(
            solved[5..]
                .iter()
                .all(|s| s.exact && s.label == 9 && s.empties() <= 54)
        );
        // A game that never reached the depth has no label, so no samples.
        assert!(game_samples(&wthor, 24, 20, &mut nine).is_empty());
    }

    #[test]
    fn errors_are_measured_in_discs() {
        let e = Errors::of(&[(2.0, 0.0), (-2.0, 0.0), (4.0, 2.0)]);
        assert_eq!(e.mean_abs, 2.0);
        assert_eq!(e.bias, 2.0 / 3.0);
        assert!((e.rms - 2.0).abs() < 1e-12);
        // A search as deep as the end is exact: no error against the solver's value, which
        // the static evaluation misses.
        let set =
            montello_engine::search::puzzle::parse_set(montello_engine::search::puzzle::SHIPPED)
                .expect("reads");
        let puzzle = set
            .iter()
            .find(|p| p.position.empties().count() <= 12)
            .expect("a puzzle near the end");
        let depth = puzzle.position.empties().count();
        let w = montello_engine::eval::builtin();
        let (stat, searched) = held_out_errors(w, &[(puzzle.position, puzzle.best)], depth, 1);
        assert_eq!(searched.mean_abs, 0.0);
        assert!(stat.mean_abs > 0.0);
    }
}
