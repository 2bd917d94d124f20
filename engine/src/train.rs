//! The evaluation's own training pipeline: self-play games labelled with exact endgame
//! solves, and a least-squares fit of the pattern tables (see `docs/eval.md`).
//!
//! One generation is: play games with the previous generation's weights (random openings of
//! varied length, then a shallow alpha-beta search with those weights, then perfect play from
//! `exact_empties` empty squares found by the exact solver); label every position of a game
//! with the exact final margin of the game from the first solved position (positions inside
//! the solved endgame get their own exact value); fit new tables to every sample so far.
//! Everything is seeded: a chunk of games depends only on the seed and its number, so a
//! generation is the same with any number of threads, and a killed run resumes from the
//! chunks already written.

pub mod probcut;

use crate::arena::in_pool;
use crate::bitboard::{flips, legal_moves};
use crate::eval::{
    FEATURES, PHASE_SIZE, PHASES, SCALE, Weights, canonical_map, features, interpolation, phase,
};
use crate::game::Turn;
use crate::playout::random_square_raw;
use crate::search::FixedDepth;
use crate::search::endgame::Solver;
use crate::{Bitboard, FastRng, Square, Variant};
use rayon::prelude::*;
use std::io::{self, Read, Write};
use std::path::Path;

/// One labelled position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sample {
    /// The side to move's discs.
    pub p: Bitboard,
    /// The opponent's discs.
    pub o: Bitboard,
    /// The final disc margin for the side to move: exact when `exact`, else the exact value
    /// of the game's first solved position (the outcome of the game played on from here).
    pub label: i8,
    /// Whether `label` is this position's own exact value.
    pub exact: bool,
    /// The position's value by the self-play player's search (in `1 / SCALE` disc), when
    /// the data has it.
    pub search: Option<i16>,
}

impl Sample {
    /// Empty squares.
    pub fn empties(&self) -> u32 {
        (!(self.p | self.o)).count()
    }
}

/// How self-play games are played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SelfPlay {
    /// Random moves at the start: drawn uniformly from this range (inclusive).
    pub opening_plies: (u32, u32),
    /// Alpha-beta depth of the move choice before the endgame.
    pub depth: u32,
    /// Solve exactly (and play perfectly) from this many empty squares.
    pub exact_empties: u32,
    /// Random noise added to each root move's score, in `1 / SCALE` disc (varies the games).
    pub noise: i32,
    /// Whether samples keep the player's search value (generation 1's hand-written player's
    /// are not worth learning from).
    pub record_search: bool,
    /// Multi-ProbCut's selectivity in the player's search, in tenths (0: off; see
    /// [`crate::search::AlphaBetaConfig::probcut`]).
    pub probcut: u32,
    /// Leave out the positions before the last random opening move: the game's result says
    /// little about them, since random moves decide part of it.
    pub skip_opening: bool,
}

impl Default for SelfPlay {
    fn default() -> Self {
        SelfPlay {
            opening_plies: (2, 24),
            depth: 2,
            exact_empties: 14,
            noise: SCALE,
            record_search: true,
            probcut: 0,
            skip_opening: false,
        }
    }
}

/// The player's search: the alpha-beta core with `w` at the leaves (a table of its own,
/// kept for one game or one batch so that the result depends only on the calls made).
fn player<'w>(w: &'w Weights, cfg: &SelfPlay) -> FixedDepth<'w> {
    FixedDepth::new(w, Variant::Othello, PLAYER_TABLE_BYTES, cfg.probcut)
}

/// The player's transposition table: 4 MiB, room for a game's searches at depth 5 or so.
const PLAYER_TABLE_BYTES: usize = 4 << 20;

