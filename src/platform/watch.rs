//! The clocks of the engine worker's watchdog (`game::background`, `platform::web`): how long
//! the page has been out of view (the browser stops a hidden page's frames and may slow or
//! freeze its worker, so a job's time counts only while the page is in view), and when a
//! worker that failed is tried again. Platform-free, so that their arithmetic is tested
//! natively; the browser's side feeds them the page's visibility changes and the failures.

use bevy::platform::time::Instant;
use std::time::Duration;

/// How long a page has been hidden, all told: the browser stops a hidden page's frames and
/// may slow or freeze its worker, so the watchdog counts a job's time only while the page is
/// in view (the platform feeds it the page's visibility changes).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct HiddenTime {
    /// The hidden stretches that ended.
    past: Duration,
    /// When the page was hidden, while it is.
    since: Option<Instant>,
}

impl HiddenTime {
    /// The page went out of view at `now` (again: nothing changes).
    pub fn hide(&mut self, now: Instant) {
        self.since.get_or_insert(now);
    }

    /// The page came back into view at `now`.
    pub fn show(&mut self, now: Instant) {
        if let Some(since) = self.since.take() {
            self.past += now.saturating_duration_since(since);
        }
    }

    /// The time hidden up to `now`, the stretch under way included.
    pub fn total(&self, now: Instant) -> Duration {
        self.past
            + self
                .since
                .map_or(Duration::ZERO, |s| now.saturating_duration_since(s))
    }

    /// Of the time from `start` (when the total was `hidden_then`) to `now`, what the page spent
    /// in view.
    pub fn in_view(&self, start: Instant, hidden_then: Duration, now: Instant) -> Duration {
        now.saturating_duration_since(start)
            .saturating_sub(self.total(now).saturating_sub(hidden_then))
    }
}

/// How long after the engine's worker failed the page searches itself before it tries a new
/// worker: a failure may pass (a trap in one search, memory the browser took back), and the
/// page's own searches cost the player frames.
pub const RETRY_WORKER_AFTER: Duration = Duration::from_secs(60);

/// Whether a worker that failed at `failed_at` is still given up at `now`
/// ([`RETRY_WORKER_AFTER`]); a page whose worker never failed has not given it up.
pub fn worker_given_up(failed_at: Option<Instant>, now: Instant) -> bool {
    failed_at.is_some_and(|at| now.saturating_duration_since(at) < RETRY_WORKER_AFTER)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A failed worker is given up for a minute, then tried again.
    #[test]
    fn a_failed_worker_is_tried_again_after_a_minute() {
        let t0 = Instant::now();
        assert!(!worker_given_up(None, t0));
        assert!(worker_given_up(Some(t0), t0));
        assert!(worker_given_up(Some(t0), t0 + Duration::from_secs(59)));
        assert!(!worker_given_up(Some(t0), t0 + RETRY_WORKER_AFTER));
    }

    /// The watchdog's clock: time hidden is left out, the stretch under way included; a job
    /// posted while hidden counts from when the page came back.
    #[test]
    fn the_time_a_page_was_hidden_does_not_count() {
        let t0 = Instant::now();
        let at = |s: u64| t0 + Duration::from_secs(s);
        let mut hidden = HiddenTime::default();
        // A job posted at 1 s; the page hidden from 2 s to 12 s, looked at from 3 s to 13 s.
        let then = hidden.total(at(1));
        hidden.hide(at(2));
        hidden.hide(at(5));
        assert_eq!(hidden.total(at(4)), Duration::from_secs(2));
        assert_eq!(hidden.in_view(at(1), then, at(3)), Duration::from_secs(1));
        hidden.show(at(12));
        hidden.show(at(14));
        assert_eq!(hidden.total(at(20)), Duration::from_secs(10));
        assert_eq!(hidden.in_view(at(1), then, at(13)), Duration::from_secs(2));
        // A second stretch, and a job posted in the middle of it.
        hidden.hide(at(20));
        let during = hidden.total(at(25));
        assert_eq!(hidden.in_view(at(1), then, at(30)), Duration::from_secs(9));
        hidden.show(at(30));
        assert_eq!(
            hidden.in_view(at(25), during, at(32)),
            Duration::from_secs(2)
        );
    }
}
