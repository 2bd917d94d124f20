//! Which graphics API the renderer starts on, so that a phone whose GPU driver Bevy cannot
//! live with still gets a game and never a launch that crashes forever (docs/mobile.md, "GPU").
//! Android builds both of wgpu's Vulkan and GL ES backends; each launch uses exactly one.
//!
//! The record (`gpu.ron` beside the saves, never in a backup: android/res/xml) is a small
//! state machine driven through the file, tested here launch by launch:
//!
//! - Before the renderer exists the launch writes down what it is trying ([`start`]): the API,
//!   the app's version and the APIs that already failed for this version. A first launch
//!   probes for a Vulkan adapter with a Vulkan-only instance before any window surface
//!   exists (no adapter: GL ES), because one wgpu instance with both backends cannot fall
//!   back to GL ES once Vulkan has claimed the window (wgpu issue 2384).
//! - "Worked" is written by the render world, after rendering, once at least
//!   [`FRAMES_THAT_PROVE_IT`] frames were drawn with every pipeline compiled and at least
//!   [`TIME_THAT_PROVES_IT`] has passed since the launch ([`DrawProof`]). A driver that
//!   crashes while compiling, on its first draw or submit, or a few frames later, never gets
//!   that far. Until then the app keeps drawing on its own ([`SharedProof`]): a reactive app
//!   would otherwise sleep after its first frames until a tap, and the proof would wait on the
//!   player.
//! - A launch that goes to the background before the proof is written says so ("paused"),
//!   and writes "trying" again when it comes back: a process that Android kills in the
//!   background died without drawing, so the next launch tries the same API again. Only a
//!   launch that died while drawing leaves "trying" behind.
//! - A launch that finds its own version's "trying" record knows that API failed: it starts on
//!   the next one of [`Api::ORDER`] (Vulkan, GL ES, then GL ES with WebGL2-level limits and
//!   no multisampling, the most conservative configuration wgpu has). When every one has
//!   failed it keeps the conservative one and the HUD says plainly that the phone's graphics
//!   driver failed. What worked is kept until the app is updated, when Vulkan is tried again.
//! - The saves are never touched by any of this: a failed driver costs a launch, not a game.

use crate::persist::storage::{self, Loaded, SaveFormat};
use bevy::prelude::*;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

/// A graphics API configuration the renderer can start on (written `vulkan`, `gl` or
/// `gl_safe` in the record).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Api {
    /// Vulkan alone.
    Vulkan,
    /// GL ES alone.
    Gl,
    /// GL ES alone with WebGL2-level limits and no multisampling: the last resort.
    GlSafe,
}

impl Api {
    /// The order a version tries them in after failures.
    pub const ORDER: [Api; 3] = [Api::Vulkan, Api::Gl, Api::GlSafe];

    fn name(self) -> &'static str {
        match self {
            Api::Vulkan => "vulkan",
            Api::Gl => "gl",
            Api::GlSafe => "gl_safe",
        }
    }

    /// Whether wgpu's backend `name` (`wgpu::Backend::to_str`: `"vulkan"`, `"gl"`, ...) is
    /// the one this configuration asks for.
    pub fn runs_on_backend(self, name: &str) -> bool {
        match self {
            Api::Vulkan => name == "vulkan",
            Api::Gl | Api::GlSafe => name == "gl",
        }
    }

    /// The one backend to hand wgpu for this choice.
    pub fn backends(self) -> bevy::render::settings::Backends {
        use bevy::render::settings::Backends;
        match self {
            Api::Vulkan => Backends::VULKAN,
            Api::Gl | Api::GlSafe => Backends::GL,
        }
    }
}

/// What the last launch of a version wrote down.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GpuRecord {
    /// The app version that wrote it.
    pub version: String,
    /// The API the launch tried.
    pub api: Api,
    /// Whether frames were drawn with it.
    pub worked: bool,
    /// Whether the launch went to the background before it had proven the API: it stopped
    /// drawing, so if its process is gone it was killed there, not by the driver (absent, that
    /// is false, in records of older versions and in all but such a record).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub paused: bool,
    /// The APIs that failed before, for this version (absent in records of older versions).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub failed: Vec<Api>,
}

impl SaveFormat for GpuRecord {
    const FILE: &'static str = "gpu.ron";
    const WHAT: &'static str = "save.gpu";

    fn encode(&self) -> Result<String, String> {
        crate::persist::save_format::encode_pretty(self)
    }

    fn decode(text: &str) -> Result<Self, String> {
        ron::from_str(text).map_err(|e| format!("damaged: {e}"))
    }
}

/// This launch's choice for `version`, given what the last launch wrote down: the API and the
/// ones known to have failed for this version.
pub fn choose(last: Option<&GpuRecord>, version: &str) -> (Api, Vec<Api>) {
    match last {
        // It worked, or it had not finished its proof when it went to the background and was
        // killed there: nothing failed.
        Some(r) if r.version == version && (r.worked || r.paused) => (r.api, r.failed.clone()),
        // The last launch of this version died while drawing, before it had drawn enough:
        // that API failed.
        Some(r) if r.version == version => {
            let mut failed = r.failed.clone();
            if !failed.contains(&r.api) {
                failed.push(r.api);
            }
            (next_untried(&failed), failed)
        }
        // Nothing yet, or written by another version: Vulkan first.
        _ => (Api::Vulkan, Vec::new()),
    }
}