/// The move the self-play player chooses at `(p, o)` (which has a legal move): each move's
/// value by `search` `cfg.depth - 1` plies deep, plus the noise. Also returns the position's
/// value by that search (without the noise).
fn choose(
    search: &mut FixedDepth,
    p: u64,
    o: u64,
    cfg: &SelfPlay,
    rng: &mut FastRng,
) -> (Square, i32) {
    let mut moves = legal_moves(p, o);
    let mut best = (i32::MIN, Square::ALL[moves.trailing_zeros() as usize]);
    let mut value = i32::MIN;
    while moves != 0 {
        let i = moves.trailing_zeros();
        moves &= moves - 1;
        let sq = Square::ALL[i as usize];
        let f = flips(p, o, sq);
        let v = -search.value(o & !f, p | f | sq.mask(), cfg.depth.saturating_sub(1));
        value = value.max(v);
        let noise = if cfg.noise > 0 {
            rng.below(2 * cfg.noise as u32 + 1) as i32 - cfg.noise
        } else {
            0
        };
        if v + noise > best.0 {
            best = (v + noise, sq);
        }
    }
    (best.1, value)
}

/// Plays from the start to the first position with `cfg.exact_empties` empties or fewer
/// and a legal move (random opening moves, then the search's choices), pushing every
/// position before it with the parity of its mover. Returns that position and its mover's
/// parity, or `None` if the game ended first.
fn play_to_endgame(
    w: &Weights,
    cfg: &SelfPlay,
    rng: &mut FastRng,
    before: &mut Vec<(u64, u64, bool, i16)>,
) -> Option<(u64, u64, bool)> {
    let start = crate::Position::start();
    let (mut p, mut o) = (start.player().0, start.opponent().0);
    let mut mover = false;
    let span = cfg.opening_plies.1.saturating_sub(cfg.opening_plies.0) + 1;
    let opening = cfg.opening_plies.0 + rng.below(span);
    let mut search = player(w, cfg);
    let mut ply = 0;
    loop {
        let (moves, passed) = Variant::Othello.next_moves(&mut p, &mut o)?;
        mover ^= passed;
        if (!(p | o)).count_ones() <= cfg.exact_empties {
            return Some((p, o, mover));
        }
        let random = ply < opening;
        let sq = if random && cfg.skip_opening {
            // Its outcome hangs on the random moves still to come: no sample, no search.
            random_square_raw(moves, rng)
        } else {
            let (best, value) = choose(&mut search, p, o, cfg, rng);
            before.push((p, o, mover, value as i16));
            if random {
                random_square_raw(moves, rng)
            } else {
                best
            }
        };
        let f = flips(p, o, sq);
        (p, o) = (o & !f, p | f | sq.mask());
        mover = !mover;
        ply += 1;
    }
}

/// Plays one game and returns its labelled positions (empty if the game ended before the
/// endgame solve, which random openings rarely allow).
pub fn play_game(w: &Weights, cfg: &SelfPlay, rng: &mut FastRng) -> Vec<Sample> {
    let mut before: Vec<(u64, u64, bool, i16)> = Vec::with_capacity(64);
    let Some((mut p, mut o, mover)) = play_to_endgame(w, cfg, rng, &mut before) else {
        return Vec::new();
    };
    // The endgame: solve, then walk a perfect line, labelling each position exactly.
    let mut solver = Solver::new(Variant::Othello, None, None);
    let Some(v0) = solver.solve(
        &crate::Position::from_raw(p, o, crate::Side::Black),
        -64,
        64,
    ) else {
        return Vec::new();
    };
    let mut out: Vec<Sample> = before
        .iter()
        .map(|&(bp, bo, m, search)| Sample {
            p: Bitboard(bp),
            o: Bitboard(bo),
            label: if m == mover { v0 as i8 } else { -v0 as i8 },
            exact: false,
            search: cfg.record_search.then_some(search),
        })
        .collect();
    let mut v = v0;
    while let Some((mut moves, passed)) = Variant::Othello.next_moves(&mut p, &mut o) {
        if passed {
            v = -v;
        }
        out.push(Sample {
            p: Bitboard(p),
            o: Bitboard(o),
            label: v as i8,
            exact: true,
            search: None,
        });
        // A move that keeps the value: the child's value for the opponent is exactly -v.
        let mut next = None;
        while moves != 0 {
            let sq = Square::ALL[moves.trailing_zeros() as usize];
            moves &= moves - 1;
            let f = flips(p, o, sq);
            let (np, no) = (o & !f, p | f | sq.mask());
            let child = crate::Position::from_raw(np, no, crate::Side::Black);
            if solver.solve(&child, -v - 1, -v + 1) == Some(-v) {
                next = Some((np, no));
                break;
            }
        }
        let Some((np, no)) = next else { break };
        (p, o) = (np, no);
        v = -v;
    }
    out
}

