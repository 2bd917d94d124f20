//! The evaluation graph's data: black's chance to win in every position of the game, as the
//! searches made during the game saw it (the AI's moves and the hints), completed after the
//! game by a short analysis of the positions no search looked at.
//!
//! The analysis is one task on `AsyncComputeTaskPool`, like the AI: it runs once the game is
//! over, [`ANALYSIS_ITERATIONS`] playouts a position with a seeded searcher (the same game
//! gives the same graph), is cancelled when the game changes or the app is suspended, and
//! starts again from what is left when it may.

use super::background::Background;
use crate::AppSystems;
use crate::game::ai::{AiControl, AiState, SearchEstimate};
use crate::game::flow::CurrentGame;
use crate::platform::lifecycle::WorkPaused;
use crate::prefs::settings::Settings;
use bevy::prelude::*;
use montello_engine::wire::{Reply, Request};
use montello_engine::{Move, Position};

/// Playouts per position in the post-game analysis: a low level's worth, a fraction of a
/// second for a whole game.
pub const ANALYSIS_ITERATIONS: u64 = 2_000;

pub(crate) fn plugin(app: &mut App) {
    app.init_resource::<EvalHistory>().add_systems(
        Update,
        (follow_game, take_estimates, poll_analysis, start_analysis)
            .chain()
            .in_set(AppSystems::Ai),
    );
}

/// Where an estimate comes from.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Estimate {
    /// A search made during the game (the AI's move or a hint).
    Search(f32),
    /// The post-game analysis.
    Analysis(f32),
    /// The game is over here: 1, 0 or one half.
    Final(f32),
}

impl Estimate {
    /// Black's chance to win, 0..=1.
    pub fn black_win(self) -> f32 {
        match self {
            Estimate::Search(p) | Estimate::Analysis(p) | Estimate::Final(p) => p,
        }
    }
}

struct Analysis {
    work: Background<Vec<(usize, f32)>>,
    /// The moves of the game it analyses.
    moves: Vec<Move>,
}

/// Black's chance to win in each position of the game (index = moves played), as far as
/// known.
#[derive(Resource, Default)]
pub struct EvalHistory {
    /// The moves the estimates belong to (the game's history, without the redo tail).
    moves: Vec<Move>,
    /// One entry per position: `moves.len() + 1` of them.
    estimates: Vec<Option<Estimate>>,
    analysis: Option<Analysis>,
}

impl std::fmt::Debug for EvalHistory {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("EvalHistory")
            .field("estimates", &self.estimates)
            .field("analysing", &self.analysing())
            .finish()
    }
}

impl EvalHistory {
    /// The estimate of every position, index = moves played.
    pub fn estimates(&self) -> &[Option<Estimate>] {
        &self.estimates
    }

    /// Whether the post-game analysis is running.
    pub fn analysing(&self) -> bool {
        self.analysis.is_some()
    }

    /// Whether every position has an estimate.
    pub fn complete(&self) -> bool {
        !self.estimates.is_empty() && self.estimates.iter().all(Option::is_some)
    }

    fn cancel(&mut self) {
        if let Some(analysis) = self.analysis.take() {
            analysis.work.stop();
        }
    }
}

/// Keeps the estimates in step with the game: after an undo and a different move, the
/// estimates past the point where the games part are dropped; the last position of a finished
/// game gets its exact value.
fn follow_game(current: Res<CurrentGame>, mut eval: ResMut<EvalHistory>) {
    if !current.is_changed() {
        return;
    }
    let history = current.game().history();
    if eval.moves.as_slice() == history && !eval.estimates.is_empty() {
        return;
    }
    let common = eval
        .moves
        .iter()
        .zip(history)
        .take_while(|(a, b)| a == b)
        .count();
    eval.cancel();
    eval.moves = history.to_vec();
    eval.estimates.truncate(common + 1);
    eval.estimates.resize(history.len() + 1, None);
    // A game that goes on after its old end point changes the meaning of that position's
    // entry only if it was final, and a final position cannot be played on from.
    let game = current.game();
    if let Some(result) = game.result()
        && let Some(last) = eval.estimates.last_mut()
    {
        *last = Some(Estimate::Final(result.discs.black_win()));
    }
}

fn take_estimates(mut found: MessageReader<SearchEstimate>, mut eval: ResMut<EvalHistory>) {
    for estimate in found.read() {
        if let Some(slot) = eval.estimates.get_mut(estimate.ply)
            && !matches!(slot, Some(Estimate::Final(_)))
        {
            *slot = Some(Estimate::Search(estimate.black_win.clamp(0.0, 1.0)));
        }
    }
}

