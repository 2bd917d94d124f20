//! A computation off the frame that the game can stop and look at: the AI's move, the hint and
//! the post-game analysis all run as one of these, so none of them ever blocks a frame.
//!
//! Natively it is a task on Bevy's `AsyncComputeTaskPool` running a closure. In a browser the
//! task pools run on the page's one thread, so the work is a `wire::Request` sent to the
//! engine's Web Worker (`platform::web`) and its result a `wire::Reply` read back, under a
//! watchdog: a worker that fails or stays silent past the request's time (twice a search's cap, the
//! other jobs' generous limits: `wire::Request::watch_after`, counted while the page is in view)
//! is replaced, then given up for the engine loaded on the page (the worker's own module), so
//! the AI always moves, or, if the engine cannot load at all, the player is told; work the game
//! can do without (the win bar's figure, the values) is given up instead.

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
    use bevy::platform::time::Instant;
    use montello_engine::wire::{Reply, Request};
    use std::time::Duration;

    /// How long past a request's time cap the watchdog waits for its reply, counted from when
    /// the request went to a ready worker (or the worker said it was ready), before it starts
    /// a new worker and asks again; a second silence gives up on the worker.
    const GRACE: Duration = Duration::from_secs(2);

    /// How long a new worker may take to say it is ready (to fetch and compile the engine's
    /// module: a slow phone network's download included) before the watchdog treats it as
    /// silent.
    const START: Duration = Duration::from_secs(30);

    /// A request to the engine's worker and what to make of its reply.
    pub(crate) struct Background<T> {
        request: Request,
        worker: Option<u32>,
        decode: Box<dyn FnMut(Reply) -> Option<T> + Send + Sync>,
        iterations: u64,
        /// When the request last went to a worker, and the page's hidden time then.
        posted: Instant,
        hidden_then: Duration,
        /// Whether the watchdog already started a new worker for it.
        asked_again: bool,
        /// Whether the request went to the engine on the page (the worker failed).
        on_page: bool,
        /// Whether the work may simply not be done (the win bar's figure): a worker that fails
        /// it is not replaced by the engine on the page, and `decode` is handed the failure.
        optional: bool,
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
                posted: Instant::now(),
                hidden_then: worker::hidden().total(Instant::now()),
                asked_again: false,
                on_page: false,
                optional: false,
            }
        }

        /// Like [`Background::remote`], for work the game can do without: if the worker fails
        /// (or has failed), `decode` gets a [`Reply::Failed`] and no other engine is tried, and
        /// the player is told nothing.
        pub(crate) fn optional(
            make: impl FnOnce(u32) -> Request,
            decode: impl FnMut(Reply) -> Option<T> + Send + Sync + 'static,
        ) -> Self {
            Background {
                optional: true,
                ..Background::remote(make, decode)
            }
        }

        /// The result, once the worker (or, if the worker failed, the engine on the page) sent
        /// it. Never waits.
        pub(crate) fn poll(&mut self) -> Option<T> {
            if self.optional && worker::failed() {
                return (self.decode)(Reply::Failed {
                    job: self.request.job(),
                    why: "the engine's worker failed".into(),
                });
            }
            if worker::failed() {
                if !self.on_page {
                    self.on_page = true;
                    worker::run_on_page(&self.request.to_string());
                }
            } else if self.worker != worker::current_worker() {
                // Another job's cancel restarted the worker: this one's request went with it.
                self.worker = worker::post(&self.request.to_string());
                self.posted_now();
            }
            for line in worker::take_replies(self.request.job()) {
                match Reply::parse(&line) {
                    Ok(Reply::Progress { iterations, .. }) => self.iterations = iterations,
                    Ok(failed @ Reply::Failed { .. }) if self.optional => {
                        bevy::log::warn!("the worker could not do optional work: {failed}");
                        return (self.decode)(failed);
                    }
                    Ok(Reply::Failed { why, .. }) if self.on_page => {
                        // The engine cannot run here either: the player is told, with a way
                        // to try again; the game is saved.
                        worker::engine_lost(&why);
                    }
                    Ok(Reply::Failed { why, .. }) => {
                        worker::fail(&why);
                        return self.poll();
                    }
                    Ok(reply) => {
                        if let Some(result) = (self.decode)(reply) {
                            return Some(result);
                        }
                    }
                    Err(e) => bevy::log::error!("the worker's reply {line:?} is wrong: {e}"),
                }
            }
            // The watchdog: a worker that stays silent past the request's time (it died, or
            // hangs) is replaced once and asked again; silent twice, the page runs the engine
            // itself, or, for work the game can do without, the work is given up (the worker
            // stays for the searches).
            let cap = self.request.watch_after();
            if !self.on_page && self.silent_past(cap) {
                if self.asked_again && self.optional {
                    bevy::log::warn!(
                        "the engine's worker did not answer optional job {} twice: given up",
                        self.request.job()
                    );
                    return (self.decode)(Reply::Failed {
                        job: self.request.job(),
                        why: "no answer twice".into(),
                    });
                }
                if self.asked_again {
                    worker::fail("no answer twice, each past its time cap");
                    return self.poll();
                }
                bevy::log::warn!(
                    "the engine's worker did not answer job {} within its cap {cap:?} and {GRACE:?} \
                     (or did not start within {START:?}): starting a new one",
                    self.request.job(),
                );
                worker::restart();
                self.asked_again = true;
                self.worker = worker::post(&self.request.to_string());
                self.posted_now();
            }
            None
        }

        /// Whether the worker has had its time for the request and said nothing: the cap and
        /// the grace from when it had both the request and its module, or the start-up limit
        /// while its module is still loading.
        fn silent_past(&self, cap: Duration) -> bool {
            // Only the time the page was in view counts (a hidden page's worker may be frozen
            // with it): the time hidden since the request went is left out of either clock.
            let in_view =
                |from: Instant| worker::hidden().in_view(from, self.hidden_then, Instant::now());
            match worker::ready_since() {
                Some(ready) => in_view(ready.max(self.posted)) > cap + GRACE,
                None => in_view(self.posted) > START + cap,
            }
        }

        /// The request went to a worker now.
        fn posted_now(&mut self) {
            self.posted = Instant::now();
            self.hidden_then = worker::hidden().total(self.posted);
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
