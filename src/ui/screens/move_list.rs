//! The move list: every move of the game as numbered pairs ("12. f5 d6") in as many columns as
//! fit (three on a phone upright), scrollable with a finger or the mouse wheel and opened at
//! the last move; tapping a move shows the board after it (that move highlighted), and
//! Previous / Next step through the game.
//!
//! The game review (`game::review`): each reviewed move that cost discs is marked in the list
//! with a symbol (`?!` an inaccuracy, `?` a mistake, `??` a blunder) and a line of the class's
//! colour under it; a line under the list says what the move on the board cost and which move
//! was best, or how far the review has got, or each player's average loss; the buttons on
//! either side of that line step to the player's previous and next marked move (an inaccuracy
//! or worse; both players' when no single person plays the AI). The Review button asks for a
//! review of the moves so far (a finished game is reviewed on its own). A pass reads "pass".

use super::{Nav, Overlay, open_panel};
use crate::AppSystems;
use crate::game::ai::AiStats;
use crate::game::flow::{CurrentGame, GameCommand};
use crate::game::players::Players;
use crate::game::practice::{PracticeCommand, practising};
use crate::game::review::{GameReview, step_to_marked};
use crate::prefs::i18n::Language;
use crate::prefs::settings::Settings;
use crate::ui::layout;
use crate::ui::theme::Type;
use crate::ui::theme::{self, Opacity, Paint};
use crate::ui::widgets::{
    self, UiAction, coloured_label, icon_button, label, layout as node, text_label,
};
use bevy::prelude::*;
use montello_engine::Side;
use montello_engine::search::review::Class;

pub(super) fn plugin(app: &mut App) {
    widgets::actions::<MoveAction>(app);
    app.add_systems(OnEnter(Overlay::Moves), spawn_screen)
        .add_systems(
            Update,
            (
                handle_actions.in_set(AppSystems::Input),
                respawn_on_change.run_if(in_state(Overlay::Moves)),
                (
                    refresh_docked,
                    show_current,
                    follow_shown,
                    show_review_line,
                    dim_mistake_buttons,
                )
                    .chain()
                    .in_set(AppSystems::View),
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
    /// Review the moves so far.
    StartReview,
    /// Show the player's next (`true`) or previous marked move: an inaccuracy or worse.
    Mistake(bool),
    /// Try again at the marked move on the board.
    TryAgain,
}

fn spawn_screen(
    mut commands: Commands,
    current: Res<CurrentGame>,
    lang: Res<Language>,
    stats: Res<AiStats>,
    settings: Res<Settings>,
    players: Res<Players>,
    review: Res<GameReview>,
) {
    // Numbered pairs as on a score sheet, in as many columns as fit, scrolling between the
    // title and the controls, and opened at the move on the board.
    let list = commands.spawn(pairs_list(false)).id();
    spawn_pairs(
        &mut commands,
        list,
        &current,
        settings.ai_stats.then(|| players.viewer()),
        &stats,
        &review,
        lang.0,
    );
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
                icon_button("✓", "moves.review", MoveAction::StartReview),
            ],
        ))
        .id();
    // The review's line over the controls: what the move on the board cost, or the
    // review's progress, or each player's average loss ([`show_review_line`] fills it). The
    // panel lays its footer out as a row: the two go in a column inside it.
    let stack = commands
        .spawn((
            Node {
                flex_direction: FlexDirection::Column,
                flex_grow: 1.0,
                row_gap: px(2),
                ..default()
            },
            Pickable::IGNORE,
        ))
        .id();
    // The line between the buttons that step through the player's own inaccuracies and
    // worse (both players' face to face).
    let mistake = |key: &'static str, forward: bool| {
        widgets::framed(
            Node {
                flex_shrink: 0.0,
                ..widgets::dense_node(UiRect::horizontal(px(8)))
            },
            (MoveAction::Mistake(forward), layout::LayoutProbe("mistake")),
            false,
            label(key, Type::Small),
        )
    };
    let line = commands
        .spawn((
            Node {
                align_items: AlignItems::Center,
                column_gap: px(4),
                ..default()
            },
            Pickable::IGNORE,
            children![
                mistake("moves.prev_mistake", false),
                (
                    text_label("", Type::Small),
                    ReviewLine,
                    // A tap on the line at a marked move: try again there.
                    MoveAction::TryAgain,
                    Node {
                        flex_grow: 1.0,
                        flex_basis: px(0),
                        padding: UiRect::horizontal(px(6)),
                        ..default()
                    },
                ),
                mistake("moves.next_mistake", true),
            ],
        ))
        .id();
    commands.entity(stack).add_child(line);
    // Once the game is reviewed, the best line from the position before the move on the board
    // (`super::best_line`), in the room of a row of the list (`layout::LINE_ROW`).
    if review.covers(current.game()) {
        commands.spawn((super::best_line::row(), ChildOf(stack)));
    }
    commands.entity(stack).add_child(controls);
    let footer = commands.spawn(Pickable::IGNORE).add_child(stack).id();
    // The title row keeps the game at a glance while the HUD hides (`super::glance`).
    open_panel(
        &mut commands,
        Overlay::Moves,
        Screen,
        (super::glance::GlanceSlot, Pickable::IGNORE),
        list,
        Some(footer),
    );
}

