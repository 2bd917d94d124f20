//! The HUD at the top: both disc counts, whose turn it is, the AI's thinking bar, the win bar
//! ([`super::win_bar`]), notices, and the Pass / Rematch / Back to game buttons.

use super::Seat;
use crate::AppSystems;
use crate::game::ai::{AiState, AiStats, Purpose};
use crate::game::flow::{CountLag, CurrentGame, GameCommand, Notice, ViewBusy};
use crate::game::player::Player;
use crate::game::players::Players;
use crate::prefs::choices::Lang;
use crate::prefs::i18n::Language;
use crate::prefs::settings::Settings;
use crate::prefs::settings::TableMode;
use crate::ui::layout::LayoutProbe;
use crate::ui::placement::{Placed, TallLayout};
use crate::ui::theme::Type;
use crate::ui::theme::{self, Paint, Palette};
use crate::ui::widgets::{
    self, UiAction, button, coloured_label, labelled_icon_button, layout, text_label,
};
use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use montello_engine::Side;

mod cards;
mod notices;
mod strip;
#[cfg(test)]
mod tests;
mod texts;

use super::opening::opening_at;
pub(super) use cards::who_plays;
use cards::*;
use notices::*;
use strip::*;
use texts::*;

pub(super) fn plugin(app: &mut App) {
    widgets::actions::<HudAction>(app);
    app.init_resource::<TallLayout>();
    app.add_systems(Startup, spawn_hud).add_systems(
        Update,
        (
            handle_actions.in_set(AppSystems::Input),
            (
                dock_move_list,
                (
                    (
                        update_texts.run_if(texts_stale.or_else(thinking)),
                        update_bars.run_if(bars_stale.or_else(thinking)),
                        mark_side_to_move.run_if(
                            resource_changed::<CurrentGame>
                                .or_else(resource_changed::<Palette>)
                                .or_else(resource_changed::<AiState>)
                                .or_else(thinking),
                        ),
                        show_buttons.run_if(
                            resource_changed::<CurrentGame>
                                .or_else(resource_changed::<Players>)
                                .or_else(resource_changed::<TableMode>),
                        ),
                    )
                        .in_set(HudUpdate),
                    show_toast.run_if(resource_changed::<Notice>),
                    fade_notice,
                )
                    .chain(),
            )
                .in_set(AppSystems::View),
        ),
    );
}

/// The HUD's texts written from the game (what draws over them, a name being typed, runs
/// after it).
#[derive(SystemSet, Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub(super) struct HudUpdate;

/// What the HUD's buttons do; each shows only when it can ([`show_buttons`]).
#[derive(Component, Clone, Copy, PartialEq, Eq, Debug)]
pub enum HudAction {
    /// Pass (the player to move has no legal move).
    Pass,
    /// The game is over: a rematch, as the summary's button (the colours swapped against
    /// the AI).
    Rematch,
    /// The game is over: its evaluation graph.
    Graph,
    /// Reviewing earlier moves: back to the game as it stands.
    BackToGame,
}

/// Face to face, the toolbar's Undo and Hint in the far player's HUD, facing them (the near
/// player has the toolbar's): the same [`super::toolbar::ToolAction`]s, so they do and dim
/// as the toolbar's do.
#[derive(Component, Debug)]
struct FarControl;

fn handle_actions(
    mut actions: MessageReader<UiAction<HudAction>>,
    current: Res<CurrentGame>,
    players: Res<Players>,
    mut commands: MessageWriter<GameCommand>,
    mut next: ResMut<NextState<super::Overlay>>,
    settings: Res<Settings>,
    stats: Res<crate::persist::save::StatsFile>,
) {
    for UiAction(action) in actions.read() {
        match action {
            HudAction::Pass => {
                commands.write(GameCommand::Pass);
            }
            HudAction::Rematch => {
                commands.write(super::result::rematch_command(
                    current.game(),
                    *players,
                    super::result::adaptive_level(&settings, &stats),
                ));
            }
            HudAction::Graph => next.set(super::Overlay::Graph),
            HudAction::BackToGame => {
                commands.write(GameCommand::Review(None));
            }
        }
    }
}

