//! Exact endgame search: negamax alpha-beta on bitboards to the end of the game, for the
//! MCTS-Solver's leaves (win/draw/loss) and for the root when few empty squares are left
//! (the final disc margin). It checks the clock and the cancel flag every few thousand nodes
//! and gives up (returns `None`) past its deadline, so it never breaks the time cap.

use super::CancelHandle;
use super::dispatch::{dispatched, fast_generator_available, flips_on, moves_of};
use super::stability::{COL_A, DIAGONALS_7, DIAGONALS_9, stable_discs};
use super::table::{EXACT_BASE, NO_MOVE, Table};
use crate::bitboard::{CORNERS, QUADRANTS, X_SQUARES, flips, legal_moves};
use crate::clock::Instant;
use crate::eval::{self, SCALE};
use crate::{Move, Position, Square, Variant};

/// Checks the clock every this many nodes (a few tens of microseconds of work).
const CHECK_NODES: u64 = 1 << 10;

/// At most this many empty squares: moves are tried in quadrant-parity order straight from
/// the empty squares (no move generation, no sorting); they are too cheap to order.
const SHALLOW_EMPTIES: u32 = 6;

/// At least this many empty squares: nodes go through the transposition table.
const TT_EMPTIES: u32 = 9;

/// Alpha from which a node checks the opponent's stable discs for a cutoff (below it the
/// bound `64 - 2 * stable` can hardly reach alpha, and the count costs more than it saves).
const STABILITY_ALPHA: i32 = 8;

/// At least this many empty squares: the move ordering adds a one-ply search by the learned
/// evaluation.
const SEARCH_ORDER_EMPTIES: u32 = 16;

/// At least this many empty squares: the move ordering adds the learned evaluation.
const EVAL_EMPTIES: u32 = 14;

/// Transposition table slots for an unlimited search unless told otherwise (a phone-sized
/// 3 MiB); a node budget shrinks it (a small search never touches most of a large table, and
/// must not pay for it).
const TT_ENTRIES: usize = 1 << 17;

/// An exact endgame search within a deadline.
#[derive(Debug)]
pub(crate) struct Solver<'a> {
    /// Nodes searched so far.
    pub nodes: u64,
    deadline: Option<Instant>,
    cancel: Option<&'a CancelHandle>,
    aborted: bool,
    max_nodes: u64,
    /// Whether a side with no move passes (Othello) or the game ends (no-move-ends-game).
    passes: bool,
    /// Whether the recursion runs its copy compiled for AVX2 and the x86-64-v3 scalar
    /// extensions (this CPU has them; see [`super::dispatch`]).
    fast: bool,
    table: Table,
}

