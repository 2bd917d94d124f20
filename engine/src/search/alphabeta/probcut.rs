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
pub(crate) const fn shallow_depth(depth: u32) -> u32 {
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
        let grown = s + (s - s2).max(0.0) * (depth - top) as f32 / 2.0;
        (a, b, grown)
    };
    (sigma > 0.0 && a > 0.1).then_some(Cut {
        shallow: shallow_depth(depth),
        a,
        b,
        sigma,
    })
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
