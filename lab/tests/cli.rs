//! The command-line tool as a script sees it: `bench --json` prints one JSON object with the
//! documented fields, which a JSON parser reads back.

use std::process::Command;

/// The tool as a command.
fn tool() -> Command {
    Command::new(env!("CARGO_BIN_EXE_montello-engine"))
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
        "tree_iterations_per_second",
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
    // At least one round of the tree searches runs, however short the time.
    assert!(
        object["tree_iterations_per_second"]
            .as_u64()
            .is_some_and(|n| n > 0),
        "{text}"
    );
    {}
}

/// Runs `nboard` with `args`: sends `script`, then, once the engine has answered `go` with
/// `=== move/eval/time` (any later command would stop the search), `quit`. Returns whether
/// it exited well, the move's answer (if any) and its standard error.
fn nboard(args: &[&str], script: &str) -> (bool, Option<String>, String) {
    use std::io::{BufRead, Read, Write};
    use std::process::Stdio;
    let mut child = tool()
        .arg("nboard")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot run montello-engine: {e}"));
    let mut stdin = child.stdin.take();
    // The engine may have exited already (a refused file): a broken pipe is its answer.
    let _ = stdin.as_mut().map(|i| i.write_all(script.as_bytes()));
    let mut answer = None;
    if let Some(stdout) = child.stdout.take() {
        for line in std::io::BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            if let Some(a) = line.strip_prefix("=== ") {
                answer = Some(a.to_string());
                let _ = stdin.as_mut().map(|i| i.write_all(b"quit\n"));
            }
        }
    }
    drop(stdin);
    let mut err = String::new();
    if let Some(mut e) = child.stderr.take() {
        let _ = e.read_to_string(&mut err);
    }
    let status = child
        .wait()
        .unwrap_or_else(|e| panic!("montello-engine nboard: {e}"));
    (status.success(), answer, err)
}

#[test]
fn nboard_plays_with_a_weights_file_and_refuses_a_bad_one() {
    let weights = concat!(env!("CARGO_MANIFEST_DIR"), "/../engine/weights/gen1.mwt");
    // Intermediate (depth 8) at its iteration cap, no randomness: the eval it prints comes
    // from the weights, and generation 1's differ from the shipped ones.
    let script = "nboard 2\nset depth 8\nset game (;GM[Othello]BO[8 ---------------------------O*------*O--------------------------- *]B[F5]W[F6];)\ngo\n";
    let eval = |args: &[&str]| {
        let (ok, answer, err) = nboard(args, script);
        assert!(ok, "nboard {args:?}: {err}");
        let answer = answer.unwrap_or_else(|| panic!("nboard {args:?}: no move"));
        answer
            .split('/')
            .nth(1)
            .and_then(|e| e.parse::<f64>().ok())
            .unwrap_or_else(|| panic!("no eval in {answer}"))
    };
    let with_gen1 = eval(&["--weights", weights]);
    let shipped = eval(&[]);
    assert!(
        (with_gen1 - shipped).abs() > 0.05,
        "gen 1 {with_gen1} vs shipped {shipped}"
    );

    let not_weights = concat!(env!("CARGO_MANIFEST_DIR"), "/Cargo.toml");
    let (ok, _, err) = nboard(&["--weights", not_weights], "quit\n");
    assert!(!ok, "a file that is not weights is refused");
    assert!(
        err.contains("Cargo.toml"),
        "the message names the file: {err}"
    );
}

