//! The daily puzzle (#71): a position 10 to 16 squares from the end of a real game
//! (`montello_engine::search::puzzle`, the shipped set), the side to move asked to win or to
//! reach the best result there is. The player plays it to the end against Master, which
//! solves these endgames exactly; each of the player's taps is a try, judged by the position's
//! exact values ([`super::values`]) before it is played: a move that keeps the goal is played,
//! one that does not is refused with its value and a hint (the column of a move that keeps
//! it), and the player tries again. "Show the solution" puts the whole solution line on the
//! board.
//!
//! A puzzle is played on the board in place of the game in progress, which is kept aside (and
//! stays the saved game: `persist::save` does not write a puzzle) and comes back when the
//! player leaves the puzzle.

use crate::AppSystems;
use crate::game::flow::{
    BoardReset, CurrentGame, Refusal, SquareTapped, TapRefused, Trying, ViewBusy,
};
use crate::game::player::AiLevel;
use crate::game::players::Players;
use crate::game::values::{SquareValues, Valued, ValuesAsked};
use bevy::prelude::*;
use montello_engine::search::Level;
use montello_engine::search::puzzle::{Goal, Puzzle};
use montello_engine::search::review::MoveValue;
use montello_engine::{Game, Move, Side, Square, Variant};

pub(crate) fn plugin(app: &mut App) {
    app.init_resource::<Puzzling>()
        .init_resource::<PuzzleSet>()
        .add_message::<PuzzleCommand>()
        .add_systems(
            Update,
            (
                (handle_commands, take_tries, ask_values)
                    .chain()
                    .in_set(AppSystems::Input),
                (follow_game, judge_tries).chain().in_set(AppSystems::Ai),
            ),
        );
}

/// The puzzles shipped with the app, read once.
#[derive(Resource, Debug)]
pub struct PuzzleSet(pub Vec<Puzzle>);

impl Default for PuzzleSet {
    fn default() -> Self {
        // The set is proved by the engine's tests; a line that does not read would be a
        // build's bug, and leaves the puzzles out rather than the app.
        PuzzleSet(
            montello_engine::search::puzzle::parse_set(montello_engine::search::puzzle::SHIPPED)
                .unwrap_or_else(|e| {
                    error!("the shipped puzzles do not read: {e}");
                    Vec::new()
                }),
        )
    }
}

impl PuzzleSet {
    /// The puzzle of `day` (days since 1970-01-01 in the player's calendar), if any.
    pub fn of_day(&self, day: i64) -> Option<&Puzzle> {
        if self.0.is_empty() {
            return None;
        }
        self.0
            .get(montello_engine::search::puzzle::of_day(self.0.len(), day))
    }
}

/// What the player asks of the puzzles.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub enum PuzzleCommand {
    /// Play the puzzle of this day (days since 1970-01-01), from its start.
    Start(i64),
    /// Put the solution on the board.
    ShowSolution,
    /// Leave the puzzle: the game in progress comes back.
    Stop,
}

/// The puzzle under way, if any.
#[derive(Resource, Default, Debug)]
pub struct Puzzling(pub Option<Session>);

/// A puzzle being played.
#[derive(Clone, Debug)]
pub struct Session {
    /// Its day (days since 1970-01-01).
    pub day: i64,
    /// The puzzle.
    pub puzzle: Puzzle,
    /// Where it is.
    pub state: PuzzleState,
    /// The last try that missed, while the player tries again.
    pub missed: Option<Miss>,
    /// How many tries missed.
    pub misses: u32,
    /// The game in progress and its players, kept aside while the puzzle is on the board.
    pub back: Option<(Game, Players)>,
}

/// Where a puzzle is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PuzzleState {
    /// The game goes on: the player's move (a tap is a try) or Master's.
    Playing,
    /// A move tapped, waiting for the position's values to judge it.
    Judging(Move),
    /// The end reached: the final margin for the puzzle's side.
    Finished(i32),
    /// The solution is on the board.
    Shown,
}

/// A try refused.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Miss {
    /// The move tried.
    pub tried: Move,
    /// Its value: the final margin with best play after it, for the side to move.
    pub value: f32,
    /// A move that keeps the goal (the best), whose column is the hint.
    pub keeps: Move,
}

impl Session {
    /// The side the player plays: the puzzle's side to move.
    pub fn side(&self) -> Side {
        self.puzzle.position.side_to_move()
    }

    /// Whether the puzzle was solved: its end reached with the goal met, the solution not
    /// shown.
    pub fn solved(&self) -> bool {
        matches!(self.state, PuzzleState::Finished(margin) if self.puzzle.solved_by(margin))
    }

    /// Whether the game on the board is this puzzle's: played from its position.
    fn owns(&self, game: &Game) -> bool {
        game.start_position() == self.puzzle.position
    }

