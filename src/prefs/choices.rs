//! The player's choices as the settings file holds them: plain data with serde, no Bevy, so
//! the save-file fuzzer (engine/fuzz) compiles this file as it is. The settings resource
//! ([`crate::prefs::settings::Settings`]) wraps [`Preferences`]; the settings file
//! ([`crate::persist::save_format::SavedSettings`]) holds it. A new setting is one field here.

use serde::{Deserialize, Serialize};

/// A language Montello is translated into.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Lang {
    /// English (the reference).
    #[default]
    En,
    /// Japanese: Othello's home.
    Ja,
    /// French.
    Fr,
    /// German.
    De,
}

impl Lang {
    /// Every language, English first.
    pub const ALL: [Lang; 4] = [Lang::En, Lang::Ja, Lang::Fr, Lang::De];

    /// The ISO 639-1 code, as settings files store it.
    pub const fn code(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Ja => "ja",
            Lang::Fr => "fr",
            Lang::De => "de",
        }
    }

    /// The language's name in itself, for the language choice.
    pub const fn native_name(self) -> &'static str {
        match self {
            Lang::En => "English",
            Lang::Ja => "日本語",
            Lang::Fr => "Français",
            Lang::De => "Deutsch",
        }
    }

    /// The language with this ISO 639-1 code (as settings files store it).
    pub fn from_code(code: &str) -> Option<Lang> {
        Lang::ALL.into_iter().find(|l| l.code() == code)
    }
}

/// How disc animations play.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
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

/// What the win bar's figure is.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum WinShows {
    /// The disc difference the engine expects at the end ("Black +6"), as strong players read
    /// a position.
    #[default]
    Discs,
    /// The disc difference, with the AI's last search's chance to win after it as a second
    /// figure ("Black +6 · 62%"; the name is the saved files').
    Chance,
}

impl WinShows {
    /// Both, in the order the settings screen shows them.
    pub const ALL: [WinShows; 2] = [WinShows::Discs, WinShows::Chance];

    /// The string key of its label.
    pub const fn key(self) -> &'static str {
        match self {
            WinShows::Discs => "menu.win_discs",
            WinShows::Chance => "menu.win_chance",
        }
    }
}

/// The look of the board and the UI.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
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
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
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

/// Everything the player chose on the settings screen (and the players' names): the content
/// of the settings file. Every field has a default, so a file from a build that lacked a newer
/// field still loads.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Preferences {
    /// Show dots on the squares the side to move may play.
    pub legal_moves: bool,
    /// Show a-h / 1-8 along the board's edges.
    pub coordinates: bool,
    /// How discs animate (off: the board changes at once).
    pub animations: AnimationSpeed,
    /// Show the win bar.
    pub win_bar: bool,
    /// What the win bar shows: the expected disc difference or the chance to win.
    pub win_shows: WinShows,
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
    /// A light tick under the finger when the player's disc is placed, and a short buzz when
    /// a tap is refused, where the device can (phones; a browser with `navigator.vibrate`).
    pub haptics: bool,
    /// Table mode for two players face to face (the phone or tablet flat between them): the
    /// board from straight above, the top player's HUD turned towards them. Takes effect when
    /// both sides are human (`settings::TableMode`).
    pub table_mode: bool,
    /// Show the AI's search statistics (positions or playouts, their rate, the chosen move's
    /// win rate, a proven result) in the HUD and the move list.
    pub ai_stats: bool,
    /// Whether a human who has no legal move passes by itself after a pause long enough to
    /// read why (as UCThello does); off: the player taps Pass.
    pub auto_pass: bool,
    /// The players' names, Black's then White's, shown on their cards when they are human;
    /// empty: "You" against the AI, "Player 1" / "Player 2" face to face.
    pub names: [String; 2],
    /// The adaptive opponent (#71): a new game against the AI, and each rematch, at the level
    /// the player's rating picks (`game::rating`) instead of a chosen one.
    pub adaptive: bool,
}

impl Default for Preferences {
    fn default() -> Self {
        Preferences {
            legal_moves: true,
            coordinates: true,
            animations: AnimationSpeed::Normal,
            win_bar: true,
            win_shows: WinShows::Discs,
            hints: true,
            theme: ThemeName::Classic,
            language: None,
            text_size: TextSize::Normal,
            sound: true,
            haptics: true,
            table_mode: false,
            ai_stats: false,
            auto_pass: true,
            names: [String::new(), String::new()],
            adaptive: false,
        }
    }
}
