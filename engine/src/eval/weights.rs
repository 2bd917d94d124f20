//! The weight tables: one set per game phase, integers in units of `1 / SCALE` disc, and the
//! compact file format they ship in.
//!
//! The file: the magic `MONTEVAL`, then little-endian `u32` version, phases, weights per
//! phase and scale, then for every phase each table's *canonical* entries (see
//! `patterns::canonical_indices`: entries that a pattern's own symmetry makes equal
//! are stored once) as a stream of LEB128 tokens: an even token `2v` is one weight (zigzag
//! `v`), an odd token `2n + 1` is a run of `n` zero weights. It ends with the FNV-1a hash of
//! every weight, so a damaged file is refused instead of playing badly. Version 2 holds every
//! pattern; version 1 (generations 1-6) lacks the later patterns, whose tables read as zeros.
//! Version 3 holds what version 2 does, but its phases are points to interpolate between
//! (see [`Weights::interpolated`]) rather than steps. Versions 4 (steps) and 5 (interpolated)
//! add, after the tables, one weight per count of empty squares (0 to 64, zigzag LEB128
//! numbers; see [`Weights::empties_bias`]); earlier versions read with those weights zero.
//! Versions 6 to 9, which this build writes, are versions 2 to 5 with the tables' weights in
//! another order: entry by entry, each canonical entry's weight in every phase in turn (a
//! compressor then finds the alike weights of neighbouring phases side by side).
//!
//! The header's scale is the unit the file's numbers count in: [`SCALE`] (1/64 disc), or a
//! coarser divisor of it (1/8 disc: [`Weights::encode_at_scale`]), whose numbers the reader
//! multiplies up to [`SCALE`] units. A coarser file is smaller, and much smaller compressed
//! (the browser's engine carries the shipped weights: docs/web.md), at a rounding of at most
//! half its unit per weight. The checksum covers the numbers as the file holds them.

use super::patterns::{
    BIAS_OFFSET, FEATURES, OFFSETS, PATTERNS, PATTERNS_V1, PHASE_SIZE, canonical_indices, features,
    features_after, mobility_index_with,
};
use super::{PHASES, SCALE, phase};
use crate::Bitboard;
use crate::bitboard::legal_moves_in;
use crate::cpu::{self, fast_copy};
use std::fmt;
use std::ops::Range;
use std::sync::OnceLock;

const MAGIC: &[u8; 8] = b"MONTEVAL";
/// The version of step weights stored phase by phase: every pattern of [`PATTERNS`] (this
/// build writes it entry by entry, [`VERSION_ENTRY_MAJOR`]).
const VERSION: u32 = 2;
/// The version of weights interpolated between phases (the same tables as [`VERSION`]).
const VERSION_INTERPOLATED: u32 = 3;
/// What a version adds for weights with a bias per count of empty squares: 4 for steps, 5
/// for interpolated tables.
const VERSION_EMPTIES_BIAS: u32 = 2;
/// What a version adds for tables stored entry by entry (each canonical entry's weight in
/// every phase in turn) instead of phase by phase: versions 6 to 9 are versions 2 to 5 so
/// stored. Neighbouring phases' weights of one entry are alike, so a compressor finds them
/// side by side: the shipped weights 11% smaller with gzip and brotli (#68, docs/web.md).
const VERSION_ENTRY_MAJOR: u32 = 4;
/// The last version this build reads.
const LAST_VERSION: u32 = VERSION_INTERPOLATED + VERSION_EMPTIES_BIAS + VERSION_ENTRY_MAJOR;

/// Entries of the bias per count of empty squares: 0 to 64 (the free opening's placements
/// start from an empty board).
pub const EMPTIES_BIAS_LEN: usize = 65;

/// The entries of a phase's weights that a file of `version` leaves out (read as zeros).
/// Version 1 (generations 1-6) has only the first [`PATTERNS_V1`] patterns: the later
/// patterns' tables are missing, the mobility table and the bias follow the patterns.
fn missing_in(version: u32) -> Range<usize> {
    if version >= 2 {
        0..0
    } else {
        OFFSETS[PATTERNS_V1]..OFFSETS[PATTERNS.len()]
    }
}

/// Pattern weight tables for every phase.
#[derive(Clone, PartialEq, Eq)]
pub struct Weights {
    data: Vec<i16>,
    /// `Some` when each phase's tables are the values at the phase's middle (3, 8, 13, ...
    /// empties) and a position between two middles is valued by both, in proportion to its
    /// distance from each, instead of by its own phase's alone: then the blended tables of
    /// every count of empty squares from 3 to 58 (see [`Weights::interpolated`]), computed
    /// once, so that an evaluation still reads one table.
    blended: Option<Vec<i16>>,
    /// A weight added for each count of empty squares (see [`Weights::empties_bias`]); boxed
    /// so that the struct stays small to move.
    empties_bias: Box<[i16; EMPTIES_BIAS_LEN]>,
}

/// How many blended tables interpolated weights keep: one per count of empty squares from
/// the first phase's middle (3) to the last one's (58).
const BLENDS: usize = 5 * (PHASES - 1) + 1;