    /// The position whose moves judge the player's next try: the board's, when it is the
    /// player's turn in the puzzle and the game is not over.
    pub fn valued(&self, current: &CurrentGame) -> Option<Valued> {
        let game = current.game();
        let open = matches!(self.state, PuzzleState::Playing | PuzzleState::Judging(_));
        (open
            && self.owns(game)
            && current.review().is_none()
            && !game.is_over()
            && game.side_to_move() == self.side()
            && !game.must_pass())
        .then(|| Valued {
            variant: game.variant(),
            position: game.position(),
        })
    }
}

/// Whether playing `tried` keeps the puzzle's goal, by the position's `values` (best first):
/// with [`Goal::Win`] any win, else the best result there is. `None` for a move not among them.
pub fn keeps_goal(goal: Goal, values: &[MoveValue], tried: Move) -> Option<bool> {
    let best = values.first()?;
    let this = values.iter().find(|v| v.mv == tried)?;
    Some(match goal {
        Goal::Win => this.value > 0.5,
        Goal::Best => this.value >= best.value - 0.5,
    })
}

/// The players of a puzzle: the player for the side to move, Master (which solves these
/// endgames exactly) for the other.
pub fn puzzle_players(side: Side) -> Players {
    Players::against_ai(side, AiLevel::Level(Level::Master))
}

/// The game the solution makes: the puzzle's position with the whole line played.
pub fn solution_game(puzzle: &Puzzle) -> Game {
    let mut game = Game::from_position(puzzle.position, Variant::Othello);
    for &mv in &puzzle.line {
        if game.play(mv).is_err() {
            // The set's tests prove every line; stop where one would not play.
            break;
        }
    }
    game
}

fn handle_commands(
    mut commands: MessageReader<PuzzleCommand>,
    mut puzzling: ResMut<Puzzling>,
    set: Res<PuzzleSet>,
    mut current: ResMut<CurrentGame>,
    mut players: ResMut<Players>,
    mut trying: ResMut<Trying>,
    mut reset: MessageWriter<BoardReset>,
) {
    for command in commands.read() {
        match *command {
            PuzzleCommand::Start(day) => {
                let Some(puzzle) = set.of_day(day).cloned() else {
                    continue;
                };
                // The game in progress is kept aside once, however many puzzles follow.
                let back = match puzzling.0.take() {
                    Some(session) => session.back,
                    None => Some((current.game().clone(), *players)),
                };
                info!("the puzzle of day {day}: {puzzle}");
                *players = puzzle_players(puzzle.position.side_to_move());
                current.replace(Game::from_position(puzzle.position, Variant::Othello));
                puzzling.0 = Some(Session {
                    day,
                    puzzle,
                    state: PuzzleState::Playing,
                    missed: None,
                    misses: 0,
                    back,
                });
                trying.0 = true;
            }
            PuzzleCommand::ShowSolution => {
                let Some(session) = puzzling.0.as_mut() else {
                    continue;
                };
                current.replace(solution_game(&session.puzzle));
                session.state = PuzzleState::Shown;
                session.missed = None;
                trying.0 = false;
            }
            PuzzleCommand::Stop => {
                let Some(session) = puzzling.0.take() else {
                    continue;
                };
                if let Some((game, kept)) = session.back {
                    *players = kept;
                    current.replace(game);
                }
                trying.0 = false;
            }
        }
        reset.write(BoardReset);
    }
}

/// A tap while the puzzle waits for the player's move: a legal square is a try (judged before
/// it is played), any other square is refused as a move would be.
fn take_tries(
    mut taps: MessageReader<SquareTapped>,
    mut puzzling: ResMut<Puzzling>,
    current: Res<CurrentGame>,
    busy: Res<ViewBusy>,
    mut refused: MessageWriter<TapRefused>,
) {
    let Some(session) = puzzling.0.as_mut() else {
        taps.clear();
        return;
    };
    for &SquareTapped(square) in taps.read() {
        if session.state != PuzzleState::Playing {
            continue;
        }
        let game = current.game();
        let why = if busy.0 {
            Some(Refusal::Animating)
        } else if current.review().is_some() {
            Some(Refusal::Reviewing)
        } else if game.side_to_move() != session.side() || game.is_over() {
            Some(Refusal::NotYourTurn)
        } else {
            game.variant()
                .try_play(&game.position(), Move::Play(square))
                .err()
                .map(|e| Refusal::Illegal(e.reason))
        };
        match why {
            Some(why) => {
                refused.write(TapRefused { square, why });
            }
            None => session.state = PuzzleState::Judging(Move::Play(square)),
        }
    }
}

/// The values of the player's position are asked for ahead of any other. Another module's
/// ask (the practice's) is left alone: only this module's own is withdrawn.
fn ask_values(
    puzzling: Res<Puzzling>,
    current: Res<CurrentGame>,
    mut asked: ResMut<ValuesAsked>,
    mut mine: Local<Option<Valued>>,
) {
    asked.ask_for(
        &mut mine,
        puzzling.0.as_ref().and_then(|s| s.valued(&current)),
    );
}

