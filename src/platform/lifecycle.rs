//! Suspend, resume and destroy as one small state machine, so what happens on each is decided
//! in one place and tested without a phone ([`Lifecycle::on`]).
//!
//! - Suspend (`WillSuspend`, or `Suspended` alone): save the game (the OS may kill a suspended
//!   app without warning), stop the AI, and on iOS switch winit to an update mode without a
//!   timer: reactive mode's `WaitUntil` can freeze an app after a long time in the background
//!   (winit issue 4679).
//! - Resume: the AI and the reactive update mode come back.
//! - Destroy (Android): an activity destroyed without its process (swiped away and reopened,
//!   multi-window, "Don't keep activities") cannot get a new winit event loop in the same
//!   process (winit issues 3325, 4303), and winit 0.30 does not even tell the app: NativeActivity's
//!   `onDestroy` waits for our thread, which never returns. While suspended, a watcher thread
//!   asks the activity `isDestroyed()`; once it is, the game was saved on suspend (no frame runs
//!   while suspended), so the process exits and the next launch restores the game.

use bevy::prelude::*;
use bevy::window::AppLifecycle;
use std::sync::{Arc, Mutex, PoisonError};

/// Where the app is in its life.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Phase {
    #[default]
    Running,
    Suspended,
}

/// What happened to the app.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Signal {
    /// Bevy's lifecycle message (from winit).
    App(AppLifecycle),
    /// Android is destroying the activity (seen by the watcher thread).
    ActivityDestroyed,
}

/// What to do about a [`Signal`]; all false / `None` means nothing.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Message)]
pub struct Steps {
    /// Write the game, settings included, now.
    pub save: bool,
    /// Stop background work (the AI's search, the evaluation graph's analysis).
    pub pause_work: bool,
    /// Let background work start again.
    pub resume_work: bool,
    /// `Some(true)`: use the background update mode (no wake-up timer); `Some(false)`: back
    /// to the normal one. Applied on iOS.
    pub background_updates: Option<bool>,
    /// `Some(true)`: start watching for the activity's destruction; `Some(false)`: stop.
    /// Applied on Android.
    pub watch_destroy: Option<bool>,
    /// End the process now (everything was saved when the app was suspended).
    pub exit_process: bool,
}

/// The state machine.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Lifecycle {
    phase: Phase,
}

impl Lifecycle {
    /// The current phase.
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// Moves on by one signal and says what to do.
    pub fn on(&mut self, signal: Signal) -> Steps {
        use AppLifecycle::*;
        match (self.phase, signal) {
            (Phase::Running, Signal::App(WillSuspend | Suspended)) => {
                self.phase = Phase::Suspended;
                Steps {
                    save: true,
                    pause_work: true,
                    background_updates: Some(true),
                    watch_destroy: Some(true),
                    ..Steps::default()
                }
            }
            (Phase::Suspended, Signal::App(WillResume | Running)) => {
                self.phase = Phase::Running;
                Steps {
                    resume_work: true,
                    background_updates: Some(false),
                    watch_destroy: Some(false),
                    ..Steps::default()
                }
            }
            // Android suspends (stops the activity, drops the window) before it destroys it;
            // a destroy seen while running is not one to act on.
            (Phase::Suspended, Signal::ActivityDestroyed) => Steps {
                exit_process: true,
                ..Steps::default()
            },
            (Phase::Running, Signal::ActivityDestroyed)
            | (Phase::Running, Signal::App(WillResume | Running | Idle))
            | (Phase::Suspended, Signal::App(WillSuspend | Suspended | Idle)) => Steps::default(),
        }
    }
}

/// The one state machine, shared with Android's watcher thread.
#[derive(Resource, Clone, Debug, Default)]
pub struct SharedLifecycle(pub Arc<Mutex<Lifecycle>>);

impl SharedLifecycle {
    /// Where the app is now.
    pub fn phase(&self) -> Phase {
        self.0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .phase()
    }

    /// Feeds one signal to the machine.
    pub fn on(&self, signal: Signal) -> Steps {
        self.0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .on(signal)
    }
}

/// The headless part: turns Bevy's lifecycle messages into [`Steps`] messages that the save
/// plugin (save, pause) and the platform glue (update mode, destroy watch) act on.
pub(crate) fn logic_plugin(app: &mut App) {
    app.add_message::<AppLifecycle>()
        .add_message::<Steps>()
        .init_resource::<SharedLifecycle>()
        .init_resource::<WorkPaused>()
        .add_systems(PostUpdate, drive.in_set(LifecycleSystems));
}

/// Whether background work (the AI's search, the evaluation graph's analysis) must stop: the
/// app is in the background, where it gets no CPU. Owned here, kept by the state machine's
/// steps; the game layer's systems run only while it is off ([`working`]).
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct WorkPaused(pub bool);

/// A run condition: background work may run (the app is not suspended).
pub fn working(paused: Option<Res<WorkPaused>>) -> bool {
    paused.is_none_or(|p| !p.0)
}

/// Where [`Steps`] are written; their readers run after it.
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct LifecycleSystems;

fn drive(
    machine: Res<SharedLifecycle>,
    mut lifecycle: MessageReader<AppLifecycle>,
    mut steps: MessageWriter<Steps>,
    mut paused: ResMut<WorkPaused>,
) {
    for event in lifecycle.read() {
        let step = machine.on(Signal::App(*event));
        if step.pause_work {
            paused.set_if_neq(WorkPaused(true));
        }
        if step.resume_work {
            paused.set_if_neq(WorkPaused(false));
        }
        if step != Steps::default() {
            steps.write(step);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use AppLifecycle::*;

    #[test]
    fn suspend_saves_once_and_resume_undoes_it() {
        let mut machine = Lifecycle::default();
        let suspend = machine.on(Signal::App(WillSuspend));
        assert!(suspend.save && suspend.pause_work && !suspend.exit_process);
        assert_eq!(suspend.background_updates, Some(true));
        assert_eq!(suspend.watch_destroy, Some(true));
        assert_eq!(machine.phase(), Phase::Suspended);
        // winit follows WillSuspend with Suspended: nothing more to do.
        assert_eq!(machine.on(Signal::App(Suspended)), Steps::default());
        let resume = machine.on(Signal::App(WillResume));
        assert!(resume.resume_work && !resume.save);
        assert_eq!(resume.background_updates, Some(false));
        assert_eq!(resume.watch_destroy, Some(false));
        assert_eq!(machine.on(Signal::App(Running)), Steps::default());
        assert_eq!(machine.phase(), Phase::Running);
        // A Suspended without WillSuspend still saves.
        assert!(machine.on(Signal::App(Suspended)).save);
    }

    #[test]
    fn destroy_exits_only_once_suspended() {
        let mut machine = Lifecycle::default();
        assert_eq!(machine.on(Signal::ActivityDestroyed), Steps::default());
        assert_eq!(machine.on(Signal::App(Idle)), Steps::default());
        machine.on(Signal::App(WillSuspend));
        let destroy = machine.on(Signal::ActivityDestroyed);
        assert!(
            destroy.exit_process && !destroy.save,
            "saved on suspend already"
        );
        // Back from the background: destroy no longer applies.
        machine.on(Signal::App(WillResume));
        assert!(!machine.on(Signal::ActivityDestroyed).exit_process);
    }
}
