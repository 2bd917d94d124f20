//! What wires everything together: the launch options, the frame pacing ([`power`]), the
//! screen-reader nodes over the squares ([`access`]) and, on desktop, the clipboard
//! ([`share`]) and the development helpers ([`dev`]: screenshots, frame statistics).

pub mod access;
pub mod gpu;
pub mod launch;
pub mod power;

#[cfg(not(any(target_os = "android", target_os = "ios")))]
pub mod dev;
#[cfg(not(any(target_os = "android", target_os = "ios")))]
pub mod share;
