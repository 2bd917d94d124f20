//! Which graphics API the renderer starts on, so that a phone whose Vulkan driver Bevy cannot
//! live with still gets a game: Android builds both of wgpu's Vulkan and GL ES backends
//! (docs/mobile.md, "GPU").
//!
//! - A launch normally asks for Vulkan, with GL ES allowed too: wgpu ranks a Vulkan adapter
//!   first, so GL ES is used only where the phone has no Vulkan driver at all.
//! - Before the renderer starts, the launch writes down what it is trying (`gpu.ron` in the
//!   data directory, with the app's version). Once every shader has compiled and frames
//!   have been drawn with them, it writes down what worked ([`record_working_backend`]).
//! - A launch that finds "trying Vulkan" from the same version knows the previous one died
//!   before drawing (a driver crash, a panic in the renderer) and asks for GL ES only; and
//!   the other way round. What worked is kept until the app is updated, when Vulkan is tried
//!   again (a new Bevy or wgpu may have fixed what failed).
//!
//! The decision is a pure function ([`choose`]) with its tests here; the file goes through
//! [`crate::persist::storage`], like the saves.

use crate::persist::storage::{self, Loaded, SaveFormat};
use bevy::prelude::*;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// A graphics API the renderer can start on (written `vulkan` or `gl` in the record).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Api {
    /// Vulkan (GL ES still allowed where no Vulkan adapter exists).
    Vulkan,
    /// GL ES only.
    Gl,
}

impl Api {
    fn name(self) -> &'static str {
        match self {
            Api::Vulkan => "vulkan",
            Api::Gl => "gl",
        }
    }

    fn other(self) -> Api {
        match self {
            Api::Vulkan => Api::Gl,
            Api::Gl => Api::Vulkan,
        }
    }

    /// The API of a wgpu backend's name (`wgpu::Backend::to_str`: `"vulkan"`, `"gl"`, ...).
    pub fn of_backend(name: &str) -> Option<Api> {
        match name {
            "vulkan" => Some(Api::Vulkan),
            "gl" => Some(Api::Gl),
            _ => None,
        }
    }

    /// The backends to hand wgpu for this choice.
    pub fn backends(self) -> bevy::render::settings::Backends {
        use bevy::render::settings::Backends;
        match self {
            Api::Vulkan => Backends::VULKAN | Backends::GL,
            Api::Gl => Backends::GL,
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

/// The API this launch of `version` should start on, given what the last launch wrote down.
pub fn choose(last: Option<&GpuRecord>, version: &str) -> Api {
    match last {
        Some(r) if r.version == version && r.worked => r.api,
        // The last launch of this version died before it drew: the other API.
        Some(r) if r.version == version => r.api.other(),
        // Nothing yet, or written by another version: Vulkan first.
        _ => Api::Vulkan,
    }
}

/// Where the record lives, kept as a resource for [`record_working_backend`].
#[derive(Resource, Clone, Debug)]
pub struct GpuRecordDir(pub PathBuf);

/// This launch's choice, and what to say about it once logging is up.
#[derive(Resource, Clone, Debug, PartialEq, Eq)]
pub struct GpuStart {
    /// The API asked for.
    pub api: Api,
    /// Lines for the log: why this API, and any trouble with the record.
    pub notes: Vec<String>,
}

/// Reads the last record in `dir`, picks this launch's API and writes "trying" down before
/// the renderer starts. Trouble with the file is noted, never fatal: without a data
/// directory the launch simply asks for Vulkan.
pub fn start(dir: Option<&Path>, version: &str) -> GpuStart {
    let mut notes = Vec::new();
    let Some(dir) = dir else {
        return GpuStart {
            api: Api::Vulkan,
            notes,
        };
    };
    let last = match storage::load::<GpuRecord>(dir) {
        Loaded::Latest(r) | Loaded::Backup { value: r, .. } => Some(r),
        Loaded::Nothing => None,
        Loaded::Unreadable { problem } => {
            notes.push(format!("gpu record unreadable ({})", problem.why));
            None
        }
    };
    let api = choose(last.as_ref(), version);
    if last
        .as_ref()
        .is_some_and(|r| !r.worked && r.version == version)
    {
        notes.push(format!(
            "the last launch died before drawing on {}: starting on {}",
            api.other().name(),
            api.name()
        ));
    }
    let trying = GpuRecord {
        version: version.to_string(),
        api,
        worked: false,
    };
    if let Err(e) = storage::save(dir, &trying) {
        notes.push(e.to_string());
    }
    GpuStart { api, notes }
}

/// Logs [`GpuStart`]'s notes (a startup system: the choice is made before logging exists).
pub fn log_start(start: Option<Res<GpuStart>>) {
    for note in start.iter().flat_map(|s| s.notes.iter()) {
        warn!("{note}");
    }
}

/// How many frames must run after every shader compiled (the whole scene drawn at least
/// once) before the API counts as working. The app draws a few frames after the last
/// activity (`power`'s afterglow), so this many come without any input.
pub const FRAMES_THAT_PROVE_IT: u32 = 2;

/// Once the renderer exists, every pipeline has compiled and [`FRAMES_THAT_PROVE_IT`]
/// frames have run since, writes down the backend wgpu really picked as working (once per
/// launch).
#[cfg_attr(
    not(target_os = "android"),
    allow(dead_code, reason = "scheduled on Android only")
)]
pub(crate) fn record_working_backend(
    adapter: Option<Res<bevy::render::renderer::RenderAdapterInfo>>,
    pipelines: Option<Res<super::power::PipelinesPending>>,
    dir: Option<Res<GpuRecordDir>>,
    mut frames: Local<u32>,
) {
    let compiled = pipelines.is_some_and(|p| !p.pending());
    if let (Some(adapter), Some(dir), true) = (adapter, dir, compiled)
        && count_frame(&mut frames, &dir.0, adapter.backend.to_str())
    {
        info!(
            "rendering on {} ({})",
            adapter.backend.to_str(),
            adapter.name
        );
    }
}

