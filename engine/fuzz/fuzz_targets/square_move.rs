//! Squares and moves: never a panic; what reads prints back to text that reads the same.
#![no_main]

use libfuzzer_sys::fuzz_target;
use montello_engine::{Move, Square};

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    if let Ok(sq) = text.parse::<Square>() {
        assert_eq!(sq.to_string().parse::<Square>(), Ok(sq));
        assert_eq!(Square::from_index(sq.index()), Some(sq));
    }
    if let Ok(mv) = text.parse::<Move>() {
        assert_eq!(mv.to_string().parse::<Move>(), Ok(mv));
    }
});
