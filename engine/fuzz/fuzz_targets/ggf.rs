//! GGF records: never a panic; a record that reads writes back to text that reads to an
//! equal record (game, annotations and metadata).
#![no_main]

use libfuzzer_sys::fuzz_target;
use montello_engine::notation::ggf;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    if let Ok(record) = ggf::parse(&text) {
        let written = ggf::to_ggf(&record);
        match ggf::parse(&written) {
            Ok(again) => assert_eq!(again, record, "{written}"),
            Err(e) => panic!("the export of a record does not read back: {e}\n{written}"),
        }
    }
    if let Ok(records) = ggf::parse_all(&text) {
        let written: Vec<String> = records.iter().map(ggf::to_ggf).collect();
        let again = ggf::parse_all(&written.join("\n"));
        assert_eq!(again.as_ref().ok(), Some(&records), "{written:?}");
    }
});