/// Plays `games` games of chunk `chunk` (seeded by `seed` and the chunk number).
pub fn play_chunk(w: &Weights, cfg: &SelfPlay, seed: u64, chunk: u64, games: usize) -> Vec<Sample> {
    let mut rng = FastRng::new(seed ^ chunk.wrapping_mul(0x9e37_79b9_7f4a_7c15));
    let mut out = Vec::new();
    for _ in 0..games {
        out.extend(play_game(w, cfg, &mut rng));
    }
    out
}

/// The data file's magic; files without it are the first format (18-byte samples without
/// the search value).
const DATA_MAGIC: &[u8; 8] = b"MSAMPLE2";
const SAMPLE_BYTES_V1: usize = 18;
const SAMPLE_BYTES: usize = 20;
/// `search` of a sample that has none.
const NO_SEARCH: i16 = i16::MIN;

/// Writes samples in the trainer's data format (a magic, then 20 bytes each,
/// little-endian), atomically: a chunk file exists only when complete, so a killed run
/// resumes cleanly.
pub fn write_samples(path: &Path, samples: &[Sample]) -> io::Result<()> {
    let mut buf = Vec::with_capacity(8 + samples.len() * SAMPLE_BYTES);
    buf.extend_from_slice(DATA_MAGIC);
    for s in samples {
        buf.extend_from_slice(&s.p.0.to_le_bytes());
        buf.extend_from_slice(&s.o.0.to_le_bytes());
        buf.push(s.label as u8);
        buf.push(u8::from(s.exact));
        buf.extend_from_slice(&s.search.unwrap_or(NO_SEARCH).to_le_bytes());
    }
    let tmp = path.with_extension("tmp");
    let mut f = std::fs::File::create(&tmp)?;
    f.write_all(&buf)?;
    f.sync_all()?;
    std::fs::rename(&tmp, path)
}

/// Reads a data file written by [`write_samples`] (or by the first format).
pub fn read_samples(path: &Path) -> io::Result<Vec<Sample>> {
    let mut buf = Vec::new();
    std::fs::File::open(path)?.read_to_end(&mut buf)?;
    let (body, size) = match buf.strip_prefix(DATA_MAGIC.as_slice()) {
        Some(body) => (body, SAMPLE_BYTES),
        None => (buf.as_slice(), SAMPLE_BYTES_V1),
    };
    if body.len() % size != 0 {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            format!(
                "{}: {} bytes is not a whole number of {size}-byte samples",
                path.display(),
                body.len()
            ),
        ));
    }
    let word = |b: &[u8]| {
        let mut a = [0u8; 8];
        a.copy_from_slice(b);
        u64::from_le_bytes(a)
    };
    Ok(body
        .chunks_exact(size)
        .map(|c| Sample {
            p: Bitboard(word(&c[0..8])),
            o: Bitboard(word(&c[8..16])),
            label: c[16] as i8,
            exact: c[17] != 0,
            search: (size == SAMPLE_BYTES)
                .then(|| i16::from_le_bytes([c[18], c[19]]))
                .filter(|&v| v != NO_SEARCH),
        })
        .collect())
}

