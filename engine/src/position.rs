//! A position: whose discs are where, and whose turn it is, and the fast primitives the
//! searches run on (flips, play, pass). The rules (what may be played, when a side passes,
//! when the game ends) are a [`Variant`](crate::Variant)'s, in `game.rs`.

use crate::bitboard::{flips, legal_moves};
use crate::{Bitboard, Square};
use std::fmt;

/// A player's colour. Black moves first.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum Side {
    /// Moves first; `X` (or `*`) in board strings.
    Black,
    /// `O` in board strings.
    White,
}

impl Side {
    /// The other side.
    pub const fn opposite(self) -> Side {
        match self {
            Side::Black => Side::White,
            Side::White => Side::Black,
        }
    }

    /// The side ahead when Black leads by `black_margin` discs (`None` for a draw): the one
    /// "who won" of a finished game's score, a playout's and a game's result.
    pub const fn ahead_by(black_margin: i32) -> Option<Side> {
        if black_margin > 0 {
            Some(Side::Black)
        } else if black_margin < 0 {
            Some(Side::White)
        } else {
            None
        }
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Side::Black => "Black",
            Side::White => "White",
        })
    }
}

/// A board and the side to move. Stored from the mover's point of view (`player` /
/// `opponent`) because that is what the move generator wants; `black()` and `white()` give
/// the colours back.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Position {
    player: u64,
    opponent: u64,
    side: Side,
}

impl Position {
    /// The standard start: white on d4 and e5, black on d5 and e4, black to move.
    pub const fn start() -> Position {
        // d4 = 27, e4 = 28, d5 = 35, e5 = 36.
        let black = (1u64 << 35) | (1u64 << 28);
        let white = (1u64 << 27) | (1u64 << 36);
        Position {
            player: black,
            opponent: white,
            side: Side::Black,
        }
    }

    /// An empty board with black to move (the start of a Reversi free opening).
    pub const fn empty() -> Position {
        Position {
            player: 0,
            opponent: 0,
            side: Side::Black,
        }
    }

    /// A position from the two colours' discs. Refuses discs of both colours on one square.
    pub fn from_discs(
        black: Bitboard,
        white: Bitboard,
        side: Side,
    ) -> Result<Position, PositionError> {
        if black.0 & white.0 != 0 {
            return Err(PositionError::Overlap(Bitboard(black.0 & white.0)));
        }
        Ok(match side {
            Side::Black => Position {
                player: black.0,
                opponent: white.0,
                side,
            },
            Side::White => Position {
                player: white.0,
                opponent: black.0,
                side,
            },
        })
    }

    /// A position from the mover's and the opponent's discs, for the search's hot paths.
    ///
    /// # Correctness
    ///
    /// The two sets must not overlap; nothing is checked ([`Position::from_discs`] checks).
    /// Overlapping sets make a position whose moves, flips and scores are meaningless.
    #[inline]
    pub const fn from_player_opponent(
        player: Bitboard,
        opponent: Bitboard,
        side: Side,
    ) -> Position {
        Position::from_raw(player.0, opponent.0, side)
    }

    /// [`Position::from_player_opponent`] from raw `u64`s, for the engine's own hot paths.
    #[inline]
    pub(crate) const fn from_raw(player: u64, opponent: u64, side: Side) -> Position {
        Position {
            player,
            opponent,
            side,
        }
    }

    /// The side to move.
    #[inline]
    pub const fn side_to_move(&self) -> Side {
        self.side
    }

    /// The discs of the side to move.
    #[inline]
    pub const fn player(&self) -> Bitboard {
        Bitboard(self.player)
    }

    /// The discs of the side not to move.
    #[inline]
    pub const fn opponent(&self) -> Bitboard {
        Bitboard(self.opponent)
    }

    /// Black's discs.
    pub const fn black(&self) -> Bitboard {
        match self.side {
            Side::Black => Bitboard(self.player),
            Side::White => Bitboard(self.opponent),
        }
    }

    /// White's discs.
    pub const fn white(&self) -> Bitboard {
        match self.side {
            Side::Black => Bitboard(self.opponent),
            Side::White => Bitboard(self.player),
        }
    }

    /// The discs of one side.
    pub const fn discs(&self, side: Side) -> Bitboard {
        match side {
            Side::Black => self.black(),
            Side::White => self.white(),
        }
    }

    /// The empty squares.
    #[inline]
    pub const fn empties(&self) -> Bitboard {
        Bitboard(!(self.player | self.opponent))
    }

    /// Which colour's disc is on `sq`, if any.
    pub fn disc_at(&self, sq: Square) -> Option<Side> {
        if self.black().contains(sq) {
            Some(Side::Black)
        } else if self.white().contains(sq) {
            Some(Side::White)
        } else {
            None
        }
    }

