//! Board strings: never a panic; a position that reads prints back to a string that reads
//! to the same position, and the diagram of any position can be drawn.
#![no_main]

use libfuzzer_sys::fuzz_target;
use montello_engine::Variant;
use montello_engine::notation::board_string;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let _ = board_string::looks_like_board(&text);
    if let Ok(pos) = board_string::parse(&text) {
        let written = board_string::to_board_string(&pos);
        assert_eq!(board_string::parse(&written), Ok(pos), "{written}");
        for variant in Variant::ALL {
            let _ = board_string::diagram(&pos, variant);
        }
    }
});
