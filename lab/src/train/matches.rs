//! Matches between two sets of weights: a cheap, deterministic measure of which evaluation
//! plays better.

use super::SelfPlay;
use super::parallel_map;
use super::selfplay::{choose, player};
use montello_engine::Turn;
use montello_engine::eval::Weights;
use montello_engine::search::Solver;
use montello_engine::{FastRng, Variant};

/// Plays `games` games between weights `a` and `b` with a fixed-depth alpha-beta player
/// (no noise) from `openings` (each twice, colours swapped), both playing perfectly from
/// `exact` empties: a cheap, deterministic measure of which evaluation is better. Returns
/// the arena's report from `a`'s point of view.
pub fn match_weights(
    a: &Weights,
    b: &Weights,
    depth: u32,
    exact: u32,
    openings: &[Vec<montello_engine::Move>],
    games: usize,
    threads: usize,
) -> crate::arena::Report {
    let cfg = SelfPlay {
        depth,
        noise: 0,
        exact_empties: exact,
        ..SelfPlay::default()
    };
    let play = |index: usize| -> Option<crate::arena::GameRecord> {
        let line = openings.get((index / 2) % openings.len().max(1))?;
        let a_is_black = index.is_multiple_of(2);
        let mut pos = montello_engine::Position::start();
        for &mv in line {
            pos = Variant::Othello.play_unchecked(&pos, mv);
        }
        let mut rng = FastRng::new(index as u64);
        let mut searches = (player(a, &cfg), player(b, &cfg));
        loop {
            let (p, o) = (pos.player().0, pos.opponent().0);
            match Variant::Othello.turn(p, o) {
                Turn::Play(_) => {}
                Turn::Pass(_) => {
                    pos = pos.pass();
                    continue;
                }
                Turn::Over => break,
            }
            if (!(p | o)).count_ones() <= exact {
                // Perfect play from here: the exact value decides the game.
                let v = Solver::new(Variant::Othello, None, None).solve(&pos, -64, 64)?;
                let black = if pos.side_to_move() == montello_engine::Side::Black {
                    v
                } else {
                    -v
                };
                return Some(record(index, a_is_black, black));
            }
            let black_to_move = pos.side_to_move() == montello_engine::Side::Black;
            let search = if black_to_move == a_is_black {
                &mut searches.0
            } else {
                &mut searches.1
            };
            let (sq, _) = choose(search, p, o, &cfg, &mut rng);
            pos = pos.play_unchecked(sq);
        }
        // Black's margin of the finished game, the empty squares to the winner.
        Some(record(
            index,
            a_is_black,
            i32::from(pos.score().wof().margin()),
        ))
    };
    let games: Vec<crate::arena::GameRecord> = parallel_map(games, threads, play)
        .into_iter()
        .flatten()
        .collect();
    let mut report = crate::arena::Report::default();
    for g in &games {
        match g.a_score {
            s if s > 0.75 => report.wins += 1,
            s if s < 0.25 => report.losses += 1,
            _ => report.draws += 1,
        }
    }
    report.games = games;
    report
}

fn record(index: usize, a_is_black: bool, black_margin: i32) -> crate::arena::GameRecord {
    let a_margin = if a_is_black {
        black_margin
    } else {
        -black_margin
    };
    crate::arena::GameRecord {
        index,
        a_is_black,
        moves: Vec::new(),
        margin: black_margin,
        a_score: match a_margin.signum() {
            1 => 1.0,
            0 => 0.5,
            _ => 0.0,
        },
    }
}
