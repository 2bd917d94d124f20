//! The adaptive opponent in the player's words (#71): the rating the games against each level
//! give (`game::rating`, from the statistics), the level it picks, and how the last game moved
//! the rating.

use crate::game::player::AiLevel;
use crate::game::rating::{self, Results};
use crate::persist::save_format::Stats;
use crate::prefs::choices::Lang;
use montello_engine::search::Level;

/// The player's results against each of the engine's levels.
pub fn results(stats: &Stats) -> Vec<(Level, Results)> {
    stats
        .levels
        .iter()
        .filter_map(|(level, r)| match level {
            AiLevel::Level(level) => Some((
                *level,
                Results {
                    wins: r.wins,
                    draws: r.draws,
                    losses: r.losses,
                },
            )),
            AiLevel::Iterations(_) => None,
        })
        .collect()
}

/// The player's rating from every game counted.
pub fn rating(stats: &Stats) -> f64 {
    rating::estimate(&results(stats))
}

/// How many games against the engine's levels are counted: the number of the next one.
fn games_counted(stats: &Stats) -> u64 {
    results(stats)
        .iter()
        .map(|(_, r)| u64::from(r.wins + r.draws + r.losses))
        .sum()
}

/// The level the adaptive opponent plays next: between two levels, each game one of them in
/// the proportion that keeps the player's expected score even (`rating::pick_for_game`).
pub fn level(stats: &Stats) -> AiLevel {
    AiLevel::Level(rating::pick_for_game(rating(stats), games_counted(stats)))
}

/// The New game panel's line under the switch: "Your rating: about 1450 · plays Casual".
pub fn about(stats: &Stats, lang: Lang) -> String {
    let r = rating(stats);
    lang.f(
        "new_game.adaptive_about",
        &[
            ("rating", &r.round()),
            (
                "level",
                &AiLevel::Level(rating::pick_for_game(r, games_counted(stats))).label(lang),
            ),
        ],
    )
}

/// The result card's line once a game against `level` that the player won (`margin` > 0),
/// drew or lost is counted: the rating and how far that game moved it ("Your rating: about
/// 1480 (+32)").
pub fn change(stats: &Stats, level: AiLevel, margin: i32, lang: Lang) -> Option<String> {
    let AiLevel::Level(played) = level else {
        return None;
    };
    let now = rating(stats);
    let mut before = results(stats);
    let (_, r) = before.iter_mut().find(|(l, _)| *l == played)?;
    let count = match margin.signum() {
        1 => &mut r.wins,
        -1 => &mut r.losses,
        _ => &mut r.draws,
    };
    *count = count.checked_sub(1)?;
    let moved = (now - rating::estimate(&before)).round();
    Some(lang.f(
        "result.rating",
        &[("rating", &now.round()), ("change", &format!("{moved:+}"))],
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::persist::save_format::LevelRecord;

    #[test]
    fn the_panel_and_the_card_say_the_rating_and_the_level() {
        let mut stats = Stats::default();
        // A new player (1200) lies between Novice and Casual: the first game is one of them,
        // and the panel names the one it is.
        let first = level(&stats);
        assert!(
            [Level::Novice, Level::Casual]
                .map(AiLevel::Level)
                .contains(&first),
            "{first:?}"
        );
        assert_eq!(
            about(&stats, Lang::En),
            format!("Your rating: about 1200 · plays {}", first.label(Lang::En))
        );
        stats.record(AiLevel::Level(Level::Casual), 10);
        let line = change(&stats, AiLevel::Level(Level::Casual), 10, Lang::En).expect("a line");
        let r = rating(&stats).round();
        assert!(r > 1200.0, "{r}");
        assert_eq!(line, format!("Your rating: about {r} (+{})", r - 1200.0));
        // A loss moves it down; a game not counted (nothing to take back) says nothing.
        stats.record(AiLevel::Level(Level::Casual), -10);
        let line = change(&stats, AiLevel::Level(Level::Casual), -10, Lang::En).expect("a line");
        assert!(line.contains("(-"), "{line}");
        assert!(change(&stats, AiLevel::Level(Level::Master), 4, Lang::En).is_none());
        // Wins against Casual, and within a few the adaptive opponent is Intermediate.
        let mut wins = 0;
        while level(&stats) != AiLevel::Level(Level::Intermediate) && wins < 10 {
            wins += 1;
            stats.levels.insert(
                AiLevel::Level(Level::Casual),
                LevelRecord {
                    games: wins,
                    wins,
                    ..Default::default()
                },
            );
        }
        assert_eq!(
            level(&stats),
            AiLevel::Level(Level::Intermediate),
            "{wins} wins"
        );
        assert!(wins <= 6, "{wins} wins");
    }
}
