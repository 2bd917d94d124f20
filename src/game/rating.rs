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

/// The two levels around `rating` and the share of games the stronger one should play so
/// that the player's expected score is even: the levels lie hundreds of points apart (Novice to
/// Casual 676), so a player between two of them would win nearly every game against the one
/// and lose nearly every game against the other; alternating them in this proportion keeps
/// the games even on average. Below Beginner or above Master: that level alone (share 0).
pub fn mix(rating: f64) -> (Level, Level, f64) {
    let below = LEVEL_RATINGS
        .iter()
        .rposition(|(_, r)| *r <= rating)
        .unwrap_or(0);
    let (low, low_rating) = LEVEL_RATINGS[below];
    let Some(&(high, high_rating)) = LEVEL_RATINGS.get(below + 1) else {
        return (low, low, 0.0);
    };
    if rating < low_rating {
        return (low, low, 0.0);
    }
    // Expected scores against each: above one half against the weaker, below against the
    // stronger; the share `q` with q * high + (1 - q) * low = 1/2.
    let (e_low, e_high) = (expected(rating, low_rating), expected(rating, high_rating));
    let share = ((e_low - 0.5) / (e_low - e_high)).clamp(0.0, 1.0);
    (low, high, share)
}

/// The level of the adaptive opponent's game number `game` (the games counted so far) for a
/// player rated `rating`: the stronger of [`mix`]'s two levels for its share of the games,
/// drawn from the game's number (seeded: the New game panel and the rematch agree, and a
/// report replays it), so the player's expected score stays even between the levels.
pub fn pick_for_game(rating: f64, game: u64) -> Level {
    let (low, high, share) = mix(rating);
    // SplitMix64 of the game's number: a uniform draw in [0, 1).
    let mut z = game.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^= z >> 31;
    let draw = (z >> 11) as f64 / (1u64 << 53) as f64;
    if draw < share { high } else { low }
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

    /// Between two levels the games alternate them so the expected score is even: over many
    /// games the average is one half (where nearest-level picking expects 0.83 at 1100, between
    /// Novice and Casual); the share of the stronger level grows with the rating, from none at
    /// the weaker's rating; the extremes play one level.
    #[test]
    fn between_two_levels_the_games_alternate_them_to_an_even_score() {
        for rating in [900.0, 1100.0, 1300.0, 1600.0, 1800.0, 2100.0, 2300.0] {
            let (low, high, share) = mix(rating);
            assert!(low < high && (0.0..=1.0).contains(&share), "{rating}");
            let games = 20_000;
            let mut score = 0.0;
            for game in 0..games {
                let level = pick_for_game(rating, game);
                assert!(level == low || level == high, "{rating}: {level:?}");
                score += expected(rating, level_rating(level));
            }
            let mean = score / games as f64;
            assert!((mean - 0.5).abs() < 0.02, "{rating}: {mean}");
            // Nearest-level picking is far from even there.
            let nearest = expected(rating, level_rating(pick(rating)));
            if rating == 1100.0 {
                assert!((nearest - 0.5).abs() > 0.3, "{nearest}");
            }
        }
        let mut last = 0.0;
        for rating in (1500..1943).step_by(20) {
            let (low, high, share) = mix(f64::from(rating));
            assert_eq!((low, high), (Level::Casual, Level::Intermediate));
            assert!(share >= last, "the share grows with the rating");
            last = share;
        }
        assert_eq!(mix(1500.0).2, 0.0);
        assert_eq!(mix(200.0), (Level::Beginner, Level::Beginner, 0.0));
        assert_eq!(mix(2600.0), (Level::Master, Level::Master, 0.0));
        // The same game number, the same pick.
        assert_eq!(pick_for_game(1700.0, 7), pick_for_game(1700.0, 7));
    }

    /// Wins move the opponents up and losses down, within the levels: the rating the games
    /// are played against on average (the mix's) rises after each win and falls after each
    /// loss.
    #[test]
    fn the_mix_rises_after_wins_and_falls_after_losses() {
        let mean_opponent = |r: f64| {
            let (low, high, share) = mix(r);
            (1.0 - share) * level_rating(low) + share * level_rating(high)
        };
        for outcome in ['w', 'l'] {
            let mut games = Vec::new();
            let mut last = mean_opponent(after(&games));
            for n in 0..30u64 {
                let level = pick_for_game(after(&games), n);
                games.push((level, outcome));
                let now = mean_opponent(after(&games));
                if outcome == 'w' {
                    assert!(now >= last, "a win never lowers the opponents");
                } else {
                    assert!(now <= last, "a loss never raises them");
                }
                last = now;
            }
            let bound = if outcome == 'w' { 2384.0 } else { 400.0 };
            assert!((last - bound).abs() < 1.0, "{outcome}: {last}");
        }
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
