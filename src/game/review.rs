//! The game review (#51): every move's cost in discs, the better move, exact where the solver
//! reaches. The engine's `search::review` computes it; this module runs it off the frame, keeps
//! it with the moves it belongs to, and answers what the screens ask (the review of the move on
//! the board, the progress, each player's accuracy).
//!
//! It starts on its own when a game ends, and whenever the player asks (the move list's Review
//! button) for the moves so far. It is one [`Background`] job, like the AI's move: natively a
//! task on the compute pool, in a browser a request to the engine's Web Worker. Any game action
//! stops it (the moves it was reviewing are no longer the game's), and so do the AI or a hint
//! starting (they need the worker) and the app being suspended; it starts again from the
//! beginning when it may. A move's review depends only on the position before it and the move,
//! so a review stays good for every game that begins with the same moves: after an undo and
//! a redo it is shown again, not computed again, and it is saved with the game.

use super::background::Background;
use crate::AppSystems;
use crate::game::ai::{AiControl, AiState};
use crate::game::flow::CurrentGame;
use crate::platform::lifecycle::WorkPaused;
use bevy::prelude::*;
use montello_engine::search::review::{MoveReview, Review, ReviewConfig};
use montello_engine::{Game, Move};

pub(crate) fn plugin(app: &mut App) {
    app.init_resource::<GameReview>()
        .init_resource::<ReviewSettings>()
        .add_systems(
            Update,
            (follow_game, poll_review, start_review)
                .chain()
                .in_set(AppSystems::Ai),
        );
}

/// How the app reviews: the engine's default, the last 20 empty squares exact and a 12-ply
/// search before them (docs/ai.md: under 2 s for a whole game natively, about three times
/// that in a browser's worker). Tests set a shallower one.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ReviewSettings(pub ReviewConfig);

/// The review of the game's moves, when there is one, and the one being computed.
#[derive(Resource, Default)]
pub struct GameReview {
    /// The moves reviewed (passes included, from the game's start) and their review.
    done: Option<(Vec<Move>, Review)>,
    running: Option<Running>,
    /// The player asked for a review of the moves so far.
    wanted: bool,
}

struct Running {
    work: Background<Option<Review>>,
    /// The moves it reviews.
    moves: Vec<Move>,
    /// How many of them are not passes: the moves it will have reviewed when done.
    total: usize,
}

impl std::fmt::Debug for GameReview {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GameReview")
            .field(
                "done",
                &self.done.as_ref().map(|(m, r)| (m.len(), r.moves.len())),
            )
            .field("progress", &self.progress())
            .field("wanted", &self.wanted)
            .finish()
    }
}

impl GameReview {
    /// The review kept for `moves`, if it is of these moves or of a game that began with
    /// them (a move's review depends on nothing after it).
    fn covering(&self, moves: &[Move]) -> Option<&Review> {
        let (reviewed, review) = self.done.as_ref()?;
        (reviewed.len() >= moves.len() && reviewed[..moves.len()] == *moves).then_some(review)
    }

    /// Whether every move of `game` on the board is reviewed.
    pub fn covers(&self, game: &Game) -> bool {
        self.covering(game.history()).is_some()
    }

    /// The review of the move that led to the position after `ply` moves of `game` (the
    /// `ply`-th move on the board, from 1), when it is reviewed; none for a pass.
    pub fn of_ply(&self, game: &Game, ply: usize) -> Option<MoveReview> {
        let history = game.history().get(..ply)?;
        if ply == 0 || history[ply - 1] == Move::Pass {
            return None;
        }
        let review = self.covering(history)?;
        let index = history.iter().filter(|m| **m != Move::Pass).count() - 1;
        review.moves.get(index).copied()
    }

    /// The whole game's review, when every move on the board is reviewed: its moves cut to
    /// those on the board (a review kept from before an undo may hold more).
    pub fn of_game(&self, game: &Game) -> Option<Review> {
        let review = self.covering(game.history())?;
        let played = game.history().iter().filter(|m| **m != Move::Pass).count();
        Some(Review {
            moves: review.moves.iter().take(played).copied().collect(),
        })
    }

    /// `(moves reviewed, moves to review)` while a review runs.
    pub fn progress(&self) -> Option<(usize, usize)> {
        let running = self.running.as_ref()?;
        let done = usize::try_from(running.work.iterations()).unwrap_or(usize::MAX);
        Some((done.min(running.total), running.total))
    }

    /// Asks for a review of the moves on the board (nothing to do if they are reviewed).
    pub fn request(&mut self) {
        self.wanted = true;
    }

    /// The review kept with a saved game: `moves` (passes included) and their review, put back
    /// as computed.
    pub fn restore(&mut self, moves: Vec<Move>, review: Review) {
        self.stop();
        self.done = Some((moves, review));
    }

    /// What to save with the game: the moves reviewed and their review.
    pub fn saved(&self) -> Option<(&[Move], &Review)> {
        self.done.as_ref().map(|(m, r)| (m.as_slice(), r))
    }

    fn stop(&mut self) {
        if let Some(running) = self.running.take() {
            running.work.stop();
        }
    }
}

/// A game action changed the moves on the board: a review under way is stopped, and the
/// player's request with it (a review kept stays, for the moves it covers; a finished game is
/// reviewed again on its own). A request not yet started (the AI was busy) waits for its turn.
fn follow_game(current: Res<CurrentGame>, mut review: ResMut<GameReview>) {
    if !current.is_changed() {
        return;
    }
    let history = current.game().history();
    if review
        .running
        .as_ref()
        .is_some_and(|r| r.moves.as_slice() != history)
    {
        review.stop();
        review.wanted = false;
    }
}

