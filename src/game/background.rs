//! A computation off the frame that the game can stop and look at: the AI's move, the hint,
//! the review, the win bar's estimate, the values on the squares and the post-game analysis
//! all run as one of these, so none of them ever blocks a frame.
//!
//! Every job is a [`wire::Request`](montello_engine::wire::Request) and its result a
//! [`wire::Reply`](montello_engine::wire::Reply), on every platform: the callers build the
//! request and say what to make of the reply, and never ask where it runs. Natively the
//! request line is read back and run on Bevy's `AsyncComputeTaskPool`, and the reply line read
//! back in turn, so the native app and its tests go through the very lines the browser sends
//! (`native`). In a browser the task pools run on the page's one thread, so the line goes to
//! the engine's Web Worker (`platform::web`) and its reply comes back, under a watchdog: a
//! worker that fails or stays silent past the request's time (twice a search's cap, the other
//! jobs' generous limits: `wire::Request::watch_after`, counted while the page is in view) is
//! replaced, then given up for the engine loaded on the page (the worker's own module), so the
//! AI always moves, or, if the engine cannot load at all, the player is told; work the game
//! can do without (the win bar's figure, the values) is given up instead (`web`).
//!
//! What differs between the two, callers read from [`ONE_ENGINE`].

#[cfg(not(all(target_family = "wasm", target_os = "unknown")))]
pub(crate) use native::{Background, Searchers};
#[cfg(all(target_family = "wasm", target_os = "unknown"))]
pub(crate) use web::{Background, Searchers};

/// Whether every job goes to one engine that runs one request at a time and that stopping a
/// job restarts (a browser's Web Worker): then the AI's move goes first (optional work waits
/// for it), and a job that is no longer wanted is left to finish rather than stopped only to
/// ask for the next one. Natively each job is a task of its own on the compute pool, and
/// stops alone.
pub(crate) const ONE_ENGINE: bool = cfg!(all(target_family = "wasm", target_os = "unknown"));

/// How a job's reply becomes its result: `None` for a reply that is not the result (a
/// progress line, in a browser).
type Decode<T> = Box<dyn FnMut(montello_engine::wire::Reply) -> Option<T> + Send + Sync>;

#[cfg(not(all(target_family = "wasm", target_os = "unknown")))]
mod native {
    use super::Decode;
    use bevy::tasks::{AsyncComputeTaskPool, Task, futures::check_ready};
    use montello_engine::search::{CancelHandle, Searcher};
    use montello_engine::wire::{Reply, Request};
    use std::sync::atomic::{AtomicU32, Ordering};
    use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

    /// The searchers one app's engine keeps between searches, in the slots its search requests
    /// name, as the browser's worker keeps them (one app's: tests run several in a process).
    #[derive(Clone, Default)]
    pub(crate) struct Searchers(Arc<Mutex<Vec<Slot>>>);

    /// A slot: its searcher, unless a search has it out, and how many searches took it.
    #[derive(Default)]
    pub(super) struct Slot {
        pub(super) searcher: Option<Searcher>,
        taken: u64,
    }

    impl Searchers {
        /// The slots (a job that panicked while holding them leaves them as they were).
        pub(super) fn slots(&self) -> MutexGuard<'_, Vec<Slot>> {
            self.0.lock().unwrap_or_else(PoisonError::into_inner)
        }

        /// Takes slot `i`'s searcher out for a search (`None` if it has none), and the number
        /// that gives it back.
        pub(super) fn take(&self, i: usize) -> (Option<Searcher>, u64) {
            let mut slots = self.slots();
            if slots.len() <= i {
                slots.resize_with(i + 1, Slot::default);
            }
            let slot = &mut slots[i];
            slot.taken += 1;
            (slot.searcher.take(), slot.taken)
        }

