//! The win bar's figure: the engine's estimate of how the position on the board ends, in
//! discs (`search::review::estimate`: the final margin once the game is over, exact within 16
//! empty squares of the end, a 10-ply alpha-beta search with the learned evaluation before
//! that). It is made after every ply, and for the position stepped back to in a review, so
//! the bar follows what the board shows between two people too, where no search runs.
//!
//! Like the AI's move it is one [`Background`] job: natively a task on the compute pool (a few
//! milliseconds, docs/ai.md), in a browser a request to the engine's Web Worker, sent only
//! while no search runs there (the AI's move comes first) and optional: a worker that cannot
//! answer leaves the bar without a figure, and never stops the game or tells the player the
//! engine is lost. A finished game's figure is its final margin, worked out at once.

use super::background::{Background, ONE_ENGINE};
use crate::AppSystems;
use crate::game::ai::AiState;
use crate::game::flow::CurrentGame;
use crate::platform::lifecycle::{WorkPaused, working};
use crate::prefs::settings::{Settings, TableMode};
use bevy::platform::time::Instant;
use bevy::prelude::*;
use montello_engine::search::review::{Estimate, EstimateConfig, final_estimate};
use montello_engine::wire::{Reply, Request};
use montello_engine::{Position, Variant};
use std::time::Duration;

pub(crate) fn plugin(app: &mut App) {
    app.init_resource::<MarginEstimate>()
        .init_resource::<EstimateSettings>()
        .add_systems(
            Update,
            (poll_estimate, start_estimate)
                .chain()
                .run_if(working)
                .in_set(AppSystems::Ai),
        );
}

/// How the estimate is made: the engine's default (tests may set a shallower one).
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct EstimateSettings(pub EstimateConfig);

/// How long after an estimate starts the app keeps drawing frames so its figure shows when it
/// comes (winit's reactive mode does not wake when a task ends); an estimate takes
/// milliseconds, and one still out after this (a browser's worker busy loading its module)
/// shows with the next frame anything else asks for.
const FRAMES_FOR: Duration = Duration::from_secs(1);

/// What an estimate is of: the game's rules and start, the ply shown and its position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Shown {
    variant: Variant,
    start: Position,
    ply: usize,
    position: Position,
}

impl Shown {
    fn of(current: &CurrentGame) -> Shown {
        let game = current.game();
        Shown {
            variant: game.variant(),
            start: game.start_position(),
            ply: current.shown_ply(),
            position: current.shown_position(),
        }
    }

    /// Whether a figure made for `self` may stand while the figure of `next` is worked out:
    /// the same game, a move or two away (a move played, the AI's reply, a step in a review),
    /// so the bar does not jump back to no figure at every move; a new game, or a jump through
    /// the game, shows no figure until its own.
    fn may_stand_for(&self, next: &Shown) -> bool {
        self.variant == next.variant && self.start == next.start && self.ply.abs_diff(next.ply) <= 2
    }
}

/// The win bar's figure and the estimate being made.
#[derive(Resource, Default)]
pub struct MarginEstimate {
    /// The last figure made (`None`: no figure for that position, a free opening's discs being
    /// placed) and what it is of.
    made: Option<(Shown, Option<Estimate>)>,
    running: Option<Running>,
    /// A figure that stood for the position shown before, shown until this one's is made.
    standing: Option<Estimate>,
}

struct Running {
    work: Background<Option<Estimate>>,
    of: Shown,
    started: Instant,
}

impl std::fmt::Debug for MarginEstimate {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MarginEstimate")
            .field("made", &self.made.map(|(of, e)| (of.ply, e)))
            .field("running", &self.running.as_ref().map(|r| r.of.ply))
            .field("standing", &self.standing)
            .finish()
    }
}

impl MarginEstimate {
    /// The figure the bar shows for `current`: the estimate of the position shown when it is
    /// made, else the one before it while that may stand ([`Shown::may_stand_for`]).
    pub fn figure(&self, current: &CurrentGame) -> Option<Estimate> {
        let shown = Shown::of(current);
        match self.made {
            Some((of, estimate)) if of == shown => estimate,
            _ => self.standing,
        }
    }

    /// Whether the figure for `current` is made (the screenshot tool waits for it).
    pub fn is_made_for(&self, current: &CurrentGame) -> bool {
        self.made.is_some_and(|(of, _)| of == Shown::of(current))
    }

    /// Whether the app should keep drawing frames for a figure on its way: while an estimate
    /// runs, for a second at most ([`FRAMES_FOR`]).
    pub fn wants_frames(&self) -> bool {
        self.running
            .as_ref()
            .is_some_and(|r| r.started.elapsed() < FRAMES_FOR)
    }

    /// Whether an estimate is being made.
    pub fn is_running(&self) -> bool {
        self.running.is_some()
    }

    fn keep(&mut self, of: Shown, estimate: Option<Estimate>) {
        self.made = Some((of, estimate));
        self.standing = estimate;
    }
}

/// Whether the bar is on screen: the setting is on and not face to face (two people at a
/// table see no bar).
fn bar_shown(settings: &Settings, table: &TableMode) -> bool {
    settings.win_bar && !table.0
}

