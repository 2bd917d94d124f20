//! Try again (#67): the sheet under the board while the player looks for a better move than
//! one of their mistakes (`game::practice`). It says what the mistake cost and whose move it
//! is, then what the try was worth: found (praised, the values on every square), or not (its
//! value and how far from the best; try again or see the answer). Next goes to the player's
//! next marked move; the × (or back) leaves for the game.

use super::{Overlay, open_panel};
use crate::AppSystems;
use crate::game::flow::CurrentGame;
use crate::game::players::Players;
use crate::game::practice::{Attempt, Practice, PracticeCommand, TryState, practising};
use crate::game::review::{GameReview, step_to_marked};
use crate::prefs::choices::Lang;
use crate::prefs::i18n::Language;
use crate::ui::theme::Opacity;
use crate::ui::theme::Type;
use crate::ui::widgets::{self, UiAction, label, text_label};
use bevy::prelude::*;

pub(super) fn plugin(app: &mut App) {
    widgets::actions::<PracticeAction>(app);
    app.add_systems(OnEnter(Overlay::Practice), spawn_sheet)
        .add_systems(OnExit(Overlay::Practice), leave)
        .add_systems(
            Update,
            (
                handle_actions
                    .in_set(AppSystems::Input)
                    .run_if(in_state(Overlay::Practice)),
                follow_practice.in_set(AppSystems::View),
            ),
        )
        .add_systems(
            Update,
            (show_text, dim_next)
                .in_set(AppSystems::View)
                .run_if(in_state(Overlay::Practice)),
        );
}

/// What the sheet's buttons do.
#[derive(Component, Clone, Copy, PartialEq, Eq, Debug)]
pub enum PracticeAction {
    /// Show the best move and every move's value.
    ShowAnswer,
    /// The player's next marked move.
    Next,
}

#[derive(Component, Debug)]
struct Sheet;

/// The sheet's text ([`practice_text`]).
#[derive(Component, Debug)]
struct PracticeText;

/// What the sheet says about `attempt` at `game`: what the mistake cost and whose move it
/// is, then where the try is.
pub fn practice_text(attempt: &Attempt, lang: Lang) -> String {
    let m = &attempt.mistake;
    let how = |exact: bool| {
        lang.t(if exact {
            "review.exact"
        } else {
            "review.search"
        })
    };
    let discs = |n: f32, exact: bool| {
        let n = if exact {
            n.round()
        } else {
            (n * 10.0).round() / 10.0
        };
        if n == 1.0 {
            lang.f("search.discs_one", &[("n", &lang.decimal(n, 0))])
        } else {
            lang.f("search.discs_other", &[("n", &lang.discs(n, exact))])
        }
    };
    let lost = lang.f(
        "practice.lost",
        &[
            (
                "move",
                &super::result::numbered(attempt.ply, m.played, lang),
            ),
            ("n", &discs(m.loss(), m.exact)),
            ("how", &how(m.exact)),
        ],
    );
    let value = crate::prefs::i18n::signed_discs;
    let now = match attempt.state {
        TryState::Asking => lang.f("practice.ask", &[("side", &lang.side(m.side))]),
        TryState::Judging(mv) => lang.f("practice.checking", &[("move", &lang.move_name(mv))]),
        TryState::Judged(j) if j.found && j.loss() < 0.5 => lang.f(
            "practice.best",
            &[
                ("move", &lang.move_name(j.tried)),
                ("value", &value(j.value)),
                ("how", &how(j.exact)),
            ],
        ),
        TryState::Judged(j) if j.found => lang.f(
            "practice.good",
            &[
                ("move", &lang.move_name(j.tried)),
                ("value", &value(j.value)),
                ("n", &discs(j.loss(), j.exact)),
                ("how", &how(j.exact)),
            ],
        ),
        TryState::Judged(j) => lang.f(
            "practice.missed",
            &[
                ("move", &lang.move_name(j.tried)),
                ("value", &value(j.value)),
                ("n", &discs(j.loss(), j.exact)),
                ("how", &how(j.exact)),
            ],
        ),
        TryState::Answered => lang.f(
            "practice.answer",
            &[
                ("move", &lang.move_name(m.best)),
                ("value", &value(m.best_value)),
                ("how", &how(m.exact)),
            ],
        ),
    };
    format!("{lost} {now}")
}