fn poll_analysis(mut eval: ResMut<EvalHistory>, paused: Res<WorkPaused>) {
    if eval.analysis.is_none() {
        return;
    }
    if paused.0 {
        // No CPU in the background; it starts again from what is left on resume.
        eval.cancel();
        return;
    }
    let Some(analysis) = eval.analysis.as_mut() else {
        return;
    };
    let Some(found) = analysis.work.poll() else {
        return;
    };
    let moves = analysis.moves.clone();
    eval.analysis = None;
    if moves != eval.moves {
        return;
    }
    for (ply, p) in found {
        if let Some(slot @ None) = eval.estimates.get_mut(ply) {
            *slot = Some(Estimate::Analysis(p));
        }
    }
    // A position no search could rate (none in practice: a pass position is rated through
    // its only move) takes its predecessor's value, so the analysis never starts again.
    let mut previous = 0.5;
    for slot in &mut eval.estimates {
        match slot {
            Some(e) => previous = e.black_win(),
            None => *slot = Some(Estimate::Analysis(previous)),
        }
    }
}

fn start_analysis(
    mut eval: ResMut<EvalHistory>,
    current: Res<CurrentGame>,
    ai: Res<AiState>,
    control: Res<AiControl>,
    settings: Res<Settings>,
    paused: Res<WorkPaused>,
) {
    let game = current.game();
    if eval.analysis.is_some()
        || control.frozen
        || paused.0
        || ai.is_busy()
        || !game.is_over()
        || eval.complete()
        || eval.moves.as_slice() != game.history()
    {
        return;
    }
    let positions: Vec<(usize, Position)> = eval
        .estimates
        .iter()
        .enumerate()
        .filter(|(_, e)| e.is_none())
        .map(|(ply, _)| (ply, game.positions()[ply]))
        .collect();
    let variant = game.variant();
    let seed = settings.ai_seed ^ 0x4556_414c;
    let work = Background::request(
        |job| Request::Analyse {
            job,
            variant,
            seed,
            iterations: ANALYSIS_ITERATIONS,
            positions,
        },
        |reply| match reply {
            Reply::Analysed { estimates, .. } => Some(estimates),
            _ => None,
        },
    );
    eval.analysis = Some(Analysis {
        work,
        moves: game.history().to_vec(),
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use montello_engine::Variant;
    use montello_engine::search::{self, CancelHandle};

    /// The post-game analysis of the given positions (ply, position), in order, as the engine
    /// runs the app's request: each with its own seed, so the same positions and seed give the
    /// same estimates; stops early when cancelled.
    fn analyse(
        positions: &[(usize, Position)],
        variant: Variant,
        seed: u64,
        cancel: &CancelHandle,
    ) -> Vec<(usize, f32)> {
        search::analyse(positions, variant, seed, ANALYSIS_ITERATIONS, cancel)
    }
    use montello_engine::notation::{board_string, transcript};

    #[test]
    fn the_analysis_is_seeded_and_exact_at_the_end() {
        let game = transcript::parse("f5d6c3d3c4f4f6f3e6e7", Variant::Othello).expect("game");
        let positions: Vec<(usize, Position)> =
            game.positions().iter().copied().enumerate().collect();
        let cancel = CancelHandle::new();
        let a = analyse(&positions, Variant::Othello, 7, &cancel);
        let b = analyse(&positions, Variant::Othello, 7, &cancel);
        assert_eq!(a, b, "same seed, same estimates");
        assert_eq!(a.len(), positions.len());
        assert!(a.iter().all(|&(_, p)| (0.0..=1.0).contains(&p)));
        // Black a1, white b1, c1 free, black to move: black's c1 ends the game won, so black
        // is sure to win; after it, the exact result.
        let won = board_string::parse(
            "XO-------------------------------------------------------------- X",
        )
        .expect("board");
        let after = Variant::Othello
            .try_play(&won, "c1".parse().expect("move"))
            .expect("legal");
        let exact = analyse(&[(0, won), (1, after)], Variant::Othello, 1, &cancel);
        assert_eq!(exact, vec![(0, 1.0), (1, 1.0)]);
        let cancelled = CancelHandle::new();
        cancelled.cancel();
        assert!(analyse(&positions, Variant::Othello, 7, &cancelled).is_empty());
    }
}
