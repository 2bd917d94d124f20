//! The player's preferences. Kept in one resource so the settings screen, the board view
//! and (later) the save plugin share one source of truth.

use bevy::prelude::*;
use std::time::Duration;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Settings>();
}

/// What the player chose on the settings screen.
#[derive(Resource, Clone, Debug, PartialEq)]
pub struct Settings {
    /// Show dots on the squares the side to move may play.
    pub legal_moves: bool,
    /// Show a-h / 1-8 along the board's edges.
    pub coordinates: bool,
    /// Animate placed and flipped discs (off: the board changes at once).
    pub animations: bool,
    /// Show the win-probability bar.
    pub win_bar: bool,
    /// How long "White must pass" stays on screen before the AI's pass is played.
    pub pass_notice: Duration,
    /// Seed for the AI's searches; each search uses `seed + ply` so a game replays exactly.
    pub ai_seed: u64,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            legal_moves: true,
            coordinates: true,
            animations: true,
            win_bar: true,
            pass_notice: Duration::from_millis(1200),
            ai_seed: 0x4d6f_6e74_656c_6c6f,
        }
    }
}
