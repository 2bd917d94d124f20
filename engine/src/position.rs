//! A position: whose discs are where, and whose turn it is, under the standard rules.

use crate::bitboard::{flips, legal_moves};
use crate::{Bitboard, Move, Square};
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

/// Why a move was refused. The position it was tried on comes back unchanged inside
/// [`IllegalMove`].
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum IllegalReason {
    /// The square already holds a disc.
    Occupied,
    /// Placing a disc there would flip nothing.
    NoFlips,
    /// A pass, but the side to move has a legal move.
    PassNotAllowed,
    /// A disc, but the side to move has no legal move and must pass.
    MustPass,
    /// The game is over: nobody can move.
    GameOver,
    /// In the free opening, the first four discs go on the four centre squares.
    NotACentreSquare,
}

/// A move refused by the rules, with the unchanged position it was tried on.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct IllegalMove {
    /// The position, exactly as it was before the attempt.
    pub position: Position,
    /// The move that was refused.
    pub mv: Move,
    /// Why it was refused.
    pub reason: IllegalReason,
}

impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let side = self.position.side_to_move();
        match self.reason {
            IllegalReason::Occupied => write!(f, "{} is already taken", self.mv),
            IllegalReason::NoFlips => write!(f, "{side} cannot play {}: it flips no disc", self.mv),
            IllegalReason::PassNotAllowed => {
                write!(f, "{side} cannot pass while a legal move exists")
            }
            IllegalReason::MustPass => write!(f, "{side} has no legal move and must pass"),
            IllegalReason::GameOver => write!(f, "the game is over"),
            IllegalReason::NotACentreSquare => {
                write!(
                    f,
                    "{} is not free: the first four discs go on d4, e4, d5 and e5",
                    self.mv
                )
            }
        }
    }
}

impl std::error::Error for IllegalMove {}

/// The four centre squares d4, e4, d5, e5.
pub(crate) const CENTRE: u64 = 0x0000_0018_1800_0000;

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
    /// The two sets must not overlap (nothing is checked; [`Position::from_discs`] checks).
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

    /// The squares the side to move may play.
    #[inline]
    pub fn legal_moves(&self) -> Bitboard {
        Bitboard(legal_moves(self.player, self.opponent))
    }

    /// The discs that a disc on `sq` would flip (empty if the move is illegal or `sq` is taken).
    #[inline]
    pub fn flips(&self, sq: Square) -> Bitboard {
        if (self.player | self.opponent) & sq.mask() != 0 {
            return Bitboard::EMPTY;
        }
        Bitboard(flips(self.player, self.opponent, sq))
    }

    /// Whether the side to move has no legal move (it must pass, or the game is over).
    #[inline]
    pub fn has_no_move(&self) -> bool {
        legal_moves(self.player, self.opponent) == 0
    }

    /// Whether the side to move must pass: no legal move, but the opponent has one.
    pub fn must_pass(&self) -> bool {
        self.has_no_move() && legal_moves(self.opponent, self.player) != 0
    }

    /// Whether neither side can move: the game is over under the standard rules.
    #[inline]
    pub fn is_game_over(&self) -> bool {
        legal_moves(self.player, self.opponent) == 0 && legal_moves(self.opponent, self.player) == 0
    }

    /// Plays a legal disc at `sq` that flips `flipped` (as returned by [`Position::flips`]).
    /// Nothing is checked: the search's fast path. Use [`Position::try_play`] for input.
    #[inline]
    pub const fn play_flips(&self, sq: Square, flipped: Bitboard) -> Position {
        let flipped = flipped.0;
        Position {
            player: self.opponent & !flipped,
            opponent: self.player | flipped | sq.mask(),
            side: self.side.opposite(),
        }
    }

    /// Plays a disc at `sq`, which must be a legal move. Nothing is checked.
    #[inline]
    pub fn play_unchecked(&self, sq: Square) -> Position {
        self.play_flips(sq, Bitboard(flips(self.player, self.opponent, sq)))
    }

    /// Places a disc at `sq` without flipping anything (Reversi free opening, setting up).
    pub const fn place(&self, sq: Square) -> Position {
        self.play_flips(sq, Bitboard::EMPTY)
    }

    /// Hands the move to the opponent. Nothing is checked.
    #[inline]
    pub const fn pass(&self) -> Position {
        Position {
            player: self.opponent,
            opponent: self.player,
            side: self.side.opposite(),
        }
    }

    /// Plays `mv` if the standard rules allow it; otherwise gives the unchanged position
    /// back inside the error.
    pub fn try_play(&self, mv: Move) -> Result<Position, IllegalMove> {
        let refuse = |reason| IllegalMove {
            position: *self,
            mv,
            reason,
        };
        let moves = legal_moves(self.player, self.opponent);
        match mv {
            Move::Pass => {
                if moves != 0 {
                    Err(refuse(IllegalReason::PassNotAllowed))
                } else if legal_moves(self.opponent, self.player) == 0 {
                    Err(refuse(IllegalReason::GameOver))
                } else {
                    Ok(self.pass())
                }
            }
            Move::Play(sq) => {
                if (self.player | self.opponent) & sq.mask() != 0 {
                    Err(refuse(IllegalReason::Occupied))
                } else if moves & sq.mask() != 0 {
                    Ok(self.play_unchecked(sq))
                } else if moves != 0 {
                    Err(refuse(IllegalReason::NoFlips))
                } else if legal_moves(self.opponent, self.player) == 0 {
                    Err(refuse(IllegalReason::GameOver))
                } else {
                    Err(refuse(IllegalReason::MustPass))
                }
            }
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

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Position({})",
            crate::notation::board_string::to_board_string(self)
        )
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
        if self.black > self.white {
            Some(Side::Black)
        } else if self.white > self.black {
            Some(Side::White)
        } else {
            None
        }
    }

    /// Black's discs minus white's.
    pub const fn margin(&self) -> i8 {
        self.black as i8 - self.white as i8
    }

    /// The World Othello Federation count of a finished game: the empty squares go to the
    /// winner (shared equally in a draw), so the two counts add up to 64.
    pub const fn wof(&self) -> Score {
        let e = self.empties();
        match self.winner() {
            Some(Side::Black) => Score {
                black: self.black + e,
                white: self.white,
            },
            Some(Side::White) => Score {
                black: self.black,
                white: self.white + e,
            },
            None => Score {
                black: self.black + e / 2,
                white: self.white + e / 2,
            },
        }
    }
}

impl fmt::Display for Score {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{}", self.black, self.white)
    }
}