/// Counts one frame drawn on `backend` with every pipeline compiled and, at the frame that
/// proves it, writes the record.
/// Returns whether it wrote.
fn count_frame(frames: &mut u32, dir: &Path, backend: &str) -> bool {
    *frames += 1;
    if *frames != FRAMES_THAT_PROVE_IT {
        return false;
    }
    let Some(api) = Api::of_backend(backend) else {
        return false;
    };
    let record = GpuRecord {
        version: env!("CARGO_PKG_VERSION").to_string(),
        api,
        worked: true,
    };
    match storage::save(dir, &record) {
        Ok(()) => true,
        Err(e) => {
            warn!("{e}");
            false
        }
    }
}

impl GpuStart {
    /// The render plugin that asks wgpu for this choice's backends.
    pub fn render_plugin(&self) -> bevy::render::RenderPlugin {
        use bevy::render::settings::{RenderCreation, WgpuSettings};
        bevy::render::RenderPlugin {
            render_creation: RenderCreation::Automatic(Box::new(WgpuSettings {
                backends: Some(self.api.backends()),
                ..default()
            })),
            ..default()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bevy::render::settings::Backends;

    fn record(version: &str, api: Api, worked: bool) -> GpuRecord {
        GpuRecord {
            version: version.into(),
            api,
            worked,
        }
    }

    #[test]
    fn a_first_launch_asks_for_vulkan_with_gl_allowed() {
        assert_eq!(choose(None, "1.0.0"), Api::Vulkan);
        assert_eq!(Api::Vulkan.backends(), Backends::VULKAN | Backends::GL);
        assert_eq!(Api::Gl.backends(), Backends::GL);
    }

    #[test]
    fn a_launch_that_died_before_drawing_switches_api() {
        assert_eq!(
            choose(Some(&record("1.0.0", Api::Vulkan, false)), "1.0.0"),
            Api::Gl
        );
        assert_eq!(
            choose(Some(&record("1.0.0", Api::Gl, false)), "1.0.0"),
            Api::Vulkan
        );
    }

    #[test]
    fn what_worked_is_kept_until_an_update() {
        let gl = record("1.0.0", Api::Gl, true);
        assert_eq!(choose(Some(&gl), "1.0.0"), Api::Gl);
        assert_eq!(choose(Some(&gl), "1.1.0"), Api::Vulkan);
        // A crash recorded by an older version says nothing about this one.
        let died = record("1.0.0", Api::Vulkan, false);
        assert_eq!(choose(Some(&died), "1.1.0"), Api::Vulkan);
    }

    #[test]
    fn the_record_reads_back_and_bad_files_are_refused_with_a_reason() {
        for r in [
            record("0.3.1", Api::Vulkan, false),
            record("0.3.1", Api::Gl, true),
        ] {
            assert_eq!(GpuRecord::decode(&r.encode().expect("encodes")), Ok(r));
        }
        // The layout the first version wrote by hand reads the same.
        assert_eq!(
            GpuRecord::decode("(version: \"0.3.1\", api: gl, worked: true)\n"),
            Ok(record("0.3.1", Api::Gl, true))
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

    /// The whole cycle through the files: a launch that dies before drawing makes the next
    /// one start on GL ES; one that draws keeps its API.
    #[test]
    fn launches_through_the_file() {
        let dir = temp_dir("cycle");
        let first = start(Some(&dir), "2.0.0");
        assert_eq!(first.api, Api::Vulkan);
        assert!(first.notes.is_empty(), "{first:?}");
        // ... and died before drawing.
        let second = start(Some(&dir), "2.0.0");
        assert_eq!(second.api, Api::Gl);
        assert!(
            second.notes[0].contains("died before drawing on vulkan"),
            "{second:?}"
        );
        assert!(matches!(
            second.render_plugin().render_creation,
            bevy::render::settings::RenderCreation::Automatic(ref w)
                if w.backends == Some(Backends::GL)
        ));

        // This one draws: the frame counter writes "worked" for the backend wgpu picked.
        let mut frames = 0;
        for _ in 0..FRAMES_THAT_PROVE_IT - 1 {
            assert!(!count_frame(&mut frames, &dir, "gl"));
        }
        let before = storage::load::<GpuRecord>(&dir);
        assert!(
            matches!(&before, Loaded::Latest(r) if !r.worked),
            "written too early: {before:?}"
        );
        assert!(count_frame(&mut frames, &dir, "gl"));
        assert!(
            !count_frame(&mut frames, &dir, "gl"),
            "written once a launch"
        );
        let after = storage::load::<GpuRecord>(&dir);
        assert!(
            matches!(&after, Loaded::Latest(r) if r.worked && r.api == Api::Gl
                && r.version == env!("CARGO_PKG_VERSION")),
            "{after:?}"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn no_data_directory_means_vulkan_and_no_file() {
        assert_eq!(start(None, "1.0.0").api, Api::Vulkan);
    }
}

/// Android: once the app draws, records the API that works beside the saves (`dir`), and logs
/// what this launch tries.
#[cfg(target_os = "android")]
pub(crate) fn plugin(app: &mut App, dir: Option<PathBuf>) {
    if let Some(dir) = dir {
        app.insert_resource(GpuRecordDir(dir))
            .add_systems(Last, record_working_backend);
    }
    app.add_systems(Startup, log_start);
}
