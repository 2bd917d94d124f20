//! Fitting the tables by stochastic gradient descent (the conjugate gradients are `cg.rs`'s),
//! and measuring a fit: the error per phase and the bias per count of empty squares.

use super::cg::{canonical_features, fit_interpolated, fit_phase_cg};
use super::{Fit, Sample, parallel_map};
use montello_engine::FastRng;
use montello_engine::eval::{
    EMPTIES_BIAS_LEN, PHASE_SIZE, PHASES, SCALE, Weights, canonical_map, phase,
};

/// Error statistics of one phase.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct PhaseError {
    /// Samples.
    pub n: usize,
    /// Mean absolute error, in discs.
    pub mae: f64,
    /// Mean error (value minus target), in discs: above 0 where the weights value the
    /// positions too highly for the side to move.
    pub mean: f64,
}

/// Mean absolute error (discs) of `w` on `samples` against `target`, per phase.
pub fn errors(
    w: &Weights,
    samples: &[Sample],
    target: &dyn Fn(&Sample) -> f32,
) -> [PhaseError; PHASES] {
    let mut sum = [0f64; PHASES];
    let mut signed = [0f64; PHASES];
    let mut n = [0usize; PHASES];
    for s in samples {
        let ph = phase(s.empties());
        let e = w.evaluate(s.p, s.o) as f64 / SCALE as f64 - f64::from(target(s));
        sum[ph] += e.abs();
        signed[ph] += e;
        n[ph] += 1;
    }
    let per = |x: f64, n: usize| if n > 0 { x / n as f64 } else { 0.0 };
    std::array::from_fn(|i| PhaseError {
        n: n[i],
        mae: per(sum[i], n[i]),
        mean: per(signed[i], n[i]),
    })
}

/// Fewest samples at a count of empty squares for [`fit_empties_bias`] to change its bias.
pub const EMPTIES_BIAS_MIN_SAMPLES: usize = 500;

/// The bias per count of empty squares ([`Weights::empties_bias`]) that fits `samples` best
/// with `w`'s tables as they are: for each count with at least
/// [`EMPTIES_BIAS_MIN_SAMPLES`] samples, `w`'s bias plus the mean of `target - value` over
/// them (the least-squares shift, rounded to a unit); `w`'s bias elsewhere. Deterministic:
/// the sums run in the samples' order.
pub fn fit_empties_bias(
    w: &Weights,
    samples: &[Sample],
    target: &dyn Fn(&Sample) -> f32,
) -> [i16; montello_engine::eval::EMPTIES_BIAS_LEN] {
    let mut sum = [0f64; montello_engine::eval::EMPTIES_BIAS_LEN];
    let mut n = [0usize; montello_engine::eval::EMPTIES_BIAS_LEN];
    for s in samples {
        let e = s.empties() as usize;
        sum[e] += f64::from(target(s)) * f64::from(SCALE) - f64::from(w.evaluate(s.p, s.o));
        n[e] += 1;
    }
    let mut bias = *w.empties_bias();
    for e in 0..bias.len() {
        if n[e] >= EMPTIES_BIAS_MIN_SAMPLES {
            let shift = (sum[e] / n[e] as f64).round();
            bias[e] = (f64::from(bias[e]) + shift).clamp(-f64::from(i16::MAX), f64::from(i16::MAX))
                as i16;
        }
    }
    bias
}

/// Fits one phase's tables to its samples by stochastic gradient descent on the squared
/// error (or, with `fit.cg`, by `cg.rs`'s `fit_phase_cg`), starting from `init`; weights
/// that share a symmetry class move together. Returns the phase's weights rounded to integers.
/// With `fit.toward_init`, `empties_bias` (the starting weights' bias per count of empty
/// squares, which the tables are fitted around) is part of each position's starting value.
pub fn fit_phase(
    samples: &[&Sample],
    init: &[i16],
    empties_bias: &[i16; EMPTIES_BIAS_LEN],
    fit: &Fit,
    map: &[u32],
) -> Vec<i16> {
    if let Some((iterations, ridge)) = fit.cg {
        let prior = fit.toward_init.then_some(empties_bias);
        return fit_phase_cg(samples, init, prior, fit, map, iterations, f64::from(ridge));
    }
    let scale = 64.0 * SCALE as f32;
    let mut w: Vec<f32> = init.iter().map(|&x| f32::from(x) / scale).collect();
    let feats = canonical_features(samples, map);
    let mut order: Vec<u32> = (0..samples.len() as u32).collect();
    let mut rng = FastRng::new(fit.seed);
    let mut rate = fit.rate;
    for _ in 0..fit.epochs {
        rng.shuffle(&mut order);
        for &k in &order {
            let f = &feats[k as usize];
            let target = fit.target(samples[k as usize]) / 64.0;
            let pred: f32 = f.iter().map(|&i| w[i as usize]).sum();
            let step = rate * (target - pred);
            for &i in f {
                w[i as usize] += step;
            }
        }
        rate *= fit.decay;
    }
    (0..PHASE_SIZE)
        .map(|i| {
            let v = w[map[i] as usize] * scale;
            v.round().clamp(-32000.0, 32000.0) as i16
        })
        .collect()
}

/// Fits every phase (`threads` at a time; the result does not depend on `threads`), starting
/// from `init`.
pub fn fit_all(samples: &[Sample], init: &Weights, fit: &Fit, threads: usize) -> Weights {
    let map = canonical_map();
    if let (true, Some((iterations, ridge))) = (fit.interpolate, fit.cg) {
        return fit_interpolated(
            samples,
            init,
            fit,
            &map,
            iterations,
            f64::from(ridge),
            threads,
        );
    }
    let mut by_phase: Vec<Vec<&Sample>> = vec![Vec::new(); PHASES];
    for s in samples {
        let e = s.empties();
        let phases = phase(e.saturating_sub(fit.overlap))..=phase(e + fit.overlap);
        for own in &mut by_phase[phases] {
            own.push(s);
        }
    }
    let out = parallel_map(PHASES, threads, |ph| {
        fit_phase(
            &by_phase[ph],
            init.phase(ph),
            init.empties_bias(),
            fit,
            &map,
        )
    });
    let data: Vec<i16> = out.into_iter().flatten().collect();
    match Weights::from_raw(data) {
        Ok(w) if fit.toward_init && fit.cg.is_some() => w.with_empties_bias(*init.empties_bias()),
        Ok(w) => w,
        Err(_) => init.clone(),
    }
}
