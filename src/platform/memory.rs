//! How much memory the engine may hold, by the kind of device the app runs on.
//!
//! A browser ends a page that holds too much, a phone's at less than a desktop's (Mobile Safari
//! above all), and WebAssembly's memory never shrinks: every byte a search once touched stays
//! the page's. So in a browser the engine's pools are sized by device class, as lichess sizes
//! its engine's table (32 MB on iOS): the largest search tree a move or a hint may grow
//! ([`EngineMemory::tree`]; the alpha-beta half of a move takes a quarter of it), and the
//! review's and the values' tables ([`EngineMemory::table`]: the worker empties its trees
//! before them, web/worker; the estimates' 4 MiB on every device). The
//! class comes from what the browser says of itself: `navigator.deviceMemory` (Chromium's
//! coarse figure in GB; Safari has none), whether the main pointer is a finger, and the
//! screen's shorter side. The native builds keep the levels' own pools (a phone app is not
//! ended at a browser tab's size). docs/web.md has the figures behind each budget.

use bevy::prelude::*;

/// The kinds of device the engine's memory is sized for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DeviceClass {
    /// A phone, any device with 2 GB or less, and every iPhone.
    Phone,
    /// A tablet, or a small-memory computer.
    Tablet,
    /// A computer, and the native builds.
    Desktop,
}

/// What a browser tells of the device (read from the page by [`DeviceClass::of_this_device`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DeviceSigns {
    /// `navigator.deviceMemory` in GB, where the browser gives it (Chromium: 0.25 to 8).
    pub memory_gb: Option<f64>,
    /// The main pointer is a finger (`(pointer: coarse)`).
    pub touch: bool,
    /// The screen's shorter side in CSS pixels.
    pub short_side: f64,
}

/// A touch screen whose shorter side is under this many CSS pixels is a phone's (the
/// largest phones are 440 wide; the smallest tablets 600, as Android's own `sw600dp` line).
const TABLET_SHORT_SIDE: f64 = 600.0;

impl DeviceClass {
    /// The class a browser's signs describe.
    pub fn from_signs(signs: DeviceSigns) -> DeviceClass {
        let memory = signs.memory_gb.unwrap_or(f64::INFINITY);
        if memory <= 2.0 || (signs.touch && signs.short_side < TABLET_SHORT_SIDE) {
            DeviceClass::Phone
        } else if signs.touch || memory <= 4.0 {
            DeviceClass::Tablet
        } else {
            DeviceClass::Desktop
        }
    }

    /// The class of the device running this build: in a browser from the page's signs, else
    /// [`DeviceClass::Desktop`].
    pub fn of_this_device() -> DeviceClass {
        #[cfg(all(target_family = "wasm", target_os = "unknown"))]
        if let Some(signs) = page_signs() {
            return DeviceClass::from_signs(signs);
        }
        DeviceClass::Desktop
    }

    /// The word the page publishes (`data-engine-memory`) and docs/web.md uses.
    pub fn name(self) -> &'static str {
        match self {
            DeviceClass::Phone => "phone",
            DeviceClass::Tablet => "tablet",
            DeviceClass::Desktop => "desktop",
        }
    }
}

/// The engine's memory on this device: a resource the searches read.
#[derive(Resource, Clone, Copy, Debug, PartialEq, Eq)]
pub struct EngineMemory {
    pub class: DeviceClass,
    /// The most bytes one search's tree may hold (its pool grows to it as the search needs).
    pub tree: usize,
    /// The most bytes the review's and the values' table may hold (the engine's default is 16
    /// MiB; a phone's half of it costs the solver 0.1% more nodes, docs/web.md).
    pub table: usize,
}

impl EngineMemory {
    /// The budget of a class. A desktop keeps Master's 128 MiB; a phone an eighth of it, which
    /// Master's pruning of a full pool makes cheap (docs/web.md "Memory": the strength it
    /// costs, measured at a quarter and at an eighth).
    pub fn of(class: DeviceClass) -> EngineMemory {
        let tree = match class {
            DeviceClass::Phone => 16 << 20,
            DeviceClass::Tablet => 64 << 20,
            DeviceClass::Desktop => 128 << 20,
        };
        let table = match class {
            DeviceClass::Phone => 8 << 20,
            DeviceClass::Tablet | DeviceClass::Desktop => 16 << 20,
        };
        EngineMemory { class, tree, table }
    }

