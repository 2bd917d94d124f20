use super::*;
use montello_engine::eval::{PHASES, SCALE, Weights};
use montello_engine::search::Solver;
use montello_engine::{Bitboard, Variant};

/// The bias per count of empty squares that `fit_empties_bias` finds is the shift
/// planted in the targets (added to the bias the weights have), for every count with
/// enough samples, and the weights' own bias elsewhere; with it the weights meet the
/// targets, and fitting again changes nothing.
#[test]
fn the_empties_bias_fit_finds_a_planted_shift() {
    let w = montello_engine::eval::builtin().clone();
    let planted = |e: usize| (e as i32 % 5 - 2) * 37 + 11;
    let samples: Vec<Sample> = montello_engine::random_positions(3, 70_000)
        .iter()
        .map(|pos| {
            let (p, o) = (pos.player(), pos.opponent());
            let e = (!(p.0 | o.0)).count_ones() as usize;
            Sample {
                p,
                o,
                label: 0,
                exact: false,
                search: Some((w.evaluate(p, o) + planted(e)) as i16),
            }
        })
        .collect();
    let mut count = [0usize; montello_engine::eval::EMPTIES_BIAS_LEN];
    for s in &samples {
        count[s.empties() as usize] += 1;
    }
    let fit = Fit {
        search_weight: 1.0,
        ..Fit::default()
    };
    let target = |s: &Sample| fit.target(s);
    let bias = fit_empties_bias(&w, &samples, &target);
    // The shift is added to the bias the weights already have.
    let before = w.empties_bias();
    let mut fitted = 0;
    for (e, &b) in bias.iter().enumerate() {
        if count[e] >= EMPTIES_BIAS_MIN_SAMPLES {
            assert_eq!(
                i32::from(b),
                i32::from(before[e]) + planted(e),
                "{e} empties"
            );
            fitted += 1;
        } else {
            assert_eq!(b, before[e], "{e} empties, {} samples", count[e]);
        }
    }
    assert!(fitted >= 40, "{fitted} counts fitted");
    let shifted = w.clone().with_empties_bias(bias);
    let far = samples
        .iter()
        .filter(|s| count[s.empties() as usize] >= EMPTIES_BIAS_MIN_SAMPLES)
        .filter(|s| {
            // (Away from the clamp at 64 discs, where the shift cannot show.)
            let (v0, v) = (w.evaluate(s.p, s.o), shifted.evaluate(s.p, s.o));
            v0.abs() < 63 * SCALE && v.abs() < 63 * SCALE && v != i32::from(s.search.unwrap())
        })
        .count();
    assert_eq!(far, 0, "samples the shifted weights miss");
    assert_eq!(fit_empties_bias(&shifted, &samples, &target), bias);
}

#[test]
fn self_play_labels_are_exact_in_the_endgame() {
    let w = montello_engine::eval::heuristic();
    let cfg = SelfPlay {
        exact_empties: 8,
        ..SelfPlay::default()
    };
    let samples = play_chunk(&w, &cfg, 5, 0, 3);
    assert!(samples.len() > 100);
    for s in samples.iter().filter(|s| s.exact) {
        assert!(s.empties() <= 8);
        let pos =
            montello_engine::Position::from_player_opponent(s.p, s.o, montello_engine::Side::Black);
        let v = Solver::new(Variant::Othello, None, None).solve(&pos, -64, 64);
        assert_eq!(v, Some(i32::from(s.label)));
    }
    assert_eq!(samples, play_chunk(&w, &cfg, 5, 0, 3), "seeded");
}

#[test]
fn generation_five_games_skip_the_random_opening_and_keep_exact_labels() {
    let w = montello_engine::eval::builtin();
    let cfg = SelfPlay {
        opening_plies: (10, 10),
        depth: 3,
        exact_empties: 10,
        probcut: 15,
        skip_opening: true,
        ..SelfPlay::default()
    };
    let samples = play_chunk(w, &cfg, 7, 0, 3);
    assert!(samples.len() > 60, "{} samples", samples.len());
    // Ten random plies from 60 empty squares: nothing before 50 empties is kept.
    assert!(samples.iter().all(|s| s.empties() <= 50));
    for s in samples.iter().filter(|s| s.exact) {
        let pos =
            montello_engine::Position::from_player_opponent(s.p, s.o, montello_engine::Side::Black);
        let v = Solver::new(Variant::Othello, None, None).solve(&pos, -64, 64);
        assert_eq!(v, Some(i32::from(s.label)));
    }
    let all = play_chunk(
        w,
        &SelfPlay {
            skip_opening: false,
            ..cfg
        },
        7,
        0,
        3,
    );
    assert!(
        all.iter().any(|s| s.empties() == 60),
        "the start is a sample otherwise"
    );
}

