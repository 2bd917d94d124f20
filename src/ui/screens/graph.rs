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
use crate::ui::theme::{Paint, Palette};
use crate::ui::widgets::{Localized, button, coloured_label, label, panel, row};
use bevy::prelude::*;
use montello_engine::search::review::Class;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(OnEnter(Overlay::Graph), spawn_screen)
        .add_systems(
            Update,
            respawn_on_change
                .in_set(AppSystems::View)
                .run_if(in_state(Overlay::Graph)),
        );
}

/// The chart's height in UI pixels.
const CHART_HEIGHT: f32 = 180.0;
/// Behind the bars: a grey on which both the black and the white bars read, in every theme.
const CHART_BACKGROUND: Color = Color::srgb(0.42, 0.45, 0.43);

#[derive(Component, Debug)]
struct Screen;

#[derive(Component, Debug)]
struct Chart;

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
    let chart = commands
        .spawn((
            Chart,
            Node {
                width: percent(100),
                min_width: px(260),
                height: px(CHART_HEIGHT),
                ..default()
            },
            BackgroundColor(CHART_BACKGROUND),
        ))
        .observe(on_chart_tap)
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
    // Where the board is now: a line in the hint colour.
    commands.entity(chart).with_child((
        Node {
            position_type: PositionType::Absolute,
            left: percent((current.shown_ply() as f32 + 0.4) * column),
            width: px(2),
            height: percent(100),
            ..default()
        },
        BackgroundColor(palette.hint),
        Pickable::IGNORE,
    ));
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
            14.0,
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
            14.0,
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
                coloured_label("", 16.0, Color::WHITE),
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
                super::move_list::class_symbol(class),
                15.0,
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
        label("graph.title", 28.0),
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

/// A review's mark over the chart: the move (its ply) and its class.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct GraphMark(pub usize, pub Class);

fn review_at(x: f32, columns: usize, current: &CurrentGame) -> GameCommand {
    let ply = ply_at(x, columns);
    GameCommand::Review(Some(ply).filter(|&p| p < current.game().ply()))
}

/// A tap shows the board at that move, with the graph out of the way.
fn on_chart_tap(
    click: On<Pointer<Click>>,
    eval: Res<EvalHistory>,
    review: Res<GameReview>,
    current: Res<CurrentGame>,
    mut commands: MessageWriter<GameCommand>,
    mut next: ResMut<NextState<Overlay>>,
) {
    if let Some(position) = click.hit.position {
        let columns = chart_bars(&eval, &review, current.game()).0.len();
        commands.write(review_at(position.x, columns, &current));
        next.set(Overlay::None);
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
