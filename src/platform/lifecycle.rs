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

/// The destroy watcher's reading of one `isDestroyed()` answer (Android, `platform::android_destroy`).
///
/// A JNI call that fails (an exception, a detached VM, an activity already released) says
/// nothing about the activity, and a watcher that kept ignoring failures would never end the
/// process: NativeActivity's `onDestroy` would then wait for our thread until Android reports
/// the app as not responding. So a run of failures counts as destroyed: the app is suspended
/// while the watcher runs, with the game saved and fsynced on suspend, so ending a process that
/// was in fact alive costs only a cold start that restores the game.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DestroyPoll {
    failures: u32,
}

/// What [`DestroyPoll::answer`] makes of an answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DestroyVerdict {
    /// The activity lives: keep watching.
    Alive,
    /// It is being destroyed (or could not be asked [`DestroyPoll::FAILURES`] times in a
    /// row): feed [`Signal::ActivityDestroyed`] to the machine.
    Destroyed,
    /// The question failed; to log, and keep watching.
    Failed { failures: u32, why: String },
}

impl DestroyPoll {
    /// Failures in a row taken as a destroyed activity: 2 seconds at the watcher's 500 ms,
    /// well inside the 5 seconds after which Android reports an unresponsive app.
    pub const FAILURES: u32 = 4;

    /// Reads one answer of `isDestroyed()`.
    pub fn answer(&mut self, answer: Result<bool, String>) -> DestroyVerdict {
        match answer {
            Ok(true) => DestroyVerdict::Destroyed,
            Ok(false) => {
                self.failures = 0;
                DestroyVerdict::Alive
            }
            Err(why) => {
                self.failures += 1;
                if self.failures >= Self::FAILURES {
                    DestroyVerdict::Destroyed
                } else {
                    DestroyVerdict::Failed {
                        failures: self.failures,
                        why,
                    }
                }
            }
        }
    }

    /// Watching starts again (the app came back and was suspended anew): failures from before
    /// do not count.
    pub fn restart(&mut self) {
        self.failures = 0;
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

    #[test]
    fn the_destroy_watcher_acts_on_a_yes_at_once() {
        let mut poll = DestroyPoll::default();
        assert_eq!(poll.answer(Ok(false)), DestroyVerdict::Alive);
        assert_eq!(poll.answer(Ok(true)), DestroyVerdict::Destroyed);
    }

    #[test]
    fn failures_in_a_row_count_as_destroyed_so_on_destroy_never_waits_forever() {
        let mut poll = DestroyPoll::default();
        let fail = || Err::<bool, _>("java.lang.IllegalStateException".to_string());
        for n in 1..DestroyPoll::FAILURES {
            assert_eq!(
                poll.answer(fail()),
                DestroyVerdict::Failed {
                    failures: n,
                    why: "java.lang.IllegalStateException".into()
                }
            );
        }
        assert_eq!(poll.answer(fail()), DestroyVerdict::Destroyed);
        // And the machine, suspended as it is while the watcher runs, ends the process.
        let mut machine = Lifecycle::default();
        machine.on(Signal::App(WillSuspend));
        assert!(machine.on(Signal::ActivityDestroyed).exit_process);
    }

    #[test]
    fn an_answer_between_failures_starts_the_count_again() {
        let mut poll = DestroyPoll::default();
        let fail = || Err::<bool, _>("no Java VM".to_string());
        for _ in 1..DestroyPoll::FAILURES {
            poll.answer(fail());
        }
        assert_eq!(poll.answer(Ok(false)), DestroyVerdict::Alive);
        assert!(matches!(
            poll.answer(fail()),
            DestroyVerdict::Failed { failures: 1, .. }
        ));
        for _ in 2..DestroyPoll::FAILURES {
            poll.answer(fail());
        }
        poll.restart();
        assert!(matches!(
            poll.answer(fail()),
            DestroyVerdict::Failed { failures: 1, .. }
        ));
    }
}
