//! A computation on a background thread that the game can stop and look at: the AI's move,
//! the hint and the post-game analysis all run as one of these, on Bevy's
//! `AsyncComputeTaskPool`, so none of them ever blocks a frame.

use bevy::tasks::{AsyncComputeTaskPool, Task, futures::check_ready};
use montello_engine::search::CancelHandle;

/// A running computation: its task and the handle it watches to stop early (and counts its
/// iterations on).
pub(crate) struct Background<T> {
    task: Task<T>,
    cancel: CancelHandle,
}

impl<T: Send + 'static> Background<T> {
    /// Starts `work` on the compute pool with a fresh cancel handle it should watch.
    pub(crate) fn start(work: impl FnOnce(&CancelHandle) -> T + Send + 'static) -> Self {
        let cancel = CancelHandle::new();
        let handle = cancel.clone();
        let task = AsyncComputeTaskPool::get().spawn(async move { work(&handle) });
        Background { task, cancel }
    }

    /// The result, once the work is done (never waits).
    pub(crate) fn poll(&mut self) -> Option<T> {
        check_ready(&mut self.task)
    }

    /// The handle the work watches: its iterations so far.
    pub(crate) fn handle(&self) -> &CancelHandle {
        &self.cancel
    }

    /// Stops the work: it sees the flag within milliseconds and its thread is free again;
    /// whatever it would have returned is dropped.
    pub(crate) fn stop(self) {
        self.cancel.cancel();
        drop(self.task);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bevy::tasks::TaskPool;

    #[test]
    fn work_is_polled_when_done_and_a_stopped_one_sees_the_flag() {
        AsyncComputeTaskPool::get_or_init(TaskPool::new);
        let mut done = Background::start(|_| 6 * 7);
        let answer = loop {
            if let Some(v) = done.poll() {
                break v;
            }
            std::thread::yield_now();
        };
        assert_eq!(answer, 42);
        // A long computation that stops when asked: after stop() it returns at once.
        let (started_tx, started) = std::sync::mpsc::channel();
        let (tx, rx) = std::sync::mpsc::channel();
        let endless = Background::start(move |cancel: &CancelHandle| {
            started_tx.send(()).expect("the test waits");
            while !cancel.is_cancelled() {
                std::thread::yield_now();
            }
            tx.send(()).expect("the test waits");
        });
        started
            .recv_timeout(std::time::Duration::from_secs(10))
            .expect("the work started");
        endless.stop();
        rx.recv_timeout(std::time::Duration::from_secs(10))
            .expect("the stopped work ended");
    }
}
