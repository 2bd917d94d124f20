//! The named levels a player picks from: each a documented bundle of a time cap, an iteration
//! cap and knobs. Weak levels think less and, like a human beginner, sometimes pick a
//! reasonable but not the best move instead of the strongest one.

use super::MctsConfig;
use super::{CancelHandle, SearchLimits, Searcher, Strategy};
use crate::clock::Instant;
use crate::{FastRng, Position, Variant, random_square};
use std::fmt;
use std::time::Duration;

/// Master's UCB exploration constant ([`MctsConfig::exploration`]; the other levels': 0.25).
const MASTER_EXPLORATION: f32 = 0.35;

/// How many virtual playouts Master's move priors are worth ([`MctsConfig::prior_weight`];
/// the other levels': 8).
const MASTER_PRIOR_WEIGHT: f32 = 4.0;

/// How much of a child's value in Master's selection is the minimax of the evaluations below
/// it ([`MctsConfig::minimax_alpha`]; the other levels have no minimax backups).
const MASTER_MINIMAX_ALPHA: f32 = 0.45;

/// At or below this many empty squares Master plays the alpha-beta search's move instead of
/// the tree's ([`MctsConfig::ab_empties`]): the late middle game and the endgame, where at
/// Master's second a move the selective alpha-beta search sees further than the tree.
const MASTER_AB_EMPTIES: u32 = 30;

/// ... when its clock allows at least this much ([`MctsConfig::ab_min_time`]).
const MASTER_AB_MIN_TIME: Duration = Duration::from_millis(500);

/// Master proves its tree's leaves from this many empty squares ([`MctsConfig::leaf_solve_empties`];
/// the other levels': 9 or fewer). Against 9 at 100 ms a move, four runs were all on the
/// winning side: 1,000 games together scored 52.9%, about +20 Elo. The last run was 400 games
/// from the even openings: +25 [-1, +51]. At Master's own second the tree stops at 31
/// empties, so its leaves seldom get this deep: 200 games there were level, -3 [-51, +44]
/// (docs/ai.md, "Master's other knobs again").
const MASTER_LEAF_SOLVE_EMPTIES: u32 = 11;

/// Master's thinking for a game: this share of its cap a move on average, spent where the
/// moves are hard ([`MctsConfig::time_share`]; #69 asks for at most three quarters).
pub(crate) const MASTER_TIME_SHARE: f32 = 0.75;

/// A named playing strength, weakest first. Each is a bundle of a time cap, an iteration
/// cap, the default strategy's knobs and a move-choice randomness:
///
/// | level | time cap | iterations | knobs | randomness |
/// |---|---|---|---|---|
/// | 1 Beginner | 100 ms | 200 | plain playouts, no priors, no endgame solve | 1.0 |
/// | 2 Novice | 150 ms | 1,000 | plain playouts, no priors, solves the last 8 | 0.5 |
/// | 3 Casual | 200 ms | 300 | learned evaluation, solves the last 10 | 0.3 |
/// | 4 Intermediate | 250 ms | 3,000 | learned evaluation, solves the last 14 | 0 |
/// | 5 Strong | 250 ms | none | default (learned evaluation, solves the last 16) | 0 |
/// | 6 Master | 1 s | none | default, solves the last 18, a 128 MiB tree; alpha-beta from 30 empties | 0 |
///
/// The iteration caps make the weaker levels play the same on a slow phone and a fast
/// desktop (and spare the battery); the strongest levels use their whole time cap.
///
/// The app runs a level on a background task:
///
/// ```
/// use montello_engine::search::{CancelHandle, Level};
/// use montello_engine::{Position, Variant};
///
/// let level = Level::Beginner;
/// let result = level
///     .searcher(7)
///     .search(&Position::start(), Variant::Othello, &level.limits(), &CancelHandle::new());
/// assert!(result.best.is_some());
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord, Default)]
pub enum Level {
    /// A few hundred random playouts a move, no notion of corners, and a move drawn in
    /// proportion to its visits: plays like someone who just learned the rules.
    Beginner,
    /// More playouts, still no notion of corners, and often not its best move.
    Novice,
    /// Judges positions with the learned evaluation but looks only a few hundred positions
    /// ahead, and sometimes strays from its best move.
    #[default]
    Casual,
    /// Always plays its best move after a short, capped search.
    Intermediate,
    /// A quarter of a second of full search a move.
    Strong,
    /// A second of full search a move: the strongest level, and the most battery.
    Master,
}