/// The line under the move list that says what the review found (see [`review_line`]).
#[derive(Component, Debug)]
struct ReviewLine;

/// The review line for the board as shown: the move on the board's cost and the best move,
/// the review's progress, or each player's average loss once the game is reviewed; empty when
/// there is nothing to say.
pub fn review_line(
    current: &CurrentGame,
    review: &GameReview,
    lang: crate::prefs::choices::Lang,
) -> String {
    let game = current.game();
    if let Some((done, total)) = review.progress() {
        return lang.f("review.running", &[("done", &done), ("total", &total)]);
    }
    let shown = current.shown_ply();
    if let Some(m) = review.of_ply(game, shown) {
        let how = lang.t(if m.exact {
            "review.exact"
        } else {
            "review.search"
        });
        let loss = m.loss();
        if m.class() == Class::Best {
            return lang.f("review.best", &[("move", &m.played), ("how", &how)]);
        }
        // Exact losses are whole discs; the search's are estimates, to a tenth.
        let discs = lang.discs(loss, m.exact);
        return lang.f(
            "review.lost",
            &[
                ("move", &m.played),
                ("n", &discs),
                ("best", &m.best),
                ("how", &how),
            ],
        );
    }
    match review.of_game(game) {
        Some(whole) if !whole.moves.is_empty() => {
            let average = |side| lang.decimal(whole.accuracy(side).average_loss, 1);
            lang.f(
                "review.summary",
                &[
                    ("black", &average(Side::Black)),
                    ("white", &average(Side::White)),
                ],
            )
        }
        _ => String::new(),
    }
}

/// The move on the board, when it is one of the player's marked moves (both players' when no
/// single person plays the AI): the review's line then offers to try again there.
fn mistake_shown(current: &CurrentGame, review: &GameReview, players: &Players) -> Option<usize> {
    let shown = current.shown_ply();
    review
        .marked_plies(current.game(), practising(players))
        .contains(&shown)
        .then_some(shown)
}

fn show_review_line(
    current: Res<CurrentGame>,
    review: Res<GameReview>,
    players: Res<Players>,
    lang: Res<Language>,
    mut lines: Query<&mut Text, With<ReviewLine>>,
) {
    if lines.is_empty() {
        return;
    }
    let mut text = review_line(&current, &review, lang.0);
    if mistake_shown(&current, &review, &players).is_some() {
        text.push(' ');
        text.push_str(lang.0.t("moves.try"));
    }
    for mut line in &mut lines {
        if line.0 != text {
            line.0.clone_from(&text);
        }
    }
}

/// The marked move each way from the move on the board (the player's own against the AI),
/// for the review's previous and next mistake buttons.
fn marked_step(
    current: &CurrentGame,
    players: &Players,
    review: &GameReview,
    forward: bool,
) -> Option<usize> {
    let marked = review.marked_plies(current.game(), practising(players));
    step_to_marked(&marked, current.shown_ply(), forward)
}

/// A mistake button with no marked move its way (none yet reviewed, or none left) looks it:
/// dimmed, in its place.
fn dim_mistake_buttons(
    mut commands: Commands,
    current: Res<CurrentGame>,
    players: Res<Players>,
    review: Res<GameReview>,
    buttons: Query<(Entity, &MoveAction, &Children, Option<&Opacity>)>,
    added: Query<(), Added<MoveAction>>,
) {
    if !(current.is_changed() || review.is_changed() || players.is_changed()) && added.is_empty() {
        return;
    }
    for (button, action, children, opacity) in &buttons {
        let MoveAction::Mistake(forward) = *action else {
            continue;
        };
        let can = marked_step(&current, &players, &review, forward).is_some();
        widgets::set_enabled(&mut commands, button, children, opacity, can);
    }
}

