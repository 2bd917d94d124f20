//! The default strategy's knobs, one per addition to plain UCT, so the arena can measure
//! each against `classic`.

use std::time::Duration;

/// The knobs of the default strategy ([`crate::search::Strategy::Default`]): UCT on a flat
/// node pool, with tree reuse between moves, move priors (Othello's corner and X-/C-square
/// knowledge, or the learned evaluation), the MCTS-Solver (proven wins and losses propagate up
/// the tree), exact win/draw/loss solves near the leaves and an exact final-margin solve of the
/// root with few empty squares left.
///
/// [`MctsConfig::default`] is what players face; the arena sets the others
/// (`default:c=0.7,prior=0`) to measure what each one is worth.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MctsConfig {
    /// The UCB exploration constant `c` in `q + c * sqrt(ln N / n)`.
    pub exploration: f32,
    /// How many virtual playouts the move prior is worth (0 turns priors off).
    pub prior_weight: f32,
    /// Solve the root exactly (final disc margin) at or below this many empty squares.
    pub solve_empties: u32,
    /// Prove leaves exactly (win/draw/loss) at or below this many empty squares.
    pub leaf_solve_empties: u32,
    /// Expand a leaf once it has been visited this many times.
    pub expand_at: u32,
    /// Keep the subtree of the actual position between moves.
    pub reuse: bool,
    /// When the pool is full, drop the subtrees of the least visited nodes (half the pool,
    /// see `Tree::prune`) and keep expanding, instead of iterating on the tree it holds
    /// (Master's; off by default).
    pub prune: bool,
    /// Playouts that take an available corner and avoid X-squares next to an empty corner
    /// (uniformly random otherwise) instead of uniformly random ones.
    pub corner_playouts: bool,
    /// How much of a leaf's value comes from the learned evaluation ([`crate::eval`]) rather
    /// than a playout: 0 plays out every leaf, 1 never does.
    pub eval_weight: f32,
    /// Priors from each child's learned evaluation instead of the corner heuristic; a leaf
    /// that was just expanded is then valued by its best child (one ply of minimax).
    pub eval_priors: bool,
    /// The disc margin that counts as one logistic unit when the evaluation becomes a win
    /// probability: `p = 1 / (1 + exp(-margin / eval_scale))`.
    pub eval_scale: f32,
    /// Implicit minimax backups (Lanctot et al. 2014): a node's prior follows the minimax of
    /// the evaluations below it.
    pub minimax: bool,
    /// With implicit minimax backups, how much of a child's value in selection is the
    /// minimax of the evaluations below it, mixed in directly as Lanctot et al. do
    /// (`(1 - a) q + a v`), beside its weight as a prior; 0 (the default): only as a prior.
    /// Master's 0.45 scored +58 Elo [+33, +85] over 600 games against 0 at its 100 ms pace
    /// (docs/ai.md).
    pub minimax_alpha: f32,
    /// Stop before the caps once the move to play can no longer change: when its lead in
    /// visits over the runner-up (the most visited other move not proven lost) is larger
    /// than the iterations the search could still run (its rate so far times the time left,
    /// at most the iteration cap's remainder) times 1.25, or when every other move is proven
    /// lost. Checked with the clock, every few dozen iterations; the time left counts only
    /// once the rate has been measured over a tenth of the time (at least 5 ms), and at no
    /// less than the fastest rate this searcher has run at. A [`crate::search::Searcher`] with
    /// randomness above 0 turns it off: it draws its move in proportion to the visits.
    /// Not before half the cap (a smaller tree for the next move to reuse), and never at or
    /// below `leaf_solve_empties` + 15 empties (a proof can still change the choice). On by
    /// default: at Master's 1 s, +5 Elo [-34, +45] over 200 games against the full search,
    /// 414 ms a move instead of 664 (docs/ai.md; stopping at a quarter of the cap, without
    /// the proof horizon, had cost -51 Elo [-93, -10]).
    pub early_stop: bool,
    /// With evaluated priors, a freshly expanded leaf is valued by an alpha-beta search this
    /// many plies deep (the alpha-beta core with Multi-ProbCut and a small table of its own;
    /// at most 6) instead of by one ply of minimax over its children's priors (1). Off by
    /// default: 2 plies cost Master -92 Elo at 100 ms a move (docs/ai.md).
    pub leaf_depth: u32,
    /// At or below this many empty squares the move is the alpha-beta search's (the `ab`
    /// player: Multi-ProbCut, then its exact endgame, with a table of a quarter of the memory
    /// cap) instead of the tree's; 0: never. Master's is 30 (docs/ai.md).
    pub ab_empties: u32,
    /// ... but only when the move's time cap is at least this long (a search without a time
    /// cap always hands over). Master's is 500 ms: at 1 s a move handing over from 30 empties
    /// scored +70 Elo [+25, +118], at 100 ms -31 [-78, +14] (the tree's endgame proofs beat
    /// `ab`'s shallow solve on a short clock).
    pub ab_min_time: Duration,
    /// Under a time cap shorter than `ab_min_time`, the move is still the alpha-beta search's
    /// above this many empty squares (up to `ab_empties`), so that the tree keeps only the
    /// endgame it proves on a short clock; 0 (the default and Master's): no hand-over under
    /// the shorter cap. Master with 18 at 100 ms a move: -17 Elo [-62, +26] (docs/ai.md).
    pub ab_short_floor: u32,
    /// Play from the searcher's opening book ([`crate::search::Searcher::with_book`]) while the
    /// position is in it: one of the book's moves within this many discs of its best, drawn
    /// with the searcher's seeded generator. `None` (the default, and every level's: the
    /// arena found the project's book weaker than Master's own search, docs/ai.md) searches
    /// every move.
    pub book_margin: Option<u8>,
    /// Under a time cap (and no iteration cap), the side's thinking for a whole game is a
    /// budget of this share of the cap a move, spent where moves still think
    /// ([`crate::search::Searcher`]'s game clock: up to twice the cap on a move, what easy
    /// moves leave going to the hard ones); 0 (the default): every move gets the cap. Master's
    /// is 0.75 (#69: at most three quarters of the cap a move on average).
    pub time_share: f32,
}

impl Default for MctsConfig {
    fn default() -> Self {
        MctsConfig {
            exploration: 0.25,
            prior_weight: 8.0,
            solve_empties: 16,
            leaf_solve_empties: 9,
            expand_at: 1,
            reuse: true,
            prune: false,
            corner_playouts: true,
            eval_weight: 1.0,
            eval_priors: true,
            eval_scale: 6.0,
            minimax: false,
            minimax_alpha: 0.0,
            // On: at Master's 1 s, +5 Elo [-34, +45] over 200 games against the full search,
            // with 38% less time per move (docs/ai.md).
            early_stop: true,
            leaf_depth: 1,
            ab_empties: 0,
            ab_min_time: Duration::ZERO,
            ab_short_floor: 0,
            book_margin: None,
            time_share: 0.0,
        }
    }
}
