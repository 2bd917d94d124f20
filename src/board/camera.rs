//! The camera: a slightly tilted view that frames the whole board between the HUD at the top
//! and the toolbar at the bottom, in portrait and in landscape. Bevy's perspective keeps the
//! vertical field of view fixed, so a narrow portrait window would crop the board's sides:
//! the distance is worked out from the window's shape instead.

use super::BOARD_HALF;
use crate::platform::SafeArea;
use crate::settings::TableMode;
use crate::theme;
use bevy::prelude::*;
use bevy::window::PrimaryWindow;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<ViewTilt>()
        .add_systems(Startup, spawn_camera)
        .add_systems(Update, tilt_with_gestures)
        .add_systems(PostUpdate, frame_board.before(TransformSystems::Propagate));
}

/// The camera's tilt from looking straight down: enough to see the discs' edges.
pub const TILT: f32 = 0.30;
/// The tilt range a gesture can reach: from straight down to a low perspective view.
const TILT_RANGE: (f32, f32) = (0.0, 0.80);
/// Radians of tilt per logical pixel of drag.
const TILT_PER_PIXEL: f32 = 0.004;
/// Two taps closer than this in time and space are a double tap.
const DOUBLE_TAP: (f32, f32) = (0.35, 40.0);

/// How far the view is tilted from straight down (radians). Two fingers dragged up or down
/// (or the mouse's right button) tilt it; a double tap puts it back. Whatever the tilt, the
/// camera is fitted so the whole board stays on screen.
#[derive(Resource, Clone, Copy, Debug, PartialEq)]
pub struct ViewTilt(pub f32);

impl Default for ViewTilt {
    fn default() -> Self {
        ViewTilt(TILT)
    }
}

impl ViewTilt {
    /// The tilt after dragging `dy` logical pixels (down tilts towards a flat, top-down view).
    pub fn dragged(self, dy: f32) -> ViewTilt {
        ViewTilt((self.0 - dy * TILT_PER_PIXEL).clamp(TILT_RANGE.0, TILT_RANGE.1))
    }
}

/// The last tap, for spotting a double tap: when (seconds) and where.
#[derive(Default)]
struct LastTap(Option<(f32, Vec2)>);

fn tilt_with_gestures(
    touches: Res<Touches>,
    mouse: Res<ButtonInput<MouseButton>>,
    mut motion: MessageReader<bevy::input::mouse::MouseMotion>,
    windows: Query<&Window, With<PrimaryWindow>>,
    time: Res<Time<Real>>,
    mut tilt: ResMut<ViewTilt>,
    mut last_tap: Local<LastTap>,
) {
    let mut dy = 0.0;
    // Two fingers moving together: their mean vertical movement.
    let moving: Vec<_> = touches.iter().collect();
    if moving.len() == 2 {
        dy = moving.iter().map(|t| t.delta().y).sum::<f32>() / 2.0;
    }
    if mouse.pressed(MouseButton::Right) {
        dy += motion.read().map(|m| m.delta.y).sum::<f32>();
    } else {
        motion.clear();
    }
    if dy != 0.0 {
        let next = tilt.dragged(dy);
        if next != *tilt {
            *tilt = next;
        }
    }
    // A double tap (finger or left button) puts the view back.
    let tap = touches
        .iter_just_pressed()
        .map(|t| t.position())
        .next()
        .or_else(|| {
            mouse
                .just_pressed(MouseButton::Left)
                .then(|| windows.single().ok().and_then(Window::cursor_position))
                .flatten()
        });
    if let Some(at) = tap {
        let now = time.elapsed_secs();
        if let Some((then, was)) = last_tap.0
            && now - then < DOUBLE_TAP.0
            && at.distance(was) < DOUBLE_TAP.1
        {
            if *tilt != ViewTilt::default() {
                *tilt = ViewTilt::default();
            }
            last_tap.0 = None;
        } else {
            last_tap.0 = Some((now, at));
        }
    }
}
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
    tilt: Res<ViewTilt>,
    safe: Res<SafeArea>,
    table: Res<TableMode>,
    mut last: Local<(Vec2, f32, f32, SafeArea, bool)>,
) {
    let Ok(window) = windows.single() else {
        return;
    };
    let size = Vec2::new(window.width(), window.height());
    // Face to face, both players look at the board from straight above.
    let tilt = if table.0 { 0.0 } else { tilt.0 };
    let state = (size, ui_scale.0, tilt, *safe, table.0);
    if state == *last || size.x < 1.0 || size.y < 1.0 {
        return;
    }
    *last = state;
    let Ok(mut transform) = cameras.single_mut() else {
        return;
    };
    *transform = fit(
        size,
        theme::scaled_bar_insets(size, ui_scale.0, &safe, table.0),
        tilt,
    );
}

