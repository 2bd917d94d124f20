//! The discs: one entity per occupied square, black half up or white half up. The game state
//! changes at once; only this view animates: a placed disc drops in and the flipped discs turn
//! over one after another, outwards from the placed disc, in under 0.6 s. The next tap skips
//! the animation; with animations off the board simply changes.

use super::{FELT_TOP, square_centre};
use crate::AppSystems;
use crate::game::flow::{
    BoardReset, CountLag, CurrentGame, MovePlayed, Refusal, TapRefused, ViewBusy,
};
use crate::game::players::Players;
use crate::prefs::settings::Settings;
use crate::ui::theme::BoardMaterials;
use bevy::prelude::*;
use montello_engine::{Move, Position, Side, Square};
use std::f32::consts::PI;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Startup, load_assets).add_systems(
        Update,
        (rebuild_on_reset, animate_moves, skip_on_tap, run_animations)
            .chain()
            .in_set(AppSystems::View),
    );
}

/// Disc radius and thickness.
const RADIUS: f32 = 0.41;
const HALF_THICKNESS: f32 = 0.045;
/// The drop of a placed disc, and each flip, in seconds.
const DROP: f32 = 0.16;
const FLIP: f32 = 0.24;
/// An AI's move is announced first: its disc hovers over the square, ringed, this long
/// before it drops (a human sees where it went before the flips start).
pub const ANNOUNCE: f32 = 0.30;
/// The first flip starts after this; the farthest starts `STAGGER` later.
const FIRST_FLIP: f32 = 0.10;
const STAGGER: f32 = 0.20;

/// When the parts of a move's animation happen, in seconds after the move was played.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveTimeline {
    /// The placed disc starts to drop (after an AI's announcement).
    pub drop_start: f32,
    /// ...and lands.
    pub landed: f32,
    /// Each flipped disc: its square and when it starts to turn over.
    pub flips: Vec<(Square, f32)>,
    /// How long one flip takes.
    pub flip_duration: f32,
}

/// The timeline of `placed` turning over `flipped`, announced first or not, at animation
/// `scale` (1 normal, 0.5 fast). The discs' animations and the sounds both follow it.
pub fn move_timeline(placed: Square, flipped: u64, announced: bool, scale: f32) -> MoveTimeline {
    let drop_start = if announced { ANNOUNCE * scale } else { 0.0 };
    let flips = (0..64u8)
        .filter(|i| flipped & (1u64 << i) != 0)
        .filter_map(Square::from_index)
        .map(|square| {
            let dx = i32::from(square.column()) - i32::from(placed.column());
            let dz = i32::from(square.row()) - i32::from(placed.row());
            let steps = dx.abs().max(dz.abs()).max(1) as f32;
            let start = drop_start + scale * (FIRST_FLIP + STAGGER * (steps - 1.0) / 6.0);
            (square, start)
        })
        .collect();
    MoveTimeline {
        drop_start,
        landed: drop_start + DROP * scale,
        flips,
        flip_duration: FLIP * scale,
    }
}

/// A disc on the board.
#[derive(Component, Debug)]
pub struct Disc {
    /// Where it lies.
    pub square: Square,
}

#[derive(Component, Debug)]
struct DiscAnimation {
    /// The side it shows once done.
    side: Side,
    start: f32,
    duration: f32,
    from: Quat,
    to: Quat,
    axis: Vec3,
    drop: bool,
}

#[derive(Resource)]
struct DiscAssets {
    mesh: Handle<Mesh>,
    black: Handle<StandardMaterial>,
    white: Handle<StandardMaterial>,
    /// The ring at the edge of the black face ([`crate::ui::theme::Palette::disc_rim`]).
    rim_mesh: Handle<Mesh>,
    rim: Handle<StandardMaterial>,
}

/// The ring at the edge of a black disc's face: from this share of the radius outwards.
const RIM_INNER: f32 = 0.84;

fn load_assets(
    mut commands: Commands,
    mut meshes: ResMut<Assets<Mesh>>,
    materials: Res<BoardMaterials>,
) {
    commands.insert_resource(DiscAssets {
        mesh: meshes.add(Cylinder::new(RADIUS, HALF_THICKNESS).mesh().resolution(40)),
        black: materials.disc_black.clone(),
        white: materials.disc_white.clone(),
        rim_mesh: meshes.add(
            Annulus::new(RADIUS * RIM_INNER, RADIUS)
                .mesh()
                .resolution(40),
        ),
        rim: materials.disc_rim.clone(),
    });
}

