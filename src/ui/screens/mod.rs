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
use crate::ui::placement::OpenPanel;
pub use crate::ui::placement::{PanelArea, Seat};
use crate::ui::theme::Paint;
use crate::ui::theme::Type;
use crate::ui::widgets::{self, UiAction, layout, text_label};
use bevy::prelude::*;

pub(crate) fn plugin(app: &mut App) {
    widgets::actions::<Nav>(app);
    app.init_state::<Overlay>()
        .init_resource::<OpenPanel>()
        .add_systems(Update, note_panel.run_if(state_changed::<Overlay>))
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

/// The area `overlay`'s panel takes: `None` for the board alone.
pub fn panel_of(overlay: Overlay) -> Option<PanelArea> {
    (overlay != Overlay::None).then(|| PanelArea::of(overlay))
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

/// The open overlay's panel area, for the placement (the HUD hides under some panels) and the
/// camera (it frames the board above a sheet).
fn note_panel(overlay: Res<State<Overlay>>, mut open: ResMut<OpenPanel>) {
    open.set_if_neq(OpenPanel(panel_of(*overlay.get())));
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
        let hud_hidden = |overlay, landscape, sheet_over_hud, table| {
            crate::ui::placement::hud_hidden(panel_of(overlay), landscape, sheet_over_hud, table)
        };
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
