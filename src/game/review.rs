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
use crate::platform::memory::EngineMemory;
use bevy::prelude::*;
use montello_engine::search::review::{Class, MoveReview, Review, ReviewConfig, final_estimate};
use montello_engine::wire::{Reply, Request};
use montello_engine::{Game, Move, Side};

pub(crate) fn plugin(app: &mut App) {
    app.init_resource::<GameReview>()
        .init_resource::<ReviewSettings>()
        .init_resource::<EngineMemory>()
        .add_systems(
            Update,
            (follow_game, poll_review, start_review)
                .chain()
                .in_set(AppSystems::Ai),
        );
}

/// How the app reviews: the engine's default, the last 20 empty squares exact and a 12-ply
/// search before them (docs/ai.md: under 2 s for a whole game natively, about three times
/// that in a browser's worker), its table held to the device's budget ([`ReviewSettings::on`]).
/// Tests set a shallower one.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ReviewSettings(pub ReviewConfig);

impl ReviewSettings {
    /// The review as this device runs it: its table held to the device's budget.
    pub fn on(&self, memory: &EngineMemory) -> ReviewConfig {
        ReviewConfig {
            table_bytes: memory.cap_table(self.0.table_bytes),
            ..self.0
        }
    }
}

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

    /// The plies on the board (from 1, passes counted, as [`CurrentGame::review`] takes them)
    /// of the moves marked an inaccuracy or worse, `side`'s alone or (`None`) both sides', in
    /// order; empty until the moves on the board are reviewed.
    pub fn marked_plies(&self, game: &Game, side: Option<Side>) -> Vec<usize> {
        let Some(review) = self.of_game(game) else {
            return Vec::new();
        };
        review
            .moves
            .iter()
            .filter(|m| m.class() >= Class::Inaccuracy && side.is_none_or(|s| m.side == s))
            .filter_map(|m| board_ply(game.history(), m.ply))
            .collect()
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

/// The ply on the board (from 1, passes counted) of the `nth` move reviewed (from 1: a
/// [`MoveReview::ply`], passes not counted) of a game whose moves are `history`.
pub fn board_ply(history: &[Move], nth: usize) -> Option<usize> {
    let index = nth.checked_sub(1)?;
    history
        .iter()
        .enumerate()
        .filter(|(_, m)| **m != Move::Pass)
        .nth(index)
        .map(|(i, _)| i + 1)
}

/// Black's final margin with best play (discs) at each position of `game` from its first to
/// the one on the board (`game.ply() + 1` of them), read from `review` (which covers its
/// moves): before a move, the best move's value for its side; after the last move, the played
/// move's value (a finished game's: its result, as the win bar shows it); a position where a
/// side passes, the value of the move after it (a pass
/// changes nothing), or before it when nothing follows. Whether each figure is exact comes with it. The evaluation graph draws
/// these, in the same unit as the win bar and the review.
pub fn black_margins(game: &Game, review: &Review) -> Vec<Option<(f32, bool)>> {
    let history = game.history();
    let black = |side: Side, v: f32| if side == Side::Black { v } else { -v };
    let mut margins = vec![None; history.len() + 1];
    for m in &review.moves {
        let Some(ply) = board_ply(history, m.ply) else {
            break;
        };
        margins[ply - 1] = Some((black(m.side, m.best_value), m.exact));
        margins[ply] = Some((black(m.side, m.played_value), m.exact));
    }
    // The end of a finished game: its result as the win bar and the status give it.
    if let Some(end) = final_estimate(&game.position(), game.variant()) {
        margins[history.len()] = Some((end.black_margin, true));
    }
    // A pass's position holds the value of the position after it.
    for i in (0..history.len()).rev() {
        if history[i] == Move::Pass && margins[i + 1].is_some() {
            margins[i] = margins[i + 1];
        }
    }
    // ...and the position after a pass that ends what is on the board, the value before it.
    for i in 0..history.len() {
        if history[i] == Move::Pass && margins[i + 1].is_none() {
            margins[i + 1] = margins[i];
        }
    }
    margins
}

/// The marked ply to show after `shown` (`forward`) or before it, from `marked` (in order):
/// what the review's next and previous mistake buttons go to. `None` past the last or
/// before the first.
pub fn step_to_marked(marked: &[usize], shown: usize, forward: bool) -> Option<usize> {
    if forward {
        marked.iter().copied().find(|&ply| ply > shown)
    } else {
        marked.iter().copied().rev().find(|&ply| ply < shown)
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
    memory: Res<EngineMemory>,
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
    let config = settings.on(&memory);
    // The engine posts the moves done as its progress.
    let (variant, start, asked) = (game.variant(), game.start_position(), moves.clone());
    let work = Background::request(
        move |job| Request::Review {
            job,
            variant,
            config,
            start,
            moves: asked,
        },
        |reply| match reply {
            Reply::Reviewed { review, .. } => Some(Some(review)),
            // Cancelled, or refused (a move not legal: not the game's own history).
            Reply::Failed { why, .. } => {
                bevy::log::warn!("no review: {why}");
                Some(None)
            }
            _ => None,
        },
    );
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

    /// A phone's browser reviews with half the engine's 16 MiB table; other devices, and a
    /// smaller table a test asks for, are left alone (the same rule as the values').
    #[test]
    fn a_phone_reviews_with_a_smaller_table() {
        use crate::platform::memory::DeviceClass;
        let settings = ReviewSettings::default();
        assert_eq!(settings.0.table_bytes, 16 << 20);
        let phone = settings.on(&EngineMemory::of(DeviceClass::Phone));
        assert_eq!(phone.table_bytes, 8 << 20);
        assert_eq!(
            (phone.depth, phone.exact_empties),
            (settings.0.depth, settings.0.exact_empties)
        );
        assert_eq!(
            settings.on(&EngineMemory::of(DeviceClass::Desktop)),
            settings.0
        );
        let small = ReviewSettings(ReviewConfig {
            table_bytes: 1 << 20,
            ..settings.0
        });
        assert_eq!(small.on(&EngineMemory::of(DeviceClass::Phone)), small.0);
        let values = crate::game::values::ValuesSettings::default();
        assert_eq!(
            values.on(&EngineMemory::of(DeviceClass::Phone)).table_bytes,
            8 << 20
        );
        assert_eq!(values.on(&EngineMemory::of(DeviceClass::Tablet)), values.0);
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

    /// A move's number among the moves reviewed becomes its ply on the board past a pass,
    /// and the next and previous marked moves are found from any ply.
    #[test]
    fn marked_moves_are_found_on_the_board_in_order() {
        let pass = Move::Pass;
        let f5 = Move::Play("f5".parse().expect("a square"));
        let history = [f5, f5, pass, f5, f5];
        assert_eq!(board_ply(&history, 1), Some(1));
        assert_eq!(board_ply(&history, 3), Some(4), "after the pass");
        assert_eq!(board_ply(&history, 4), Some(5));
        assert_eq!(
            (board_ply(&history, 0), board_ply(&history, 5)),
            (None, None)
        );
        let marked = [3, 8, 20];
        let forward: Vec<usize> = std::iter::successors(step_to_marked(&marked, 0, true), |&p| {
            step_to_marked(&marked, p, true)
        })
        .collect();
        assert_eq!(
            forward, marked,
            "next visits each marked move once, in order"
        );
        let back: Vec<usize> = std::iter::successors(step_to_marked(&marked, 60, false), |&p| {
            step_to_marked(&marked, p, false)
        })
        .collect();
        assert_eq!(back, [20, 8, 3]);
        assert_eq!(step_to_marked(&marked, 8, true), Some(20));
        assert_eq!(step_to_marked(&marked, 9, false), Some(8));
        assert_eq!(step_to_marked(&[], 5, true), None);
    }

    /// The marked plies of a reviewed game are the engine's inaccuracies and worse, the
    /// side's own or both sides', on the board.
    #[test]
    fn the_marked_plies_are_the_reviews_inaccuracies_and_worse() {
        let full = game("f5d6c3d3c4f4f6f3e6e7");
        let review = engine_review(&full, &shallow(), None, |_, _| {}).expect("done");
        let mut kept = GameReview::default();
        assert!(
            kept.marked_plies(&full, None).is_empty(),
            "not reviewed yet"
        );
        kept.restore(full.history().to_vec(), review.clone());
        for side in [None, Some(Side::Black), Some(Side::White)] {
            let expected: Vec<usize> = review
                .moves
                .iter()
                .filter(|m| m.class() >= Class::Inaccuracy && side.is_none_or(|s| s == m.side))
                .map(|m| m.ply)
                .collect();
            assert_eq!(kept.marked_plies(&full, side), expected, "{side:?}");
        }
    }

    /// The graph's figures are the review's values from Black's side, a pass's position the
    /// value after it, and the last position the last move's played value.
    #[test]
    fn the_graph_reads_blacks_margin_from_the_review() {
        let board =
            montello_engine::notation::board_string::parse(&format!("XO-O{} X", "-".repeat(60)))
                .expect("board");
        let mut g = Game::from_position(board, Variant::Othello);
        for mv in ["c1", "PA", "e1"] {
            g.play(mv.parse().expect("a move")).expect("legal");
        }
        let review = engine_review(&g, &shallow(), None, |_, _| {}).expect("done");
        let margins = black_margins(&g, &review);
        assert_eq!(margins.len(), 4);
        let (c1, e1) = (review.moves[0], review.moves[1]);
        assert_eq!((c1.side, e1.side), (Side::Black, Side::Black));
        // (60 empty squares: searched, not solved.)
        assert_eq!(margins[0], Some((c1.best_value, c1.exact)));
        assert_eq!(
            margins[1],
            Some((e1.best_value, e1.exact)),
            "the pass's position"
        );
        assert_eq!(margins[2], Some((e1.best_value, e1.exact)));
        // The game ends 5-0 for Black: the result as the board shows it, as the win bar and
        // the status say, where the solver counts the 59 empty squares for the winner.
        assert_eq!(e1.played_value, 64.0);
        assert_eq!(margins[3], Some((5.0, true)));
        // Undone to before e1: the last position is c1's played value.
        let mut earlier = g.clone();
        earlier.undo();
        assert_eq!(
            black_margins(&earlier, &review)[2],
            Some((c1.played_value, c1.exact))
        );
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
