//! Who plays each side now (the [`Players`] resource), and the levels' names in the player's
//! language. What a player is, and how files write one, is [`crate::game::player`]'s.

use crate::game::player::{AiLevel, Player};
use crate::prefs::choices::Lang;
use bevy::prelude::*;
use montello_engine::Side;
use montello_engine::search::Level;

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

impl AiLevel {
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
}
