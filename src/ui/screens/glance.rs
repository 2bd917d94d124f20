//! The move list's title row keeps the game at a glance while the HUD hides (#67): the discs
//! on the board as shown, each count beside a disc of its colour, and the evaluation in discs
//! across the game (the review's, else the searches' chances before it comes:
//! [`super::graph::chart`]), which a tap or a finger dragged along it steps through.

use crate::AppSystems;
use crate::game::eval::EvalHistory;
use crate::game::flow::CurrentGame;
use crate::game::review::GameReview;
use crate::ui::layout;
use crate::ui::theme::Palette;
use crate::ui::theme::Type;
use crate::ui::widgets::text_label;
use bevy::prelude::*;
use montello_engine::Side;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Update, (fill_glance, show_counts).in_set(AppSystems::View));
}

/// A side's discs on the board as shown, in the glance row.
#[derive(Component, Debug)]
struct GlanceCount(Side);

/// Where the sheet's title goes: the game at a glance, filled in once spawned.
#[derive(Component, Debug)]
pub(super) struct GlanceSlot;

/// Fills a new sheet's title row with the game at a glance ([`glance_row`]).
fn fill_glance(
    mut commands: Commands,
    slots: Query<Entity, Added<GlanceSlot>>,
    current: Res<CurrentGame>,
    review: Res<GameReview>,
    eval: Res<EvalHistory>,
    palette: Res<Palette>,
) {
    for slot in &slots {
        let glance = glance_row(&mut commands, &current, &review, &eval, &palette);
        commands.entity(slot).add_child(glance);
    }
}

/// The title row's content: the counts of the position shown and the evaluation's chart
/// ([`super::graph::chart`]).
fn glance_row(
    commands: &mut Commands,
    current: &CurrentGame,
    review: &GameReview,
    eval: &EvalHistory,
    palette: &Palette,
) -> Entity {
    let (bars, _) = super::graph::chart_bars(eval, review, current.game());
    let chart = super::graph::chart(
        commands,
        &bars,
        current.shown_ply(),
        palette,
        layout::GLANCE_HEIGHT,
        false,
    );
    // Each count beside a disc of its colour (the colour is never the only sign: Black's
    // first, as scores are written).
    let score = current.shown_position().score();
    let counts = commands
        .spawn((
            Node {
                flex_shrink: 0.0,
                align_items: AlignItems::Center,
                column_gap: px(4),
                padding: UiRect::left(px(8)),
                ..default()
            },
            Pickable::IGNORE,
        ))
        .id();
    for (side, n) in [(Side::Black, score.black), (Side::White, score.white)] {
        let colour = match side {
            Side::Black => palette.disc_black,
            Side::White => palette.disc_white,
        };
        commands.entity(counts).with_children(|row| {
            row.spawn((
                Node {
                    width: px(14),
                    height: px(14),
                    border: UiRect::all(px(1)),
                    border_radius: BorderRadius::all(px(7)),
                    ..default()
                },
                BackgroundColor(colour),
                BorderColor::all(Color::srgb(0.5, 0.5, 0.5)),
                Pickable::IGNORE,
            ));
            row.spawn((
                text_label(n.to_string(), Type::Body),
                GlanceCount(side),
                Node {
                    min_width: px(22),
                    ..default()
                },
            ));
        });
    }
    // No figure yet (a game in progress, not reviewed, with no search of it): no chart.
    if bars.iter().all(Option::is_none) {
        commands.entity(chart).insert(Visibility::Hidden);
    }
    commands
        .spawn((
            Node {
                width: percent(100),
                align_items: AlignItems::Center,
                column_gap: px(6),
                height: px(layout::GLANCE_HEIGHT),
                ..default()
            },
            Pickable::IGNORE,
        ))
        .add_children(&[counts, chart])
        .id()
}

fn show_counts(current: Res<CurrentGame>, mut counts: Query<(&mut Text, &GlanceCount)>) {
    if !current.is_changed() {
        return;
    }
    let score = current.shown_position().score();
    for (mut count, side) in &mut counts {
        let n = match side.0 {
            Side::Black => score.black,
            Side::White => score.white,
        }
        .to_string();
        if count.0 != n {
            count.0 = n;
        }
    }
}