/// The first API of [`Api::ORDER`] not in `failed`; the last resort when all have failed.
fn next_untried(failed: &[Api]) -> Api {
    Api::ORDER
        .into_iter()
        .find(|api| !failed.contains(api))
        .unwrap_or(Api::GlSafe)
}

/// This launch's choice, and what to say about it once logging is up.
#[derive(Resource, Clone, Debug, PartialEq, Eq)]
pub struct GpuStart {
    /// The API asked for.
    pub api: Api,
    /// Whether every API has failed on this phone for this version: the HUD says so.
    pub all_failed: bool,
    /// When the choice was made (the start of the launch, for [`TIME_THAT_PROVES_IT`]).
    pub started: Instant,
    /// Lines for the log: why this API, and any trouble with the record.
    pub notes: Vec<String>,
}

/// Reads the last record in `dir`, picks this launch's API and writes "trying" down before
/// the renderer starts. A choice of Vulkan that has not worked before for this version asks
/// `vulkan_adapter_exists` first (on Android, a Vulkan-only wgpu instance); the probe runs
/// after "trying Vulkan" is written, so a driver that crashes in it is handled like one that
/// crashes later. Trouble with the file is noted, never fatal: without a data directory the
/// launch asks for Vulkan if the probe finds it.
pub fn start(
    dir: Option<&Path>,
    version: &str,
    vulkan_adapter_exists: impl FnOnce() -> bool,
) -> GpuStart {
    let mut notes = Vec::new();
    let last = match dir.map(storage::load::<GpuRecord>) {
        Some(Loaded::Latest(r) | Loaded::Backup { value: r, .. }) => Some(r),
        Some(Loaded::Nothing) | None => None,
        Some(Loaded::Unreadable { problem }) => {
            notes.push(format!("gpu record unreadable ({})", problem.why));
            None
        }
    };
    let (mut api, mut failed) = choose(last.as_ref(), version);
    if let Some(r) = last.as_ref().filter(|r| !r.worked && r.version == version) {
        notes.push(if r.paused {
            format!(
                "the last launch went to the background before it had proven {}: trying it again",
                r.api.name()
            )
        } else {
            format!(
                "the last launch died before it had drawn on {}: starting on {}",
                r.api.name(),
                api.name()
            )
        });
    }
    let trying = |api: Api, failed: &[Api], notes: &mut Vec<String>| {
        if let Some(dir) = dir {
            let record = GpuRecord {
                version: version.to_string(),
                api,
                worked: false,
                paused: false,
                failed: failed.to_vec(),
            };
            if let Err(e) = storage::save(dir, &record) {
                notes.push(e.to_string());
            }
        }
    };
    trying(api, &failed, &mut notes);
    let proven = last
        .as_ref()
        .is_some_and(|r| r.version == version && r.worked && r.api == api);
    if api == Api::Vulkan && !proven && !vulkan_adapter_exists() {
        failed.push(Api::Vulkan);
        api = next_untried(&failed);
        notes.push(format!("no Vulkan adapter: starting on {}", api.name()));
        trying(api, &failed, &mut notes);
    }
    let all_failed = Api::ORDER.iter().all(|a| failed.contains(a));
    if all_failed {
        notes.push("every graphics API failed on this device: running on the safest one".into());
    }
    GpuStart {
        api,
        all_failed,
        started: Instant::now(),
        notes,
    }
}

/// Whether the phone has a Vulkan adapter, asked of a Vulkan-only wgpu instance with no
/// surface (dropped before the renderer makes its own), so that GL ES can be chosen before
/// Vulkan has claimed the window.
#[cfg(target_os = "android")]
pub fn vulkan_adapter_exists() -> bool {
    let instance = wgpu::Instance::new(wgpu::InstanceDescriptor {
        backends: wgpu::Backends::VULKAN,
        ..wgpu::InstanceDescriptor::new_without_display_handle()
    });
    // Native adapters are enumerated at once; the future is ready on its first poll.
    let adapters = bevy::tasks::block_on(instance.enumerate_adapters(wgpu::Backends::VULKAN));
    !adapters.is_empty()
}

/// Logs [`GpuStart`]'s notes (a startup system: the choice is made before logging exists).
pub fn log_start(start: Option<Res<GpuStart>>) {
    for note in start.iter().flat_map(|s| s.notes.iter()) {
        warn!("{note}");
    }
}

/// How many frames must be drawn with every pipeline compiled (the whole scene at least
/// once) before the API counts as working.
pub const FRAMES_THAT_PROVE_IT: u32 = 3;

/// How long after the launch's choice "worked" may be written at the earliest: a driver that
/// dies a second into the game has not proven anything.
pub const TIME_THAT_PROVES_IT: Duration = Duration::from_secs(2);

/// The evidence that this launch's API draws: frames counted after rendering, only those that
/// began with no pipeline waiting to compile, since the launch or the last return from the
/// background.
#[derive(Debug)]
pub struct DrawProof {
    dir: PathBuf,
    version: String,
    api: Api,
    started: Instant,
    frames: u32,
    compiled: bool,
    written: bool,
    paused: bool,
}

impl DrawProof {
    /// The proof for a launch of `version` on `api` that made its choice at `started`,
    /// recorded in `dir`.
    pub fn new(dir: PathBuf, version: &str, api: Api, started: Instant) -> DrawProof {
        DrawProof {
            dir,
            version: version.to_string(),
            api,
            started,
            frames: 0,
            compiled: false,
            written: false,
            paused: false,
        }
    }

