//! The game itself, without any rendering: the authoritative game and its flow, who plays
//! ([`players`]), the AI's searches, the evaluation graph's data, the game review, the values
//! on the squares, the tries at a better move and the daily puzzle.

pub mod ai;
mod background;
pub mod eval;
pub mod flow;
pub mod margin;
pub mod player;
pub mod players;
pub mod practice;
pub mod puzzle;
pub mod rating;
pub mod review;
pub mod values;
