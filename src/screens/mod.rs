//! The UI over the board: the HUD, the toolbar, and the overlays (new game, move list, menu).

mod hud;
mod menu;
mod move_list;
mod new_game;
mod toolbar;

use crate::launch::LaunchOptions;
use bevy::prelude::*;

pub(super) fn plugin(app: &mut App) {
    app.init_state::<Overlay>()
        .add_systems(Startup, open_new_game_at_start)
        .add_plugins((
            hud::plugin,
            toolbar::plugin,
            new_game::plugin,
            move_list::plugin,
            menu::plugin,
        ));
}

/// The panel shown over the board, if any.
#[derive(States, Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub enum Overlay {
    /// Just the board, the HUD and the toolbar.
    #[default]
    None,
    /// Choose the players, the level and the rules.
    NewGame,
    /// The move list and stepping through the game.
    Moves,
    /// Settings and sharing.
    Menu,
}

fn open_new_game_at_start(
    launch: Res<LaunchOptions>,
    restored: Res<crate::save::Restored>,
    mut next: ResMut<NextState<Overlay>>,
) {
    // A restored game in progress lands on the board, where the player left it.
    if launch.shows_new_game_screen() && !restored.0 {
        next.set(Overlay::NewGame);
    }
}
