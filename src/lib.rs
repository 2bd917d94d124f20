//! Montello: the Bevy app (placeholder until the app lands).
use bevy::prelude::*;

/// The app's entry point, shared by desktop and mobile.
#[bevy_main]
pub fn main() {
    App::new().add_plugins(DefaultPlugins).run();
}
