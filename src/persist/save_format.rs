//! What is written to disk, and how it is read back. No Bevy here.
//!
//! The saved game holds only what the engine needs to replay it: the variant, the start
//! position as a board string and every move (passes written as `PA`, undone moves included
//! so redo survives), plus how many of them are on the board. Loading replays the moves
//! through the engine, so a save can never hold an illegal position: a hand-edited illegal
//! move is refused like any bad file.
//!
//! Every file starts with `version`; a file from a newer Montello is refused with a message
//! (never misread), and older versions keep loading when the format changes.

// `super::`, not `crate::persist::`: the fuzz targets include this file beside storage.rs.
use super::storage::SaveFormat;
use montello_engine::notation::{board_string, transcript};
use montello_engine::{Game, Variant};
use serde::{Deserialize, Serialize};

/// The format version this build writes.
pub const GAME_VERSION: u32 = 1;

/// Who plays a side, as saved: `"human"` or `"ai:<level number>"`.
pub type SavedPlayer = String;

/// The game in progress, as saved.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SavedGame {
    /// Format version ([`GAME_VERSION`]).
    pub version: u32,
    /// The rules, by [`Variant::name`].
    pub variant: String,
    /// The start position as a board string.
    pub start: String,
    /// Every move known, on the board and undone, passes as `PA`.
    pub moves: String,
    /// How many of `moves` are on the board (the rest can be redone).
    pub ply: usize,
    /// Who plays black.
    pub black: SavedPlayer,
    /// Who plays white.
    pub white: SavedPlayer,
}

impl SavedGame {
    /// The record of `game` with its players.
    pub fn new(game: &Game, black: SavedPlayer, white: SavedPlayer) -> SavedGame {
        SavedGame {
            version: GAME_VERSION,
            variant: game.variant().name().to_string(),
            start: board_string::to_board_string(&game.start_position()),
            moves: transcript::to_transcript_with_passes(game.all_moves()),
            ply: game.ply(),
            black,
            white,
        }
    }

    /// Replays the record through the engine. Any inconsistency is an error in plain words.
    pub fn to_game(&self) -> Result<Game, String> {
        let variant = Variant::from_name(&self.variant)
            .ok_or_else(|| format!("unknown rules {:?}", self.variant))?;
        let start =
            board_string::parse(&self.start).map_err(|e| format!("bad start position: {e}"))?;
        let mut game = transcript::parse_from(&self.moves, start, variant)
            .map_err(|e| format!("bad moves: {e}"))?;
        // The transcript parser inserts passes a hand-edited file left out; a saved file writes
        // them all, so the counts agree unless the file was tampered with.
        if self.ply > game.ply() {
            return Err(format!(
                "{} moves on the board but only {} saved",
                self.ply,
                game.ply()
            ));
        }
        game.go_to(self.ply);
        Ok(game)
    }
}

/// Reads the `version` field alone, whatever else the file holds.
#[derive(Deserialize)]
struct VersionOnly {
    version: u32,
}

/// Reads RON text as `T` after checking its version against what this build reads.
pub fn decode_versioned<T: for<'de> Deserialize<'de>>(
    text: &str,
    newest: u32,
) -> Result<T, String> {
    let probe: VersionOnly = ron::from_str(text).map_err(|e| format!("damaged: {e}"))?;
    if probe.version > newest {
        return Err(format!(
            "it was saved by a newer Montello (format {}; this one reads up to {newest})",
            probe.version
        ));
    }
    if probe.version == 0 {
        return Err("format version 0 does not exist".to_string());
    }
    ron::from_str(text).map_err(|e| format!("damaged: {e}"))
}

/// RON text for `value`, laid out for a person to read; an encoder error is returned, never
/// written.
pub fn encode_pretty<T: Serialize>(value: &T) -> Result<String, String> {
    ron::ser::to_string_pretty(value, ron::ser::PrettyConfig::default()).map_err(|e| e.to_string())
}

impl SaveFormat for SavedGame {
    const FILE: &'static str = "game.ron";
    const WHAT: &'static str = "save.game";

    fn encode(&self) -> Result<String, String> {
        encode_pretty(self)
    }