/// [`relabel`] over the first `limit` chunks of `from` (all of them when `None`), written to
/// `to` (chunks already there are kept, so an interrupted run resumes), `threads` at a time.
pub fn relabel_dir(
    w: &Weights,
    from: &Path,
    to: &Path,
    cfg: &SelfPlay,
    limit: Option<usize>,
    threads: usize,
    progress: &(dyn Fn(&Path) + Sync),
) -> io::Result<()> {
    std::fs::create_dir_all(to)?;
    let mut files: Vec<_> = std::fs::read_dir(from)?
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "bin"))
        .collect();
    files.sort();
    files.truncate(limit.unwrap_or(usize::MAX));
    parallel_map(files.len(), threads, |i| {
        let src = &files[i];
        let Some(name) = src.file_name() else {
            return Ok(());
        };
        let dst = to.join(name);
        if dst.exists() {
            return Ok(());
        }
        let mut samples = read_samples(src)?;
        relabel(w, &mut samples, cfg);
        write_samples(&dst, &samples)?;
        progress(&dst);
        Ok(())
    })
    .into_iter()
    .collect()
}

/// Adds (or replaces) the search value of every sample that is not exact: a `cfg.depth`-ply
/// search by the self-play player (its Multi-ProbCut included), without noise. One search
/// table serves the whole slice, whose neighbours are usually the same game's next plies.
pub fn relabel(w: &Weights, samples: &mut [Sample], cfg: &SelfPlay) {
    let cfg = SelfPlay { noise: 0, ..*cfg };
    let mut search = player(w, &cfg);
    for s in samples.iter_mut().filter(|s| !s.exact) {
        s.search = Some(search.value(s.p.0, s.o.0, cfg.depth) as i16);
    }
}

/// How the tables are fitted.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Fit {
    /// Passes over the data.
    pub epochs: u32,
    /// Step size of the first epoch (in the scaled target's units, a margin of 64 being 1).
    pub rate: f32,
    /// The step size shrinks by this factor every epoch.
    pub decay: f32,
    /// Seed of the sample order.
    pub seed: u64,
    /// How much of a non-exact sample's target is its search value (when it has one) rather
    /// than the game's outcome.
    pub search_weight: f32,
    /// A phase also learns from the positions up to this many empty squares outside its own
    /// range (0: only its own), so that each of its weights sees more positions.
    pub overlap: u32,
    /// `Some((near, far))`: the search value's share grows with the empty squares, from none
    /// at `near` empties or fewer (the outcome alone, which a game solved exactly soon after
    /// makes nearly exact) to `search_weight` at `far` or more, linearly between.
    pub search_ramp: Option<(u32, u32)>,
    /// `Some((iterations, ridge))`: solve each phase's least squares with that many
    /// conjugate-gradient iterations on the normal equations, every weight pulled towards 0
    /// by `ridge` (a weight seen `ridge` times moves half as far as unpulled), instead of
    /// stochastic gradient descent (`epochs`, `rate`, `decay` and `seed` then unused).
    pub cg: Option<(u32, f32)>,
    /// Fit tables to be interpolated between the phases' middles ([`Weights::interpolated`]):
    /// each position counts towards the two phases it lies between, in proportion, and all
    /// phases are solved together (with `cg` only; `overlap` is then unused).
    pub interpolate: bool,
}

impl Default for Fit {
    fn default() -> Self {
        Fit {
            epochs: 8,
            rate: 0.006,
            decay: 0.75,
            seed: 1,
            search_weight: 0.0,
            overlap: 0,
            search_ramp: None,
            cg: None,
            interpolate: false,
        }
    }
}

impl Fit {
    /// The value (discs) a sample is fitted to.
    pub fn target(&self, s: &Sample) -> f32 {
        match s.search {
            Some(v) if !s.exact => {
                let l = self.search_weight_at(s.empties());
                l * f32::from(v) / SCALE as f32 + (1.0 - l) * f32::from(s.label)
            }
            _ => f32::from(s.label),
        }
    }

