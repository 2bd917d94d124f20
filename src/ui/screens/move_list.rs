//! The move list: every move of the game as numbered pairs ("12. f5 d6") in as many columns as
//! fit (three on a phone upright), scrollable with a finger or the mouse wheel and opened at
//! the last move; tapping a move shows the board after it (that move highlighted), and
//! Previous / Next step through the game.

use super::{Nav, Overlay, open_panel};
use crate::AppSystems;
use crate::game::ai::AiState;
use crate::game::flow::{CurrentGame, GameCommand};
use crate::prefs::i18n::Language;
use crate::prefs::settings::Settings;
use crate::ui::layout;
use crate::ui::theme::{self, Paint};
use crate::ui::widgets::{
    self, UiAction, coloured_label, icon_button, label, layout as node, panel, text_label,
};
use bevy::prelude::*;

pub(super) fn plugin(app: &mut App) {
    widgets::actions::<MoveAction>(app);
    app.add_systems(OnEnter(Overlay::Moves), spawn_screen)
        .add_systems(
            Update,
            (
                handle_actions.in_set(AppSystems::Input),
                respawn_on_change.run_if(in_state(Overlay::Moves)),
                follow_end.in_set(AppSystems::View),
            ),
        );
}

#[derive(Component, Debug)]
struct Screen;

/// What the move list's buttons do.
#[derive(Component, Clone, Copy, PartialEq, Eq, Debug)]
pub enum MoveAction {
    /// Show the board after this many moves (`None`: the game as it stands).
    Review(Option<usize>),
    /// Step back or forward through the game.
    Step(i32),
}

fn spawn_screen(
    mut commands: Commands,
    current: Res<CurrentGame>,
    lang: Res<Language>,
    ai: Res<AiState>,
    settings: Res<Settings>,
) {
    let game = &current.game;
    let shown = current.shown_ply();
    // Numbered pairs as on a score sheet, in as many columns as fit, scrolling between the
    // title and the controls, and opened at the end of the game so far.
    let list = commands
        .spawn(panel())
        .insert((
            Node {
                flex_direction: FlexDirection::Row,
                flex_wrap: FlexWrap::Wrap,
                align_content: AlignContent::FlexStart,
                column_gap: px(layout::MOVE_COLUMN_GAP),
                row_gap: px(layout::MOVE_ROW_GAP),
                padding: UiRect::axes(
                    px(layout::MOVE_LIST_PADDING.x),
                    px(layout::MOVE_LIST_PADDING.y),
                ),
                flex_grow: 1.0,
                flex_shrink: 1.0,
                min_height: px(0),
                overflow: Overflow::scroll_y(),
                ..default()
            },
            FollowEnd,
        ))
        .id();
    if game.all_moves().is_empty() {
        commands.entity(list).with_children(|list| {
            list.spawn(label("moves.none", theme::FONT));
            list.spawn(label("moves.tap", 16.0));
        });
    }
    // With the AI's numbers beside its moves a pair takes the whole row.
    let pair_width = if settings.ai_stats {
        percent(100)
    } else {
        px(layout::MOVE_PAIR_WIDTH)
    };
    for (pair, moves) in game.all_moves().chunks(2).enumerate() {
        let mut cell = commands.spawn((
            node(Node {
                width: pair_width,
                height: px(layout::MOVE_ROW),
                align_items: AlignItems::Center,
                column_gap: px(2),
                ..default()
            }),
            MovePair(pair + 1),
        ));
        cell.with_child((
            coloured_label(format!("{}.", pair + 1), 15.0, Color::WHITE),
            Paint::TextDim,
            Node {
                width: px(26),
                ..default()
            },
        ));
        for (i, mv) in moves.iter().enumerate() {
            let ply = pair * 2 + i + 1;
            // Moves past the current one were undone: they can be redone, not reviewed.
            if ply <= game.ply() {
                cell.with_child(move_token(mv.to_string(), ply, ply == shown));
                // The AI's numbers for its moves, quietly beside them.
                if settings.ai_stats
                    && let Some(stats) = ai.stats_of_move(ply - 1, *mv)
                {
                    cell.with_child((
                        coloured_label(stats.short(lang.0), 15.0, Color::WHITE),
                        Paint::TextDim,
                        Node {
                            margin: UiRect::horizontal(px(6)),
                            ..default()
                        },
                    ));
                }
            } else {
                cell.with_child((
                    coloured_label(format!("({mv})"), 16.0, Color::WHITE),
                    Paint::TextDim,
                    Node {
                        width: px(MOVE_WIDTH),
                        justify_content: JustifyContent::Center,
                        ..default()
                    },
                ));
            }
        }
        let cell = cell.id();
        commands.entity(list).add_child(cell);
    }
    // Stepping through the game, under the list like a player's controls.
    let controls = commands
        .spawn((
            Node::default(),
            Pickable::IGNORE,
            children![
                icon_button("«", "moves.start", MoveAction::Review(Some(0))),
                icon_button("‹", "moves.prev", MoveAction::Step(-1)),
                icon_button("›", "moves.next", MoveAction::Step(1)),
                icon_button("»", "moves.now", MoveAction::Review(None)),
                icon_button("◐", "moves.graph", Nav::Open(Overlay::Graph)),
            ],
        ))
        .id();
    open_panel(
        &mut commands,
        Overlay::Moves,
        Screen,
        text_label(lang.f("moves.title", &[("n", &game.ply())]), 22.0),
        list,
        Some(controls),
    );
}

