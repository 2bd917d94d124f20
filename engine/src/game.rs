//! The rules, in one home: the variants ([`Variant`]) decide what may be played, when a side
//! passes and when the game ends; [`Game`] is the safe game layer on top (history with passes,
//! undo and redo). [`Position`]'s methods are primitives that know no variant.

use crate::bitboard::legal_moves;
use crate::{Bitboard, Move, Position, Score, Side, Square};
use std::fmt;

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

/// The four centre squares d4, e4, d5, e5: where a free start places its first four discs.
pub(crate) const CENTRE: u64 = 0x0000_0018_1800_0000;

/// The rules a game is played under, chosen when it is created.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub enum Variant {
    /// World Othello Federation rules: a player with no legal move passes; the game ends when
    /// neither player can move.
    #[default]
    Othello,
    /// As UCThello's option: a player with no legal move ends the game instead of passing.
    NoMoveEndsGame,
    /// Reversi's free opening: the first four discs are placed by the players in turn on the
    /// four empty centre squares, flipping nothing; then Othello rules.
    FreeOpening,
}

/// What the side to move does next on raw bits: [`Variant::turn`].
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Turn {
    /// It plays one of these squares (never none).
    Play(u64),
    /// It has no move and passes; its opponent then plays one of these squares (never none).
    Pass(u64),
    /// Neither side may move on: the game is over.
    Over,
}

impl Variant {
    /// Every variant, in the order a menu shows them.
    pub const ALL: [Variant; 3] = [
        Variant::Othello,
        Variant::NoMoveEndsGame,
        Variant::FreeOpening,
    ];

    /// The short name used in files and on the command line.
    pub const fn name(self) -> &'static str {
        match self {
            Variant::Othello => "othello",
            Variant::NoMoveEndsGame => "no-move-ends-game",
            Variant::FreeOpening => "free-opening",
        }
    }

    /// The variant named `name` (as printed by [`Variant::name`]), case-insensitively.
    pub fn from_name(name: &str) -> Option<Variant> {
        Variant::ALL
            .into_iter()
            .find(|v| v.name().eq_ignore_ascii_case(name.trim()))
    }

    /// The position a new game of this variant starts from.
    pub const fn start_position(self) -> Position {
        match self {
            Variant::FreeOpening => Position::empty(),
            _ => Position::start(),
        }
    }

    /// Whether the position is still in this variant's free-placement phase.
    #[inline]
    pub fn in_free_opening(self, pos: &Position) -> bool {
        matches!(self, Variant::FreeOpening) && pos.empties().0 & CENTRE != 0
    }

    /// The squares the side to move may play (not counting a pass).
    #[inline]
    pub fn legal_moves(self, pos: &Position) -> Bitboard {
        if self.in_free_opening(pos) {
            Bitboard(pos.empties().0 & CENTRE)
        } else {
            pos.flip_moves()
        }
    }

    /// Whether a side with no move passes (rather than ending the game): the raw searches'
    /// switch for [`Variant::must_pass`] and [`Variant::is_game_over`] outside a free start's
    /// placement phase.
    #[inline]
    pub(crate) const fn passes(self) -> bool {
        !matches!(self, Variant::NoMoveEndsGame)
    }

    /// What the side to move at `(p, o)` (raw bits, past any placement phase) does under
    /// this variant's pass rule: play one of its moves, pass to an opponent who can move, or
    /// nothing because the game is over. The one encoding of the rule for the fast loops on
    /// raw bits (playouts, the trainer's and the samplers' walks); with a literal variant the
    /// rule's branch folds away.
    #[inline]
    pub fn turn(self, p: u64, o: u64) -> Turn {
        let moves = legal_moves(p, o);
        if moves != 0 {
            return Turn::Play(moves);
        }
        if !self.passes() {
            return Turn::Over;
        }
        match legal_moves(o, p) {
            0 => Turn::Over,
            replies => Turn::Pass(replies),
        }
    }

    /// [`Variant::turn`] taken: the moves of the side to move at `(p, o)`, after its forced
    /// pass if it has none (the sides then swapped in place, and `true` with the moves);
    /// `None` once the game is over. The step every raw-bit game loop makes.
    #[inline]
    pub fn next_moves(self, p: &mut u64, o: &mut u64) -> Option<(u64, bool)> {
        match self.turn(*p, *o) {
            Turn::Play(moves) => Some((moves, false)),
            Turn::Pass(replies) => {
                std::mem::swap(p, o);
                Some((replies, true))
            }
            Turn::Over => None,
        }
    }

    /// Whether the side to move must pass: it has no legal move and the opponent has one
    /// (never under [`Variant::NoMoveEndsGame`], where that ends the game, nor during a free
    /// start's placement phase).
    #[inline]
    pub fn must_pass(self, pos: &Position) -> bool {
        self.passes() && !self.in_free_opening(pos) && pos.only_opponent_can_move()
    }

    /// Whether the game is over: neither side can move, or under
    /// [`Variant::NoMoveEndsGame`] the side to move cannot.
    #[inline]
    pub fn is_game_over(self, pos: &Position) -> bool {
        match self {
            Variant::NoMoveEndsGame => pos.is_stuck(),
            Variant::Othello => pos.both_stuck(),
            Variant::FreeOpening => !self.in_free_opening(pos) && pos.both_stuck(),
        }
    }

    /// The moves the side to move may make: the legal squares, or a single pass when a pass
    /// is required, or nothing when the game is over.
    pub fn moves(self, pos: &Position) -> Vec<Move> {
        let squares = self.legal_moves(pos);
        if !squares.is_empty() {
            squares.squares().map(Move::Play).collect()
        } else if self.must_pass(pos) {
            vec![Move::Pass]
        } else {
            Vec::new()
        }
    }

    /// Plays `mv` for the side to move if this variant's rules allow it.
    ///
    /// # Errors
    ///
    /// An [`IllegalMove`] holding the unchanged position, the move and why
    /// ([`IllegalReason`]): the square is taken, it flips nothing, it is not a centre square
    /// during a free start's placement, a pass while a move exists (or during the placement),
    /// a disc when the side must pass, or any move once the game is over.
    pub fn try_play(self, pos: &Position, mv: Move) -> Result<Position, IllegalMove> {
        let refuse = |reason| IllegalMove {
            position: *pos,
            mv,
            reason,
        };
        if self.in_free_opening(pos) {
            return match mv {
                Move::Play(sq) if pos.empties().0 & CENTRE & sq.mask() != 0 => Ok(pos.place(sq)),
                Move::Play(sq) if !pos.empties().contains(sq) => {
                    Err(refuse(IllegalReason::Occupied))
                }
                Move::Play(_) => Err(refuse(IllegalReason::NotACentreSquare)),
                Move::Pass => Err(refuse(IllegalReason::PassNotAllowed)),
            };
        }
        if !self.passes() && pos.is_stuck() {
            return Err(refuse(IllegalReason::GameOver));
        }
        try_play_standard(pos, mv)
    }

    /// Plays a move known to be legal, the searches' fast path: nothing is checked.
    ///
    /// # Correctness
    ///
    /// `mv` must be one of [`Variant::moves`]`(pos)`. Otherwise nothing panics, but the
    /// result is a position this variant's games never reach: a pass that was not allowed
    /// just hands the turn over; a square is played as [`Position::play_unchecked`] (or, in a
    /// free start's placement, [`Position::place`]) plays it, with what those say.
    #[inline]
    pub fn play_unchecked(self, pos: &Position, mv: Move) -> Position {
        match mv {
            Move::Pass => pos.pass(),
            Move::Play(sq) if self.in_free_opening(pos) => pos.place(sq),
            Move::Play(sq) => pos.play_unchecked(sq),
        }
    }
}