    fn decode(text: &str) -> Result<Self, String> {
        let saved: SavedGame = decode_versioned(text, GAME_VERSION)?;
        // Replaying proves the moves are legal; a file that does not replay is refused here,
        // so the loader falls back to the backup.
        saved.to_game()?;
        Ok(saved)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Game {
        let mut game = transcript::parse("f5d6c3d3c4f4", Variant::Othello).expect("transcript");
        game.undo();
        game.undo();
        game
    }

    #[test]
    fn a_saved_game_replays_with_its_redo_line() {
        let game = sample();
        let saved = SavedGame::new(&game, "human".into(), "ai:3".into());
        let text = saved.encode().expect("encodes");
        let back = SavedGame::decode(&text).expect("decode");
        assert_eq!(back, saved);
        let replayed = back.to_game().expect("replay");
        assert_eq!(replayed, game);
        assert_eq!(replayed.redo_moves().len(), 2);
    }

    #[test]
    fn newer_versions_and_tampering_are_refused_in_words() {
        let saved = SavedGame::new(&sample(), "human".into(), "human".into());
        let newer = saved
            .encode()
            .expect("encodes")
            .replacen("version: 1", "version: 2", 1);
        let e = SavedGame::decode(&newer).expect_err("newer");
        assert!(e.contains("newer Montello"), "{e}");
        let illegal = SavedGame {
            moves: "f5f5".into(),
            ..saved.clone()
        };
        let e = SavedGame::decode(&illegal.encode().expect("encodes")).expect_err("illegal");
        assert!(e.contains("move 2"), "{e}");
        let truncated = &saved.encode().expect("encodes")[..20];
        assert!(
            SavedGame::decode(truncated)
                .expect_err("truncated")
                .contains("damaged")
        );
        let too_far = SavedGame { ply: 99, ..saved };
        assert!(SavedGame::decode(&too_far.encode().expect("encodes")).is_err());
    }
}

/// The format version of the settings file.
pub const SETTINGS_VERSION: u32 = 1;

/// The player's preferences, as saved. Every field has a default, so a file from an older
/// build that lacks a newer field still loads.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct SavedSettings {
    /// Format version ([`SETTINGS_VERSION`]).
    pub version: u32,
    /// Who plays black in a new game (`"human"` or `"ai:<level>"`).
    pub black: SavedPlayer,
    /// Who plays white in a new game.
    pub white: SavedPlayer,
    /// The rules of a new game, by [`Variant::name`].
    pub variant: String,
    /// Legal-move markers.
    pub legal_moves: bool,
    /// Coordinates along the board's edges.
    pub coordinates: bool,
    /// Disc animations.
    pub animations: bool,
    /// The win-probability bar.
    pub win_bar: bool,
    /// Whether hints may be asked for.
    pub hints: bool,
    /// Whether the AI may think while the human does (costs battery; off by default).
    pub think_on_my_time: bool,
    /// Animation speed: `"off"`, `"fast"` or `"normal"`; empty (files before it existed):
    /// follow `animations`.
    #[serde(default)]
    pub animation_speed: String,
    /// The theme's name (`"classic"`, `"wood"`, `"dark"`, `"contrast"`); empty: classic.
    #[serde(default)]
    pub theme: String,
    /// The language's ISO 639-1 code; empty: the system's.
    #[serde(default)]
    pub language: String,
    /// The UI's text size: `"normal"`, `"large"` or `"largest"`; empty: normal.
    #[serde(default)]
    pub text_size: String,
    /// Sound effects (files before it existed: on).
    pub sound: bool,
    /// A human with no legal move passes by itself after a pause (files before it existed: on).
    #[serde(default = "yes")]
    pub auto_pass: bool,
    /// The AI's search statistics on screen (files before it existed: off).
    #[serde(default)]
    pub ai_stats: bool,
    /// Table mode for two players face to face (files before it existed: off).
    #[serde(default)]
    pub table_mode: bool,
    /// The players' names, Black's then White's; empty: the default ("You", "Player 1").
    #[serde(default)]
    pub names: [String; 2],
}

fn yes() -> bool {
    true
}

