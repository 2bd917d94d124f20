//! What a player is: a person or the AI at a level, and how the save files write one
//! (`"human"`, `"ai:<level number, 1 = weakest>"`, `"playouts:<n>"`). Plain data with serde and
//! no Bevy, so the save-file fuzzer (engine/fuzz) compiles this file as it is. A leaf of the
//! game layer: the game's flow, the AI, the saves and the screens all name these.

use montello_engine::search::{Level, SearchLimits};
use montello_engine::wire::SearcherSpec;
use serde::{Deserialize, Serialize};
use std::fmt;

/// Who plays a side.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub enum Player {
    /// A person tapping the board.
    Human,
    /// The computer at a level.
    Ai(AiLevel),
}

/// How strong the computer plays.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub enum AiLevel {
    /// One of the engine's named levels.
    Level(Level),
    /// A fixed number of playouts: deterministic for a given seed (tests, replays).
    Iterations(u64),
}

impl Default for AiLevel {
    fn default() -> Self {
        AiLevel::Level(Level::default())
    }
}

impl AiLevel {
    /// The levels shown on the new-game screen, weakest first: the engine's levels.
    pub const ALL: [AiLevel; Level::ALL.len()] = {
        let mut all = [AiLevel::Level(Level::Beginner); Level::ALL.len()];
        let mut i = 0;
        while i < all.len() {
            all[i] = AiLevel::Level(Level::ALL[i]);
            i += 1;
        }
        all
    };

    /// The level's name for menus.
    pub fn name(self) -> String {
        match self {
            AiLevel::Level(level) => level.name().to_string(),
            AiLevel::Iterations(n) => format!("{n} playouts"),
        }
    }

    /// Finds a level by its name or number (1 = weakest), as the command line gives it.
    pub fn parse(text: &str) -> Option<AiLevel> {
        Level::from_name(text).map(AiLevel::Level)
    }

    /// What one move's search may spend.
    pub fn limits(self) -> SearchLimits {
        match self {
            AiLevel::Level(level) => level.limits(),
            AiLevel::Iterations(n) => SearchLimits::iterations(n),
        }
    }

    /// How to make this level's searcher, seeded `seed`: the engine's default strategy with
    /// the level's knobs; a fixed number of playouts runs exactly that many (no early stop).
    pub fn spec(self, seed: u64) -> SearcherSpec {
        match self {
            AiLevel::Level(level) => SearcherSpec::Level { level, seed },
            AiLevel::Iterations(_) => SearcherSpec::Plain { seed },
        }
    }
}

impl fmt::Display for AiLevel {
    /// As files write it: `ai:<level number>` or `playouts:<n>`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AiLevel::Level(level) => write!(f, "ai:{}", level.number()),
            AiLevel::Iterations(n) => write!(f, "playouts:{n}"),
        }
    }
}

impl std::str::FromStr for AiLevel {
    type Err = String;

    /// Reads what [`AiLevel`]'s `Display` writes.
    fn from_str(text: &str) -> Result<AiLevel, String> {
        let level = if let Some(n) = text.strip_prefix("playouts:") {
            n.parse().ok().map(AiLevel::Iterations)
        } else {
            text.strip_prefix("ai:").and_then(AiLevel::parse)
        };
        level.ok_or_else(|| {
            format!(
                "unknown AI level {text:?} (ai:1 to ai:{})",
                Level::ALL.len()
            )
        })
    }
}

impl fmt::Display for Player {
    /// As files write it: `human`, or the AI's level.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Player::Human => f.write_str("human"),
            Player::Ai(level) => level.fmt(f),
        }
    }
}

impl std::str::FromStr for Player {
    type Err = String;

    /// Reads what [`Player`]'s `Display` writes.
    fn from_str(text: &str) -> Result<Player, String> {
        if text == "human" {
            Ok(Player::Human)
        } else {
            text.parse().map(Player::Ai).map_err(|_| {
                format!(
                    "unknown player {text:?} (human, ai:1 to ai:{})",
                    Level::ALL.len()
                )
            })
        }
    }
}

impl TryFrom<String> for Player {
    type Error = String;
    fn try_from(text: String) -> Result<Player, String> {
        text.parse()
    }
}

impl From<Player> for String {
    fn from(player: Player) -> String {
        player.to_string()
    }
}

impl TryFrom<String> for AiLevel {
    type Error = String;
    fn try_from(text: String) -> Result<AiLevel, String> {
        text.parse()
    }
}

impl From<AiLevel> for String {
    fn from(level: AiLevel) -> String {
        level.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn players_read_back_what_files_write_and_refuse_the_rest() {
        let all = [Player::Human, Player::Ai(AiLevel::Iterations(300))]
            .into_iter()
            .chain(AiLevel::ALL.map(Player::Ai));
        for player in all {
            assert_eq!(player.to_string().parse::<Player>(), Ok(player));
        }
        assert_eq!(
            Player::Ai(AiLevel::Level(Level::Casual)).to_string(),
            "ai:3"
        );
        for bad in ["", "ai:", "ai:0", "ai:99", "playouts:x", "Human", "robot"] {
            let e = bad.parse::<Player>().expect_err(bad);
            assert!(e.contains(&format!("{bad:?}")), "{e}");
        }
    }
}
