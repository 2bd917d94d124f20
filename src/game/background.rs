//! A computation off the frame that the game can stop and look at: the AI's move, the hint and
//! the post-game analysis all run as one of these, so none of them ever blocks a frame.
//!
//! Natively it is a task on Bevy's `AsyncComputeTaskPool` running a closure. In a browser the
//! task pools run on the page's one thread, so the work is a `wire::Request` sent to the
//! engine's Web Worker (`platform::web`) and its result a `wire::Reply` read back.

#[cfg(not(all(target_family = "wasm", target_os = "unknown")))]
pub(crate) use native::Background;
#[cfg(all(target_family = "wasm", target_os = "unknown"))]
pub(crate) use web::Background;

#[cfg(not(all(target_family = "wasm", target_os = "unknown")))]
mod native {
    use bevy::tasks::{AsyncComputeTaskPool, Task, futures::check_ready};
    use montello_engine::search::CancelHandle;

    /// A running computation: its task and the handle it watches to stop early (and counts
    /// its iterations on).
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

        /// Iterations the work has counted so far.
        pub(crate) fn iterations(&self) -> u64 {
            self.cancel.iterations()
        }

        /// Stops the work: it sees the flag within milliseconds and its thread is free again;
        /// whatever it would have returned is dropped.
        pub(crate) fn stop(self) {
            self.cancel.cancel();
            drop(self.task);
        }
    }
}

#[cfg(all(target_family = "wasm", target_os = "unknown"))]
mod web {
    use crate::platform::web as worker;
    use montello_engine::search::wire::{Reply, Request};
    use montello_engine::search::{CancelHandle, Searcher};
    use std::cell::RefCell;

    thread_local! {
        /// The searchers kept on the page when the worker failed.
        static ON_PAGE: RefCell<Vec<Option<Searcher>>> = const { RefCell::new(Vec::new()) };
    }

    /// A request to the engine's worker and what to make of its reply.
    pub(crate) struct Background<T> {
        request: Request,
        worker: Option<u32>,
        decode: Box<dyn FnMut(Reply) -> Option<T> + Send + Sync>,
        iterations: u64,
    }

    impl<T> Background<T> {
        /// Sends the request `make` builds for a new job number; `decode` turns the final
        /// reply into the result.
        pub(crate) fn remote(
            make: impl FnOnce(u32) -> Request,
            decode: impl FnMut(Reply) -> Option<T> + Send + Sync + 'static,
        ) -> Self {
            let request = make(worker::next_job());
            let worker = worker::post(&request.to_string());
            Background {
                request,
                worker,
                decode: Box::new(decode),
                iterations: 0,
            }
        }

        /// The result, once the worker sent it (never waits). If the worker failed, the
        /// request runs here, on the page.
        pub(crate) fn poll(&mut self) -> Option<T> {
            if worker::failed() {
                let request = self.request.clone();
                let reply =
                    ON_PAGE.with_borrow_mut(|slots| request.run(slots, &CancelHandle::new()));
                return (self.decode)(reply);
            }
            if self.worker != worker::current_worker() {
                // Another job's cancel restarted the worker: this one's request went with it.
                self.worker = worker::post(&self.request.to_string());
            }
            for line in worker::take_replies(self.request.job()) {
                match Reply::parse(&line) {
                    Ok(Reply::Progress { iterations, .. }) => self.iterations = iterations,
                    Ok(reply) => {
                        if let Some(result) = (self.decode)(reply) {
                            return Some(result);
                        }
                    }
                    Err(e) => bevy::log::error!("the worker's reply {line:?} is wrong: {e}"),
                }
            }
            None
        }

        /// Iterations the worker has reported so far.
        pub(crate) fn iterations(&self) -> u64 {
            self.iterations
        }

        /// Stops the work at once: the worker is terminated, and the next request starts a
        /// new one.
        pub(crate) fn stop(self) {
            worker::restart();
        }
    }
}

#[cfg(all(test, not(all(target_family = "wasm", target_os = "unknown"))))]
mod tests {
    use super::*;
    use bevy::tasks::{AsyncComputeTaskPool, TaskPool};
    use montello_engine::search::CancelHandle;

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