/// The standard rules' check of `mv` (a disc must flip something; a pass only when the
/// side to move is stuck and its opponent is not), which every variant plays by once its
/// own rules are settled.
fn try_play_standard(pos: &Position, mv: Move) -> Result<Position, IllegalMove> {
    let refuse = |reason| IllegalMove {
        position: *pos,
        mv,
        reason,
    };
    let moves = pos.flip_moves();
    match mv {
        Move::Pass if !moves.is_empty() => Err(refuse(IllegalReason::PassNotAllowed)),
        Move::Pass if pos.both_stuck() => Err(refuse(IllegalReason::GameOver)),
        Move::Pass => Ok(pos.pass()),
        Move::Play(sq) if !pos.empties().contains(sq) => Err(refuse(IllegalReason::Occupied)),
        Move::Play(sq) if moves.contains(sq) => Ok(pos.play_unchecked(sq)),
        Move::Play(_) if !moves.is_empty() => Err(refuse(IllegalReason::NoFlips)),
        Move::Play(_) if pos.both_stuck() => Err(refuse(IllegalReason::GameOver)),
        Move::Play(_) => Err(refuse(IllegalReason::MustPass)),
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The result of a finished game.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct GameResult {
    /// The discs on the board at the end.
    pub discs: Score,
}

impl GameResult {
    /// The winner, or `None` for a draw.
    pub const fn winner(&self) -> Option<Side> {
        self.discs.winner()
    }

    /// The winner's margin in discs as they stand (0 for a draw).
    pub const fn margin(&self) -> u8 {
        self.discs.margin().unsigned_abs()
    }

    /// The World Othello Federation score, with the empty squares given to the winner.
    pub const fn wof(&self) -> Score {
        self.discs.wof()
    }
}

impl fmt::Display for GameResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.winner() {
            Some(side) => write!(f, "{side} wins {} by {}", self.discs, self.margin()),
            None => write!(f, "Draw {}", self.discs),
        }
    }
}