/// A move's width in the list: two letters at 17 px with room around them.
const MOVE_WIDTH: f32 = 42.0;

/// One move of the list: tappable (the board after it), the move shown highlighted.
fn move_token(text: String, ply: usize, selected: bool) -> impl Bundle {
    widgets::framed(
        Node {
            width: px(MOVE_WIDTH),
            height: percent(100),
            justify_content: JustifyContent::Center,
            align_items: AlignItems::Center,
            border_radius: BorderRadius::all(px(6)),
            ..default()
        },
        MoveAction::Review(Some(ply)),
        selected,
        text_label(text, 17.0),
    )
}

/// A numbered pair of the list (its number, from 1), for tests and the layout probe.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct MovePair(pub usize);

/// The list opens scrolled to its end (the game so far), once it has been laid out.
#[derive(Component, Debug)]
struct FollowEnd;

fn follow_end(
    mut commands: Commands,
    mut lists: Query<(Entity, &mut ScrollPosition, &ComputedNode), With<FollowEnd>>,
) {
    for (entity, mut scroll, node) in &mut lists {
        if node.size().y <= 0.0 {
            continue;
        }
        scroll.y = widgets::max_scroll(node);
        commands.entity(entity).remove::<FollowEnd>();
    }
}

fn handle_actions(
    mut actions: MessageReader<UiAction<MoveAction>>,
    current: Res<CurrentGame>,
    mut commands: MessageWriter<GameCommand>,
) {
    for UiAction(action) in actions.read() {
        let ply = match *action {
            MoveAction::Review(ply) => ply,
            MoveAction::Step(step) => {
                let target = current.shown_ply().saturating_add_signed(step as isize);
                Some(target.min(current.game.ply()))
            }
        };
        commands.write(GameCommand::Review(ply.filter(|&p| p < current.game.ply())));
    }
}

fn respawn_on_change(
    mut commands: Commands,
    current: Res<CurrentGame>,
    screens: Query<Entity, With<Screen>>,
    mut seen: Local<(usize, usize)>,
) {
    // Rebuild when moves come or go, not when reviewing (that would lose the scroll).
    let now = (current.game.ply(), current.game.all_moves().len());
    if *seen == now {
        return;
    }
    *seen = now;
    for entity in &screens {
        commands.entity(entity).despawn();
    }
    commands.run_system_cached(spawn_screen);
}