/// The camera transform that fits the board into the band between the bars (`insets`: left,
/// right, top, bottom in logical pixels).
fn fit(size: Vec2, insets: (f32, f32, f32, f32), tilt: f32) -> Transform {
    let aspect = size.x / size.y;
    let (left, right, top, bottom) = insets;
    let top = 1.0 - 2.0 * (top / size.y).min(0.4);
    let bottom = -1.0 + 2.0 * (bottom / size.y).min(0.4);
    let left = -1.0 + 2.0 * (left / size.x).min(0.45);
    let right = 1.0 - 2.0 * (right / size.x).min(0.3);
    let (band_x, band) = (0.97 * (right - left), top - bottom);
    let (centre_x, centre) = ((left + right) / 2.0, (top + bottom) / 2.0);
    let projection = Mat4::perspective_rh(FOV, aspect, 0.1, 200.0);
    let back = Vec3::new(0.0, tilt.cos(), tilt.sin());
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

#[cfg(test)]
mod tests {
    use super::*;

    /// No tilt a gesture can reach, in no window shape, loses any part of the board off the
    /// screen or under the bars.
    #[test]
    fn the_whole_board_is_framed_at_every_tilt() {
        let none = SafeArea::default();
        // An iPhone with a notch, upright and on its side.
        let notch = SafeArea {
            top: 47.0,
            bottom: 34.0,
            ..none
        };
        let sideways = SafeArea {
            left: 47.0,
            right: 47.0,
            bottom: 21.0,
            ..none
        };
        for (w, h, safe) in [
            (360.0, 640.0, none),
            (640.0, 360.0, none),
            (834.0, 1194.0, none),
            (1194.0, 834.0, none),
            (390.0, 844.0, notch),
            (844.0, 390.0, sideways),
        ] {
            let size = Vec2::new(w, h);
            for table in [false, true] {
                let insets = theme::scaled_bar_insets(size, 1.0, &safe, table);
                let (left, right, top, bottom) = insets;
                let projection = Mat4::perspective_rh(FOV, w / h, 0.1, 200.0);
                let mut tilt = ViewTilt(TILT_RANGE.0);
                loop {
                    let view = fit(size, insets, tilt.0).to_matrix().inverse();
                    for x in [-BOARD_HALF, BOARD_HALF] {
                        for z in [-BOARD_HALF, BOARD_HALF] {
                            let ndc = projection
                                .project_point3(view.transform_point3(Vec3::new(x, 0.0, z)));
                            // NDC to logical pixels from the top-left corner.
                            let px = (ndc.x + 1.0) / 2.0 * w;
                            let py = (1.0 - ndc.y) / 2.0 * h;
                            let at = format!(
                                "{w}x{h}, table {table}, tilt {:.2}: corner at ({px:.0}, {py:.0})",
                                tilt.0
                            );
                            assert!(px >= left - 1.0 && px <= w - right + 1.0, "{at}");
                            assert!(py >= top - 1.0 && py <= h - bottom + 1.0, "{at}");
                        }
                    }
                    if tilt.0 >= TILT_RANGE.1 {
                        break;
                    }
                    tilt = tilt.dragged(-25.0);
                }
            }
        }
    }

    #[test]
    fn drags_tilt_within_the_range() {
        let flat = ViewTilt::default().dragged(10_000.0);
        assert_eq!(
            flat.0, TILT_RANGE.0,
            "dragging down reaches top-down and stops"
        );
        let low = ViewTilt::default().dragged(-10_000.0);
        assert_eq!(low.0, TILT_RANGE.1);
        assert!(ViewTilt::default().dragged(-10.0).0 > TILT);
    }
}
