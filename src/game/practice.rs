//! Try again (#67): the board set up before one of the player's own mistakes, asking for a
//! better move. A tap there is a try, not a move: it is judged by the position's values
//! ([`super::values`], exact where the review was), and found when the review would not have
//! marked it ([`judge`]: within two discs of the best, rounded). A try that misses shows its
//! value and the player may try again or see the answer; after a find or the answer, Next goes
//! to the player's next marked move. Nothing here changes the game: the board shows a past
//! position as the review does, and leaving the practice goes back to the game.

use crate::AppSystems;
use crate::game::flow::{
    CurrentGame, GameCommand, Refusal, SquareTapped, TapRefused, Trying, ViewBusy,
};
use crate::game::players::Players;
use crate::game::review::{GameReview, step_to_marked};
use crate::game::values::{SquareValues, Valued, ValuesAsked};
use bevy::prelude::*;
use montello_engine::search::review::{Class, MoveReview, MoveValue};
use montello_engine::{Move, Side};

pub(crate) fn plugin(app: &mut App) {
    app.init_resource::<Practice>()
        .add_message::<PracticeCommand>()
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

/// What the player asks of the practice.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub enum PracticeCommand {
    /// Try again at the mistake played at this ply on the board (from 1).
    Start(usize),
    /// Try the player's first marked move.
    First,
    /// Go on to the player's next marked move; after the last, leave.
    Next,
    /// Show the best move and every move's value.
    ShowAnswer,
    /// Leave the practice for the game.
    Stop,
}

/// The try under way, if any.
#[derive(Resource, Default, Debug)]
pub struct Practice(pub Option<Attempt>);

/// A try at a better move than a mistake.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Attempt {
    /// The mistake's ply on the board (from 1): the board shows the position before it.
    pub ply: usize,
    /// The mistake, as the review found it.
    pub mistake: MoveReview,
    /// Where the try is.
    pub state: TryState,
}

/// Where a try is.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum TryState {
    /// Waiting for a tap.
    Asking,
    /// A move tapped, waiting for the values to judge it.
    Judging(Move),
    /// A move judged.
    Judged(Judgement),
    /// The answer shown: the best move and every move's value.
    Answered,
}

impl TryState {
    /// Whether the board may show every move's value: once the better move is found or the
    /// answer shown (before, the figures would give it away).
    pub fn reveals(self) -> bool {
        match self {
            TryState::Judged(j) => j.found,
            TryState::Answered => true,
            TryState::Asking | TryState::Judging(_) => false,
        }
    }
}

/// What a try was worth.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Judgement {
    /// The move tried.
    pub tried: Move,
    /// Its value, discs for the side to move.
    pub value: f32,
    /// The best move and its value.
    pub best: Move,
    /// See [`Judgement::best`].
    pub best_value: f32,
    /// Whether the values are exact.
    pub exact: bool,
    /// Whether it counts as found: the review would not have marked it.
    pub found: bool,
}

impl Judgement {
    /// How many discs the try is worse than the best (never negative).
    pub fn loss(&self) -> f32 {
        (self.best_value - self.value).max(0.0)
    }
}

/// Judges `tried` by the position's `values` (best first): found when its loss against the
/// best is one the review would not mark (rounded, two discs at most: `Class::Good`); `None`
/// for a move that is not among them.
pub fn judge(values: &[MoveValue], tried: Move) -> Option<Judgement> {
    let best = values.first()?;
    let this = values.iter().find(|v| v.mv == tried)?;
    let loss = (best.value - this.value).max(0.0);
    Some(Judgement {
        tried,
        value: this.value,
        best: best.mv,
        best_value: best.value,
        exact: this.exact && best.exact,
        found: Class::of_loss(loss) <= Class::Good,
    })
}

/// Whose mistakes the practice goes through: the human's against the AI, both players'
/// otherwise.
pub fn practising(players: &Players) -> Option<Side> {
    players.human_against_ai().map(|(side, _)| side)
}

impl Practice {
    /// The position tried and its rules, while a try is under way.
    pub fn valued(&self, current: &CurrentGame) -> Option<Valued> {
        let attempt = self.0.as_ref()?;
        let game = current.game();
        Some(Valued {
            variant: game.variant(),
            position: *game.positions().get(attempt.ply.checked_sub(1)?)?,
        })
    }
}

fn handle_commands(
    mut commands: MessageReader<PracticeCommand>,
    mut practice: ResMut<Practice>,
    mut trying: ResMut<Trying>,
    current: Res<CurrentGame>,
    review: Res<GameReview>,
    players: Res<Players>,
    mut game: MessageWriter<GameCommand>,
) {
    for command in commands.read() {
        let marked = review.marked_plies(current.game(), practising(&players));
        let start = match *command {
            PracticeCommand::Start(ply) => Some(ply),
            PracticeCommand::First => marked.first().copied(),
            PracticeCommand::Next => {
                let from = practice.0.map_or(0, |a| a.ply);
                step_to_marked(&marked, from, true)
            }
            PracticeCommand::ShowAnswer => {
                if let Some(attempt) = practice.0.as_mut() {
                    attempt.state = TryState::Answered;
                }
                continue;
            }
            PracticeCommand::Stop => None,
        };
        let attempt = start.and_then(|ply| {
            let mistake = review.of_ply(current.game(), ply)?;
            Some(Attempt {
                ply,
                mistake,
                state: TryState::Asking,
            })
        });
        match attempt {
            Some(attempt) => {
                game.write(GameCommand::Review(Some(attempt.ply - 1)));
                practice.0 = Some(attempt);
                trying.0 = true;
            }
            None => {
                if practice.0.take().is_some() {
                    game.write(GameCommand::Review(None));
                }
                trying.0 = false;
            }
        }
    }
}

