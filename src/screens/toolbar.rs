//! The toolbar at the bottom: new game, undo, redo, hint, the move list and the menu.

use super::Overlay;
use crate::AppSystems;
use crate::ai::{AiState, HintRequested};
use crate::game_flow::GameCommand;
use crate::theme::{self, Paint};
use crate::widgets::{Action, UiAction, button};
use bevy::prelude::*;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Startup, spawn_toolbar)
        .add_systems(Update, handle_actions.in_set(AppSystems::Input));
}

fn spawn_toolbar(mut commands: Commands) {
    commands.spawn((
        super::ToolbarRoot,
        Node {
            position_type: PositionType::Absolute,
            bottom: px(0),
            width: percent(100),
            height: px(theme::TOOLBAR_HEIGHT),
            padding: UiRect::axes(px(6), px(8)),
            column_gap: px(6),
            justify_content: JustifyContent::SpaceEvenly,
            align_items: AlignItems::Center,
            ..default()
        },
        BackgroundColor(Color::NONE),
        Paint::Panel,
        children![
            button("toolbar.new", Action::Open(Overlay::NewGame)),
            button("toolbar.undo", Action::Undo),
            button("toolbar.redo", Action::Redo),
            button("toolbar.hint", Action::Hint),
            button("toolbar.moves", Action::Open(Overlay::Moves)),
            button("toolbar.menu", Action::Open(Overlay::Menu)),
        ],
    ));
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
