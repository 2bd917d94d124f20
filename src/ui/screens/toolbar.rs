//! The toolbar at the bottom: new game, undo, redo, hint, the move list and the menu.

use super::Overlay;
use crate::AppSystems;
use crate::game::ai::{AiState, HintRequested};
use crate::game::flow::{CurrentGame, GameCommand};
use crate::game::players::Players;
use crate::ui::layout::LayoutProbe;
use crate::ui::theme::{Opacity, Paint};
use crate::ui::widgets::{self, UiAction, icon_button};
use bevy::prelude::*;

pub(super) fn plugin(app: &mut App) {
    widgets::actions::<ToolAction>(app);
    app.add_systems(Startup, spawn_toolbar).add_systems(
        Update,
        (
            handle_actions.in_set(AppSystems::Input),
            show_what_can_be_done.in_set(AppSystems::View),
        ),
    );
}

/// What a toolbar button does.
#[derive(Component, Clone, Copy, PartialEq, Eq, Debug)]
pub enum ToolAction {
    /// Take back a move (against the AI: back to the human's last turn).
    Undo,
    /// Play an undone move again.
    Redo,
    /// Ask the AI for the best moves.
    Hint,
    /// Open a panel: New game, Moves, Menu.
    Open(Overlay),
}

/// Whether the toolbar's `action` can do anything now: Undo when there is a move to take
/// back, Redo when a move was undone, Hint on a human's turn with a move to play
/// (with hints turned off it stays pressable: it says so). The rest always can.
pub fn can(action: ToolAction, current: &CurrentGame, players: &Players, thinking: bool) -> bool {
    let game = current.game();
    match action {
        ToolAction::Undo => current.can_undo(players),
        ToolAction::Redo => current.can_redo(),
        ToolAction::Hint => {
            current.review().is_none()
                && !thinking
                && players.is_human(game.side_to_move())
                && !game.legal_moves().is_empty()
        }
        ToolAction::Open(_) => true,
    }
}

/// Buttons that can do nothing now look it: the same button, icon and label at 40%
/// ([`crate::ui::theme::DIMMED_OPACITY`]), in the same place.
fn show_what_can_be_done(
    mut commands: Commands,
    current: Res<CurrentGame>,
    players: Res<Players>,
    ai: Res<AiState>,
    buttons: Query<(Entity, &ToolAction, &Children, Option<&Opacity>)>,
) {
    if !(current.is_changed() || players.is_changed() || ai.is_changed()) {
        return;
    }
    let thinking = ai.thinking().is_some();
    for (button, action, children, opacity) in &buttons {
        let able = can(*action, &current, &players, thinking);
        crate::ui::widgets::set_enabled(&mut commands, button, children, opacity, able);
    }
}

/// The toolbar's buttons: what each does, its label and its icon (a glyph of the UI font).
pub const BUTTONS: [(ToolAction, &str, &str); 6] = [
    (ToolAction::Open(Overlay::NewGame), "toolbar.new", "✚"),
    (ToolAction::Undo, "toolbar.undo", "⇦"),
    (ToolAction::Redo, "toolbar.redo", "⇨"),
    (ToolAction::Hint, "toolbar.hint", "◎"),
    (ToolAction::Open(Overlay::Moves), "toolbar.moves", "≡"),
    (ToolAction::Open(Overlay::Menu), "toolbar.menu", "⋯"),
];

/// The icon of a toolbar button's action (the far player's Undo and Hint show the same).
pub fn icon_of(action: ToolAction) -> &'static str {
    BUTTONS
        .iter()
        .find(|(a, ..)| *a == action)
        .map_or("", |&(_, _, icon)| icon)
}

pub(super) fn spawn_toolbar(mut commands: Commands) {
    let mut bar = commands.spawn((
        Name::new("Toolbar"),
        crate::ui::placement::Placed::Toolbar,
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
            crate::ui::placement::Placed::Tool,
            LayoutProbe("tool"),
        ));
    }
}

fn handle_actions(
    mut actions: MessageReader<UiAction<ToolAction>>,
    mut commands: MessageWriter<GameCommand>,
    mut hints: MessageWriter<HintRequested>,
    mut next: ResMut<NextState<Overlay>>,
    mut ai: ResMut<AiState>,
) {
    for UiAction(action) in actions.read() {
        match *action {
            ToolAction::Undo => {
                // Stop the search at once; the new generation would drop it a frame later.
                ai.cancel();
                commands.write(GameCommand::Undo);
            }
            ToolAction::Redo => {
                commands.write(GameCommand::Redo);
            }
            ToolAction::Hint => {
                hints.write(HintRequested);
            }
            ToolAction::Open(overlay) => next.set(overlay),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::player::AiLevel;
    use crate::game::player::Player;
    use montello_engine::{Game, Move, Variant};

    fn game(moves: &str) -> CurrentGame {
        let mut game = Game::new(Variant::Othello);
        for i in (0..moves.len()).step_by(2) {
            let mv: Move = moves[i..i + 2].parse().expect("a move");
            game.play(mv).expect("legal");
        }
        CurrentGame::new(game)
    }

    #[test]
    fn undo_redo_and_hint_say_when_they_can_do_nothing() {
        let humans = Players {
            black: Player::Human,
            white: Player::Human,
        };
        let start = game("");
        assert!(
            !can(ToolAction::Undo, &start, &humans, false),
            "nothing to undo at move 0"
        );
        assert!(!can(ToolAction::Redo, &start, &humans, false));
        assert!(can(ToolAction::Hint, &start, &humans, false));
        assert!(
            !can(ToolAction::Hint, &start, &humans, true),
            "not while a search runs"
        );
        let mut played = game("f5d6");
        assert!(can(ToolAction::Undo, &played, &humans, false));
        assert!(played.undo_to_human(&humans));
        assert!(can(ToolAction::Redo, &played, &humans, false));
        let ai_first = Players {
            black: Player::Ai(AiLevel::default()),
            white: Player::Human,
        };
        // Not the human's turn: no hint.
        assert!(!can(ToolAction::Hint, &game(""), &ai_first, false));
        assert!(can(ToolAction::Open(Overlay::Menu), &start, &humans, true));
    }
}
