//! The values on the squares (#67): every legal move of a position in discs for the side to
//! move, from one valuation of all of them (`search::review::move_values`: solved within the
//! review's reach of the end, its fixed-depth search before that), so a square's figure is the
//! figure the review gives that move; with them the best line from the position, which the
//! review's move list offers to step through. The board writes them on the squares in hint mode and
//! while a past position is shown in the review, and a try at the better move
//! (`game::practice`, which asks through [`ValuesAsked`]) is judged by them.
//!
//! Like the win bar's figure it is one [`Background`] job: natively a task on the compute pool
//! (milliseconds in the middle game, docs/ai.md has the figures), in a browser the request
//! `values` to the engine's worker, sent while no search runs there (the AI's move and the
//! hint come first). The values kept are those of the last position asked for; another
//! position asked for stops the valuation under way.

use super::background::{Background, ONE_ENGINE};
use crate::AppSystems;
use crate::game::ai::{AiState, LastHint};
use crate::game::flow::CurrentGame;
use crate::platform::lifecycle::{WorkPaused, working};
use crate::platform::memory::EngineMemory;
use bevy::prelude::*;
use montello_engine::Move;
use montello_engine::search::review::{MoveValue, Valuation, ValuesConfig};
use montello_engine::wire::{Reply, Request};
use montello_engine::{Position, Variant};

pub(crate) fn plugin(app: &mut App) {
    app.init_resource::<SquareValues>()
        .init_resource::<ValuesSettings>()
        .init_resource::<EngineMemory>()
        .init_resource::<ValuesAsked>()
        .add_systems(
            Update,
            (poll_values, start_values)
                .chain()
                .run_if(working)
                .in_set(AppSystems::Ai),
        );
}

/// How the values are found: the engine's default, the review's reach and depth (tests may
/// set a shallower one).
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ValuesSettings(pub ValuesConfig);

impl ValuesSettings {
    /// The values as this device finds them: their table held to the device's budget.
    pub fn on(&self, memory: &EngineMemory) -> ValuesConfig {
        ValuesConfig {
            table_bytes: memory.cap_table(self.0.table_bytes),
            ..self.0
        }
    }
}

/// A position whose moves are valued, under its rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Valued {
    /// The rules.
    pub variant: Variant,
    /// The position.
    pub position: Position,
}

/// The values of the last position asked for, and the valuation under way.
#[derive(Resource, Default)]
pub struct SquareValues {
    made: Option<(Valued, Valuation)>,
    running: Option<(Valued, Background<Option<Valuation>>)>,
}

impl std::fmt::Debug for SquareValues {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SquareValues")
            .field("made", &self.made.as_ref().map(|(_, v)| v.moves.len()))
            .field("running", &self.running.is_some())
            .finish()
    }
}

impl SquareValues {
    /// The values of `of`'s moves, best first, once found.
    pub fn of(&self, of: &Valued) -> Option<&[MoveValue]> {
        self.made
            .as_ref()
            .filter(|(made, _)| made == of)
            .map(|(_, values)| values.moves.as_slice())
    }

    /// The best line from `of`, once found (the best move first).
    pub fn line_of(&self, of: &Valued) -> Option<&[Move]> {
        self.made
            .as_ref()
            .filter(|(made, _)| made == of)
            .map(|(_, values)| values.line.as_slice())
    }

    /// Whether a valuation is under way (the app keeps drawing frames for it).
    pub fn is_running(&self) -> bool {
        self.running.is_some()
    }
}

/// A position asked for ahead of the others: the one before a mistake the player is trying
/// again (`game::practice` keeps it).
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ValuesAsked(pub Option<Valued>);

impl ValuesAsked {
    /// Asks for `now` on behalf of one asker (the practice, the puzzle) that last asked for
    /// `mine`: a new ask replaces whatever is asked; withdrawing (`None`) clears only the
    /// asker's own ask, never another's.
    pub fn ask_for(&mut self, mine: &mut Option<Valued>, now: Option<Valued>) {
        if now == *mine {
            return;
        }
        if now.is_some() || self.0 == *mine {
            self.0 = now;
        }
        *mine = now;
    }
}

/// The position whose moves the board values now, if any: the one `asked` for; stepping
/// through the review, the position before the move shown (what each choice there was worth:
/// the played move's figure on its disc, the better one's on its ringed square); the position
/// on the board while its hint shows. None after a pass, or where nobody has a square to play.
pub fn wanted(current: &CurrentGame, asked: &ValuesAsked, hint: &LastHint) -> Option<Valued> {
    let game = current.game();
    let hinted = hint
        .0
        .as_ref()
        .is_some_and(|h| h.generation == current.generation());
    let position = if let Some(asked) = asked.0 {
        asked.position
    } else if let Some(shown) = current.review() {
        let before = shown.checked_sub(1)?;
        if game.history().get(before) == Some(&montello_engine::Move::Pass) {
            return None;
        }
        *game.positions().get(before)?
    } else if hinted {
        current.shown_position()
    } else {
        return None;
    };
    let variant = game.variant();
    (!variant.is_game_over(&position) && !variant.legal_moves(&position).is_empty())
        .then_some(Valued { variant, position })
}

fn poll_values(mut values: ResMut<SquareValues>) {
    // Polled without marking the resource changed: the board redraws when values come.
    let Some((_, work)) = values.bypass_change_detection().running.as_mut() else {
        return;
    };
    let Some(found) = work.poll() else {
        return;
    };
    let Some((of, _)) = values.running.take() else {
        return;
    };
    if let Some(found) = found {
        values.made = Some((of, found));
    }
}

fn start_values(
    mut values: ResMut<SquareValues>,
    current: Res<CurrentGame>,
    asked: Res<ValuesAsked>,
    hint: Res<LastHint>,
    ai: Res<AiState>,
    paused: Res<WorkPaused>,
    settings: Res<ValuesSettings>,
    memory: Res<EngineMemory>,
) {
    let Some(asked) = wanted(&current, &asked, &hint) else {
        return;
    };
    if paused.0
        || values.of(&asked).is_some()
        || values.running.as_ref().is_some_and(|(of, _)| *of == asked)
    {
        return;
    }
    if values.running.is_some() {
        // The valuation of another position is dropped for this one where that stops it
        // alone; one engine for every job (a browser's worker) is not restarted for it (that
        // would stop its module): this one is asked for when it has answered.
        if ONE_ENGINE {
            return;
        }
        if let Some((_, work)) = values.running.take() {
            work.stop();
        }
    }
    // One engine runs one request at a time: the AI's move and the hint first.
    if ONE_ENGINE && ai.is_busy() {
        return;
    }
    let config = settings.on(&memory);
    let work = Background::optional(
        move |job| Request::Values {
            job,
            variant: asked.variant,
            config,
            position: asked.position,
        },
        |reply| match reply {
            Reply::Valued { valuation, .. } => Some(Some(valuation)),
            // The engine could not: no values on the squares for that position.
            Reply::Failed { .. } => Some(None),
            _ => None,
        },
    );
    values.running = Some((asked, work));
}