#[test]
fn the_search_ramp_gives_the_outcome_near_the_solve_and_the_mix_far_from_it() {
    let fit = Fit {
        search_weight: 0.8,
        search_ramp: Some((18, 30)),
        ..Fit::default()
    };
    let at = |e: u32| fit.search_weight_at(e);
    assert_eq!((at(10), at(18), at(30), at(45)), (0.0, 0.0, 0.8, 0.8));
    assert!((at(24) - 0.4).abs() < 1e-6, "halfway: {}", at(24));
    // A sample at 18 empties learns its outcome, one at 40 the constant mix.
    let sample = |empties: u32| Sample {
        p: Bitboard(u64::MAX << empties),
        o: Bitboard(0),
        label: 10,
        exact: false,
        search: Some(20 * SCALE as i16),
    };
    assert_eq!(sample(18).empties(), 18);
    assert_eq!(fit.target(&sample(18)), 10.0);
    assert!((fit.target(&sample(40)) - 18.0).abs() < 1e-4);
    let flat = Fit {
        search_ramp: None,
        ..fit
    };
    assert!((flat.target(&sample(18)) - 18.0).abs() < 1e-4);
}

#[test]
fn samples_round_trip_through_a_file() {
    let w = montello_engine::eval::heuristic();
    let samples = play_chunk(
        &w,
        &SelfPlay {
            exact_empties: 8,
            ..SelfPlay::default()
        },
        1,
        0,
        2,
    );
    let dir = std::env::temp_dir().join(format!("montello-train-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{e}"));
    let path = dir.join("chunk.bin");
    write_samples(&path, &samples).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        read_samples(&path).unwrap_or_else(|e| panic!("{e}")),
        samples
    );
    let _ = std::fs::remove_dir_all(&dir);
}

fn label(s: &Sample) -> f32 {
    f32::from(s.label)
}

#[test]
fn a_match_counts_every_game_and_favours_the_better_weights() {
    let openings =
        crate::arena::parse_openings(crate::arena::OPENINGS).unwrap_or_else(|e| panic!("{e}"));
    let r = match_weights(
        &montello_engine::eval::heuristic(),
        &Weights::zeros(),
        1,
        8,
        &openings,
        12,
        2,
    );
    assert_eq!(r.games_played(), 12);
    assert!(
        r.score() > 0.5,
        "mobility and corners beat nothing: {}",
        r.score()
    );
    let same = match_weights(&Weights::zeros(), &Weights::zeros(), 1, 8, &openings, 12, 2);
    assert!(
        (same.score() - 0.5).abs() < 1e-9,
        "colours swapped: {}",
        same.score()
    );
}

/// 60 quick seeded games of the heuristic player (depth 1, exact from 8 empties).
fn tiny_chunk() -> Vec<Sample> {
    let cfg = SelfPlay {
        exact_empties: 8,
        depth: 1,
        ..SelfPlay::default()
    };
    play_chunk(&montello_engine::eval::heuristic(), &cfg, 9, 0, 60)
}

#[test]
fn relabelling_replaces_the_search_values_and_keeps_the_exact_labels() {
    let w = montello_engine::eval::builtin();
    let mut samples = tiny_chunk();
    let before = samples.clone();
    let cfg = SelfPlay {
        depth: 4,
        probcut: 15,
        noise: 500,
        ..SelfPlay::default()
    };
    relabel(w, &mut samples, &cfg);
    let mut changed = 0;
    for (a, b) in before.iter().zip(&samples) {
        assert_eq!((a.p, a.o, a.label, a.exact), (b.p, b.o, b.label, b.exact));
        if b.exact {
            assert_eq!(a.search, b.search, "exact samples are left alone");
        } else {
            assert!(b.search.is_some());
            changed += usize::from(a.search != b.search);
        }
    }
    assert!(changed > 100, "{changed} search values changed");
    // The noise of the games' move choice stays out of the values.
    let mut again = before.clone();
    relabel(w, &mut again, &cfg);
    assert_eq!(again, samples, "no noise, no randomness");
}