    /// The search value's share of a non-exact target at `empties` empty squares.
    pub fn search_weight_at(&self, empties: u32) -> f32 {
        match self.search_ramp {
            Some((near, _)) if empties <= near => 0.0,
            Some((near, far)) if empties < far => {
                self.search_weight * (empties - near) as f32 / (far - near) as f32
            }
            _ => self.search_weight,
        }
    }
}

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
) -> [i16; crate::eval::EMPTIES_BIAS_LEN] {
    let mut sum = [0f64; crate::eval::EMPTIES_BIAS_LEN];
    let mut n = [0usize; crate::eval::EMPTIES_BIAS_LEN];
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

/// Each sample's features, every weight named by its symmetry class's (`map`).
fn canonical_features(samples: &[&Sample], map: &[u32]) -> Vec<[u32; FEATURES]> {
    samples
        .iter()
        .map(|s| features(s.p.0, s.o.0).map(|x| map[x as usize]))
        .collect()
}

/// Fits one phase's tables to its samples by stochastic gradient descent on the squared
/// error (or, with `fit.cg`, by [`fit_phase_cg`]), starting from `init`; weights that share a
/// symmetry class move together. Returns the phase's weights rounded to integers.
pub fn fit_phase(samples: &[&Sample], init: &[i16], fit: &Fit, map: &[u32]) -> Vec<i16> {
    if let Some((iterations, ridge)) = fit.cg {
        return fit_phase_cg(samples, init, fit, map, iterations, f64::from(ridge));
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

/// Ridge regression of one phase by conjugate gradients on the normal equations
/// `(X'X + ridge I) w = X'y`, preconditioned by their diagonal, from `init`: each iteration
/// is two passes over the samples (the predictions `X p`, then their scatter `X' (X p)`).
/// Weights that share a symmetry class are one unknown; classes no sample touches stay at
/// their start.
fn fit_phase_cg(
    samples: &[&Sample],
    init: &[i16],
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
        let y = f64::from(fit.target(s));
        for &i in f {
            r[i as usize] += y;
        }
    }
    conjugate_gradients(&mut w, r, &inv, iterations, apply);
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
        fit_phase(&by_phase[ph], init.phase(ph), fit, &map)
    });
    let data: Vec<i16> = out.into_iter().flatten().collect();
    Weights::from_raw(data).unwrap_or_else(|_| init.clone())
}

/// The ridge regression of [`fit_phase_cg`] for weights interpolated between the phases'
/// middles: a position `r` fifths of the way from phase `k`'s middle to phase `k + 1`'s is
/// predicted by `(1 - r/5) x'w_k + (r/5) x'w_(k+1)`, so the phases are one system, solved
/// together by preconditioned conjugate gradients from `init`. Each iteration computes every
/// phase's share of `X'X p` from the positions on either side of its middle (`threads`
/// phases at a time; the result does not depend on `threads`).
fn fit_interpolated(
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

/// `f(0) .. f(n - 1)` on `threads` threads (each takes the next index when it is done),
/// in index order. The result never depends on `threads`.
fn parallel_map<T: Send>(n: usize, threads: usize, f: impl Fn(usize) -> T + Sync + Send) -> Vec<T> {
    in_pool(threads.clamp(1, n.max(1)), || {
        (0..n).into_par_iter().with_max_len(1).map(f).collect()
    })
}

/// Chunks whose number is `19 mod 20` are held out of the fit and measure it.
pub fn is_holdout(chunk: u64) -> bool {
    chunk % 20 == 19
}

/// The chunk file of chunk `chunk` in `dir`.
pub fn chunk_path(dir: &Path, chunk: u64) -> std::path::PathBuf {
    dir.join(format!("chunk-{chunk:05}.bin"))
}

/// Plays chunks `0..chunks` of `games_per_chunk` games into `dir`, `threads` at a time,
/// skipping chunks already written (so a killed run resumes). Calls `progress` after each
/// chunk with its number and sample count.
pub fn self_play_to_dir(
    w: &Weights,
    cfg: &SelfPlay,
    seed: u64,
    dir: &Path,
    chunks: u64,
    games_per_chunk: usize,
    threads: usize,
    progress: &(dyn Fn(u64, usize) + Sync),
) -> io::Result<()> {
    std::fs::create_dir_all(dir)?;
    parallel_map(chunks as usize, threads, |i| {
        let chunk = i as u64;
        let path = chunk_path(dir, chunk);
        if path.exists() {
            return Ok(());
        }
        let samples = play_chunk(w, cfg, seed, chunk, games_per_chunk);
        write_samples(&path, &samples)?;
        progress(chunk, samples.len());
        Ok(())
    })
    .into_iter()
    .collect()
}

/// Every chunk in `dirs`, split into (fit, held out) samples.
pub fn load_dirs(dirs: &[std::path::PathBuf]) -> io::Result<(Vec<Sample>, Vec<Sample>)> {
    let mut fit = Vec::new();
    let mut held = Vec::new();
    for dir in dirs {
        let mut entries: Vec<_> = std::fs::read_dir(dir)?
            .filter_map(Result::ok)
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|x| x == "bin"))
            .collect();
        entries.sort();
        for path in entries {
            let chunk = path
                .file_stem()
                .and_then(|s| s.to_str())
                .and_then(|s| s.strip_prefix("chunk-"))
                .and_then(|s| s.parse::<u64>().ok());
            let Some(chunk) = chunk else { continue };
            let samples = read_samples(&path)?;
            if is_holdout(chunk) {
                held.extend(samples);
            } else {
                fit.extend(samples);
            }
        }
    }
    Ok((fit, held))
}