/// Black half up: identity; white half up: turned over.
fn rotation(side: Side) -> Quat {
    match side {
        Side::Black => Quat::IDENTITY,
        Side::White => Quat::from_rotation_z(PI),
    }
}

fn rest_height() -> f32 {
    FELT_TOP + HALF_THICKNESS
}

fn spawn_disc(commands: &mut Commands, assets: &DiscAssets, square: Square, rot: Quat) -> Entity {
    let half = |material: &Handle<StandardMaterial>, y: f32| {
        (
            Mesh3d(assets.mesh.clone()),
            MeshMaterial3d(material.clone()),
            Transform::from_xyz(0.0, y, 0.0),
            Pickable::IGNORE,
        )
    };
    commands
        .spawn((
            Name::new(format!("Disc {square}")),
            Disc { square },
            Transform::from_translation(square_centre(square).with_y(rest_height()))
                .with_rotation(rot),
            Visibility::default(),
            Pickable::IGNORE,
            children![
                half(&assets.black, HALF_THICKNESS / 2.0),
                half(&assets.white, -HALF_THICKNESS / 2.0),
                (
                    // On the black face, facing up with it (the annulus is drawn facing +Z);
                    // turned over with the disc, it faces down, under the white face.
                    Mesh3d(assets.rim_mesh.clone()),
                    MeshMaterial3d(assets.rim.clone()),
                    Transform::from_xyz(0.0, HALF_THICKNESS + 0.001, 0.0)
                        .with_rotation(Quat::from_rotation_x(-PI / 2.0)),
                    Pickable::IGNORE,
                ),
            ],
        ))
        .id()
}

fn show_position(
    commands: &mut Commands,
    assets: &DiscAssets,
    discs: &Query<(Entity, &Disc)>,
    pos: &Position,
) {
    for (entity, _) in discs {
        commands.entity(entity).despawn();
    }
    for square in Square::ALL {
        if let Some(side) = pos.disc_at(square) {
            spawn_disc(commands, assets, square, rotation(side));
        }
    }
}

fn rebuild_on_reset(
    mut commands: Commands,
    mut resets: MessageReader<BoardReset>,
    assets: Res<DiscAssets>,
    current: Res<CurrentGame>,
    discs: Query<(Entity, &Disc)>,
    mut started: Local<bool>,
) {
    if resets.read().count() == 0 && *started {
        return;
    }
    *started = true;
    show_position(&mut commands, &assets, &discs, &current.shown_position());
}

fn animate_moves(
    mut commands: Commands,
    mut played: MessageReader<MovePlayed>,
    assets: Res<DiscAssets>,
    settings: Res<Settings>,
    players: Res<Players>,
    time: Res<Time>,
    discs: Query<(Entity, &Disc)>,
    mut transforms: Query<&mut Transform>,
    animations: Query<(Entity, &DiscAnimation, &Disc)>,
) {
    for played in played.read() {
        finish_all(&mut commands, &animations, &mut transforms);
        let Move::Play(placed) = played.mv else {
            continue;
        };
        let Some(scale) = settings.animations.time_scale() else {
            show_position(&mut commands, &assets, &discs, &played.after);
            continue;
        };
        let timeline = move_timeline(
            placed,
            played.flipped(),
            !players.is_human(played.side),
            scale,
        );
        let now = time.elapsed_secs();
        let up = rotation(played.side);
        let disc = spawn_disc(&mut commands, &assets, placed, up);
        commands.entity(disc).insert(DiscAnimation {
            side: played.side,
            start: now + timeline.drop_start,
            duration: timeline.landed - timeline.drop_start,
            from: up,
            to: up,
            axis: Vec3::X,
            drop: true,
        });
        for (entity, disc) in &discs {
            let Some(&(_, start)) = timeline.flips.iter().find(|(sq, _)| *sq == disc.square) else {
                continue;
            };
            let dx = i32::from(disc.square.column()) - i32::from(placed.column());
            let dz = i32::from(disc.square.row()) - i32::from(placed.row());
            // Turn over about the axis across the line from the placed disc.
            let axis = Vec3::new(-(dz as f32), 0.0, dx as f32).normalize_or(Vec3::X);
            commands.entity(entity).insert(DiscAnimation {
                side: played.side,
                start: now + start,
                duration: timeline.flip_duration,
                from: rotation(played.side.opposite()),
                to: up,
                axis,
                drop: false,
            });
        }
    }
}