        /// Puts a searcher back in slot `i` after the search that took it as number `taken`,
        /// unless a later search took the slot meanwhile (a stopped search that ends after
        /// its successor started): the later one's searcher is the one to keep.
        pub(super) fn give_back(&self, i: usize, taken: u64, searcher: Option<Searcher>) {
            let mut slots = self.slots();
            if slots[i].taken == taken {
                slots[i].searcher = searcher;
            }
        }
    }

    /// The next job's number.
    static NEXT_JOB: AtomicU32 = AtomicU32::new(0);

    /// A running job: its task, which answers with the reply's line, and the handle it watches
    /// to stop early (and counts its iterations on).
    pub(crate) struct Background<T> {
        task: Task<String>,
        cancel: CancelHandle,
        decode: Decode<T>,
        /// Whether the reply came and was not the result (a job the engine refused, which then
        /// never answers).
        refused: bool,
    }

    impl<T> Background<T> {
        /// Runs the request `make` builds for a new job number; `decode` turns the reply into
        /// the result. For the jobs without a searcher to keep (a search goes through
        /// [`Background::search`], with the app's slots).
        pub(crate) fn request(
            make: impl FnOnce(u32) -> Request,
            decode: impl FnMut(Reply) -> Option<T> + Send + Sync + 'static,
        ) -> Self {
            Background::search(&Searchers::default(), make, decode)
        }

        /// Like [`Background::request`], for a search whose slot is among `searchers`.
        pub(crate) fn search(
            searchers: &Searchers,
            make: impl FnOnce(u32) -> Request,
            decode: impl FnMut(Reply) -> Option<T> + Send + Sync + 'static,
        ) -> Self {
            let request = make(NEXT_JOB.fetch_add(1, Ordering::Relaxed));
            let line = request.to_string();
            let cancel = CancelHandle::new();
            let handle = cancel.clone();
            let searchers = searchers.clone();
            let task = AsyncComputeTaskPool::get()
                .spawn(async move { answer(&line, &searchers, &handle) });
            Background {
                task,
                cancel,
                decode: Box::new(decode),
                refused: false,
            }
        }

        /// Like [`Background::request`], for work the game can do without (in a browser a
        /// failed worker is not replaced for it: see `web`); natively the same.
        pub(crate) fn optional(
            make: impl FnOnce(u32) -> Request,
            decode: impl FnMut(Reply) -> Option<T> + Send + Sync + 'static,
        ) -> Self {
            Background::request(make, decode)
        }

        /// The result, once the job is done (never waits).
        pub(crate) fn poll(&mut self) -> Option<T> {
            if self.refused {
                return None;
            }
            let line = check_ready(&mut self.task)?;
            let result = match Reply::parse(&line) {
                Ok(reply) => (self.decode)(reply),
                Err(e) => {
                    bevy::log::error!("the engine's reply {line:?} is wrong: {e}");
                    None
                }
            };
            if result.is_none() {
                bevy::log::error!("the engine's reply is not what the job asked for: {line}");
                self.refused = true;
            }
            result
        }

        /// Iterations the job has counted so far.
        pub(crate) fn iterations(&self) -> u64 {
            self.cancel.iterations()
        }

        /// Stops the job: it sees the flag within milliseconds and its thread is free again;
        /// whatever it would have answered is dropped.
        pub(crate) fn stop(self) {
            self.cancel.cancel();
            drop(self.task);
        }
    }

    /// Reads the request `line`, runs it and writes its reply's line, as the browser's worker
    /// does (`web/worker`). A search's slot is taken out of `searchers` while it runs (the other
    /// slots' searches may run beside it) and its searcher put back after.
    fn answer(line: &str, searchers: &Searchers, cancel: &CancelHandle) -> String {
        let request = match Request::parse(line) {
            Ok(request) => request,
            Err(e) => {
                return Reply::Failed {
                    job: 0,
                    why: format!("not a request ({e}): {line}"),
                }
                .to_string();
            }
        };
        let slot = match request {
            Request::Search { slot, .. } => Some(usize::from(slot)),
            _ => None,
        };
        let mut mine = Vec::new();
        let mut taken = 0;
        if let Some(i) = slot {
            mine.resize_with(i + 1, || None);
            (mine[i], taken) = searchers.take(i);
        }
        let reply = request.run(&mut mine, cancel);
        if let Some(i) = slot {
            searchers.give_back(i, taken, mine[i].take());
        }
        reply.to_string()
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

    /// The searchers the engine keeps: the worker keeps them, in the slots the requests name.
    #[derive(Clone, Default)]
    pub(crate) struct Searchers;

    /// A request to the engine's worker and what to make of its reply.
    pub(crate) struct Background<T> {
        request: Request,
        worker: Option<u32>,
        decode: super::Decode<T>,
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
        pub(crate) fn request(
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

        /// Like [`Background::request`], for a search: the worker keeps its searchers.
        pub(crate) fn search(
            _: &Searchers,
            make: impl FnOnce(u32) -> Request,
            decode: impl FnMut(Reply) -> Option<T> + Send + Sync + 'static,
        ) -> Self {
            Background::request(make, decode)
        }

        /// Like [`Background::request`], for work the game can do without: if the worker fails
        /// (or has failed), `decode` gets a [`Reply::Failed`] and no other engine is tried, and
        /// the player is told nothing.
        pub(crate) fn optional(
            make: impl FnOnce(u32) -> Request,
            decode: impl FnMut(Reply) -> Option<T> + Send + Sync + 'static,
        ) -> Self {
            Background {
                optional: true,
                ..Background::request(make, decode)
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
pub(crate) mod tests {
    use super::*;
    use montello_engine::search::{SearchLimits, SearchResult};
    use montello_engine::wire::{Reply, Request, SearcherSpec};
    use montello_engine::{Move, Position, Variant};
    use std::time::{Duration, Instant};

    /// Waits up to 15 s for `until` to give something (a stopped 20 s search must be seen
    /// to end before its cap).
    fn wait<T>(mut until: impl FnMut() -> Option<T>) -> T {
        let deadline = Instant::now() + Duration::from_secs(15);
        loop {
            if let Some(v) = until() {
                return v;
            }
            assert!(Instant::now() < deadline, "nothing within 15 s");
            std::thread::sleep(Duration::from_millis(1));
        }
    }

    /// The compute pool for the tests that run jobs, if no test has made it yet (one that
    /// builds an app with Bevy's `TaskPoolPlugin` may have made it first, with a single
    /// thread on a small machine: so no test here needs two of its jobs to run at once).
    pub(crate) fn compute_pool() {
        use bevy::tasks::{AsyncComputeTaskPool, TaskPoolBuilder};
        AsyncComputeTaskPool::get_or_init(|| TaskPoolBuilder::new().num_threads(8).build());
    }

    /// A search of `position` in `slot` of `searchers`.
    fn search(
        searchers: &Searchers,
        slot: u8,
        fresh: bool,
        position: Position,
        limits: SearchLimits,
    ) -> Background<SearchResult> {
        compute_pool();
        Background::search(
            searchers,
            move |job| Request::Search {
                job,
                slot,
                fresh,
                spec: SearcherSpec::Plain { seed: 9 },
                position,
                variant: Variant::Othello,
                limits,
            },
            |reply| match reply {
                Reply::Searched { result, .. } => Some(result),
                _ => None,
            },
        )
    }

    #[test]
    fn a_searcher_stays_in_its_slot_for_the_next_search_unless_asked_fresh() {
        let searchers = Searchers::default();
        let limits = SearchLimits::iterations(3000);
        let mut first = search(&searchers, 5, true, Position::start(), limits.clone());
        let first = wait(|| first.poll());
        assert_eq!(first.reused_nodes, 0, "a new searcher");
        // Two plies on along the line it found: its tree holds that position.
        let mut position = Position::start();
        for &mv in first.pv.iter().take(2) {
            assert_ne!(mv, Move::Pass, "no pass this early: {:?}", first.pv);
            position = Variant::Othello.play_unchecked(&position, mv);
        }
        let mut kept = search(&searchers, 5, false, position, limits.clone());
        let kept = wait(|| kept.poll());
        assert!(kept.reused_nodes > 0, "the tree was kept: {kept:?}");
        // Another app's searchers are its own.
        let mut other = search(&Searchers::default(), 5, false, position, limits.clone());
        let other = wait(|| other.poll());
        assert_eq!(other.reused_nodes, 0, "another app's slot 5: {other:?}");
        let mut fresh = search(&searchers, 5, true, position, limits);
        let fresh = wait(|| fresh.poll());
        assert_eq!(fresh.reused_nodes, 0, "asked fresh: {fresh:?}");
    }

    #[test]
    fn a_stopped_search_ends_at_once_and_its_searcher_goes_back() {
        let limits = SearchLimits {
            time: Some(Duration::from_secs(20)),
            iterations: None,
            memory: 16 << 20,
        };
        let searchers = Searchers::default();
        let running = search(&searchers, 6, true, Position::start(), limits);
        wait(|| (running.iterations() > 0).then_some(()));
        running.stop();
        // Well before its 20 s: the search saw the flag and put its searcher back.
        wait(|| {
            searchers
                .slots()
                .get(6)
                .is_some_and(|slot| slot.searcher.is_some())
                .then_some(())
        });
    }

    /// A stopped search may end after the next search of its slot started (or even ended):
    /// the searcher it gives back then is not kept over the newer one. (Driven here by hand:
    /// the tests share one compute pool, which may have a single thread.)
    #[test]
    fn a_stopped_search_that_ends_late_does_not_put_back_an_older_searcher() {
        let searchers = Searchers::default();
        let master = SearcherSpec::Level {
            level: montello_engine::search::Level::Master,
            seed: 1,
        };
        let plain = SearcherSpec::Plain { seed: 2 };
        let (none, old) = searchers.take(7);
        assert!(none.is_none(), "a new slot is empty");
        // The next search takes the slot while the old one still runs, and ends first.
        let (none, new) = searchers.take(7);
        assert!(none.is_none(), "the old search has the slot's searcher out");
        searchers.give_back(7, new, Some(plain.build()));
        searchers.give_back(7, old, Some(master.build()));
        let slots = searchers.slots();
        let kept = slots[7].searcher.as_ref().expect("a searcher is kept");
        assert_eq!(
            kept.config(),
            &plain.config(),
            "the newer search's searcher"
        );
    }

    #[test]
    fn every_kind_of_job_goes_through_the_wire_and_back() {
        compute_pool();
        let position = Position::start();
        let mut estimate = Background::request(
            move |job| Request::Estimate {
                job,
                variant: Variant::Othello,
                config: Default::default(),
                position,
            },
            |reply| match reply {
                Reply::Estimated { estimate, .. } => Some(estimate),
                _ => None,
            },
        );
        assert!(
            wait(|| estimate.poll()).is_some(),
            "the start has an estimate"
        );
        // A reply that is not the job's result is refused, not taken for one.
        let mut wrong = Background::request(
            move |job| Request::Estimate {
                job,
                variant: Variant::Othello,
                config: Default::default(),
                position,
            },
            |reply| match reply {
                Reply::Searched { .. } => Some(()),
                _ => None,
            },
        );
        std::thread::sleep(Duration::from_millis(200));
        assert_eq!(wrong.poll(), None);
        assert_eq!(wrong.poll(), None, "and stays refused");
    }
}
