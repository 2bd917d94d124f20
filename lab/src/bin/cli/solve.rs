//! `montello-engine solve FILE`: the exact endgame solver on the positions of an OBF file (the
//! public FFO test suites are in engine/tests/data), one core, with a line a position and
//! the totals.

use montello_engine::notation::obf;
use montello_engine::search::{SolveTable, solve_in};
use montello_engine::{Move, Variant};
use std::path::Path;
use std::time::{Duration, Instant};

/// Solves every position of the OBF file at `path`; an error if one cannot be read or if a
/// score disagrees with the file's.
pub fn run(
    path: &Path,
    first_number: Option<usize>,
    table_mib: usize,
    max_seconds: Option<f64>,
) -> Result<(), String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let positions =
        obf::parse(&text).map_err(|(line, e)| format!("{}:{line}: {e}", path.display()))?;
    if positions.is_empty() {
        return Err(format!("{}: no positions", path.display()));
    }
    println!(
        "{:>4} {:>7} {:>5} {:>6} {:>6} {:>14} {:>9} {:>10}",
        "#", "empties", "move", "score", "file", "nodes", "time (s)", "Mnodes/s"
    );
    let mut total_nodes = 0u64;
    let mut total_time = Duration::ZERO;
    let mut wrong = Vec::new();
    let mut unsolved = Vec::new();
    // One table for the whole file, as Edax keeps its own across problems: each solve starts
    // a new search in it, and the memory is paid for once.
    let mut table = SolveTable::new(table_mib << 20);
    for (i, p) in positions.iter().enumerate() {
        let label = first_number.map_or_else(|| format!("l{}", p.line), |n| (n + i).to_string());
        if Variant::Othello.moves(&p.position).is_empty() {
            return Err(format!(
                "line {}: the game is over, nothing to solve",
                p.line
            ));
        }
        let start = Instant::now();
        let deadline = max_seconds.map(|s| start + Duration::from_secs_f64(s));
        let solved = solve_in(&mut table, &p.position, Variant::Othello, deadline, None);
        let time = start.elapsed();
        let Some(solution) = solved else {
            println!(
                "{:>4} {:>7} gave up after {:.1} s (--max-seconds)",
                label,
                p.position.empties().count(),
                time.as_secs_f64()
            );
            unsolved.push(label);
            continue;
        };
        total_nodes += solution.nodes;
        total_time += time;
        let expected = p.best_score();
        let score_ok = expected.is_none_or(|e| e == solution.score);
        // The file may list only some moves; a best move it does not list is not wrong.
        let listed = p.scores.iter().any(|&(m, _)| m == solution.best);
        let move_ok = !listed || p.is_best_move(solution.best);
        let mark = if score_ok && move_ok {
            ""
        } else {
            "  DISAGREES"
        };
        println!(
            "{:>4} {:>7} {:>5} {:>+6} {:>6} {:>14} {:>9.3} {:>10.2}{mark}",
            label,
            p.position.empties().count(),
            move_text(solution.best),
            solution.score,
            expected.map_or_else(|| "?".into(), |e| format!("{e:+}")),
            solution.nodes,
            time.as_secs_f64(),
            solution.nodes as f64 / time.as_secs_f64().max(1e-9) / 1e6,
        );
        if !mark.is_empty() {
            wrong.push(label);
        }
    }
    if !unsolved.is_empty() {
        println!("not solved in time: {}", unsolved.join(", "));
    }
    println!(
        "total: {} positions solved, {} nodes, {:.3} s, {:.2} Mnodes/s (one core)",
        positions.len() - unsolved.len(),
        total_nodes,
        total_time.as_secs_f64(),
        total_nodes as f64 / total_time.as_secs_f64().max(1e-9) / 1e6
    );
    if wrong.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "the file's score disagrees at {}",
            wrong.join(", ")
        ))
    }
}

fn move_text(mv: Move) -> String {
    match mv {
        Move::Play(sq) => sq.to_string().to_uppercase(),
        Move::Pass => "PS".into(),
    }
}
