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

// The fuzz target (engine/fuzz/fuzz_targets/save_files.rs) compiles this file with the three
// below by path, in modules of the same names, so it may name only Bevy-free files.
use crate::game::player::{AiLevel, Player};
use crate::persist::storage::SaveFormat;
use crate::prefs::choices::{AnimationSpeed, Lang, Preferences, TextSize, ThemeName};
use montello_engine::notation::{board_string, transcript};
use montello_engine::search::review::Review;
use montello_engine::{Game, Move, Variant};
use serde::{Deserialize, Serialize};

/// The format version this build writes.
pub const GAME_VERSION: u32 = 1;

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
    /// Who plays black (`"human"`, `"ai:<level number>"`).
    pub black: Player,
    /// Who plays white.
    pub white: Player,
    /// The game review, when one was computed (absent from saves made before reviews, and
    /// from games not reviewed): read back as it was, never computed again.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub review: Option<SavedReview>,
}

/// A game review as saved: the moves it reviewed and what it found.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SavedReview {
    /// The moves reviewed from the game's start position, passes as `PA` (the moves on the
    /// board when it was computed: an undo since keeps it good for the moves it covers).
    pub moves: String,
    /// One word a move, passes left out ([`Review::to_text`]).
    pub review: String,
}

impl SavedGame {
    /// The record of `game` with its players.
    pub fn new(game: &Game, black: Player, white: Player) -> SavedGame {
        SavedGame {
            version: GAME_VERSION,
            variant: game.variant().name().to_string(),
            start: board_string::to_board_string(&game.start_position()),
            moves: transcript::to_transcript_with_passes(game.all_moves()),
            ply: game.ply(),
            black,
            white,
            review: None,
        }
    }

    /// The same record with the game review kept for `moves` (passes included).
    pub fn with_review(mut self, moves: &[Move], review: &Review) -> SavedGame {
        self.review = Some(SavedReview {
            moves: transcript::to_transcript_with_passes(moves),
            review: review.to_text(),
        });
        self
    }

    /// The saved review, checked against its moves replayed from the game's start: each
    /// entry is the move played there, by the side that played it. `Ok(None)` when there is
    /// none; an error in plain words for one that does not fit (the game itself still loads).
    pub fn review(&self) -> Result<Option<(Vec<Move>, Review)>, String> {
        let Some(saved) = &self.review else {
            return Ok(None);
        };
        let game = self.to_game()?;
        let reviewed = transcript::parse_from(&saved.moves, game.start_position(), game.variant())
            .map_err(|e| format!("the reviewed moves: {e}"))?;
        let review = Review::parse(&saved.review).map_err(|e| format!("the review: {e}"))?;
        let played: Vec<(montello_engine::Side, Move)> = reviewed
            .positions()
            .iter()
            .zip(reviewed.history())
            .filter(|(_, mv)| **mv != Move::Pass)
            .map(|(pos, mv)| (pos.side_to_move(), *mv))
            .collect();
        if played.len() != review.moves.len() {
            return Err(format!(
                "the review has {} moves for {} played",
                review.moves.len(),
                played.len()
            ));
        }
        for (i, (m, (side, mv))) in review.moves.iter().zip(&played).enumerate() {
            if m.played != *mv || m.side != *side {
                return Err(format!(
                    "the review's move {} is {} by {:?}, the game's {mv} by {side:?}",
                    i + 1,
                    m.played,
                    m.side
                ));
            }
        }
        Ok(Some((reviewed.history().to_vec(), review)))
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
        let saved = SavedGame::new(&game, Player::Human, Player::Ai(AiLevel::default()));
        let text = saved.encode().expect("encodes");
        let back = SavedGame::decode(&text).expect("decode");
        assert_eq!(back, saved);
        let replayed = back.to_game().expect("replay");
        assert_eq!(replayed, game);
        assert_eq!(replayed.redo_moves().len(), 2);
    }

