//! The run's limits: one deadline shared by every solve of a command,
//! so that `--time-limit` bounds a whole analysis (a sweep, a sensitivity
//! table, a simulation), not each of its hundred solves.
//!
//! Process-wide on purpose: the analyses run solves on worker threads, deep
//! below their public signatures, and all of them must stop together. A
//! solve started after the deadline does no search and reports the plan it
//! starts from with an honest bound; analyses that need proven optima stop
//! with [`crate::solve::SolveError::TimeLimit`].

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

static DEADLINE: Mutex<Option<Instant>> = Mutex::new(None);
static INTERRUPTED: AtomicBool = AtomicBool::new(false);
static CANCELLED: AtomicBool = AtomicBool::new(false);

/// Stops the run as its deadline would (Ctrl-C): every solve ends at its
/// next check, and what was finished is reported.
pub fn interrupt() {
    INTERRUPTED.store(true, Ordering::SeqCst);
}

/// Ends an interruption, for a caller that goes on after one (the Python
/// package, where Ctrl-C stops one call, not the interpreter).
pub fn clear_interrupt() {
    INTERRUPTED.store(false, Ordering::SeqCst);
}

/// Whether [`interrupt`] was called.
pub fn interrupted() -> bool {
    INTERRUPTED.load(Ordering::SeqCst)
}

/// Stops the computation in progress as [`interrupt`] does, without ending
/// the run: the web server cancels a computation a newer request has
/// superseded, and goes on serving.
pub fn cancel() {
    CANCELLED.store(true, Ordering::SeqCst);
}

/// Ends a cancellation, before the next computation starts.
pub fn clear_cancel() {
    CANCELLED.store(false, Ordering::SeqCst);
}

/// Whether solves must stop now: the run was interrupted or the
/// computation cancelled.
pub fn stopped() -> bool {
    interrupted() || CANCELLED.load(Ordering::SeqCst)
}

/// Whether a search with this deadline must stop: it passed, or the run
/// was interrupted or cancelled.
pub fn passed(deadline: Option<Instant>) -> bool {
    stopped() || deadline.is_some_and(|d| Instant::now() >= d)
}

/// Sets (or, with `None`, clears) the deadline `seconds` from now.
pub fn set_time_limit(seconds: Option<f64>) {
    let deadline = seconds.map(|s| Instant::now() + Duration::from_secs_f64(s.clamp(0.0, 1e9)));
    *DEADLINE.lock().unwrap_or_else(|e| e.into_inner()) = deadline;
}

/// The run's deadline, if any.
pub fn deadline() -> Option<Instant> {
    *DEADLINE.lock().unwrap_or_else(|e| e.into_inner())
}

/// Whether the run's deadline has passed (or the run was interrupted).
pub fn expired() -> bool {
    passed(deadline())
}

/// The earlier of two optional deadlines.
pub fn earliest(a: Option<Instant>, b: Option<Instant>) -> Option<Instant> {
    match (a, b) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}
