//! The UI over the board: the HUD, the toolbar, and the overlays (new game, move list, menu).

mod graph;
mod help;
mod hud;
mod menu;
mod move_list;
mod new_game;
mod stats;
mod toolbar;

use crate::AppSystems;
use crate::game_flow::{CurrentGame, GameCommand};
use crate::launch::LaunchOptions;
use crate::platform::{BackRequested, SafeArea};
use crate::settings::TableMode;
use crate::theme;
use bevy::prelude::*;
use bevy::window::PrimaryWindow;

pub(super) fn plugin(app: &mut App) {
    app.init_state::<Overlay>()
        .add_systems(Startup, open_new_game_at_start)
        .add_systems(PostUpdate, follow_orientation)
        .add_systems(Update, go_back.in_set(AppSystems::Input))
        .add_plugins((
            hud::plugin,
            toolbar::plugin,
            new_game::plugin,
            move_list::plugin,
            menu::plugin,
            stats::plugin,
            graph::plugin,
            help::plugin,
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
    /// The rules and a first-game tutorial.
    Help,
    /// How the AI thinks, and its level's settings.
    About,
}

impl Overlay {
    /// The overlays `--open` can show, by name.
    pub const NAMED: [(&'static str, Overlay); 8] = [
        ("new", Overlay::NewGame),
        ("moves", Overlay::Moves),
        ("menu", Overlay::Menu),
        ("stats", Overlay::Stats),
        ("graph", Overlay::Graph),
        ("help", Overlay::Help),
        ("about", Overlay::About),
        ("board", Overlay::None),
    ];

    /// The overlay called `name` on the command line.
    pub fn from_name(name: &str) -> Option<Overlay> {
        Self::NAMED
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|&(_, o)| o)
    }
}

fn open_new_game_at_start(
    launch: Res<LaunchOptions>,
    restored: Res<crate::save::Restored>,
    mut next: ResMut<NextState<Overlay>>,
) {
    if let Some(overlay) = launch.open {
        next.set(overlay);
        return;
    }
    // A restored game in progress lands on the board, where the player left it.
    if launch.shows_new_game_screen() && !restored.0 {
        next.set(Overlay::NewGame);
    }
}

/// Rebuilds an overlay after what it shows changed: despawns its `roots` and runs its `spawn`
/// system again.
fn respawn<M: 'static>(
    commands: &mut Commands,
    roots: impl IntoIterator<Item = Entity>,
    spawn: impl IntoSystem<(), (), M> + Send + 'static,
) {
    for entity in roots {
        commands.entity(entity).despawn();
    }
    commands.run_system_cached(spawn);
}

/// The HUD's root node (one per [`Seat`]).
#[derive(Component, Debug)]
struct HudRoot;

/// Whose HUD a node belongs to. The near player's is the usual HUD; in table mode
/// ([`crate::settings::TableMode`]) Black sits near (the bottom of the screen) and White far
/// (the top), and White's HUD is drawn turned towards White.
#[derive(Component, Clone, Copy, PartialEq, Eq, Debug)]
pub enum Seat {
    /// The player holding the device, or Black in table mode.
    Near,
    /// White in table mode, across the table.
    Far,
}

impl Seat {
    /// The seat of `side` in table mode.
    pub fn of(side: montello_engine::Side) -> Seat {
        match side {
            montello_engine::Side::Black => Seat::Near,
            montello_engine::Side::White => Seat::Far,
        }
    }
}

/// Where a HUD goes, as a node's position (left, top, right, bottom, width, height, in the
/// UI's units; `None` for auto), whether it is shown, and whether it is turned upside down:
/// `insets` are the safe-area margins.
#[derive(Clone, Copy, PartialEq, Debug)]
pub struct HudPlace {
    /// Shown at all.
    pub shown: bool,
    /// Drawn turned by half a turn (towards the far player).
    pub turned: bool,
    /// Anchored to the top edge (else to the bottom edge).
    pub at_top: bool,
    /// Distance from that edge, beyond the safe-area margin.
    pub from_edge: f32,
    /// Height as a fraction of the column (landscape) or `None` for the HUD's own height.
    pub column_share: Option<f32>,
}

/// Where `seat`'s HUD goes: normally the near HUD alone, across the top (upright) or in the
/// left column (lying down). In table mode the far HUD is turned and sits at the top (or the
/// column's top half) and the near one at the bottom above the toolbar (or the column's
/// bottom half).
pub fn hud_place(seat: Seat, landscape: bool, table: bool) -> HudPlace {
    match (seat, table) {
        (Seat::Far, false) => HudPlace {
            shown: false,
            turned: false,
            at_top: true,
            from_edge: 0.0,
            column_share: None,
        },
        (Seat::Near, false) => HudPlace {
            shown: true,
            turned: false,
            at_top: true,
            from_edge: 0.0,
            column_share: landscape.then_some(1.0),
        },
        (Seat::Far, true) => HudPlace {
            shown: true,
            turned: true,
            at_top: true,
            from_edge: 0.0,
            column_share: landscape.then_some(0.5),
        },
        (Seat::Near, true) => HudPlace {
            shown: true,
            turned: false,
            at_top: false,
            from_edge: if landscape {
                0.0
            } else {
                theme::TOOLBAR_HEIGHT
            },
            column_share: landscape.then_some(0.5),
        },
    }
}

/// The toolbar's root node.
#[derive(Component, Debug)]
struct ToolbarRoot;

/// Portrait: the HUD across the top and the toolbar across the bottom. Landscape: the HUD
/// in a column on the left and the toolbar in a column on the right, so the board keeps
/// the whole height.
///
/// Both bars stay inside the system's safe area (notch, home indicator, system bars); the
/// overlays' panels too.
fn follow_orientation(
    windows: Query<&Window, With<PrimaryWindow>>,
    mut hud: Query<
        (&Seat, &mut Node, &mut UiTransform),
        (With<HudRoot>, Without<ToolbarRoot>, Without<SafePadding>),
    >,
    mut toolbar: Query<&mut Node, (With<ToolbarRoot>, Without<HudRoot>, Without<SafePadding>)>,
    mut padded: Query<&mut Node, (With<SafePadding>, Without<HudRoot>, Without<ToolbarRoot>)>,
    new_padded: Query<(), Added<SafePadding>>,
    ui_scale: Res<UiScale>,
    safe: Res<SafeArea>,
    table: Res<TableMode>,
    mut last: Local<Option<(bool, SafeArea, f32, bool)>>,
) {
    let Ok(window) = windows.single() else {
        return;
    };
    let size = Vec2::new(window.width(), window.height());
    let landscape = theme::is_landscape(safe.inner(size) / ui_scale.0);
    // Margins in the UI's own units.
    let scale = ui_scale.0.max(0.01);
    let margin = |v: f32| px(v / scale);
    let insets = UiRect {
        left: margin(safe.left),
        right: margin(safe.right),
        top: margin(safe.top),
        bottom: margin(safe.bottom),
    };
    let state = (landscape, *safe, scale, table.0);
    if !new_padded.is_empty() || *last != Some(state) {
        for mut node in &mut padded {
            node.padding = insets;
        }
    }
    if *last == Some(state) || hud.is_empty() || toolbar.is_empty() {
        return;
    }
    *last = Some(state);
    for (seat, mut node, mut transform) in &mut hud {
        let place = hud_place(*seat, landscape, table.0);
        node.display = if place.shown {
            Display::Flex
        } else {
            Display::None
        };
        transform.rotation = if place.turned {
            Rot2::PI
        } else {
            Rot2::IDENTITY
        };
        let offset = |edge: Val| match edge {
            Val::Px(v) => px(v + place.from_edge),
            other => other,
        };
        node.left = insets.left;
        // Face to face lying down, each half of the column keeps its content at the screen's
        // edge: the turned HUD's end is the top of the screen.
        node.justify_content = if table.0 && landscape {
            JustifyContent::FlexEnd
        } else {
            JustifyContent::FlexStart
        };
        if landscape {
            node.right = Val::Auto;
            node.width = px(theme::HUD_WIDTH);
            match place.column_share {
                Some(share) if share < 1.0 => {
                    // Half the column each; the safe margins stay outside.
                    node.height = Val::Percent(share * 100.0);
                    if place.at_top {
                        (node.top, node.bottom) = (insets.top, Val::Auto);
                    } else {
                        (node.top, node.bottom) = (Val::Auto, insets.bottom);
                    }
                }
                _ => {
                    (node.top, node.bottom) = (insets.top, insets.bottom);
                    node.height = Val::Auto;
                }
            }
        } else {
            node.right = insets.right;
            node.width = Val::Auto;
            node.height = px(theme::HUD_HEIGHT);
            if place.at_top {
                (node.top, node.bottom) = (offset(insets.top), Val::Auto);
            } else {
                (node.top, node.bottom) = (Val::Auto, offset(insets.bottom));
            }
        }
    }
    for mut node in &mut toolbar {
        node.right = insets.right;
        node.bottom = insets.bottom;
        if landscape {
            node.left = Val::Auto;
            node.top = insets.top;
            node.width = px(theme::TOOLBAR_WIDTH);
            node.height = Val::Auto;
            node.flex_direction = FlexDirection::Column;
        } else {
            node.left = insets.left;
            node.top = Val::Auto;
            node.width = Val::Auto;
            node.height = px(theme::TOOLBAR_HEIGHT);
            node.flex_direction = FlexDirection::Row;
        }
    }
}

/// A full-screen node whose content must stay inside the safe area: it gets the system's
/// margins as padding.
#[derive(Component, Debug, Default)]
pub struct SafePadding;

/// What the back button does on a screen: one step back, never more.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum BackStep {
    /// Show this overlay instead (`Overlay::None`: the board).
    Open(Overlay),
    /// Leave the review of earlier moves for the game.
    EndReview,
    /// Nothing left to go back to: leave the app (Android), keeping the game.
    LeaveApp,
}