    /// A review saved with the game reads back as it was; a save without one (as every save
    /// before reviews) has none; a review that does not fit its moves is refused in words
    /// while the game still loads.
    #[test]
    fn a_review_saved_with_the_game_reads_back_and_a_wrong_one_is_refused() {
        use montello_engine::search::review::{ReviewConfig, review};
        let game = transcript::parse("f5d6c3d3c4f4", Variant::Othello).expect("transcript");
        let config = ReviewConfig {
            depth: 2,
            ..ReviewConfig::default()
        };
        let reviewed = review(&game, &config, None, |_, _| {}).expect("done");
        let plain = SavedGame::new(&game, Player::Human, Player::Human);
        let text = plain.encode().expect("encodes");
        assert!(!text.contains("review"), "no review, no field: {text}");
        assert_eq!(
            SavedGame::decode(&text).expect("decodes").review(),
            Ok(None)
        );
        let saved = plain.clone().with_review(game.history(), &reviewed);
        let back = SavedGame::decode(&saved.encode().expect("encodes")).expect("decodes");
        assert_eq!(back, saved);
        assert_eq!(
            back.review(),
            Ok(Some((game.history().to_vec(), reviewed.clone())))
        );
        // A review of other moves, or of fewer, is refused; the game is not.
        let mut other = saved.clone();
        let entry = other.review.as_mut().expect("a review");
        assert!(entry.review.contains("w:d6:"), "{}", entry.review);
        entry.review = entry.review.replace("w:d6:", "w:e6:");
        let e = other.review().expect_err("another move");
        assert!(e.contains("move 2"), "{e}");
        assert!(SavedGame::decode(&other.encode().expect("encodes")).is_ok());
        let mut short = saved.clone();
        short.review.as_mut().expect("a review").moves = "f5d6c3".into();
        assert!(short.review().expect_err("fewer").contains("6 moves for 3"));
        let mut garbled = saved;
        garbled.review.as_mut().expect("a review").review = "b:f5".into();
        assert!(garbled.review().expect_err("garbled").contains("word 1"));
    }

    #[test]
    fn newer_versions_and_tampering_are_refused_in_words() {
        let saved = SavedGame::new(&sample(), Player::Human, Player::Human);
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

/// The format version of the settings file: 2 holds [`Preferences`] as typed values; 1 (until
/// November 2026) held strings and the players of a new game, and still loads.
pub const SETTINGS_VERSION: u32 = 2;

/// The settings file.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct SavedSettings {
    /// Format version ([`SETTINGS_VERSION`]).
    pub version: u32,
    /// The player's choices.
    #[serde(default)]
    pub prefs: Preferences,
}

impl SavedSettings {
    /// The file for `prefs`.
    pub fn new(prefs: Preferences) -> SavedSettings {
        SavedSettings {
            version: SETTINGS_VERSION,
            prefs,
        }
    }
}

impl SaveFormat for SavedSettings {
    const FILE: &'static str = "settings.ron";
    const WHAT: &'static str = "save.settings";

    fn encode(&self) -> Result<String, String> {
        encode_pretty(&SavedSettings::new(self.prefs.clone()))
    }

