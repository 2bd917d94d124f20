//! The command-line tool as a script sees it: `bench --json` prints one JSON object with the
//! documented fields, which a JSON parser reads back.

use std::process::Command;

/// The tool as a command. A cross-compiled test run (.ci/arm64.sh) names the emulator that
/// cargo runs the tests with in `MONTELLO_TEST_RUNNER`, and the tool runs through it too.
fn tool() -> Command {
    let exe = env!("CARGO_BIN_EXE_montello-engine");
    let runner = std::env::var("MONTELLO_TEST_RUNNER").unwrap_or_default();
    let mut words = runner.split_whitespace();
    match words.next() {
        Some(program) => {
            let mut command = Command::new(program);
            command.args(words).arg(exe);
            command
        }
        None => Command::new(exe),
    }
}

/// Runs the tool with `args` and returns its standard output.
fn run(args: &[&str]) -> String {
    let out = tool()
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("cannot run montello-engine: {e}"));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "montello-engine {args:?}: {stderr}");
    String::from_utf8(out.stdout).unwrap_or_else(|e| panic!("not UTF-8: {e}"))
}

#[test]
fn bench_json_reads_back_with_every_field() {
    let text = run(&["bench", "--json", "--seconds", "0.01", "--perft-depth", "4"]);
    assert_eq!(text.lines().count(), 1, "one line: {text}");
    let value: serde_json::Value =
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}: {text}"));
    let object = value
        .as_object()
        .unwrap_or_else(|| panic!("not an object: {text}"));
    let fields: Vec<&str> = object.keys().map(String::as_str).collect();
    let mut expected = vec![
        "machine",
        "generator",
        "perft_depth",
        "perft_leaves",
        "perft_seconds",
        "perft_leaves_per_second",
        "playouts",
        "playout_seconds",
        "playouts_per_second",
        "evaluations_per_second",
    ];
    expected.sort_unstable();
    let mut sorted = fields.clone();
    sorted.sort_unstable();
    assert_eq!(sorted, expected, "{text}");

    let machine = object["machine"].as_str().unwrap_or_default();
    assert!(!machine.is_empty(), "{text}");
    assert_eq!(
        object["generator"].as_str(),
        Some(montello_engine::perft::generator())
    );
    assert_eq!(object["perft_depth"].as_u64(), Some(4));
    assert_eq!(
        object["perft_leaves"].as_u64(),
        Some(244),
        "perft(4) of the start"
    );
    for seconds in ["perft_seconds", "playout_seconds"] {
        let s = object[seconds].as_f64();
        assert!(s.is_some_and(|s| s >= 0.0), "{seconds}: {text}");
    }
    assert!(object["playouts"].as_u64().is_some_and(|n| n > 0), "{text}");
    for rate in [
        "perft_leaves_per_second",
        "playouts_per_second",
        "evaluations_per_second",
    ] {
        assert!(object[rate].as_u64().is_some(), "{rate}: {text}");
    }
}