#[derive(Component, Debug)]
pub(super) enum HudText {
    Count(Side),
    /// A player card's name: Black or White.
    Name(Side),
    /// A player card's second line: You, Player 1 / Player 2, or the AI and its level.
    Who(Side),
    Status,
    Notice,
    /// On a tall phone, the AI's statistics under the win bar (elsewhere they take the
    /// notice's place when there is no notice).
    Stats,
    /// On a tall phone, the notice in its toast.
    Toast,
    /// On a tall phone, the move strip's last moves ("… 21. f5 d6 22. c3").
    Strip,
    /// On a tall phone, where the game is, after the strip's moves ("Move 23 · 37 empty").
    Progress,
}

/// On a tall phone, a notice's toast over the player's card (its place): shown while there is
/// a notice, fading with it.
#[derive(Component, Debug)]
struct Toast;

/// The toast's pill, whose ground fades with the notice.
#[derive(Component, Debug)]
struct ToastPill;

/// A player card: the count, the side and who plays it; ringed while its side is to move. A
/// tap on a human player's card edits the name ([`super::names`]).
#[derive(Component, Debug)]
pub(super) struct PlayerCard(pub(super) Side);

#[derive(Component, Debug)]
struct ThinkingBar;

/// A disc count, ringed in the accent colour while its side is to move.
#[derive(Component, Debug)]
struct CountChip(Side);

/// Whose turn it is (or the result, or the review's place), under the cards.
fn status_line(seat: Seat) -> impl Bundle {
    (
        text_label("", theme::Type::Large),
        HudText::Status,
        seat,
        TextLayout::justify(Justify::Center),
        Node {
            width: percent(100),
            ..default()
        },
    )
}

fn spawn_hud(mut commands: Commands) {
    for seat in [Seat::Near, Seat::Far] {
        spawn_seat(&mut commands, seat);
    }
}

/// The notice and the HUD's buttons (Pass, Play again, Graph, Back to game), each shown only
/// when it can do something.
fn notice_row(seat: Seat) -> impl Bundle {
    let button_of = |key, action: HudAction| (button(key, action), seat);
    (
        layout(Node {
            align_items: AlignItems::Center,
            column_gap: px(10),
            row_gap: px(6),
            min_height: px(crate::ui::layout::TOUCH),
            ..default()
        }),
        // Lying down a column (the notice over the buttons), so a long notice wraps within the
        // narrow column and pushes what follows down (in a row, a wrapped text is laid out as
        // one line's height and spills over the win bar): `Placed::NoticeRow`.
        Placed::NoticeRow,
        LayoutProbe("hud"),
        children![
            (
                coloured_label("", Type::Body, Palette::CLASSIC.text_dim),
                HudText::Notice,
                Placed::Notice,
                seat,
                Node {
                    flex_grow: 1.0,
                    ..default()
                }
            ),
            move_strip(seat),
            button_of("hud.pass", HudAction::Pass),
            button_of("result.rematch", HudAction::Rematch),
            button_of("hud.graph", HudAction::Graph),
            button_of("hud.back_to_game", HudAction::BackToGame),
            (
                labelled_icon_button(
                    super::toolbar::icon_of(super::toolbar::ToolAction::Undo),
                    "toolbar.undo",
                    super::toolbar::ToolAction::Undo
                ),
                FarControl,
                seat
            ),
            (
                labelled_icon_button(
                    super::toolbar::icon_of(super::toolbar::ToolAction::Hint),
                    "toolbar.hint",
                    super::toolbar::ToolAction::Hint
                ),
                FarControl,
                seat
            ),
        ],
    )
}

