//! Stable discs: discs that no sequence of moves can flip. The exact solver's stability
//! cutoff bounds a position's final margin by the opponent's stable discs.
//!
//! A disc is stable here when, along each of the four lines through it (row, column, both
//! diagonals), the line is full or one of its neighbours on that line is the board's edge or
//! a stable disc of the same colour. That is a sufficient condition (it finds most stable discs
//! in the endgame, never a disc that can flip), computed to a fixed point from the edges in.

/// Column a (also what gathers a column's bits in `solver`'s last-move count).
pub(super) const COL_A: u64 = 0x0101_0101_0101_0101;
const COL_H: u64 = 0x8080_8080_8080_8080;
const ROW_1: u64 = 0xff;
const ROW_8: u64 = 0xff << 56;
const BORDER: u64 = COL_A | COL_H | ROW_1 | ROW_8;

/// The 15 diagonals going up and right (a1-h8 and its parallels), as masks: the one through
/// row `r`, column `c` is number `c + 7 - r`.
pub(super) const DIAGONALS_9: [u64; 15] = diagonals(9);
/// The 15 diagonals going up and left (h1-a8 and its parallels), as masks: the one through
/// row `r`, column `c` is number `c + r`.
pub(super) const DIAGONALS_7: [u64; 15] = diagonals(7);

const fn diagonals(step: u32) -> [u64; 15] {
    let mut out = [0u64; 15];
    let mut sq = 0;
    while sq < 64 {
        let (row, col) = (sq / 8, sq % 8);
        // Squares on one up-right diagonal share col - row; on one up-left, col + row.
        let index = if step == 9 { col - row + 7 } else { col + row };
        out[index as usize] |= 1u64 << sq;
        sq += 1;
    }
    out
}

/// The squares of the lines (of one family) that are full.
#[inline]
fn full_lines(occupied: u64, lines: &[u64]) -> u64 {
    let mut full = 0;
    for &line in lines {
        if occupied & line == line {
            full |= line;
        }
    }
    full
}

/// The discs of `own` that can never be flipped (see the module's rule), `opp` the other
/// side's discs.
pub(crate) fn stable_discs(own: u64, opp: u64) -> u64 {
    let occupied = own | opp;
    let mut rows = 0;
    for r in 0..8 {
        if (occupied >> (8 * r)) & 0xff == 0xff {
            rows |= 0xff << (8 * r);
        }
    }
    // A column is full when all eight rows are: AND the board with itself shifted by whole
    // rows (rotations keep every bit in its column).
    let mut columns = occupied;
    columns &= columns.rotate_right(8);
    columns &= columns.rotate_right(16);
    columns &= columns.rotate_right(32);
    let horizontal_base = rows | COL_A | COL_H;
    let vertical_base = columns | ROW_1 | ROW_8;
    let up_right_base = full_lines(occupied, &DIAGONALS_9) | BORDER;
    let up_left_base = full_lines(occupied, &DIAGONALS_7) | BORDER;
    let mut stable = 0u64;
    loop {
        let horizontal = horizontal_base | ((stable << 1) & !COL_A) | ((stable >> 1) & !COL_H);
        let vertical = vertical_base | (stable << 8) | (stable >> 8);
        let up_right = up_right_base | ((stable << 9) & !COL_A) | ((stable >> 9) & !COL_H);
        let up_left = up_left_base | ((stable << 7) & !COL_H) | ((stable >> 7) & !COL_A);
        let next = own & horizontal & vertical & up_right & up_left;
        if next == stable {
            return stable;
        }
        stable = next;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::FastRng;
    use crate::bitboard::{flips, legal_moves};
    use crate::playout::random_square_raw;

    #[test]
    fn corners_and_full_boards() {
        // A lone corner is stable; a lone edge disc next to an empty corner is not.
        assert_eq!(stable_discs(1, 0), 1);
        assert_eq!(stable_discs(2, 0), 0);
        // A full board: every disc of each side.
        let own = 0x0f0f_0f0f_0f0f_0f0f;
        assert_eq!(stable_discs(own, !own), own);
        assert_eq!(stable_discs(!own, own), !own);
        // The first row filled from a1 by one side, then a disc in the middle.
        assert_eq!(stable_discs(0x07, 0), 0x07);
        assert_eq!(stable_discs(0x07 | 1 << 27, 0), 0x07);
    }

    #[test]
    fn the_diagonals_cover_the_board_once() {
        for family in [DIAGONALS_9, DIAGONALS_7] {
            assert_eq!(family.iter().fold(0, |acc, d| acc | d), !0);
            assert_eq!(family.iter().map(|d| d.count_ones()).sum::<u32>(), 64);
        }
        assert_eq!(DIAGONALS_9[7], 0x8040_2010_0804_0201);
        assert_eq!(DIAGONALS_7[7], 0x0102_0408_1020_4080);
    }

    /// No disc called stable ever flips: random games, checked at every position against
    /// every move of the rest of the game.
    #[test]
    fn stable_discs_never_flip_in_random_games() {
        let mut rng = FastRng::new(17);
        let mut found = 0;
        for _ in 0..300 {
            let (mut p, mut o) = (0x0000_0008_1000_0000u64, 0x0000_0010_0800_0000u64);
            // The stable discs (both colours) found at each position so far.
            let mut claims: Vec<u64> = Vec::new();
            loop {
                let moves = legal_moves(p, o);
                if moves == 0 {
                    if legal_moves(o, p) == 0 {
                        break;
                    }
                    std::mem::swap(&mut p, &mut o);
                    continue;
                }
                claims.push(stable_discs(p, o) | stable_discs(o, p));
                let sq = random_square_raw(moves, &mut rng);
                let f = flips(p, o, sq);
                // Every claimed-stable disc keeps its colour: a flip changes exactly `f`.
                for &stable in &claims {
                    assert_eq!(stable & f, 0, "a stable disc flipped");
                }
                (p, o) = (o & !f, p | f | sq.mask());
            }
            found += claims.last().map_or(0, |c| c.count_ones());
        }
        // The rule finds stable discs at all (late in games most discs are stable).
        assert!(found > 300 * 20, "{found}");
    }
}
