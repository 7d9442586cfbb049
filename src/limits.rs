//! The run's time limit: one deadline shared by every solve of a command,
//! so that `--time-limit` bounds a whole analysis (a sweep, a sensitivity
//! table, a simulation), not each of its hundred solves.
//!
//! Process-wide on purpose: the analyses run solves on worker threads, deep
//! below their public signatures, and all of them must stop together. A
//! solve started after the deadline does no search and reports the plan it
//! starts from with an honest bound; analyses that need proven optima stop
//! with [`crate::solve::SolveError::TimeLimit`].

use std::sync::Mutex;
use std::time::{Duration, Instant};

static DEADLINE: Mutex<Option<Instant>> = Mutex::new(None);

/// Sets (or, with `None`, clears) the deadline `seconds` from now.
pub fn set_time_limit(seconds: Option<f64>) {
    let deadline = seconds.map(|s| Instant::now() + Duration::from_secs_f64(s.clamp(0.0, 1e9)));
    *DEADLINE.lock().unwrap_or_else(|e| e.into_inner()) = deadline;
}

/// The run's deadline, if any.
pub fn deadline() -> Option<Instant> {
    *DEADLINE.lock().unwrap_or_else(|e| e.into_inner())
}

/// Whether the run's deadline has passed.
pub fn expired() -> bool {
    deadline().is_some_and(|d| Instant::now() >= d)
}

/// The earlier of two optional deadlines.
pub fn earliest(a: Option<Instant>, b: Option<Instant>) -> Option<Instant> {
    match (a, b) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}
