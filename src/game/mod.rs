//! The game itself, without any rendering: the authoritative game and its flow, who plays
//! ([`players`]), the AI's searches, the evaluation graph's data and the game review.

pub mod ai;
mod background;
pub mod eval;
pub mod flow;
pub mod margin;
pub mod player;
pub mod players;
pub mod review;
