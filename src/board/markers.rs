//! Marks on the squares: legal-move dots for a human to move, the last move, a red flash on
//! a refused tap, the hint's rings, and the game review's better move.

use super::{FELT_TOP, SQUARE, square_centre};
use crate::AppSystems;
use crate::board::discs::ANNOUNCE;
use crate::board::labels::Valuing;
use crate::game::ai::LastHint;
use crate::game::flow::{BoardReset, CurrentGame, MovePlayed, Refusal, TapRefused, ViewBusy};
use crate::game::players::Players;
use crate::game::practice::TryState;
use crate::game::review::GameReview;
use crate::prefs::settings::Settings;
use crate::ui::theme::{BoardMaterials, Palette, unlit};
use bevy::prelude::*;
use montello_engine::{Move, Square};

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Startup, load_assets).add_systems(
        Update,
        (
            update_markers,
            flash_refused,
            fade_flashes,
            announce_ai_moves,
            end_announcements,
        )
            .in_set(AppSystems::View),
    );
}

/// A marker that is rebuilt whenever the game or the settings change.
#[derive(Component, Debug)]
struct Marker;

/// The ring on the square of the better move, when the move on the board was reviewed and
/// cost discs.
#[derive(Component, Debug)]
pub struct ReviewRing;

/// A refused tap's red square, fading out.
#[derive(Component, Debug)]
pub struct Flash {
    /// Seconds left.
    pub left: f32,
}

const FLASH: f32 = 0.45;

#[derive(Resource)]
struct MarkerAssets {
    dot: Handle<Mesh>,
    legal: Handle<StandardMaterial>,
    last: Handle<StandardMaterial>,
    ring: Handle<Mesh>,
    hint: Handle<StandardMaterial>,
    square: Handle<Mesh>,
}

fn load_assets(
    mut commands: Commands,
    mut meshes: ResMut<Assets<Mesh>>,
    materials: Res<BoardMaterials>,
) {
    commands.insert_resource(MarkerAssets {
        dot: meshes.add(Cylinder::new(0.11, 0.004)),
        legal: materials.legal.clone(),
        last: materials.last_move.clone(),
        ring: meshes.add(Extrusion::new(Annulus::new(0.36, 0.45), 0.004)),
        hint: materials.hint.clone(),
        square: meshes.add(Cuboid::new(SQUARE * 0.94, 0.004, SQUARE * 0.94)),
    });
}

fn update_markers(
    mut commands: Commands,
    current: Res<CurrentGame>,
    players: Res<Players>,
    settings: Res<Settings>,
    busy: Res<ViewBusy>,
    hint: Res<LastHint>,
    review: Res<GameReview>,
    valuing: Valuing,
    assets: Res<MarkerAssets>,
    markers: Query<Entity, With<Marker>>,
) {
    if !(current.is_changed()
        || settings.is_changed()
        || busy.is_changed()
        || hint.is_changed()
        || review.is_changed()
        || valuing.is_changed())
    {
        return;
    }
    for entity in &markers {
        commands.entity(entity).despawn();
    }
    let game = current.game();
    let mut spawn = |mesh: &Handle<Mesh>, material: &Handle<StandardMaterial>, at: Vec3| {
        commands.spawn((
            Marker,
            Mesh3d(mesh.clone()),
            MeshMaterial3d(material.clone()),
            Transform::from_translation(at),
            Pickable::IGNORE,
        ));
    };
    let values = valuing.shown(&current, &hint);
    let trying = valuing.practice();
    let human_turn =
        current.review().is_none() && !game.is_over() && players.is_human(game.side_to_move());
    let hint = hint
        .0
        .as_ref()
        .filter(|h| h.generation == current.generation() && human_turn);
    // A square with a value shows its figure (board::labels) instead of the dot, which would
    // show through the figure; so does a hinted one, with its ring.
    let hinted = |sq: Square| {
        values.iter().any(|(s, _, _)| *s == sq)
            || hint.is_some_and(|h| h.moves.iter().any(|m| m.mv == Move::Play(sq)))
    };
    // Trying again at a mistake, the player looks for a move: the position's dots show.
    let dots = human_turn || trying.is_some();
    if settings.legal_moves && dots && !busy.0 {
        let legal = game.variant().legal_moves(&current.shown_position());
        for sq in legal.squares().filter(|&sq| !hinted(sq)) {
            spawn(
                &assets.dot,
                &assets.legal,
                square_centre(sq) + Vec3::Y * 0.003,
            );
        }
    }
    // (A line shown numbers its moves instead: `board::labels`.)
    if let (Some(Move::Play(sq)), None) = (current.shown_last_move(), current.line()) {
        // On top of the disc.
        spawn(
            &assets.dot,
            &assets.last,
            square_centre(sq) + Vec3::Y * 0.095,
        );
    }
    // The game review, on a move shown from the move list or at the end of the game: a ring
    // where the better move was (that square is still empty: the move played went elsewhere).
    // (Not while the player tries again: the board shows the position before the mistake; nor
    // while a line from it is shown.)
    if (current.review().is_some() || game.is_over())
        && trying.is_none()
        && current.line().is_none()
        && let Some(m) = review.of_ply(game, current.shown_ply())
        && m.class() != montello_engine::search::review::Class::Best
        && let Move::Play(sq) = m.best
    {
        commands.spawn((
            Marker,
            ReviewRing,
            Mesh3d(assets.ring.clone()),
            MeshMaterial3d(assets.hint.clone()),
            Transform::from_translation(square_centre(sq) + Vec3::Y * 0.004)
                .with_rotation(Quat::from_rotation_x(-std::f32::consts::FRAC_PI_2)),
            Pickable::IGNORE,
        ));
    }
    // The hint's rings: its best three, by the values once they are found (the figures on
    // the squares), by the hint's search until then. Trying again, the best move's ring once
    // the answer is shown.
    let rings: Vec<Move> = if trying.is_some_and(|a| a.state == TryState::Answered) {
        values
            .iter()
            .filter(|(_, _, best)| *best)
            .map(|(sq, _, _)| Move::Play(*sq))
            .collect()
    } else if let Some(hint) = hint {
        if values.is_empty() {
            hint.moves.iter().map(|m| m.mv).collect()
        } else {
            values
                .iter()
                .take(3)
                .map(|(sq, _, _)| Move::Play(*sq))
                .collect()
        }
    } else {
        Vec::new()
    };
    for (rank, mv) in rings.iter().enumerate() {
        if let Move::Play(sq) = *mv {
            let at = square_centre(sq) + Vec3::Y * 0.004;
            // The best move's ring is the full size; the others' are smaller.
            let scale = if rank == 0 { 1.0 } else { 0.72 };
            commands.spawn((
                Marker,
                Mesh3d(assets.ring.clone()),
                MeshMaterial3d(assets.hint.clone()),
                Transform::from_translation(at)
                    .with_rotation(Quat::from_rotation_x(-std::f32::consts::FRAC_PI_2))
                    .with_scale(Vec3::splat(scale)),
                Pickable::IGNORE,
            ));
        }
    }
}

