//! What the player sees over the board: the theme, the widgets, where everything goes
//! ([`layout`]), the HUD, the toolbar and the panels ([`screens`]), and the sound.

pub mod layout;
pub mod screens;
pub mod sound;
pub mod theme;
pub mod widgets;
