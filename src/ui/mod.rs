//! What the player sees over the board: the theme, the widgets, where everything goes
//! ([`layout`]), the HUD, the toolbar and the panels ([`screens`]).

pub mod layout;
pub mod screens;
pub mod theme;
pub mod widgets;
