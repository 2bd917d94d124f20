//! The evaluation graph after a game: Black's final margin with best play after every move,
//! in discs, from the game's review (the win bar's unit), a bar up when Black is ahead and
//! down when White is; before the review comes, Black's chance to win from the searches of the
//! game and the post-game analysis ([`crate::game::eval`]). Tapping the graph shows the board at that move. Once the
//! game is reviewed ([`crate::game::review`]), a row over the chart marks each mistake (`?`)
//! and blunder (`??`) above its move, in the class's colour.

use super::{Nav, Overlay, open_panel};
use crate::AppSystems;
use crate::game::eval::EvalHistory;
use crate::game::flow::{CurrentGame, GameCommand};
use crate::game::review::{GameReview, black_margins};
use crate::prefs::i18n::Language;
use crate::ui::theme::Type;
use crate::ui::theme::{Paint, Palette};
use crate::ui::widgets::{Localized, button, coloured_label, label, panel, row};
use bevy::prelude::*;
use montello_engine::search::review::Class;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(OnEnter(Overlay::Graph), spawn_screen)
        .add_systems(
            Update,
            (
                respawn_on_change
                    .in_set(AppSystems::View)
                    .run_if(in_state(Overlay::Graph)),
                follow_shown_line.in_set(AppSystems::View),
            ),
        );
}

/// The chart's height in UI pixels.
const CHART_HEIGHT: f32 = 180.0;
/// Behind the bars: a grey on which both the black and the white bars read, in every theme.
const CHART_BACKGROUND: Color = Color::srgb(0.42, 0.45, 0.43);

#[derive(Component, Debug)]
struct Screen;

/// The position (moves played) under a point of the chart, from the point's horizontal place
/// in the chart as the UI picking reports it (-0.5 at the left edge, 0.5 at the right), for a
/// chart of `positions` columns.
pub fn ply_at(x: f32, positions: usize) -> usize {
    let last = positions.saturating_sub(1);
    let column = ((x + 0.5) * positions as f32).floor();
    (column.max(0.0) as usize).min(last)
}

fn spawn_screen(
    mut commands: Commands,
    eval: Res<EvalHistory>,
    current: Res<CurrentGame>,
    lang: Res<Language>,
    palette: Res<Palette>,
    review: Res<GameReview>,
) {
    let game = current.game();
    let (bars, in_discs) = chart_bars(&eval, &review, game);
    let n = bars.len().max(1);
    let column = 100.0 / n as f32;
    let chart = chart(
        &mut commands,
        &bars,
        current.shown_ply(),
        &palette,
        CHART_HEIGHT,
        true,
    );
    // Which way is whose, in words as well as colours.
    commands.entity(chart).with_child((
        Node {
            position_type: PositionType::Absolute,
            left: px(6),
            top: px(2),
            ..default()
        },
        Pickable::IGNORE,
        children![coloured_label(
            lang.t("graph.black_ahead"),
            Type::Small,
            Color::WHITE
        )],
    ));
    commands.entity(chart).with_child((
        Node {
            position_type: PositionType::Absolute,
            left: px(6),
            bottom: px(2),
            ..default()
        },
        Pickable::IGNORE,
        children![coloured_label(
            lang.t("graph.white_ahead"),
            Type::Small,
            Color::WHITE
        )],
    ));
    let status = if in_discs {
        "graph.tap_discs"
    } else if eval.analysing() {
        "graph.analysing"
    } else if eval.complete() {
        "graph.tap"
    } else {
        "graph.partial"
    };
    let inner = commands
        .spawn((
            panel(),
            children![(
                coloured_label("", Type::Body, Color::WHITE),
                Paint::TextDim,
                Localized(status)
            ),],
        ))
        .id();
    let buttons = commands
        .spawn((
            row(),
            children![button("graph.moves", Nav::Open(Overlay::Moves)),],
        ))
        .id();
    // The review's mistakes and blunders, each over its move's column.
    let marks = commands
        .spawn((
            Node {
                width: percent(100),
                min_width: px(260),
                height: px(20),
                ..default()
            },
            Pickable::IGNORE,
        ))
        .id();
    for ply in 1..=game.ply() {
        let Some(m) = review.of_ply(game, ply) else {
            continue;
        };
        let class = m.class();
        if class < Class::Mistake {
            continue;
        }
        let Some(colour) = crate::ui::theme::review_colour(class) else {
            continue;
        };
        commands.entity(marks).with_child((
            Node {
                position_type: PositionType::Absolute,
                left: percent((ply as f32 - 0.2) * column),
                ..default()
            },
            GraphMark(ply, class),
            Pickable::IGNORE,
            children![coloured_label(
                crate::ui::theme::class_symbol(class),
                Type::Small,
                colour
            )],
        ));
    }
    commands
        .entity(inner)
        .add_children(&[marks, chart, buttons]);
    open_panel(
        &mut commands,
        Overlay::Graph,
        Screen,
        label("graph.title", Type::Heading),
        inner,
        None,
    );
}

