//! Text anchored to points of the board: the coordinates a-h / 1-8 along the frame and the
//! moves' values in discs (hint mode, the review, a try at a better move). Bevy has no 3D text, so these are UI labels placed where the camera
//! projects their anchor.

use super::{FELT_TOP, square_centre};
use crate::AppSystems;
use crate::game::ai::LastHint;
use crate::game::flow::CurrentGame;
use crate::game::practice::{Practice, TryState};
use crate::game::puzzle::Puzzling;
use crate::game::values::{SquareValues, ValuesAsked, wanted};
use crate::prefs::i18n::signed_discs;
use crate::prefs::settings::{Settings, TableMode};
use crate::ui::layout::LayoutProbe;
use crate::ui::theme::Type;
use crate::ui::theme::{Paint, Palette};
use bevy::prelude::*;
use montello_engine::search::review::MoveValue;
use montello_engine::{Move, Square};

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Startup, spawn_coordinates)
        .add_systems(
            Update,
            (show_coordinates, turn_far_side, update_value_labels).in_set(AppSystems::View),
        )
        .add_systems(PostUpdate, place_labels.after(TransformSystems::Propagate));
}

/// An empty UI node as large as a square and kept over it (for the accessibility nodes).
pub fn pinned_to(square: montello_engine::Square) -> impl Bundle {
    let size = Vec2::splat(36.0);
    (
        WorldLabel {
            anchor: square_centre(square),
            size,
        },
        Node {
            position_type: PositionType::Absolute,
            width: px(size.x),
            height: px(size.y),
            ..default()
        },
    )
}

/// A UI label pinned to a point of the board.
#[derive(Component, Debug)]
struct WorldLabel {
    anchor: Vec3,
    size: Vec2,
}

#[derive(Component, Debug)]
struct Coordinate;

/// A coordinate on the top player's side of the board (the row of letters at the top, the
/// column of numbers on the right): drawn upside down in table mode, so that player reads it.
#[derive(Component, Debug)]
struct FarSide;

/// A coordinate shown only face to face (the bottom row of letters, the right column of
/// numbers): alone with the device, the player reads them on two sides, top and left, and the
/// board is the larger for it.
#[derive(Component, Debug)]
struct TableOnly;

/// The coordinates' size: they fit the thin frame.
const COORDINATE_FONT: Type = Type::Caption;

#[derive(Component, Debug)]
struct HintLabel;

fn world_label(text: String, anchor: Vec3, font: Type, paint: Paint) -> impl Bundle {
    let size = Vec2::new(font.points() * 3.2, font.points() * 1.3);
    (
        WorldLabel { anchor, size },
        Text::new(text),
        TextFont::from_font_size(font.points()),
        TextColor(Color::WHITE),
        paint,
        TextLayout::justify(Justify::Center),
        Node {
            position_type: PositionType::Absolute,
            width: px(size.x),
            height: px(size.y),
            ..default()
        },
        Pickable::IGNORE,
    )
}

/// A short label on a rounded pill pinned to a point of the board (its colours are the
/// caller's).
///
/// The pill is a node of its own with the text inside it: with the background on the text
/// node itself, the felt showed through the best hint's pill's lower half (hint.png,
/// 2026-11-27); drawn this way the pill is whole.
fn pill_label(
    text: String,
    anchor: Vec3,
    font: Type,
    background: Color,
    color: Color,
) -> impl Bundle {
    // Just wider than a signed two-digit value, so the pill stays inside its square's ring.
    let size = Vec2::new(font.points() * 2.25, font.points() * 1.4);
    (
        WorldLabel { anchor, size },
        Node {
            position_type: PositionType::Absolute,
            width: px(size.x),
            height: px(size.y),
            justify_content: JustifyContent::Center,
            align_items: AlignItems::Center,
            border_radius: BorderRadius::all(px(size.y / 2.0)),
            ..default()
        },
        BackgroundColor(background),
        Pickable::IGNORE,
        children![(
            Text::new(text),
            TextFont::from_font_size(font.points()),
            TextColor(color),
            TextLayout::justify(Justify::Center),
            Pickable::IGNORE,
        )],
    )
}

fn spawn_coordinates(mut commands: Commands) {
    let edge = 4.0 + super::FRAME_WIDTH / 2.0;
    for i in 0..8u8 {
        let offset = f32::from(i) - 3.5;
        let letter = char::from(b'a' + i).to_string();
        for z in [-edge, edge] {
            let mut label = commands.spawn((
                Coordinate,
                world_label(
                    letter.clone(),
                    Vec3::new(offset, 0.0, z),
                    COORDINATE_FONT,
                    Paint::Coordinates,
                ),
            ));
            if z < 0.0 {
                label.insert(FarSide);
            } else {
                label.insert(TableOnly);
            }
        }
        for x in [-edge, edge] {
            let mut label = commands.spawn((
                Coordinate,
                world_label(
                    (i + 1).to_string(),
                    Vec3::new(x, 0.0, offset),
                    COORDINATE_FONT,
                    Paint::Coordinates,
                ),
            ));
            if x > 0.0 {
                label.insert((FarSide, TableOnly));
            }
        }
    }
}

/// Table mode turns the far side's coordinates upside down; otherwise all read upright.
fn turn_far_side(table: Res<TableMode>, mut labels: Query<&mut UiTransform, With<FarSide>>) {
    if !table.is_changed() {
        return;
    }
    let rotation = if table.0 { Rot2::PI } else { Rot2::IDENTITY };
    for mut transform in &mut labels {
        transform.rotation = rotation;
    }
}