/// Positions with exactly `empties` empty squares from self-play games with `w` played as
/// `player` says (random openings, then its search), each with its exact value: the test set
/// for the error at 20 empties.
pub fn exact_test_set(
    w: &Weights,
    player: &SelfPlay,
    seed: u64,
    n: usize,
    empties: u32,
    threads: usize,
) -> Vec<Sample> {
    let cfg = SelfPlay {
        exact_empties: empties,
        ..*player
    };
    // One slot per thread, each with its own seeded games: the set depends on the seed and
    // the thread count, as it always has.
    let slots = threads.max(1);
    let per = n.div_ceil(slots);
    let out = parallel_map(slots, slots, |t| {
        let mut slot = Vec::with_capacity(per);
        let mut rng = FastRng::new(seed ^ (t as u64 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15));
        while slot.len() < per {
            let game = play_to_endgame(w, &cfg, &mut rng, &mut Vec::new());
            if let Some((p, o, _)) = game {
                let pos = crate::Position::from_raw(p, o, crate::Side::Black);
                if let Some(v) = Solver::new(Variant::Othello, None, None).solve(&pos, -64, 64) {
                    slot.push(Sample {
                        p: Bitboard(p),
                        o: Bitboard(o),
                        label: v as i8,
                        exact: true,
                        search: None,
                    });
                }
            }
        }
        slot
    });
    let mut all: Vec<Sample> = out.into_iter().flatten().collect();
    all.truncate(n);
    all
}

