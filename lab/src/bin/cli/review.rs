//! `montello-engine review TRANSCRIPT`: every move of a game with the best move and what the
//! played one cost, exact where the solver reaches (`montello_engine::search::review`).

use montello_engine::search::review::{Class, ReviewConfig, review};
use montello_engine::{Game, Side};
use std::time::{Duration, Instant};

/// Reviews `game` and prints one line a move, then one a player:
///
/// ```text
/// <ply> <b|w> <move> best <move> loss <discs> <exact|search>
/// <b|w> moves <n> average-loss <discs> best <n> good <n> inaccuracy <n> mistake <n> blunder <n> accuracy <percent>
/// ```
pub fn run(game: &Game, time: Option<f64>, depth: u32, exact_empties: u32) -> Result<(), String> {
    if game.history().is_empty() {
        return Err("the transcript has no move to review".into());
    }
    let config = ReviewConfig {
        depth,
        exact_empties,
        time: time.map(Duration::from_secs_f64),
        ..ReviewConfig::default()
    };
    let start = Instant::now();
    let review = review(game, &config, None, |_, _| {}).ok_or("the review was cancelled")?;
    for m in &review.moves {
        let loss = if m.exact {
            format!("{}", m.loss().round() as i32)
        } else {
            format!("{:.1}", m.loss())
        };
        println!(
            "{} {} {} best {} loss {} {}",
            m.ply,
            side_letter(m.side),
            m.played,
            m.best,
            loss,
            if m.exact { "exact" } else { "search" }
        );
    }
    for side in [Side::Black, Side::White] {
        let a = review.accuracy(side);
        let counts: Vec<String> = Class::ALL
            .iter()
            .map(|c| format!("{} {}", c.name(), a.counts[*c as usize]))
            .collect();
        println!(
            "{} moves {} average-loss {:.1} {} accuracy {:.1}",
            side_letter(side),
            a.moves,
            a.average_loss,
            counts.join(" "),
            a.percent().unwrap_or(100.0)
        );
    }
    eprintln!("reviewed in {:.2} s", start.elapsed().as_secs_f64());
    Ok(())
}

fn side_letter(side: Side) -> char {
    match side {
        Side::Black => 'b',
        Side::White => 'w',
    }
}