impl Level {
    /// Every level, weakest first.
    pub const ALL: [Level; 6] = [
        Level::Beginner,
        Level::Novice,
        Level::Casual,
        Level::Intermediate,
        Level::Strong,
        Level::Master,
    ];

    /// The level's name for menus and the command line.
    pub const fn name(self) -> &'static str {
        match self {
            Level::Beginner => "Beginner",
            Level::Novice => "Novice",
            Level::Casual => "Casual",
            Level::Intermediate => "Intermediate",
            Level::Strong => "Strong",
            Level::Master => "Master",
        }
    }

    /// The level's number, 1 (weakest) to 6.
    pub const fn number(self) -> u8 {
        self as u8 + 1
    }

    /// The level numbered `n` (1-based), if there is one.
    pub fn from_number(n: u8) -> Option<Level> {
        Level::ALL.get(usize::from(n).checked_sub(1)?).copied()
    }

    /// The level named `name` (case-insensitive) or numbered `name`.
    pub fn from_name(name: &str) -> Option<Level> {
        let name = name.trim();
        if let Ok(n) = name.parse::<u8>() {
            return Level::from_number(n);
        }
        Level::ALL
            .into_iter()
            .find(|l| l.name().eq_ignore_ascii_case(name))
    }

    /// The level's time cap per move.
    pub const fn time(self) -> Duration {
        Duration::from_millis(match self {
            Level::Beginner => 100,
            Level::Novice => 150,
            Level::Casual => 200,
            Level::Intermediate => 250,
            Level::Strong => 250,
            Level::Master => 1_000,
        })
    }

    /// The level's iteration cap per move, if it has one.
    pub const fn iterations(self) -> Option<u64> {
        match self {
            Level::Beginner => Some(200),
            Level::Novice => Some(1_000),
            Level::Casual => Some(300),
            Level::Intermediate => Some(3_000),
            Level::Strong | Level::Master => None,
        }
    }

    /// How far move choice strays from the best move: 0 always plays the best move; larger
    /// values pick among the root moves in proportion to `visits^(1/randomness)`.
    pub const fn randomness(self) -> f32 {
        match self {
            Level::Beginner => 1.0,
            Level::Novice => 0.5,
            Level::Casual => 0.3,
            _ => 0.0,
        }
    }

    /// The default strategy's knobs at this level.
    pub fn config(self) -> MctsConfig {
        let full = MctsConfig::default();
        match self {
            Level::Beginner => MctsConfig {
                prior_weight: 0.0,
                corner_playouts: false,
                eval_weight: 0.0,
                eval_priors: false,
                exploration: 0.5,
                expand_at: 2,
                solve_empties: 0,
                leaf_solve_empties: 0,
                ..full
            },
            Level::Novice => MctsConfig {
                prior_weight: 0.0,
                corner_playouts: false,
                eval_weight: 0.0,
                eval_priors: false,
                exploration: 0.5,
                expand_at: 2,
                solve_empties: 8,
                leaf_solve_empties: 0,
                ..full
            },
            Level::Casual => MctsConfig {
                solve_empties: 10,
                leaf_solve_empties: 6,
                ..full
            },
            Level::Intermediate => MctsConfig {
                solve_empties: 14,
                ..full
            },
            Level::Strong => full,
            // The root's exact solve gets half the time cap: at 18 empties it usually fits.
            // From 30 empties on, the move is the alpha-beta search's (ProbCut, then its exact
            // endgame): at 1 s a move that scored 60.0% (+70 Elo [+25, +118], 200 games)
            // against Master without it; with a cap under half a second (the player's own
            // `set time`, say) the tree keeps the move, as at 100 ms it scored 45.5% (docs/ai.md).
            // Wider exploration, lighter priors and implicit minimax backups, tuned with
            // generation 6 at 100 ms a move: +43 Elo [+11, +75] over 400 games against
            // Master without them (docs/ai.md, "Master's knobs with generation 6"). The
            // minimax value mixed into each child's mean at 0.45 (Lanctot et al.'s own form):
            // +58 Elo [+33, +85] over 600 games at Master's 100 ms pace (docs/ai.md).
            Level::Master => MctsConfig {
                solve_empties: 18,
                ab_empties: MASTER_AB_EMPTIES,
                ab_min_time: MASTER_AB_MIN_TIME,
                exploration: MASTER_EXPLORATION,
                prior_weight: MASTER_PRIOR_WEIGHT,
                minimax: true,
                minimax_alpha: MASTER_MINIMAX_ALPHA,
                leaf_solve_empties: MASTER_LEAF_SOLVE_EMPTIES,
                // A full pool is pruned and the tree keeps growing: +60 Elo [+13, +108] over
                // 200 games at 1 s with 32 MiB pools on both sides, where the pool is full in
                // most moves; with Master's 128 MiB it fills in few moves (docs/ai.md).
                prune: true,
                // The game's thinking as one budget, three quarters of the cap a move (#69).
                time_share: MASTER_TIME_SHARE,
                ..full
            },
        }
    }

    /// What one move's search may spend at this level.
    pub const fn limits(self) -> SearchLimits {
        SearchLimits {
            time: Some(self.time()),
            iterations: self.iterations(),
            memory: self.memory(),
        }
    }

    /// The level's memory cap for the search tree. Every iteration of the evaluated search
    /// adds a block of children, so a second of it outgrows a 64 MiB pool (and the search
    /// then stops deepening: Master scored 47.5% against Strong over 20 games with one,
    /// 77.5% with a pool that could grow): Master gets the default 128 MiB, room for one
    /// move's tree; the shorter searches keep 64 MiB, which is what they were measured with.
    pub const fn memory(self) -> usize {
        match self {
            Level::Master => super::DEFAULT_MEMORY,
            _ => 64 << 20,
        }
    }

    /// A searcher that plays at this level, its randomness drawn from `seed`.
    pub fn searcher(self, seed: u64) -> Searcher {
        Searcher::new(Strategy::Default, seed)
            .with_config(self.config())
            .with_randomness(self.randomness())
    }
}