/// A game in progress: its variant, start position, the moves played (passes included) and
/// the moves undone that can be redone.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Game {
    variant: Variant,
    /// `positions[i]` is the position after `i` moves; `positions[0]` is the start.
    positions: Vec<Position>,
    /// Every move made, including undone ones past `current` that redo can replay.
    moves: Vec<Move>,
    /// How many of `moves` are on the board.
    current: usize,
}

impl Game {
    /// A new game of `variant` from its usual start.
    pub fn new(variant: Variant) -> Game {
        Game::from_position(variant.start_position(), variant)
    }

    /// A game of `variant` starting from any position (XOT openings, puzzles, analysis).
    pub fn from_position(start: Position, variant: Variant) -> Game {
        Game {
            variant,
            positions: vec![start],
            moves: Vec::new(),
            current: 0,
        }
    }

    /// The rules of this game.
    pub const fn variant(&self) -> Variant {
        self.variant
    }

    /// The position the game started from.
    pub fn start_position(&self) -> Position {
        self.positions[0]
    }

    /// The position on the board now.
    pub fn position(&self) -> Position {
        self.positions[self.current]
    }

    /// The side to move now.
    pub fn side_to_move(&self) -> Side {
        self.position().side_to_move()
    }

    /// The moves on the board, passes included, oldest first.
    pub fn history(&self) -> &[Move] {
        &self.moves[..self.current]
    }

    /// The positions from the start to now (one more than the moves).
    pub fn positions(&self) -> &[Position] {
        &self.positions[..=self.current]
    }

    /// The moves that [`Game::redo`] would replay, next first.
    pub fn redo_moves(&self) -> &[Move] {
        &self.moves[self.current..]
    }

    /// How many moves (passes included) are on the board.
    pub fn ply(&self) -> usize {
        self.current
    }

    /// The squares the side to move may play.
    pub fn legal_moves(&self) -> Bitboard {
        self.variant.legal_moves(&self.position())
    }

    /// The moves available now: legal squares, a lone pass, or none once the game is over.
    pub fn moves(&self) -> Vec<Move> {
        self.variant.moves(&self.position())
    }

    /// Whether the side to move has to pass.
    pub fn must_pass(&self) -> bool {
        self.variant.must_pass(&self.position())
    }

    /// Whether the game is over.
    pub fn is_over(&self) -> bool {
        self.variant.is_game_over(&self.position())
    }

    /// The result, once the game is over.
    pub fn result(&self) -> Option<GameResult> {
        self.is_over().then(|| GameResult {
            discs: self.position().score(),
        })
    }

    /// Plays `mv` for the side to move under the game's variant. A new move drops the moves
    /// that could be redone, unless it is the very move redo would have played.
    ///
    /// # Errors
    ///
    /// An illegal move changes nothing and comes back as the [`IllegalMove`] of
    /// [`Variant::try_play`], with the unchanged position and the reason.
    pub fn play(&mut self, mv: Move) -> Result<Position, IllegalMove> {
        let next = self.variant.try_play(&self.position(), mv)?;
        if self.moves.get(self.current) == Some(&mv) {
            self.current += 1;
            return Ok(next);
        }
        self.moves.truncate(self.current);
        self.positions.truncate(self.current + 1);
        self.moves.push(mv);
        self.positions.push(next);
        self.current += 1;
        Ok(next)
    }

    /// Plays a square (a convenience for [`Game::play`]).
    ///
    /// # Errors
    ///
    /// As [`Game::play`].
    pub fn play_square(&mut self, sq: Square) -> Result<Position, IllegalMove> {
        self.play(Move::Play(sq))
    }

    /// Takes back the last move. Returns the move, or `None` at the start.
    pub fn undo(&mut self) -> Option<Move> {
        if self.current == 0 {
            return None;
        }
        self.current -= 1;
        Some(self.moves[self.current])
    }

    /// Replays the next undone move. Returns it, or `None` if there is none.
    pub fn redo(&mut self) -> Option<Move> {
        let mv = *self.moves.get(self.current)?;
        self.current += 1;
        Some(mv)
    }

    /// Whether there is a move to undo.
    pub fn can_undo(&self) -> bool {
        self.current > 0
    }

    /// Whether there is a move to redo.
    pub fn can_redo(&self) -> bool {
        self.current < self.moves.len()
    }

