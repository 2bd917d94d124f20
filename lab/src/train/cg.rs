//! The least-squares fit by preconditioned conjugate gradients on the normal equations: per
//! phase, or all phases together for tables interpolated between the phases' middles.

use super::{Fit, Sample, parallel_map};
use montello_engine::eval::{
    EMPTIES_BIAS_LEN, FEATURES, PHASE_SIZE, PHASES, SCALE, Weights, features, interpolation,
};

/// Each sample's features, every weight named by its symmetry class's (`map`).
pub(super) fn canonical_features(samples: &[&Sample], map: &[u32]) -> Vec<[u32; FEATURES]> {
    samples
        .iter()
        .map(|s| features(s.p.0, s.o.0).map(|x| map[x as usize]))
        .collect()
}

/// Ridge regression of one phase by conjugate gradients on the normal equations
/// `(X'X + ridge I) w = X'y`, preconditioned by their diagonal, from `init`: each iteration
/// is two passes over the samples (the predictions `X p`, then their scatter `X' (X p)`).
/// Weights that share a symmetry class are one unknown; classes no sample touches stay at
/// their start.
///
/// With `prior` (the starting weights' bias per count of empty squares) the ridge pulls
/// towards `init` instead of 0: the change `d` from `init` solves `(X'X + ridge I) d =
/// X'(y - X init - bias)`, from `d = 0`.
pub(super) fn fit_phase_cg(
    samples: &[&Sample],
    init: &[i16],
    prior: Option<&[i16; EMPTIES_BIAS_LEN]>,
    fit: &Fit,
    map: &[u32],
    iterations: u32,
    ridge: f64,
) -> Vec<i16> {
    let scale = f64::from(SCALE);
    let feats = canonical_features(samples, map);
    let n = init.len();
    let mut w = vec![0f64; n];
    for (i, &m) in map.iter().enumerate() {
        w[m as usize] = f64::from(init[i]) / scale;
    }
    // Towards `init`: the unknowns are the changes from it (`w0`), fitted to what it misses
    // by.
    let start = prior.map(|bias| (std::mem::replace(&mut w, vec![0f64; n]), bias));
    let target = |f: &[u32; FEATURES], s: &Sample| -> f64 {
        let y = f64::from(fit.target(s));
        match &start {
            Some((w0, bias)) => {
                y - f.iter().map(|&i| w0[i as usize]).sum::<f64>()
                    - f64::from(bias[s.empties() as usize]) / scale
            }
            None => y,
        }
    };
    // The diagonal of X'X (how often each unknown occurs, squared per position) preconditions
    // the iterations; an unknown no position touches has none, so its preconditioned residual
    // is 0 and it stays where it started.
    let mut diag = vec![0f64; n];
    for f in &feats {
        for (k, &i) in f.iter().enumerate() {
            if !f[..k].contains(&i) {
                let c = f.iter().filter(|&&j| j == i).count() as f64;
                diag[i as usize] += c * c;
            }
        }
    }
    let inv: Vec<f64> = diag
        .iter()
        .map(|&d| if d > 0.0 { 1.0 / (d + ridge) } else { 0.0 })
        .collect();
    // A v = X'(X v) + ridge v.
    let apply = |v: &[f64], out: &mut [f64]| {
        out.iter_mut().for_each(|x| *x = 0.0);
        for f in &feats {
            let xv: f64 = f.iter().map(|&i| v[i as usize]).sum();
            for &i in f {
                out[i as usize] += xv;
            }
        }
        for (o, x) in out.iter_mut().zip(v) {
            *o += ridge * x;
        }
    };
    // r = X'y - A w
    let mut r = vec![0f64; n];
    apply(&w, &mut r);
    r.iter_mut().for_each(|x| *x = -*x);
    for (f, s) in feats.iter().zip(samples) {
        let y = target(f, s);
        for &i in f {
            r[i as usize] += y;
        }
    }
    conjugate_gradients(&mut w, r, &inv, iterations, apply);
    if let Some((w0, _)) = &start {
        w.iter_mut().zip(w0).for_each(|(d, w0)| *d += w0);
    }
    (0..n).map(|i| to_weight(w[map[i] as usize])).collect()
}

/// Preconditioned conjugate gradients for `A w = b`: from `w` with the residual `r = b - A w`,
/// the preconditioner's inverse diagonal `inv`, at most `iterations` steps, `apply(v, out)`
/// writing `A v` into `out`.
fn conjugate_gradients(
    w: &mut [f64],
    mut r: Vec<f64>,
    inv: &[f64],
    iterations: u32,
    mut apply: impl FnMut(&[f64], &mut [f64]),
) {
    let n = w.len();
    let mut z: Vec<f64> = r.iter().zip(inv).map(|(a, b)| a * b).collect();
    let mut p = z.clone();
    let mut ap = vec![0f64; n];
    let mut rz: f64 = r.iter().zip(&z).map(|(a, b)| a * b).sum();
    for _ in 0..iterations {
        if rz == 0.0 {
            break;
        }
        apply(&p, &mut ap);
        let pap: f64 = p.iter().zip(&ap).map(|(a, b)| a * b).sum();
        if pap <= 0.0 {
            break;
        }
        let alpha = rz / pap;
        for i in 0..n {
            w[i] += alpha * p[i];
            r[i] -= alpha * ap[i];
            z[i] = r[i] * inv[i];
        }
        let rz_new: f64 = r.iter().zip(&z).map(|(a, b)| a * b).sum();
        let beta = rz_new / rz;
        rz = rz_new;
        for i in 0..n {
            p[i] = z[i] + beta * p[i];
        }
    }
}