    /// `wanted` bytes for a search's tree, held to this device's budget.
    pub fn cap(&self, wanted: usize) -> usize {
        wanted.min(self.tree)
    }

    /// `wanted` bytes for the review's or the values' table, held to this device's budget.
    pub fn cap_table(&self, wanted: usize) -> usize {
        wanted.min(self.table)
    }
}

impl Default for EngineMemory {
    fn default() -> Self {
        EngineMemory::of(DeviceClass::of_this_device())
    }
}

/// What the browser tells of the device.
#[cfg(all(target_family = "wasm", target_os = "unknown"))]
fn page_signs() -> Option<DeviceSigns> {
    let window = web_sys::window()?;
    let navigator = js_sys::Reflect::get(&window, &"navigator".into()).ok()?;
    let memory_gb = js_sys::Reflect::get(&navigator, &"deviceMemory".into())
        .ok()
        .and_then(|m| m.as_f64())
        .filter(|m| *m > 0.0);
    let touch = window
        .match_media("(pointer: coarse)")
        .ok()
        .flatten()
        .is_some_and(|m| m.matches());
    let screen = js_sys::Reflect::get(&window, &"screen".into()).ok()?;
    let side = |name: &str| {
        js_sys::Reflect::get(&screen, &name.into())
            .ok()
            .and_then(|v| v.as_f64())
    };
    let short_side = side("width")?.min(side("height")?);
    Some(DeviceSigns {
        memory_gb,
        touch,
        short_side,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn signs(memory_gb: Option<f64>, touch: bool, short_side: f64) -> DeviceSigns {
        DeviceSigns {
            memory_gb,
            touch,
            short_side,
        }
    }

    #[test]
    fn devices_are_classed_by_what_their_browsers_say() {
        // An iPhone (Safari gives no memory figure) and an Android phone with 8 GB.
        assert_eq!(
            DeviceClass::from_signs(signs(None, true, 390.0)),
            DeviceClass::Phone
        );
        assert_eq!(
            DeviceClass::from_signs(signs(Some(8.0), true, 412.0)),
            DeviceClass::Phone
        );
        // An iPad, an Android tablet with 4 GB.
        assert_eq!(
            DeviceClass::from_signs(signs(None, true, 820.0)),
            DeviceClass::Tablet
        );
        assert_eq!(
            DeviceClass::from_signs(signs(Some(4.0), true, 800.0)),
            DeviceClass::Tablet
        );
        // Any device with 2 GB or less is sized as a phone, even with a mouse.
        assert_eq!(
            DeviceClass::from_signs(signs(Some(2.0), false, 768.0)),
            DeviceClass::Phone
        );
        // A computer: a small-memory one as a tablet, else a desktop (Safari's: no figure).
        assert_eq!(
            DeviceClass::from_signs(signs(Some(4.0), false, 1080.0)),
            DeviceClass::Tablet
        );
        assert_eq!(
            DeviceClass::from_signs(signs(Some(8.0), false, 1080.0)),
            DeviceClass::Desktop
        );
        assert_eq!(
            DeviceClass::from_signs(signs(None, false, 900.0)),
            DeviceClass::Desktop
        );
    }

    #[test]
    fn a_budget_caps_every_search_but_never_raises_one() {
        let phone = EngineMemory::of(DeviceClass::Phone);
        assert_eq!(phone.cap(128 << 20), 16 << 20);
        assert_eq!(phone.cap(4 << 20), 4 << 20);
        let desktop = EngineMemory::of(DeviceClass::Desktop);
        assert_eq!(desktop.cap(128 << 20), 128 << 20);
        assert!(EngineMemory::of(DeviceClass::Tablet).tree < desktop.tree);
        // The review's and the values' tables: half the engine's 16 MiB on a phone.
        assert_eq!(phone.cap_table(16 << 20), 8 << 20);
        assert_eq!(phone.cap_table(1 << 20), 1 << 20);
        assert_eq!(desktop.cap_table(16 << 20), 16 << 20);
        // The native builds (these tests among them) are desktops.
        assert_eq!(EngineMemory::default(), desktop);
    }
}
