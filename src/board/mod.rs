//! The 3D board: the felt and grid, the discs and their animations, the markers on the
//! squares, labels anchored to the board, the camera that frames it, and the sounds of the
//! discs ([`sound`], timed with their animation).

mod camera;
mod discs;
pub mod haptics;
pub mod labels;
mod markers;
mod scene;
pub mod sound;

use bevy::prelude::*;

pub use discs::move_timeline;
pub use labels::pinned_to;
pub use markers::Flash;
use montello_engine::Square;
pub use scene::Shadows;

pub(super) fn plugin(app: &mut App) {
    app.add_plugins((
        scene::plugin,
        camera::plugin,
        discs::plugin,
        markers::plugin,
        labels::plugin,
    ));
}

/// The side of a square, in world units.
pub const SQUARE: f32 = 1.0;
/// The felt's top surface.
pub const FELT_TOP: f32 = 0.03;
/// The board's half-width including its frame.
pub const BOARD_HALF: f32 = 4.0 + FRAME_WIDTH;
/// The frame around the squares: thin, with just room for the coordinates.
pub const FRAME_WIDTH: f32 = 0.34;

/// The centre of a square on the felt. a1 is top-left as the player sees it: columns run
/// along +x, rows towards the player (+z).
pub fn square_centre(sq: Square) -> Vec3 {
    Vec3::new(
        (f32::from(sq.column()) - 3.5) * SQUARE,
        FELT_TOP,
        (f32::from(sq.row()) - 3.5) * SQUARE,
    )
}

/// A square entity of the board: taps on it become `SquareTapped`.
#[derive(Component, Clone, Copy, Debug)]
pub struct BoardSquare(pub Square);
