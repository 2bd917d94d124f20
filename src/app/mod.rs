//! What wires everything together: the launch options, the frame pacing ([`power`]), the
//! screen-reader nodes over the squares ([`access`]) and, on desktop, the clipboard
//! ([`share`]) and the development helpers ([`dev`]: screenshots, frame statistics); in a
//! browser, what the page is told (`page`); what the app's heap holds ([`heap`]).

pub mod access;
pub mod gpu;
pub mod heap;
pub mod launch;
pub mod plugins;
pub mod power;

#[cfg(all(target_family = "wasm", target_os = "unknown"))]
pub mod console;
#[cfg(not(any(target_os = "android", target_os = "ios", target_family = "wasm")))]
pub mod dev;
#[cfg(all(target_family = "wasm", target_os = "unknown"))]
pub mod page;
#[cfg(not(any(target_os = "android", target_os = "ios", target_family = "wasm")))]
pub mod share;