impl<'a> Solver<'a> {
    /// A solver for `variant`'s rules that gives up at `deadline` or when `cancel` is set.
    pub fn new(
        variant: Variant,
        deadline: Option<Instant>,
        cancel: Option<&'a CancelHandle>,
    ) -> Solver<'a> {
        Solver {
            nodes: 0,
            deadline,
            cancel,
            aborted: false,
            max_nodes: u64::MAX,
            passes: variant.passes(),
            fast: fast_generator_available(),
            table: Table::with_slots(TT_ENTRIES),
        }
    }

    /// Runs the AVX2 copy of the recursion only if `fast` and the CPU has it (false: the
    /// portable copy everywhere, which the tests compare it with).
    pub(crate) fn with_fast(mut self, fast: bool) -> Solver<'a> {
        self.fast = fast && fast_generator_available();
        self
    }

    /// Gives up after `max_nodes` nodes as well: a budget that, unlike a deadline, keeps an
    /// iteration-limited search deterministic.
    pub fn with_budget(mut self, max_nodes: u64) -> Solver<'a> {
        self.max_nodes = max_nodes;
        let size = usize::try_from(max_nodes / 4)
            .unwrap_or(usize::MAX)
            .clamp(1 << 10, TT_ENTRIES)
            .next_power_of_two();
        self.table = Table::with_slots(size);
        self
    }

    /// Uses a transposition table of about `bytes` (a power of two of slots, at least 1,024).
    pub fn with_table_bytes(self, bytes: usize) -> Solver<'a> {
        let table = Table::new(bytes.max(1 << 15));
        self.with_table(table)
    }

    /// Stores in `table` (a searcher's, kept between moves and shared with its midgame
    /// search) instead of a table of its own.
    pub(crate) fn with_table(mut self, table: Table) -> Solver<'a> {
        self.table = table;
        self
    }

    /// The table, for the midgame search that shares it.
    pub(crate) fn table(&mut self) -> &mut Table {
        &mut self.table
    }

    /// Gives the table back (to keep it for the next search).
    pub(crate) fn into_table(self) -> Table {
        self.table
    }

    /// Gives up after `left` more nodes (and at the deadline or the cancel, as before).
    pub(crate) fn set_nodes_left(&mut self, left: u64) {
        self.max_nodes = self.nodes.saturating_add(left);
    }

    /// Whether the search gave up (deadline, budget or cancel).
    #[cfg(test)]
    pub fn aborted(&self) -> bool {
        self.aborted
    }

    /// The final disc margin (mover's discs minus the opponent's, empty squares to the winner)
    /// of `pos` with best play, if found in time. A narrow window `alpha..beta` makes it
    /// faster: the value is then exact only inside the window (fail-soft bounds outside).
    pub fn solve(&mut self, pos: &Position, alpha: i32, beta: i32) -> Option<i32> {
        self.solve_bits(pos.player().0, pos.opponent().0, alpha, beta)
    }

    /// [`Solver::solve`] on the side to move's discs `p` and the opponent's `o`.
    pub(crate) fn solve_bits(&mut self, p: u64, o: u64, alpha: i32, beta: i32) -> Option<i32> {
        if self.aborted {
            return None;
        }
        let empties = (!(p | o)).count_ones();
        let v = if self.fast {
            self.node::<true>(p, o, alpha, beta, empties)
        } else {
            self.node::<false>(p, o, alpha, beta, empties)
        };
        (!self.aborted).then_some(v)
    }

    /// Win (> 0), draw (0) or loss (< 0) for the side to move, if found in time.
    pub fn win_draw_loss(&mut self, pos: &Position) -> Option<i32> {
        self.solve(pos, -1, 1).map(i32::signum)
    }

    fn check(&mut self) {
        if self.nodes >= self.max_nodes
            || self.cancel.is_some_and(CancelHandle::is_cancelled)
            || self.deadline.is_some_and(|d| Instant::now() >= d)
        {
            self.aborted = true;
        }
    }

    /// Counts a node; false when the search must give up.
    #[inline]
    fn count(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes.is_multiple_of(CHECK_NODES) || self.nodes >= self.max_nodes {
            self.check();
        }
        !self.aborted
    }

    /// Dispatches on the number of empty squares.
    #[inline(always)]
    fn node<const FAST: bool>(
        &mut self,
        p: u64,
        o: u64,
        alpha: i32,
        beta: i32,
        empties: u32,
    ) -> i32 {
        match empties {
            0 => {
                self.nodes += 1;
                final_margin(p, o)
            }
            1 => {
                self.nodes += 1;
                self.last1(p, o, !(p | o))
            }
            2 => self.last2::<FAST>(p, o, alpha, beta),
            3 => self.last3::<FAST>(p, o, alpha, beta),
            e if e <= SHALLOW_EMPTIES => self.shallow::<FAST>(p, o, alpha, beta, e),
            e => self.deep::<FAST>(p, o, alpha, beta, e),
        }
    }

    /// The final margin with one empty square `e` left: the mover plays it, or the opponent
    /// does (Othello passes), or the game ends.
    #[inline]
    fn last1(&self, p: u64, o: u64, e: u64) -> i32 {
        let i = e.trailing_zeros() as usize;
        // 63 discs: the difference is odd, never a draw (one count: o has the rest).
        let diff = 2 * p.count_ones() as i32 - 63;
        let n = last_flip_count(p, i);
        if n > 0 {
            return diff + 2 * n + 1;
        }
        if self.passes {
            let n = last_flip_count(o, i);
            if n > 0 {
                return diff - 2 * n - 1;
            }
        }
        final_margin(p, o)
    }

    /// The final margin with two empty squares left: each side's moves on them straight, no
    /// parity (both squares are tried either way), no move generation, and a square with no
    /// opponent disc next to it is skipped without computing flips.
    #[inline]
    fn last2<const FAST: bool>(&mut self, p: u64, o: u64, alpha: i32, beta: i32) -> i32 {
        self.nodes += 1;
        let e = !(p | o);
        let x = e.trailing_zeros() as usize;
        let y = (e & (e - 1)).trailing_zeros() as usize;
        let mover = self.best_of_two::<FAST>(p, o, x, y, beta);
        if mover != i32::MIN {
            return mover;
        }
        if self.passes {
            let opponent = self.best_of_two::<FAST>(o, p, x, y, -alpha);
            if opponent != i32::MIN {
                return -opponent;
            }
        }
        final_margin(p, o)
    }

    /// The best of `p`'s moves on squares `x` and `y` (the last two empty ones), each
    /// answered by the last move, stopping at `beta`; `i32::MIN` when `p` has neither.
    #[inline]
    fn best_of_two<const FAST: bool>(
        &mut self,
        p: u64,
        o: u64,
        x: usize,
        y: usize,
        beta: i32,
    ) -> i32 {
        let mut best = i32::MIN;
        for (a, b) in [(x, y), (y, x)] {
            if NEIGHBOURS[a] & o == 0 {
                continue;
            }
            let f = flips_on::<FAST>(p, o, a);
            if f == 0 {
                continue;
            }
            self.nodes += 1;
            let v = -self.last1(o & !f, p | f | (1u64 << a), 1u64 << b);
            if v > best {
                best = v;
                if v >= beta {
                    return best;
                }
            }
        }
        best
    }

    /// The final margin with three empty squares left: a square alone in its quadrant first
    /// (parity), each move answered by [`Solver::last2`], no move generation.
    #[inline(always)]
    fn last3_body<const FAST: bool>(&mut self, p: u64, o: u64, alpha: i32, beta: i32) -> i32 {
        if !self.count() {
            return 0;
        }
        let e = !(p | o);
        let mut squares = [0usize; 3];
        let (mut first, mut last) = (0, 3);
        let mut rest = e;
        while rest != 0 {
            let i = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            // Alone in its quadrant (or all three in one): odd, first.
            let quadrant = QUADRANTS[((i >> 5) << 1) | ((i & 7) >> 2)];
            if (e & quadrant).count_ones() & 1 == 1 {
                squares[first] = i;
                first += 1;
            } else {
                last -= 1;
                squares[last] = i;
            }
        }
        let mover = self.best_of_three::<FAST>(p, o, &squares, alpha, beta);
        if mover != i32::MIN {
            return mover;
        }
        if self.passes {
            let opponent = self.best_of_three::<FAST>(o, p, &squares, -beta, -alpha);
            if opponent != i32::MIN {
                return -opponent;
            }
        }
        final_margin(p, o)
    }

    /// The best of `p`'s moves on `squares` (the last three empty ones) in their order,
    /// fail-soft in `alpha..beta`; `i32::MIN` when `p` has none of them.
    #[inline]
    fn best_of_three<const FAST: bool>(
        &mut self,
        p: u64,
        o: u64,
        squares: &[usize; 3],
        mut alpha: i32,
        beta: i32,
    ) -> i32 {
        let mut best = i32::MIN;
        for &a in squares {
            if NEIGHBOURS[a] & o == 0 {
                continue;
            }
            let f = flips_on::<FAST>(p, o, a);
            if f == 0 {
                continue;
            }
            let v = -self.last2::<FAST>(o & !f, p | f | (1u64 << a), -beta, -alpha);
            if v > best {
                best = v;
                if v > alpha {
                    alpha = v;
                    if alpha >= beta {
                        return best;
                    }
                }
            }
        }
        best
    }

    /// A few empty squares: moves in quadrant-parity order (odd quadrants first), straight
    /// from the empty squares next to an opponent disc, no move generation.
    #[inline(always)]
    fn shallow_body<const FAST: bool>(
        &mut self,
        p: u64,
        o: u64,
        mut alpha: i32,
        beta: i32,
        empties: u32,
    ) -> i32 {
        if !self.count() {
            return 0;
        }
        let e = !(p | o);
        let mut odd = 0;
        for q in QUADRANTS {
            if (e & q).count_ones() & 1 == 1 {
                odd |= q;
            }
        }
        let cand = e & neighbours(o);
        let mut best = i32::MIN;
        for mut set in [cand & odd, cand & !odd] {
            while set != 0 {
                let i = set.trailing_zeros() as usize;
                set &= set - 1;
                let f = flips_on::<FAST>(p, o, i);
                if f == 0 {
                    continue;
                }
                let (np, no) = (o & !f, p | f | (1u64 << i));
                let v = if empties == 4 {
                    -self.last3::<FAST>(np, no, -beta, -alpha)
                } else {
                    -self.shallow::<FAST>(np, no, -beta, -alpha, empties - 1)
                };
                if v > best {
                    best = v;
                    if v > alpha {
                        alpha = v;
                        if alpha >= beta {
                            return best;
                        }
                    }
                }
            }
        }
        if best == i32::MIN {
            // No move: pass if the opponent can play, else the game is over.
            if !self.passes || moves_of::<FAST>(o, p) == 0 {
                return final_margin(p, o);
            }
            return -self.shallow::<FAST>(o, p, -beta, -alpha, empties);
        }
        best
    }

    /// Many empty squares: principal-variation search with a transposition table (from
    /// `TT_EMPTIES` up) and fastest-first move ordering.
    #[inline(always)]
    fn deep_body<const FAST: bool>(
        &mut self,
        p: u64,
        o: u64,
        mut alpha: i32,
        mut beta: i32,
        empties: u32,
    ) -> i32 {
        if !self.count() {
            return 0;
        }
        let mut moves = moves_of::<FAST>(p, o);
        if moves == 0 {
            if !self.passes || moves_of::<FAST>(o, p) == 0 {
                return final_margin(p, o);
            }
            return -self.deep::<FAST>(o, p, -beta, -alpha, empties);
        }
        // Stability cutoff: the opponent's stable discs stay theirs, so the margin is at most
        // 64 minus twice their number.
        if alpha >= STABILITY_ALPHA {
            let upper = 64 - 2 * stable_discs(o, p).count_ones() as i32;
            if upper <= alpha {
                return upper;
            }
            beta = beta.min(upper);
        }
        let use_table = empties >= TT_EMPTIES;
        let mut tt_best = NO_MOVE;
        let mut tt_lower = -64;
        let mut tt_upper = 64;
        if use_table && let Some(entry) = self.table.probe(p, o) {
            // A midgame entry (the searcher's alpha-beta shares the table) only orders.
            tt_best = entry.best;
            if entry.is_exact() {
                tt_lower = i32::from(entry.lower) / SCALE;
                tt_upper = i32::from(entry.upper) / SCALE;
                if tt_lower >= beta {
                    return tt_lower;
                }
                if tt_upper <= alpha {
                    return tt_upper;
                }
                if tt_lower == tt_upper {
                    return tt_lower;
                }
                alpha = alpha.max(tt_lower);
                beta = beta.min(tt_upper);
            }
        }
        let (alpha0, beta0) = (alpha, beta);
        let mut list = [(0i32, 0u8, 0u64); 64];
        let mut n = 0;
        let e = !(p | o);
        while moves != 0 {
            let i = moves.trailing_zeros() as usize;
            moves &= moves - 1;
            let bit = 1u64 << i;
            let f = flips_on::<FAST>(p, o, i);
            let (np, no) = (o & !f, p | f | bit);
            if use_table && empties > TT_EMPTIES {
                // Enhanced transposition cutoff: a reply already known to be bad enough for
                // the opponent settles this node without searching the rest.
                if let Some(child) = self.table.probe(np, no)
                    && child.is_exact()
                {
                    let v = -i32::from(child.upper) / SCALE;
                    if v >= beta {
                        return v;
                    }
                }
            }
            let key = if tt_best == i as u8 {
                i32::MIN
            } else {
                let m = moves_of::<FAST>(np, no);
                let mobility = (m.count_ones() + (m & CORNERS).count_ones()) as i32;
                let potential = (neighbours(no) & e & !bit).count_ones() as i32;
                let mut key = mobility * 16 + potential;
                if bit & X_SQUARES != 0 {
                    key += 4;
                }
                if empties >= SEARCH_ORDER_EMPTIES {
                    // A one-ply search: the opponent's best reply by the learned evaluation.
                    key += reply_value(np, no) * 16 / eval::SCALE;
                } else if empties >= EVAL_EMPTIES {
                    // The learned evaluation of the reply position (the opponent's view),
                    // a quarter of a disc per key unit.
                    key += eval::evaluate_raw(np, no) * 16 / eval::SCALE;
                }
                key
            };
            if n < list.len() {
                list[n] = (key, i as u8, f);
                n += 1;
            }
        }
        let list = &mut list[..n];
        let mut best = i32::MIN;
        let mut best_sq = NO_MOVE;
        for k in 0..list.len() {
            // Selection sort: a cut-off often comes before the rest needs ordering.
            let mut m = k;
            for j in k + 1..list.len() {
                if list[j].0 < list[m].0 {
                    m = j;
                }
            }
            list.swap(k, m);
            let (_, i, f) = list[k];
            let (np, no) = (o & !f, p | f | (1u64 << i));
            let v = if k == 0 {
                -self.node::<FAST>(np, no, -beta, -alpha, empties - 1)
            } else {
                let mut v = -self.node::<FAST>(np, no, -alpha - 1, -alpha, empties - 1);
                if v > alpha && v < beta {
                    v = -self.node::<FAST>(np, no, -beta, -v, empties - 1);
                }
                v
            };
            if self.aborted {
                return 0;
            }
            if v > best {
                best = v;
                best_sq = i;
                if v > alpha {
                    alpha = v;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        if use_table {
            let (mut lower, mut upper) = (tt_lower, tt_upper);
            if best <= alpha0 {
                upper = upper.min(best);
            } else if best >= beta0 {
                lower = lower.max(best);
            } else {
                lower = best;
                upper = best;
            }
            self.table.store(
                p,
                o,
                EXACT_BASE + empties as u8,
                lower.clamp(-64, 64) * SCALE,
                upper.clamp(-64, 64) * SCALE,
                best_sq,
            );
        }
        best
    }
}

impl Solver<'_> {
    dispatched!(last3, last3_body, last3_fast, last3_portable, (p: u64, o: u64, alpha: i32, beta: i32));
    dispatched!(shallow, shallow_body, shallow_fast, shallow_portable, (p: u64, o: u64, alpha: i32, beta: i32, empties: u32));
    dispatched!(deep, deep_body, deep_fast, deep_portable, (p: u64, o: u64, alpha: i32, beta: i32, empties: u32));
}

/// How many discs a disc on square `i` flips when every other square is taken and `own` are
/// the mover's discs (the last move of a game): along each line through `i`, the line's
/// discs as eight bits, then a table. Much cheaper than [`flips`], and the solver's leaves
/// are mostly last moves.
#[inline]
fn last_flip_count(own: u64, i: usize) -> i32 {
    // Gathers one bit a column (one square a column on a row or a diagonal) into the top byte.
    const BY_COLUMN: u64 = 0x0101_0101_0101_0101;
    // Gathers column A's eight rows into the top byte, row 1 lowest.
    const BY_ROW: u64 = 0x0102_0408_1020_4080;
    let (row, col) = (i / 8, i % 8);
    let row_bits = (own >> (8 * row)) & 0xff;
    let col_bits = (((own >> col) & COL_A).wrapping_mul(BY_ROW)) >> 56;
    let up_right = ((own & DIAGONALS_9[col + 7 - row]).wrapping_mul(BY_COLUMN)) >> 56;
    let up_left = ((own & DIAGONALS_7[col + row]).wrapping_mul(BY_COLUMN)) >> 56;
    let t = &LAST_FLIPS;
    i32::from(t[col][row_bits as usize])
        + i32::from(t[row][col_bits as usize])
        + i32::from(t[col][up_right as usize])
        + i32::from(t[col][up_left as usize])
}

/// The table behind [`last_flip_count`]: `[k][bits]` is the discs flipped on a line of eight
/// by a disc at place `k`, when `bits` are the mover's places and every other place the
/// opponent's (places outside a short diagonal read as the opponent's and so never close a
/// run).
static LAST_FLIPS: [[u8; 256]; 8] = last_flip_table();

const fn last_flip_table() -> [[u8; 256]; 8] {
    let mut t = [[0; 256]; 8];
    let mut k = 0;
    while k < 8 {
        let mut bits = 0;
        while bits < 256 {
            let mut n = 0;
            // Towards higher places, then lower: a run of the opponent's closed by the mover's.
            let mut j = k + 1;
            while j < 8 && bits & (1 << j) == 0 {
                j += 1;
            }
            if j < 8 {
                n += j - k - 1;
            }
            let mut j = k as i32 - 1;
            while j >= 0 && bits & (1 << j) == 0 {
                j -= 1;
            }
            if j >= 0 {
                n += k - j as usize - 1;
            }
            t[k][bits] = n as u8;
            bits += 1;
        }
        k += 1;
    }
    t
}

/// The value of `(p, o)` for `p` to move after a one-ply search by the learned evaluation
/// (the evaluation itself when `p` has no move).
fn reply_value(p: u64, o: u64) -> i32 {
    let mut moves = legal_moves(p, o);
    if moves == 0 {
        return eval::evaluate_raw(p, o);
    }
    let base = eval::base_for_moves(p, o);
    let mut best = i32::MIN;
    while moves != 0 {
        let i = moves.trailing_zeros() as usize;
        moves &= moves - 1;
        let f = flips(p, o, Square::ALL[i]);
        best = best.max(-eval::evaluate_after(
            &base,
            i as u32,
            f,
            o & !f,
            p | f | (1u64 << i),
        ));
    }
    best
}

/// The squares next to each square (its 8-neighbourhood).
static NEIGHBOURS: [u64; 64] = {
    let mut t = [0u64; 64];
    let mut i = 0;
    while i < 64 {
        t[i] = neighbours(1u64 << i);
        i += 1;
    }
    t
};

/// The squares next to (8-neighbourhood of) the discs `b`.
#[inline]
const fn neighbours(b: u64) -> u64 {
    const NOT_A: u64 = 0xfefe_fefe_fefe_fefe;
    const NOT_H: u64 = 0x7f7f_7f7f_7f7f_7f7f;
    let h = ((b << 1) & NOT_A) | ((b >> 1) & NOT_H);
    let row = b | h;
    h | (row << 8) | (row >> 8)
}

/// The final margin of a finished game for the side to move: its discs minus the opponent's,
/// the empty squares going to the winner (the tournament rule, and the FFO suites').
#[inline]
pub(crate) fn final_margin(p: u64, o: u64) -> i32 {
    let (mine, theirs) = (p.count_ones() as i32, o.count_ones() as i32);
    let diff = mine - theirs;
    let empties = 64 - mine - theirs;
    match diff.signum() {
        1 => diff + empties,
        -1 => diff - empties,
        _ => 0,
    }
}

/// The exact outcome of every root move of a solved endgame.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct RootSolve {
    /// Each move with its final margin for the side to move, best first. The `bool` says
    /// whether the margin is exact; otherwise it is an upper bound with the right sign (the
    /// move's win/draw/loss is always exact).
    pub moves: Vec<(Move, i32, bool)>,
    /// Whether the best move's margin was found (false: only win/draw/loss of every move,
    /// the deadline came during the margin search).
    pub complete: bool,
    /// Nodes searched.
    pub nodes: u64,
}