fn poll_review(mut review: ResMut<GameReview>, ai: Res<AiState>, paused: Res<WorkPaused>) {
    if review.running.is_none() {
        return;
    }
    if paused.0 || ai.is_busy() {
        // The AI's move or a hint needs the worker (the CPU natively), and a suspended app
        // runs nothing: the review starts again when it may.
        review.stop();
        return;
    }
    // Polled without marking the resource changed: the screens redraw on what it found, not
    // on every frame it runs (the move list's progress line reads it every frame anyway).
    let Some(running) = review.bypass_change_detection().running.as_mut() else {
        return;
    };
    let Some(found) = running.work.poll() else {
        return;
    };
    let moves = std::mem::take(&mut running.moves);
    review.running = None;
    if let Some(found) = found {
        info!("reviewed {} moves", found.moves.len());
        review.done = Some((moves, found));
        review.wanted = false;
    }
}

fn start_review(
    mut review: ResMut<GameReview>,
    current: Res<CurrentGame>,
    ai: Res<AiState>,
    control: Res<AiControl>,
    paused: Res<WorkPaused>,
    settings: Res<ReviewSettings>,
) {
    let game = current.game();
    if review.running.is_some()
        || control.frozen
        || paused.0
        || ai.is_busy()
        || !(game.is_over() || review.wanted)
        || game.history().is_empty()
        || review.covers(game)
    {
        return;
    }
    let moves = game.history().to_vec();
    let total = moves.iter().filter(|m| **m != Move::Pass).count();
    let config = settings.0;
    #[cfg(not(all(target_family = "wasm", target_os = "unknown")))]
    let work = {
        let game = game.clone();
        Background::start(move |cancel| {
            montello_engine::search::review::review(&game, &config, Some(cancel), |_, _| {})
        })
    };
    // In a browser: in the engine's worker, which posts the moves done as its progress.
    #[cfg(all(target_family = "wasm", target_os = "unknown"))]
    let work = {
        use montello_engine::wire::{Reply, Request};
        let variant = game.variant();
        let start = game.start_position();
        let moves = moves.clone();
        Background::remote(
            move |job| Request::Review {
                job,
                variant,
                config,
                start,
                moves,
            },
            |reply| match reply {
                Reply::Reviewed { review, .. } => Some(Some(review)),
                _ => None,
            },
        )
    };
    review.running = Some(Running { work, moves, total });
}

#[cfg(test)]
mod tests {
    use super::*;
    use montello_engine::Variant;
    use montello_engine::notation::transcript;
    use montello_engine::search::review::review as engine_review;

    fn game(moves: &str) -> Game {
        transcript::parse(moves, Variant::Othello).expect("a legal transcript")
    }

    fn shallow() -> ReviewConfig {
        ReviewConfig {
            depth: 2,
            ..ReviewConfig::default()
        }
    }

    /// A review kept for a game answers for that game and any game that begins with the same
    /// moves (after an undo), by ply with passes skipped, and for no other game.
    #[test]
    fn a_kept_review_answers_for_the_moves_it_covers() {
        let full = game("f5d6c3d3c4f4f6f3e6e7");
        let review = engine_review(&full, &shallow(), None, |_, _| {}).expect("done");
        let mut kept = GameReview::default();
        assert!(!kept.covers(&full) && kept.of_ply(&full, 1).is_none());
        kept.restore(full.history().to_vec(), review.clone());
        assert!(kept.covers(&full));
        assert_eq!(kept.of_ply(&full, 3), Some(review.moves[2]));
        assert_eq!(kept.of_ply(&full, 0), None);
        assert_eq!(kept.of_ply(&full, 11), None, "past the moves on the board");
        assert_eq!(kept.of_game(&full), Some(review.clone()));
        // An undo: the first moves are still covered, their review cut to them.
        let mut undone = full.clone();
        undone.undo();
        undone.undo();
        assert!(kept.covers(&undone));
        assert_eq!(kept.of_game(&undone).map(|r| r.moves.len()), Some(8));
        assert_eq!(kept.of_ply(&undone, 8), Some(review.moves[7]));
        // Another game from the second move: its first move (the same) is covered, the rest
        // is not, nor is the whole game.
        let other = game("f5f6e6f4");
        assert!(!kept.covers(&other));
        assert_eq!(kept.of_ply(&other, 1), Some(review.moves[0]));
        assert_eq!(kept.of_ply(&other, 2), None);
        assert_eq!(kept.of_game(&other), None);
    }

    /// Passes are on the board but not reviewed: the move after one reads the review's next
    /// entry, and the pass itself has none.
    #[test]
    fn passes_are_skipped_when_a_ply_is_looked_up() {
        // Black a1, White b1 and d1, Black to move: c1 takes b1, White has no move and
        // passes, Black's e1 takes d1 and ends the game.
        let board =
            montello_engine::notation::board_string::parse(&format!("XO-O{} X", "-".repeat(60)))
                .expect("board");
        let mut g = Game::from_position(board, Variant::Othello);
        for mv in ["c1", "PA", "e1"] {
            g.play(mv.parse().expect("a move")).expect("legal");
        }
        assert!(g.is_over());
        let review = engine_review(&g, &shallow(), None, |_, _| {}).expect("done");
        assert_eq!(review.moves.len(), 2, "the pass is not reviewed");
        let mut kept = GameReview::default();
        kept.restore(g.history().to_vec(), review.clone());
        assert_eq!(kept.of_ply(&g, 1), Some(review.moves[0]));
        assert_eq!(kept.of_ply(&g, 2), None, "a pass");
        assert_eq!(kept.of_ply(&g, 3), Some(review.moves[1]));
        assert_eq!(kept.of_game(&g), Some(review));
    }
}
