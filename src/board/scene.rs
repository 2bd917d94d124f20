//! The board itself: frame, grid, 64 felt squares (the pick targets), star points, lights.

use super::{BOARD_HALF, BoardSquare, FELT_TOP, SQUARE, square_centre};
use crate::game::flow::SquareTapped;
use crate::ui::theme::BoardMaterials;
use bevy::light::DirectionalLightShadowMap;
use bevy::prelude::*;
use montello_engine::Square;

pub(super) fn plugin(app: &mut App) {
    app.insert_resource(GlobalAmbientLight {
        color: Color::WHITE,
        brightness: 350.0,
        affects_lightmapped_meshes: true,
    })
    .insert_resource(DirectionalLightShadowMap { size: 1024 })
    .add_systems(Startup, spawn_board);
}

/// The gap between squares that shows the grid below.
const GAP: f32 = 0.045;

/// Whether the sun casts the discs' shadows: on, except on Android where Bevy's mobile
/// example turns them off for driver reasons (and they cost the most fill rate there);
/// `--shadows on|off` says otherwise (the app layer sets it from the command line).
#[derive(Resource, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shadows(pub bool);

impl Default for Shadows {
    fn default() -> Self {
        Shadows(!cfg!(target_os = "android"))
    }
}

fn spawn_board(
    mut commands: Commands,
    mut meshes: ResMut<Assets<Mesh>>,
    materials: Res<BoardMaterials>,
    shadows: Option<Res<Shadows>>,
) {
    // The frame, its top just below the felt.
    commands.spawn((
        Name::new("Board frame"),
        Mesh3d(meshes.add(Cuboid::new(BOARD_HALF * 2.0, 0.4, BOARD_HALF * 2.0))),
        MeshMaterial3d(materials.frame.clone()),
        Transform::from_xyz(0.0, -0.2, 0.0),
        Pickable::IGNORE,
    ));
    // The grid: a dark slab under the squares, seen through the gaps.
    commands.spawn((
        Name::new("Board grid"),
        Mesh3d(meshes.add(Cuboid::new(8.0 * SQUARE + GAP, 0.02, 8.0 * SQUARE + GAP))),
        MeshMaterial3d(materials.grid.clone()),
        Transform::from_xyz(0.0, 0.01, 0.0),
        Pickable::IGNORE,
    ));
    // The squares: felt tiles, each a pick target.
    let tile = meshes.add(Cuboid::new(SQUARE - GAP, 0.02, SQUARE - GAP));
    let felt = materials.felt.clone();
    for sq in Square::ALL {
        commands
            .spawn((
                Name::new(format!("Square {sq}")),
                Mesh3d(tile.clone()),
                MeshMaterial3d(felt.clone()),
                Transform::from_translation(square_centre(sq) - Vec3::Y * 0.01),
                BoardSquare(sq),
            ))
            .observe(on_square_click);
    }
    // The four star points, on the corners shared by b2/c3, f2/g3, b6/c7 and f6/g7.
    let dot = meshes.add(Cylinder::new(0.075, 0.004));
    let dot_material = materials.grid.clone();
    for (x, z) in [(-2.0, -2.0), (2.0, -2.0), (-2.0, 2.0), (2.0, 2.0)] {
        commands.spawn((
            Name::new("Star point"),
            Mesh3d(dot.clone()),
            MeshMaterial3d(dot_material.clone()),
            Transform::from_xyz(x * SQUARE, FELT_TOP + 0.002, z * SQUARE),
            Pickable::IGNORE,
        ));
    }
    commands.spawn((
        Name::new("Sun"),
        DirectionalLight {
            illuminance: 9_000.0,
            shadow_maps_enabled: shadows.map_or_else(|| Shadows::default().0, |s| s.0),
            ..default()
        },
        Transform::from_xyz(-3.0, 12.0, 6.0).looking_at(Vec3::ZERO, Vec3::Y),
    ));
}

fn on_square_click(
    click: On<Pointer<Click>>,
    squares: Query<&BoardSquare>,
    mut taps: MessageWriter<SquareTapped>,
) {
    if click.button != PointerButton::Primary {
        return;
    }
    if let Ok(square) = squares.get(click.entity) {
        taps.write(SquareTapped(square.0));
    }
}
