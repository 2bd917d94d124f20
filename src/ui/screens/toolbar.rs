//! The toolbar at the bottom: new game, undo, redo, hint, the move list and the menu.

use super::Overlay;
use crate::AppSystems;
use crate::game::ai::{AiState, HintRequested};
use crate::game::flow::{CurrentGame, GameCommand};
use crate::game::players::Players;
use crate::ui::layout::LayoutProbe;
use crate::ui::theme::Paint;
use crate::ui::widgets::{Action, UiAction, icon_button};
use bevy::prelude::*;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Startup, spawn_toolbar).add_systems(
        Update,
        (
            handle_actions.in_set(AppSystems::Input),
            show_what_can_be_done.in_set(AppSystems::View),
        ),
    );
}

/// A toolbar button.
#[derive(Component, Debug)]
struct ToolbarButton;

/// Whether the toolbar's `action` can do anything now: Undo when there is a move to take
/// back, Redo when a move was undone, Hint on a human's turn with a move to play
/// (with hints turned off it stays pressable: it says so). The rest always can.
pub fn can(action: Action, current: &CurrentGame, players: &Players, thinking: bool) -> bool {
    let game = &current.game;
    match action {
        Action::Undo => current.can_undo(players),
        Action::Redo => current.can_redo(),
        Action::Hint => {
            current.review.is_none()
                && !thinking
                && players.is_human(game.side_to_move())
                && !game.legal_moves().is_empty()
        }
        _ => true,
    }
}

/// Buttons that can do nothing now look it: flat (the bar's own colour) with dim text.
fn show_what_can_be_done(
    current: Res<CurrentGame>,
    players: Res<Players>,
    ai: Res<AiState>,
    mut buttons: Query<(&Action, &mut Paint, &Children), With<ToolbarButton>>,
    mut texts: Query<&mut Paint, Without<Action>>,
) {
    if !(current.is_changed() || players.is_changed() || ai.is_changed()) {
        return;
    }
    let thinking = ai.thinking().is_some();
    for (action, mut paint, children) in &mut buttons {
        let enabled = can(*action, &current, &players, thinking);
        let (frame, text) = if enabled {
            (Paint::Button, Paint::Text)
        } else {
            (Paint::Panel, Paint::TextDim)
        };
        if *paint != frame {
            *paint = frame;
        }
        for child in children.iter() {
            if let Ok(mut p) = texts.get_mut(child)
                && *p != text
            {
                *p = text;
            }
        }
    }
}

/// The toolbar's buttons: what each does, its label and its icon (a glyph of the UI font).
pub const BUTTONS: [(Action, &str, &str); 6] = [
    (Action::Open(Overlay::NewGame), "toolbar.new", "✚"),
    (Action::Undo, "toolbar.undo", "⇦"),
    (Action::Redo, "toolbar.redo", "⇨"),
    (Action::Hint, "toolbar.hint", "◎"),
    (Action::Open(Overlay::Moves), "toolbar.moves", "≡"),
    (Action::Open(Overlay::Menu), "toolbar.menu", "⋯"),
];

fn spawn_toolbar(mut commands: Commands) {
    let mut bar = commands.spawn((
        super::ToolbarRoot,
        Node {
            position_type: PositionType::Absolute,
            column_gap: px(4),
            row_gap: px(6),
            align_items: AlignItems::Stretch,
            ..default()
        },
        BackgroundColor(Color::NONE),
        Paint::Panel,
    ));
    for (action, key, icon) in BUTTONS {
        bar.with_child((
            icon_button(icon, key, action),
            ToolbarButton,
            LayoutProbe("tool"),
        ));
    }
}

fn handle_actions(
    mut actions: MessageReader<UiAction>,
    mut commands: MessageWriter<GameCommand>,
    mut hints: MessageWriter<HintRequested>,
    mut next: ResMut<NextState<Overlay>>,
    mut ai: ResMut<AiState>,
) {
    for UiAction(action) in actions.read() {
        match *action {
            Action::Undo => {
                // Stop the search at once; the new generation would drop it a frame later.
                ai.cancel();
                commands.write(GameCommand::Undo);
            }
            Action::Redo => {
                commands.write(GameCommand::Redo);
            }
            Action::Hint => {
                hints.write(HintRequested);
            }
            Action::Pass => {
                commands.write(GameCommand::Pass);
            }
            Action::PlayAgain => {
                commands.write(GameCommand::PlayAgain);
            }
            Action::Open(overlay) => next.set(overlay),
            Action::Close => next.set(Overlay::None),
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::players::AiLevel;
    use crate::game::players::Player;
    use montello_engine::{Game, Move, Variant};

    fn game(moves: &str) -> CurrentGame {
        let mut game = Game::new(Variant::Othello);
        for i in (0..moves.len()).step_by(2) {
            let mv: Move = moves[i..i + 2].parse().expect("a move");
            game.play(mv).expect("legal");
        }
        CurrentGame {
            game,
            ..CurrentGame::default()
        }
    }

    #[test]
    fn undo_redo_and_hint_say_when_they_can_do_nothing() {
        let humans = Players {
            black: Player::Human,
            white: Player::Human,
        };
        let start = game("");
        assert!(
            !can(Action::Undo, &start, &humans, false),
            "nothing to undo at move 0"
        );
        assert!(!can(Action::Redo, &start, &humans, false));
        assert!(can(Action::Hint, &start, &humans, false));
        assert!(
            !can(Action::Hint, &start, &humans, true),
            "not while a search runs"
        );
        let mut played = game("f5d6");
        assert!(can(Action::Undo, &played, &humans, false));
        played.game.undo();
        assert!(can(Action::Redo, &played, &humans, false));
        let ai_first = Players {
            black: Player::Ai(AiLevel::default()),
            white: Player::Human,
        };
        // Not the human's turn: no hint.
        assert!(!can(Action::Hint, &game(""), &ai_first, false));
        assert!(can(Action::Open(Overlay::Menu), &start, &humans, true));
    }
}
