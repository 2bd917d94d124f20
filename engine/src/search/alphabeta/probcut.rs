//! Multi-ProbCut (Buro, 1997) for the alpha-beta search: before searching a node `depth`
//! plies deep, a much shallower search predicts the deep value, and when the prediction is
//! far enough outside the window the node is cut without the deep search.
//!
//! The prediction is linear, `deep ≈ a · shallow + b`, with a residual of standard
//! deviation `sigma`, all three fitted per game phase and deep depth from the project's own
//! searches (`montello-engine train probcut`, which writes `probcut_table.rs`; the run and
//! its figures are in docs/ai.md). A node fails high when the shallow value reaches
//! `(beta + t·sigma - b) / a` and low when it stays at or below `(alpha - t·sigma - b) / a`;
//! `t` (the selectivity) trades safety for speed.

use crate::eval::{PHASES, phase};

#[path = "probcut_table.rs"]
mod table;

pub(crate) use table::{FIT_MAX_DEPTH, FIT_MIN_DEPTH};

/// The shallow search that predicts a `depth`-deep one: about a quarter as deep, with the
/// same parity (odd and even depths end on different sides' moves, which the evaluation
/// sees differently).
#[inline]
pub const fn shallow_depth(depth: u32) -> u32 {
    2 * (depth / 4) + (depth & 1)
}

/// One fitted prediction: `deep ≈ a · shallow + b` (evaluation units), residual `sigma`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Cut {
    /// The shallow search's depth.
    pub shallow: u32,
    pub a: f32,
    pub b: f32,
    pub sigma: f32,
}

/// The prediction for a node `depth` plies deep with `empties` empty squares, if the fit
/// has one (it covers depths from [`FIT_MIN_DEPTH`]; deeper than [`FIT_MAX_DEPTH`], the
/// deepest fitted row of the same parity with its spread grown as it grew over the last two
/// fitted depths of that parity).
#[inline]
pub(crate) fn cut(depth: u32, empties: u32) -> Option<Cut> {
    if depth < FIT_MIN_DEPTH {
        return None;
    }
    let rows = &table::TABLE[phase(empties).min(PHASES - 1)];
    let row = |d: u32| rows[(d - FIT_MIN_DEPTH) as usize];
    let (a, b, sigma) = if depth <= FIT_MAX_DEPTH {
        let [a, b, s] = row(depth);
        (a, b, s)
    } else {
        // The deepest fitted depth with this parity, and the one two below it.
        let top = FIT_MAX_DEPTH - ((FIT_MAX_DEPTH ^ depth) & 1);
        let [a, b, s] = row(top);
        let [_, _, s2] = row(top - 2);
        (a, b, beyond_the_fit(s, s2, depth - top))
    };
    (sigma > 0.0 && a > 0.1).then_some(Cut {
        shallow: shallow_depth(depth),
        a,
        b,
        sigma,
    })
}

/// Nodes with at most this many empty squares are "near the end" and cut with the safer
/// [`Confidence::end`]: Master's alpha-beta plays from here (`MASTER_AB_EMPTIES`), where a
/// move lost to a wrong cut is seldom won back.
pub(crate) const END_EMPTIES: u32 = 30;

/// Multi-ProbCut's confidence `t` in standard deviations of the prediction's error (0: no
/// cut): one for the middle game, a safer one near the end ([`END_EMPTIES`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Confidence {
    pub mid: f32,
    pub end: f32,
}

impl Confidence {
    /// From tenths of a standard deviation.
    pub(crate) fn from_tenths(mid: u32, end: u32) -> Confidence {
        Confidence {
            mid: mid as f32 / 10.0,
            end: end as f32 / 10.0,
        }
    }

    /// The confidence at a node with `empties` empty squares.
    #[inline]
    pub(crate) fn at(self, empties: u32) -> f32 {
        if empties <= END_EMPTIES {
            self.end
        } else {
            self.mid
        }
    }
}

/// The spread of a prediction `beyond` plies deeper than the deepest fitted depth of its
/// parity, whose spread is `top` and was `below` two plies shallower: grown as it grew over
/// those two plies, never shrunk.
#[inline]
pub fn beyond_the_fit(top: f32, below: f32, beyond: u32) -> f32 {
    top + (top - below).max(0.0) * beyond as f32 / 2.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shallow_search_is_shallower_and_keeps_the_parity() {
        for d in FIT_MIN_DEPTH..=30 {
            let s = shallow_depth(d);
            assert!(s >= 1 && s < d, "depth {d} -> {s}");
            assert_eq!(s % 2, d % 2, "depth {d} -> {s}");
        }
    }

    #[test]
    fn deeper_than_the_fit_the_spread_does_not_shrink() {
        for empties in 20..=60 {
            for d in FIT_MAX_DEPTH + 1..=24 {
                let (Some(deep), Some(fitted)) = (cut(d, empties), cut(d - 2, empties)) else {
                    continue;
                };
                assert!(deep.sigma >= fitted.sigma, "{empties} empties, depth {d}");
            }
        }
    }

    #[test]
    fn the_fit_predicts_a_rising_value_with_a_positive_spread() {
        let mut rows = 0;
        for empties in 12..=60 {
            for d in FIT_MIN_DEPTH..=FIT_MAX_DEPTH {
                if let Some(c) = cut(d, empties) {
                    rows += 1;
                    assert!(
                        c.a > 0.1 && c.a < 3.0,
                        "{empties} empties, depth {d}: {c:?}"
                    );
                    assert!(c.sigma > 0.0 && c.sigma < 20.0 * 64.0, "{c:?}");
                }
            }
        }
        assert!(rows > 0, "the committed fit has no row");
    }
}