fn flash_refused(
    mut commands: Commands,
    mut refused: MessageReader<TapRefused>,
    assets: Res<MarkerAssets>,
    palette: Res<Palette>,
    mut materials: ResMut<Assets<StandardMaterial>>,
) {
    for tap in refused.read() {
        if matches!(tap.why, Refusal::Animating) {
            continue;
        }
        commands.spawn((
            Flash { left: FLASH },
            Mesh3d(assets.square.clone()),
            MeshMaterial3d(materials.add(unlit(palette.refused))),
            Transform::from_translation(square_centre(tap.square).with_y(FELT_TOP + 0.004)),
            Pickable::IGNORE,
        ));
    }
}

fn fade_flashes(
    mut commands: Commands,
    time: Res<Time>,
    mut flashes: Query<(Entity, &mut Flash, &MeshMaterial3d<StandardMaterial>)>,
    mut materials: ResMut<Assets<StandardMaterial>>,
    palette: Res<Palette>,
) {
    for (entity, mut flash, material) in &mut flashes {
        flash.left -= time.delta_secs();
        if flash.left <= 0.0 {
            materials.remove(&material.0);
            commands.entity(entity).despawn();
        } else if let Some(mut m) = materials.get_mut(&material.0) {
            let alpha = palette.refused.alpha();
            m.base_color = palette.refused.with_alpha(alpha * flash.left / FLASH);
        }
    }
}

/// The ring around an AI's move while its disc hovers before dropping.
#[derive(Component, Debug)]
struct Announcement {
    /// Seconds left.
    left: f32,
}

fn announce_ai_moves(
    mut commands: Commands,
    mut played: MessageReader<MovePlayed>,
    players: Res<Players>,
    settings: Res<Settings>,
    assets: Res<MarkerAssets>,
) {
    for played in played.read() {
        let (Move::Play(sq), Some(scale)) = (played.mv, settings.animations.time_scale()) else {
            continue;
        };
        if players.is_human(played.side) {
            continue;
        }
        commands.spawn((
            Announcement {
                left: ANNOUNCE * scale + 0.1,
            },
            Mesh3d(assets.ring.clone()),
            MeshMaterial3d(assets.hint.clone()),
            Transform::from_translation(square_centre(sq) + Vec3::Y * 0.005)
                .with_rotation(Quat::from_rotation_x(-std::f32::consts::FRAC_PI_2)),
            Pickable::IGNORE,
        ));
    }
}

fn end_announcements(
    mut commands: Commands,
    time: Res<Time>,
    mut rings: Query<(Entity, &mut Announcement)>,
    mut reset: MessageReader<BoardReset>,
) {
    let reset = reset.read().count() > 0;
    for (entity, mut ring) in &mut rings {
        ring.left -= time.delta_secs();
        if ring.left <= 0.0 || reset {
            commands.entity(entity).despawn();
        }
    }
}
