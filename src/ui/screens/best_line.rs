//! The review's best line (#67), in the move list's sheet under the review's line: from the
//! position before the move on the board, the best move and each side's best reply after it
//! (`search::review::move_values` finds the line with the values on the squares), one button
//! a move. A tap on a move shows the board after it (`GameCommand::ShowLine`: the game is
//! untouched), so a finger steps through the line; a tap on the move shown goes back to the
//! game's move. The row is empty outside a review and while the player tries again (the line
//! would give the answer away).

use crate::AppSystems;
use crate::game::ai::LastHint;
use crate::game::flow::{CurrentGame, GameCommand, ShownLine};
use crate::game::practice::Practice;
use crate::game::values::{SquareValues, ValuesAsked, wanted};
use crate::prefs::i18n::Language;
use crate::ui::layout;
use crate::ui::placement::Placement;
use crate::ui::theme::Type;
use crate::ui::widgets::{self, UiAction, label, text_label};
use bevy::prelude::*;

pub(super) fn plugin(app: &mut App) {
    widgets::actions::<LineAction>(app);
    app.add_systems(
        Update,
        (
            handle_actions.in_set(AppSystems::Input),
            fill_line.in_set(AppSystems::View),
        ),
    );
}

/// A move of the best line: show the board after this many of its moves.
#[derive(Component, Clone, Copy, PartialEq, Eq, Debug)]
pub struct LineAction(pub usize);

/// The row that holds the best line's moves.
#[derive(Component, Debug)]
struct LineSlot;

/// The row's label ("Best line"), left out where the row is narrow (lying down, the sheet is
/// the column beside the board: the moves take its width).
#[derive(Component, Debug)]
struct LineLabel;

/// The moves' buttons in the row, and what they were made for.
#[derive(Component, Debug, PartialEq)]
struct LineChips(ShownLine);

/// The row under the review's line: a label, then the line's moves ([`fill_line`]).
pub(super) fn row() -> impl Bundle {
    (
        Node {
            align_items: AlignItems::Center,
            column_gap: px(4),
            min_height: px(layout::DENSE_TOUCH),
            ..default()
        },
        Pickable::IGNORE,
        LineSlot,
        children![(
            label("moves.line", Type::Small),
            LineLabel,
            Node {
                flex_shrink: 1.0,
                padding: UiRect::horizontal(px(6)),
                ..default()
            },
        )],
    )
}

/// The best line the row offers for the board as shown: from the position before the move
/// under review, once its values are found; the part shown, if the board shows some of it.
pub fn offered(
    current: &CurrentGame,
    asked: &ValuesAsked,
    hint: &LastHint,
    practice: &Practice,
    values: &SquareValues,
) -> Option<ShownLine> {
    let ply = current.review()?;
    if practice.0.is_some() {
        return None;
    }
    let valued = wanted(current, asked, hint)?;
    let moves = values.line_of(&valued)?;
    if moves.is_empty() {
        return None;
    }
    Some(ShownLine {
        from: ply - 1,
        moves: moves.to_vec(),
        shown: current.line().map_or(0, |l| l.shown),
    })
}

/// Keeps the row's buttons those of the line offered now, the move shown highlighted.
fn fill_line(
    mut commands: Commands,
    current: Res<CurrentGame>,
    asked: Res<ValuesAsked>,
    hint: Res<LastHint>,
    practice: Res<Practice>,
    values: Res<SquareValues>,
    lang: Res<Language>,
    placement: Res<Placement>,
    slots: Query<(Entity, Ref<LineSlot>)>,
    mut labels: Query<&mut Node, With<LineLabel>>,
    chips: Query<(Entity, &LineChips)>,
) {
    let Ok((slot, new)) = slots.single() else {
        return;
    };
    // Nothing it shows changed: no work this frame.
    if !(new.is_added()
        || current.is_changed()
        || values.is_changed()
        || practice.is_changed()
        || asked.is_changed()
        || hint.is_changed()
        || lang.is_changed()
        || placement.is_changed())
    {
        return;
    }
    let display = if placement.0.is_some_and(|p| p.areas.landscape) {
        Display::None
    } else {
        Display::Flex
    };
    for mut node in &mut labels {
        if node.display != display {
            node.display = display;
        }
    }
    let line = offered(&current, &asked, &hint, &practice, &values);
    let made = chips.iter().next();
    // (A new language names a pass anew.)
    if made.map(|(_, c)| &c.0) == line.as_ref() && !lang.is_changed() {
        return;
    }
    if let Some((entity, _)) = made {
        commands.entity(entity).despawn();
    }
    let Some(line) = line else {
        return;
    };
    let buttons = commands
        .spawn((
            Node {
                column_gap: px(4),
                flex_shrink: 0.0,
                ..default()
            },
            Pickable::IGNORE,
        ))
        .id();
    for (i, mv) in line.moves.iter().enumerate() {
        let button = commands
            .spawn(chip(lang.0.move_name(*mv), i + 1, line.shown == i + 1))
            .id();
        commands.entity(buttons).add_child(button);
    }
    commands
        .entity(buttons)
        .insert(LineChips(line))
        .insert(ChildOf(slot));
}

/// One move of the line: a finger's size, highlighted while the board shows the position
/// after it.
fn chip(name: String, shown: usize, selected: bool) -> impl Bundle {
    (
        widgets::framed(
            widgets::dense_node(UiRect::horizontal(px(4))),
            LineAction(shown),
            selected,
            text_label(name, Type::Body),
        ),
        layout::LayoutProbe("line"),
    )
}

/// A tap on a move of the line shows the board after it; on the move already shown, the
/// game's move again.
fn handle_actions(
    mut actions: MessageReader<UiAction<LineAction>>,
    current: Res<CurrentGame>,
    asked: Res<ValuesAsked>,
    hint: Res<LastHint>,
    practice: Res<Practice>,
    values: Res<SquareValues>,
    mut commands: MessageWriter<GameCommand>,
) {
    for UiAction(LineAction(shown)) in actions.read() {
        let Some(line) = offered(&current, &asked, &hint, &practice, &values) else {
            continue;
        };
        let again = line.shown == *shown;
        commands.write(GameCommand::ShowLine((!again).then_some(ShownLine {
            shown: *shown,
            ..line
        })));
    }
}