fn spawn_sheet(mut commands: Commands, lang: Res<Language>) {
    let body = commands
        .spawn(widgets::panel())
        .with_child((text_label("", Type::Body), PracticeText))
        .id();
    let button = |key: &'static str, action: PracticeAction| {
        widgets::row_action(action, false, label(key, Type::Body))
    };
    let footer = commands
        .spawn((
            Node {
                column_gap: px(6),
                ..default()
            },
            Pickable::IGNORE,
        ))
        .with_child(button("practice.show", PracticeAction::ShowAnswer))
        .with_child(button("practice.next", PracticeAction::Next))
        .id();
    open_panel(
        &mut commands,
        Overlay::Practice,
        Sheet,
        text_label(lang.0.t("practice.title"), Type::Title),
        body,
        Some(footer),
    );
}

fn show_text(
    practice: Res<Practice>,
    lang: Res<Language>,
    mut texts: Query<&mut Text, With<PracticeText>>,
) {
    let Some(attempt) = practice.0.as_ref() else {
        return;
    };
    let text = practice_text(attempt, lang.0);
    for mut t in &mut texts {
        if t.0 != text {
            t.0.clone_from(&text);
        }
    }
}

/// Next is dimmed when no marked move of the player's follows the one tried.
fn dim_next(
    mut commands: Commands,
    practice: Res<Practice>,
    current: Res<CurrentGame>,
    review: Res<GameReview>,
    players: Res<Players>,
    buttons: Query<(Entity, &PracticeAction, &Children, Option<&Opacity>)>,
    added: Query<(), Added<PracticeAction>>,
) {
    if !(practice.is_changed()
        || current.is_changed()
        || review.is_changed()
        || players.is_changed())
        && added.is_empty()
    {
        return;
    }
    let from = practice.0.map_or(0, |a| a.ply);
    let marked = review.marked_plies(current.game(), practising(&players));
    let more = step_to_marked(&marked, from, true).is_some();
    for (button, action, children, opacity) in &buttons {
        let can = match action {
            PracticeAction::Next => more,
            PracticeAction::ShowAnswer => {
                !matches!(practice.0.map(|a| a.state), Some(TryState::Answered) | None)
            }
        };
        widgets::set_enabled(&mut commands, button, children, opacity, can);
    }
}

fn handle_actions(
    mut actions: MessageReader<UiAction<PracticeAction>>,
    mut commands: MessageWriter<PracticeCommand>,
) {
    for UiAction(action) in actions.read() {
        commands.write(match action {
            PracticeAction::ShowAnswer => PracticeCommand::ShowAnswer,
            PracticeAction::Next => PracticeCommand::Next,
        });
    }
}

/// The sheet is open while a try is under way: it opens when one starts (from the summary or
/// the move list) and goes when the practice ends (the last mistake passed, the game moved on).
fn follow_practice(
    practice: Res<Practice>,
    overlay: Res<State<Overlay>>,
    mut next: ResMut<NextState<Overlay>>,
) {
    if !practice.is_changed() {
        return;
    }
    let open = *overlay.get() == Overlay::Practice;
    match (practice.0.is_some(), open) {
        (true, false) => next.set(Overlay::Practice),
        (false, true) => next.set(Overlay::None),
        _ => {}
    }
}

/// Leaving the sheet leaves the practice for the game.
fn leave(practice: Res<Practice>, mut commands: MessageWriter<PracticeCommand>) {
    if practice.0.is_some() {
        commands.write(PracticeCommand::Stop);
    }
}
