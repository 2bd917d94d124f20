//! Check mode only: the `_Unwind_*` functions of the NDK's libunwind, from the `unwinding` crate
//! (see Cargo.toml). A `no_std` static library; the Rust objects it carries besides the
//! unwinder are already defined by the app's own link, so the linker takes only the unwinder.
#![no_std]

// Pull the unwinder's `#[no_mangle] extern "C"` `_Unwind_*` functions into this library.
extern crate unwinding;

#[panic_handler]
fn panic(_: &core::panic::PanicInfo<'_>) -> ! {
    loop {}
}
