//! The player's preferences: the settings and the language their texts are shown in.

pub mod choices;
pub mod i18n;
pub mod settings;