/// The list's node: numbered pairs in rows that wrap into columns, scrolling, and
/// following the move on the board once laid out. `docked`: in the HUD's column, which
/// has its own padding and gives the list the height its cards leave (the sheet's list is
/// as tall as its rows, within the sheet).
fn pairs_list(docked: bool) -> impl Bundle {
    (
        Node {
            flex_direction: FlexDirection::Row,
            flex_wrap: FlexWrap::Wrap,
            align_content: AlignContent::FlexStart,
            column_gap: px(layout::MOVE_COLUMN_GAP),
            row_gap: px(layout::MOVE_ROW_GAP),
            padding: UiRect::axes(
                px(if docked {
                    0.0
                } else {
                    layout::MOVE_LIST_PADDING.x
                }),
                px(layout::MOVE_LIST_PADDING.y),
            ),
            flex_grow: 1.0,
            flex_shrink: 1.0,
            flex_basis: if docked { px(0) } else { Val::Auto },
            min_height: px(0),
            overflow: Overflow::scroll_y(),
            ..default()
        },
        widgets::Scrolls,
        ScrollPosition::default(),
        PairsList,
        FollowShown,
    )
}

/// The line over a list's pairs that names the game's opening.
#[derive(Component, Debug)]
pub struct OpeningLine;

/// A list of numbered pairs (the sheet's or the docked one).
#[derive(Component, Debug)]
struct PairsList;

/// A played move's token in a list: the board after this many moves.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
struct MoveToken(usize);

/// Another move is on the board (a tap in the list, Previous / Next, Back to game): its
/// token is highlighted and every list scrolls it into view.
fn show_current(
    mut commands: Commands,
    current: Res<CurrentGame>,
    mut tokens: Query<(&MoveToken, &mut crate::ui::theme::Selected)>,
    lists: Query<Entity, With<PairsList>>,
    mut seen: Local<Option<usize>>,
) {
    let shown = current.shown_ply();
    if *seen == Some(shown) {
        return;
    }
    *seen = Some(shown);
    for (token, mut selected) in &mut tokens {
        selected.set_if_neq(crate::ui::theme::Selected(token.0 == shown));
    }
    for list in &lists {
        commands.entity(list).insert(FollowShown);
    }
}