/// The margin that fills half the chart's height: a bar for a lead of 32 discs or more
/// reaches the edge.
pub const FULL_BAR_DISCS: f32 = 32.0;

/// The chart's bars, one a position from the start (-1 to 1 of half the chart's height, up
/// for Black), and whether they are discs: Black's final margin with best play from the
/// game's review once its moves are reviewed (the unit of the win bar and the review), else
/// Black's chance to win from the searches and the post-game analysis (before the review
/// comes).
pub fn chart_bars(
    eval: &EvalHistory,
    review: &GameReview,
    game: &montello_engine::Game,
) -> (Vec<Option<f32>>, bool) {
    if let Some(whole) = review.of_game(game).filter(|r| !r.moves.is_empty()) {
        let bars = black_margins(game, &whole)
            .into_iter()
            .map(|m| m.map(|(discs, _)| (discs / FULL_BAR_DISCS).clamp(-1.0, 1.0)))
            .collect();
        return (bars, true);
    }
    let bars = eval
        .estimates()
        .iter()
        .map(|e| e.map(|e| (e.black_win() - 0.5) * 2.0))
        .collect();
    (bars, false)
}

/// A chart of `bars` (one a position, -1 to 1 of half its height, up for Black), `height`
/// UI pixels tall, with the even line and a line where the board is (`shown`). A tap on it
/// shows the board at that position, and so does a finger or the mouse dragged along it;
/// `close`: the tap also closes the overlay it is in (the graph's screen; the review's small
/// chart stays).
pub fn chart(
    commands: &mut Commands,
    bars: &[Option<f32>],
    shown: usize,
    palette: &Palette,
    height: f32,
    close: bool,
) -> Entity {
    let n = bars.len().max(1);
    let column = 100.0 / n as f32;
    let chart = commands
        .spawn((
            Chart {
                columns: bars.len(),
                close,
            },
            Node {
                width: percent(100),
                height: px(height),
                ..default()
            },
            BackgroundColor(CHART_BACKGROUND),
            crate::ui::layout::LayoutProbe("chart"),
        ))
        .observe(on_chart_tap)
        .observe(on_chart_press)
        .observe(on_chart_move)
        .observe(on_chart_release)
        .id();
    // The even line, then a bar per known position.
    commands.entity(chart).with_child((
        Node {
            position_type: PositionType::Absolute,
            top: percent(50),
            width: percent(100),
            height: px(1),
            ..default()
        },
        BackgroundColor(Color::srgba(1.0, 1.0, 1.0, 0.5)),
        Pickable::IGNORE,
    ));
    for (ply, bar) in bars.iter().enumerate() {
        let Some(bar) = *bar else {
            continue;
        };
        let (colour, top, bottom) = if bar >= 0.0 {
            (palette.disc_black, Val::Auto, percent(50))
        } else {
            (palette.disc_white, percent(50), Val::Auto)
        };
        commands.entity(chart).with_child((
            Node {
                position_type: PositionType::Absolute,
                left: percent(ply as f32 * column),
                width: percent(column * 0.8),
                min_width: px(1),
                top,
                bottom,
                height: percent((bar.abs() * 50.0).max(0.5)),
                ..default()
            },
            BackgroundColor(colour),
            Pickable::IGNORE,
        ));
    }
    // Where the board is now: a line in the hint colour ([`follow_shown_line`] moves it).
    commands.entity(chart).with_child((
        Node {
            position_type: PositionType::Absolute,
            left: shown_left(shown, n),
            width: px(2),
            height: percent(100),
            ..default()
        },
        BackgroundColor(palette.hint),
        Pickable::IGNORE,
        ShownLine,
    ));
    chart
}

/// The line on a chart where the board is.
#[derive(Component, Debug)]
struct ShownLine;

/// The shown line's place on a chart of `columns` positions.
fn shown_left(shown: usize, columns: usize) -> Val {
    percent((shown as f32 + 0.4) * 100.0 / columns.max(1) as f32)
}