/// The blended table of interpolated weights that a position with `empties` empty squares
/// reads.
#[inline(always)]
const fn blend_index(empties: u32) -> usize {
    let e = if empties < 3 {
        3
    } else if empties > 3 + BLENDS as u32 - 1 {
        3 + BLENDS as u32 - 1
    } else {
        empties
    };
    (e - 3) as usize
}

/// One weight `r` fifths of the way from `a` to `b`, rounded to the nearest unit.
#[inline]
fn blend(a: i16, b: i16, r: u32) -> i16 {
    let r = r as i32;
    ((5 - r) * i32::from(a) + r * i32::from(b) + 2).div_euclid(5) as i16
}

/// Where `empties` falls between the phases' middles when they are interpolated: the phase
/// below, and how many fifths of the way to the next one (0: that phase alone).
#[inline(always)]
pub const fn interpolation(empties: u32) -> (usize, u32) {
    let t = blend_index(empties);
    (t / 5, (t % 5) as u32)
}

impl fmt::Debug for Weights {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let nonzero = self.data.iter().filter(|&&w| w != 0).count();
        let bias = self.empties_bias.iter().filter(|&&w| w != 0).count();
        write!(
            f,
            "Weights({PHASES} phases, {nonzero} non-zero, {bias} non-zero empties biases)"
        )
    }
}

/// Why a weights file was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WeightsError(pub String);

impl fmt::Display for WeightsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "bad evaluation weights: {}", self.0)
    }
}

impl std::error::Error for WeightsError {}

/// For each pattern, which entries are stored (the canonical ones) and where the others get
/// their weight from. Computed once.
fn canonical_tables() -> &'static Vec<Vec<u32>> {
    static TABLES: OnceLock<Vec<Vec<u32>>> = OnceLock::new();
    TABLES.get_or_init(|| (0..PATTERNS.len()).map(canonical_indices).collect())
}

/// The canonical index (within one phase) of each phase entry: patterns through their
/// symmetry classes, the mobility table and bias as themselves.
pub fn canonical_map() -> Vec<u32> {
    let tables = canonical_tables();
    let mut map: Vec<u32> = (0..PHASE_SIZE as u32).collect();
    for (k, table) in tables.iter().enumerate() {
        for (i, &c) in table.iter().enumerate() {
            map[OFFSETS[k] + i] = (OFFSETS[k] as u32) + c;
        }
    }
    map
}

