//! stub
use bevy::prelude::*;

pub(super) fn plugin(_app: &mut App) {}
