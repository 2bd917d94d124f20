//! A deliberately plain Othello implementation on an 8x8 array, independent of the bitboard
//! code: the reference the fast generator must agree with. Test code only (tests/movegen.rs,
//! tests/perft.rs, tests/properties.rs include it with `#[path]`), so that no module of the
//! engine depends on its own tests' reference.
#![allow(
    dead_code,
    reason = "each test file that includes the reference uses a different part of it"
)]

use montello_engine::Bitboard;

/// A board as 64 cells: 0 empty, 1 the side to move, 2 the opponent.
pub type Cells = [u8; 64];

const DIRECTIONS: [(i32, i32); 8] = [
    (-1, -1),
    (0, -1),
    (1, -1),
    (-1, 0),
    (1, 0),
    (-1, 1),
    (0, 1),
    (1, 1),
];

/// The cells of the side to move (`player`) and its opponent as an array.
pub fn cells(player: Bitboard, opponent: Bitboard) -> Cells {
    let mut c = [0u8; 64];
    for (i, cell) in c.iter_mut().enumerate() {
        if player.0 >> i & 1 == 1 {
            *cell = 1;
        } else if opponent.0 >> i & 1 == 1 {
            *cell = 2;
        }
    }
    c
}

/// The cells flipped by the side to move playing at `index`, walking each direction.
pub fn flips(c: &Cells, index: usize) -> Vec<usize> {
    if c[index] != 0 {
        return Vec::new();
    }
    let (x0, y0) = ((index % 8) as i32, (index / 8) as i32);
    let mut all = Vec::new();
    for (dx, dy) in DIRECTIONS {
        let mut run = Vec::new();
        let (mut x, mut y) = (x0 + dx, y0 + dy);
        while (0..8).contains(&x) && (0..8).contains(&y) && c[(y * 8 + x) as usize] == 2 {
            run.push((y * 8 + x) as usize);
            x += dx;
            y += dy;
        }
        if !run.is_empty()
            && (0..8).contains(&x)
            && (0..8).contains(&y)
            && c[(y * 8 + x) as usize] == 1
        {
            all.extend(run);
        }
    }
    all
}

/// Every legal move of the side to move, in index order.
pub fn legal_moves(c: &Cells) -> Vec<usize> {
    (0..64).filter(|&i| !flips(c, i).is_empty()).collect()
}

/// The board after the side to move plays `index`, from the new mover's point of view.
pub fn play(c: &Cells, index: usize) -> Cells {
    let mut next = *c;
    for f in flips(c, index) {
        next[f] = 1;
    }
    next[index] = 1;
    swap(&next)
}

/// The same board with the other side to move.
pub fn swap(c: &Cells) -> Cells {
    let mut s = *c;
    for cell in s.iter_mut() {
        *cell = match *cell {
            1 => 2,
            2 => 1,
            x => x,
        };
    }
    s
}

/// Perft with the same conventions as `montello_engine::perft::perft`, by brute force.
pub fn perft(c: &Cells, depth: u32, passed: bool) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = legal_moves(c);
    if moves.is_empty() {
        return if passed {
            1
        } else {
            perft(&swap(c), depth - 1, true)
        };
    }
    moves
        .iter()
        .map(|&m| perft(&play(c, m), depth - 1, false))
        .sum()
}