    fn decode(text: &str) -> Result<Self, String> {
        let probe: VersionOnly = ron::from_str(text).map_err(|e| format!("damaged: {e}"))?;
        if probe.version == 1 {
            let old: SettingsV1 = decode_versioned(text, 1)?;
            return Ok(SavedSettings::new(old.upgrade()));
        }
        decode_versioned(text, SETTINGS_VERSION)
    }
}

/// The settings file of format 1, read only to upgrade it: choices as their names, empty
/// for the default. Its `black`, `white`, `variant` and `think_on_my_time` were never read (the
/// players and the rules are the saved game's) and are dropped.
#[derive(Deserialize)]
#[serde(default)]
struct SettingsV1 {
    legal_moves: bool,
    coordinates: bool,
    animations: bool,
    win_bar: bool,
    hints: bool,
    animation_speed: String,
    theme: String,
    language: String,
    text_size: String,
    sound: bool,
    auto_pass: bool,
    ai_stats: bool,
    table_mode: bool,
    names: [String; 2],
}

impl Default for SettingsV1 {
    fn default() -> Self {
        let now = Preferences::default();
        SettingsV1 {
            legal_moves: now.legal_moves,
            coordinates: now.coordinates,
            animations: true,
            win_bar: now.win_bar,
            hints: now.hints,
            animation_speed: String::new(),
            theme: String::new(),
            language: String::new(),
            text_size: String::new(),
            sound: now.sound,
            auto_pass: now.auto_pass,
            ai_stats: now.ai_stats,
            table_mode: now.table_mode,
            names: now.names,
        }
    }
}

impl SettingsV1 {
    /// The same choices as typed values; a name this build does not know is the default.
    fn upgrade(self) -> Preferences {
        let off_or_normal = if self.animations {
            AnimationSpeed::Normal
        } else {
            AnimationSpeed::Off
        };
        Preferences {
            legal_moves: self.legal_moves,
            coordinates: self.coordinates,
            animations: AnimationSpeed::from_name(&self.animation_speed).unwrap_or(off_or_normal),
            win_bar: self.win_bar,
            win_shows: Preferences::default().win_shows,
            hints: self.hints,
            theme: ThemeName::from_name(&self.theme).unwrap_or_default(),
            language: Lang::from_code(&self.language),
            text_size: TextSize::from_name(&self.text_size).unwrap_or_default(),
            sound: self.sound,
            haptics: Preferences::default().haptics,
            table_mode: self.table_mode,
            ai_stats: self.ai_stats,
            auto_pass: self.auto_pass,
            names: self.names,
            adaptive: Preferences::default().adaptive,
        }
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
    /// Per level (written `"ai:<level>"`), the human's record.
    pub levels: std::collections::BTreeMap<AiLevel, LevelRecord>,
    /// The moves of the last game counted, so the same game is never counted twice.
    pub last_game: String,
    /// The daily puzzles solved (absent from files written before them).
    pub puzzles: PuzzleRecord,
}

/// The daily puzzles the player solved (`game::puzzle`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct PuzzleRecord {
    /// The days (since 1970-01-01, the player's calendar) whose puzzle was solved.
    pub solved: std::collections::BTreeSet<i64>,
}

impl PuzzleRecord {
    /// The streak on `today`: how many days in a row, up to today (or up to yesterday while
    /// today's puzzle is still to solve), each had its puzzle solved.
    pub fn streak(&self, today: i64) -> u32 {
        let last = if self.solved.contains(&today) {
            today
        } else {
            today - 1
        };
        let mut n = 0;
        while self.solved.contains(&(last - i64::from(n))) {
            n += 1;
        }
        n
    }
}

impl Stats {
    /// The moves that identify a game once counted ([`Stats::last_game`]).
    pub fn key(game: &Game) -> String {
        transcript::to_transcript_with_passes(game.history())
    }

    /// Whether `game` is the last game counted.
    pub fn counted(&self, game: &Game) -> bool {
        self.last_game == Stats::key(game)
    }