/// The legal moves of `pos`, likely best first: by the learned evaluation of each reply
/// position (the opponent's view, lowest first).
fn root_moves(pos: &Position, variant: Variant) -> Vec<Move> {
    let mut moves = variant.moves(pos);
    moves.sort_by_cached_key(|&mv| {
        let child = variant.play_unchecked(pos, mv);
        eval::evaluate(child.player(), child.opponent())
    });
    moves
}

/// Solves `pos`: first the win/draw/loss of every move (cheap, a null window around zero),
/// then the final margin of the best ones. Gives up (`None`) if the deadline, the node
/// budget or `cancel` strikes before the first pass is done; after it, returns what it has.
/// Never solves a free start's placement phase (the solver plays no placements).
pub(crate) fn solve_root(
    pos: &Position,
    variant: Variant,
    deadline: Option<Instant>,
    cancel: Option<&CancelHandle>,
    max_nodes: u64,
) -> Option<RootSolve> {
    if variant.in_free_opening(pos) {
        return None;
    }
    let mut solver = Solver::new(variant, deadline, cancel).with_budget(max_nodes);
    // Likely best first: the margin pass then raises its alpha early, and the table fills
    // with the main line.
    let moves = root_moves(pos, variant);
    let mut wdl: Vec<(Move, i32)> = Vec::with_capacity(moves.len());
    for &mv in &moves {
        let child = variant.play_unchecked(pos, mv);
        let v = -solver.solve(&child, -1, 1)?;
        wdl.push((mv, v.signum()));
    }
    // Second pass: exact margins among the best class, alpha carried from move to move.
    let best_class = wdl.iter().map(|e| e.1).max()?;
    let mut out: Vec<(Move, i32, bool)> = Vec::with_capacity(moves.len());
    let mut alpha = -65;
    let mut complete = true;
    for &(mv, class) in &wdl {
        if class != best_class || !complete {
            out.push((mv, class, false));
            continue;
        }
        let child = variant.play_unchecked(pos, mv);
        match solver.solve(&child, -65, -alpha) {
            Some(v) => {
                let v = -v;
                let exact = v > alpha;
                if exact {
                    alpha = v;
                }
                out.push((mv, v, exact));
            }
            None => {
                complete = false;
                out.push((mv, class, false));
            }
        }
    }
    // Best first: exact margins, then bounds, larger first.
    out.sort_by(|a, b| b.2.cmp(&a.2).then(b.1.cmp(&a.1)));
    let complete = complete && out.first().is_some_and(|m| m.2);
    Some(RootSolve {
        moves: out,
        complete,
        nodes: solver.nodes,
    })
}

