//! `montello-engine train`: Matches between two sets of weights at a fixed depth.

use super::*;

/// `match`'s arguments.
#[derive(Args, Debug)]
pub struct MatchArgs {
    /// Player A's weights.
    #[arg(long)]
    a: String,
    /// Player B's weights.
    #[arg(long)]
    b: String,
    /// Search depth.
    #[arg(long, default_value_t = 3)]
    depth: u32,
    /// Exact play from this many empties.
    #[arg(long, default_value_t = 14)]
    exact: u32,
    /// Games.
    #[arg(long, default_value_t = 200)]
    games: usize,
    /// Threads.
    #[arg(long, default_value_t = 2)]
    threads: usize,
    /// Seed of the opening order.
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

/// `train match`: plays two sets of weights against each other.
pub(super) fn match_weights(
    MatchArgs {
        a,
        b,
        depth,
        exact,
        games,
        threads,
        seed,
    }: MatchArgs,
) -> Result<(), String> {
    let (wa, wb) = (weights_named(&a)?, weights_named(&b)?);
    let openings = montello_lab::arena::shuffled(
        montello_lab::arena::parse_openings(montello_lab::arena::OPENINGS)
            .map_err(|e| e.to_string())?,
        seed,
    );
    let start = Instant::now();
    let r = train::match_weights(&wa, &wb, depth, exact, &openings, games, threads);
    let (elo, lo, hi) = r.elo();
    println!(
        "match: A = {a} vs B = {b}, depth {depth}, exact from {exact}, seed {seed}: {} games, A wins {} draws {} losses {}, score {:.1}%, Elo A-B {elo:+.0} [{lo:+.0}, {hi:+.0}] ({:.0} s)",
        r.games_played(),
        r.wins,
        r.draws,
        r.losses,
        100.0 * r.score(),
        start.elapsed().as_secs_f64()
    );
    Ok(())
}
