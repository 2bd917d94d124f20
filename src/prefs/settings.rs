//! The player's preferences. Kept in one resource so the settings screen, the board view
//! and the save plugin share one source of truth.

use crate::prefs::i18n::{Lang, Language, SystemLanguage};
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

/// How disc animations play.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum AnimationSpeed {
    /// No animation: the board simply changes.
    Off,
    /// Twice as fast as normal.
    Fast,
    /// The placed disc drops and the flips follow, all done by about 0.55 s.
    #[default]
    Normal,
}

impl AnimationSpeed {
    /// Every speed, in the order the settings screen shows them.
    pub const ALL: [AnimationSpeed; 3] = [
        AnimationSpeed::Off,
        AnimationSpeed::Fast,
        AnimationSpeed::Normal,
    ];

    /// The name settings files store.
    pub const fn name(self) -> &'static str {
        match self {
            AnimationSpeed::Off => "off",
            AnimationSpeed::Fast => "fast",
            AnimationSpeed::Normal => "normal",
        }
    }

    /// The speed with this stored name.
    pub fn from_name(name: &str) -> Option<AnimationSpeed> {
        AnimationSpeed::ALL.into_iter().find(|s| s.name() == name)
    }

    /// The string key of its label.
    pub const fn key(self) -> &'static str {
        match self {
            AnimationSpeed::Off => "anim.off",
            AnimationSpeed::Fast => "anim.fast",
            AnimationSpeed::Normal => "anim.normal",
        }
    }

    /// How much longer than normal each animation takes (`None`: no animation).
    pub fn time_scale(self) -> Option<f32> {
        match self {
            AnimationSpeed::Off => None,
            AnimationSpeed::Fast => Some(0.5),
            AnimationSpeed::Normal => Some(1.0),
        }
    }
}

/// The look of the board and the UI.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum ThemeName {
    /// Green felt in a wooden frame.
    #[default]
    Classic,
    /// A wooden board with dark grid lines.
    Wood,
    /// A dim board for playing at night.
    Dark,
    /// High contrast, readable in greyscale (colour-blind safe).
    Contrast,
}

impl ThemeName {
    /// Every theme, in the order the settings screen shows them.
    pub const ALL: [ThemeName; 4] = [
        ThemeName::Classic,
        ThemeName::Wood,
        ThemeName::Dark,
        ThemeName::Contrast,
    ];

    /// The name settings files and the command line use.
    pub const fn name(self) -> &'static str {
        match self {
            ThemeName::Classic => "classic",
            ThemeName::Wood => "wood",
            ThemeName::Dark => "dark",
            ThemeName::Contrast => "contrast",
        }
    }

    /// The theme with this name.
    pub fn from_name(name: &str) -> Option<ThemeName> {
        ThemeName::ALL
            .into_iter()
            .find(|t| t.name().eq_ignore_ascii_case(name.trim()))
    }

    /// The string key of its label.
    pub const fn key(self) -> &'static str {
        match self {
            ThemeName::Classic => "theme.classic",
            ThemeName::Wood => "theme.wood",
            ThemeName::Dark => "theme.dark",
            ThemeName::Contrast => "theme.contrast",
        }
    }
}

/// How large the UI's text (and with it buttons and bars) is drawn.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum TextSize {
    /// The designed size.
    #[default]
    Normal,
    /// A fifth larger.
    Large,
    /// Two fifths larger.
    Largest,
}

impl TextSize {
    /// Every size, smallest first.
    pub const ALL: [TextSize; 3] = [TextSize::Normal, TextSize::Large, TextSize::Largest];

    /// The name settings files store.
    pub const fn name(self) -> &'static str {
        match self {
            TextSize::Normal => "normal",
            TextSize::Large => "large",
            TextSize::Largest => "largest",
        }
    }

    /// The size with this stored name.
    pub fn from_name(name: &str) -> Option<TextSize> {
        TextSize::ALL.into_iter().find(|s| s.name() == name)
    }

    /// The string key of its label.
    pub const fn key(self) -> &'static str {
        match self {
            TextSize::Normal => "text_size.normal",
            TextSize::Large => "text_size.large",
            TextSize::Largest => "text_size.largest",
        }
    }

    /// The UI scale it stands for.
    pub const fn scale(self) -> f32 {
        match self {
            TextSize::Normal => 1.0,
            TextSize::Large => 1.2,
            TextSize::Largest => 1.4,
        }
    }
}

/// What the player chose on the settings screen.
#[derive(Resource, Clone, Debug, PartialEq)]
pub struct Settings {
    /// Show dots on the squares the side to move may play.
    pub legal_moves: bool,
    /// Show a-h / 1-8 along the board's edges.
    pub coordinates: bool,
    /// How discs animate (off: the board changes at once).
    pub animations: AnimationSpeed,
    /// Show the win-probability bar.
    pub win_bar: bool,
    /// Whether the Hint button asks the AI for the best moves.
    pub hints: bool,
    /// The look of the board and the UI.
    pub theme: ThemeName,
    /// The language chosen in the settings; `None` follows the system's.
    pub language: Option<Lang>,
    /// How large the UI is drawn.
    pub text_size: TextSize,
    /// Sound effects for placing and flipping discs.
    pub sound: bool,
    /// How long "White must pass" stays on screen before the AI's pass is played.
    pub pass_notice: Duration,
    /// Table mode for two players face to face (the phone or tablet flat between them): the
    /// board from straight above, the top player's HUD turned towards them. Takes effect when
    /// both sides are human ([`TableMode`]).
    pub table_mode: bool,
    /// Show the AI's search statistics (positions or playouts, their rate, the chosen move's
    /// win rate, a proven result) in the HUD and the move list.
    pub ai_stats: bool,
    /// Whether a human who has no legal move passes by itself after [`Self::human_pass_notice`]
    /// (as UCThello does); off: the player taps Pass.
    pub auto_pass: bool,
    /// How long a human's "Black must pass" stays on screen before the automatic pass: long
    /// enough to read it (UCThello waits 2.5 s).
    pub human_pass_notice: Duration,
    /// Seed for the AI's searches; each search uses `seed + ply` so a game replays exactly.
    pub ai_seed: u64,
    /// The players' names, Black's then White's, shown on their cards when they are human;
    /// empty: "You" against the AI, "Player 1" / "Player 2" face to face.
    pub names: [String; 2],
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            legal_moves: true,
            coordinates: true,
            animations: AnimationSpeed::Normal,
            win_bar: true,
            hints: true,
            theme: ThemeName::Classic,
            language: None,
            text_size: TextSize::Normal,
            sound: true,
            pass_notice: Duration::from_millis(1200),
            table_mode: false,
            ai_stats: false,
            auto_pass: true,
            human_pass_notice: Duration::from_millis(2500),
            ai_seed: 0x4d6f_6e74_656c_6c6f,
            names: [String::new(), String::new()],
        }
    }
}

/// The longest player's name, in characters: it still fits a player card on a 390-pt phone.
pub const MAX_NAME_CHARS: usize = 14;

/// Where `side`'s name is in [`Settings::names`].
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

/// Whether the board is laid out for two players face to face now: [`Settings::table_mode`]
/// with both sides human (kept up to date by the game flow). Black sits at the bottom, White
/// at the top.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq, Deref)]
pub struct TableMode(pub bool);