fn poll_estimate(mut margin: ResMut<MarginEstimate>, current: Res<CurrentGame>) {
    // Polled without marking the resource changed: the bar redraws when a figure comes, not on
    // every frame an estimate runs.
    let Some(running) = margin.bypass_change_detection().running.as_mut() else {
        return;
    };
    let Some(found) = running.work.poll() else {
        return;
    };
    let of = running.of;
    margin.running = None;
    // A figure made meanwhile for the position shown (a finished game's) is not replaced by
    // one for an earlier position.
    if !margin.is_made_for(&current) {
        margin.keep(of, found);
    }
}

fn start_estimate(
    mut margin: ResMut<MarginEstimate>,
    current: Res<CurrentGame>,
    ai: Res<AiState>,
    paused: Res<WorkPaused>,
    settings: Res<Settings>,
    table: Res<TableMode>,
    config: Res<EstimateSettings>,
) {
    if paused.0 || !bar_shown(&settings, &table) {
        return;
    }
    let shown = Shown::of(&current);
    if margin.made.is_some_and(|(of, _)| of == shown) {
        return;
    }
    if margin.running.as_ref().is_some_and(|r| r.of == shown) {
        return;
    }
    // The figure that stood stays only while it may stand for this position.
    let standing = margin
        .made
        .is_some_and(|(of, _)| of.may_stand_for(&shown))
        .then_some(margin.standing)
        .flatten();
    if margin.standing != standing {
        margin.standing = standing;
    }
    if shown.variant.is_game_over(&shown.position) {
        // A finished game's figure is its final margin: no search, nothing to wait for. (An
        // estimate still out is stopped where that stops it alone; one engine for every job
        // is left to finish it, as below.)
        if !ONE_ENGINE && let Some(running) = margin.running.take() {
            running.work.stop();
        }
        // (Not the whole estimate's code: a browser's page carries no evaluation weights.)
        let exact = final_estimate(&shown.position, shown.variant);
        margin.keep(shown, exact);
        return;
    }
    if margin.running.is_some() {
        // The old estimate is dropped for the new one where that stops it alone; one engine
        // for every job (a browser's worker) is not restarted for it (that would stop its
        // module): the figure it sends is kept if it is still wanted, and the next one is
        // asked for then.
        if ONE_ENGINE {
            return;
        }
        if let Some(running) = margin.running.take() {
            running.work.stop();
        }
    }
    // One engine runs one request at a time: the AI's move goes first.
    if ONE_ENGINE && ai.is_busy() {
        return;
    }
    let config = config.0;
    let work = Background::optional(
        move |job| Request::Estimate {
            job,
            variant: shown.variant,
            config,
            position: shown.position,
        },
        |reply| match reply {
            Reply::Estimated { estimate, .. } => Some(estimate),
            // The engine could not: no figure for this position.
            Reply::Failed { .. } => Some(None),
            _ => None,
        },
    );
    margin.running = Some(Running {
        work,
        of: shown,
        started: Instant::now(),
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use montello_engine::Game;
    use montello_engine::notation::transcript;

    fn current(moves: &str) -> CurrentGame {
        CurrentGame::new(transcript::parse(moves, Variant::Othello).expect("legal"))
    }

    /// A figure made for a position stands for the next one or two (a move, the reply, a
    /// step back) of the same game, and not for another game or a jump through this one.
    #[test]
    fn a_figure_stands_for_the_next_move_of_the_same_game_only() {
        let made = Shown::of(&current("f5d6c3"));
        assert!(made.may_stand_for(&Shown::of(&current("f5d6c3d3"))));
        assert!(made.may_stand_for(&Shown::of(&current("f5d6c3d3c4"))));
        assert!(made.may_stand_for(&Shown::of(&current("f5d6"))));
        assert!(!made.may_stand_for(&Shown::of(&current("f5d6c3d3c4f4"))));
        assert!(!made.may_stand_for(&Shown::of(&current(""))), "a new game");
        let free = CurrentGame::new(Game::new(Variant::FreeOpening));
        assert!(!Shown::of(&current("")).may_stand_for(&Shown::of(&free)));
    }

    /// While an estimate runs the app keeps drawing, so the figure shows when it comes; one
    /// still out after a second (a browser's worker still loading its module) does not keep
    /// a reactive app drawing every frame.
    #[test]
    fn frames_come_for_a_figure_for_a_second_at_most() {
        crate::game::background::tests::compute_pool();
        let mut margin = MarginEstimate::default();
        assert!(!margin.wants_frames());
        margin.running = Some(Running {
            work: Background::optional(
                |job| Request::Estimate {
                    job,
                    variant: Variant::Othello,
                    config: EstimateConfig::default(),
                    position: Position::start(),
                },
                |_| Some(None),
            ),
            of: Shown::of(&current("f5")),
            started: Instant::now(),
        });
        assert!(margin.wants_frames());
        let long_ago = Instant::now()
            .checked_sub(FRAMES_FOR + Duration::from_millis(10))
            .expect("the clock reaches back a second");
        if let Some(running) = margin.running.as_mut() {
            running.started = long_ago;
        }
        assert!(margin.is_running() && !margin.wants_frames());
    }
}
