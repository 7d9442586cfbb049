//! The page's *Suggest* button: a tuning of the base board
//! ([`crate::analysis::tune`]) on a thread of its own, so that the
//! designer's edits keep their answers while it runs (on one thread, the
//! other core left to the [`super::jobs`] worker). One suggestion at a
//! time: a new one, or a new board, cancels the one running.

use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Instant;

use serde::Serialize;

use super::jobs::RunState;
use crate::analysis::tune::{tune, Edit, TuneOptions};
use crate::board::Board;
use crate::solve::limits::{Cancel, Limits};

/// The longest a suggestion may search, in seconds: the USA board's
/// default tuning ran to its end in 359 s on 2 shared cores
/// (`output/tune/usa/tune.md`).
pub const MAX_SECONDS: f64 = 900.0;

/// One revision as the page lists it: its changes, each an edit.
#[derive(Clone, Debug, Serialize)]
pub struct Suggested {
    /// The changes (a ticket's points, a route's length, a ticket out or
    /// replaced), each with the page's edits that make it.
    pub changes: Vec<SuggestedChange>,
    /// Targets it misses (the board's are in [`Suggestion::base_misses`]).
    pub misses: usize,
    /// The optimum at the board's car count with the revision.
    pub optimum: u32,
}

/// One change of a suggested revision.
#[derive(Clone, Debug, Serialize)]
pub struct SuggestedChange {
    /// The change, with its `kind`.
    #[serde(flatten)]
    pub change: Edit,
    /// "Los Angeles – Miami 20→19".
    pub text: String,
    /// The scenario's changes that make it (a replacement is two), as the
    /// page's edits write them.
    pub edits: Vec<serde_json::Value>,
}

/// What `GET /api/suggest` returns.
#[derive(Clone, Debug, Serialize)]
pub struct Suggestion {
    /// The suggestion's number (a new one supersedes it).
    pub id: u64,
    /// The base run's id it tunes: a page showing another board ignores it.
    pub board_run: u64,
    /// Where it is: running, done, cancelled or failed.
    pub state: RunState,
    /// What it measured last, or why it stopped.
    pub message: String,
    /// Targets the board misses, once measured.
    pub base_misses: Option<usize>,
    /// The revisions found, best first (none may miss fewer than the board).
    pub revisions: Vec<Suggested>,
    /// Seconds since it started.
    pub seconds: f64,
}

#[derive(Default)]
struct Current {
    suggestion: Option<Suggestion>,
    /// The running suggestion's token.
    cancel: Option<Cancel>,
    started: Option<Instant>,
    next_id: u64,
}

/// The suggestion being computed or last computed.
#[derive(Default)]
pub struct Suggester {
    current: Arc<Mutex<Current>>,
}

impl Suggester {
    fn lock(&self) -> MutexGuard<'_, Current> {
        self.current.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Starts tuning `board` (whose file text is `text`, the base run
    /// `board_run`) with the default targets for at most `seconds`,
    /// cancelling the suggestion running. Returns its id.
    pub fn start(&self, board: Arc<Board>, text: String, board_run: u64, seconds: f64) -> u64 {
        let limits = Limits::none().with_time_limit(Some(seconds.clamp(1.0, MAX_SECONDS)));
        let id = {
            let mut current = self.lock();
            if let Some(running) = current.cancel.take() {
                running.cancel();
            }
            current.next_id += 1;
            current.suggestion = Some(Suggestion {
                id: current.next_id,
                board_run,
                state: RunState::Running,
                message: "measuring the board".into(),
                base_misses: None,
                revisions: Vec::new(),
                seconds: 0.0,
            });
            current.cancel = Some(limits.cancel.clone());
            current.started = Some(Instant::now());
            current.next_id
        };
        let shared = Arc::clone(&self.current);
        std::thread::spawn(move || run(shared, id, board, text, limits));
        id
    }

    /// The suggestion, if one was asked for since the board was loaded.
    pub fn status(&self) -> Option<Suggestion> {
        let current = self.lock();
        let mut s = current.suggestion.clone()?;
        if s.state == RunState::Running {
            s.seconds = current.started.map_or(0.0, |t| t.elapsed().as_secs_f64());
        }
        Some(s)
    }

    /// Drops the suggestion (a new board), cancelling it if it runs.
    pub fn clear(&self) {
        let mut current = self.lock();
        if let Some(running) = current.cancel.take() {
            running.cancel();
        }
        current.suggestion = None;
    }
}

/// The tuning itself, publishing its progress into `shared` while it is
/// still the current suggestion `id`.
fn run(shared: Arc<Mutex<Current>>, id: u64, board: Arc<Board>, text: String, limits: Limits) {
    let started = Instant::now();
    let publish = |f: &mut dyn FnMut(&mut Suggestion)| {
        let mut current = shared.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(s) = current.suggestion.as_mut().filter(|s| s.id == id) {
            f(s);
        }
    };
    let options = TuneOptions {
        threads: 1,
        ..TuneOptions::defaults(&board)
    };
    let answer = tune(&board, &text, &options, &limits, &|p| {
        let line = format!(
            "{} candidates considered, {} measured; {}",
            p.considered, p.solved, p.what
        );
        publish(&mut |s| s.message = line.clone());
    });
    let cancelled = limits.cancel.is_cancelled();
    publish(&mut |s| {
        s.seconds = started.elapsed().as_secs_f64();
        match &answer {
            _ if cancelled => {
                s.state = RunState::Cancelled;
                s.message = "superseded".into();
            }
            Ok(t) => {
                s.state = RunState::Done;
                s.base_misses = Some(t.base.misses);
                s.revisions = t
                    .revisions
                    .iter()
                    .map(|r| Suggested {
                        changes: r
                            .changes
                            .iter()
                            .map(|c| SuggestedChange {
                                change: c.clone(),
                                text: c.describe(),
                                edits: c.changes_json(),
                            })
                            .collect(),
                        misses: r.misses,
                        optimum: r.measure.optimum,
                    })
                    .collect();
                s.message = match &t.search.stopped {
                    Some(why) => format!("stopped early: {why}"),
                    None => "the search ran to its end".into(),
                };
            }
            Err(e) => {
                s.state = RunState::Failed;
                s.message = e.to_string();
            }
        }
    });
}
