//! What the player sees over the board: the theme, the widgets, where everything goes
//! ([`layout`], applied to the window by [`placement`]), the HUD, the toolbar and the panels
//! ([`screens`]).

pub mod layout;
pub mod placement;
pub mod screens;
pub mod theme;
pub mod widgets;