/// A fitted weight in discs as a table entry (1/SCALE disc, clamped to the `i16` range).
fn to_weight(discs: f64) -> i16 {
    (discs * f64::from(SCALE)).round().clamp(-32000.0, 32000.0) as i16
}

/// The ridge regression of [`fit_phase_cg`] for weights interpolated between the phases'
/// middles: a position `r` fifths of the way from phase `k`'s middle to phase `k + 1`'s is
/// predicted by `(1 - r/5) x'w_k + (r/5) x'w_(k+1)`, so the phases are one system, solved
/// together by preconditioned conjugate gradients from `init`. Each iteration computes every
/// phase's share of `X'X p` from the positions on either side of its middle (`threads`
/// phases at a time; the result does not depend on `threads`).
pub(super) fn fit_interpolated(
    samples: &[Sample],
    init: &Weights,
    fit: &Fit,
    map: &[u32],
    iterations: u32,
    ridge: f64,
    threads: usize,
) -> Weights {
    let scale = f64::from(SCALE);
    let all: Vec<&Sample> = samples.iter().collect();
    let feats = canonical_features(&all, map);
    let targets: Vec<f64> = samples.iter().map(|s| f64::from(fit.target(s))).collect();
    // Per phase: (sample, this phase's share, the other phase and its share).
    let mut touching: Vec<Vec<(u32, f64, usize, f64)>> = vec![Vec::new(); PHASES];
    for (k, s) in samples.iter().enumerate() {
        let (ph, r) = interpolation(s.empties());
        let b = f64::from(r) / 5.0;
        touching[ph].push((k as u32, 1.0 - b, ph + 1, b));
        if r > 0 {
            touching[ph + 1].push((k as u32, b, ph, 1.0 - b));
        }
    }
    let n = PHASES * PHASE_SIZE;
    let mut w = vec![0f64; n];
    for ph in 0..PHASES {
        let base = ph * PHASE_SIZE;
        for (i, &m) in map.iter().enumerate() {
            w[base + m as usize] = f64::from(init.phase(ph)[i]) / scale;
        }
    }
    let counts = |f: &[u32; FEATURES], i: u32| f.iter().filter(|&&j| j == i).count() as f64;
    let diag: Vec<f64> = parallel_map(PHASES, threads, |ph| {
        let mut d = vec![0f64; PHASE_SIZE];
        for &(k, a, _, _) in &touching[ph] {
            let f = &feats[k as usize];
            for (j, &i) in f.iter().enumerate() {
                if !f[..j].contains(&i) {
                    d[i as usize] += (a * counts(f, i)).powi(2);
                }
            }
        }
        d
    })
    .concat();
    let inv: Vec<f64> = diag
        .iter()
        .map(|&d| if d > 0.0 { 1.0 / (d + ridge) } else { 0.0 })
        .collect();
    // A v = X'(X v) + ridge v, each phase's rows from the positions that touch it.
    let apply = |v: &[f64]| -> Vec<f64> {
        let part = |ph: usize| &v[ph * PHASE_SIZE..(ph + 1) * PHASE_SIZE];
        let mut out = parallel_map(PHASES, threads, |ph| {
            let mut out = vec![0f64; PHASE_SIZE];
            let own = part(ph);
            for &(k, a, other, b) in &touching[ph] {
                let f = &feats[k as usize];
                let mut xv = a * f.iter().map(|&i| own[i as usize]).sum::<f64>();
                if b > 0.0 {
                    let o = part(other);
                    xv += b * f.iter().map(|&i| o[i as usize]).sum::<f64>();
                }
                for &i in f {
                    out[i as usize] += a * xv;
                }
            }
            out
        })
        .concat();
        for (o, x) in out.iter_mut().zip(v) {
            *o += ridge * x;
        }
        out
    };
    // r = X'y - A w
    let xty: Vec<f64> = parallel_map(PHASES, threads, |ph| {
        let mut out = vec![0f64; PHASE_SIZE];
        for &(k, a, _, _) in &touching[ph] {
            for &i in &feats[k as usize] {
                out[i as usize] += a * targets[k as usize];
            }
        }
        out
    })
    .concat();
    let r: Vec<f64> = xty.iter().zip(apply(&w)).map(|(y, aw)| y - aw).collect();
    conjugate_gradients(&mut w, r, &inv, iterations, |v, out| {
        out.copy_from_slice(&apply(v))
    });
    let data: Vec<i16> = (0..PHASES)
        .flat_map(|ph| {
            let w = &w[ph * PHASE_SIZE..(ph + 1) * PHASE_SIZE];
            map.iter().map(move |&m| to_weight(w[m as usize]))
        })
        .collect();
    Weights::from_raw(data)
        .map(|w| w.with_interpolation(true))
        .unwrap_or_else(|_| init.clone())
}
