//! A call's limits: its deadline, its memory budget and its cancellation
//! token, in one value ([`Limits`]) that each face makes for each call (a
//! command, a page's job, a coach's answer, a Python call) and that travels
//! down with it ([`crate::solve::SolveOptions::limits`], the analyses'
//! arguments, [`crate::solve::frontier::Goal::limits`]), as SCIP keeps its
//! parameters per instance. Two calls side by side each stop at their own
//! limits: a coach's answer of the online game has its own seconds however
//! long the server has run.
//!
//! One thing stays process-wide: Ctrl-C ([`interrupt`]). A signal handler
//! has no call to reach, and every call of the process must stop on it;
//! [`Limits::stopped`] reads it beside the call's own token, so that it
//! reaches every search through the same check.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

use crate::solve::Stop;

/// Set by Ctrl-C: the one process-wide stop (see the module's doc).
static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// Stops every call of the process as its deadline would (Ctrl-C): every
/// solve ends at its next check, and what was finished is reported.
pub fn interrupt() {
    INTERRUPTED.store(true, Ordering::SeqCst);
}

/// Ends an interruption, for a process that goes on after one (a server
/// that serves again after a Ctrl-C it caught).
pub fn clear_interrupt() {
    INTERRUPTED.store(false, Ordering::SeqCst);
}

/// Whether [`interrupt`] was called.
pub fn interrupted() -> bool {
    INTERRUPTED.load(Ordering::SeqCst)
}

/// A cancellation token, shared by a call and whoever may cancel it (the
/// designer page's worker cancels a job a newer request superseded; the
/// Python package cancels its call on Ctrl-C). Clones share one flag.
#[derive(Clone, Debug, Default)]
pub struct Cancel(Arc<AtomicBool>);

impl Cancel {
    /// A token not cancelled.
    pub fn new() -> Cancel {
        Cancel::default()
    }

    /// Stops every call holding this token at its next check.
    pub fn cancel(&self) {
        self.0.store(true, Ordering::SeqCst);
    }

    /// Whether [`Cancel::cancel`] was called.
    pub fn is_cancelled(&self) -> bool {
        self.0.load(Ordering::SeqCst)
    }
}

/// One call's limits: when it must stop, how much memory its tables and
/// models may take, and its cancellation token. Cheap to clone (the token
/// is shared). The default has no deadline, the machine's memory budget
/// ([`machine_memory`]) and a token of its own.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// When every search of the call stops (`None`: never).
    pub deadline: Option<Instant>,
    /// Bytes the frontier programme's tables (and, estimated, a MIP
    /// model) may take (`None`: [`machine_memory`]).
    pub memory: Option<usize>,
    /// Stops the call when cancelled.
    pub cancel: Cancel,
}

impl Limits {
    /// No deadline, the machine's memory budget, a token of its own.
    pub fn none() -> Limits {
        Limits::default()
    }

    /// These limits with a deadline `seconds` from now, where given
    /// (replacing the deadline they had).
    pub fn with_time_limit(self, seconds: Option<f64>) -> Limits {
        Limits {
            deadline: seconds.map(|s| Instant::now() + Duration::from_secs_f64(s.clamp(0.0, 1e9))),
            ..self
        }
    }

    /// These limits with a memory budget of `bytes`, where given.
    pub fn with_memory(self, bytes: Option<usize>) -> Limits {
        Limits {
            memory: bytes.map(|b| b.max(1)),
            ..self
        }
    }

    /// These limits, stopped also by `cancel`.
    pub fn with_cancel(self, cancel: Cancel) -> Limits {
        Limits { cancel, ..self }
    }

    /// These limits with their deadline brought forward to `seconds` from
    /// now where that is earlier (a solve's own limit within its call's).
    pub fn within(&self, seconds: Option<f64>) -> Limits {
        let own = seconds.map(|s| Instant::now() + Duration::from_secs_f64(s.clamp(0.0, 1e9)));
        Limits {
            deadline: earliest(self.deadline, own),
            ..self.clone()
        }
    }

    /// Whether the call must stop now whatever the clock says: cancelled,
    /// or the process interrupted.
    pub fn stopped(&self) -> bool {
        self.cancel.is_cancelled() || interrupted()
    }

    /// Whether the call must stop: its deadline passed, or it was
    /// cancelled or interrupted.
    pub fn passed(&self) -> bool {
        self.stopped() || self.deadline.is_some_and(|d| Instant::now() >= d)
    }

    /// Why the call must stop, if it must: cancelled, interrupted or out of
    /// time, in that order.
    pub fn why(&self) -> Option<Stop> {
        if self.cancel.is_cancelled() {
            Some(Stop::Cancelled)
        } else if interrupted() {
            Some(Stop::Interrupted)
        } else if self.deadline.is_some_and(|d| Instant::now() >= d) {
            Some(Stop::TimeLimit)
        } else {
            None
        }
    }

    /// Seconds left before the deadline, or `None` without one.
    pub fn left(&self) -> Option<f64> {
        self.deadline
            .map(|d| d.saturating_duration_since(Instant::now()).as_secs_f64())
    }

    /// The memory budget in bytes: as set, or [`machine_memory`].
    pub fn memory_budget(&self) -> usize {
        self.memory.unwrap_or_else(machine_memory)
    }
}

/// The memory budget of a call that sets none: half of the memory the
/// machine had available when first asked (4 GiB where that is unknown).
/// Read once per process, so that every call without a budget of its own
/// has the same one (a property of the machine, not a setting). A run that
/// would pass its budget stops, as at a deadline, and the caller hands over
/// to the branch and cut or reports the limit: the programme is never
/// killed by the operating system.
pub fn machine_memory() -> usize {
    static AVAILABLE: OnceLock<usize> = OnceLock::new();
    *AVAILABLE.get_or_init(|| {
        std::fs::read_to_string("/proc/meminfo")
            .ok()
            .and_then(|info| {
                info.lines()
                    .find(|l| l.starts_with("MemAvailable:"))
                    .and_then(|l| l.split_whitespace().nth(1)?.parse::<usize>().ok())
            })
            .map(|kb| kb * 1024 / 2)
            .unwrap_or(4 << 30)
            .max(1)
    })
}

/// The earlier of two optional deadlines.
pub fn earliest(a: Option<Instant>, b: Option<Instant>) -> Option<Instant> {
    match (a, b) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}
