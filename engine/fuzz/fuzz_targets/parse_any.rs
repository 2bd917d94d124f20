//! Whatever a player pastes: never a panic, under every variant; an error points inside
//! the text (or just past its end).
#![no_main]

use libfuzzer_sys::fuzz_target;
use montello_engine::Variant;
use montello_engine::notation::parse_any;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let len = text.chars().count();
    for variant in Variant::ALL {
        if let Err(e) = parse_any(&text, variant) {
            assert!(
                e.offset <= len,
                "offset {} past the end ({len}): {e}",
                e.offset
            );
            assert!(!e.to_string().is_empty());
        }
    }
});
