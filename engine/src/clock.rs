//! The searches' clock. `std::time::Instant` panics in a browser (`wasm32-unknown-unknown` has
//! no clock of its own), so there the searches read the page's or the worker's
//! `performance.now()` through `web-time`, whose `Instant` has the same API.

#[cfg(not(all(target_family = "wasm", target_os = "unknown")))]
pub use std::time::Instant;
#[cfg(all(target_family = "wasm", target_os = "unknown"))]
pub use web_time::Instant;