/// Fills `list` with the game's moves as numbered pairs: each played move tappable (the
/// board after it), the one on the board highlighted, undone moves (which Redo brings
/// back) in brackets, and with AI stats on, the AI's numbers beside its moves.
fn spawn_pairs(
    commands: &mut Commands,
    list: Entity,
    current: &CurrentGame,
    ai_stats: Option<Side>,
    stats: &AiStats,
    review: &GameReview,
    lang: crate::prefs::choices::Lang,
) {
    let game = current.game();
    let shown = current.shown_ply();
    if game.all_moves().is_empty() {
        commands.entity(list).with_children(|list| {
            list.spawn(label("moves.none", theme::Type::Large));
            list.spawn(label("moves.tap", Type::Body));
        });
    }
    // The opening the game played, over its moves, a row of its own.
    if let Some(text) = super::opening::opening_line(game, game.ply(), lang) {
        commands.entity(list).with_child((
            coloured_label(text, Type::Small, Color::WHITE),
            Paint::TextDim,
            OpeningLine,
            Node {
                width: percent(100),
                ..default()
            },
        ));
    }
    // With the AI's numbers beside its moves a pair takes the whole row.
    let pair_width = if ai_stats.is_some() {
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
            coloured_label(format!("{}.", pair + 1), Type::Small, Color::WHITE),
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
                let class = review.of_ply(game, ply).map(|m| m.class());
                cell.with_child(move_token(lang.move_name(*mv), ply, ply == shown, class));
                // The AI's numbers for its moves, quietly beside them: the move's value in
                // discs from the review once there is one (for the viewer), the chance after.
                if let Some(viewer) = ai_stats
                    && let Some(stats) = stats.of_move(ply - 1, *mv)
                {
                    let discs = review.of_ply(game, ply).map(|m| {
                        if m.side == viewer {
                            m.played_value
                        } else {
                            -m.played_value
                        }
                    });
                    cell.with_child((
                        coloured_label(
                            stats.short_in_discs(lang, viewer, discs),
                            Type::Small,
                            Color::WHITE,
                        ),
                        Paint::TextDim,
                        Node {
                            margin: UiRect::horizontal(px(6)),
                            ..default()
                        },
                    ));
                }
            } else {
                cell.with_child((
                    coloured_label(
                        format!("({})", lang.move_name(*mv)),
                        Type::Body,
                        Color::WHITE,
                    ),
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
}

/// The move list docked in the HUD's column lying down, under the player cards: the same
/// pairs as the sheet's, without its title and controls (the Moves button opens those).
#[derive(Component, Debug)]
pub struct DockedList;

/// The docked list, to put in the HUD: empty until [`refresh_docked`] fills it.
pub fn docked_list() -> impl Bundle {
    (
        Name::new("Docked move list"),
        pairs_list(true),
        DockedList,
        crate::ui::placement::Placed::DockedList,
        layout::LayoutProbe("list"),
    )
}

/// Refills the docked lists when the moves, the AI stats switch or the language change.
fn refresh_docked(
    mut commands: Commands,
    current: Res<CurrentGame>,
    settings: Res<Settings>,
    players: Res<Players>,
    stats: Res<AiStats>,
    lang: Res<Language>,
    lists: Query<Entity, With<DockedList>>,
    added: Query<(), Added<DockedList>>,
    review: Res<GameReview>,
    mut seen: Local<
        Option<(
            usize,
            usize,
            Option<Side>,
            crate::prefs::choices::Lang,
            bool,
        )>,
    >,
) {
    let ai_stats = settings.ai_stats.then(|| players.viewer());
    let now = (
        current.game().ply(),
        current.game().all_moves().len(),
        ai_stats,
        lang.0,
        review.covers(current.game()),
    );
    if *seen == Some(now) && added.is_empty() {
        return;
    }
    *seen = Some(now);
    for list in &lists {
        commands
            .entity(list)
            .despawn_related::<Children>()
            .insert(FollowShown);
        spawn_pairs(
            &mut commands,
            list,
            &current,
            ai_stats,
            &stats,
            &review,
            lang.0,
        );
    }
}

/// A move's width in the list: two letters at 17 px with room around them.
const MOVE_WIDTH: f32 = 42.0;

/// One move of the list: tappable (the board after it), the move shown highlighted; a
/// reviewed move that cost discs carries its class's symbol after it and a line of the class's
/// colour under it (the symbol alone tells the class: the colour is never the only sign).
fn move_token(text: String, ply: usize, selected: bool, class: Option<Class>) -> impl Bundle {
    let (symbol, underline) = match class {
        Some(class) => (theme::class_symbol(class), theme::review_colour(class)),
        None => ("", None),
    };
    (
        widgets::framed(
            Node {
                width: px(MOVE_WIDTH),
                height: percent(100),
                justify_content: JustifyContent::Center,
                align_items: AlignItems::Center,
                border: UiRect::bottom(px(3)),
                border_radius: BorderRadius::all(px(6)),
                ..default()
            },
            (MoveAction::Review(Some(ply)), MoveToken(ply)),
            selected,
            text_label(format!("{text}{symbol}"), Type::Body),
        ),
        BorderColor::all(underline.unwrap_or(Color::NONE)),
        ReviewMark(class),
        // Where the marked moves are drawn, for tools/layout-check.py.
        layout::LayoutProbe(if symbol.is_empty() { "move" } else { "mark" }),
    )
}

/// A move token's review class, for tests and the screenshot's layout probe.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReviewMark(pub Option<Class>);

/// A numbered pair of the list (its number, from 1), for tests and the layout probe.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct MovePair(pub usize);

/// The list scrolls the pair of the move on the board into view (the last move, unless
/// the player is reviewing), once it has been laid out.
#[derive(Component, Debug)]
struct FollowShown;

fn follow_shown(
    mut commands: Commands,
    current: Res<CurrentGame>,
    mut lists: Query<
        (
            Entity,
            &mut ScrollPosition,
            &ComputedNode,
            &bevy::ui::UiGlobalTransform,
            &Children,
        ),
        With<FollowShown>,
    >,
    pairs: Query<(&MovePair, &ComputedNode, &bevy::ui::UiGlobalTransform)>,
) {
    let pair = current.shown_ply().max(1).div_ceil(2);
    for (entity, mut scroll, node, at, children) in &mut lists {
        if node.size().y <= 0.0 {
            continue;
        }
        // The pairs are the list's children in order: the last child is the last pair.
        let cells: Vec<_> = children.iter().filter_map(|c| pairs.get(c).ok()).collect();
        let last = cells.last().map(|(p, _, _)| p.0);
        let found = cells.into_iter().find(|(p, _, _)| p.0 == pair);
        let target = match found {
            // Not laid out yet: the next frame.
            Some((_, cell, _)) if cell.size().y <= 0.0 => continue,
            // The last pair: the list's end, its padding too.
            Some(_) if last == Some(pair) => widgets::max_scroll(node),
            Some((_, cell, cell_at)) => {
                let half = cell.size().y / 2.0;
                // The view ends above the scroll cue's fade, so the move is never under it.
                let fade = super::CUE_OVER_BODY / node.inverse_scale_factor();
                scroll_into_view(
                    scroll.y,
                    (
                        at.translation.y - node.size().y / 2.0,
                        at.translation.y + node.size().y / 2.0 - fade,
                    ),
                    (cell_at.translation.y - half, cell_at.translation.y + half),
                    node.inverse_scale_factor(),
                )
            }
            None => 0.0,
        };
        scroll.y = target.clamp(0.0, widgets::max_scroll(node));
        commands.entity(entity).remove::<FollowShown>();
    }
}

/// The scroll (logical pixels) that brings a row spanning `row` into a view spanning `view`
/// (both physical pixels, as drawn with the scroll `scroll`), moving as little as it can;
/// `inverse_scale` turns physical pixels into logical ones.
pub fn scroll_into_view(scroll: f32, view: (f32, f32), row: (f32, f32), inverse_scale: f32) -> f32 {
    if row.0 < view.0 {
        scroll - (view.0 - row.0) * inverse_scale
    } else if row.1 > view.1 {
        scroll + (row.1 - view.1) * inverse_scale
    } else {
        scroll
    }
}

fn handle_actions(
    mut actions: MessageReader<UiAction<MoveAction>>,
    current: Res<CurrentGame>,
    players: Res<Players>,
    mut review: ResMut<GameReview>,
    mut commands: MessageWriter<GameCommand>,
    mut practice: MessageWriter<PracticeCommand>,
) {
    for UiAction(action) in actions.read() {
        let ply = match *action {
            MoveAction::TryAgain => {
                if let Some(ply) = mistake_shown(&current, &review, &players) {
                    practice.write(PracticeCommand::Start(ply));
                }
                continue;
            }
            MoveAction::StartReview => {
                review.request();
                continue;
            }
            MoveAction::Mistake(forward) => {
                match marked_step(&current, &players, &review, forward) {
                    Some(ply) => Some(ply),
                    None => continue,
                }
            }
            MoveAction::Review(ply) => ply,
            MoveAction::Step(step) => {
                let target = current.shown_ply().saturating_add_signed(step as isize);
                Some(target.min(current.game().ply()))
            }
        };
        commands.write(GameCommand::Review(
            ply.filter(|&p| p < current.game().ply()),
        ));
    }
}

fn respawn_on_change(
    mut commands: Commands,
    current: Res<CurrentGame>,
    review: Res<GameReview>,
    screens: Query<Entity, With<Screen>>,
    mut seen: Local<(usize, usize, bool)>,
) {
    // Rebuild when moves come or go or the review arrives; another move shown is
    // [`show_current`]'s.
    let now = (
        current.game().ply(),
        current.game().all_moves().len(),
        review.covers(current.game()),
    );
    if *seen == now {
        return;
    }
    *seen = now;
    for entity in &screens {
        commands.entity(entity).despawn();
    }
    commands.run_system_cached(spawn_screen);
}

#[cfg(test)]
mod tests {
    use super::scroll_into_view;

    #[test]
    fn a_row_is_scrolled_into_view_by_the_least_move() {
        // A view from 100 to 200 (physical pixels), drawn at 2x.
        let view = (100.0, 200.0);
        // Inside: no scroll.
        assert_eq!(scroll_into_view(40.0, view, (120.0, 180.0), 0.5), 40.0);
        // Below: down by its overhang, in logical pixels.
        assert_eq!(scroll_into_view(40.0, view, (190.0, 250.0), 0.5), 65.0);
        // Above: up by its overhang.
        assert_eq!(scroll_into_view(40.0, view, (60.0, 120.0), 0.5), 20.0);
    }
}