    /// The squares where a disc of the side to move would flip something: the legal squares
    /// under the standard rules once the board has its four centre discs. A primitive for the
    /// searches' hot paths, not the rules: a [`Variant`](crate::Variant) decides what may be
    /// played ([`Variant::legal_moves`](crate::Variant::legal_moves), in a free start's
    /// placement phase the empty centre squares).
    #[inline]
    pub fn flip_moves(&self) -> Bitboard {
        Bitboard(legal_moves(self.player, self.opponent))
    }

    /// The discs that a disc on `sq` would flip (empty if it flips nothing or `sq` is taken).
    #[inline]
    pub fn flips(&self, sq: Square) -> Bitboard {
        if (self.player | self.opponent) & sq.mask() != 0 {
            return Bitboard::EMPTY;
        }
        Bitboard(flips(self.player, self.opponent, sq))
    }

    /// Whether the side to move has no square that flips something ([`Position::flip_moves`]
    /// is empty). What that means is the variant's to say: a pass or the end in Othello, the
    /// end when stuck ends the game ([`Variant::must_pass`](crate::Variant::must_pass),
    /// [`Variant::is_game_over`](crate::Variant::is_game_over)).
    #[inline]
    pub fn is_stuck(&self) -> bool {
        legal_moves(self.player, self.opponent) == 0
    }

    /// Whether the side to move is stuck and its opponent is not: the standard rules' pass.
    /// A primitive; [`Variant::must_pass`](crate::Variant::must_pass) is the rule.
    #[inline]
    pub fn only_opponent_can_move(&self) -> bool {
        self.is_stuck() && legal_moves(self.opponent, self.player) != 0
    }

    /// Whether neither side has a square that flips something: the standard rules' end. A
    /// primitive; [`Variant::is_game_over`](crate::Variant::is_game_over) is the rule.
    #[inline]
    pub fn both_stuck(&self) -> bool {
        legal_moves(self.player, self.opponent) == 0 && legal_moves(self.opponent, self.player) == 0
    }

    /// Plays a disc of the side to move at `sq` that flips `flipped`, and hands the move over.
    /// The searches' fast path: nothing is checked. Input goes through
    /// [`Variant::try_play`](crate::Variant::try_play) or [`Game::play`](crate::Game::play).
    ///
    /// # Correctness
    ///
    /// `sq` must be empty and `flipped` must be [`Position::flips`]`(sq)`, non-empty. Otherwise
    /// nothing panics, but the result is a position no game reaches: a disc that flips
    /// nothing, discs flipped that were not outflanked, or (with `sq` or `flipped` not the
    /// opponent's) a square counted for both sides, after which every answer about the
    /// position is meaningless.
    #[inline]
    pub const fn play_flips(&self, sq: Square, flipped: Bitboard) -> Position {
        let flipped = flipped.0;
        Position {
            player: self.opponent & !flipped,
            opponent: self.player | flipped | sq.mask(),
            side: self.side.opposite(),
        }
    }

    /// Plays a disc of the side to move at `sq`, flipping what it outflanks, and hands the
    /// move over. The searches' fast path: nothing is checked. Input goes through
    /// [`Variant::try_play`](crate::Variant::try_play) or [`Game::play`](crate::Game::play).
    ///
    /// # Correctness
    ///
    /// `sq` must be in [`Position::flip_moves`]. Otherwise nothing panics, but the result is a
    /// position no game reaches: on an empty square that flips nothing, a lone disc and the
    /// turn handed over; on a taken square, a square counted for both sides, after which
    /// every answer about the position is meaningless.
    #[inline]
    pub fn play_unchecked(&self, sq: Square) -> Position {
        self.play_flips(sq, Bitboard(flips(self.player, self.opponent, sq)))
    }

    /// Places a disc of the side to move at `sq` without flipping anything, and hands the move
    /// over: a free start's placement, or setting up a board.
    ///
    /// # Correctness
    ///
    /// `sq` must be empty; nothing is checked. On a taken square the result counts that square
    /// for both sides, and every answer about it is meaningless.
    pub const fn place(&self, sq: Square) -> Position {
        self.play_flips(sq, Bitboard::EMPTY)
    }

    /// Hands the move to the opponent, discs unchanged.
    ///
    /// # Correctness
    ///
    /// Nothing is checked: it passes whether or not the variant allows a pass here (see
    /// [`Variant::moves`](crate::Variant::moves)). The position is well formed either way,
    /// but after a pass the rules refuse it is one the game does not reach.
    #[inline]
    pub const fn pass(&self) -> Position {
        Position {
            player: self.opponent,
            opponent: self.player,
            side: self.side.opposite(),
        }
    }

    /// The disc counts as they stand.
    pub fn score(&self) -> Score {
        Score {
            black: self.black().count() as u8,
            white: self.white().count() as u8,
        }
    }
}

impl Default for Position {
    fn default() -> Self {
        Position::start()
    }
}

