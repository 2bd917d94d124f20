//! WTHOR game files: never a panic; an error points inside the file, and every game read
//! writes back to a transcript that reads to the same moves.
#![no_main]

use libfuzzer_sys::fuzz_target;
use montello_engine::Variant;
use montello_engine::notation::{transcript, wthor};

fuzz_target!(|data: &[u8]| {
    match wthor::parse(data) {
        Ok(file) => {
            for game in file.games {
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
                    Err(e) => assert!(e.offset < data.len(), "{e}"),
                }
            }
        }
        Err(e) => assert!(e.offset <= data.len(), "{e}"),
    }
});