fn show_coordinates(
    settings: Res<Settings>,
    table: Res<TableMode>,
    mut labels: Query<(&mut Visibility, Has<TableOnly>), With<Coordinate>>,
) {
    if !(settings.is_changed() || table.is_changed()) {
        return;
    }
    for (mut visibility, table_only) in &mut labels {
        *visibility = if settings.coordinates && (table.0 || !table_only) {
            Visibility::Inherited
        } else {
            Visibility::Hidden
        };
    }
}

/// The values the board writes on the squares now: every legal move's in the review and in
/// hint mode; while the player tries again at a mistake only the try's own (every move's once
/// the better move is found or the answer shown); none while a line is shown. Best first, each with whether it is as good
/// as the best.
pub fn shown_values(
    current: &CurrentGame,
    asked: &ValuesAsked,
    hint: &LastHint,
    practice: &Practice,
    puzzling: &Puzzling,
    values: &SquareValues,
) -> Vec<(Square, f32, bool)> {
    // A line shown from the reviewed position is another position: its squares' values are
    // not these.
    if current.line().is_some() {
        return Vec::new();
    }
    let Some(valued) = wanted(current, asked, hint) else {
        return Vec::new();
    };
    let Some(all) = values.of(&valued) else {
        return Vec::new();
    };
    let best = all.first().map_or(0.0, |v| v.value);
    // A puzzle's figures would give its answer away: only a missed try's shows.
    let puzzle_missed = puzzling.0.as_ref().map(|s| s.missed.map(|m| m.tried));
    let shown = |v: &MoveValue| match (practice.0.map(|a| a.state), puzzle_missed) {
        (_, Some(missed)) => missed == Some(v.mv),
        (None, None) => true,
        (Some(state), None) if state.reveals() => true,
        (Some(TryState::Judged(j)), None) => j.tried == v.mv,
        (Some(_), None) => false,
    };
    all.iter()
        .filter(|v| shown(v))
        .filter_map(|v| match v.mv {
            Move::Play(sq) => Some((sq, v.value, v.value >= best)),
            Move::Pass => None,
        })
        .collect()
}

/// What the board's values depend on ([`shown_values`]).
#[derive(bevy::ecs::system::SystemParam)]
pub(super) struct Valuing<'w> {
    asked: Res<'w, ValuesAsked>,
    practice: Res<'w, Practice>,
    puzzling: Res<'w, Puzzling>,
    values: Res<'w, SquareValues>,
}

impl Valuing<'_> {
    /// Whether what the values depend on changed.
    pub(super) fn is_changed(&self) -> bool {
        self.asked.is_changed()
            || self.practice.is_changed()
            || self.puzzling.is_changed()
            || self.values.is_changed()
    }

    /// The try at a better move under way, if any (`game::practice`).
    pub(super) fn practice(&self) -> Option<crate::game::practice::Attempt> {
        self.practice.0
    }

    /// The values the board shows now ([`shown_values`]).
    pub(super) fn shown(&self, current: &CurrentGame, hint: &LastHint) -> Vec<(Square, f32, bool)> {
        shown_values(
            current,
            &self.asked,
            hint,
            &self.practice,
            &self.puzzling,
            &self.values,
        )
    }
}

/// The values on the squares ([`shown_values`]), each on a pill: the best ones larger, in the
/// hint colour; while a line is shown, its moves' numbers on their discs instead.
fn update_value_labels(
    mut commands: Commands,
    hint: Res<LastHint>,
    current: Res<CurrentGame>,
    valuing: Valuing,
    palette: Res<Palette>,
    labels: Query<Entity, With<HintLabel>>,
) {
    if !(hint.is_changed() || current.is_changed() || palette.is_changed() || valuing.is_changed())
    {
        return;
    }
    for entity in &labels {
        commands.entity(entity).despawn();
    }
    // A line shown from the reviewed position: each of its moves on the board numbered in
    // order on its disc, the last in the hint colour.
    if let Some(line) = current.line() {
        for (i, mv) in line.moves[..line.shown].iter().enumerate() {
            let Move::Play(sq) = *mv else {
                continue;
            };
            let (background, color) = palette.hint_pill(i + 1 == line.shown);
            let anchor = square_centre(sq) + Vec3::Y * 0.1;
            commands.spawn((
                HintLabel,
                LayoutProbe("line-move"),
                pill_label((i + 1).to_string(), anchor, Type::Body, background, color),
            ));
        }
    }
    for (sq, value, best) in valuing.shown(&current, &hint) {
        let anchor = square_centre(sq).with_y(FELT_TOP + 0.01);
        // Each number on a pill, drawn once: the best move's larger, in the hint colour
        // (its contrast: `theme`'s tests).
        let (background, color) = palette.hint_pill(best);
        let size = if best { Type::Body } else { Type::Small };
        // Each pill is where the screenshot tool says it is, so tools/contrast-check.py
        // measures its number on the picture.
        let probe = LayoutProbe(if best { "hint-best" } else { "hint" });
        commands.spawn((
            HintLabel,
            probe,
            pill_label(signed_discs(value), anchor, size, background, color),
        ));
    }
}

fn place_labels(
    cameras: Query<(&Camera, &GlobalTransform), With<Camera3d>>,
    mut labels: Query<(&WorldLabel, &mut Node)>,
    ui_scale: Res<UiScale>,
) {
    let Ok((camera, camera_transform)) = cameras.single() else {
        return;
    };
    for (label, mut node) in &mut labels {
        let Ok(at) = camera.world_to_viewport(camera_transform, label.anchor) else {
            continue;
        };
        // The viewport is in logical pixels; UI lengths are multiplied by the UI scale.
        let at = at / ui_scale.0;
        let (left, top) = (px(at.x - label.size.x / 2.0), px(at.y - label.size.y / 2.0));
        if node.left != left || node.top != top {
            node.left = left;
            node.top = top;
        }
    }
}
