//! What the app's own heap holds, by owner (#68: a phone's browser ends a page that holds too
//! much, and nothing else says where the app's memory goes): the CPU copies of its images (the
//! font atlases among them) and of its meshes, into [`HeapReport`]: the heap's counters after
//! every frame, the assets in a frame where one of them changed; the report changes when a
//! figure does (the heap's in whole MiB). The browser's page publishes it (`data-heap`,
//! app::page) and web/test/memory.mjs prints it beside the renderer's resident memory;
//! natively it is logged at debug level when it changes (`RUST_LOG=montello=debug`).

use bevy::prelude::*;
use bevy::text::FontAtlasSet;
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

/// The system allocator, counting the bytes it lends: the executable installs it
/// (`#[global_allocator]` in src/main.rs), so [`HeapReport`] can tell what the heap holds now
/// from the most it ever held. A WebAssembly memory never shrinks, so in a browser the most
/// ever held, not what is held now, is what the page keeps.
#[derive(Debug)]
pub struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

fn lent(bytes: usize) {
    let live = LIVE.fetch_add(bytes, Ordering::Relaxed) + bytes;
    PEAK.fetch_max(live, Ordering::Relaxed);
}

// SAFETY: every call is passed on to the system allocator unchanged; the counters only watch.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's contract, passed on.
        let at = unsafe { System.alloc(layout) };
        if !at.is_null() {
            lent(layout.size());
        }
        at
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's contract, passed on.
        let at = unsafe { System.alloc_zeroed(layout) };
        if !at.is_null() {
            lent(layout.size());
        }
        at
    }

    unsafe fn dealloc(&self, at: *mut u8, layout: Layout) {
        // SAFETY: the caller's contract, passed on.
        unsafe { System.dealloc(at, layout) };
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
    }

    unsafe fn realloc(&self, at: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: the caller's contract, passed on.
        let moved = unsafe { System.realloc(at, layout, new_size) };
        if !moved.is_null() {
            LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
            lent(new_size);
        }
        moved
    }
}

/// The bytes the heap lends now and the most it ever lent, when [`Counting`] is the
/// allocator (zero otherwise: a test binary's, and Android's library, which has no
/// executable of its own to install it).
pub fn lent_now_and_most() -> (usize, usize) {
    (LIVE.load(Ordering::Relaxed), PEAK.load(Ordering::Relaxed))
}

pub(crate) fn plugin(app: &mut App) {
    app.init_resource::<HeapReport>()
        .add_systems(
            Last,
            (
                count,
                count_assets.run_if(
                    on_message::<AssetEvent<Image>>.or_eager(on_message::<AssetEvent<Mesh>>),
                ),
            )
                .chain(),
        )
        .add_systems(
            PostUpdate,
            drop_atlases_of_old_scale.before(bevy::ui::UiSystems::Prepare),
        );
}

/// Frees the glyph atlases of a scale the text no longer has.
///
/// bevy_text keeps an atlas per font size in physical pixels and never frees one. When the
/// scale changes (a browser lays out its first frames at 1 before the canvas takes the phone's
/// 2 or 3; the player's text size; a window moved to another screen), every text is laid out
/// again at the new scale in this frame's UI systems, which draw the glyphs they need into new
/// atlases, and the old scale's stay: 5 MiB on a phone's page for the board alone (#68). So
/// the whole set goes just before that layout, and nothing still points into it afterwards.
fn drop_atlases_of_old_scale(
    windows: Query<&Window, With<bevy::window::PrimaryWindow>>,
    ui_scale: Res<UiScale>,
    atlases: Option<ResMut<FontAtlasSet>>,
    mut last: Local<Option<f32>>,
) {
    let Ok(window) = windows.single() else {
        return;
    };
    // Physical pixels per point: the window's scale factor times the UI's.
    let scale = window.scale_factor() * ui_scale.0;
    if last.is_some_and(|was| was != scale)
        && let Some(mut atlases) = atlases
        && !atlases.is_empty()
    {
        debug!(
            "text scale {} -> {scale}: {} glyph atlas sizes freed",
            last.unwrap_or_default(),
            atlases.len()
        );
        atlases.clear();
    }
    *last = Some(scale);
}

/// What the heap lends, and what the main world's copies of the app's assets hold (the GPU's
/// copies are not here).
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct HeapReport {
    /// The heap's bytes lent now and the most ever lent ([`Counting`]), in MiB.
    pub heap_mib: usize,
    pub heap_peak_mib: usize,
    /// Images with a CPU copy, and its bytes.
    pub images: usize,
    pub image_bytes: u64,
    /// Of those, the text's glyph atlases (one set per font size in physical pixels, each at
    /// least 512x512 RGBA), their sizes and bytes.
    pub atlases: usize,
    pub atlas_sizes: usize,
    pub atlas_bytes: u64,
    /// Meshes with a CPU copy, and the bytes of their vertices and indices.
    pub meshes: usize,
    pub mesh_bytes: u64,
}

impl HeapReport {
    /// `heap 40/61 images 12/9437184 atlases 9/7/9437184 meshes 20/81920`: the heap in MiB,
    /// counts and bytes, for the page and the log.
    pub fn words(&self) -> String {
        format!(
            "heap {}/{} images {}/{} atlases {}/{}/{} meshes {}/{}",
            self.heap_mib,
            self.heap_peak_mib,
            self.images,
            self.image_bytes,
            self.atlases,
            self.atlas_sizes,
            self.atlas_bytes,
            self.meshes,
            self.mesh_bytes
        )
    }
}