    /// Moves the game to `ply` moves from the start, keeping every move for redo. Returns
    /// false (and changes nothing) if `ply` is past the last known move.
    pub fn go_to(&mut self, ply: usize) -> bool {
        if ply > self.moves.len() {
            return false;
        }
        self.current = ply;
        true
    }

    /// Every move known, on the board and undone, as a new game's history (for saving).
    pub fn all_moves(&self) -> &[Move] {
        &self.moves
    }
}

impl Default for Game {
    fn default() -> Self {
        Game::new(Variant::Othello)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mv(s: &str) -> Move {
        s.parse().unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn illegal_moves_change_nothing_and_say_why() {
        let mut game = Game::new(Variant::Othello);
        let before = game.clone();
        let err = game.play(mv("a1")).unwrap_err();
        assert_eq!(err.reason, IllegalReason::NoFlips);
        assert_eq!(err.position, Position::start());
        assert_eq!(game, before);
        assert_eq!(
            game.play(mv("d4")).unwrap_err().reason,
            IllegalReason::Occupied
        );
        assert_eq!(
            game.play(Move::Pass).unwrap_err().reason,
            IllegalReason::PassNotAllowed
        );
        assert!(game.play(mv("f5")).is_ok());
        assert_eq!(game.side_to_move(), Side::White);
    }

    #[test]
    fn undo_redo_walk_the_history() {
        let mut game = Game::new(Variant::Othello);
        for m in ["f5", "d6", "c3", "d3", "c4"] {
            game.play(mv(m)).unwrap_or_else(|e| panic!("{e}"));
        }
        let after = game.position();
        assert_eq!(game.undo(), Some(mv("c4")));
        assert_eq!(game.undo(), Some(mv("d3")));
        assert_eq!(game.redo_moves(), &[mv("d3"), mv("c4")]);
        assert_eq!(game.redo(), Some(mv("d3")));
        assert_eq!(game.redo(), Some(mv("c4")));
        assert_eq!(game.redo(), None);
        assert_eq!(game.position(), after);
        // A different move after an undo drops the redo line.
        game.undo();
        let other = game.moves().into_iter().find(|&m| m != mv("c4"));
        game.play(other.expect("another legal move"))
            .unwrap_or_else(|e| panic!("{e}"));
        assert!(!game.can_redo());
        while game.undo().is_some() {}
        assert_eq!(game.position(), Position::start());
    }

    #[test]
    fn free_opening_places_four_centre_discs_then_plays_othello() {
        let mut game = Game::new(Variant::FreeOpening);
        assert_eq!(game.legal_moves().count(), 4);
        assert_eq!(
            game.play(mv("a1")).unwrap_err().reason,
            IllegalReason::NotACentreSquare
        );
        for m in ["d4", "e4", "d5", "e5"] {
            game.play(mv(m)).unwrap_or_else(|e| panic!("{e}"));
        }
        let p = game.position();
        assert_eq!(p.side_to_move(), Side::Black);
        assert_eq!(p.black().count(), 2);
        assert_eq!(p.white().count(), 2);
        // Parallel opening: black d4, d5; white e4, e5 -> black may play f4? It flanks e4.
        assert!(
            game.legal_moves()
                .contains(mv("f4").square().unwrap_or(Square::ALL[0]))
        );
    }

    #[test]
    fn no_move_ends_game_ends_where_othello_passes() {
        // Black to move, black has no move but white does: b1 is white, a1 black? Build:
        // black a1, white b1, c1 empty: white has no move; black plays c1.
        let black = Square::ALL[0].bit();
        let white = Square::ALL[1].bit();
        let pos = Position::from_discs(black, white, Side::White).unwrap_or_else(|e| panic!("{e}"));
        assert!(Variant::Othello.must_pass(&pos));
        assert!(!Variant::Othello.is_game_over(&pos));
        assert!(Variant::NoMoveEndsGame.is_game_over(&pos));
        assert_eq!(Variant::NoMoveEndsGame.moves(&pos), vec![]);
        assert_eq!(Variant::Othello.moves(&pos), vec![Move::Pass]);
        let mut game = Game::from_position(pos, Variant::NoMoveEndsGame);
        assert!(game.result().is_some());
        assert_eq!(
            game.play(Move::Pass).unwrap_err().reason,
            IllegalReason::GameOver
        );
    }

    #[test]
    fn wof_scoring_gives_empties_to_the_winner() {
        let s = Score {
            black: 30,
            white: 20,
        };
        assert_eq!(
            s.wof(),
            Score {
                black: 44,
                white: 20
            }
        );
        assert_eq!(
            Score {
                black: 20,
                white: 20
            }
            .wof(),
            Score {
                black: 32,
                white: 32
            }
        );
        let r = GameResult { discs: s };
        assert_eq!(r.winner(), Some(Side::Black));
        assert_eq!(r.margin(), 10);
    }
}