/// A try is judged once the position's values are found: played if it keeps the goal, else
/// refused with its value and the hint.
fn judge_tries(
    mut puzzling: ResMut<Puzzling>,
    current: Res<CurrentGame>,
    values: Res<SquareValues>,
    mut requests: MessageWriter<crate::game::flow::MoveRequested>,
) {
    let Some(session) = puzzling.0.as_mut() else {
        return;
    };
    let PuzzleState::Judging(tried) = session.state else {
        return;
    };
    let Some(valued) = session.valued(&current) else {
        session.state = PuzzleState::Playing;
        return;
    };
    let Some(all) = values.of(&valued) else {
        return;
    };
    let goal = session.puzzle.goal();
    session.state = PuzzleState::Playing;
    match keeps_goal(goal, all, tried) {
        Some(true) => {
            session.missed = None;
            requests.write(crate::game::flow::MoveRequested {
                mv: tried,
                source: crate::game::flow::MoveSource::Human,
            });
        }
        Some(false) => {
            session.misses += 1;
            session.missed = all.iter().find(|v| v.mv == tried).map(|v| Miss {
                tried,
                value: v.value,
                keeps: all[0].mv,
            });
        }
        None => {}
    }
}

/// The puzzle follows its game: it ends when the board holds another game (a new game, a
/// pasted one), and is finished when its game is over.
fn follow_game(
    mut puzzling: ResMut<Puzzling>,
    mut trying: ResMut<Trying>,
    current: Res<CurrentGame>,
) {
    if !current.is_changed() {
        return;
    }
    let Some(session) = puzzling.0.as_mut() else {
        return;
    };
    let game = current.game();
    if !session.owns(game) {
        // Another game replaced the puzzle's: the player's own choice, which stays.
        puzzling.0 = None;
        trying.0 = false;
        return;
    }
    if session.state == PuzzleState::Shown {
        return;
    }
    match game.result() {
        Some(result) if current.review().is_none() => {
            // The World Othello Federation's count (the empty squares to the winner), the
            // solver's and the puzzle's.
            let margin = i32::from(result.discs.wof().margin());
            let margin = if session.side() == Side::Black {
                margin
            } else {
                -margin
            };
            session.state = PuzzleState::Finished(margin);
            session.missed = None;
            trying.0 = false;
        }
        // An undo from the end: the puzzle goes on.
        None if matches!(session.state, PuzzleState::Finished(_)) => {
            session.state = PuzzleState::Playing;
            trying.0 = true;
        }
        _ => {}
    }
}

/// The column of a square as the hint names it (`c`).
pub fn column_of(mv: Move) -> Option<char> {
    match mv {
        Move::Play(square) => square.to_string().chars().next(),
        Move::Pass => None,
    }
}

/// The square of a move, if it is one.
pub fn square_of(mv: Move) -> Option<Square> {
    match mv {
        Move::Play(square) => Some(square),
        Move::Pass => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mv(s: &str) -> Move {
        Move::Play(s.parse().expect("a square"))
    }

    fn value(s: &str, value: f32) -> MoveValue {
        MoveValue {
            mv: mv(s),
            value,
            exact: true,
        }
    }

    #[test]
    fn a_try_keeps_the_goal_by_its_exact_value() {
        let values = [value("g2", 8.0), value("b1", 2.0), value("a1", -6.0)];
        // To win: any winning move keeps it.
        assert_eq!(keeps_goal(Goal::Win, &values, mv("g2")), Some(true));
        assert_eq!(keeps_goal(Goal::Win, &values, mv("b1")), Some(true));
        assert_eq!(keeps_goal(Goal::Win, &values, mv("a1")), Some(false));
        // The best result: only the best.
        assert_eq!(keeps_goal(Goal::Best, &values, mv("g2")), Some(true));
        assert_eq!(keeps_goal(Goal::Best, &values, mv("b1")), Some(false));
        // A draw does not win.
        assert_eq!(
            keeps_goal(Goal::Win, &[value("c1", 0.0)], mv("c1")),
            Some(false)
        );
        // Not a move of the position.
        assert_eq!(keeps_goal(Goal::Win, &values, mv("h8")), None);
    }

    #[test]
    fn every_shipped_puzzle_is_found_for_its_day_and_its_solution_ends_the_game() {
        let set = PuzzleSet::default();
        assert_eq!(set.0.len(), 200);
        let day = 20_786; // 2026-11-29
        let today = set.of_day(day).expect("a puzzle");
        assert_ne!(today, set.of_day(day + 1).expect("a puzzle"));
        for puzzle in &set.0 {
            let game = solution_game(puzzle);
            assert_eq!(game.ply(), puzzle.line.len(), "{puzzle}");
            let result = game.result().expect("the solution plays to the end");
            let margin = i32::from(result.discs.wof().margin());
            let margin = if puzzle.position.side_to_move() == Side::Black {
                margin
            } else {
                -margin
            };
            assert_eq!(margin, puzzle.best, "{puzzle}");
            assert!(puzzle.solved_by(margin));
        }
    }
}