fn finish_all(
    commands: &mut Commands,
    animations: &Query<(Entity, &DiscAnimation, &Disc)>,
    transforms: &mut Query<&mut Transform>,
) {
    for (entity, animation, disc) in animations {
        if let Ok(mut transform) = transforms.get_mut(entity) {
            transform.rotation = animation.to;
            transform.translation = square_centre(disc.square).with_y(rest_height());
        }
        commands.entity(entity).remove::<DiscAnimation>();
    }
}

fn skip_on_tap(
    mut commands: Commands,
    mut refused: MessageReader<TapRefused>,
    animations: Query<(Entity, &DiscAnimation, &Disc)>,
    mut transforms: Query<&mut Transform>,
) {
    if refused.read().any(|r| r.why == Refusal::Animating) {
        finish_all(&mut commands, &animations, &mut transforms);
    }
}

/// Where a disc resting at `rest` is drawn lifted `height` above the board: up the line from
/// its square to the camera's eye (`eye`), so that seen from the camera it stays over its
/// square (straight up, the perspective would draw it drifting off towards the screen's
/// edge); straight up without a camera, or an eye not above the lifted disc.
pub fn lifted(rest: Vec3, eye: Option<Vec3>, height: f32) -> Vec3 {
    match eye {
        Some(eye) if eye.y > rest.y + height + 0.1 => {
            let towards = eye - rest;
            rest + towards * (height / towards.y)
        }
        _ => rest + Vec3::Y * height,
    }
}

fn run_animations(
    mut commands: Commands,
    time: Res<Time>,
    mut animations: Query<(Entity, &DiscAnimation, &Disc, &mut Transform)>,
    cameras: Query<&GlobalTransform, With<Camera3d>>,
    mut busy: ResMut<ViewBusy>,
    mut lag: ResMut<CountLag>,
) {
    let now = time.elapsed_secs();
    let eye = cameras.single().ok().map(GlobalTransform::translation);
    let mut any = false;
    let mut in_flight = Vec::new();
    for (entity, animation, disc, mut transform) in &mut animations {
        let t = ((now - animation.start) / animation.duration).clamp(0.0, 1.0);
        in_flight.push((animation.drop, animation.side, t));
        let eased = t * t * (3.0 - 2.0 * t);
        let rest = square_centre(disc.square).with_y(rest_height());
        if animation.drop {
            transform.translation = lifted(rest, eye, 0.9 * (1.0 - eased));
        } else {
            transform.rotation = Quat::from_axis_angle(animation.axis, PI * eased) * animation.from;
            // The turned disc must end exactly on the other face.
            if t >= 1.0 {
                transform.rotation = animation.to;
            }
            transform.translation = lifted(rest, eye, 0.45 * (PI * t).sin());
        }
        if t >= 1.0 {
            commands.entity(entity).remove::<DiscAnimation>();
        } else {
            any = true;
        }
    }
    if busy.0 != any {
        busy.0 = any;
    }
    lag.set_if_neq(CountLag::of_discs(in_flight));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_lifted_disc_stays_over_its_square_as_the_camera_sees_it() {
        let eye = Vec3::new(0.3, 14.0, 2.0);
        for square in ["a1", "h8", "d5"] {
            let rest = square_centre(square.parse().expect("square")).with_y(rest_height());
            let up = lifted(rest, Some(eye), 0.9);
            // As high as asked, and on the line from the square to the eye: it projects
            // onto its own square.
            assert!((up.y - rest.y - 0.9).abs() < 1e-5, "{square}: {up}");
            let to_eye = (eye - rest).normalize();
            let to_disc = (up - rest).normalize();
            assert!(
                to_eye.dot(to_disc) > 0.99999,
                "{square}: {to_eye} vs {to_disc}"
            );
            // A corner's disc leans towards the middle, where the eye is; straight up it
            // would have drifted outwards on the screen.
            if square == "a1" {
                assert!(up.x > rest.x && up.z > rest.z, "{up} from {rest}");
            }
            // Landed, it lies on its square.
            assert_eq!(lifted(rest, Some(eye), 0.0), rest);
        }
        // No camera (or one below): straight up.
        let rest = Vec3::new(1.5, rest_height(), -0.5);
        assert_eq!(lifted(rest, None, 0.5), rest + Vec3::Y * 0.5);
        assert_eq!(
            lifted(rest, Some(Vec3::new(0.0, 0.2, 0.0)), 0.5),
            rest + Vec3::Y * 0.5
        );
    }
}