/// FNV-1a of the weights a file of `version` holds, phase by phase, then the bias per count
/// of empty squares when the version has it.
fn fnv1a(data: &[i16], empties_bias: &[i16], version: u32) -> u64 {
    let missing = missing_in(version);
    let bias: &[i16] = if has_empties_bias(version) {
        empties_bias
    } else {
        &[]
    };
    let stored = data
        .chunks(PHASE_SIZE)
        .flat_map(|w| w[..missing.start].iter().chain(&w[missing.end..]))
        .chain(bias);
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for w in stored {
        for b in w.to_le_bytes() {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
    }
    h
}

/// The layout a file of `version` stores its tables in, phase by phase (1 to 5) or entry by
/// entry (6 to 9), as the version that stores the same phase by phase.
const fn phase_major(version: u32) -> u32 {
    if is_entry_major(version) {
        version - VERSION_ENTRY_MAJOR
    } else {
        version
    }
}

/// Whether a file of `version` stores its tables entry by entry (versions 6 to 9).
const fn is_entry_major(version: u32) -> bool {
    version > VERSION_INTERPOLATED + VERSION_EMPTIES_BIAS
}

/// Whether a file of `version` holds a bias per count of empty squares.
const fn has_empties_bias(version: u32) -> bool {
    phase_major(version) > VERSION_INTERPOLATED
}

/// Whether a file of `version` holds tables to interpolate between (versions 3, 5, 7, 9).
const fn is_interpolated(version: u32) -> bool {
    let v = phase_major(version);
    v == VERSION_INTERPOLATED || v == VERSION_INTERPOLATED + VERSION_EMPTIES_BIAS
}

/// A weight as an unsigned number, small for small magnitudes of either sign (zigzag).
fn zigzag(w: i16) -> u64 {
    let v = i64::from(w);
    ((v << 1) ^ (v >> 63)) as u64
}

/// The signed number [`zigzag`] wrote.
fn unzigzag(z: u64) -> i64 {
    ((z >> 1) as i64) ^ -((z & 1) as i64)
}

fn put_varint(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push((v as u8) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

fn get_varint(bytes: &[u8], at: &mut usize) -> Result<u64, WeightsError> {
    let mut v = 0u64;
    let mut shift = 0;
    loop {
        let b = *bytes
            .get(*at)
            .ok_or_else(|| WeightsError(format!("truncated at byte {at}")))?;
        *at += 1;
        if shift > 56 {
            return Err(WeightsError(format!("overlong number at byte {}", *at - 1)));
        }
        v |= u64::from(b & 0x7f) << shift;
        if b & 0x80 == 0 {
            return Ok(v);
        }
        shift += 7;
    }
}

impl Weights {
    /// All zero: evaluates every position as even.
    pub fn zeros() -> Weights {
        Weights {
            data: vec![0; PHASES * PHASE_SIZE],
            blended: None,
            empties_bias: Box::new([0; EMPTIES_BIAS_LEN]),
        }
    }

    /// Weights from raw tables (`PHASES * PHASE_SIZE` entries, phase by phase).
    pub fn from_raw(data: Vec<i16>) -> Result<Weights, WeightsError> {
        if data.len() != PHASES * PHASE_SIZE {
            return Err(WeightsError(format!(
                "{} weights, expected {}",
                data.len(),
                PHASES * PHASE_SIZE
            )));
        }
        Ok(Weights {
            data,
            blended: None,
            empties_bias: Box::new([0; EMPTIES_BIAS_LEN]),
        })
    }

    /// The same tables with `bias[e]` added to the value of every position with `e` empty
    /// squares.
    pub fn with_empties_bias(mut self, bias: [i16; EMPTIES_BIAS_LEN]) -> Weights {
        *self.empties_bias = bias;
        self
    }

    /// The weight added for each count of empty squares (0 to 64), in `1 / SCALE` disc, on
    /// top of the phase's tables. A phase spans five counts of empty squares, and within it
    /// the side that will play the last move (the parity of the empty squares) changes with
    /// every ply, which the phase's single bias cannot follow (docs/eval.md, generation 9).
    /// Zero unless set (files before version 4 have none; `train fit` writes none; `train
    /// bias` fits it).
    pub fn empties_bias(&self) -> &[i16; EMPTIES_BIAS_LEN] {
        &self.empties_bias
    }

    /// The same tables read as points to interpolate between (`true`) or as steps.
    pub fn with_interpolation(mut self, interpolated: bool) -> Weights {
        self.blended = interpolated.then(|| {
            let mut out = Vec::with_capacity(BLENDS * PHASE_SIZE);
            for t in 0..BLENDS {
                let (k, r) = interpolation(t as u32 + 3);
                let a = self.phase(k);
                if r == 0 {
                    out.extend_from_slice(a);
                } else {
                    let b = self.phase(k + 1);
                    out.extend(a.iter().zip(b).map(|(&x, &y)| blend(x, y, r)));
                }
            }
            out
        });
        self
    }

    /// Whether the phases are interpolated between (see the field's doc): a position with
    /// `5k + 3 + r` empty squares (`0 < r < 5`) reads a table each of whose weights is
    /// `((5 - r) w_k + r w_(k+1)) / 5` (rounded), `w_k` being phase `k`'s; a position at a
    /// phase's middle, or outside the first and last middles, reads that phase's tables.
    pub fn interpolated(&self) -> bool {
        self.blended.is_some()
    }

    /// The table a position with `empties` empty squares reads.
    #[inline(always)]
    fn table(&self, empties: u32) -> &[i16] {
        match &self.blended {
            Some(b) => {
                let t = blend_index(empties);
                &b[t * PHASE_SIZE..(t + 1) * PHASE_SIZE]
            }
            None => self.phase(phase(empties)),
        }
    }

    /// The raw tables, phase by phase.
    pub fn raw(&self) -> &[i16] {
        &self.data
    }

    /// One phase's weights.
    #[inline]
    pub fn phase(&self, phase: usize) -> &[i16] {
        &self.data[phase * PHASE_SIZE..(phase + 1) * PHASE_SIZE]
    }

    /// The expected final margin for the side to move with discs `player` against the
    /// `opponent`'s discs, in `1 / SCALE` disc.
    #[inline]
    pub fn evaluate(&self, player: Bitboard, opponent: Bitboard) -> i32 {
        self.evaluate_raw(player.0, opponent.0)
    }

    /// [`Weights::evaluate`] on raw `u64`s, for the search's hot paths.
    #[inline]
    pub(crate) fn evaluate_raw(&self, p: u64, o: u64) -> i32 {
        if cpu::fast() {
            self.evaluate_in::<true>(p, o)
        } else {
            self.evaluate_in::<false>(p, o)
        }
    }

    /// [`Weights::evaluate_raw`] of the position after the side to move plays `sq` flipping
    /// `flips`, where the side to move then has `np` against `no` and `base` is
    /// [`super::patterns::swapped_indices`] of the position before the move: the same value, computed from
    /// the squares the move changes (the expansion of a search node values every child so).
    #[inline]
    pub(crate) fn evaluate_after(
        &self,
        base: &[u32; FEATURES],
        sq: u32,
        flips: u64,
        np: u64,
        no: u64,
    ) -> i32 {
        if cpu::fast() {
            self.evaluate_after_in::<true>(base, sq, flips, np, no)
        } else {
            self.evaluate_after_in::<false>(base, sq, flips, np, no)
        }
    }

    /// [`Weights::evaluate`] in portable code (what phones run; the reference of the fast
    /// path in tests).
    #[inline]
    pub fn evaluate_portable(&self, player: Bitboard, opponent: Bitboard) -> i32 {
        self.evaluate_in::<false>(player.0, opponent.0)
    }

    fast_copy!(fn evaluate_in(&self, p: u64, o: u64) -> i32 = evaluate_body, evaluate_fast, evaluate_portable_copy);

    fast_copy!(fn evaluate_after_in(&self, base: &[u32; FEATURES], sq: u32, flips: u64, np: u64, no: u64) -> i32 = evaluate_after_body, evaluate_after_fast, evaluate_after_portable);

    /// [`Weights::evaluate_raw`] in the copy `FAST` names ([`crate::cpu::fast_copy!`]): the
    /// fast one has the AVX2 generator for the mobility and hardware popcount.
    #[inline(always)]
    fn evaluate_body<const FAST: bool>(&self, p: u64, o: u64) -> i32 {
        let f = super::patterns::features_with(p, o, legal_moves_in::<FAST>);
        self.sum(p, o, f)
    }

    /// [`Weights::evaluate_after`] in the copy `FAST` names.
    #[inline(always)]
    fn evaluate_after_body<const FAST: bool>(
        &self,
        base: &[u32; FEATURES],
        sq: u32,
        flips: u64,
        np: u64,
        no: u64,
    ) -> i32 {
        let mobility = mobility_index_with(np, no, legal_moves_in::<FAST>);
        self.sum(np, no, features_after(base, sq, flips, mobility))
    }

    #[inline(always)]
    fn sum(&self, p: u64, o: u64, f: [u32; FEATURES]) -> i32 {
        let empties = (!(p | o)).count_ones();
        let w = self.table(empties);
        let mut sum = i32::from(self.empties_bias[empties as usize]);
        for &i in &f {
            sum += i32::from(w[i as usize]);
        }
        sum.clamp(-64 * SCALE, 64 * SCALE)
    }

    /// The evaluation split by feature group, for the `eval` command: each pattern's sum over
    /// its instances, then mobility, the phase's bias and the bias for the count of empty
    /// squares, in `1 / SCALE` disc.
    pub fn explain(&self, player: Bitboard, opponent: Bitboard) -> Vec<(&'static str, i32)> {
        let (p, o) = (player.0, opponent.0);
        let empties = (!(p | o)).count_ones();
        let w = self.table(empties);
        let f = features(p, o);
        let mut out = Vec::new();
        let mut n = 0;
        for pattern in &PATTERNS {
            let s: i32 = f[n..n + pattern.transforms.len()]
                .iter()
                .map(|&i| i32::from(w[i as usize]))
                .sum();
            n += pattern.transforms.len();
            out.push((pattern.name, s));
        }
        debug_assert_eq!(n + 2, FEATURES);
        out.push(("mobility", i32::from(w[f[n] as usize])));
        out.push(("bias", i32::from(w[BIAS_OFFSET])));
        out.push((
            "empties bias",
            i32::from(self.empties_bias[empties as usize]),
        ));
        out
    }

    /// The compact file form (see the module docs), in [`SCALE`] units: exact.
    pub fn encode(&self) -> Vec<u8> {
        self.encode_in(SCALE as u32)
    }

    /// The compact file form with every weight rounded to the nearest `1 / scale` disc (ties
    /// away from zero), `scale` a divisor of [`SCALE`]: read back, each weight is within half
    /// that unit of this one.
    ///
    /// # Errors
    /// A `scale` that does not divide [`SCALE`].
    pub fn encode_at_scale(&self, scale: u32) -> Result<Vec<u8>, WeightsError> {
        if scale == 0 || !(SCALE as u32).is_multiple_of(scale) {
            return Err(WeightsError(format!(
                "scale {scale} does not divide {SCALE}"
            )));
        }
        let factor = (SCALE as u32 / scale) as i32;
        let round = |v: i16| {
            let v = i32::from(v);
            // Ties away from zero: -12 at a factor of 8 is -2, 12 is 2.
            let q = (v.abs() + factor / 2) / factor;
            (q * v.signum()) as i16
        };
        let coarse = Weights {
            data: self.data.iter().map(|&v| round(v)).collect(),
            blended: self.blended.as_ref().map(|_| Vec::new()),
            empties_bias: Box::new(self.empties_bias.map(round)),
        };
        Ok(coarse.encode_in(scale))
    }

    /// The file form of these numbers, the header saying they count `1 / scale` discs.
    fn encode_in(&self, scale: u32) -> Vec<u8> {
        let map = canonical_map();
        let mut out = Vec::with_capacity(1 << 20);
        out.extend_from_slice(MAGIC);
        let version = if self.interpolated() {
            VERSION_INTERPOLATED
        } else {
            VERSION
        };
        let version = if self.empties_bias.iter().any(|&b| b != 0) {
            version + VERSION_EMPTIES_BIAS
        } else {
            version
        } + VERSION_ENTRY_MAJOR;
        for v in [version, PHASES as u32, PHASE_SIZE as u32, scale] {
            out.extend_from_slice(&v.to_le_bytes());
        }
        let mut zeros = 0u64;
        for (i, &c) in map.iter().enumerate() {
            if c as usize != i {
                continue;
            }
            for ph in 0..PHASES {
                let w = self.data[ph * PHASE_SIZE + i];
                if w == 0 {
                    zeros += 1;
                    continue;
                }
                if zeros > 0 {
                    put_varint(&mut out, zeros << 1 | 1);
                    zeros = 0;
                }
                put_varint(&mut out, zigzag(w) << 1);
            }
        }
        if zeros > 0 {
            put_varint(&mut out, zeros << 1 | 1);
        }
        if has_empties_bias(version) {
            for &b in self.empties_bias.iter() {
                put_varint(&mut out, zigzag(b));
            }
        }
        out.extend_from_slice(&fnv1a(&self.data, &self.empties_bias[..], version).to_le_bytes());
        out
    }

    /// Reads the compact file form, refusing a file of another layout or a damaged one with
    /// a message saying where.
    pub fn decode(bytes: &[u8]) -> Result<Weights, WeightsError> {
        if bytes.len() < 24 + 8 || &bytes[..8] != MAGIC {
            return Err(WeightsError("not a Montello weights file".into()));
        }
        let word = |i: usize| {
            let mut b = [0u8; 4];
            b.copy_from_slice(&bytes[8 + 4 * i..12 + 4 * i]);
            u32::from_le_bytes(b)
        };
        let version = word(0);
        if !(1..=LAST_VERSION).contains(&version) {
            return Err(WeightsError(format!(
                "version is {version}, this build reads 1 to {LAST_VERSION}"
            )));
        }
        let missing = missing_in(version);
        let expected = [PHASES as u32, (PHASE_SIZE - missing.len()) as u32];
        let names = ["phases", "weights per phase"];
        for i in 0..2 {
            if word(i + 1) != expected[i] {
                return Err(WeightsError(format!(
                    "{} is {}, this build reads {} (version {version})",
                    names[i],
                    word(i + 1),
                    expected[i]
                )));
            }
        }
        // The unit the numbers count in: 1/SCALE disc, or a coarser divisor of it.
        let scale = word(3);
        if scale == 0 || !(SCALE as u32).is_multiple_of(scale) {
            return Err(WeightsError(format!(
                "scale is {scale}, this build reads {SCALE} or a divisor of it (version {version})"
            )));
        }
        let factor = (SCALE as u32 / scale) as i32;
        let body = &bytes[24..bytes.len() - 8];
        let map = canonical_map();
        let canonical: Vec<usize> = (0..PHASE_SIZE)
            .filter(|&i| map[i] as usize == i && !missing.contains(&i))
            .collect();
        let mut data = vec![0i16; PHASES * PHASE_SIZE];
        let mut at = 0;
        let mut zeros = 0u64;
        // Where the k-th stored weight goes: phase by phase, or entry by entry.
        let slots = canonical.len() * PHASES;
        let slot = |k: usize| {
            if is_entry_major(version) {
                (k % PHASES) * PHASE_SIZE + canonical[k / PHASES]
            } else {
                (k / canonical.len()) * PHASE_SIZE + canonical[k % canonical.len()]
            }
        };
        for k in 0..slots {
            if zeros > 0 {
                zeros -= 1;
                continue;
            }
            let token = get_varint(body, &mut at)?;
            if token & 1 == 1 {
                zeros = (token >> 1)
                    .checked_sub(1)
                    .ok_or_else(|| WeightsError(format!("empty run at byte {}", 24 + at)))?;
                continue;
            }
            let v = unzigzag(token >> 1);
            data[slot(k)] = i16::try_from(v).map_err(|_| {
                WeightsError(format!("weight {v} out of range at byte {}", 24 + at))
            })?;
        }
        for w in data.chunks_mut(PHASE_SIZE) {
            for i in 0..PHASE_SIZE {
                w[i] = w[map[i] as usize];
            }
        }
        if zeros > 0 {
            return Err(WeightsError(format!(
                "a run of zeros goes past the tables at byte {}",
                24 + at
            )));
        }
        let mut empties_bias = [0i16; EMPTIES_BIAS_LEN];
        if has_empties_bias(version) {
            for (e, b) in empties_bias.iter_mut().enumerate() {
                let v = unzigzag(get_varint(body, &mut at)?);
                *b = i16::try_from(v).map_err(|_| {
                    WeightsError(format!(
                        "bias {v} for {e} empty squares out of range at byte {}",
                        24 + at
                    ))
                })?;
            }
        }
        if at != body.len() {
            return Err(WeightsError(format!(
                "{} bytes left over after the weights",
                body.len() - at
            )));
        }
        let mut h = [0u8; 8];
        h.copy_from_slice(&bytes[bytes.len() - 8..]);
        if u64::from_le_bytes(h) != fnv1a(&data, &empties_bias, version) {
            return Err(WeightsError(
                "checksum mismatch: the file is damaged".into(),
            ));
        }
        if factor > 1 {
            let up = |v: &mut i16| -> Result<(), WeightsError> {
                *v = i16::try_from(i32::from(*v) * factor).map_err(|_| {
                    WeightsError(format!("weight {v} at scale {scale} out of range"))
                })?;
                Ok(())
            };
            data.iter_mut().try_for_each(up)?;
            empties_bias.iter_mut().try_for_each(up)?;
        }
        Ok(Weights {
            data,
            blended: None,
            empties_bias: Box::new(empties_bias),
        }
        .with_interpolation(is_interpolated(version)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Weights {
        let map = canonical_map();
        let mut data = vec![0i16; PHASES * PHASE_SIZE];
        let mut x = 12345u64;
        for ph in 0..PHASES {
            for i in 0..PHASE_SIZE {
                x = x
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                let c = map[i] as usize;
                if c == i && (x >> 60) < 9 {
                    data[ph * PHASE_SIZE + i] = ((x >> 33) as i16) >> 4;
                }
            }
            for i in 0..PHASE_SIZE {
                data[ph * PHASE_SIZE + i] = data[ph * PHASE_SIZE + map[i] as usize];
            }
        }
        Weights::from_raw(data).unwrap()
    }

    #[test]
    fn the_fast_evaluation_equals_the_portable_one() {
        let w = sample();
        for pos in crate::random_positions(5, 2_000) {
            let (p, o) = (pos.player(), pos.opponent());
            assert_eq!(w.evaluate(p, o), w.evaluate_portable(p, o), "{pos:?}");
        }
    }

    /// The value of each position after a move, from the instances of the position before
    /// it and the squares the move changes, is the full evaluation of that position: for
    /// every legal move of 2,000 positions, by the fast path and by the portable one, with
    /// step and interpolated tables.
    #[test]
    fn the_evaluation_after_a_move_equals_the_full_one() {
        let step = sample();
        let blended = sample().with_interpolation(true);
        let mut children = 0;
        for pos in crate::random_positions(11, 2_000) {
            let (p, o) = (pos.player().0, pos.opponent().0);
            let base = super::super::patterns::swapped_indices(p, o);
            let mut moves = crate::bitboard::legal_moves(p, o);
            while moves != 0 {
                let sq = moves.trailing_zeros();
                moves &= moves - 1;
                let f = crate::bitboard::flips(p, o, crate::Square::ALL[sq as usize]);
                let (np, no) = (o & !f, p | f | (1u64 << sq));
                for w in [&step, &blended] {
                    let full = w.evaluate_portable(Bitboard(np), Bitboard(no));
                    assert_eq!(w.evaluate_after(&base, sq, f, np, no), full, "{pos:?} {sq}");
                    let mobility =
                        mobility_index_with(np, no, crate::bitboard::legal_moves_portable);
                    let portable = w.sum(np, no, features_after(&base, sq, f, mobility));
                    assert_eq!(portable, full, "{pos:?} {sq}");
                }
                children += 1;
            }
        }
        assert!(children > 10_000, "{children} positions after a move");
    }

    #[test]
    fn encode_decode_round_trips() {
        let w = sample();
        let bytes = w.encode();
        assert_eq!(Weights::decode(&bytes), Ok(w));
        let z = Weights::zeros();
        assert_eq!(Weights::decode(&z.encode()), Ok(z));
        let blended = sample().with_interpolation(true);
        let bytes = blended.encode();
        assert_eq!(
            u32::from_le_bytes([bytes[8], bytes[9], bytes[10], bytes[11]]),
            7,
            "interpolated, stored entry by entry"
        );
        let back = Weights::decode(&bytes).expect("version 7 decodes");
        assert!(back.interpolated());
        assert_eq!(back, blended);
    }

    /// A file of the phase-by-phase layout (generation 10 as trained, version 4) reads as
    /// before, and this build writes the same weights entry by entry (version 8), which read
    /// back the same; the two files hold the same numbers in another order.
    #[test]
    fn the_phase_by_phase_layout_still_reads_and_the_entry_by_entry_one_holds_the_same() {
        let old = include_bytes!("../../weights/gen10.mwt");
        assert_eq!(u32::from_le_bytes([old[8], old[9], old[10], old[11]]), 4);
        let w = Weights::decode(old).expect("version 4 decodes");
        let new = w.encode();
        assert_eq!(u32::from_le_bytes([new[8], new[9], new[10], new[11]]), 8);
        assert_eq!(Weights::decode(&new).as_ref(), Ok(&w));
        assert_ne!(
            &new[24..new.len() - 8],
            &old[24..old.len() - 8],
            "another order"
        );
    }

    /// A file at a coarser scale reads back with every weight (and bias) within half its unit
    /// of the original, the interpolation kept; a scale that does not divide SCALE is refused
    /// on both sides; a damaged coarse file is refused like any other.
    #[test]
    fn a_coarser_scale_rounds_each_weight_by_at_most_half_its_unit() {
        let mut bias = [0i16; EMPTIES_BIAS_LEN];
        for (e, b) in bias.iter_mut().enumerate() {
            *b = (e as i16 - 32) * 3;
        }
        let w = sample().with_empties_bias(bias).with_interpolation(true);
        let exact = w.encode();
        for scale in [32u32, 8, 1] {
            let bytes = w.encode_at_scale(scale).expect("a divisor of SCALE");
            assert_eq!(
                u32::from_le_bytes(bytes[20..24].try_into().expect("4 bytes")),
                scale
            );
            let back = Weights::decode(&bytes).expect("a coarser file decodes");
            assert!(back.interpolated());
            let half = (SCALE as u32 / scale / 2) as i32;
            let pairs = w.data.iter().zip(&back.data);
            let bias_pairs = w.empties_bias.iter().zip(back.empties_bias.iter());
            let mut changed = 0;
            for (&a, &b) in pairs.chain(bias_pairs) {
                let d = (i32::from(a) - i32::from(b)).abs();
                assert!(d <= half, "scale {scale}: {a} read back as {b}");
                assert_eq!(i32::from(b) % (SCALE / scale as i32), 0);
                changed += usize::from(d > 0);
            }
            assert!(changed > 0, "scale {scale} rounded nothing");
            assert!(
                bytes.len() < exact.len(),
                "scale {scale}: {} bytes",
                bytes.len()
            );
            let mut damaged = bytes.clone();
            let at = damaged.len() / 2;
            damaged[at] ^= 0x10;
            assert!(
                Weights::decode(&damaged).is_err(),
                "scale {scale}: damage found"
            );
        }
        // Full scale is the exact encoding.
        assert_eq!(w.encode_at_scale(SCALE as u32).expect("SCALE"), exact);
        assert!(w.encode_at_scale(3).is_err());
        assert!(w.encode_at_scale(0).is_err());
        let mut odd = exact.clone();
        odd[20..24].copy_from_slice(&3u32.to_le_bytes());
        let e = Weights::decode(&odd).expect_err("scale 3");
        assert!(e.0.contains("scale is 3"), "{e:?}");
    }

    /// A bias per count of empty squares: added to every evaluation of a position with that
    /// many empty squares (full, portable, after a move, step and interpolated tables),
    /// written as version 4 (steps) or 5 (interpolated), read back the same, and covered by
    /// the checksum.
    #[test]
    fn the_empties_bias_adds_to_every_evaluation_and_round_trips() {
        let mut bias = [0i16; EMPTIES_BIAS_LEN];
        for (e, b) in bias.iter_mut().enumerate() {
            *b = (e as i16 % 7 - 3) * 40;
        }
        for interpolated in [false, true] {
            let plain = sample().with_interpolation(interpolated);
            let w = plain.clone().with_empties_bias(bias);
            let mut checked = 0;
            for pos in crate::random_positions(21, 2_000) {
                let (p, o) = (pos.player(), pos.opponent());
                let e = (!(p.0 | o.0)).count_ones() as usize;
                let (v, v0) = (w.evaluate(p, o), plain.evaluate(p, o));
                if v0.abs() < 60 * SCALE {
                    assert_eq!(v, v0 + i32::from(bias[e]), "{pos:?}");
                    checked += 1;
                }
                assert_eq!(v, w.evaluate_portable(p, o));
                let explained: i32 = w.explain(p, o).iter().map(|g| g.1).sum();
                assert_eq!(v, explained.clamp(-64 * SCALE, 64 * SCALE));
                let base = super::super::patterns::swapped_indices(p.0, o.0);
                let mut moves = crate::bitboard::legal_moves(p.0, o.0);
                while moves != 0 {
                    let sq = moves.trailing_zeros();
                    moves &= moves - 1;
                    let f = crate::bitboard::flips(p.0, o.0, crate::Square::ALL[sq as usize]);
                    let (np, no) = (o.0 & !f, p.0 | f | (1u64 << sq));
                    assert_eq!(
                        w.evaluate_after(&base, sq, f, np, no),
                        w.evaluate_portable(Bitboard(np), Bitboard(no))
                    );
                }
            }
            assert!(checked > 500, "{checked}");
            let bytes = w.encode();
            let version = u32::from_le_bytes([bytes[8], bytes[9], bytes[10], bytes[11]]);
            assert_eq!(version, if interpolated { 9 } else { 8 }, "entry by entry");
            let back = Weights::decode(&bytes).expect("decodes");
            assert_eq!(back.empties_bias(), &bias);
            assert_eq!(back.interpolated(), interpolated);
            assert_eq!(back, w);
            // A changed bias is caught by the checksum: the last bias is the byte before it.
            let mut damaged = bytes.clone();
            let at = damaged.len() - 9;
            damaged[at] ^= 0x02;
            let err = Weights::decode(&damaged).unwrap_err();
            assert!(err.to_string().contains("checksum"), "{err}");
            // Without a bias the same tables are written without one (version 6 or 7).
            let bytes = plain.encode();
            let version = u32::from_le_bytes([bytes[8], bytes[9], bytes[10], bytes[11]]);
            assert_eq!(version, if interpolated { 7 } else { 6 });
            assert_eq!(
                Weights::decode(&bytes).unwrap().empties_bias(),
                &[0; EMPTIES_BIAS_LEN]
            );
        }
    }

    /// Interpolated weights value a position between two phases' middles by both phases'
    /// sums in proportion, and by one phase alone at a middle and beyond the outer ones.
    #[test]
    fn interpolated_weights_blend_the_phases_around_a_position() {
        let step = sample();
        let blended = step.clone().with_interpolation(true);
        let (mut between, mut differ) = (0, 0);
        for pos in crate::random_positions(9, 3_000) {
            let (p, o) = (pos.player().0, pos.opponent().0);
            let empties = (!(p | o)).count_ones();
            let (k, r) = interpolation(empties);
            assert!(
                5 * k as u32 + 3 + r == empties || r == 0,
                "{empties}: {k} {r}"
            );
            between += usize::from(r > 0);
            let (a, b) = (step.phase(k), step.phase((k + 1).min(PHASES - 1)));
            let exact: i32 = features(p, o)
                .iter()
                .map(|&i| {
                    let (x, y) = (a[i as usize], b[i as usize]);
                    let w = blend(x, y, r);
                    // r fifths of the way from phase k's weight to phase k + 1's, rounded.
                    let mixed = (5 - r as i32) * i32::from(x) + r as i32 * i32::from(y);
                    assert!((5 * i32::from(w) - mixed).abs() <= 2, "{x} {y} {r}: {w}");
                    i32::from(w)
                })
                .sum();
            let v = blended.evaluate(pos.player(), pos.opponent());
            assert_eq!(v, exact.clamp(-64 * SCALE, 64 * SCALE), "{pos:?}");
            assert_eq!(v, blended.evaluate_portable(pos.player(), pos.opponent()));
            let explained: i32 = blended
                .explain(pos.player(), pos.opponent())
                .iter()
                .map(|g| g.1)
                .sum();
            assert_eq!(explained, exact);
            differ += usize::from(v != step.evaluate(pos.player(), pos.opponent()));
        }
        assert!(between > 1_000, "{between} positions between two middles");
        assert!(differ > 1_000, "{differ} values changed by the blend");
        // The middles: 3, 8, ..., 58 empties; the first and last phases alone outside them.
        assert_eq!(interpolation(0), (0, 0));
        assert_eq!(interpolation(3), (0, 0));
        assert_eq!(interpolation(4), (0, 1));
        assert_eq!(interpolation(7), (0, 4));
        assert_eq!(interpolation(8), (1, 0));
        assert_eq!(interpolation(57), (10, 4));
        assert_eq!(interpolation(58), (11, 0));
        assert_eq!(interpolation(60), (11, 0));
    }

    /// Version 1 (generations 1-6, 11 patterns) reads into this build's layout with the later
    /// patterns' tables empty, and evaluates exactly as the build of a1f8284 (11 patterns)
    /// did: its `eval` of the first position of every fourth line of the FFO files, in 1/64
    /// disc.
    #[test]
    fn version_1_files_read_as_they_evaluated() {
        let bytes = include_bytes!("../../weights/gen6.mwt");
        assert_eq!(
            u32::from_le_bytes([bytes[8], bytes[9], bytes[10], bytes[11]]),
            1
        );
        let w = Weights::decode(bytes).expect("generation 6 decodes");
        for ph in 0..PHASES {
            let later = &w.phase(ph)[OFFSETS[PATTERNS_V1]..OFFSETS[PATTERNS.len()]];
            assert!(later.iter().all(|&x| x == 0), "phase {ph}");
        }
        let golden = [
            (
                "XXXOXXXXOXXXXXXXOOXXXXXXOOOXXXXXOOOXXOO-OOOOO---OOOOOOO-OOOOOOO- X",
                428,
            ),
            (
                "--O--O-----OOOX--X-XOXOO--XXXOOOXXXXOOOOXXXOXXOOXXXXXX--XOXX-O-- O",
                -347,
            ),
            (
                "--O-------OOO--X-XOOOOXXXXXXOXOX-XXOXOOXXXOXOOXX-OOOOO-X---OOO-- X",
                745,
            ),
            (
                "--XX----O-XXOX--OOXOO---OXOXOOO-OOXXOOOXOOXXXOOX--XXXXOX--X--X-X X",
                185,
            ),
            (
                "---X-O----XXXO-XXXXXXXXXXOOXXOOXXOXOOOXXXXOOOO-XX--OOOO--------- O",
                -380,
            ),
            (
                "O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X",
                2717,
            ),
            (
                "--O-X-O---O-XO-O-OOXXXOOOOOOXXXOOOOOXX--XXOOXO----XXXX-----XXX-- O",
                -425,
            ),
            (
                "-----X--X-XXX---XXXXOO--XOXOOXX-XOOXXX--XOOXX-----OOOX---XXXXXX- O",
                1147,
            ),
            (
                "---X-------OX--X--XOOXXXXXXOXXXXXXXOOXXXXXXOOOXX--XO---X-------- O",
                662,
            ),
            (
                "--XXXXX---XXXX---OOOXX---OOXOX---OXXXXX-OOOOOXO----OXX---------- O",
                -404,
            ),
        ];
        for (board, value) in golden {
            // Square k of the string is bit k (a1 first); the side to move follows a space.
            let bits = |c: u8| {
                (board.bytes().take(64).enumerate())
                    .filter(|&(_, b)| b == c)
                    .fold(0u64, |m, (k, _)| m | 1 << k)
            };
            let (x, o) = (bits(b'X'), bits(b'O'));
            let (p, q) = if board.ends_with('X') { (x, o) } else { (o, x) };
            assert_eq!(w.evaluate(Bitboard(p), Bitboard(q)), value, "{board}");
        }
        // Written again, it is a file of this build's version that reads back the same.
        let again = w.encode();
        assert_eq!(
            u32::from_le_bytes([again[8], again[9], again[10], again[11]]),
            VERSION + VERSION_ENTRY_MAJOR
        );
        assert_eq!(Weights::decode(&again), Ok(w));
    }

    #[test]
    fn damaged_files_are_refused_with_a_reason() {
        let bytes = sample().encode();
        assert!(Weights::decode(&bytes[..bytes.len() / 2]).is_err());
        let mut flipped = bytes.clone();
        let mid = flipped.len() / 2;
        flipped[mid] ^= 0x04;
        assert!(Weights::decode(&flipped).is_err());
        let mut version = bytes.clone();
        version[8] = 99;
        let err = Weights::decode(&version).unwrap_err();
        assert!(err.to_string().contains("version"), "{err}");
        assert!(Weights::decode(b"hello").is_err());
    }
}