    /// Adds a finished game against `level`: `margin` is the human's discs minus the AI's.
    pub fn record(&mut self, level: AiLevel, margin: i32) {
        let r = self.levels.entry(level).or_default();
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
mod puzzle_record_tests {
    use super::*;

    #[test]
    fn the_streak_counts_the_days_in_a_row_up_to_today_or_yesterday() {
        let record = |days: &[i64]| PuzzleRecord {
            solved: days.iter().copied().collect(),
        };
        assert_eq!(record(&[]).streak(100), 0);
        assert_eq!(record(&[100]).streak(100), 1);
        // Today's still to solve: yesterday's streak stands.
        assert_eq!(record(&[97, 98, 99]).streak(100), 3);
        assert_eq!(record(&[97, 98, 99, 100]).streak(100), 4);
        // A day missed breaks it.
        assert_eq!(record(&[96, 98, 99]).streak(100), 2);
        assert_eq!(record(&[97, 98]).streak(100), 0);
        // A file from before the puzzles reads with none solved.
        let old = Stats::decode("(version: 1, levels: {}, last_game: \"f5\")").expect("reads");
        assert!(old.puzzles.solved.is_empty());
        let mut stats = Stats::default();
        stats.puzzles.solved.insert(20_786);
        let again = Stats::decode(&stats.encode().expect("encodes")).expect("reads");
        assert_eq!(again.puzzles, stats.puzzles);
    }
}

#[cfg(test)]
mod settings_tests {
    use super::*;
    use crate::prefs::choices::WinShows;
    use montello_engine::search::Level;

    /// A settings file as format 1 wrote it (the last build before typed settings).
    const V1: &str = r#"(
    version: 1,
    black: "human",
    white: "ai:3",
    variant: "othello",
    legal_moves: false,
    coordinates: true,
    animations: true,
    win_bar: false,
    hints: true,
    think_on_my_time: false,
    animation_speed: "fast",
    theme: "contrast",
    language: "ja",
    text_size: "largest",
    sound: false,
    auto_pass: false,
    ai_stats: true,
    table_mode: true,
    names: ("Ann", "Bo"),
)"#;

    #[test]
    fn a_format_1_file_loads_with_every_choice() {
        let s = SavedSettings::decode(V1).expect("decode").prefs;
        let expected = Preferences {
            legal_moves: false,
            coordinates: true,
            animations: AnimationSpeed::Fast,
            win_bar: false,
            win_shows: WinShows::Discs,
            hints: true,
            theme: ThemeName::Contrast,
            language: Some(Lang::Ja),
            text_size: TextSize::Largest,
            sound: false,
            haptics: true,
            table_mode: true,
            ai_stats: true,
            auto_pass: false,
            names: ["Ann".into(), "Bo".into()],
            adaptive: false,
        };
        assert_eq!(s, expected);
        // Written back, it is format 2 and reads back the same.
        let text = SavedSettings::new(s).encode().expect("encodes");
        assert!(
            text.contains("version: 2") && text.contains("Contrast"),
            "{text}"
        );
        assert_eq!(SavedSettings::decode(&text).expect("v2").prefs, expected);
    }

    #[test]
    fn format_1_files_from_before_a_field_existed_keep_its_default() {
        // Before the animation speed there was only `animations`; before the language, the
        // system's; empty names mean "none chosen".
        let old =
            "(version: 1, legal_moves: false, animations: false, theme: \"\", language: \"\")";
        let s = SavedSettings::decode(old).expect("decode").prefs;
        assert!(!s.legal_moves);
        assert_eq!(s.animations, AnimationSpeed::Off);
        assert_eq!(s.theme, ThemeName::Classic);
        assert_eq!(s.language, None);
        assert!(s.auto_pass, "auto pass was on before it could be chosen");
        assert_eq!(s.names, [String::new(), String::new()]);
        let s = SavedSettings::decode("(version: 1)").expect("decode").prefs;
        assert_eq!(s, Preferences::default());
    }

    #[test]
    fn settings_from_an_older_file_keep_defaults_for_new_fields() {
        let s = SavedSettings::decode("(version: 2, prefs: (legal_moves: false))")
            .expect("decode")
            .prefs;
        assert!(!s.legal_moves);
        assert_eq!(
            Preferences {
                legal_moves: true,
                ..s
            },
            Preferences::default()
        );
        assert!(
            SavedSettings::decode("(version: 7)")
                .expect_err("newer")
                .contains("newer")
        );
        let e = SavedSettings::decode("(version: 2, prefs: (theme: Plaid))").expect_err("theme");
        assert!(e.contains("Plaid"), "{e}");
    }

    /// What the win bar shows is kept: a file from before the choice existed gets the disc
    /// difference, and the win chance, once chosen, reads back.
    #[test]
    fn what_the_win_bar_shows_round_trips_and_defaults_to_discs() {
        let old = SavedSettings::decode("(version: 2, prefs: (win_bar: true))").expect("decode");
        assert_eq!(old.prefs.win_shows, WinShows::Discs);
        let chance = SavedSettings::new(Preferences {
            win_shows: WinShows::Chance,
            ..Preferences::default()
        });
        let text = chance.encode().expect("encodes");
        assert!(text.contains("win_shows: Chance"), "{text}");
        let back = SavedSettings::decode(&text).expect("round trip");
        assert_eq!(back.prefs.win_shows, WinShows::Chance);
    }

    #[test]
    fn names_round_trip_through_the_settings_file() {
        let s = SavedSettings::new(Preferences {
            names: ["Ann".into(), "Zoë 黒".into()],
            ..Preferences::default()
        });
        let back = SavedSettings::decode(&s.encode().expect("encodes")).expect("round trip");
        assert_eq!(back.prefs.names, s.prefs.names);
    }

    #[test]
    fn stats_count_wins_losses_draws_and_best_margin() {
        let one = AiLevel::Level(Level::Beginner);
        let two = AiLevel::Level(Level::Novice);
        let mut s = Stats::default();
        s.record(one, 10);
        s.record(one, 24);
        s.record(one, -2);
        s.record(two, 0);
        let text = s.encode().expect("encodes");
        assert!(
            text.contains("\"ai:1\""),
            "levels are written by number: {text}"
        );
        let back = Stats::decode(&text).expect("round trip");
        let r = back.levels[&one];
        assert_eq!(
            (r.games, r.wins, r.losses, r.draws, r.best_margin),
            (3, 2, 1, 0, 24)
        );
        assert_eq!(back.levels[&two].draws, 1);
        let e = Stats::decode("(version: 1, levels: {\"ai:9\": (games: 1)})").expect_err("level");
        assert!(e.contains("ai:9"), "{e}");
    }
}