/// Iterations of each tree search that [`tree_speed`] times.
pub const TREE_ITERATIONS: u64 = 20_000;

/// Master's tree search timed on this thread for about `seconds`: its default strategy with
/// the hand-over to alpha-beta off (every iteration is the tree's), [`TREE_ITERATIONS`]
/// iterations (fewer where the early stop ends it) from each of eight positions of a seeded
/// random game (plies 8, 12, ..., 36), a fresh tree each time, as many rounds of the eight as
/// fit (at least one). Returns the iterations and their time: the tree's speed in the
/// opening and middle game, for the `bench` command.
pub fn tree_speed(seconds: f64) -> (u64, Duration) {
    let mut line = Vec::new();
    let mut pos = Position::start();
    let mut rng = FastRng::new(0x7ee5);
    while line.len() < 8 && !pos.both_stuck() {
        let moves = pos.flip_moves();
        pos = if moves.is_empty() {
            pos.pass()
        } else {
            pos.play_unchecked(random_square(moves, &mut rng))
        };
        let ply = (pos.player() | pos.opponent()).count() - 4;
        if ply >= 8 && ply.is_multiple_of(4) {
            line.push(pos);
        }
    }
    let config = MctsConfig {
        ab_empties: 0,
        ..Level::Master.config()
    };
    let mut searcher = Searcher::new(Strategy::Default, 0x7ee5).with_config(config);
    let limits = SearchLimits {
        time: None,
        iterations: Some(TREE_ITERATIONS),
        memory: super::DEFAULT_MEMORY,
    };
    let cancel = CancelHandle::new();
    let budget = Duration::from_secs_f64(seconds.max(0.0));
    let mut iterations = 0u64;
    let start = Instant::now();
    loop {
        for pos in &line {
            searcher.clear();
            iterations += searcher
                .search(pos, Variant::Othello, &limits, &cancel)
                .iterations;
        }
        if start.elapsed() >= budget {
            break;
        }
    }
    (iterations, start.elapsed())
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_and_names_round_trip() {
        for (i, level) in Level::ALL.into_iter().enumerate() {
            assert_eq!(usize::from(level.number()), i + 1);
            assert_eq!(Level::from_number(level.number()), Some(level));
            assert_eq!(Level::from_name(level.name()), Some(level));
            assert_eq!(Level::from_name(&level.name().to_lowercase()), Some(level));
        }
        assert_eq!(Level::from_number(0), None);
        assert_eq!(Level::from_number(7), None);
        assert_eq!(Level::from_name("3"), Some(Level::Casual));
        assert_eq!(Level::from_name("grandmaster"), None);
    }

    #[test]
    fn stronger_levels_never_think_less() {
        for w in Level::ALL.windows(2) {
            assert!(w[0].time() <= w[1].time());
            assert!(w[0].randomness() >= w[1].randomness());
            let budget = |l: Level| l.iterations().unwrap_or(u64::MAX);
            // An iteration with the learned evaluation weighs more than a random playout
            // (it evaluates every child of the node it reaches): budgets only compare
            // between levels that value leaves the same way.
            let learned = |l: Level| l.config().eval_weight > 0.0;
            if learned(w[0]) == learned(w[1]) {
                assert!(budget(w[0]) <= budget(w[1]), "{} {}", w[0], w[1]);
            }
            assert!(!learned(w[0]) || learned(w[1]), "{} {}", w[0], w[1]);
            assert!(w[0].config().solve_empties <= w[1].config().solve_empties);
            assert!(w[0].memory() <= w[1].memory());
        }
    }

    /// Master plays the tree's move in the middle game and the alpha-beta search's from 30
    /// empties on (the same move, values and nodes as the `ab` player under the same node
    /// budget, with a table of a quarter of the memory cap); the other levels never hand over.
    #[test]
    fn master_hands_the_late_middle_game_to_alpha_beta() {
        use super::super::{CancelHandle, Strategy};
        use crate::Variant;
        let limits = SearchLimits::iterations(20_000);
        let quarter = SearchLimits {
            memory: limits.memory / 4,
            ..limits
        };
        let run = |mut s: Searcher, pos: &crate::Position, limits: &SearchLimits| {
            let r = s.search(pos, Variant::Othello, limits, &CancelHandle::new());
            (r.best, r.moves, r.iterations, r.answered_by)
        };
        let ab = |pos| run(Searcher::new(Strategy::AlphaBeta, 5), pos, &quarter);
        let late = crate::random_endgame(8, 30);
        let master = run(Level::Master.searcher(5), &late, &limits);
        assert_eq!(
            master.3,
            Strategy::AlphaBeta,
            "30 empties: Master hands over"
        );
        assert_eq!(master, ab(&late));
        // Which search answered, not figures that differ between any two searches.
        assert_eq!(
            run(Level::Strong.searcher(5), &late, &limits).3,
            Strategy::Default,
            "Strong keeps the tree"
        );
        let middle = crate::random_endgame(8, 31);
        assert_eq!(
            run(Level::Master.searcher(5), &middle, &limits).3,
            Strategy::Default,
            "31 empties: the tree's"
        );
        for level in Level::ALL {
            assert_eq!(level.config().ab_empties > 0, level == Level::Master);
            // Master's own tree knobs (docs/ai.md); the levels below keep the measured ones.
            assert_eq!(level.config().minimax, level == Level::Master);
            assert_eq!(level.config().minimax_alpha > 0.0, level == Level::Master);
            assert_eq!(level.config().prune, level == Level::Master);
            assert_eq!(
                level.config().leaf_solve_empties > 9,
                level == Level::Master
            );
        }
    }
}