impl Default for SavedSettings {
    fn default() -> Self {
        SavedSettings {
            version: SETTINGS_VERSION,
            black: "human".into(),
            white: "ai:3".into(),
            variant: Variant::Othello.name().into(),
            legal_moves: true,
            coordinates: true,
            animations: true,
            win_bar: true,
            hints: true,
            think_on_my_time: false,
            animation_speed: "normal".into(),
            theme: "classic".into(),
            language: String::new(),
            text_size: "normal".into(),
            sound: true,
            auto_pass: true,
            ai_stats: false,
            table_mode: false,
            names: [String::new(), String::new()],
        }
    }
}

impl SaveFormat for SavedSettings {
    const FILE: &'static str = "settings.ron";
    const WHAT: &'static str = "save.settings";

    fn encode(&self) -> Result<String, String> {
        encode_pretty(self)
    }

    fn decode(text: &str) -> Result<Self, String> {
        decode_versioned(text, SETTINGS_VERSION)
    }
}

/// The format version of the statistics file.
pub const STATS_VERSION: u32 = 1;

/// A human's record against one AI level.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct LevelRecord {
    /// Games finished.
    pub games: u32,
    /// Games the human won.
    pub wins: u32,
    /// Games the human lost.
    pub losses: u32,
    /// Drawn games.
    pub draws: u32,
    /// The human's largest winning margin, in discs.
    pub best_margin: u8,
}

/// Statistics of finished games against the AI, per level.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Stats {
    /// Format version ([`STATS_VERSION`]).
    pub version: u32,
    /// Per level name (`"ai:<level>"`), the human's record.
    pub levels: std::collections::BTreeMap<String, LevelRecord>,
    /// The moves of the last game counted, so the same game is never counted twice.
    pub last_game: String,
}

impl Stats {
    /// Adds a finished game against `level`: `margin` is the human's discs minus the AI's.
    pub fn record(&mut self, level: &str, margin: i32) {
        let r = self.levels.entry(level.to_string()).or_default();
        r.games += 1;
        match margin.signum() {
            1 => {
                r.wins += 1;
                r.best_margin = r.best_margin.max(margin.clamp(0, 64) as u8);
            }
            -1 => r.losses += 1,
            _ => r.draws += 1,
        }
    }
}

impl SaveFormat for Stats {
    const FILE: &'static str = "stats.ron";
    const WHAT: &'static str = "save.stats";

    fn encode(&self) -> Result<String, String> {
        encode_pretty(&Stats {
            version: STATS_VERSION,
            ..self.clone()
        })
    }

    fn decode(text: &str) -> Result<Self, String> {
        decode_versioned(text, STATS_VERSION)
    }
}

#[cfg(test)]
mod settings_tests {
    use super::*;

    #[test]
    fn settings_from_an_older_file_keep_defaults_for_new_fields() {
        let old = "(version: 1, legal_moves: false)";
        let s = SavedSettings::decode(old).expect("decode");
        assert!(!s.legal_moves);
        assert!(
            !s.think_on_my_time,
            "thinking on the player's time defaults to off"
        );
        assert_eq!(s.white, "ai:3");
        assert_eq!(
            s.names,
            [String::new(), String::new()],
            "no names: the defaults"
        );
        assert!(
            SavedSettings::decode("(version: 7)")
                .expect_err("newer")
                .contains("newer")
        );
    }

    #[test]
    fn names_round_trip_through_the_settings_file() {
        let s = SavedSettings {
            names: ["Ann".into(), "Zoë 黒".into()],
            ..SavedSettings::default()
        };
        let back = SavedSettings::decode(&s.encode().expect("encodes")).expect("round trip");
        assert_eq!(back.names, s.names);
    }

    #[test]
    fn stats_count_wins_losses_draws_and_best_margin() {
        let mut s = Stats::default();
        s.record("ai:1", 10);
        s.record("ai:1", 24);
        s.record("ai:1", -2);
        s.record("ai:2", 0);
        let back = Stats::decode(&s.encode().expect("encodes")).expect("round trip");
        let r = back.levels["ai:1"];
        assert_eq!(
            (r.games, r.wins, r.losses, r.draws, r.best_margin),
            (3, 2, 1, 0, 24)
        );
        assert_eq!(back.levels["ai:2"].draws, 1);
    }
}