/// Runs the tool with `args` and returns whether it succeeded and its standard error.
fn run_status(args: &[&str]) -> (bool, String) {
    let out = tool()
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("cannot run montello-engine: {e}"));
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn train_bias_and_fit_fit_exact_sets_at_the_counts_they_cover() {
    use montello_engine::eval::{self, SCALE, Weights};
    use montello_engine::random_endgame;
    use montello_lab::train::{Sample, write_samples};

    let dir = std::env::temp_dir().join(format!("montello-cli-bias-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = |name: &str| dir.join(name).to_string_lossy().into_owned();
    // 600 positions at 21 empties whose "exact" values are the shipped evaluation plus 3
    // discs (rounded to whole discs, as exact values are): the fitted bias at 21 must move
    // by 3 discs, give or take the rounding, and nowhere else.
    let builtin = eval::builtin();
    let samples: Vec<Sample> = (0..600u64)
        .map(|seed| random_endgame(seed, 21))
        .filter(|pos| pos.empties().count() == 21)
        .map(|pos| {
            let value = builtin.evaluate(pos.player(), pos.opponent());
            let label = (f64::from(value) / f64::from(SCALE)).round() as i32 + 3;
            Sample {
                p: pos.player(),
                o: pos.opponent(),
                label: label.clamp(-64, 64) as i8,
                exact: true,
                search: None,
            }
        })
        .collect();
    assert!(samples.len() >= 500, "{} positions at 21", samples.len());
    write_samples(std::path::Path::new(&path("set21.bin")), &samples).unwrap();
    let out = path("biased.mwt");
    run(&[
        "train",
        "bias",
        "--weights",
        "builtin",
        "--sets",
        &path("set21.bin"),
        "--out",
        &out,
    ]);
    let fitted = Weights::decode(&std::fs::read(&out).unwrap()).unwrap();
    for (e, (&after, &before)) in fitted
        .empties_bias()
        .iter()
        .zip(builtin.empties_bias())
        .enumerate()
    {
        let shift = f64::from(after - before) / f64::from(SCALE);
        if e == 21 {
            assert!((shift - 3.0).abs() <= 0.5, "shift at 21: {shift}");
        } else {
            assert_eq!(after, before, "bias at {e} moved");
        }
    }

    // A set with a position that has no exact value (a self-play chunk) is refused, named.
    let mut chunk = samples.clone();
    chunk[7].exact = false;
    write_samples(std::path::Path::new(&path("chunk.bin")), &chunk).unwrap();
    let (ok, err) = run_status(&[
        "train",
        "bias",
        "--weights",
        "builtin",
        "--sets",
        &path("chunk.bin"),
        "--out",
        &path("refused.mwt"),
    ]);
    assert!(!ok, "a set without exact values is refused");
    assert!(
        err.contains("chunk.bin") && err.contains("no exact value"),
        "{err}"
    );
    assert!(!std::path::Path::new(&path("refused.mwt")).exists());

    // `train fit` reads the same sets. Towards the shipped weights, its tables take up the
    // shift, and the bias per count of empty squares is kept as it was.
    // `fit(source, extra flags, out)`: towards the shipped weights, 30 iterations, ridge 1.
    let fit = |source: &[&str], extra: &[&str], out: &str| {
        let mut args = vec!["train", "fit"];
        args.extend(source);
        args.extend([
            "--init",
            "builtin",
            "--toward-init",
            "--cg",
            "30:1",
            "--overlap",
            "0",
            "--out",
            out,
        ]);
        args.extend(extra);
        run(&args);
        Weights::decode(&std::fs::read(out).unwrap()).unwrap()
    };
    let set21 = path("set21.bin");
    let refined = fit(&["--sets", &set21], &[], &path("refined.mwt"));
    assert_eq!(refined.empties_bias(), builtin.empties_bias());
    let mean_error = |w: &Weights| {
        samples
            .iter()
            .map(|s| f64::from(w.evaluate(s.p, s.o)) / f64::from(SCALE) - f64::from(s.label))
            .sum::<f64>()
            / samples.len() as f64
    };
    let (before, after) = (mean_error(builtin), mean_error(&refined));
    assert!(before < -2.5 && after.abs() < 1.0, "{before} -> {after}");
    let (ok, err) = run_status(&[
        "train",
        "fit",
        "--sets",
        &path("chunk.bin"),
        "--toward-init",
        "--cg",
        "30:1",
        "--out",
        &path("refused.mwt"),
    ]);
    assert!(!ok && err.contains("no exact value"), "{err}");

    // With --exact-only a data directory's positions without an exact value are left out:
    // the same positions as a self-play chunk, their labels 40 discs off and not exact,
    // beside the exact ones, change nothing.
    let data = dir.join("data");
    std::fs::create_dir_all(&data).unwrap();
    let mut mixed = samples.clone();
    mixed.extend(samples.iter().map(|s| Sample {
        label: (i32::from(s.label) - 40).clamp(-64, 64) as i8,
        exact: false,
        ..*s
    }));
    write_samples(&data.join("chunk-00000.bin"), &mixed).unwrap();
    let data = data.to_string_lossy().into_owned();
    let only = mean_error(&fit(
        &["--data", &data],
        &["--exact-only"],
        &path("only.mwt"),
    ));
    let all = mean_error(&fit(&["--data", &data], &[], &path("all.mwt")));
    assert!(
        only.abs() < 1.0 && all < -10.0,
        "exact only {only}, all {all}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// The shipped weights are generation 12 at 1/8 disc (docs/eval.md): the command writes the
/// same file, and refuses a unit that does not divide 1/64. (Generation 10's rescale,
/// gen10s8.mwt, stays as the daily puzzles' first look.)
#[test]
fn the_shipped_weights_are_generation_12_rescaled() {
    let weights = concat!(env!("CARGO_MANIFEST_DIR"), "/../engine/weights");
    let dir = std::env::temp_dir().join(format!("montello-cli-rescale-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("gen12s8.mwt").to_string_lossy().into_owned();
    let gen12 = format!("{weights}/gen12.mwt");
    run(&[
        "train",
        "rescale",
        "--weights",
        &gen12,
        "--scale",
        "8",
        "--out",
        &out,
    ]);
    let written = std::fs::read(&out).unwrap();
    let shipped = std::fs::read(format!("{weights}/gen12s8.mwt")).unwrap();
    assert!(
        written == shipped,
        "the rescale differs from engine/weights/gen12s8.mwt"
    );
    let source = include_str!("../../engine/src/eval/mod.rs");
    assert!(source.contains("include_bytes!(\"../../weights/gen12s8.mwt\")"));
    let refused = tool()
        .args([
            "train",
            "rescale",
            "--weights",
            &gen12,
            "--scale",
            "3",
            "--out",
            &out,
        ])
        .output()
        .unwrap_or_else(|e| panic!("cannot run montello-engine: {e}"));
    assert!(!refused.status.success());
    assert!(String::from_utf8_lossy(&refused.stderr).contains("does not divide"));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn the_shipped_bias_is_the_fit_of_the_committed_played_sets() {
    // Generation 10 is generation 9 with its bias fitted again to the exact sets of played
    // positions in engine/weights/played (docs/eval.md): the command writes the same weights
    // (stored entry by entry since #68; the committed file is of the phase-by-phase layout).
    let weights = concat!(env!("CARGO_MANIFEST_DIR"), "/../engine/weights");
    let sets: Vec<String> = (10..=23)
        .map(|e| format!("{weights}/played/e{e}.bin"))
        .collect();
    let dir = std::env::temp_dir().join(format!("montello-cli-gen10-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("gen10.mwt").to_string_lossy().into_owned();
    let gen9 = format!("{weights}/gen9.mwt");
    let mut args = vec!["train", "bias", "--weights", &gen9, "--out", &out, "--sets"];
    args.extend(sets.iter().map(String::as_str));
    run(&args);
    let read = |path: &str| {
        let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{path}: {e}"));
        montello_engine::eval::Weights::decode(&bytes).unwrap_or_else(|e| panic!("{path}: {e}"))
    };
    assert!(
        read(&out) == read(&format!("{weights}/gen10.mwt")),
        "the fit differs from engine/weights/gen10.mwt"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// The lines and values `openings` printed: (transcript, value in discs).
fn opening_rows(text: &str) -> Vec<(String, f64)> {
    text.lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| {
            let (line, value) = l
                .split_once('#')
                .unwrap_or_else(|| panic!("no value after the line: {l:?}"));
            let value = value
                .trim()
                .parse::<f64>()
                .unwrap_or_else(|e| panic!("{e}: {l:?}"));
            (line.trim().to_string(), value)
        })
        .collect()
}

#[test]
fn openings_keeps_the_lines_the_search_values_near_even_on_any_thread_count() {
    // The 3-ply lines, judged 6 plies deep: fast enough for a test, and the same code path.
    let openings = |max_margin: &str, threads: &str| {
        let text = run(&[
            "openings",
            "--plies",
            "3",
            "--depth",
            "6",
            "--max-margin",
            max_margin,
            "--threads",
            threads,
        ]);
        assert!(text.starts_with("# Balanced openings"), "{text}");
        opening_rows(&text)
    };
    let all = openings("64", "1");
    // Every distinct 3-ply position from f5 once (f5 then d6, f6 or f4, then their replies).
    assert_eq!(all.len(), 14, "{all:?}");
    assert!(all.iter().all(|(l, _)| l.len() == 6 && l.starts_with("f5")));
    // The search tells the lines apart: neither all even nor all alike.
    assert!(all.iter().any(|(_, v)| v.abs() > 2.0), "{all:?}");
    assert!(all.iter().any(|(_, v)| v.abs() <= 2.0), "{all:?}");

    // Exactly the lines within two discs, in the same order, valued the same on two threads.
    let expected: Vec<(String, f64)> = all.into_iter().filter(|(_, v)| v.abs() <= 2.0).collect();
    assert_eq!(openings("2", "2"), expected);

    let (ok, err) = run_status(&["openings", "--plies", "0"]);
    assert!(!ok && err.contains("--plies 0"), "{err}");
}

/// `review`: one line a move played in the documented form, then one a player; the last 20
/// empties exact (integers), the moves before from the search. A finished game of 58 moves
/// and a pass (implied in the transcript).
#[test]
fn review_prints_a_line_a_move_then_one_a_player() {
    let game = "f5f6f7g5e6d7h4d6e7d3c3b3d2f8d8c8e3g6h6h5g4h3h2e1c7f4f3g3a3e8d1c1e2f2f1b4b1b6\
                c2g7c5b5h8g2h7g1h1a5c6b2a2a1g8a4c4a7b7b8";
    let text = run(&["review", game, "--depth", "6"]);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 58 + 2, "{text}");
    let mut exact = 0;
    for (i, line) in lines[..58].iter().enumerate() {
        let words: Vec<&str> = line.split(' ').collect();
        assert_eq!(words.len(), 8, "{line}");
        assert_eq!(words[0], (i + 1).to_string(), "{line}");
        assert!(["b", "w"].contains(&words[1]), "{line}");
        assert_eq!(
            words[2],
            &game[2 * i..2 * i + 2],
            "the moves in order: {line}"
        );
        assert_eq!((words[3], words[5]), ("best", "loss"), "{line}");
        let loss: f32 = words[6].parse().unwrap_or_else(|_| panic!("{line}"));
        assert!(loss >= 0.0, "{line}");
        match words[7] {
            "exact" => {
                exact += 1;
                assert!(
                    words[6].parse::<i32>().is_ok(),
                    "an integer when exact: {line}"
                );
            }
            "search" => assert!(words[6].contains('.'), "{line}"),
            other => panic!("{other}: {line}"),
        }
        if words[2] == words[4] {
            assert!(loss == 0.0, "the best move loses nothing: {line}");
        }
    }
    // 20 empties after the 40th disc played: moves 41 to 58 (the passes fill no square).
    assert_eq!(exact, 18, "{text}");
    for (line, side) in lines[58..].iter().zip(["b", "w"]) {
        let words: Vec<&str> = line.split(' ').collect();
        assert_eq!(
            (words[0], words[1], words[3]),
            (side, "moves", "average-loss"),
            "{line}"
        );
        let names: Vec<&str> = words[5..].iter().step_by(2).copied().collect();
        assert_eq!(
            names,
            [
                "best",
                "good",
                "inaccuracy",
                "mistake",
                "blunder",
                "accuracy"
            ]
        );
        let percent: f32 = words.last().and_then(|w| w.parse().ok()).expect("{line}");
        assert!((0.0..=100.0).contains(&percent), "{line}");
    }
}

#[test]
fn review_refuses_a_bad_transcript_saying_where_and_why() {
    for (game, says) in [("f5d6c3x9", "x9"), ("f5f5", "f5"), ("", "no move")] {
        let out = tool()
            .args(["review", game])
            .output()
            .expect("montello-engine runs");
        assert!(!out.status.success(), "{game:?} was accepted");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains(says), "{game:?}: {stderr}");
    }
}

/// `eval` prints the values on the squares as the app shows them: every legal move once,
/// best first, solved (`e`) within the solver's reach.
#[test]
fn eval_prints_every_moves_value_best_first() {
    let out = run(&["eval", "f5d6c3d3c4"]);
    let line = out
        .lines()
        .find(|l| l.starts_with("values: "))
        .unwrap_or_else(|| panic!("no values line in {out}"));
    let words: Vec<&str> = line["values: ".len()..]
        .split(" (")
        .next()
        .expect("the values")
        .split(' ')
        .collect();
    let moves: Vec<&str> = words.iter().map(|w| &w[..2]).collect();
    let mut sorted = moves.clone();
    sorted.sort_unstable();
    assert_eq!(sorted, ["b3", "b5", "f3", "f4", "g5", "g6"], "{line}");
    let values: Vec<f32> = words
        .iter()
        .map(|w| w[3..].parse().unwrap_or_else(|_| panic!("{w} in {line}")))
        .collect();
    assert!(
        values.windows(2).all(|v| v[0] >= v[1]),
        "best first: {line}"
    );
    // FFO #20 (20 empties): exact, the suite's best first.
    let text = include_str!("../../engine/tests/data/ffo-20-39.obf");
    let board = text
        .lines()
        .next()
        .and_then(|l| l.split(';').next())
        .expect("FFO #20");
    let out = run(&["eval", "--", board.trim()]);
    let line = out
        .lines()
        .find(|l| l.starts_with("values: "))
        .expect("a values line");
    assert!(line.starts_with("values: h5:+6.0e "), "{line}");
    // And the best line from it: h5, which ends the game (neither side can fill the five
    // squares left).
    assert!(out.lines().any(|l| l == "best line: h5"), "{out}");
}

/// A WTHOR file of `year` with one game, `moves` (a transcript), Black's perfect-play discs
/// `perfect` at a depth of 55 empty squares (the tool reads any depth the header gives).
fn wthor_file(year: u16, moves: &str, perfect: u8) -> Vec<u8> {
    let mut bytes = vec![20, 18, 8, 8];
    bytes.extend(1u32.to_le_bytes());
    bytes.extend([0, 0]);
    bytes.extend(year.to_le_bytes());
    bytes.extend([8, 0, 55, 0]);
    bytes.extend([1, 0, 2, 0, 3, 0, 40, perfect]);
    let mut codes = [0u8; 60];
    for (code, mv) in codes.iter_mut().zip(moves.as_bytes().chunks(2)) {
        // `10 * row + column`, both from 1.
        *code = 10 * (mv[1] - b'0') + (mv[0] - b'a' + 1);
    }
    bytes.extend(codes);
    bytes
}

#[test]
fn train_wthor_trains_on_games_up_to_2016_and_refuses_the_test_years() {
    use montello_lab::train::read_samples;

    let dir = std::env::temp_dir().join(format!("montello-cli-wthor-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    let (old, new) = (dir.join("WTH_2016.wtb"), dir.join("WTH_2017.wtb"));
    std::fs::write(&old, wthor_file(2016, "f5d6c3d3c4f4f6", 34)).expect("written");
    std::fs::write(&new, wthor_file(2017, "f5d6c3d3c4f4f6", 34)).expect("written");
    let out = dir.join("out");
    let text = |p: &std::path::Path| p.to_string_lossy().into_owned();
    let said = run(&["train", "wthor", "--out", &text(&out), &text(&old)]);
    assert!(
        said.starts_with("6 positions written from 1 games"),
        "{said}"
    );
    let samples = read_samples(&out.join("chunk-00000.bin")).expect("the chunk reads");
    // From the start to the depth: Black +4 with perfect play, White -4.
    let labels: Vec<i8> = samples.iter().map(|s| s.label).collect();
    assert_eq!(labels, [4, -4, 4, -4, 4, -4]);
    // A test year is never trained on: the run fails, says why, and writes nothing.
    let (ok, err) = run_status(&[
        "train",
        "wthor",
        "--out",
        &text(&dir.join("no")),
        &text(&old),
        &text(&new),
    ]);
    assert!(!ok && err.contains("a test year"), "{err}");
    assert!(!dir.join("no").exists());
    // Nor is Multi-ProbCut fitted to one; the year before is: positions of its game,
    // searched, fitted and written as the table.
    let table = dir.join("probcut_table.rs");
    let probcut = |files: &[&std::path::Path]| {
        let mut args = [
            "train",
            "probcut",
            "--positions",
            "4",
            "--max-depth",
            "4",
            "--out",
        ]
        .map(String::from)
        .to_vec();
        args.push(text(&table));
        args.push("--wthor".into());
        args.extend(files.iter().map(|f| text(f)));
        args
    };
    let refused = probcut(&[&old, &new]);
    let (ok, err) = run_status(&refused.iter().map(String::as_str).collect::<Vec<_>>());
    assert!(!ok && err.contains("a test year"), "{err}");
    assert!(!table.exists());
    run(&probcut(&[&old])
        .iter()
        .map(String::as_str)
        .collect::<Vec<_>>());
    let written = std::fs::read_to_string(&table).expect("the table");
    assert!(
        written.contains("--wthor WTH_2016.wtb") && written.contains("FIT_MAX_DEPTH: u32 = 4;"),
        "{written}"
    );
    std::fs::remove_dir_all(&dir).expect("removed");
}
