//! Colours and sizes shared by the board and the UI.

use bevy::prelude::*;

pub(super) fn plugin(app: &mut App) {
    app.insert_resource(ClearColor(BACKGROUND));
}

/// Behind the board.
pub const BACKGROUND: Color = Color::srgb(0.09, 0.11, 0.10);
/// The felt of the squares.
pub const FELT: Color = Color::srgb(0.03, 0.30, 0.13);
/// The grid lines between the squares and the star points.
pub const GRID: Color = Color::srgb(0.01, 0.12, 0.05);
/// The board's wooden frame.
pub const FRAME: Color = Color::srgb(0.20, 0.11, 0.05);
/// Black discs.
pub const DISC_BLACK: Color = Color::srgb(0.03, 0.03, 0.035);
/// White discs.
pub const DISC_WHITE: Color = Color::srgb(0.93, 0.93, 0.90);
/// The legal-move dots.
pub const LEGAL: Color = Color::srgba(0.0, 0.0, 0.0, 0.35);
/// The last-move mark.
pub const LAST_MOVE: Color = Color::srgb(0.90, 0.18, 0.12);
/// A refused tap.
pub const REFUSED: Color = Color::srgba(0.95, 0.15, 0.10, 0.55);
/// The hint rings.
pub const HINT: Color = Color::srgb(0.20, 0.55, 1.0);

/// Panels and bars.
pub const PANEL: Color = Color::srgba(0.05, 0.06, 0.06, 0.92);
/// Buttons.
pub const BUTTON: Color = Color::srgb(0.20, 0.24, 0.22);
/// A pressed button.
pub const BUTTON_PRESSED: Color = Color::srgb(0.32, 0.52, 0.38);
/// A selected choice.
pub const BUTTON_SELECTED: Color = Color::srgb(0.12, 0.45, 0.26);
/// Text.
pub const TEXT: Color = Color::srgb(0.94, 0.95, 0.93);
/// Secondary text.
pub const TEXT_DIM: Color = Color::srgb(0.65, 0.68, 0.66);
/// Error text.
pub const TEXT_ERROR: Color = Color::srgb(1.0, 0.55, 0.45);

/// The smallest touch target: about 9 mm on a phone (logical pixels are ~160 per inch).
pub const TOUCH: f32 = 56.0;
/// Body text size.
pub const FONT: f32 = 20.0;

/// The height the HUD takes at the top of the screen; the camera frames the board below it.
pub const HUD_HEIGHT: f32 = 150.0;
/// The height of the toolbar at the bottom of the screen.
pub const TOOLBAR_HEIGHT: f32 = 84.0;
/// In landscape the HUD is a column on the left this wide...
pub const HUD_WIDTH: f32 = 270.0;
/// ...and the toolbar a column on the right this wide.
pub const TOOLBAR_WIDTH: f32 = 130.0;

/// Whether a window this size gets the side-by-side (landscape) layout.
pub fn is_landscape(size: Vec2) -> bool {
    size.x > size.y * 1.15 && size.x > HUD_WIDTH + TOOLBAR_WIDTH + 300.0
}

/// The screen space (logical pixels) the bars take: left, right, top, bottom.
pub fn bar_insets(size: Vec2) -> (f32, f32, f32, f32) {
    if is_landscape(size) {
        (HUD_WIDTH, TOOLBAR_WIDTH, 8.0, 8.0)
    } else {
        (0.0, 0.0, HUD_HEIGHT, TOOLBAR_HEIGHT)
    }
}