/// Plays `games` games between weights `a` and `b` with a fixed-depth alpha-beta player
/// (no noise) from `openings` (each twice, colours swapped), both playing perfectly from
/// `exact` empties: a cheap, deterministic measure of which evaluation is better. Returns
/// the arena's report from `a`'s point of view.
pub fn match_weights(
    a: &Weights,
    b: &Weights,
    depth: u32,
    exact: u32,
    openings: &[Vec<crate::Move>],
    games: usize,
    threads: usize,
) -> crate::arena::Report {
    let cfg = SelfPlay {
        depth,
        noise: 0,
        exact_empties: exact,
        ..SelfPlay::default()
    };
    let play = |index: usize| -> Option<crate::arena::GameRecord> {
        let line = openings.get((index / 2) % openings.len().max(1))?;
        let a_is_black = index.is_multiple_of(2);
        let mut pos = crate::Position::start();
        for &mv in line {
            pos = Variant::Othello.play_unchecked(&pos, mv);
        }
        let mut rng = FastRng::new(index as u64);
        let mut searches = (player(a, &cfg), player(b, &cfg));
        loop {
            let (p, o) = (pos.player().0, pos.opponent().0);
            match Variant::Othello.turn(p, o) {
                Turn::Play(_) => {}
                Turn::Pass(_) => {
                    pos = pos.pass();
                    continue;
                }
                Turn::Over => break,
            }
            if (!(p | o)).count_ones() <= exact {
                // Perfect play from here: the exact value decides the game.
                let v = Solver::new(Variant::Othello, None, None).solve(&pos, -64, 64)?;
                let black = if pos.side_to_move() == crate::Side::Black {
                    v
                } else {
                    -v
                };
                return Some(record(index, a_is_black, black));
            }
            let black_to_move = pos.side_to_move() == crate::Side::Black;
            let search = if black_to_move == a_is_black {
                &mut searches.0
            } else {
                &mut searches.1
            };
            let (sq, _) = choose(search, p, o, &cfg, &mut rng);
            pos = pos.play_unchecked(sq);
        }
        let black = crate::search::endgame::final_margin(pos.player().0, pos.opponent().0);
        let black = if pos.side_to_move() == crate::Side::Black {
            black
        } else {
            -black
        };
        Some(record(index, a_is_black, black))
    };
    let games: Vec<crate::arena::GameRecord> = parallel_map(games, threads, play)
        .into_iter()
        .flatten()
        .collect();
    let mut report = crate::arena::Report::default();
    for g in &games {
        match g.a_score {
            s if s > 0.75 => report.wins += 1,
            s if s < 0.25 => report.losses += 1,
            _ => report.draws += 1,
        }
    }
    report.games = games;
    report
}

fn record(index: usize, a_is_black: bool, black_margin: i32) -> crate::arena::GameRecord {
    let a_margin = if a_is_black {
        black_margin
    } else {
        -black_margin
    };
    crate::arena::GameRecord {
        index,
        a_is_black,
        moves: Vec::new(),
        margin: black_margin,
        a_score: match a_margin.signum() {
            1 => 1.0,
            0 => 0.5,
            _ => 0.0,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The bias per count of empty squares that `fit_empties_bias` finds is the shift
    /// planted in the targets (added to the bias the weights have), for every count with
    /// enough samples, and the weights' own bias elsewhere; with it the weights meet the
    /// targets, and fitting again changes nothing.
    #[test]
    fn the_empties_bias_fit_finds_a_planted_shift() {
        let w = crate::eval::builtin().clone();
        let planted = |e: usize| (e as i32 % 5 - 2) * 37 + 11;
        let samples: Vec<Sample> = crate::eval::tests::random_positions(3, 70_000)
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
        let mut count = [0usize; crate::eval::EMPTIES_BIAS_LEN];
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
        let w = crate::eval::heuristic();
        let cfg = SelfPlay {
            exact_empties: 8,
            ..SelfPlay::default()
        };
        let samples = play_chunk(&w, &cfg, 5, 0, 3);
        assert!(samples.len() > 100);
        for s in samples.iter().filter(|s| s.exact) {
            assert!(s.empties() <= 8);
            let pos = crate::Position::from_player_opponent(s.p, s.o, crate::Side::Black);
            let v = Solver::new(Variant::Othello, None, None).solve(&pos, -64, 64);
            assert_eq!(v, Some(i32::from(s.label)));
        }
        assert_eq!(samples, play_chunk(&w, &cfg, 5, 0, 3), "seeded");
    }

    #[test]
    fn generation_five_games_skip_the_random_opening_and_keep_exact_labels() {
        let w = crate::eval::builtin();
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
            let pos = crate::Position::from_player_opponent(s.p, s.o, crate::Side::Black);
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
        let w = crate::eval::heuristic();
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
            &crate::eval::heuristic(),
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
        play_chunk(&crate::eval::heuristic(), &cfg, 9, 0, 60)
    }

    #[test]
    fn relabelling_replaces_the_search_values_and_keeps_the_exact_labels() {
        let w = crate::eval::builtin();
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
            .map(|s| {
                (f64::from(w.evaluate(s.p, s.o)) / f64::from(SCALE) - f64::from(s.label)).powi(2)
            })
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
            .partition(|s| crate::eval::interpolation(s.empties()).1 == 0);
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
}