    /// Whether "worked" is still to be written.
    pub fn pending(&self) -> bool {
        !self.written
    }

    /// The app goes to the background before the proof is complete: the record says it
    /// stopped drawing ("paused"), so that a process killed in the background is not taken for
    /// a driver that crashed. Frames rendered while paused prove nothing. Returns whether the
    /// record was written.
    pub fn paused(&mut self) -> bool {
        if self.written || self.paused {
            return false;
        }
        self.paused = true;
        self.write(false, true)
    }

    /// Back from the background: drawing starts again, and so does the proof ("trying" again,
    /// with its frames and time counted from `now`). Returns whether the record was written.
    pub fn resumed(&mut self, now: Instant) -> bool {
        if self.written || !self.paused {
            return false;
        }
        self.paused = false;
        self.frames = 0;
        self.compiled = false;
        self.started = now;
        self.write(false, false)
    }

    /// Writes this launch's record, keeping the failures already on file.
    fn write(&self, worked: bool, paused: bool) -> bool {
        let record = GpuRecord {
            version: self.version.clone(),
            api: self.api,
            worked,
            paused,
            failed: match storage::load::<GpuRecord>(&self.dir) {
                Loaded::Latest(r) | Loaded::Backup { value: r, .. } => r.failed,
                _ => Vec::new(),
            },
        };
        match storage::save(&self.dir, &record) {
            Ok(()) => true,
            Err(e) => {
                warn!("{e}");
                false
            }
        }
    }

    /// One frame has been rendered and submitted on wgpu's `backend`; `waiting` says whether
    /// some pipeline was still compiling at its end. Writes "worked" once the proof is complete
    /// (once a launch) and returns whether it wrote.
    pub fn frame_rendered(&mut self, backend: &str, waiting: bool, now: Instant) -> bool {
        if self.written || self.paused {
            return false;
        }
        // A frame counts only if it began with every pipeline compiled.
        if self.compiled && self.api.runs_on_backend(backend) {
            self.frames += 1;
        }
        self.compiled = !waiting;
        if self.frames < FRAMES_THAT_PROVE_IT
            || now.saturating_duration_since(self.started) < TIME_THAT_PROVES_IT
        {
            return false;
        }
        self.written = true;
        self.write(true, false)
    }
}

/// The one [`DrawProof`] of a launch, shared by the render world (which counts the frames) and
/// the main world (which keeps frames coming until it is written, and says when the app goes
/// to the background and comes back).
#[derive(Resource, Clone, Debug)]
pub struct SharedProof(Arc<Mutex<DrawProof>>);

impl SharedProof {
    /// Shares `proof`.
    pub fn new(proof: DrawProof) -> SharedProof {
        SharedProof(Arc::new(Mutex::new(proof)))
    }

    /// The proof, for one step.
    pub fn lock(&self) -> MutexGuard<'_, DrawProof> {
        self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Whether "worked" is still to be written.
    pub fn pending(&self) -> bool {
        self.lock().pending()
    }
}

/// Until the proof is written the app draws on its own, whatever the player does: a reactive
/// app draws a few frames after the last activity and then sleeps until a tap (or its 60 s
/// wake), and a proof that waited for a tap would never be written by a player who opens the
/// app and leaves it.
pub fn keep_drawing_until_proven(
    proof: Res<SharedProof>,
    mut redraw: MessageWriter<bevy::window::RequestRedraw>,
) {
    if proof.pending() {
        redraw.write(bevy::window::RequestRedraw);
    }
}

/// The lifecycle's steps, told to the proof: paused when the app goes to the background (the
/// game is saved and the work stops there), resumed when it comes back.
pub fn follow_lifecycle(
    proof: Res<SharedProof>,
    mut steps: MessageReader<crate::platform::lifecycle::Steps>,
) {
    for step in steps.read() {
        if step.pause_work {
            proof.lock().paused();
        }
        if step.resume_work {
            proof.lock().resumed(Instant::now());
        }
    }
}

/// The main world's part of the proof ([`keep_drawing_until_proven`], [`follow_lifecycle`]),
/// and the render world's, where there is one ([`prove_drawing`]).
pub fn proof_plugin(app: &mut App, proof: SharedProof) {
    use bevy::render::{Render, RenderApp, RenderSystems};
    app.insert_resource(proof.clone())
        .add_systems(Last, keep_drawing_until_proven)
        .add_systems(
            PostUpdate,
            follow_lifecycle.after(crate::platform::lifecycle::LifecycleSystems),
        );
    if let Some(render_app) = app.get_sub_app_mut(RenderApp) {
        render_app
            .insert_resource(proof)
            .add_systems(Render, prove_drawing.in_set(RenderSystems::Cleanup));
    }
}

/// The render world's system: counts the frame just rendered (it runs in
/// `RenderSystems::Cleanup`, after the frame's commands were submitted).
fn prove_drawing(
    adapter: Res<bevy::render::renderer::RenderAdapterInfo>,
    cache: Res<bevy::render::render_resource::PipelineCache>,
    proof: Res<SharedProof>,
) {
    let mut proof = proof.lock();
    if proof.written {
        return;
    }
    let waiting = crate::app::power::drawing_pipelines_waiting(&cache);
    if proof.frame_rendered(adapter.backend.to_str(), waiting, Instant::now()) {
        info!(
            "rendering on {} ({})",
            adapter.backend.to_str(),
            adapter.name
        );
    }
}