impl Position {
    /// Writes the board string (`X` black, `O` white, `-` empty, row 1 first, a space and the
    /// side to move): [`Debug`](fmt::Debug) here, and the notation's printer
    /// (`board_string::to_board_string`), which sits above positions.
    pub(crate) fn write_board_string(&self, out: &mut impl fmt::Write) -> fmt::Result {
        let mark = |side| match side {
            Side::Black => 'X',
            Side::White => 'O',
        };
        for sq in Square::ALL {
            out.write_char(self.disc_at(sq).map_or('-', mark))?;
        }
        out.write_char(' ')?;
        out.write_char(mark(self.side))
    }
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Position(")?;
        self.write_board_string(f)?;
        f.write_str(")")
    }
}

/// A position that cannot exist.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum PositionError {
    /// These squares were given to both colours.
    Overlap(Bitboard),
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PositionError::Overlap(b) => {
                let squares: Vec<String> = b.squares().map(|s| s.to_string()).collect();
                write!(
                    f,
                    "squares given to both black and white: {}",
                    squares.join(" ")
                )
            }
        }
    }
}

impl std::error::Error for PositionError {}

/// The final disc margin of a finished game for the side with `mine` discs against the side
/// with `theirs`: the difference, the empty squares going to the winner (the World Othello
/// Federation's count, the tournament rule and the FFO suites'); 0 for a draw. The one home of
/// the final score: the exact solver's margins and [`Score::wof`] are both this.
#[inline]
pub(crate) const fn wof_margin(mine: i32, theirs: i32) -> i32 {
    let diff = mine - theirs;
    let empties = 64 - mine - theirs;
    match diff.signum() {
        1 => diff + empties,
        -1 => diff - empties,
        _ => 0,
    }
}

/// [`wof_margin`] of the side to move's discs `p` against the opponent's `o` (bit sets): the
/// final margin of a finished game for the side to move, as the exact solver scores it.
#[inline]
pub(crate) const fn final_margin(p: u64, o: u64) -> i32 {
    wof_margin(p.count_ones() as i32, o.count_ones() as i32)
}

/// Disc counts on the board.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct Score {
    /// Black's discs.
    pub black: u8,
    /// White's discs.
    pub white: u8,
}

impl Score {
    /// Empty squares.
    pub const fn empties(&self) -> u8 {
        64 - self.black - self.white
    }

    /// Black's result as a chance to win: 1 if black has more discs, 0 if white has, one half
    /// for a draw.
    pub const fn black_win(&self) -> f32 {
        match self.winner() {
            Some(Side::Black) => 1.0,
            Some(Side::White) => 0.0,
            None => 0.5,
        }
    }

    /// Who has more discs (`None` for a draw).
    pub const fn winner(&self) -> Option<Side> {
        Side::ahead_by(self.black as i32 - self.white as i32)
    }

    /// Black's discs minus white's.
    pub const fn margin(&self) -> i8 {
        self.black as i8 - self.white as i8
    }

    /// The World Othello Federation count of a finished game: the empty squares go to the
    /// winner (shared equally in a draw), so the two counts add up to 64 and differ by
    /// `wof_margin`, the one final score of the crate.
    pub const fn wof(&self) -> Score {
        let margin = wof_margin(self.black as i32, self.white as i32);
        Score {
            black: ((64 + margin) / 2) as u8,
            white: ((64 - margin) / 2) as u8,
        }
    }
}

impl fmt::Display for Score {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{}", self.black, self.white)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Worked examples of the WOF count (the World Othello Federation's rule: the empty
    /// squares go to the winner, split evenly in a draw).
    #[test]
    fn the_wof_count_gives_the_empty_squares_to_the_winner() {
        // (black, white) on the board, then the WOF count and Black's final margin.
        let examples = [
            ((33, 31), (33, 31), 2),   // a full board: as counted
            ((40, 20), (44, 20), 24),  // four empty squares to Black
            ((20, 40), (20, 44), -24), // ... or to White
            ((13, 0), (64, 0), 64),    // a wipe-out with 51 empty squares
            ((30, 30), (32, 32), 0),   // a draw: the four empty squares shared
            ((0, 0), (32, 32), 0),     // no disc at all: a draw
            ((31, 32), (31, 33), -2),  // one empty square to White
        ];
        for ((black, white), (wof_black, wof_white), margin) in examples {
            let score = Score { black, white };
            let wof = score.wof();
            assert_eq!(
                (wof.black, wof.white),
                (wof_black, wof_white),
                "{black}-{white}"
            );
            assert_eq!(i32::from(wof.margin()), margin, "{black}-{white}");
            assert_eq!(
                wof_margin(i32::from(black), i32::from(white)),
                margin,
                "{black}-{white}"
            );
            // The margin from the other side is the same with its sign turned.
            assert_eq!(
                wof_margin(i32::from(white), i32::from(black)),
                -margin,
                "{white}-{black}"
            );
        }
        // The exact solver's final margin is the same count, from the discs' bit sets.
        assert_eq!(final_margin(0b1111, 0b1), 62);
    }
}