/// One HUD: the near player's (the usual one), or in table mode the far player's too,
/// turned towards them (`crate::ui::placement`).
fn spawn_seat(commands: &mut Commands, seat: Seat) {
    commands.spawn((
        Name::new(format!("HUD {seat:?}")),
        super::HudRoot,
        Placed::Hud(seat),
        seat,
        Node {
            // Placed by `crate::ui::placement::place_nodes`.
            position_type: PositionType::Absolute,
            flex_direction: FlexDirection::Column,
            row_gap: px(4),
            ..default()
        },
        BackgroundColor(Color::NONE),
        Paint::Panel,
        children![
            (
                layout(Node {
                    justify_content: JustifyContent::SpaceBetween,
                    align_items: AlignItems::Center,
                    column_gap: px(8),
                    ..default()
                }),
                LayoutProbe("hud"),
                Placed::CardsRow,
                children![
                    player_card(Side::Black, seat),
                    player_card(Side::White, seat)
                ],
            ),
            // Whose turn it is, under the cards.
            status_line(seat),
            (
                layout(Node {
                    height: px(5),
                    width: percent(0),
                    ..default()
                }),
                BackgroundColor(Color::NONE),
                Paint::Hint,
                ThinkingBar,
                seat,
            ),
            super::win_bar::win_bar(seat),
            (
                coloured_label("", Type::Small, Color::WHITE),
                Paint::TextDim,
                TextLayout::no_wrap(),
                HudText::Stats,
                Placed::Stats,
                seat,
                Node {
                    display: Display::None,
                    width: percent(100),
                    overflow: Overflow::clip(),
                    ..default()
                },
            ),
            notice_row(seat),
            toast(seat),
        ],
    ));
}

/// Lying down (one player), the move list fills the column under the cards.
fn dock_move_list(mut commands: Commands, huds: Query<(Entity, &Seat), Added<super::HudRoot>>) {
    for (hud, seat) in &huds {
        if *seat == Seat::Near {
            let list = commands.spawn(super::move_list::docked_list()).id();
            commands.entity(hud).add_child(list);
        }
    }
}

/// Which HUD a button shows in: the Pass button in the HUD of the player who must pass (in
/// table mode, Black's near one or White's far one), every other button in the near HUD
/// only (face to face the far player has Undo and Hint of their own: [`FarControl`]).
pub fn shows_button(seat: Seat, action: HudAction, to_move: Side, table: bool) -> bool {
    match action {
        HudAction::Pass if table => seat == Seat::of(to_move),
        _ => seat == Seat::Near,
    }
}

/// Whether a [`FarControl`] (Undo, Hint) shows in `seat`'s HUD: face to face, in the far
/// player's, who cannot reach or read the toolbar.
pub fn far_control_shown(seat: Seat, table: bool) -> bool {
    table && seat == Seat::Far
}

/// Whether `button` can act now (the seat aside).
fn button_shown(button: HudAction, current: &CurrentGame, players: &Players) -> bool {
    let game = current.game();
    match button {
        HudAction::Pass => {
            current.review().is_none() && game.must_pass() && players.is_human(game.side_to_move())
        }
        HudAction::Rematch => game.is_over() && current.review().is_none(),
        HudAction::Graph => game.is_over(),
        HudAction::BackToGame => current.review().is_some(),
    }
}

/// How many of the HUD's buttons sit beside the move strip now, taking its width.
pub(super) fn buttons_beside_strip(current: &CurrentGame, players: &Players) -> usize {
    [
        HudAction::Pass,
        HudAction::Rematch,
        HudAction::Graph,
        HudAction::BackToGame,
    ]
    .into_iter()
    .filter(|b| button_shown(*b, current, players))
    .count()
}

/// Each HUD button only when it can act (Pass, Play again, the graph, back to the game), and
/// the far player's own controls in table mode.
fn show_buttons(
    current: Res<CurrentGame>,
    players: Res<Players>,
    table: Res<TableMode>,
    mut buttons: Query<(&HudAction, &Seat, &mut Node), Without<FarControl>>,
    mut far_controls: Query<(&Seat, &mut Node), (With<FarControl>, Without<HudAction>)>,
) {
    let game = current.game();
    for (button, seat, mut node) in &mut buttons {
        let show = shows_button(*seat, *button, game.side_to_move(), table.0)
            && button_shown(*button, &current, &players);
        let display = if show { Display::Flex } else { Display::None };
        if node.display != display {
            node.display = display;
        }
    }
    for (seat, mut node) in &mut far_controls {
        let display = if far_control_shown(*seat, table.0) {
            Display::Flex
        } else {
            Display::None
        };
        if node.display != display {
            node.display = display;
        }
    }
}