impl GpuStart {
    /// The render plugin that asks wgpu for this choice's one backend (and, for the last
    /// resort, WebGL2-level limits).
    pub fn render_plugin(&self) -> bevy::render::RenderPlugin {
        use bevy::render::settings::{RenderCreation, WgpuSettings, WgpuSettingsPriority};
        let mut settings = WgpuSettings {
            backends: Some(self.api.backends()),
            ..default()
        };
        if self.api == Api::GlSafe {
            settings.priority = WgpuSettingsPriority::WebGL2;
        }
        bevy::render::RenderPlugin {
            render_creation: RenderCreation::Automatic(Box::new(settings)),
            ..default()
        }
    }
}

/// What the app does after a render error, beyond saving the game, on each platform.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RenderErrorResponse {
    /// Send `AppExit::error()`: the event loop ends the app.
    pub exit_request: bool,
    /// End the process as well: on Android an exit request leaves it alive, and the next
    /// launch in it panics in winit (issue 3325).
    pub end_process: bool,
    /// Tell the player on screen ([`crate::platform::show_render_failure`]): where the app
    /// cannot end itself the last frame would stay on screen, frozen. iOS: winit ignores exit
    /// requests (an iOS app does not quit itself). A browser: the page stays, its canvas dead.
    pub tell_player: bool,
}

/// The platforms whose render error responses differ.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Platform {
    Desktop,
    Android,
    Ios,
    Web,
}

impl Platform {
    /// The platform this build runs on.
    pub const HERE: Platform = if cfg!(target_os = "android") {
        Platform::Android
    } else if cfg!(target_os = "ios") {
        Platform::Ios
    } else if cfg!(all(target_family = "wasm", target_os = "unknown")) {
        Platform::Web
    } else {
        Platform::Desktop
    };
}

impl RenderErrorResponse {
    /// The response on `platform`.
    pub fn on(platform: Platform) -> RenderErrorResponse {
        match platform {
            Platform::Desktop => RenderErrorResponse {
                exit_request: true,
                end_process: false,
                tell_player: false,
            },
            Platform::Android => RenderErrorResponse {
                exit_request: true,
                end_process: true,
                tell_player: false,
            },
            // An exit request would stop the app's updates for nothing: the app stays on
            // screen, and says what happened over the dead frame.
            Platform::Ios | Platform::Web => RenderErrorResponse {
                exit_request: false,
                end_process: false,
                tell_player: true,
            },
        }
    }
}

/// In the main world once a render error was handled (the game written, the player told or
/// the app ended). Bevy asks the handler again every frame while rendering is stopped: the
/// next times it only says to stay stopped.
#[derive(Resource, Clone, Debug, PartialEq, Eq)]
pub struct RenderFailed {
    /// Whether the game was written.
    pub saved: bool,
    /// What the player was told, in the app's language (empty where the app ends instead).
    pub told: String,
}

/// The app's render error handler (a wgpu device lost, out of memory, a validation error).
/// Bevy's default sends `AppExit::error`, which on Android leaves the process alive (the next
/// launch in that process panics in winit, issue 3325) and on iOS is ignored, leaving a frozen
/// frame. This one writes the game first, then does what [`RenderErrorResponse::on`] says for
/// [`Platform::HERE`]. The GPU record is left as it is: an API that never proved itself is
/// switched at the next launch, one that did is kept.
pub fn on_render_error(
    error: &bevy::render::error_handler::RenderError,
    main_world: &mut World,
    _render_world: &mut World,
) -> bevy::render::error_handler::RenderErrorPolicy {
    respond_to_render_error(error, main_world, Platform::HERE)
}

/// [`on_render_error`] for a given platform (the tests drive each one).
pub fn respond_to_render_error(
    error: &bevy::render::error_handler::RenderError,
    main_world: &mut World,
    platform: Platform,
) -> bevy::render::error_handler::RenderErrorPolicy {
    use bevy::render::error_handler::RenderErrorPolicy;
    if main_world.contains_resource::<RenderFailed>() {
        return RenderErrorPolicy::StopRendering;
    }
    error!(
        "render error ({:?}): {}; saving the game",
        error.ty, error.description
    );
    let saved = crate::persist::save::save_now(main_world);
    if !saved {
        warn!("the game could not be written: the last autosave stands");
    }
    let response = RenderErrorResponse::on(platform);
    let mut told = String::new();
    if response.tell_player {
        let lang = main_world
            .get_resource::<crate::prefs::i18n::Language>()
            .map_or_else(Default::default, |l| l.0);
        let key = if saved {
            "notice.render_failed"
        } else {
            "notice.render_failed_unsaved"
        };
        told = crate::prefs::i18n::Said::new(key).in_lang(lang);
        if platform == Platform::HERE {
            crate::platform::show_render_failure(&told);
        }
    }
    main_world.insert_resource(RenderFailed { saved, told });
    if response.exit_request {
        main_world.write_message(AppExit::error());
    }
    if response.end_process && platform == Platform::HERE {
        crate::platform::end_process(1);
    }
    RenderErrorPolicy::StopRendering
}

