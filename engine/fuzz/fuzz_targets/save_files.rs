//! The app's save files (game, settings, statistics): never a panic on any bytes; a file that
//! loads writes back to text that loads to the same value. The app's own modules are compiled
//! in by path, so the fuzzer needs no Bevy.
#![no_main]
#![allow(dead_code, reason = "the file-system half of storage.rs is not fuzzed here")]

// The app's files, compiled by path, then named under the same paths as in the app
// (`crate::persist::…`, `crate::prefs::…`, `crate::game::…`), so they compile unchanged.
#[path = "../../../src/persist/storage.rs"]
mod storage_rs;

#[path = "../../../src/persist/save_format.rs"]
mod save_format_rs;

#[path = "../../../src/prefs/choices.rs"]
mod choices_rs;

#[path = "../../../src/game/player.rs"]
mod player_rs;

mod persist {
    pub(crate) use super::save_format_rs as save_format;
    pub(crate) use super::storage_rs as storage;
}

mod prefs {
    pub(crate) use super::choices_rs as choices;
}

mod game {
    pub(crate) use super::player_rs as player;
}

use libfuzzer_sys::fuzz_target;
use persist::save_format::{SavedGame, SavedSettings, Stats};
use persist::storage::SaveFormat;

fn round_trip<T: SaveFormat + PartialEq + std::fmt::Debug>(text: &str) {
    if let Ok(value) = T::decode(text) {
        // Whatever was read can be written again.
        let written = value.encode().expect("a decoded value encodes");
        let again = T::decode(&written);
        assert_eq!(again.as_ref().ok(), Some(&value), "{written}");
    }
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    round_trip::<SavedGame>(text);
    round_trip::<SavedSettings>(text);
    if let Ok(stats) = Stats::decode(text) {
        // Stats are written with the current version whatever they were read with.
        let written = stats.encode().expect("decoded stats encode");
        let again = Stats::decode(&written).ok().map(|s| s.levels);
        assert_eq!(again, Some(stats.levels));
    }
    if let Ok(saved) = SavedGame::decode(text) {
        let game = saved.to_game().expect("decode replayed it already");
        assert!(game.ply() <= game.all_moves().len());
    }
});
