//! Transcripts under every variant: never a panic; what is read writes back (with and
//! without explicit passes) to a transcript that reads to the same moves.
#![no_main]

use libfuzzer_sys::fuzz_target;
use montello_engine::Variant;
use montello_engine::notation::transcript;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    for variant in Variant::ALL {
        let Ok(game) = transcript::parse(&text, variant) else {
            continue;
        };
        let explicit = transcript::to_transcript_with_passes(game.history());
        let again = transcript::parse(&explicit, variant);
        assert_eq!(
            again.as_ref().map(|g| g.history()),
            Ok(game.history()),
            "{explicit}"
        );
        let implicit = transcript::to_transcript(game.history());
        let again = transcript::parse(&implicit, variant);
        assert_eq!(
            again.as_ref().map(|g| g.history()),
            Ok(game.history()),
            "{implicit}"
        );
    }
});