/// The render error handler everywhere; on Android also the record: the render world proves
/// the API draws and writes it beside the saves (`dir`), and the launch's notes are logged.
pub(crate) fn plugin(app: &mut App, #[cfg(target_os = "android")] dir: Option<PathBuf>) {
    app.insert_resource(bevy::render::error_handler::RenderErrorHandler(
        on_render_error,
    ));
    #[cfg(target_os = "android")]
    {
        let start = app.world().get_resource::<GpuStart>().cloned();
        if let (Some(dir), Some(start)) = (dir, start.as_ref()) {
            let proof = DrawProof::new(dir, env!("CARGO_PKG_VERSION"), start.api, start.started);
            proof_plugin(app, SharedProof::new(proof));
        }
        app.add_systems(Startup, (log_start, say_when_all_failed));
        if start.as_ref().is_some_and(|s| s.api == Api::GlSafe) {
            app.add_systems(PostUpdate, no_multisampling);
        }
    }
    // A phone's or a tablet's browser draws as native Android does: no MSAA, no shadows (unless
    // the address asks for them), and the page caps the pixel ratio at 2 (web/index.html).
    // Software WebGL and a phone's GPU in a browser have the least fill rate to spare.
    #[cfg(all(target_family = "wasm", target_os = "unknown"))]
    if crate::platform::web::touch_first() {
        app.add_systems(PostUpdate, no_multisampling);
        if !app.world().contains_resource::<crate::board::Shadows>() {
            app.insert_resource(crate::board::Shadows(false));
        }
    }
}

/// The last resort draws without multisampling (a camera's MSAA comes with it by default); so
/// does a touch-first browser.
#[cfg(any(
    target_os = "android",
    all(target_family = "wasm", target_os = "unknown")
))]
fn no_multisampling(mut cameras: Query<&mut Msaa, Added<Msaa>>) {
    for mut msaa in &mut cameras {
        *msaa = Msaa::Off;
    }
}

