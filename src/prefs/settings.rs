//! The player's preferences. Kept in one resource so the settings screen, the board view
//! and the save plugin share one source of truth.

use crate::prefs::choices::Preferences;
use crate::prefs::i18n::{Language, SystemLanguage};
use bevy::prelude::*;
use montello_engine::Side;
use std::time::Duration;

pub(crate) fn plugin(app: &mut App) {
    app.init_resource::<Settings>()
        .add_systems(PreStartup, follow_settings.in_set(PrefsSystems::Apply))
        .add_systems(PreUpdate, follow_settings);
}

/// Where the preferences take effect at start; the persistence layer restores the saved
/// settings before it (the language is then the saved one from the first frame).
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PrefsSystems {
    /// Follow the settings (the language).
    Apply,
}

/// Speaks the language chosen in the settings, or the system's (so i18n, below, knows
/// nothing of the settings).
fn follow_settings(
    settings: Res<Settings>,
    system: Res<SystemLanguage>,
    mut language: ResMut<Language>,
) {
    let lang = settings.language.unwrap_or(system.0);
    if language.0 != lang {
        language.0 = lang;
    }
}

/// What the player chose on the settings screen ([`Preferences`], saved; read through `Deref`,
/// so `settings.theme` is the saved choice) and the few knobs that are not saved.
#[derive(Resource, Clone, Debug, PartialEq, Deref, DerefMut)]
pub struct Settings {
    /// The saved choices.
    #[deref]
    pub prefs: Preferences,
    /// How long "White must pass" stays on screen before the AI's pass is played.
    pub pass_notice: Duration,
    /// How long a human's "Black must pass" stays on screen before the automatic pass
    /// ([`Preferences::auto_pass`]): long enough to read it (UCThello waits 2.5 s).
    pub human_pass_notice: Duration,
    /// Seed for the AI's searches; each search uses `seed + ply` so a game replays exactly.
    pub ai_seed: u64,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            prefs: Preferences::default(),
            pass_notice: Duration::from_millis(1200),
            human_pass_notice: Duration::from_millis(2500),
            ai_seed: 0x4d6f_6e74_656c_6c6f,
        }
    }
}

/// The longest player's name, in characters: it still fits a player card on a 390-pt phone.
pub const MAX_NAME_CHARS: usize = 14;

/// Where `side`'s name is in [`Preferences::names`].
pub fn name_slot(side: Side) -> usize {
    match side {
        Side::Black => 0,
        Side::White => 1,
    }
}

/// Whether a name may hold `c`: a printable character the UI font draws.
pub fn name_allowed(c: char) -> bool {
    !c.is_control() && crate::prefs::i18n::font_has(c)
}

/// A name as stored: characters the UI font cannot draw dropped, white space trimmed and
/// each run of it made one space, at most [`MAX_NAME_CHARS`]. What a player types and what a
/// hand-edited settings file holds both go through it.
pub fn clean_name(text: &str) -> String {
    let kept: String = text
        .chars()
        .map(|c| if c.is_whitespace() { ' ' } else { c })
        .filter(|&c| name_allowed(c))
        .collect();
    let single: Vec<&str> = kept.split(' ').filter(|w| !w.is_empty()).collect();
    let cut: String = single.join(" ").chars().take(MAX_NAME_CHARS).collect();
    cut.trim_end().to_string()
}

/// Whether the board is laid out for two players face to face now: [`Preferences::table_mode`]
/// with both sides human (kept up to date by the game flow). Black sits at the bottom, White
/// at the top.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq, Deref)]
pub struct TableMode(pub bool);
