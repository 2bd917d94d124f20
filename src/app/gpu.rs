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
//!   that far.
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
        Some(r) if r.version == version && r.worked => (r.api, r.failed.clone()),
        // The last launch of this version died before it had drawn enough: that API failed.
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
        notes.push(format!(
            "the last launch died before it had drawn on {}: starting on {}",
            r.api.name(),
            api.name()
        ));
    }
    let trying = |api: Api, failed: &[Api], notes: &mut Vec<String>| {
        if let Some(dir) = dir {
            let record = GpuRecord {
                version: version.to_string(),
                api,
                worked: false,
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

/// The render world's evidence that this launch's API draws: frames counted after rendering,
/// only those that began with no pipeline waiting to compile.
#[derive(Resource, Debug)]
pub struct DrawProof {
    dir: PathBuf,
    version: String,
    api: Api,
    started: Instant,
    frames: u32,
    compiled: bool,
    written: bool,
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
        }
    }

    /// One frame has been rendered and submitted on wgpu's `backend`; `waiting` says whether
    /// some pipeline was still compiling at its end. Writes "worked" once the proof is complete
    /// (once a launch) and returns whether it wrote.
    pub fn frame_rendered(&mut self, backend: &str, waiting: bool, now: Instant) -> bool {
        if self.written {
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
        let record = GpuRecord {
            version: self.version.clone(),
            api: self.api,
            worked: true,
            failed: match storage::load::<GpuRecord>(&self.dir) {
                Loaded::Latest(r) | Loaded::Backup { value: r, .. } => r.failed,
                _ => Vec::new(),
            },
        };
        self.written = true;
        match storage::save(&self.dir, &record) {
            Ok(()) => true,
            Err(e) => {
                warn!("{e}");
                false
            }
        }
    }
}

/// The render world's system: counts the frame just rendered (it runs in
/// `RenderSystems::Cleanup`, after the frame's commands were submitted).
#[cfg_attr(
    not(target_os = "android"),
    allow(dead_code, reason = "scheduled on Android only")
)]
fn prove_drawing(
    adapter: Res<bevy::render::renderer::RenderAdapterInfo>,
    cache: Res<bevy::render::render_resource::PipelineCache>,
    mut proof: ResMut<DrawProof>,
) {
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

/// What the renderer does on a wgpu error (device lost, out of memory, a validation error):
/// Bevy's default sends `AppExit::error`, which on Android leaves the process alive, and the
/// next launch in that process panics in winit (issue 3325). This one writes the game first,
/// asks the app to exit, and ends the process where an exit request would not
/// ([`crate::platform::end_process`]). The GPU record is left as it is: an API that never
/// proved itself is switched at the next launch, one that did is kept.
pub fn on_render_error(
    error: &bevy::render::error_handler::RenderError,
    main_world: &mut World,
    _render_world: &mut World,
) -> bevy::render::error_handler::RenderErrorPolicy {
    error!(
        "render error ({:?}): {}; saving the game and exiting",
        error.ty, error.description
    );
    let saved = crate::persist::save::save_now(main_world);
    main_world.write_message(AppExit::error());
    if !saved {
        warn!("the game could not be written: the last autosave stands");
    }
    crate::platform::end_process(1);
    bevy::render::error_handler::RenderErrorPolicy::StopRendering
}

/// The render error handler everywhere; on Android also the record: the render world proves
/// the API draws and writes it beside the saves (`dir`), and the launch's notes are logged.
pub(crate) fn plugin(app: &mut App, #[cfg(target_os = "android")] dir: Option<PathBuf>) {
    app.insert_resource(bevy::render::error_handler::RenderErrorHandler(
        on_render_error,
    ));
    #[cfg(target_os = "android")]
    {
        use bevy::render::{Render, RenderApp, RenderSystems};
        let start = app.world().get_resource::<GpuStart>().cloned();
        if let (Some(dir), Some(start)) = (dir, start.as_ref())
            && let Some(render_app) = app.get_sub_app_mut(RenderApp)
        {
            render_app
                .insert_resource(DrawProof::new(
                    dir,
                    env!("CARGO_PKG_VERSION"),
                    start.api,
                    start.started,
                ))
                .add_systems(Render, prove_drawing.in_set(RenderSystems::Cleanup));
        }
        app.add_systems(Startup, (log_start, say_when_all_failed));
        if start.as_ref().is_some_and(|s| s.api == Api::GlSafe) {
            app.add_systems(PostUpdate, no_multisampling);
        }
    }
}

/// The last resort draws without multisampling (a camera's MSAA comes with it by default).
#[cfg(target_os = "android")]
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

    #[test]
    fn no_data_directory_means_vulkan_if_found_and_no_file() {
        assert_eq!(start(None, "1.0.0", || true).api, Api::Vulkan);
        assert_eq!(start(None, "1.0.0", || false).api, Api::Gl);
    }
}
