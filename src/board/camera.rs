//! The camera: a slightly tilted view that frames the whole board between the HUD at the top
//! and the toolbar at the bottom, in portrait and in landscape. Bevy's perspective keeps the
//! vertical field of view fixed, so a narrow portrait window would crop the board's sides:
//! the distance is worked out from the window's shape instead.

use super::BOARD_HALF;
use crate::ui::placement::{OpenPanel, Placement, Screen};
use bevy::prelude::*;
use bevy::window::PrimaryWindow;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<ViewTilt>()
        .init_resource::<OpenPanel>()
        .init_resource::<Placement>()
        .add_systems(Startup, spawn_camera)
        .add_systems(Update, tilt_with_gestures)
        .add_systems(PostUpdate, frame_board.before(TransformSystems::Propagate));
}

/// The camera's tilt from looking straight down: none, so every square is as large as the
/// screen allows (a two-finger drag tilts the view to see the discs' edges).
pub const TILT: f32 = 0.0;
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
/// The share of the band's width the board fills: nearly all of it, so that on a phone held
/// upright the squares are as large as the screen allows.
const BAND_FILL: f32 = 0.99;

#[derive(Component, Debug)]
struct BoardCamera;

fn spawn_camera(mut commands: Commands) {
    commands.spawn((
        Name::new("Board camera"),
        BoardCamera,
        Camera3d::default(),
        // How the lit scene's colours map to the screen's (natively Bevy's default).
        crate::platform::display_transform(),
        Projection::Perspective(PerspectiveProjection {
            fov: FOV,
            ..default()
        }),
        Transform::from_xyz(0.0, 20.0, 6.0).looking_at(Vec3::ZERO, Vec3::Y),
    ));
}

fn frame_board(
    placement: Res<Placement>,
    mut cameras: Query<&mut Transform, With<BoardCamera>>,
    tilt: Res<ViewTilt>,
    panel: Res<OpenPanel>,
    mut last: Local<Option<(Screen, f32, bool)>>,
) {
    let Some(screen) = placement.0 else {
        return;
    };
    let size = screen.size;
    // Face to face, both players look at the board from straight above.
    let tilt = if screen.table { 0.0 } else { tilt.0 };
    let state = (screen, tilt, panel.sheet());
    if Some(state) == *last || size.x < 1.0 || size.y < 1.0 {
        return;
    }
    *last = Some(state);
    let Ok(mut transform) = cameras.single_mut() else {
        return;
    };
    *transform = fit(size, screen.areas.board_insets(size, panel.sheet()), tilt);
}

/// The camera transform that fits the board into the band between the bars (`insets`: left,
/// right, top, bottom in logical pixels).
fn fit(size: Vec2, insets: (f32, f32, f32, f32), tilt: f32) -> Transform {
    let aspect = size.x / size.y;
    let (left, right, top, bottom) = insets;
    let top = 1.0 - 2.0 * (top / size.y).min(0.45);
    let bottom = -1.0 + 2.0 * (bottom / size.y).min(0.55);
    let left = -1.0 + 2.0 * (left / size.x).min(0.45);
    let right = 1.0 - 2.0 * (right / size.x).min(0.3);
    let (band_x, band) = (BAND_FILL * (right - left), top - bottom);
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
    use crate::board::{FELT_TOP, SQUARE, square_centre};
    use crate::platform::SafeArea;
    use crate::ui::layout;
    use montello_engine::Square;

    /// Where a point of the board lands on a `size` window seen through `camera`, in logical
    /// pixels from the top-left corner.
    fn on_screen(size: Vec2, camera: &Transform, point: Vec3) -> Vec2 {
        let projection = Mat4::perspective_rh(FOV, size.x / size.y, 0.1, 200.0);
        let ndc = projection.project_point3(camera.to_matrix().inverse().transform_point3(point));
        Vec2::new((ndc.x + 1.0) / 2.0 * size.x, (1.0 - ndc.y) / 2.0 * size.y)
    }

    /// No tilt a gesture can reach, in no window shape, loses any part of the board off the
    /// screen or under the bars, with or without the move list open.
    #[test]
    fn the_whole_board_is_framed_at_every_tilt() {
        for (name, size, safe) in layout::tests::screens() {
            for (table, sheet) in [(false, false), (true, false), (false, true), (true, true)] {
                let areas = layout::areas(size, layout::device_scale(size), &safe, table);
                let insets = areas.board_insets(size, sheet);
                let (left, right, top, bottom) = insets;
                let mut tilt = ViewTilt(TILT_RANGE.0);
                loop {
                    let camera = fit(size, insets, tilt.0);
                    for x in [-BOARD_HALF, BOARD_HALF] {
                        for z in [-BOARD_HALF, BOARD_HALF] {
                            let p = on_screen(size, &camera, Vec3::new(x, 0.0, z));
                            let at = format!(
                                "{name}, table {table}, sheet {sheet}, tilt {:.2}: corner at {p:.0}",
                                tilt.0
                            );
                            assert!(p.x >= left - 1.0 && p.x <= size.x - right + 1.0, "{at}");
                            assert!(p.y >= top - 1.0 && p.y <= size.y - bottom + 1.0, "{at}");
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

    /// The smallest side of any square on screen (logical pixels = points) in the default
    /// view.
    fn smallest_square(size: Vec2, safe: &SafeArea, table: bool) -> f32 {
        let areas = layout::areas(size, layout::device_scale(size), safe, table);
        let tilt = if table { 0.0 } else { TILT };
        let camera = fit(size, areas.board_insets(size, false), tilt);
        let half = SQUARE / 2.0;
        let mut smallest = f32::MAX;
        for index in 0..64 {
            let centre = square_centre(Square::from_index(index).expect("a square"));
            let corner = |dx: f32, dz: f32| {
                on_screen(
                    size,
                    &camera,
                    Vec3::new(centre.x + dx, FELT_TOP, centre.z + dz),
                )
            };
            let (tl, tr, bl) = (
                corner(-half, -half),
                corner(half, -half),
                corner(-half, half),
            );
            smallest = smallest.min(tl.distance(tr)).min(tl.distance(bl));
        }
        smallest
    }

    /// Apple's and Google's touch target: 44 points. A 390x844 phone held upright (an iPhone
    /// 14 with its notch and home indicator) gets squares at least that large, and a tablet
    /// far larger.
    #[test]
    fn squares_are_touch_targets_on_a_phone_held_upright() {
        let notch = SafeArea {
            top: 47.0,
            bottom: 34.0,
            ..default()
        };
        let phone = smallest_square(Vec2::new(390.0, 844.0), &notch, false);
        assert!(phone >= 44.0, "squares of {phone:.1} pt at 390x844");
        // Every other screen, no smaller than measured when the frame was thinned and the
        // coordinates went to two sides (lying down, the height and the side columns bound
        // the board).
        for ((name, size, safe), least) in layout::tests::screens()
            .into_iter()
            .zip([44.0, 40.0, 40.0, 28.0, 94.0, 80.0])
        {
            let side = smallest_square(size, &safe, false);
            assert!(side >= least, "{name}: squares of {side:.1} pt");
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