#[test]
fn a_tiny_seeded_fit_reduces_the_error() {
    let w0 = Weights::zeros();
    let samples = tiny_chunk();
    let before: f64 = errors(&w0, &samples, &label)
        .iter()
        .map(|e| e.mae * e.n as f64)
        .sum();
    let fit = Fit {
        epochs: 4,
        ..Fit::default()
    };
    let w1 = fit_all(&samples, &w0, &fit, 2);
    let after: f64 = errors(&w1, &samples, &label)
        .iter()
        .map(|e| e.mae * e.n as f64)
        .sum();
    assert!(after < 0.7 * before, "error {before} -> {after}");
    assert_eq!(
        w1,
        fit_all(&samples, &w0, &fit, 1),
        "the thread count changes nothing"
    );
}

/// Sum of squared errors (discs) of `w` on `samples` against their labels.
fn squared_error(w: &Weights, samples: &[Sample]) -> f64 {
    samples
        .iter()
        .map(|s| (f64::from(w.evaluate(s.p, s.o)) / f64::from(SCALE) - f64::from(s.label)).powi(2))
        .sum()
}

#[test]
fn conjugate_gradients_fit_closer_than_descent_and_converge() {
    let w0 = Weights::zeros();
    let samples = tiny_chunk();
    let cg = |iterations, ridge| Fit {
        cg: Some((iterations, ridge)),
        ..Fit::default()
    };
    let zero = squared_error(&w0, &samples);
    let sgd = squared_error(&fit_all(&samples, &w0, &Fit::default(), 2), &samples);
    let few = squared_error(&fit_all(&samples, &w0, &cg(2, 0.0), 2), &samples);
    let w_many = fit_all(&samples, &w0, &cg(60, 0.0), 2);
    let many = squared_error(&w_many, &samples);
    // 60 preconditioned iterations reach the least-squares fit of the training set, which
    // stochastic descent only approaches.
    assert!(few < zero, "{zero} -> {few}");
    assert!(many < few, "2 iterations {few}, 60 {many}");
    assert!(
        many < 0.5 * sgd,
        "descent {sgd}, conjugate gradients {many}"
    );
    assert_eq!(
        w_many,
        fit_all(&samples, &w0, &cg(60, 0.0), 1),
        "the thread count changes nothing"
    );
    // A large ridge holds every weight near zero.
    let largest = |w: &Weights| {
        (0..PHASES)
            .flat_map(|ph| w.phase(ph).iter().map(|x| x.unsigned_abs()))
            .max()
            .unwrap_or(0)
    };
    let held = fit_all(&samples, &w0, &cg(60, 1.0e6), 2);
    assert!(
        largest(&held) * 20 < largest(&w_many),
        "ridge 1e6: largest weight {}, ridge 0: {}",
        largest(&held),
        largest(&w_many)
    );
}

/// A fit towards the starting weights refines them: a huge ridge leaves them as they were
/// (the tables and the bias per count of empty squares), a small one fits the samples closer
/// than they did, and the bias per count of empty squares is kept either way. The plain fit
/// with the same huge ridge pulls the weights the samples touch to zero instead, and drops
/// the bias.
#[test]
fn a_fit_toward_the_init_refines_it_and_keeps_its_bias() {
    let w0 = montello_engine::eval::builtin().clone();
    assert!(w0.empties_bias().iter().any(|&b| b != 0));
    let samples = tiny_chunk();
    let fit = |ridge, toward_init| Fit {
        cg: Some((60, ridge)),
        toward_init,
        ..Fit::default()
    };
    let held = fit_all(&samples, &w0, &fit(1.0e12, true), 2);
    assert!(held == w0, "a huge ridge towards the init moves nothing");
    let refined = fit_all(&samples, &w0, &fit(1.0, true), 2);
    assert_eq!(refined.empties_bias(), w0.empties_bias());
    let (before, after) = (
        squared_error(&w0, &samples),
        squared_error(&refined, &samples),
    );
    assert!(after < 0.5 * before, "{before} -> {after}");
    let plain = fit_all(&samples, &w0, &fit(1.0e12, false), 2);
    assert!(plain != w0);
    assert!(plain.empties_bias().iter().all(|&b| b == 0));
}

