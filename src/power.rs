//! Battery care: the app sleeps until input arrives (reactive low-power winit mode), and asks
//! for frames only while something moves: an animation, the AI's thinking bar, a pass notice,
//! a fading flash. Winit's reactive mode does not wake up when an async task finishes, so the
//! redraw requests are what make the AI's move appear on time. No search runs while the app is
//! suspended.

use crate::ai::AiState;
use crate::game_flow::{PassNotice, ViewBusy};
use crate::launch::LaunchOptions;
use bevy::prelude::*;
use bevy::window::{AppLifecycle, RequestRedraw};
use bevy::winit::{UpdateMode, WinitSettings};
use std::time::Duration;

pub(super) fn plugin(app: &mut App) {
    let continuous = {
        let launch = app.world().resource::<LaunchOptions>();
        launch.continuous || launch.screenshot.is_some()
    };
    app.insert_resource(if continuous {
        WinitSettings::continuous()
    } else {
        // Under a window manager-less X server the window never has focus: both modes matter.
        let mode = UpdateMode::reactive_low_power(Duration::from_secs(60));
        WinitSettings {
            focused_mode: mode,
            unfocused_mode: mode,
        }
    })
    .add_systems(Update, (follow_lifecycle, request_redraws));
}

fn follow_lifecycle(mut lifecycle: MessageReader<AppLifecycle>, mut ai: ResMut<AiState>) {
    for event in lifecycle.read() {
        match event {
            AppLifecycle::WillSuspend | AppLifecycle::Suspended => {
                ai.paused = true;
                ai.cancel();
            }
            AppLifecycle::Running | AppLifecycle::WillResume => ai.paused = false,
            AppLifecycle::Idle => {}
        }
    }
}

fn request_redraws(
    busy: Res<ViewBusy>,
    ai: Res<AiState>,
    pass: Res<PassNotice>,
    flashes: Query<(), With<crate::board::Flash>>,
    mut redraw: MessageWriter<RequestRedraw>,
) {
    if busy.0 || ai.is_busy() || pass.pending.is_some() || !flashes.is_empty() {
        redraw.write(RequestRedraw);
    }
}
