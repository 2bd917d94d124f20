//! The UI over the board: the HUD, the toolbar, and the overlays (new game, move list, menu).

mod adaptive;
pub mod best_line;
mod glance;
mod graph;
mod help;
mod hud;
mod menu;
mod move_list;
mod names;
mod new_game;
mod opening;
mod panel;
mod practice;
pub mod puzzle;
pub mod result;
mod stats;
mod toolbar;
mod win_bar;

pub use crate::ui::theme::class_symbol;
pub use menu::ShareAction;
pub use move_list::{ReviewMark, review_line as move_list_review_line};
use panel::CUE_OVER_BODY;
pub use panel::{ScrollCue, more_below, open_panel};

use crate::AppSystems;
use crate::game::flow::{CurrentGame, GameCommand};
use crate::platform::BackRequested;
use crate::ui::layout::{self, SheetOpen};
use crate::ui::placement::{Placement, Screen};
use crate::ui::theme::Paint;
use crate::ui::theme::Type;
use crate::ui::widgets::{self, UiAction, layout, text_label};
use bevy::prelude::*;

pub(crate) fn plugin(app: &mut App) {
    widgets::actions::<Nav>(app);
    app.init_state::<Overlay>()
        .init_resource::<SheetOpen>()
        .init_resource::<Placement>()
        .add_systems(PostUpdate, follow_orientation)
        .add_systems(Update, note_sheet.run_if(state_changed::<Overlay>))
        .add_systems(
            Update,
            (go_back.before(names::NameInput), navigate).in_set(AppSystems::Input),
        )
        .add_plugins(panel::plugin)
        .add_plugins((
            hud::plugin,
            toolbar::plugin,
            new_game::plugin,
            move_list::plugin,
            menu::plugin,
            stats::plugin,
            graph::plugin,
            best_line::plugin,
            glance::plugin,
            help::plugin,
            names::plugin,
            result::plugin,
            practice::plugin,
            puzzle::plugin,
            win_bar::plugin,
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
    /// The end of a game: the result, the record against the level, what comes next.
    Result,
    /// Trying again at a mistake: finding the better move.
    Practice,
    /// The daily puzzle, played on the board.
    Puzzle,
}

impl Overlay {
    /// The overlays `--open` can show, by name.
    pub const NAMED: [(&'static str, Overlay); 10] = [
        ("new", Overlay::NewGame),
        ("moves", Overlay::Moves),
        ("menu", Overlay::Menu),
        ("stats", Overlay::Stats),
        ("graph", Overlay::Graph),
        ("help", Overlay::Help),
        ("about", Overlay::About),
        ("result", Overlay::Result),
        ("puzzle", Overlay::Puzzle),
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

/// Where a button goes: another panel, or back to the board. Any screen's buttons may carry
/// it; [`navigate`] follows it.
#[derive(Component, Clone, Copy, PartialEq, Eq, Debug)]
pub enum Nav {
    /// Show this panel.
    Open(Overlay),
    /// Close the panel: the board.
    Close,
}

fn navigate(mut taps: MessageReader<UiAction<Nav>>, mut next: ResMut<NextState<Overlay>>) {
    for UiAction(nav) in taps.read() {
        next.set(match nav {
            Nav::Open(overlay) => *overlay,
            Nav::Close => Overlay::None,
        });
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
/// ([`crate::prefs::settings::TableMode`]) Black sits near (the bottom of the screen) and White far
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

/// How a HUD is shown: at all, and turned towards the far player. Where it goes is
/// [`crate::ui::layout::areas`]'s.
#[derive(Clone, Copy, PartialEq, Debug)]
pub struct HudPlace {
    /// Shown at all.
    pub shown: bool,
    /// Drawn turned by half a turn (towards the far player).
    pub turned: bool,
}

/// Whether the near HUD hides under `overlay`: where the overlay's panel takes its place (a
/// sheet lying down, or upright where it takes the lower part of the whole height,
/// `sheet_over_hud`, the board framed above it from the top of the screen; a tall panel
/// upright), both with one player.
pub fn hud_hidden(overlay: Overlay, landscape: bool, sheet_over_hud: bool, table: bool) -> bool {
    !table
        && match PanelArea::of(overlay) {
            PanelArea::Sheet => landscape || sheet_over_hud,
            PanelArea::Tall => !landscape,
            PanelArea::Cover => false,
        }
}

/// How `seat`'s HUD is shown: normally the near HUD alone; in table mode the far HUD too,
/// turned.
pub fn hud_place(seat: Seat, table: bool) -> HudPlace {
    HudPlace {
        shown: seat == Seat::Near || table,
        turned: seat == Seat::Far && table,
    }
}

/// The toolbar's root node.
#[derive(Component, Debug)]
struct ToolbarRoot;

/// Where an overlay's root node goes.
#[derive(Component, Clone, Copy, PartialEq, Eq, Debug)]
pub enum PanelArea {
    /// Over the whole space between the bars, which it dims and keeps taps from; the panel
    /// inside keeps to the safe area.
    Cover,
    /// The move list's sheet (and the summary at the end of a game), which leaves the board
    /// in view.
    Sheet,
    /// Like [`PanelArea::Cover`], and upright with one player over the HUD's place too (the
    /// HUD hides): new game, whose choices then fit on a phone without scrolling.
    Tall,
}

impl PanelArea {
    /// The overlay's area: where a panel for `overlay` goes.
    pub fn of(overlay: Overlay) -> PanelArea {
        match overlay {
            // The end of a game's summary too: the final board stays in view above it.
            Overlay::Moves | Overlay::Result | Overlay::Practice | Overlay::Puzzle => {
                PanelArea::Sheet
            }
            Overlay::NewGame => PanelArea::Tall,
            _ => PanelArea::Cover,
        }
    }
}

/// Places a node on `rect` (logical pixels) in a UI drawn `scale` times larger.
fn place(node: &mut Node, rect: Rect, scale: f32) {
    node.position_type = PositionType::Absolute;
    node.left = px(rect.min.x / scale);
    node.top = px(rect.min.y / scale);
    node.width = px(rect.width() / scale);
    node.height = px(rect.height() / scale);
    node.right = Val::Auto;
    node.bottom = Val::Auto;
}

/// The padding that keeps a node's content on `content` when the node covers `rect`, plus
/// `own` padding on every side; `turned`: the node is drawn turned by half a turn.
fn padding_to(rect: Rect, content: Rect, scale: f32, own: Vec2, turned: bool) -> UiRect {
    let (mut left, mut top) = (content.min.x - rect.min.x, content.min.y - rect.min.y);
    let (mut right, mut bottom) = (rect.max.x - content.max.x, rect.max.y - content.max.y);
    if turned {
        (left, right, top, bottom) = (right, left, bottom, top);
    }
    UiRect {
        left: px(left / scale + own.x),
        right: px(right / scale + own.x),
        top: px(top / scale + own.y),
        bottom: px(bottom / scale + own.y),
    }
}

/// Puts the HUD, the toolbar and the open panel where [`layout::areas`] says: portrait, the
/// HUD across the top and the toolbar across the bottom; landscape, the HUD in a column on
/// the left and the toolbar in a column on the right, so the board keeps the whole height.
/// The bars' backgrounds reach the screen's edges; their content stays inside the system's
/// safe area (notch, home indicator, system bars), and so do the panels.
fn follow_orientation(
    placement: Res<Placement>,
    mut hud: Query<
        (&Seat, &mut Node, &mut UiTransform),
        (With<HudRoot>, Without<ToolbarRoot>, Without<PanelArea>),
    >,
    mut toolbar: Query<
        (&mut Node, &Children),
        (With<ToolbarRoot>, Without<HudRoot>, Without<PanelArea>),
    >,
    mut tools: Query<&mut Node, (Without<ToolbarRoot>, Without<HudRoot>, Without<PanelArea>)>,
    mut panels: Query<(&PanelArea, &mut Node), (Without<HudRoot>, Without<ToolbarRoot>)>,
    new_panels: Query<(), Added<PanelArea>>,
    mut last: Local<Option<Screen>>,
) {
    let Some(state) = placement.0 else {
        return;
    };
    if new_panels.is_empty() && *last == Some(state) {
        return;
    }
    let (areas, scale, table) = (&state.areas, state.scale, state.table);
    {
        for (area, mut node) in &mut panels {
            match area {
                PanelArea::Cover => {
                    place(&mut node, areas.cover, scale);
                    node.padding = padding_to(areas.cover, areas.panel, scale, Vec2::ZERO, false);
                }
                PanelArea::Tall => {
                    place(&mut node, areas.tall_cover, scale);
                    node.padding =
                        padding_to(areas.tall_cover, areas.tall_panel, scale, Vec2::ZERO, false);
                }
                PanelArea::Sheet => place(&mut node, areas.sheet, scale),
            }
        }
    }
    if *last == Some(state) || hud.is_empty() || toolbar.is_empty() {
        return;
    }
    *last = Some(state);
    for (seat, mut node, mut transform) in &mut hud {
        let shown = hud_place(*seat, table);
        node.display = if shown.shown {
            Display::Flex
        } else {
            Display::None
        };
        transform.rotation = if shown.turned {
            Rot2::PI
        } else {
            Rot2::IDENTITY
        };
        let (rect, content) = match seat {
            Seat::Near => (areas.hud, areas.hud_content[0]),
            Seat::Far => (areas.far_hud, areas.hud_content[1]),
        };
        place(&mut node, rect, scale);
        node.padding = padding_to(rect, content, scale, layout::HUD_PADDING, shown.turned);
        // Face to face lying down, each half of the column keeps its content at the screen's
        // edge: the turned HUD's end is the top of the screen.
        node.justify_content = if table && areas.landscape {
            JustifyContent::FlexEnd
        } else {
            JustifyContent::FlexStart
        };
    }
    for (mut node, buttons) in &mut toolbar {
        place(&mut node, areas.toolbar, scale);
        node.padding = padding_to(
            areas.toolbar,
            areas.toolbar_content,
            scale,
            layout::TOOLBAR_PADDING,
            false,
        );
        // A row upright, a column on the right lying down, or two rows of three under the
        // HUD (a tablet lying down).
        node.flex_direction = if areas.landscape && !areas.toolbar_grid {
            FlexDirection::Column
        } else {
            FlexDirection::Row
        };
        node.flex_wrap = if areas.toolbar_grid {
            FlexWrap::Wrap
        } else {
            FlexWrap::NoWrap
        };
        for button in buttons.iter() {
            if let Ok(mut button) = tools.get_mut(button) {
                button.flex_basis = if areas.toolbar_grid {
                    percent(30)
                } else {
                    px(0)
                };
            }
        }
    }
}

/// A sheet is open (the move list, the summary at the end of a game): the camera frames the
/// board above it.
fn note_sheet(overlay: Res<State<Overlay>>, mut sheet: ResMut<SheetOpen>) {
    let open = PanelArea::of(*overlay.get()) == PanelArea::Sheet;
    if sheet.0 != open {
        sheet.0 = open;
    }
}

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
    name_edit: Res<names::NameEdit>,
    mut commands: MessageWriter<GameCommand>,
) {
    // Several presses in one frame still go back one step: the next frame sees the new screen.
    if back.read().count() == 0 {
        return;
    }
    // While a name is typed, back (or Escape) ends the typing, nothing more (names.rs).
    if name_edit.side().is_some() {
        return;
    }
    match back_step(*overlay.get(), current.review().is_some()) {
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
    }

    #[test]
    fn the_scroll_cue_shows_only_for_more_than_padding() {
        assert!(more_below(300.0, 0.0));
        assert!(more_below(300.0, 291.0));
        assert!(!more_below(300.0, 292.0));
        assert!(!more_below(300.0, 300.0));
        assert!(!more_below(0.0, 0.0));
    }

    #[test]
    fn the_hud_hides_only_where_a_panel_takes_its_place() {
        // New game upright and the move list lying down take the HUD's place...
        assert!(hud_hidden(Overlay::NewGame, false, false, false));
        assert!(hud_hidden(Overlay::Moves, true, false, false));
        // ...not the other way round, not face to face, and no other panel does.
        assert!(!hud_hidden(Overlay::NewGame, true, false, false));
        assert!(!hud_hidden(Overlay::Moves, false, false, false));
        assert!(!hud_hidden(Overlay::NewGame, false, false, true));
        assert!(!hud_hidden(Overlay::Moves, true, false, true));
        // On a tall phone the move list takes the whole height's lower part, the board
        // framed above it from the top: the HUD hides.
        assert!(hud_hidden(Overlay::Moves, false, true, false));
        for overlay in [Overlay::None, Overlay::Menu, Overlay::Help, Overlay::Graph] {
            for (landscape, tall) in [(false, false), (true, false), (false, true)] {
                assert!(!hud_hidden(overlay, landscape, tall, false), "{overlay:?}");
            }
        }
        assert_eq!(back_step(Overlay::None, false), BackStep::LeaveApp);
    }
}
