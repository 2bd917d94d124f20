//! Who plays each side: a person or the AI at a level. A leaf of the game layer: the game's
//! flow, the AI, the saves and the screens all name these, and they name nothing of them.

use crate::prefs::i18n::Lang;
use bevy::prelude::*;
use montello_engine::Side;
use montello_engine::search::wire::SearcherSpec;
use montello_engine::search::{Level, SearchLimits};

/// Who plays a side.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Player {
    /// A person tapping the board.
    Human,
    /// The computer at a level.
    Ai(AiLevel),
}

/// Who plays black and white.
#[derive(Resource, Clone, Copy, PartialEq, Eq, Debug)]
pub struct Players {
    /// Plays black (moves first).
    pub black: Player,
    /// Plays white.
    pub white: Player,
}

impl Default for Players {
    fn default() -> Self {
        Players {
            black: Player::Human,
            white: Player::Ai(AiLevel::default()),
        }
    }
}

impl Players {
    /// Who plays `side`.
    pub fn get(&self, side: Side) -> Player {
        match side {
            Side::Black => self.black,
            Side::White => self.white,
        }
    }

    /// Whether a person plays `side`.
    pub fn is_human(&self, side: Side) -> bool {
        self.get(side) == Player::Human
    }
}

/// How strong the computer plays.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
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

    /// The level's name for menus, in `lang`.
    pub fn label(self, lang: Lang) -> String {
        match self {
            AiLevel::Level(level) => lang
                .t(match level {
                    Level::Beginner => "level.1",
                    Level::Novice => "level.2",
                    Level::Casual => "level.3",
                    Level::Intermediate => "level.4",
                    Level::Strong => "level.5",
                    Level::Master => "level.6",
                })
                .to_string(),
            AiLevel::Iterations(n) => lang.f("level.playouts", &[("n", &n)]),
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