/// The heap's figures after every frame (two counters read); the assets' only in a frame
/// where an image or a mesh was added, changed or dropped (a glyph drawn into an atlas
/// changes its image), not by walking them every frame.
fn count(mut report: ResMut<HeapReport>) {
    let (now, most) = lent_now_and_most();
    let (heap_mib, heap_peak_mib) = (now >> 20, most >> 20);
    if (report.heap_mib, report.heap_peak_mib) != (heap_mib, heap_peak_mib) {
        report.heap_mib = heap_mib;
        report.heap_peak_mib = heap_peak_mib;
        debug!("heap: {}", report.words());
    }
}

fn count_assets(
    images: Res<Assets<Image>>,
    meshes: Res<Assets<Mesh>>,
    atlases: Option<Res<FontAtlasSet>>,
    mut report: ResMut<HeapReport>,
) {
    let new = HeapReport {
        heap_mib: report.heap_mib,
        heap_peak_mib: report.heap_peak_mib,
        ..measure(&images, &meshes, atlases.as_deref())
    };
    if *report != new {
        *report = new;
        debug!("heap: {}", report.words());
    }
}

/// The report for these assets.
pub fn measure(
    images: &Assets<Image>,
    meshes: &Assets<Mesh>,
    atlases: Option<&FontAtlasSet>,
) -> HeapReport {
    let mut report = HeapReport::default();
    for (_, image) in images.iter() {
        if let Some(data) = &image.data {
            report.images += 1;
            report.image_bytes += data.len() as u64;
        }
    }
    if let Some(set) = atlases {
        report.atlas_sizes = set.len();
        report.atlases = set.values().map(Vec::len).sum();
        report.atlas_bytes = set.total_bytes(images);
    }
    for (_, mesh) in meshes.iter() {
        let Ok(attributes) = mesh.try_attributes() else {
            continue;
        };
        report.meshes += 1;
        report.mesh_bytes += attributes
            .map(|(_, values)| values.get_bytes().len() as u64)
            .sum::<u64>();
        if let Ok(Some(indices)) = mesh.try_indices_option() {
            let width = match indices {
                bevy::mesh::Indices::U16(_) => 2,
                bevy::mesh::Indices::U32(_) => 4,
            };
            report.mesh_bytes += (indices.len() * width) as u64;
        }
    }
    report
}

#[cfg(test)]
mod tests {
    use super::*;
    use bevy::asset::RenderAssetUsages;
    use bevy::render::render_resource::{Extent3d, TextureDimension, TextureFormat};
    use bevy::text::FontAtlasKey;

    /// An app with the window, the UI's scale and a set of atlases for `sizes` (in physical
    /// pixels), and the system that frees them.
    fn atlas_app(sizes: &[f32]) -> App {
        let mut app = App::new();
        app.insert_resource(UiScale(1.0))
            .init_resource::<FontAtlasSet>()
            .add_systems(Update, drop_atlases_of_old_scale);
        app.world_mut()
            .spawn((Window::default(), bevy::window::PrimaryWindow));
        add_atlases(&mut app, sizes);
        app
    }

    fn add_atlases(app: &mut App, sizes: &[f32]) {
        let mut set = app.world_mut().resource_mut::<FontAtlasSet>();
        for size in sizes {
            let key = FontAtlasKey {
                id: 0,
                index: 0,
                font_size_bits: size.to_bits(),
                variations_hash: 0,
                hinting: default(),
                font_smoothing: default(),
            };
            set.insert(key, Vec::new());
        }
    }

    fn sizes(app: &App) -> usize {
        app.world().resource::<FontAtlasSet>().len()
    }

    #[test]
    fn a_new_text_scale_frees_the_old_scales_atlases_and_only_then() {
        let mut app = atlas_app(&[13.0, 17.0]);
        app.update();
        app.update();
        assert_eq!(sizes(&app), 2, "the scale did not change: the atlases stay");
        // The player's text size (or a tablet's): every text is laid out again at 1.25.
        app.world_mut().resource_mut::<UiScale>().0 = 1.25;
        app.update();
        assert_eq!(sizes(&app), 0, "the old scale's atlases are freed");
        add_atlases(&mut app, &[16.25, 21.25]);
        app.update();
        assert_eq!(sizes(&app), 2, "the new scale's atlases stay");
        // The canvas takes the phone's scale (a browser's first frames are at 1).
        let mut windows = app
            .world_mut()
            .query_filtered::<&mut Window, With<bevy::window::PrimaryWindow>>();
        windows
            .single_mut(app.world_mut())
            .expect("the window")
            .resolution
            .set_scale_factor(2.0);
        app.update();
        assert_eq!(sizes(&app), 0, "the window's new scale frees them too");
    }

    #[test]
    fn images_and_meshes_are_counted_by_their_cpu_copies() {
        let mut images = Assets::<Image>::default();
        let image = |usage| {
            Image::new_fill(
                Extent3d {
                    width: 4,
                    height: 2,
                    depth_or_array_layers: 1,
                },
                TextureDimension::D2,
                &[0, 0, 0, 255],
                TextureFormat::Rgba8UnormSrgb,
                usage,
            )
        };
        images.add(image(RenderAssetUsages::default()));
        images.add(image(RenderAssetUsages::default()));
        let mut meshes = Assets::<Mesh>::default();
        // A cuboid: 24 vertices of position, normal and uv (32 bytes), 36 u32 indices.
        meshes.add(Cuboid::default());
        let report = measure(&images, &meshes, None);
        assert_eq!((report.images, report.image_bytes), (2, 2 * 4 * 2 * 4));
        assert_eq!((report.meshes, report.mesh_bytes), (1, 24 * 32 + 36 * 4));
        assert_eq!(
            report.words(),
            "heap 0/0 images 2/64 atlases 0/0/0 meshes 1/912"
        );
    }
}
