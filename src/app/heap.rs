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
    app.init_resource::<HeapReport>().add_systems(
        Last,
        (
            count,
            count_assets
                .run_if(on_message::<AssetEvent<Image>>.or_eager(on_message::<AssetEvent<Mesh>>)),
        )
            .chain(),
    );
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