/// A position solved exactly: a best move and the final disc margin with best play.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Solution {
    /// A best move (a pass when the side to move has none but the game goes on).
    pub best: Move,
    /// The final disc margin for the side to move with best play by both sides (empty
    /// squares to the winner).
    pub score: i32,
    /// Nodes searched.
    pub nodes: u64,
}

/// Solves `pos` exactly under `variant`'s rules: principal-variation search over the root
/// moves (likely best first by the learned evaluation), each with the full solver. Gives up
/// (`None`) at `deadline` or when `cancel` is set; a finished game has no move to solve, and
/// neither has a free start's placement phase (the solver plays no placements).
/// `table_bytes` sizes the transposition table (a few MiB for a phone, 64 MiB or more for
/// the deep endgames of the test suites).
pub fn solve(
    pos: &Position,
    variant: Variant,
    table_bytes: usize,
    deadline: Option<Instant>,
    cancel: Option<&CancelHandle>,
) -> Option<Solution> {
    if variant.in_free_opening(pos) {
        return None;
    }
    let moves = root_moves(pos, variant);
    let mut solver = Solver::new(variant, deadline, cancel).with_table_bytes(table_bytes);
    let mut best: Option<(Move, i32)> = None;
    for mv in moves {
        let child = variant.play_unchecked(pos, mv);
        let v = match best {
            None => -solver.solve(&child, -65, 65)?,
            Some((_, alpha)) => {
                let v = -solver.solve(&child, -alpha - 1, -alpha)?;
                if v > alpha {
                    -solver.solve(&child, -65, -alpha)?
                } else {
                    v
                }
            }
        };
        if best.is_none_or(|(_, b)| v > b) {
            best = Some((mv, v));
        }
    }
    let (best, score) = best?;
    Some(Solution {
        best,
        score,
        nodes: solver.nodes,
    })
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::FastRng;

    /// Plain minimax without pruning: the reference the solver is checked against.
    pub(crate) fn minimax(p: u64, o: u64, passes: bool) -> i32 {
        let moves = legal_moves(p, o);
        if moves == 0 {
            if !passes || legal_moves(o, p) == 0 {
                return final_margin(p, o);
            }
            return -minimax(o, p, passes);
        }
        let mut best = i32::MIN;
        let mut m = moves;
        while m != 0 {
            let sq = Square::ALL[m.trailing_zeros() as usize];
            m &= m - 1;
            let f = flips(p, o, sq);
            best = best.max(-minimax(o & !f, p | f | sq.mask(), passes));
        }
        best
    }

    pub(crate) use crate::playout::random_endgame;

    #[test]
    fn last_flip_counts_match_the_move_generator() {
        let mut rng = FastRng::new(5);
        for _ in 0..20_000 {
            let i = (rng.next_u64() % 64) as usize;
            let own = rng.next_u64() & !(1u64 << i);
            let opp = !own & !(1u64 << i);
            let want = flips(own, opp, Square::ALL[i]).count_ones() as i32;
            assert_eq!(last_flip_count(own, i), want, "square {i} own {own:#x}");
        }
        // The corners' and edges' long runs.
        assert_eq!(last_flip_count(1 << 63, 0), 6);
        assert_eq!(last_flip_count((1 << 7) | (1 << 56) | (1 << 63), 0), 18);
    }

    #[test]
    fn solver_agrees_with_plain_minimax() {
        // 1-9 empties: the last-move count, the two- and three-square solvers, the shallow
        // parity search and the deep one, with passes and without.
        for seed in 0..180 {
            let pos = random_endgame(seed, 1 + (seed % 9) as u32);
            for variant in [Variant::Othello, Variant::NoMoveEndsGame] {
                let passes = variant == Variant::Othello;
                let exact = minimax(pos.player().0, pos.opponent().0, passes);
                let mut s = Solver::new(variant, None, None);
                assert_eq!(s.solve(&pos, -65, 65), Some(exact), "seed {seed} {pos:?}");
                assert_eq!(s.win_draw_loss(&pos), Some(exact.signum()), "seed {seed}");
            }
        }
    }

    #[test]
    fn root_solve_picks_the_best_margin() {
        for seed in 100..120 {
            let pos = random_endgame(seed, 8);
            let r = solve_root(&pos, Variant::Othello, None, None, u64::MAX)
                .unwrap_or_else(|| panic!("no deadline, no cancel: seed {seed}"));
            let exact = minimax(pos.player().0, pos.opponent().0, true);
            assert_eq!(r.moves[0].1, exact, "seed {seed}");
            assert!(r.moves[0].2 && r.complete);
            for &(mv, bound, exact_flag) in &r.moves {
                let child = Variant::Othello.play_unchecked(&pos, mv);
                let v = -minimax(child.player().0, child.opponent().0, true);
                if exact_flag {
                    assert_eq!(v, bound, "seed {seed} {mv}");
                } else {
                    assert!(v <= bound, "seed {seed} {mv}: {v} > {bound}");
                    assert_eq!(v.signum(), bound.signum(), "seed {seed} {mv}");
                }
            }
        }
    }

    /// Plain fail-soft alpha-beta, no table, board order: the reference for deeper endgames
    /// (plain minimax is too slow there).
    fn reference(p: u64, o: u64, mut alpha: i32, beta: i32, passes: bool) -> i32 {
        let moves = legal_moves(p, o);
        if moves == 0 {
            if !passes || legal_moves(o, p) == 0 {
                return final_margin(p, o);
            }
            return -reference(o, p, -beta, -alpha, passes);
        }
        let mut best = i32::MIN;
        let mut m = moves;
        while m != 0 {
            let sq = Square::ALL[m.trailing_zeros() as usize];
            m &= m - 1;
            let f = flips(p, o, sq);
            let v = -reference(o & !f, p | f | sq.mask(), -beta, -alpha, passes);
            best = best.max(v);
            alpha = alpha.max(v);
            if alpha >= beta {
                break;
            }
        }
        best
    }

    #[test]
    fn deep_solves_are_exact_and_fail_soft_with_a_shared_table() {
        for seed in 0..16 {
            let empties = 10 + (seed % 5) as u32;
            let pos = random_endgame(500 + seed, empties);
            let (p, o) = (pos.player().0, pos.opponent().0);
            for variant in [Variant::Othello, Variant::NoMoveEndsGame] {
                let passes = variant == Variant::Othello;
                let exact = reference(p, o, -65, 65, passes);
                // One solver for all the queries: the table carries bounds between them.
                let mut s = Solver::new(variant, None, None);
                for (alpha, beta) in [
                    (-1, 1),
                    (exact - 1, exact),
                    (exact, exact + 1),
                    (-64, exact - 2),
                    (exact + 2, 64),
                    (exact - 3, exact + 3),
                    (-64, 64),
                ] {
                    let v = s.solve(&pos, alpha, beta).expect("no limits");
                    if v <= alpha {
                        assert!(exact <= v, "seed {seed} {variant:?} ({alpha}, {beta}): {v}");
                    } else if v >= beta {
                        assert!(exact >= v, "seed {seed} {variant:?} ({alpha}, {beta}): {v}");
                    } else {
                        assert_eq!(v, exact, "seed {seed} {variant:?} ({alpha}, {beta})");
                    }
                }
                assert_eq!(
                    s.solve(&pos, -64, 64),
                    Some(exact),
                    "seed {seed} {variant:?}"
                );
                // Every child agrees too, through the same table.
                for mv in variant.moves(&pos) {
                    let child = variant.play_unchecked(&pos, mv);
                    let (cp, co) = (child.player().0, child.opponent().0);
                    let want = reference(cp, co, -65, 65, passes);
                    assert_eq!(s.solve(&child, -64, 64), Some(want), "seed {seed} {mv}");
                }
                assert_eq!(s.table.slots(), TT_ENTRIES);
            }
        }
    }

    /// The AVX2 copy of the recursion is the portable one compiled differently: the same
    /// values and the same nodes, in both variants and through the table (16-18 empties, so
    /// every step runs: the table, the evaluation's ordering, last3 down to last1).
    #[test]
    fn the_avx2_copy_searches_exactly_as_the_portable_one() {
        if !fast_generator_available() {
            eprintln!("this CPU has no AVX2: only the portable copy runs here");
            return;
        }
        for seed in 0..6 {
            let pos = random_endgame(900 + seed, 16 + (seed % 3) as u32);
            for variant in [Variant::Othello, Variant::NoMoveEndsGame] {
                let mut fast = Solver::new(variant, None, None);
                let mut portable = Solver::new(variant, None, None).with_fast(false);
                assert!(fast.fast && !portable.fast);
                for (alpha, beta) in [(-1, 1), (-64, 64)] {
                    assert_eq!(
                        fast.solve(&pos, alpha, beta),
                        portable.solve(&pos, alpha, beta),
                        "seed {seed} {variant:?} ({alpha}, {beta})"
                    );
                    assert_eq!(fast.nodes, portable.nodes, "seed {seed} {variant:?}");
                }
            }
        }
    }

    #[test]
    fn the_table_never_outgrows_its_size() {
        let pos = random_endgame(7, 16);
        for budget in [0, 100, 5_000, 200_000, u64::MAX] {
            let mut s = Solver::new(Variant::Othello, None, None).with_budget(budget);
            let _ = s.solve(&pos, -64, 64);
            let slots = s.table.slots();
            assert!(
                slots.is_power_of_two() && slots <= TT_ENTRIES,
                "budget {budget}"
            );
            assert!(s.table.used() <= slots, "budget {budget}");
        }
    }

    #[test]
    fn a_node_budget_gives_up_soon_after_it_is_spent() {
        let pos = random_endgame(11, 20);
        for budget in [1, 10, 1_000, 50_000] {
            let mut s = Solver::new(Variant::Othello, None, None).with_budget(budget);
            assert_eq!(s.solve(&pos, -64, 64), None, "budget {budget}");
            assert!(s.aborted());
            assert!(s.nodes <= budget + 64, "budget {budget}: {} nodes", s.nodes);
            let r = solve_root(&pos, Variant::Othello, None, None, budget);
            assert!(r.is_none(), "budget {budget}");
        }
    }

    #[test]
    fn a_cancelled_solve_gives_up() {
        let pos = random_endgame(12, 20);
        let cancel = CancelHandle::new();
        cancel.cancel();
        let mut s = Solver::new(Variant::Othello, None, Some(&cancel));
        assert_eq!(s.solve(&pos, -64, 64), None);
    }

    #[test]
    fn a_passed_deadline_gives_up() {
        let pos = random_endgame(3, 20);
        let past = Instant::now();
        let r = solve_root(&pos, Variant::Othello, Some(past), None, u64::MAX);
        assert!(r.is_none());
    }

    #[test]
    fn the_shipped_weights_predict_exact_endgame_values() {
        // Against exact solves of seeded random endgames (not the positions it was trained
        // on), the trained evaluation must be far closer than calling everything even. Here
        // rather than in eval's tests: the solver sits above the evaluation.
        let mut err = 0.0;
        let mut zero = 0.0;
        for seed in 0..60 {
            let pos = random_endgame(900 + seed, 10);
            let exact = Solver::new(Variant::Othello, None, None)
                .solve(&pos, -64, 64)
                .unwrap_or_else(|| panic!("no deadline"));
            err += (eval::evaluate_position(&pos) - exact as f32).abs();
            zero += (exact as f32).abs();
        }
        assert!(
            err < 0.6 * zero,
            "MAE {:.2} vs {:.2} for zero",
            err / 60.0,
            zero / 60.0
        );
    }
}