/// Another position shown (a tap, a drag, the move list): the charts' lines follow.
fn follow_shown_line(
    current: Res<CurrentGame>,
    charts: Query<&Chart>,
    mut lines: Query<(&ChildOf, &mut Node), With<ShownLine>>,
) {
    if !current.is_changed() {
        return;
    }
    for (parent, mut node) in &mut lines {
        if let Ok(chart) = charts.get(parent.parent()) {
            let left = shown_left(current.shown_ply(), chart.columns);
            if node.left != left {
                node.left = left;
            }
        }
    }
}

/// A review's mark over the chart: the move (its ply) and its class.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct GraphMark(pub usize, pub Class);

/// A chart: how many positions it shows, and whether a tap closes its overlay.
#[derive(Component, Clone, Copy, Debug)]
pub struct Chart {
    columns: usize,
    close: bool,
}

/// A finger or button held down on a chart: moving along it steps through the game.
#[derive(Component, Debug)]
struct Held;

/// Shows the board at the position under `x` (the chart's -0.5 to 0.5), if it is not shown.
fn show_at(
    x: f32,
    chart: &Chart,
    current: &CurrentGame,
    commands: &mut MessageWriter<GameCommand>,
) {
    let ply = ply_at(x, chart.columns);
    if ply != current.shown_ply() {
        commands.write(GameCommand::Review(
            Some(ply).filter(|&p| p < current.game().ply()),
        ));
    }
}

/// A tap shows the board at that move; on the graph's screen, with the graph out of the way.
fn on_chart_tap(
    click: On<Pointer<Click>>,
    charts: Query<&Chart>,
    current: Res<CurrentGame>,
    mut commands: MessageWriter<GameCommand>,
    mut next: ResMut<NextState<Overlay>>,
) {
    if let (Some(position), Ok(chart)) = (click.hit.position, charts.get(click.entity)) {
        show_at(position.x, chart, &current, &mut commands);
        if chart.close {
            next.set(Overlay::None);
        }
    }
}

/// Pressed on the review's chart: the board follows the finger from there.
fn on_chart_press(
    mut press: On<Pointer<Press>>,
    charts: Query<&Chart>,
    current: Res<CurrentGame>,
    mut commands: MessageWriter<GameCommand>,
    mut held: Commands,
) {
    let Ok(chart) = charts.get(press.entity) else {
        return;
    };
    if chart.close {
        return;
    }
    press.propagate(false);
    held.entity(press.entity).insert(Held);
    if let Some(position) = press.hit.position {
        show_at(position.x, chart, &current, &mut commands);
    }
}

fn on_chart_move(
    mut moved: On<Pointer<Move>>,
    charts: Query<&Chart, With<Held>>,
    current: Res<CurrentGame>,
    mut commands: MessageWriter<GameCommand>,
) {
    if let (Ok(chart), Some(position)) = (charts.get(moved.entity), moved.hit.position) {
        moved.propagate(false);
        show_at(position.x, chart, &current, &mut commands);
    }
}

fn on_chart_release(release: On<Pointer<Release>>, mut commands: Commands) {
    if let Ok(mut chart) = commands.get_entity(release.entity) {
        chart.remove::<Held>();
    }
}

/// New estimates, a finished analysis or another move reviewed: draw again.
fn respawn_on_change(
    mut commands: Commands,
    eval: Res<EvalHistory>,
    current: Res<CurrentGame>,
    language: Res<Language>,
    review: Res<GameReview>,
    screens: Query<Entity, With<Screen>>,
) {
    if !(eval.is_changed() || current.is_changed() || language.is_changed() || review.is_changed())
        || screens.is_empty()
    {
        return;
    }
    super::respawn(&mut commands, screens, spawn_screen);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_point_of_the_chart_picks_its_column() {
        assert_eq!(ply_at(-0.5, 61), 0);
        assert_eq!(ply_at(0.5, 61), 60);
        assert_eq!(ply_at(0.0, 61), 30);
        assert_eq!(ply_at(-0.49, 10), 0);
        assert_eq!(ply_at(-0.41, 10), 0);
        assert_eq!(ply_at(-0.39, 10), 1);
        // Outside (a drag that left the chart) clamps to the ends.
        assert_eq!(ply_at(-3.0, 10), 0);
        assert_eq!(ply_at(7.0, 10), 9);
        assert_eq!(ply_at(0.2, 0), 0);
    }
}