/// Where back goes from `overlay`, `reviewing` or not: a screen opened from the menu goes back
/// to the menu, any other overlay to the board, a review to the game, the game out of the app.
pub fn back_step(overlay: Overlay, reviewing: bool) -> BackStep {
    match overlay {
        Overlay::Stats | Overlay::Help | Overlay::About => BackStep::Open(Overlay::Menu),
        Overlay::None if reviewing => BackStep::EndReview,
        Overlay::None => BackStep::LeaveApp,
        _ => BackStep::Open(Overlay::None),
    }
}

fn go_back(
    mut back: MessageReader<BackRequested>,
    overlay: Res<State<Overlay>>,
    mut next: ResMut<NextState<Overlay>>,
    current: Res<CurrentGame>,
    mut commands: MessageWriter<GameCommand>,
) {
    // Several presses in one frame still go back one step: the next frame sees the new screen.
    if back.read().count() == 0 {
        return;
    }
    match back_step(*overlay.get(), current.review.is_some()) {
        BackStep::Open(to) => next.set(to),
        BackStep::EndReview => {
            commands.write(GameCommand::Review(None));
        }
        BackStep::LeaveApp => crate::platform::leave_app(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn back_goes_one_step_towards_the_board_then_out() {
        for from_menu in [Overlay::Stats, Overlay::Help, Overlay::About] {
            assert_eq!(back_step(from_menu, false), BackStep::Open(Overlay::Menu));
        }
        for overlay in [
            Overlay::NewGame,
            Overlay::Moves,
            Overlay::Menu,
            Overlay::Graph,
        ] {
            assert_eq!(back_step(overlay, false), BackStep::Open(Overlay::None));
            // A panel over a review closes first; the review ends with the next press.
            assert_eq!(back_step(overlay, true), BackStep::Open(Overlay::None));
        }
        assert_eq!(back_step(Overlay::None, true), BackStep::EndReview);
        assert_eq!(back_step(Overlay::None, false), BackStep::LeaveApp);
    }
}
