//! Battery care: the app sleeps until input arrives (reactive low-power winit mode), and asks
//! for frames only while something moves: an animation, the AI's thinking bar, a pass notice,
//! a notice until it has faded, a fading flash. Winit's reactive mode does not wake up when an async task finishes, so the
//! redraw requests are what make the AI's move appear on time. (Pausing the AI while the app is
//! suspended is the save plugin's lifecycle handling.)

use crate::app::launch::LaunchOptions;
use crate::game::ai::AiState;
use crate::game::flow::{
    BoardReset, CurrentGame, GameCommand, MovePlayed, Notice, PassNotice, SquareTapped, TapRefused,
    ViewBusy,
};
use crate::prefs::settings::Settings;
use crate::ui::screens::Overlay;
use crate::ui::widgets::ButtonTapped;
use bevy::prelude::*;
use bevy::render::render_resource::PipelineCache;
use bevy::render::{Render, RenderApp, RenderSystems};
use bevy::window::RequestRedraw;
use bevy::winit::{UpdateMode, WinitSettings};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

pub(crate) fn plugin(app: &mut App) {
    let continuous = {
        let launch = app.world().resource::<LaunchOptions>();
        launch.continuous || launch.screenshot.is_some() || launch.frame_stats.is_some()
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
    .add_systems(Last, request_redraws);
    // Shaders compile in the background: keep drawing until the 3D scene can be shown, or a
    // reactive app would show only the UI until the first input.
    let pending = PipelinesPending::default();
    app.insert_resource(pending.clone());
    if let Some(render_app) = app.get_sub_app_mut(RenderApp) {
        render_app
            .insert_resource(pending)
            .add_systems(Render, watch_pipelines.in_set(RenderSystems::Cleanup));
    }
}

/// Set by the render world while pipelines (shaders) are still compiling; pending from the
/// start until the render world has rendered a frame and says otherwise.
#[derive(Resource, Clone)]
pub(crate) struct PipelinesPending(Arc<AtomicBool>);

impl Default for PipelinesPending {
    fn default() -> Self {
        PipelinesPending(Arc::new(AtomicBool::new(true)))
    }
}

impl PipelinesPending {
    /// Whether some shader was still compiling at the last rendered frame.
    pub(crate) fn pending(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }
}

fn watch_pipelines(cache: Res<PipelineCache>, pending: Res<PipelinesPending>) {
    pending
        .0
        .store(drawing_pipelines_waiting(&cache), Ordering::Relaxed);
}

/// Whether a pipeline that draws (a render pipeline) is still waiting to be compiled. Compute
/// pipelines are left out: the app draws with none, and where the GPU offers no compute
/// (WebGL2, and GL ES at WebGL2's limits, the phones' last resort) Bevy queues its sparse
/// buffer update pipeline and leaves it queued for good, which would make every frame look
/// like the shaders were still compiling (endless redraws, no launch ever proven).
pub(crate) fn drawing_pipelines_waiting(cache: &PipelineCache) -> bool {
    use bevy::render::render_resource::PipelineDescriptor;
    let pipelines: Vec<_> = cache.pipelines().collect();
    cache.waiting_pipelines().any(|id| {
        pipelines.get(id).is_none_or(|p| {
            matches!(
                p.descriptor,
                PipelineDescriptor::RenderPipelineDescriptor(_)
            )
        })
    })
}

/// Messages that mean something changed this frame: the next frames must show the results
/// (state transitions, despawned panels, a started search) without waiting for input.
#[derive(bevy::ecs::system::SystemParam)]
struct Activity<'w> {
    actions: Res<'w, Messages<ButtonTapped>>,
    taps: Res<'w, Messages<SquareTapped>>,
    commands: Res<'w, Messages<GameCommand>>,
    played: Res<'w, Messages<MovePlayed>>,
    resets: Res<'w, Messages<BoardReset>>,
    refused: Res<'w, Messages<TapRefused>>,
}

impl Activity<'_> {
    fn any(&self) -> bool {
        !(self.actions.is_empty()
            && self.taps.is_empty()
            && self.commands.is_empty()
            && self.played.is_empty()
            && self.resets.is_empty()
            && self.refused.is_empty())
    }
}

/// Frames drawn after the last sign of activity.
const AFTERGLOW: u8 = 3;

/// What moves on screen, or is about to: while any of it does, frames keep coming.
#[derive(bevy::ecs::system::SystemParam)]
struct Moving<'w> {
    busy: Res<'w, ViewBusy>,
    ai: Res<'w, AiState>,
    margin: Res<'w, crate::game::margin::MarginEstimate>,
    pass: Res<'w, PassNotice>,
    notice: Res<'w, Notice>,
    current: Res<'w, CurrentGame>,
    settings: Res<'w, Settings>,
    overlay: Res<'w, NextState<Overlay>>,
    pipelines: Res<'w, PipelinesPending>,
}

impl Moving<'_> {
    fn any(&self) -> bool {
        self.busy.0
            || self.ai.is_busy()
            // The win bar's figure on its way (for a second at most: it takes milliseconds).
            || self.margin.wants_frames()
            || self.pass.pending.is_some()
            || !self.notice.is_empty()
            || self.current.is_changed()
            || self.settings.is_changed()
            || matches!(*self.overlay, NextState::Pending(_))
            || self.pipelines.pending()
    }
}

fn request_redraws(
    moving: Moving,
    activity: Activity,
    flashes: Query<(), With<crate::board::Flash>>,
    mut afterglow: Local<u8>,
    mut redraw: MessageWriter<RequestRedraw>,
) {
    let active = moving.any() || !flashes.is_empty() || activity.any();
    if active {
        *afterglow = AFTERGLOW;
    }
    if *afterglow > 0 {
        *afterglow -= 1;
        redraw.write(RequestRedraw);
    }
}
