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

    /// Whose view the AI's numbers take (its statistics, for its moves and the hints alike):
    /// the person's against the AI, else Black's, so that a player reads every one the same
    /// way round.
    pub fn viewer(&self) -> Side {
        self.human_against_ai()
            .map_or(Side::Black, |(human, _)| human)
    }

    /// A person playing `human` against the AI at `level`.
    pub fn against_ai(human: Side, level: AiLevel) -> Players {
        let ai = Player::Ai(level);
        match human {
            Side::Black => Players {
                black: Player::Human,
                white: ai,
            },
            Side::White => Players {
                black: ai,
                white: Player::Human,
            },
        }
    }

    /// One person against the AI: the person's side and the AI's level (the games the
    /// statistics count).
    pub fn human_against_ai(&self) -> Option<(Side, AiLevel)> {
        match (self.black, self.white) {
            (Player::Human, Player::Ai(level)) => Some((Side::Black, level)),
            (Player::Ai(level), Player::Human) => Some((Side::White, level)),
            _ => None,
        }
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
