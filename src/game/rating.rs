//! The player's rating and the adaptive opponent (#71): an Elo-style estimate from the games
//! played against each level, on the levels' own scale (each level's distance to the one
//! below measured in the arena, docs/ai.md's level table), and the level that keeps the
//! player's games closest to even.

use montello_engine::search::Level;

/// Each level's rating: Beginner anchored at 400 (a new player's first opponent), each level
/// above it by its arena result against the level below (docs/ai.md: Novice +424 over
/// Beginner, Casual +676, Intermediate +443, Strong +326, Master +115).
pub const LEVEL_RATINGS: [(Level, f64); 6] = [
    (Level::Beginner, 400.0),
    (Level::Novice, 824.0),
    (Level::Casual, 1500.0),
    (Level::Intermediate, 1943.0),
    (Level::Strong, 2269.0),
    (Level::Master, 2384.0),
];

/// What a player is taken to be before any game: between Novice and Casual.
pub const PRIOR: f64 = 1200.0;
/// How sure that guess is (a standard deviation, in rating points): two or three games move
/// the estimate by a level.
const PRIOR_SPREAD: f64 = 350.0;

/// A level's rating.
pub fn level_rating(level: Level) -> f64 {
    LEVEL_RATINGS
        .iter()
        .find(|(l, _)| *l == level)
        .map_or(PRIOR, |(_, r)| *r)
}

/// The chance that a player rated `player` beats one rated `opponent` (a draw counting half).
pub fn expected(player: f64, opponent: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf((opponent - player) / 400.0))
}

/// The player's results against one level.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Results {
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
}

/// The rating that best explains `results` (the most probable one, with the prior guess
/// [`PRIOR`] weighing as about two games): Newton's method on the log-likelihood of the
/// Elo model. Without games, the prior.
pub fn estimate(results: &[(Level, Results)]) -> f64 {
    let ln10 = std::f64::consts::LN_10 / 400.0;
    let mut r = PRIOR;
    for _ in 0..50 {
        // The derivative of the log-posterior and its (negative) second derivative.
        let mut slope = -(r - PRIOR) / (PRIOR_SPREAD * PRIOR_SPREAD);
        let mut curve = 1.0 / (PRIOR_SPREAD * PRIOR_SPREAD);
        for (level, res) in results {
            let games = f64::from(res.wins + res.draws + res.losses);
            if games == 0.0 {
                continue;
            }
            let score = f64::from(res.wins) + 0.5 * f64::from(res.draws);
            let p = expected(r, level_rating(*level));
            slope += ln10 * (score - games * p);
            curve += ln10 * ln10 * games * p * (1.0 - p);
        }
        let step = (slope / curve).clamp(-400.0, 400.0);
        r += step;
        if step.abs() < 0.01 {
            break;
        }
    }
    r
}

/// The level whose rating is nearest to `rating`: the opponent that keeps the player's games
/// closest to even.
pub fn pick(rating: f64) -> Level {
    LEVEL_RATINGS
        .iter()
        .min_by(|a, b| (a.1 - rating).abs().total_cmp(&(b.1 - rating).abs()))
        .map_or(Level::Casual, |(l, _)| *l)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn after(games: &[(Level, char)]) -> f64 {
        let mut results: Vec<(Level, Results)> = Vec::new();
        for &(level, outcome) in games {
            let at = match results.iter().position(|(l, _)| *l == level) {
                Some(at) => at,
                None => {
                    results.push((level, Results::default()));
                    results.len() - 1
                }
            };
            let r = &mut results[at].1;
            match outcome {
                'w' => r.wins += 1,
                'd' => r.draws += 1,
                _ => r.losses += 1,
            }
        }
        estimate(&results)
    }

    #[test]
    fn a_new_player_meets_casual_and_wins_move_the_opponent_up() {
        assert_eq!(estimate(&[]), PRIOR);
        assert_eq!(pick(PRIOR), Level::Casual);
        // Wins against the level picked move the pick up, one level at a time, to Master.
        let mut games = Vec::new();
        let mut level = pick(after(&games));
        let mut seen = vec![level];
        for _ in 0..40 {
            games.push((level, 'w'));
            let next = pick(after(&games));
            assert!(next >= level, "a win never moves the level down");
            level = next;
            if seen.last() != Some(&level) {
                seen.push(level);
            }
        }
        assert_eq!(
            seen,
            [
                Level::Casual,
                Level::Intermediate,
                Level::Strong,
                Level::Master
            ]
        );
    }

    #[test]
    fn losses_move_it_down_to_beginner_and_no_further() {
        let mut games = Vec::new();
        let mut level = pick(after(&games));
        for _ in 0..40 {
            games.push((level, 'l'));
            let next = pick(after(&games));
            assert!(next <= level, "a loss never moves the level up");
            level = next;
        }
        assert_eq!(level, Level::Beginner);
        // The estimate stays finite, below Beginner's rating.
        let r = after(&games);
        assert!(r.is_finite() && r < level_rating(Level::Beginner), "{r}");
    }

    #[test]
    fn even_results_against_a_level_rate_the_player_at_its_level() {
        let games: Vec<(Level, char)> = (0..20)
            .map(|i| (Level::Intermediate, if i % 2 == 0 { 'w' } else { 'l' }))
            .collect();
        let r = after(&games);
        // The prior pulls it a little towards 1200.
        assert!((1850.0..=1943.0).contains(&r), "{r}");
        assert_eq!(pick(r), Level::Intermediate);
        // Draws count half: ten draws rate the same as five wins and five losses.
        let draws = after(&[(Level::Intermediate, 'd'); 10]);
        let split: Vec<(Level, char)> = (0..10)
            .map(|i| (Level::Intermediate, if i < 5 { 'w' } else { 'l' }))
            .collect();
        assert!((draws - after(&split)).abs() < 1.0);
    }
}
