//! A scripted NBoard session: what a GUI sends, and what the engine must answer.

use montello_engine::search::Level;
use montello_engine::{Move, Variant};
use montello_lab::nboard::{Session, level_for_depth, run};

fn session(script: &str) -> Vec<String> {
    let mut out = Vec::new();
    run(script.as_bytes(), &mut out, Level::Intermediate, 1).unwrap_or_else(|e| panic!("{e}"));
    String::from_utf8(out)
        .unwrap_or_else(|e| panic!("{e}"))
        .lines()
        .map(str::to_string)
        .collect()
}

const START_GGF: &str = "(;GM[Othello]PC[NBoard]PB[me]PW[Montello]RE[?]TI[5:00]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[F5]W[F6]B[E6]W[F4];)";

#[test]
fn a_whole_session_answers_every_command_in_order() {
    let script = format!(
        "nboard 2\nset depth 8\nset time 0.05\nset game {START_GGF}\nping 1\ngo\nhint 3\nmove E3/0.5/1.2\nbogus command\nping 2\nlearn\nquit\nping 3\n"
    );
    let lines = session(&script);
    let text = lines.join("\n");
    assert_eq!(lines[0], "set myname Montello", "{text}");
    assert_eq!(
        lines[1],
        format!("set myname Montello-{}", level_for_depth(8))
    );
    let pos = |needle: &str| {
        lines
            .iter()
            .position(|l| l.starts_with(needle))
            .unwrap_or_else(|| panic!("no {needle:?} in\n{text}"))
    };
    // pong 1 comes before the search, the move after it, then the hint's lines and status.
    let (pong1, best, hint_status, pong2) =
        (pos("pong 1"), pos("=== "), pos("search "), pos("pong 2"));
    assert!(
        pong1 < best && best < hint_status && hint_status < pong2,
        "{text}"
    );
    assert!(lines.iter().any(|l| l.starts_with("status ")), "{text}");
    assert!(
        lines[..best].iter().any(|l| l.starts_with("nodestats ")),
        "{text}"
    );
    // The move is legal after f5 f6 e6 f4, and written move/eval/time.
    let answer = &lines[best][4..];
    let mut parts = answer.split('/');
    let mv: Move = parts
        .next()
        .unwrap_or("")
        .parse()
        .unwrap_or_else(|e| panic!("{e}: {answer}"));
    let game = montello_engine::notation::transcript::parse("f5f6e6f4", Variant::Othello)
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(game.moves().contains(&mv), "{mv} in {text}");
    assert!(
        parts.next().is_some_and(|e| e.parse::<f64>().is_ok()),
        "{answer}"
    );
    assert!(
        parts.next().is_some_and(|t| t.parse::<f64>().is_ok()),
        "{answer}"
    );
    // hint 3: at most three search lines, each "search <pv> <eval> 0 <depth> ...".
    let searches: Vec<&String> = lines.iter().filter(|l| l.starts_with("search ")).collect();
    assert!(!searches.is_empty() && searches.len() <= 3, "{text}");
    for s in &searches {
        let f: Vec<&str> = s.split_whitespace().collect();
        assert!(
            f[1].len() >= 2 && f[2].parse::<f64>().is_ok() && f[3] == "0",
            "{s}"
        );
    }
    assert!(lines.iter().any(|l| l == "learned"), "{text}");
    // Nothing after quit is answered.
    assert!(!text.contains("pong 3"), "{text}");
    assert!(!text.contains("bogus"), "{text}");
}

#[test]
fn ping_stops_a_long_search() {
    let started = std::time::Instant::now();
    let lines = session(&format!(
        "nboard 2\nset depth 20\nset time 60\nset game {START_GGF}\ngo\nping 7\nquit\n"
    ));
    assert!(lines.iter().any(|l| l.starts_with("=== ")), "{lines:?}");
    assert_eq!(
        lines.last().map(String::as_str),
        Some("pong 7"),
        "{lines:?}"
    );
    assert!(
        started.elapsed().as_secs() < 30,
        "ping did not stop the 60 s search"
    );
}

#[test]
fn moves_passes_analysis_and_bad_input() {
    let mut s = Session::new(Level::Beginner, 3);
    let mut out = Vec::new();
    let never = || false;
    for line in [
        "set game (;GM[Othello]PC[x]TY[8]BO[8 ---------------------------O*------*O--------------------------- *];)",
        "move f5",
        "move d6/1.0/2.0",
        "move a1",
        "move zz",
        "set game (;GM[Othello]broken",
        "set time 0.02",
        "analyze",
    ] {
        assert!(
            s.handle(line, &mut out, &never)
                .unwrap_or_else(|e| panic!("{e}"))
        );
    }
    assert_eq!(s.game().ply(), 2);
    let text = String::from_utf8(out).unwrap_or_else(|e| panic!("{e}"));
    assert!(text.contains("status illegal move a1"), "{text}");
    assert!(text.contains("status cannot read move"), "{text}");
    assert!(text.contains("status cannot read the game"), "{text}");
    for ply in 0..=2 {
        assert!(text.contains(&format!("analysis {ply} ")), "{text}");
    }
    assert!(!s.handle("quit", &mut Vec::new(), &never).unwrap_or(true));
}

#[test]
fn depths_map_onto_every_level() {
    let levels: std::collections::BTreeSet<Level> = (1..=60).map(level_for_depth).collect();
    assert_eq!(levels.len(), Level::ALL.len());
}
