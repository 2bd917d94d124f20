//! Move priors from Othello's corner and X-/C-square knowledge (the learned evaluation's
//! priors are the tree's `PriorBytes`).

use crate::bitboard::{CORNERS, legal_moves};

/// For each square: the corner it sits next to (X-squares diagonally, C-squares along the
/// edge), or 64 for none; and whether it is an X-square.
const NEXT_TO_CORNER: [(u8, bool); 64] = {
    let mut t = [(64u8, false); 64];
    let corners = [
        (0u8, 1u8, 8u8, 9u8),
        (7, 6, 15, 14),
        (56, 57, 48, 49),
        (63, 62, 55, 54),
    ];
    let mut k = 0;
    while k < 4 {
        let (corner, c1, c2, x) = corners[k];
        t[c1 as usize] = (corner, false);
        t[c2 as usize] = (corner, false);
        t[x as usize] = (corner, true);
        k += 1;
    }
    t
};

/// Edge squares (not corners).
const EDGES: u64 = 0xff81_8181_8181_81ff & !CORNERS;

/// The prior of playing `sq` from (p, o) that leaves the opponent `(np, no)`: 0..=255 with
/// 128 neutral. Corners are good, X- and C-squares next to an empty corner bad, and moves
/// that leave the opponent few replies good.
#[inline]
pub(super) fn prior(p: u64, o: u64, sq: u8, np: u64, no: u64) -> u8 {
    let bit = 1u64 << sq;
    let empty = !(p | o);
    let mut s: i32 = 128;
    if bit & CORNERS != 0 {
        s += 90;
    } else {
        let (corner, is_x) = NEXT_TO_CORNER[sq as usize];
        if corner < 64 && empty & (1u64 << corner) != 0 {
            s -= if is_x { 80 } else { 40 };
        } else if bit & EDGES != 0 {
            s += 10;
        }
    }
    let replies = legal_moves(np, no).count_ones() as i32;
    s += 30 - 5 * replies.min(12);
    s.clamp(0, 255) as u8
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn priors_favour_corners_and_shun_x_squares() {
        let empty_corner = 0u64;
        let x = prior(1 << 20, 1 << 21, 9, 0, 0);
        let corner = prior(1 << 20, 1 << 21, 0, 0, 0);
        let plain = prior(1 << 20, 1 << 21, 19, 0, 0);
        assert!(
            corner > plain && plain > x,
            "{corner} {plain} {x} {empty_corner}"
        );
    }
}
