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

use crate::storage::SaveFormat;
use montello_engine::notation::{board_string, transcript};
use montello_engine::{Game, Move, Variant};
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
        let variant = Variant::from_name(&self.variant).ok_or_else(|| format!("unknown rules {:?}", self.variant))?;
        let start = board_string::parse(&self.start).map_err(|e| format!("bad start position: {e}"))?;
        let mut game = transcript::parse_from(&self.moves, start, variant).map_err(|e| format!("bad moves: {e}"))?;
        // The transcript parser inserts passes a hand-edited file left out; a saved file writes
        // them all, so the counts agree unless the file was tampered with.
        if self.ply > game.ply() {
            return Err(format!("{} moves on the board but only {} saved", self.ply, game.ply()));
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
pub fn decode_versioned<T: for<'de> Deserialize<'de>>(text: &str, newest: u32) -> Result<T, String> {
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

/// RON text for `value`, laid out for a person to read.
pub fn encode_pretty<T: Serialize>(value: &T) -> String {
    ron::ser::to_string_pretty(value, ron::ser::PrettyConfig::default())
        .unwrap_or_else(|e| format!("(version: 0) // could not encode: {e}"))
}

impl SaveFormat for SavedGame {
    const FILE: &'static str = "game.ron";
    const WHAT: &'static str = "saved game";

    fn encode(&self) -> String {
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

/// The moves of a saved game as the engine reads them (for tests and tools).
pub fn saved_moves(saved: &SavedGame) -> Result<Vec<Move>, String> {
    saved.to_game().map(|g| g.all_moves().to_vec())
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
        let text = saved.encode();
        let back = SavedGame::decode(&text).expect("decode");
        assert_eq!(back, saved);
        let replayed = back.to_game().expect("replay");
        assert_eq!(replayed, game);
        assert_eq!(replayed.redo_moves().len(), 2);
    }

    #[test]
    fn newer_versions_and_tampering_are_refused_in_words() {
        let saved = SavedGame::new(&sample(), "human".into(), "human".into());
        let newer = saved.encode().replacen("version: 1", "version: 2", 1);
        let e = SavedGame::decode(&newer).expect_err("newer");
        assert!(e.contains("newer Montello"), "{e}");
        let illegal = SavedGame { moves: "f5f5".into(), ..saved.clone() };
        let e = SavedGame::decode(&illegal.encode()).expect_err("illegal");
        assert!(e.contains("move 2"), "{e}");
        let truncated = &saved.encode()[..20];
        assert!(SavedGame::decode(truncated).expect_err("truncated").contains("damaged"));
        let too_far = SavedGame { ply: 99, ..saved };
        assert!(SavedGame::decode(&too_far.encode()).is_err());
    }
}