/// Says plainly on screen that the phone's graphics driver failed in every mode.
#[cfg(target_os = "android")]
fn say_when_all_failed(
    start: Option<Res<GpuStart>>,
    mut notice: ResMut<crate::game::flow::Notice>,
) {
    if start.is_some_and(|s| s.all_failed) {
        notice.error(crate::prefs::i18n::Said::new("notice.gpu_failed"));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bevy::render::settings::Backends;

    fn record(version: &str, api: Api, worked: bool, failed: &[Api]) -> GpuRecord {
        GpuRecord {
            version: version.into(),
            api,
            worked,
            paused: false,
            failed: failed.to_vec(),
        }
    }

    #[test]
    fn each_choice_asks_wgpu_for_one_backend() {
        assert_eq!(choose(None, "1.0.0"), (Api::Vulkan, vec![]));
        assert_eq!(Api::Vulkan.backends(), Backends::VULKAN);
        assert_eq!(Api::Gl.backends(), Backends::GL);
        assert_eq!(Api::GlSafe.backends(), Backends::GL);
        assert!(Api::GlSafe.runs_on_backend("gl") && !Api::Vulkan.runs_on_backend("gl"));
    }

    #[test]
    fn a_launch_that_died_moves_on_to_the_next_api_and_remembers() {
        let v = "1.0.0";
        assert_eq!(
            choose(Some(&record(v, Api::Vulkan, false, &[])), v),
            (Api::Gl, vec![Api::Vulkan])
        );
        assert_eq!(
            choose(Some(&record(v, Api::Gl, false, &[Api::Vulkan])), v),
            (Api::GlSafe, vec![Api::Vulkan, Api::Gl])
        );
        // Everything failed: the last resort again, never a launch with nothing to try.
        let all = [Api::Vulkan, Api::Gl];
        assert_eq!(
            choose(Some(&record(v, Api::GlSafe, false, &all)), v),
            (Api::GlSafe, vec![Api::Vulkan, Api::Gl, Api::GlSafe])
        );
        // A first launch that found no Vulkan and then died on GL ES.
        assert_eq!(
            choose(Some(&record(v, Api::Gl, false, &[Api::Vulkan])), v).0,
            Api::GlSafe
        );
    }

    #[test]
    fn what_worked_is_kept_until_an_update() {
        let gl = record("1.0.0", Api::Gl, true, &[Api::Vulkan]);
        assert_eq!(choose(Some(&gl), "1.0.0"), (Api::Gl, vec![Api::Vulkan]));
        assert_eq!(choose(Some(&gl), "1.1.0"), (Api::Vulkan, vec![]));
        // A crash recorded by an older version says nothing about this one.
        let died = record("1.0.0", Api::Vulkan, false, &[]);
        assert_eq!(choose(Some(&died), "1.1.0").0, Api::Vulkan);
    }

    #[test]
    fn the_record_reads_back_and_bad_files_are_refused_with_a_reason() {
        for r in [
            record("0.3.1", Api::Vulkan, false, &[]),
            record("0.3.1", Api::GlSafe, true, &[Api::Vulkan, Api::Gl]),
        ] {
            assert_eq!(GpuRecord::decode(&r.encode().expect("encodes")), Ok(r));
        }
        // The layout earlier versions wrote (no list of failures) reads the same.
        assert_eq!(
            GpuRecord::decode("(version: \"0.3.1\", api: gl, worked: true)\n"),
            Ok(record("0.3.1", Api::Gl, true, &[]))
        );
        let err = GpuRecord::decode("(version: \"1\", api: metal, worked: true)").unwrap_err();
        assert!(err.contains("metal"), "{err}");
        assert!(GpuRecord::decode("vulkan").is_err());
        assert!(GpuRecord::decode("(version: \"1\", api: gl)").is_err());
    }

    fn temp_dir(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("montello-gpu-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        dir
    }

    fn on_file(dir: &Path) -> GpuRecord {
        match storage::load::<GpuRecord>(dir) {
            Loaded::Latest(r) => r,
            other => panic!("no record: {other:?}"),
        }
    }

    /// A launch that found Vulkan; `probed` counts the probes.
    fn launch(dir: &Path, version: &str, probed: &mut u32) -> GpuStart {
        start(Some(dir), version, || {
            *probed += 1;
            true
        })
    }

    /// Every way a launch can end, through the file, launch after launch.
    #[test]
    fn launches_through_the_file() {
        let dir = temp_dir("cycle");
        let v = "2.0.0";
        let mut probed = 0;

        // 1. Vulkan, probed first; "trying" is on file before the renderer exists. It crashes
        //    during the first draw: no frame is ever counted.
        let first = launch(&dir, v, &mut probed);
        assert_eq!((first.api, probed), (Api::Vulkan, 1));
        assert!(first.notes.is_empty() && !first.all_failed, "{first:?}");
        assert_eq!(on_file(&dir), record(v, Api::Vulkan, false, &[]));
        let mut proof = DrawProof::new(dir.clone(), v, first.api, first.started);
        assert!(!proof.frame_rendered("vulkan", true, first.started));

        // 2. GL ES. It compiles everything and draws two frames, then crashes before the third,
        //    although seconds have passed.
        let second = launch(&dir, v, &mut probed);
        assert_eq!((second.api, probed), (Api::Gl, 1), "no probe for GL ES");
        assert!(
            second.notes[0].contains("died before it had drawn on vulkan"),
            "{second:?}"
        );
        assert!(matches!(
            second.render_plugin().render_creation,
            bevy::render::settings::RenderCreation::Automatic(ref w)
                if w.backends == Some(Backends::GL)
        ));
        let t0 = second.started;
        let mut proof = DrawProof::new(dir.clone(), v, second.api, t0);
        let late = t0 + Duration::from_secs(5);
        assert!(!proof.frame_rendered("gl", true, late), "still compiling");
        assert!(
            !proof.frame_rendered("gl", false, late),
            "compiled during this frame"
        );
        assert!(!proof.frame_rendered("gl", false, late), "frame 1");
        assert!(!proof.frame_rendered("gl", false, late), "frame 2");
        assert_eq!(on_file(&dir), record(v, Api::Gl, false, &[Api::Vulkan]));

        // 3. The last resort, WebGL2-level limits. It draws three frames within the first
        //    two seconds (not yet proof), then keeps drawing: "worked" once, after 2 s.
        let third = launch(&dir, v, &mut probed);
        assert_eq!(third.api, Api::GlSafe);
        assert!(!third.all_failed, "GlSafe has not failed yet");
        assert!(matches!(
            third.render_plugin().render_creation,
            bevy::render::settings::RenderCreation::Automatic(ref w)
                if w.backends == Some(Backends::GL)
                    && matches!(w.priority, bevy::render::settings::WgpuSettingsPriority::WebGL2)
        ));
        let t0 = third.started;
        let mut proof = DrawProof::new(dir.clone(), v, third.api, t0);
        for ms in [10, 20, 30, 40, 50] {
            assert!(!proof.frame_rendered("gl", false, t0 + Duration::from_millis(ms)));
        }
        assert!(!on_file(&dir).worked, "written before 2 s");
        assert!(proof.frame_rendered("gl", false, t0 + TIME_THAT_PROVES_IT));
        assert!(
            !proof.frame_rendered("gl", false, t0 + Duration::from_secs(9)),
            "written once a launch"
        );
        let worked = record(v, Api::GlSafe, true, &[Api::Vulkan, Api::Gl]);
        assert_eq!(on_file(&dir), worked);

        // 4. What worked is kept, with no probe.
        let fourth = launch(&dir, v, &mut probed);
        assert_eq!((fourth.api, probed), (Api::GlSafe, 1));
        assert!(fourth.notes.is_empty(), "{fourth:?}");

        // 5. An update tries Vulkan again.
        let updated = launch(&dir, "2.1.0", &mut probed);
        assert_eq!((updated.api, probed), (Api::Vulkan, 2));
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn frames_on_another_backend_or_still_compiling_prove_nothing() {
        let dir = temp_dir("backend");
        let t0 = Instant::now();
        let late = t0 + Duration::from_secs(10);
        let mut proof = DrawProof::new(dir.clone(), "1.0.0", Api::Vulkan, t0);
        for _ in 0..10 {
            assert!(
                !proof.frame_rendered("gl", false, late),
                "wgpu picked GL ES"
            );
        }
        let mut proof = DrawProof::new(dir.clone(), "1.0.0", Api::Vulkan, t0);
        for _ in 0..10 {
            assert!(
                !proof.frame_rendered("vulkan", true, late),
                "still compiling"
            );
        }
        assert!(matches!(storage::load::<GpuRecord>(&dir), Loaded::Nothing));
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn no_vulkan_adapter_means_gl_es_from_the_first_launch() {
        let dir = temp_dir("probe");
        let first = start(Some(&dir), "3.0.0", || false);
        assert_eq!(first.api, Api::Gl);
        assert!(first.notes[0].contains("no Vulkan adapter"), "{first:?}");
        assert_eq!(
            on_file(&dir),
            record("3.0.0", Api::Gl, false, &[Api::Vulkan])
        );
        // GL ES dies too: the last resort; it dies as well: the HUD says so from now on.
        let second = start(Some(&dir), "3.0.0", || panic!("no probe"));
        assert_eq!((second.api, second.all_failed), (Api::GlSafe, false));
        let third = start(Some(&dir), "3.0.0", || panic!("no probe"));
        assert_eq!((third.api, third.all_failed), (Api::GlSafe, true));
        assert!(
            third
                .notes
                .iter()
                .any(|n| n.contains("every graphics API failed"))
        );
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// How a phone draws on a working driver: its shaders compile for `compile` after the
    /// launch, then a frame every `frame`.
    struct Phone {
        compile: Duration,
        frame: Duration,
    }

    /// A recent phone: shaders in 0.4 s, 60 frames a second.
    const FAST: Phone = Phone {
        compile: Duration::from_millis(400),
        frame: Duration::from_millis(16),
    };
    /// An old one: shaders in 7 s, 20 frames a second.
    const SLOW: Phone = Phone {
        compile: Duration::from_secs(7),
        frame: Duration::from_millis(50),
    };

    impl Phone {
        /// Draws on `backend` from `from` to `to` after `t0`, the frames the app asks for
        /// itself; returns whether "worked" was written.
        fn draw(
            &self,
            proof: &SharedProof,
            backend: &str,
            t0: Instant,
            from: Duration,
            to: Duration,
        ) -> bool {
            let mut wrote = false;
            let mut t = from;
            while t < to && proof.pending() {
                wrote |= proof
                    .lock()
                    .frame_rendered(backend, t < self.compile, t0 + t);
                t += self.frame;
            }
            wrote
        }
    }

    /// A launch on `phone`: the choice, and the proof the app would share.
    fn launch_on(dir: &Path, version: &str) -> (GpuStart, SharedProof) {
        let start = start(Some(dir), version, || true);
        let proof = SharedProof::new(DrawProof::new(
            dir.to_path_buf(),
            version,
            start.api,
            start.started,
        ));
        (start, proof)
    }

    /// Opened, then home before any tap, then killed in the background: not a driver failure,
    /// on a fast phone (sent home after 1 s, before the 2 s of the proof) and on a slow one
    /// (still compiling when sent home). Frames are drawn without input until the proof is
    /// written, so a player who stays proves it without touching the screen.
    #[test]
    fn home_before_any_tap_and_killed_in_the_background_is_no_failure() {
        for (name, phone) in [("fast", &FAST), ("slow", &SLOW)] {
            let dir = temp_dir(&format!("home-{name}"));
            let v = "4.0.0";
            let home_at = if name == "fast" {
                Duration::from_secs(1)
            } else {
                Duration::from_secs(3)
            };
            let (first, proof) = launch_on(&dir, v);
            assert_eq!(first.api, Api::Vulkan);
            assert!(!phone.draw(&proof, "vulkan", first.started, Duration::ZERO, home_at));
            assert!(proof.lock().paused(), "{name}: the record says paused");
            assert_eq!(
                on_file(&dir),
                GpuRecord {
                    paused: true,
                    ..record(v, Api::Vulkan, false, &[])
                },
                "{name}"
            );
            // Frames of the last moment in the background count for nothing.
            assert!(!phone.draw(&proof, "vulkan", first.started, home_at, home_at * 4));
            // The process is killed there. The next launch: still Vulkan, nothing failed.
            let (second, proof) = launch_on(&dir, v);
            assert_eq!(
                (second.api, second.all_failed),
                (Api::Vulkan, false),
                "{name}"
            );
            assert!(second.notes[0].contains("background"), "{name}: {second:?}");
            assert_eq!(
                on_file(&dir),
                record(v, Api::Vulkan, false, &[]),
                "{name}: trying"
            );
            // This time the player stays, and never taps: the app's own frames prove it.
            let t0 = second.started;
            assert!(
                phone.draw(
                    &proof,
                    "vulkan",
                    t0,
                    Duration::ZERO,
                    Duration::from_secs(30)
                ),
                "{name}"
            );
            assert_eq!(on_file(&dir), record(v, Api::Vulkan, true, &[]), "{name}");
            let _ = std::fs::remove_dir_all(&dir);
        }
    }

    /// Sent home while compiling, back after a minute, then it crashes in its first frame
    /// back: that is a failure (it died while drawing). Back again and proven: kept.
    #[test]
    fn back_from_the_background_the_proof_starts_again() {
        let dir = temp_dir("resume");
        let v = "4.1.0";
        let (first, proof) = launch_on(&dir, v);
        let t0 = first.started;
        assert!(!SLOW.draw(&proof, "vulkan", t0, Duration::ZERO, Duration::from_secs(2)));
        assert!(proof.lock().paused());
        assert!(!proof.lock().paused(), "paused once");
        assert!(proof.lock().resumed(t0 + Duration::from_secs(60)));
        assert_eq!(
            on_file(&dir),
            record(v, Api::Vulkan, false, &[]),
            "trying again"
        );
        // It dies while drawing: the next launch moves on.
        let (second, proof) = launch_on(&dir, v);
        assert_eq!(second.api, Api::Gl);
        // GL ES: home after 10 s (compiled, 3 s past the shaders, but then paused), back, and
        // the proof counts its 2 s from the return.
        let t0 = second.started;
        assert!(!SLOW.draw(
            &proof,
            "gl",
            t0,
            Duration::ZERO,
            SLOW.compile + Duration::from_millis(120)
        ));
        assert!(proof.lock().paused());
        let back = Duration::from_secs(100);
        assert!(proof.lock().resumed(t0 + back));
        // The shaders are compiled by now; the surface is new, the frames count again.
        let phone = Phone {
            compile: back,
            frame: SLOW.frame,
        };
        assert!(!phone.draw(&proof, "gl", t0, back, back + Duration::from_millis(1900)));
        assert!(phone.draw(
            &proof,
            "gl",
            t0,
            back + Duration::from_millis(1900),
            back + Duration::from_secs(3)
        ));
        assert_eq!(on_file(&dir), record(v, Api::Gl, true, &[Api::Vulkan]));
        assert!(
            !proof.lock().paused() && !proof.lock().resumed(t0 + back * 2),
            "proven: no more writes"
        );
        assert_eq!(on_file(&dir), record(v, Api::Gl, true, &[Api::Vulkan]));
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// Real crashes on the first draw, on both phones: GL ES after one, safe mode with the
    /// notice after three, and Vulkan again after an update.
    #[test]
    fn crashes_while_drawing_move_down_the_ladder_until_an_update() {
        for (name, phone) in [("fast", &FAST), ("slow", &SLOW)] {
            let dir = temp_dir(&format!("crash-{name}"));
            let v = "5.0.0";
            let mut seen = Vec::new();
            for _ in 0..3 {
                let (launch, proof) = launch_on(&dir, v);
                seen.push((launch.api, launch.all_failed));
                // The first frame is submitted and the driver takes the process down with it.
                let first_frame = phone.compile + phone.frame;
                assert!(!phone.draw(
                    &proof,
                    launch.api.name(),
                    launch.started,
                    Duration::ZERO,
                    first_frame
                ));
            }
            assert_eq!(
                seen,
                [(Api::Vulkan, false), (Api::Gl, false), (Api::GlSafe, false)],
                "{name}"
            );
            let (safe, _) = launch_on(&dir, v);
            assert_eq!(
                (safe.api, safe.all_failed),
                (Api::GlSafe, true),
                "{name}: safe mode"
            );
            // The notice: the HUD's text for it exists (say_when_all_failed shows it).
            assert!(
                safe.notes
                    .iter()
                    .any(|n| n.contains("every graphics API failed"))
            );
            // An update tries Vulkan again.
            let (updated, _) = launch_on(&dir, "5.0.1");
            assert_eq!(
                (updated.api, updated.all_failed),
                (Api::Vulkan, false),
                "{name}"
            );
            let _ = std::fs::remove_dir_all(&dir);
        }
    }

    /// In the app: frames are asked for on every update while the proof is pending, with no
    /// input at all, and no more once it is written; the lifecycle's suspend and resume reach
    /// the record.
    #[test]
    fn the_app_draws_until_proven_and_tells_the_record_about_the_background() {
        use bevy::window::{AppLifecycle, RequestRedraw};
        let dir = temp_dir("app");
        let v = "6.0.0";
        let (start, proof) = launch_on(&dir, v);
        let mut app = App::new();
        app.add_plugins(MinimalPlugins)
            .add_message::<RequestRedraw>();
        crate::platform::lifecycle::logic_plugin(&mut app);
        proof_plugin(&mut app, proof.clone());
        // Frames asked for during one update: a reader after the proof's system counts what is
        // new since the update before.
        #[derive(Resource, Default)]
        struct Asked(usize);
        app.init_resource::<Asked>().add_systems(
            Last,
            (|mut asked: MessageReader<RequestRedraw>, mut n: ResMut<Asked>| {
                n.0 = asked.read().count();
            })
            .after(keep_drawing_until_proven),
        );
        let redraws = |app: &mut App| {
            app.update();
            app.world().resource::<Asked>().0
        };
        for _ in 0..200 {
            assert!(
                redraws(&mut app) > 0,
                "an idle app keeps drawing until proven"
            );
        }
        app.world_mut().write_message(AppLifecycle::WillSuspend);
        app.update();
        assert_eq!(
            on_file(&dir),
            GpuRecord {
                paused: true,
                ..record(v, Api::Vulkan, false, &[])
            }
        );
        app.world_mut().write_message(AppLifecycle::WillResume);
        app.update();
        assert_eq!(on_file(&dir), record(v, Api::Vulkan, false, &[]));
        assert!(FAST.draw(
            &proof,
            "vulkan",
            start.started,
            Duration::ZERO,
            Duration::from_secs(5)
        ));
        app.update();
        assert_eq!(redraws(&mut app), 0, "proven: the app may sleep");
        assert_eq!(on_file(&dir), record(v, Api::Vulkan, true, &[]));
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn no_data_directory_means_vulkan_if_found_and_no_file() {
        assert_eq!(start(None, "1.0.0", || true).api, Api::Vulkan);
        assert_eq!(start(None, "1.0.0", || false).api, Api::Gl);
    }
}
