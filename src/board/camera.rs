//! The camera: a slightly tilted view that frames the whole board between the HUD at the top
//! and the toolbar at the bottom, in portrait and in landscape. Bevy's perspective keeps the
//! vertical field of view fixed, so a narrow portrait window would crop the board's sides:
//! the distance is worked out from the window's shape instead.

use super::BOARD_HALF;
use crate::theme;
use bevy::prelude::*;
use bevy::window::PrimaryWindow;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Startup, spawn_camera)
        .add_systems(PostUpdate, frame_board.before(TransformSystems::Propagate));
}

/// The camera's tilt from looking straight down: enough to see the discs' edges.
const TILT: f32 = 0.30;
/// Vertical field of view.
const FOV: f32 = 0.55;

#[derive(Component, Debug)]
struct BoardCamera;

fn spawn_camera(mut commands: Commands) {
    commands.spawn((
        BoardCamera,
        Camera3d::default(),
        Projection::Perspective(PerspectiveProjection {
            fov: FOV,
            ..default()
        }),
        Transform::from_xyz(0.0, 20.0, 6.0).looking_at(Vec3::ZERO, Vec3::Y),
    ));
}

fn frame_board(
    windows: Query<&Window, With<PrimaryWindow>>,
    mut cameras: Query<&mut Transform, With<BoardCamera>>,
    ui_scale: Res<UiScale>,
    mut last: Local<(Vec2, f32)>,
) {
    let Ok(window) = windows.single() else {
        return;
    };
    let size = Vec2::new(window.width(), window.height());
    if (size, ui_scale.0) == *last || size.x < 1.0 || size.y < 1.0 {
        return;
    }
    *last = (size, ui_scale.0);
    let Ok(mut transform) = cameras.single_mut() else {
        return;
    };
    *transform = fit(size, theme::scaled_bar_insets(size, ui_scale.0));
}

/// The camera transform that fits the board into the band between the bars (`insets`: left,
/// right, top, bottom in logical pixels).
fn fit(size: Vec2, insets: (f32, f32, f32, f32)) -> Transform {
    let aspect = size.x / size.y;
    let (left, right, top, bottom) = insets;
    let top = 1.0 - 2.0 * (top / size.y).min(0.4);
    let bottom = -1.0 + 2.0 * (bottom / size.y).min(0.3);
    let left = -1.0 + 2.0 * (left / size.x).min(0.45);
    let right = 1.0 - 2.0 * (right / size.x).min(0.3);
    let (band_x, band) = (0.97 * (right - left), top - bottom);
    let (centre_x, centre) = ((left + right) / 2.0, (top + bottom) / 2.0);
    let projection = Mat4::perspective_rh(FOV, aspect, 0.1, 200.0);
    let back = Vec3::new(0.0, TILT.cos(), TILT.sin());
    let (mut distance, mut shift, mut shift_x) = (25.0_f32, 0.0_f32, 0.0_f32);
    let mut transform = Transform::default();
    for _ in 0..12 {
        let eye = back * distance;
        transform = Transform::from_translation(eye).looking_at(Vec3::ZERO, Vec3::NEG_Z);
        transform.translation += transform.up() * shift + transform.right() * shift_x;
        let view = transform.to_matrix().inverse();
        let (mut lo, mut hi) = (Vec2::splat(f32::MAX), Vec2::splat(f32::MIN));
        for x in [-BOARD_HALF, BOARD_HALF] {
            for y in [-0.4, 0.25] {
                for z in [-BOARD_HALF, BOARD_HALF] {
                    let p = projection.project_point3(view.transform_point3(Vec3::new(x, y, z)));
                    lo = lo.min(p.truncate());
                    hi = hi.max(p.truncate());
                }
            }
        }
        let scale = ((hi.x - lo.x) / band_x).max((hi.y - lo.y) / band);
        // Moving the camera up moves the board down the screen by about this much.
        let ndc_per_unit = 1.0 / (distance * (FOV / 2.0).tan());
        shift += ((hi.y + lo.y) / 2.0 - centre) / ndc_per_unit;
        shift_x += ((hi.x + lo.x) / 2.0 - centre_x) / (ndc_per_unit / aspect);
        distance *= scale;
    }
    transform
}
