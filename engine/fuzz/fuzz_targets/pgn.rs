//! PGN files (the WTHOR database's yearly files): never a panic; every game read writes back
//! to a transcript that reads to the same moves, and an error points inside the text.
#![no_main]

use libfuzzer_sys::fuzz_target;
use montello_engine::Variant;
use montello_engine::notation::{pgn, transcript};

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let chars = text.chars().count();
    for game in pgn::games(&text) {
        match game {
            Ok(game) => {
                let moves = transcript::to_transcript(game.game.history());
                let again = transcript::parse(&moves, Variant::Othello);
                assert_eq!(
                    again.as_ref().map(|g| g.history()),
                    Ok(game.game.history()),
                    "{moves}"
                );
            }
            Err(e) => assert!(e.offset <= chars, "{e}"),
        }
    }
});