/// `train fit --max-empties N --toward-init`'s promise: a phase that no sample reaches
/// (within the overlap) keeps the init's table entry for entry, while the phases the samples
/// reach are refined.
#[test]
fn a_fit_toward_the_init_leaves_the_phases_without_samples_alone() {
    let w0 = montello_engine::eval::builtin().clone();
    let late: Vec<Sample> = tiny_chunk()
        .into_iter()
        .filter(|s| s.empties() <= 14)
        .collect();
    assert!(late.len() > 20, "{} late samples", late.len());
    let fit = Fit {
        cg: Some((60, 1.0)),
        toward_init: true,
        overlap: 4,
        ..Fit::default()
    };
    let w = fit_all(&late, &w0, &fit, 2);
    // 14 empties reach phase(18) = 3 through the overlap; nothing reaches 21 or more.
    for ph in montello_engine::eval::phase(21)..montello_engine::eval::PHASES {
        assert!(w.phase(ph) == w0.phase(ph), "phase {ph} moved");
    }
    assert!(
        (0..=montello_engine::eval::phase(14)).any(|ph| w.phase(ph) != w0.phase(ph)),
        "the late phases were not refined"
    );
}

#[test]
fn interpolated_fits_solve_the_phases_together() {
    let w0 = Weights::zeros();
    let samples = tiny_chunk();
    let fit = Fit {
        cg: Some((60, 0.0)),
        interpolate: true,
        ..Fit::default()
    };
    let w = fit_all(&samples, &w0, &fit, 2);
    assert!(w.interpolated());
    assert_eq!(
        w,
        fit_all(&samples, &w0, &fit, 1),
        "the thread count changes nothing"
    );
    // The positions between two phases' middles are fitted by the blend of both as closely
    // as those at a middle by one (a system missing either share would leave them far off).
    let (middle, between): (Vec<Sample>, Vec<Sample>) = samples
        .iter()
        .partition(|s| montello_engine::eval::interpolation(s.empties()).1 == 0);
    assert!(
        between.len() > 2 * middle.len(),
        "{} / {}",
        between.len(),
        middle.len()
    );
    // Both are fitted about as closely as the step tables' least squares fits them (a
    // system missing either share would leave the positions between far off); the rest
    // is the noise of positions met in several games with different outcomes.
    let step = fit_all(
        &samples,
        &w0,
        &Fit {
            cg: Some((60, 0.0)),
            ..Fit::default()
        },
        2,
    );
    for (name, set) in [("at a middle", &middle), ("between", &between)] {
        let (before, after) = (squared_error(&w0, set), squared_error(&w, set));
        let steps = squared_error(&step, set);
        assert!(after < 0.3 * before, "{name}: {before} -> {after}");
        assert!(
            after < 1.1 * steps,
            "{name}: {after}, the step tables' fit {steps}"
        );
    }
    // The same tables read as steps fit worse: the blend is what was solved for.
    let read_as_steps = squared_error(&w.clone().with_interpolation(false), &between);
    assert!(
        read_as_steps > 1.5 * squared_error(&w, &between),
        "{read_as_steps}"
    );
}

#[test]
fn overlapping_phases_learn_from_their_neighbours_positions() {
    // Every sample has 21-23 empty squares: phase 4 (21-25 empties) alone.
    let samples: Vec<Sample> = tiny_chunk()
        .into_iter()
        .filter(|s| (21..=23).contains(&s.empties()))
        .collect();
    assert!(samples.len() > 50, "{} samples", samples.len());
    let w0 = Weights::zeros();
    let changed = |w: &Weights| -> Vec<usize> {
        (0..PHASES)
            .filter(|&ph| w.phase(ph) != w0.phase(ph))
            .collect()
    };
    let own = fit_all(&samples, &w0, &Fit::default(), 2);
    assert_eq!(changed(&own), [4]);
    // Two empties either side reach 19-25: phase 3 (16-20) learns too, phase 5 does not.
    let two = Fit {
        overlap: 2,
        ..Fit::default()
    };
    assert_eq!(changed(&fit_all(&samples, &w0, &two, 2)), [3, 4]);
    let five = Fit {
        overlap: 5,
        ..Fit::default()
    };
    assert_eq!(changed(&fit_all(&samples, &w0, &five, 2)), [3, 4, 5]);
}
