//! The UI over the board: the HUD, the toolbar, and the overlays (new game, move list, menu).

mod graph;
mod hud;
mod menu;
mod move_list;
mod new_game;
mod stats;
mod toolbar;

use crate::launch::LaunchOptions;
use crate::theme;
use bevy::prelude::*;
use bevy::window::PrimaryWindow;

pub(super) fn plugin(app: &mut App) {
    app.init_state::<Overlay>()
        .add_systems(Startup, open_new_game_at_start)
        .add_systems(PostUpdate, follow_orientation)
        .add_plugins((
            hud::plugin,
            toolbar::plugin,
            new_game::plugin,
            move_list::plugin,
            menu::plugin,
            stats::plugin,
            graph::plugin,
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
    /// The record against each AI level.
    Stats,
    /// The evaluation graph of the game.
    Graph,
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

/// The HUD's root node.
#[derive(Component, Debug)]
struct HudRoot;

/// The toolbar's root node.
#[derive(Component, Debug)]
struct ToolbarRoot;

/// Portrait: the HUD across the top and the toolbar across the bottom. Landscape: the HUD
/// in a column on the left and the toolbar in a column on the right, so the board keeps
/// the whole height.
fn follow_orientation(
    windows: Query<&Window, With<PrimaryWindow>>,
    mut hud: Query<&mut Node, (With<HudRoot>, Without<ToolbarRoot>)>,
    mut toolbar: Query<&mut Node, (With<ToolbarRoot>, Without<HudRoot>)>,
    ui_scale: Res<UiScale>,
    mut last: Local<Option<bool>>,
) {
    let Ok(window) = windows.single() else {
        return;
    };
    let landscape = theme::is_landscape(Vec2::new(window.width(), window.height()) / ui_scale.0);
    if *last == Some(landscape) || hud.is_empty() || toolbar.is_empty() {
        return;
    }
    *last = Some(landscape);
    for mut node in &mut hud {
        if landscape {
            node.width = px(theme::HUD_WIDTH);
            node.height = percent(100);
        } else {
            node.width = percent(100);
            node.height = px(theme::HUD_HEIGHT);
        }
    }
    for mut node in &mut toolbar {
        node.top = if landscape { px(0) } else { Val::Auto };
        node.bottom = px(0);
        node.right = px(0);
        if landscape {
            node.width = px(theme::TOOLBAR_WIDTH);
            node.height = percent(100);
            node.flex_direction = FlexDirection::Column;
        } else {
            node.width = percent(100);
            node.height = px(theme::TOOLBAR_HEIGHT);
            node.flex_direction = FlexDirection::Row;
        }
    }
}