/// A tap on the position tried: a legal square is a try (while none is being judged and the
/// better move is not yet found or shown), any other square is refused as a move would be.
fn take_tries(
    mut taps: MessageReader<SquareTapped>,
    mut practice: ResMut<Practice>,
    current: Res<CurrentGame>,
    busy: Res<ViewBusy>,
    mut refused: MessageWriter<TapRefused>,
) {
    let Some(attempt) = practice.0.as_mut() else {
        taps.clear();
        return;
    };
    for &SquareTapped(square) in taps.read() {
        let open = matches!(attempt.state, TryState::Asking)
            || matches!(attempt.state, TryState::Judged(j) if !j.found);
        if busy.0 || !open {
            continue;
        }
        let game = current.game();
        let Some(position) = game.positions().get(attempt.ply - 1) else {
            continue;
        };
        match game.variant().try_play(position, Move::Play(square)) {
            Ok(_) => attempt.state = TryState::Judging(Move::Play(square)),
            Err(e) => {
                refused.write(TapRefused {
                    square,
                    why: Refusal::Illegal(e.reason),
                });
            }
        }
    }
}

/// The values of the position tried are asked for ahead of any other. Another module's ask
/// (the puzzle's) is left alone: only this module's own is withdrawn.
fn ask_values(
    practice: Res<Practice>,
    current: Res<CurrentGame>,
    mut asked: ResMut<ValuesAsked>,
    mut mine: Local<Option<Valued>>,
) {
    asked.ask_for(&mut mine, practice.valued(&current));
}

/// A try is judged once the position's values are found.
fn judge_tries(
    mut practice: ResMut<Practice>,
    current: Res<CurrentGame>,
    values: Res<SquareValues>,
) {
    let Some(TryState::Judging(tried)) = practice.0.map(|a| a.state) else {
        return;
    };
    let Some(found) = practice
        .valued(&current)
        .and_then(|valued| values.of(&valued).and_then(|v| judge(v, tried)))
    else {
        return;
    };
    if let Some(attempt) = practice.0.as_mut() {
        attempt.state = TryState::Judged(found);
    }
}

/// The practice ends when the game leaves the position tried: a move, an undo, a new game, a
/// step elsewhere in the review.
fn follow_game(
    mut practice: ResMut<Practice>,
    mut trying: ResMut<Trying>,
    current: Res<CurrentGame>,
) {
    if !current.is_changed() {
        return;
    }
    let Some(attempt) = practice.0 else {
        return;
    };
    let still = current.review() == Some(attempt.ply - 1)
        && current
            .game()
            .history()
            .get(attempt.ply - 1)
            .is_some_and(|mv| *mv == attempt.mistake.played);
    if !still {
        practice.0 = None;
        trying.0 = false;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use montello_engine::Variant;
    use montello_engine::search::review::{ValuesConfig, move_values};

    /// FFO #20 (Black to move, exact values H5 +6, G6 -2, F6 -4, H6 -10): a try is found when
    /// the review would not mark it, and refused with its value otherwise.
    #[test]
    fn a_try_within_the_threshold_is_found_and_a_worse_one_is_not() {
        let text = include_str!("../../engine/tests/data/ffo-20-39.obf");
        let line = text.lines().next().expect("FFO #20");
        let ffo20 = montello_engine::notation::obf::parse_line(line, 1).expect("parses");
        let values = move_values(
            &ffo20.position,
            Variant::Othello,
            &ValuesConfig::default(),
            None,
        )
        .expect("not cancelled")
        .moves;
        let mv = |s: &str| Move::Play(s.parse().expect("a square"));
        let best = judge(&values, mv("h5")).expect("a legal move");
        assert!(best.found && best.exact);
        assert_eq!((best.value, best.best, best.loss()), (6.0, mv("h5"), 0.0));
        let g6 = judge(&values, mv("g6")).expect("a legal move");
        assert!(!g6.found, "8 discs worse: a mistake");
        assert_eq!((g6.value, g6.best_value, g6.loss()), (-2.0, 6.0, 8.0));
        // Not a move of the position: no judgement.
        assert_eq!(judge(&values, mv("a1")), None);
        // Within two discs (rounded) is found, three is not.
        let near = |v: f32| {
            judge(
                &[
                    MoveValue {
                        mv: mv("h5"),
                        value: 6.0,
                        exact: true,
                    },
                    MoveValue {
                        mv: mv("g6"),
                        value: v,
                        exact: false,
                    },
                ],
                mv("g6"),
            )
            .expect("judged")
        };
        assert!(near(4.0).found && !near(4.0).exact);
        assert!(near(3.6).found, "2.4 rounds to 2");
        assert!(!near(3.4).found, "2.6 rounds to 3");
    }
}
