//! Selection: UCB1 with the prior as virtual playouts, never into a child proven lost.

use super::config::MctsConfig;
use super::tree::{ProofState, Tree};

/// How many natural logarithms of visit counts [`ln_visits`] keeps at hand.
const LN_TABLE: usize = 4096;

/// `ln(k)` for `k` in `0..LN_TABLE` (the first entry unused), exactly as `f32::ln` gives it.
static LN: std::sync::LazyLock<Vec<f32>> =
    std::sync::LazyLock::new(|| (0..LN_TABLE).map(|k| (k as f32).ln()).collect());

/// `ln(n)` for the selection's exploration term: looked up for the visit counts of all but
/// the busiest nodes (the same value, without a call to the logarithm at each node of each
/// descent).
#[inline]
fn ln_visits(n: u32) -> f32 {
    match LN.get(n as usize) {
        Some(&l) => l,
        None => (n as f32).ln(),
    }
}

/// The score (1, 0.5, 0) of a proof for the side it belongs to.
#[inline]
pub(super) fn proof_score(proof: ProofState) -> f32 {
    match proof {
        ProofState::Win => 1.0,
        ProofState::Draw => 0.5,
        ProofState::Loss | ProofState::Unknown => 0.0,
    }
}

/// Picks the child of `n` to descend into: the highest UCB value with the prior as virtual
/// playouts (and, with minimax backups, [`MctsConfig::minimax_alpha`] of the minimax value
/// mixed into the mean), never a child proven lost for the side to move.
#[inline]
pub(super) fn select(tree: &Tree, n: usize, config: &MctsConfig) -> Option<usize> {
    let node = &tree.nodes[n];
    let ln_n = ln_visits(node.visits + 1);
    let c = config.exploration;
    let w = config.prior_weight;
    let alpha = if config.minimax {
        config.minimax_alpha
    } else {
        0.0
    };
    let mut best = None;
    let mut best_value = f32::NEG_INFINITY;
    for i in node.children() {
        let child = &tree.nodes[i];
        let value = match child.proof {
            ProofState::Loss => continue,
            ProofState::Win => f32::INFINITY,
            ProofState::Draw | ProofState::Unknown => {
                let prior = f32::from(child.prior) * (1.0 / 255.0);
                let v = child.visits as f32;
                let q = if child.proof == ProofState::Draw {
                    0.5
                } else if v + w > 0.0 {
                    let q = (child.wins + w * prior) / (v + w);
                    q + alpha * (prior - q)
                } else {
                    // No prior and no visit: try it before any visited sibling.
                    2.0 + prior
                };
                q + c * (ln_n / (v + 1.0)).sqrt()
            }
        };
        if value > best_value {
            best_value = value;
            best = Some(i);
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The looked-up logarithms are the computed ones, for each visit count (also past the
    /// table).
    #[test]
    fn looked_up_logarithms_equal_the_computed_ones() {
        for n in 1..3 * LN_TABLE as u32 {
            assert_eq!(ln_visits(n).to_bits(), (n as f32).ln().to_bits(), "{n}");
        }
    }
}
